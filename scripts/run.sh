#!/usr/bin/env bash
# The main job: build uirq and run its demonstration on the built-in default:
# a real ABBA inversion in a plain pthread program, reported by uirq-lockdep
# before it can deadlock.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}"
uirq_build build
exec build/tools/uirq-lockdep "$@" build/examples/abba

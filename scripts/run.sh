#!/usr/bin/env bash
# The main job: build uirq and run irqsim on the built-in default: the
# TWL4030 power button on a simulated i2c bus, its interrupt handled by
# threaded nested handlers, KEY_POWER at an input client, with lockdep
# watching (docs/irqsim.1).  Arguments go to irqsim:
#   scripts/run.sh --legacy          the 2009 seed patch's driver (exits 1 by design)
#   scripts/run.sh --lockdep-demo    the ABBA demonstration under uirq-lockdep
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}"
# without the test suite and the benchmarks: the main job needs neither Check nor their tools
uirq_build build -Dtests=disabled -Dbenches=false
exec build/tools/irqsim/irqsim "$@"

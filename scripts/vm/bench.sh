#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real-kernel benchmark:  scripts/vm/bench.sh [BUILD_DIR] [uio_bench options]
# Builds BUILD_DIR (default build-bench-vm, a release build) if needed, boots the test VM
# (scripts/vm) with two guest CPUs and runs bench/vm/bench-uio there: UIO interrupt ->
# thread handler latency, uirq against a hand-written read() loop, as ratios (TCG makes
# absolute times meaningless).  Prints the bench's lines; exit 0 if it ran to its end.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. scripts/deps.sh
uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}" "${UIRQ_TEST_PACKAGES[@]}" "${UIRQ_VM_PACKAGES[@]}"
build="build-bench-vm"
if [ $# -gt 0 ] && [ -d "$1" ]; then
	build=$1
	shift
fi
[ -f "$build/build.ninja" ] || meson setup "$build" --buildtype=release >/dev/null || exit 1
ninja -C "$build" bench/vm/bench-uio >/dev/null || exit 1
out=$build/vm-bench
mkdir -p "$out"
kroot=$(scripts/vm/kernel.sh) || exit 1
# bench-uio takes its options from the guest's command file: /init runs programs bare.
wrapper=$out/bench-uio-run
printf '#!/bin/sh\nexec bench-uio %s\n' "$*" >"$wrapper"
chmod +x "$wrapper"
UIRQ_VM_RUN='bench-uio-run' UIRQ_VM_PROG_TIMEOUT=1200 \
	scripts/vm/initramfs.sh "$kroot" "$out/initramfs.cpio" "$build/bench/vm/bench-uio" "$wrapper" || exit 1
UIRQ_VM_SMP=${UIRQ_VM_SMP:-2} scripts/vm/boot.sh "$kroot/vmlinuz" "$out/initramfs.cpio" "$out/console.log" 1500
tr -d '\r' <"$out/console.log" | grep -E '^(uio_bench|uirq-vm: end)' || true
tr -d '\r' <"$out/console.log" | grep -q '^uirq-vm: end bench-uio-run rc=0'

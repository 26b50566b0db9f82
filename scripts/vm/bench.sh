#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real-kernel benchmark:  scripts/vm/bench.sh [BUILD_DIR] [irq_bench options]
# Builds BUILD_DIR (default build-bench-vm, a release build) if needed, boots the test VM
# (scripts/vm) with two guest CPUs and runs bench/vm/bench-irq there: interrupt -> thread
# handler latency for UIO, VFIO MSI and VFIO INTx, uirq against a hand-written poll()/read()
# loop each, as ratios (TCG makes absolute times meaningless).  Prints the bench's lines;
# exit 0 if it ran to its end.
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
ninja -C "$build" bench/vm/bench-irq >/dev/null || exit 1
out=$build/vm-bench
mkdir -p "$out"
kroot=$(scripts/vm/kernel.sh) || exit 1
# bench-irq takes its options from the guest's command file: /init runs programs bare.
wrapper=$out/bench-irq-run
printf '#!/bin/sh\nexec bench-irq %s\n' "$*" >"$wrapper"
chmod +x "$wrapper"
UIRQ_VM_RUN='bench-irq-run' UIRQ_VM_PROG_TIMEOUT=1200 \
	scripts/vm/initramfs.sh "$kroot" "$out/initramfs.cpio" "$build/bench/vm/bench-irq" "$wrapper" || exit 1
UIRQ_VM_SMP=${UIRQ_VM_SMP:-2} scripts/vm/boot.sh "$kroot/vmlinuz" "$out/initramfs.cpio" "$out/console.log" 1500
tr -d '\r' <"$out/console.log" | grep -E '^(irq_bench|uirq-vm: end)' || true
tr -d '\r' <"$out/console.log" | grep -q '^uirq-vm: end bench-irq-run rc=0'

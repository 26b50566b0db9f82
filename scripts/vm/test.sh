#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run the vm-* test programs of a build inside a real kernel:  scripts/vm/test.sh BUILD_DIR
# Takes BUILD_DIR/tests/vm/vm-* (and the tools uirq-pwrbutton and uirq-latency when
# built), fetches the kernel (cached), builds gpio-sim for it (cached: gpio-sim.sh), builds the initramfs, boots once under TCG and prints
# each program's TAP and "vm: N passed, N failed".  Exit 0 only if every test passed.
# UIRQ_VM_PROG_TIMEOUT bounds each program in the guest (s, default 300); the whole boot is
# bounded by that times the number of programs plus UIRQ_VM_BOOT_TIMEOUT (default 180).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: scripts/vm/test.sh BUILD_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
out=$build/vm
mkdir -p "$out"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

for tool in qemu-system-x86_64 busybox cpio modprobe depmod xz; do
	command -v "$tool" >/dev/null ||
		{ echo "vm: $tool missing (the packages are UIRQ_VM_PACKAGES in scripts/deps.sh)" >&2; exit 1; }
done

# UIRQ_VM_RUN (a glob, default vm-*) picks the programs: only those are put in the guest and counted.
run=${UIRQ_VM_RUN:-vm-*}
progs=() names=() bins=()
for p in "$build"/tests/vm/vm-*; do
	if [ ! -f "$p" ] || [ ! -x "$p" ]; then continue; fi
	# shellcheck disable=SC2254 # $run is a glob on purpose
	case ${p##*/} in $run) ;; *) continue ;; esac
	progs+=("$p")
	names+=("$(basename "$p")")
done
if [ ${#progs[@]} -eq 0 ]; then
	echo "vm: no programs matching $run in $build/tests/vm"
	echo "vm: 0 passed, 1 failed"
	exit 1
fi
bins=("${progs[@]}")
for tool in uirq-pwrbutton/uirq-pwrbutton uirq-latency/uirq-latency; do
	[ -x "$build/tools/$tool" ] && bins+=("$build/tools/$tool")
done

t0=$(now)
kroot=$("$here/kernel.sh") || { echo "vm: no kernel"; echo "vm: 0 passed, 1 failed"; exit 1; }
t1=$(now)
# gpio-sim for the GPIO tests: built once per kernel version, then taken from its cache.
gpiosim=$("$here/gpio-sim.sh" "$kroot") || { echo "vm: no gpio-sim module"; echo "vm: 0 passed, 1 failed"; exit 1; }
tg=$(now)
prog_bound=${UIRQ_VM_PROG_TIMEOUT:-300}
UIRQ_VM_EXTRA_MODULES="$gpiosim" UIRQ_VM_PROG_TIMEOUT=$prog_bound "$here/initramfs.sh" "$kroot" "$out/initramfs.cpio" "${bins[@]}" ||
	{ echo "vm: building the initramfs failed"; echo "vm: 0 passed, 1 failed"; exit 1; }
t2=$(now)

bound=$(( ${UIRQ_VM_BOOT_TIMEOUT:-180} + ${#progs[@]} * (prog_bound + 15) ))
echo "vm: booting $(cat "$kroot/version") with ${names[*]} (bound ${bound}s)"
"$here/boot.sh" "$kroot/vmlinuz" "$out/initramfs.cpio" "$out/console.log" "$bound"
qrc=$?
t3=$(now)

report=$("$here/results.sh" "$out/console.log" "${names[@]}")
status=$?
printf '%s\n' "$report" | sed '$d'
read -r passed failed < <(printf '%s\n' "$report" | tail -n 1 | awk '{ print $2, $4 }')
case $qrc in
0) ;;
124 | 137) echo "vm: the guest hung: killed after ${bound}s" ;;
*) echo "vm: qemu exited $qrc" ;;
esac
echo "vm: kernel $(secs "$t0" "$t1")s, gpio-sim $(secs "$t1" "$tg")s, initramfs $(secs "$tg" "$t2")s, boot and run $(secs "$t2" "$t3")s"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$qrc" -ne 0 ]; then
	echo "vm: guest console tail ($out/console.log):"
	tr -d '\r' <"$out/console.log" | tail -n 60 | sed 's/^/vm: | /'
	# A clean-looking log with a bad qemu exit still fails.
	[ "$failed" -gt 0 ] || failed=1
fi
# The counts come last, after any console tail, so the verdict is the closing line.
echo "vm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

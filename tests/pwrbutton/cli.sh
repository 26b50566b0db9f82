#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# uirq-pwrbutton's command line on the host, which has none of its devices:
# every option that the chosen form has no use for is a usage error (exit 2)
# naming it, a malformed device name is one too (saying what the name looks
# like), and a device that cannot be opened is named by the file tried.
# Nothing runs after a usage error (stdout stays empty).  The devices' own
# behaviour is vm-90-pwrbutton's (tests/vm), in the VM.  TAP on stdout.
#   tests/pwrbutton/cli.sh UIRQ_PWRBUTTON
set -uo pipefail
daemon=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# check EXIT STDERR-TEXT ARGS...: the exit status and a piece of stderr
check() {
	local want=$1 text=$2 rc
	shift 2
	n=$((n + 1))
	timeout 20 "$daemon" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/err" &&
		{ [ "$want" -ne 2 ] || [ ! -s "$tmp/out" ]; }; then
		echo "ok $n - $*: exit $rc, \"$text\""
	else
		echo "not ok $n - $*: exit $rc (want $want), want \"$text\" on stderr"
		sed 's/^/# err: /' "$tmp/err"
		sed 's/^/# out: /' "$tmp/out"
	fi
}

# --gpio: the line is the interrupt and the level; nothing of the device and i2c form applies.
for opt in "--profile edu" "--uio uio0" "--vfio 0000:00:04.0" "--bar 1" "--status 0x24" "--ack 0x64" \
	"--i2c 1" "--addr 0x20" "--reg 0x10" "--bit 1"; do
	read -r -a o <<<"$opt"
	check 2 "${o[0]} does not apply with --gpio" --gpio mychip:1 "${o[@]}"
done
# ... and the GPIO options apply to nothing else (--debounce 0 too: given is given).
check 2 "--active-low applies to a GPIO line only" --i2c 1 --active-low
check 2 "--debounce applies to a GPIO line only" --i2c 1 --debounce 0
# stdout gets evtest's lines: no uinput device to name.
check 2 "--name names the uinput device: it does not apply with --output stdout" \
	--i2c 1 --output stdout --name mybutton
# A PCI address, said how it looks.
for addr in bogus 0000:zz:04.0 00:04.0 0000:00:20.0 0000:00:04.8 /etc/passwd; do
	check 2 "--vfio $addr: not a PCI device address: expected DDDD:BB:DD.F" --profile edu --vfio "$addr" --i2c 1
	check 2 "--vfio $addr: not a PCI device address: expected DDDD:BB:DD.F" --vfio "$addr" --i2c 1
done
check 2 "--uio /etc/passwd: not a UIO device: expected /dev/uioN or uioN" \
	--uio /etc/passwd --status 0x24 --ack 0x64 --i2c 1
# --wait: uirq's wait modes, said what they are; a good one gets as far as the device.
for w in spin adaptive: adaptive:0 adaptive:x pollx; do
	check 2 "--wait $w: expected blocking (the default), adaptive[:NS]" --gpio mychip:1 --wait "$w"
done
check 1 "opening GPIO chip /dev/mychip: No such file or directory" --gpio mychip:1 --wait adaptive:20000
check 1 "opening GPIO chip /dev/mychip: No such file or directory" --gpio mychip:1 --wait poll
# The file tried, not the name given (names nobody's host has).
check 1 "opening GPIO chip /dev/mychip: No such file or directory" --gpio mychip:1
check 1 "opening GPIO chip /dev/gpiochip97: No such file or directory" --gpio 97:1
check 1 "opening /dev/uio97: No such file or directory" --uio uio97 --status 0x24 --ack 0x64 --i2c 1
echo "1..$n"

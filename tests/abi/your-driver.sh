#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The "Your driver on uirq" example (examples/your-driver): the board binds
# the kernel-style driver and a press and a release come out as KEY_ENTER 1
# and 0, once each, in order; with a seed (the deterministic mode) twice
# the same.  TAP on stdout.   tests/abi/your-driver.sh BOARD
set -uo pipefail
board=$1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
# The key events of an evtest-style output, as "VALUE" lines.
keys() { grep -o 'code 28 (KEY_ENTER), value [01]' | awk '{ print $NF }' | tr '\n' ' '; }

for args in "" "3"; do
	# shellcheck disable=SC2086 # no seed is no argument
	out=$("$board" $args 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(keys <<<"$out")" = "1 0 " ]; then
		ok "board ${args:+(seed $args) }reports the press and the release once each"
	else
		not_ok "board ${args:+(seed $args) }reports the press and the release once each (exit $rc)"
		printf '# %s\n' "${out//$'\n'/$'\n'# }"
	fi
done
if [ "$("$board" 3 2>&1)" = "$("$board" 3 2>&1)" ]; then
	ok "seed 3 replays byte for byte"
else
	not_ok "seed 3 replays byte for byte"
fi
echo "1..$n"

#!/usr/bin/env bash
# TAP: each seeded bug (README.md here) is found by irqsim's --explore within
# its stated bound, its first failing seed replays to the same failure every
# time, and the unpatched irqsim passes the same exploration.
#   sim-bugs.sh IRQSIM  NAME VARIANT SCENARIO SEEDS  [NAME VARIANT SCENARIO SEEDS ...]
# SCENARIO "default" is the built-in one.
set -uo pipefail

irqsim=$1
shift
if [ $(($# % 4)) -ne 0 ] || [ $# -eq 0 ]; then
	echo "Bail out! usage: sim-bugs.sh IRQSIM {NAME VARIANT SCENARIO SEEDS}..."
	exit 1
fi
echo "1..$(($# * 3 / 4))"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
# A sanitizer's report names the process and its addresses, which differ
# from run to run (ASLR); the rest of a replay's output must not.
normalize() { sed -e 's/==[0-9]*==/==PID==/g' -e 's/0x[0-9a-f]\{6,\}/0xADDR/g'; }

while [ $# -gt 0 ]; do
	name=$1 variant=$2 scenario=$3 seeds=$4
	shift 4
	sc=()
	[ "$scenario" = default ] || sc=(--scenario "$scenario")

	# (a) found within the bound, with the default strategy (PCT, depth 3).
	out=$("$variant" "${sc[@]}" --explore "$seeds" --seed 0 2>&1)
	rc=$?
	failing=$(sed -n "s/^explored $seeds seeds: \([0-9]*\) failing$/\1/p" <<<"$out")
	if [ "$rc" -eq 1 ] && [ "${failing:-0}" -ge 1 ]; then
		ok "$name: --explore $seeds finds it ($failing failing)"
	else
		not_ok "$name: --explore $seeds finds it (exit $rc, ${failing:-no} failing)"
		printf '# %s\n' "$out" | tail -n 5
	fi

	# (b) the first failing seed's replay, five times: exit 1 and the same output.
	# The replay line names the program as invoked: the variant itself.
	# It is there to be pasted into a shell, its words quoted where they need it (a
	# build tree under "/home/me/my projects"): read as a shell reads it.
	replay=$(sed -n 's/^  replay: //p' <<<"$out" | head -n 1)
	eval "args=($replay)"
	[ "${args[0]:-}" = "$variant" ] || args=()
	args=("${args[@]:1}")
	same=yes first=
	for i in 1 2 3 4 5; do
		if [ ${#args[@]} -eq 0 ]; then
			same="no replay line"
			break
		fi
		run=$("$variant" "${args[@]}" 2>&1 | normalize)
		rc=$?	# pipefail: the variant's status
		if [ "$rc" -ne 1 ]; then
			same="run $i exited $rc"
			break
		fi
		if [ "$i" -eq 1 ]; then
			first=$run
		elif [ "$run" != "$first" ]; then
			same="run $i differs from run 1"
			break
		fi
	done
	if [ "$same" = yes ]; then
		ok "$name: replay '$replay' fails 5 times with the same output"
	else
		not_ok "$name: replay '$replay': $same"
	fi

	# (c) the unpatched irqsim passes the same seeds: the failure is the bug's.
	out=$("$irqsim" "${sc[@]}" --explore "$seeds" --seed 0 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && grep -qx "explored $seeds seeds: 0 failing" <<<"$out"; then
		ok "$name: unpatched irqsim passes --explore $seeds"
	else
		not_ok "$name: unpatched irqsim passes --explore $seeds (exit $rc)"
		printf '# %s\n' "$out" | tail -n 5
	fi
done

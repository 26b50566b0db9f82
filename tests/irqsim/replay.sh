#!/usr/bin/env bash
# irqsim --seed replays bit for bit: 100 seeds, each run twice with the same
# options, must give byte-identical output - the human output (event log,
# /proc/interrupts, latency summary, verdict), stderr, the --trace file and
# the --json summary - and the same exit status.  The seeds rotate over the
# built-in scenarios (storm aside: its 110000 edges take seconds), CPU
# counts, forced threading, the legacy driver and both strategies, and must
# not all schedule alike (else the comparison could not fail for the
# schedule's sake).  TAP on stdout.
#   tests/irqsim/replay.sh IRQSIM [SEEDS]
set -uo pipefail
irqsim=$1
seeds=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scenarios=(default short-presses bounce shared-line i2c-faults)
variants=("" "--cpus 2" "--threadirqs" "--cpus 3 --threadirqs" "--legacy")
strategies=(pct random pct:2 pct:5)

run() { # DIR ARGS...: human output, stderr, trace, status; then the JSON
	local d=$1
	shift
	mkdir -p "$d"
	# One trace path for both runs: a failing run's replay line names it.
	"$irqsim" "$@" --trace "$tmp/trace.json" >"$d/out" 2>"$d/err"
	echo $? >"$d/status"
	mv "$tmp/trace.json" "$d/trace.json"
	"$irqsim" "$@" --json >"$d/json" 2>/dev/null
	echo $? >>"$d/status"
}

echo "1..$((seeds + 1))"
hashes=$tmp/hashes
: >"$hashes"
for ((s = 1; s <= seeds; s++)); do
	sc=${scenarios[s % ${#scenarios[@]}]}
	read -r -a v <<<"${variants[(s / ${#scenarios[@]}) % ${#variants[@]}]}"
	st=${strategies[s % ${#strategies[@]}]}
	args=(--scenario "$sc" "${v[@]}" --seed "$s" --strategy "$st")
	run "$tmp/a" "${args[@]}"
	run "$tmp/b" "${args[@]}"
	bad=
	for f in out err trace.json json status; do
		cmp -s "$tmp/a/$f" "$tmp/b/$f" || bad+="$f "
	done
	if [ -z "$bad" ] && grep -q "^deterministic: seed $s," "$tmp/a/out"; then
		echo "ok $s - ${args[*]}: replayed byte for byte"
	else
		echo "not ok $s - ${args[*]}: differs in: ${bad:-no 'deterministic:' line}"
		for f in $bad; do
			diff "$tmp/a/$f" "$tmp/b/$f" | head -n 10 | sed 's/^/# /'
		done
	fi
	sed -n 's/^deterministic: .*(hash \([0-9a-f]*\))$/\1/p' "$tmp/a/out" >>"$hashes"
done
distinct=$(sort -u "$hashes" | wc -l)
if [ "$distinct" -ge $((seeds * 9 / 10)) ]; then
	echo "ok $((seeds + 1)) - $distinct distinct schedules over $seeds seeds"
else
	echo "not ok $((seeds + 1)) - only $distinct distinct schedules over $seeds seeds"
fi

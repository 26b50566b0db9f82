#!/usr/bin/env bash
# The soak under uirq's deterministic mode (uirq-soak --seed): one seed, run
# twice, must pass both times (the conservation checks, no lockdep report, no
# stall or deadlock of the mode) and print the same output byte for byte -
# every figure and the interleaving's hash ("deterministic: ... (hash H)").
# Paced over a few seconds of virtual time, so the control threads' churn
# (thousands of binds, disables, moves) is in the replay, not only the edges.
# TAP on stdout.
#   tests/soak/seeded.sh UIRQ_SOAK [EDGES [SECONDS [SEED]]]
set -uo pipefail
soak=$1
edges=${2:-20000}
secs=${3:-2}
seed=${4:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..3"
for run in a b; do
	"$soak" "$edges" "$secs" --seed "$seed" >"$tmp/$run.out" 2>"$tmp/$run.err"
	status=$?
	if [ "$status" -eq 0 ] && grep -q '^soak: PASS' "$tmp/$run.out" &&
		grep -q "^deterministic: seed $seed, .* (hash [0-9a-f]*)$" "$tmp/$run.out"; then
		echo "ok - run $run: $edges edges over $secs s, --seed $seed: PASS ($(sed -n 's/^deterministic: //p' "$tmp/$run.out"))"
	else
		echo "not ok - run $run: $edges edges over $secs s, --seed $seed: exit $status"
		tail -n 20 "$tmp/$run.out" "$tmp/$run.err" | sed 's/^/# /'
	fi
done
if cmp -s "$tmp/a.out" "$tmp/b.out"; then
	echo "ok - the two runs printed the same figures and hash"
else
	echo "not ok - the two runs differ"
	diff "$tmp/a.out" "$tmp/b.out" | head -n 20 | sed 's/^/# /'
fi

#!/usr/bin/env bash
# The figures of README.md: for one variant and scenario, --explore 1000 with
# PCT and with random (first failing seed, failing count, wall time), then
# free runs of the same variant for as long as the PCT exploration took,
# judged on their exit and their JSON delivery counts.
#   measure.sh VARIANT SCENARIO     (SCENARIO "default": the built-in one)
set -uo pipefail
variant=$1 scenario=$2
sc=()
[ "$scenario" = default ] || sc=(--scenario "$scenario")

explore() {
	local strategy=$1 t0 t1 out first
	t0=$(date +%s%N)
	out=$("$variant" "${sc[@]}" --explore 1000 --seed 0 --strategy "$strategy" 2>&1)
	t1=$(date +%s%N)
	first=$(sed -n 's/^seed \([0-9]*\): failed.*/\1/p' <<<"$out" | head -n 1)
	echo "$strategy: first failing seed ${first:-none}, $(grep '^explored' <<<"$out"), $(((t1 - t0) / 1000000)) ms"
	budget_ms=$(((t1 - t0) / 1000000))
}
explore pct:3
pct_ms=$budget_ms
explore random

runs=0 bad=0
t0=$(date +%s%N)
json=$(mktemp)
trap 'rm -f "$json"' EXIT
while [ $((($(date +%s%N) - t0) / 1000000)) -lt "$pct_ms" ] || [ "$runs" -eq 0 ]; do
	"$variant" "${sc[@]}" --json >"$json" 2>/dev/null
	rc=$?
	runs=$((runs + 1))
	# A free run fails only on reports; a lost, duplicated or wrong edge is in its JSON.
	if [ "$rc" -ne 0 ] || ! grep -qE '"lost": *0,' "$json" || ! grep -qE '"duplicated": *0,' "$json" ||
		! grep -qE '"wrong": *0,' "$json" || ! grep -qE '"unexplained": *0,' "$json"; then
		bad=$((bad + 1))
	fi
done
echo "free: $bad of $runs runs failing in $((($(date +%s%N) - t0) / 1000000)) ms"

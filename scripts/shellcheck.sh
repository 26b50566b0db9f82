#!/usr/bin/env bash
# Every shell script of the repository (tracked files that start with a sh or
# bash #!) through shellcheck, following sourced files (-x).  One count per
# script; ends with "shellcheck: N passed, N failed" (scripts/test.sh counts it).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
uirq_need_packages shellcheck

passed=0 failed=0
while IFS= read -r -d '' f; do
	head -n 1 "$f" | grep -qE '^#!.*\b(ba)?sh\b' || continue
	if out=$(shellcheck -x "$f" 2>&1); then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "shellcheck: $f:"
		echo "$out"
	fi
done < <(git ls-files -z)
echo "shellcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

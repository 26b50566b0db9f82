#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Read the guest's console log and judge the run:  scripts/vm/results.sh LOG PROGRAM...
# Prints each PROGRAM's TAP prefixed with its name, then "vm: N passed, N failed" counting
# the single Check tests.  A program that exited non-zero without a "not ok", or whose end
# marker never came (missing, crashed guest), counts as one failure.  Exit 0 only if all passed.
set -uo pipefail
log=$1
shift
tr -d '\r' <"$log" | awk -v progs="$*" '
BEGIN { n = split(progs, want, " "); for (i = 1; i <= n; i++) expected[want[i]] = 1 }
/uirq-vm: setup / { setup = $NF; setup_seen = 1 }
/^uirq-vm: begin / { cur = $3; seen[cur] = 1; ok[cur] = 0; nok[cur] = 0; next }
/^uirq-vm: end / {
	name = $3; rc = $4; sub(/^rc=/, "", rc); ended[name] = 1; code[name] = rc; cur = ""; next
}
/^uirq-vm: all done/ { done = 1 }
cur != "" {
	print "vm: " cur ": " $0
	if ($0 ~ /^ok [0-9]+/) ok[cur]++
	else if ($0 ~ /^not ok [0-9]+/) nok[cur]++
}
END {
	passed = 0; failed = 0
	if (setup_seen && setup != "0") { print "vm: guest setup failed (modules, edu binding or device nodes)"; failed++ }
	for (i = 1; i <= n; i++) {
		p = want[i]
		if (!(p in ended)) {
			print "vm: " p ": no result" (p in seen ? " (did not finish)" : " (never started)")
			failed++; passed += ok[p] + 0; failed += nok[p] + 0
			continue
		}
		passed += ok[p]; failed += nok[p]
		if (code[p] != 0 && nok[p] == 0) {
			print "vm: " p ": exited " code[p] " outside any single test" (code[p] == 124 || code[p] == 137 || code[p] == 143 ? " (killed by the time bound)" : "")
			failed++
		} else if (code[p] == 0 && ok[p] == 0) {
			print "vm: " p ": exited 0 but reported no test"
			failed++
		}
	}
	if (!done) { print "vm: the guest did not finish its run"; failed++ }
	printf "vm: %d passed, %d failed\n", passed, failed
	exit failed ? 1 : 0
}'

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run one stage of the test command N times and list every test that failed, with its output:
#   scripts/repeat.sh STAGE N
# STAGE is plain, asan or tsan (the suite in that build, as scripts/test.sh runs it), vm
# (scripts/vm/test.sh on the plain build; UIRQ_VM_RUN picks programs), valgrind
# (scripts/valgrind.sh on the plain build), or one test or suite of the plain build by its
# meson name (sources-fdline, or the suite sources; `meson test -C build-test-plain --list`).
# Each run's full output is kept in build-test-plain/repeat/ (build-test-asan/... for asan,
# tsan); the summary at the end names each failed test with the run it failed in and its
# output.  Ends with "repeat: STAGE: N runs, F runs failed, T tests failed"; exit 1 if any failed.
# The builds are made once, before the first run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
. scripts/variants.sh

if [ $# -ne 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: scripts/repeat.sh STAGE N   (STAGE: plain asan tsan vm valgrind, or a test or suite name)" >&2
	exit 2
fi
stage=$1 runs=$2
uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}" "${UIRQ_TEST_PACKAGES[@]}"
case $stage in
vm) uirq_need_packages "${UIRQ_VM_PACKAGES[@]}" ;;
esac

# The build the stage runs in, made once.
case $stage in
asan | tsan) variant=$stage ;;
*) variant=plain ;;
esac
dir=build-test-$variant
uirq_variant_env "$variant"
if ! uirq_variant_build "$variant"; then
	echo "repeat: building $dir failed" >&2
	exit 1
fi
meson_args=()
case $stage in
plain | asan | tsan | vm | valgrind) ;;
*)
	# One test (by name) or one suite of the plain build ("uirq:SUITE / NAME" in the list).
	list=$(meson test -C "$dir" --list 2>/dev/null)
	if grep -qE "(^| / )$stage\$" <<<"$list"; then
		meson_args=("$stage")
	elif grep -qE "^uirq:$stage / " <<<"$list"; then
		meson_args=(--suite "$stage")
	else
		echo "repeat: $stage is neither a stage nor a test or suite of $dir (meson test -C $dir --list)" >&2
		exit 2
	fi
	;;
esac

out=$dir/repeat
rm -rf "$out"
mkdir -p "$out"
failures=$out/failures	# one block per failed test: "run N: NAME" then its output

# The failed tests of one meson run, from its JSON log: a "run N: PROGRAM: not ok ..." line for
# each failed Check test (Check prints the values compared), or one line for a program that
# failed outside any single test; then the program's output, passed tests left out.
meson_failures() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
log, run = sys.argv[1], sys.argv[2]
for line in open(log, encoding="utf-8", errors="replace"):
    t = json.loads(line)
    if t.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
        continue
    lines = (t.get("stdout", "") or "").splitlines()
    bad = [l for l in lines if l.startswith("not ok")]
    for l in bad:
        print("run %s: %s: %s" % (run, t.get("name"), l))
    if not bad:
        print("run %s: %s: %s outside any single test" % (run, t.get("name"), t.get("result")))
    for l in [l for l in lines if not l.startswith("ok ")][-60:]:
        print("  | " + l)
EOF
}

# One run of the stage: 0 if it passed; its failed tests appended to $failures.
run_once() {
	local i=$1 rc=0
	local log=$out/run-$i.log
	case $stage in
	vm)
		# A failed test, a program that died outside one, a guest that hung: each a block.
		scripts/vm/test.sh "$dir" >"$log" 2>&1 || rc=1
		if [ "$rc" -ne 0 ]; then
			grep -E '^vm: [^|]*: (not ok |no result|exited )|^vm: (the guest|qemu exited|guest setup)' "$log" |
				sed "s/^vm: /run $i: /" >>"$failures"
			grep -E '^vm: \| ' "$log" | tail -n 40 | sed 's/^vm: /  /' >>"$failures"
		fi
		;;
	valgrind)
		# Each failed run of scripts/valgrind.sh (a program, a core suite), then its report lines.
		scripts/valgrind.sh "$dir" >"$log" 2>&1 || rc=1
		if [ "$rc" -ne 0 ]; then
			awk -v run="$i" '/^valgrind: .*: FAILED / { sub(/^valgrind: /, ""); print "run " run ": " $0; on = 1; next }
				/^valgrind: / { on = 0 } on { print "  " $0 }' "$log" >>"$failures"
		fi
		;;
	*)
		meson test -C "$dir" --num-processes 2 "${meson_args[@]}" >"$log" 2>&1 || rc=1
		cp "$dir/meson-logs/testlog.txt" "$out/testlog-$i.txt" 2>/dev/null
		if [ "$rc" -ne 0 ]; then
			meson_failures "$dir/meson-logs/testlog.json" "$i" >>"$failures"
		fi
		;;
	esac
	return "$rc"
}

: >"$failures"
bad_runs=0
for i in $(seq 1 "$runs"); do
	t0=$(date +%s)
	if run_once "$i"; then
		verdict=passed
	else
		verdict=FAILED
		bad_runs=$((bad_runs + 1))
	fi
	echo "repeat: $stage run $i/$runs $verdict ($(($(date +%s) - t0)) s; $out/run-$i.log)"
done
failed_tests=$(grep -c '^run [0-9]*: ' "$failures")
if [ "$failed_tests" -gt 0 ]; then
	echo "repeat: the failures:"
	cat "$failures"
fi
echo "repeat: $stage: $runs runs, $bad_runs runs failed, $failed_tests tests failed"
[ "$bad_runs" -eq 0 ]

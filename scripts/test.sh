#!/usr/bin/env bash
# The whole test suite, three times: plain, ASan+UBSan, TSan. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
. scripts/variants.sh
uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}" "${UIRQ_TEST_PACKAGES[@]}" "${UIRQ_PACKAGE_PACKAGES[@]}"
uirq_need_packages "${UIRQ_VM_PACKAGES[@]}"
uirq_need_packages "${UIRQ_FUZZ_PACKAGES[@]}"

passed=0
failed=0
status=0

# Run one variant's suite (scripts/variants.sh); count the individual Check tests from the TAP logs.
run_variant() {
	local name=$1 dir=build-test-$1
	echo "=== $name ==="
	uirq_variant_env "$name"
	if ! uirq_variant_build "$name"; then
		echo "uirq: $name build failed" >&2
		failed=$((failed + 1))
		status=1
		return
	fi
	local rc=0 log=$dir/meson-logs/testlog.txt ok nok
	meson test -C "$dir" --print-errorlogs --num-processes 2 || rc=1
	ok=$(grep -cE '^ok [0-9]+' "$log" || true)
	nok=$(grep -cE '^not ok [0-9]+' "$log" || true)
	# An executable that died before its TAP plan still fails the run.
	if [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
		echo "uirq: $name: meson test failed outside any single test" >&2
		nok=1
	fi
	[ "$rc" -eq 0 ] || status=1
	echo "$name: $ok passed, $nok failed"
	passed=$((passed + ok))
	failed=$((failed + nok))
}

run_variant plain
run_variant asan
run_variant tsan
# Lockdep compiled out must still build (the lock types then cost the bare primitives).
echo "=== lockdep compiled out (build only) ==="
if uirq_build build-test-nolockdep -Dlockdep=false; then
	echo "nolockdep: build ok"
else
	failed=$((failed + 1))
	status=1
fi

# Run a stage script that ends with "NAME: N passed, N failed"; add its counts.
# A stage that fails without such a line, or with no failure counted, counts one failure.
run_stage() {
	local name=$1 out rc ok nok
	shift
	echo "=== $name ==="
	out=$(mktemp)
	"$@" | tee "$out"
	rc=${PIPESTATUS[0]}
	read -r ok nok < <(grep -E "^$name: [0-9]+ passed, [0-9]+ failed\$" "$out" | tail -n 1 | awk '{ print $2, $4 }')
	rm -f "$out"
	if [ -z "${ok:-}" ]; then
		ok=0 nok=1
	elif [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
		nok=1
	fi
	[ "$rc" -eq 0 ] || status=1
	passed=$((passed + ok))
	failed=$((failed + nok))
}

# Every shell script of the repository through shellcheck (scripts/shellcheck.sh); one count per script.
run_stage shellcheck scripts/shellcheck.sh
# The plain build's vm-* programs inside a real kernel under qemu (scripts/vm/test.sh).
run_stage vm scripts/vm/test.sh build-test-plain
# The libFuzzer targets (scripts/fuzz.sh), UIRQ_FUZZ_SECONDS (20) each; one count per target.
run_stage fuzz scripts/fuzz.sh "${UIRQ_FUZZ_SECONDS:-20}"
# Memcheck on irqsim's default run and the plain build's test programs (scripts/valgrind.sh); one count per run.
run_stage valgrind scripts/valgrind.sh build-test-plain
# The README's run command on a fresh Debian 12 root, then the Debian packages built there, checked
# with lintian, installed in a second fresh root and used (scripts/fresh-root.sh; the root is cached).
run_stage fresh-root scripts/fresh-root.sh

[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status

#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/): build them with clang, ASan and UBSan
# in build-fuzz, then run each for SECONDS (default 30) over its corpus.
# New inputs go to a temporary copy of the corpus (the repository's grows only
# by hand); a crash, leak or timeout keeps its input under
# build-fuzz/fuzz-artifacts/TARGET/ and prints its path.
# genirq and twl4030 run each input in uirq's deterministic mode, seeded by its
# bytes, so a kept input replays its interleaving: rerun it with the target.
# Ends with "fuzz: N passed, N failed" (one per target); exits 1 on any failure.
#   scripts/fuzz.sh [SECONDS]     UIRQ_FUZZ_TARGETS="scenario twl4030 genirq lockdep"  UIRQ_FUZZ_BUILD=build-fuzz
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}" "${UIRQ_FUZZ_PACKAGES[@]}"

secs=${1:-30}
case $secs in
'' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac
dir=${UIRQ_FUZZ_BUILD:-build-fuzz}
read -r -a targets <<<"${UIRQ_FUZZ_TARGETS:-scenario twl4030 genirq lockdep}"

# A clang tree: sanitizer coverage on every object, ASan+UBSan, libFuzzer's main in the targets.
if [ -f "$dir/build.ninja" ] && ! grep -qE "^ command = (ccache )?clang " "$dir/build.ninja"; then
	echo "uirq: $dir was not configured with clang: remove it" >&2
	exit 1
fi
if [ ! -f "$dir/build.ninja" ]; then
	CC=clang meson setup "$dir" -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fsanitize=fuzzer-no-link >"$dir.setup.log" 2>&1 ||
		{ cat "$dir.setup.log" >&2; exit 1; }
fi
fuzzers=()
for t in "${targets[@]}"; do fuzzers+=("tests/fuzz/fuzz-$t"); done
ninja -C "$dir" "${fuzzers[@]}" >"$dir.build.log" 2>&1 || { tail -n 60 "$dir.build.log" >&2; exit 1; }

# UB is a crash; leaks are checked after every input (libFuzzer's -detect_leaks default).
# intercept_tls_get_addr=0: as in scripts/test.sh (google/sanitizers#1322).
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0

passed=0 failed=0
for t in "${targets[@]}"; do
	bin=$dir/tests/fuzz/fuzz-$t
	work=$(mktemp -d)
	art=$dir/fuzz-artifacts/$t
	mkdir -p "$art"
	mkdir -p "$work/corpus"
	cp -r "tests/fuzz/corpus/$t/." "$work/corpus/" 2>/dev/null || true
	extra=()
	# genirq: the core's warnings for deliberate misuse go to the closed stderr.
	[ "$t" = genirq ] && extra+=(-close_fd_mask=2)
	echo "=== fuzz $t (${secs}s) ==="
	rc=0
	nice -n 10 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art/" "${extra[@]}" "$work/corpus" >"$work/log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
	stats=$(grep -E '^#[0-9]+' "$work/log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -n 1)
	corpus=$(find "$work/corpus" -type f | wc -l)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz: $t: ok, ${runs:-?} executions, ${stats:-no stats}, corpus $corpus"
		passed=$((passed + 1))
	else
		input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$work/log" | tail -n 1)
		tail -n 40 "$work/log"
		echo "fuzz: $t: FAILED (exit $rc), ${runs:-?} executions, ${stats:-no stats}; input: ${input:-see the log above}"
		cp "$work/log" "$art/last.log"
		failed=$((failed + 1))
	fi
	rm -rf "$work"
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

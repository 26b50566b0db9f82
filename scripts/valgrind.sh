#!/usr/bin/env bash
# Memcheck over a plain build: irqsim's default run (free and --seed) and the test programs, each under
#   valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99
#     --suppressions=tests/upstream/valgrind.supp (the upstream drivers' asserted bugs)
# A memory error or a definite/indirect leak - in the program or in any of the
# test processes Check forks (Valgrind follows fork(); each child's leak check
# runs at its exit and its exit status 99 fails its test) - fails that run.
# Ends with "valgrind: N passed, N failed" (one count per run); exits 1 on any failure.
#   scripts/valgrind.sh BUILD_DIR
#   UIRQ_VALGRIND_TIMEOUT  seconds per run (default 240)
#
# What runs: every test program of the build (meson introspect --tests), the
# core program one suite at a time (CK_RUN_SUITE), except these, which
# measure threads racing in tight loops or fault on purpose rather than
# memory use, and under Memcheck (one thread at a time, 20-50x slower) either
# take minutes or report what they did on purpose:
#   core_cpu    (test_core) 20,000 raise/handle spin hand-offs between two
#               pinned threads and CPU-time bounds: >150 s, timing asserts;
#               and the poll mode's "never sleeps", which counts voluntary
#               context switches (Valgrind's own lock makes a waiting thread sleep);
#   core_fault  (test_core) deliberate SIGSEGV/SIGBUS/SIGFPE/SIGILL in
#               thread_fns: Memcheck reports each fault as an invalid access
#               and loses definedness across the recovery's siglongjmp;
#   input-handle  a reporter thread spinning against unregister, 20 rounds: >150 s;
#   uirq-lockdep  runs the preload runner and its programs in child
#               processes (exec, not followed); it has a Valgrind leg of its own;
#   installed-tree  a shell script (meson install, the compilers); the example
#               it builds runs here as "example threaded_irq".
# Programs that exec others (irqsim's tests run the irqsim binary) check
# only their own process: the default irqsim run is checked apart.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
uirq_need_packages valgrind

dir=${1:-}
if [ -z "$dir" ] || [ ! -f "$dir/build.ninja" ]; then
	echo "usage: scripts/valgrind.sh BUILD_DIR   (a configured, built, plain meson build)" >&2
	exit 2
fi
# The build's own option, not a grep of build.ninja: a plain build compiles one
# test program with -fsanitize=address on purpose (tests/preload, abba_asan).
sanitize=$(meson introspect --buildoptions "$dir" |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "b_sanitize"))')
if [ "$sanitize" != none ]; then
	echo "valgrind: $dir is a sanitizer build; Valgrind needs a plain one" >&2
	exit 2
fi
limit=${UIRQ_VALGRIND_TIMEOUT:-240}
skip_programs=" uirq-lockdep input-handle installed-tree "
skip_suites=" core_cpu core_fault "
# shellcheck disable=SC2054 # the commas are inside one option
# The upstream drivers' own bugs that tests assert (each explained in the file).
VG=(valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --num-callers=30
	"--suppressions=$PWD/tests/upstream/valgrind.supp")
# Check's per-test timeouts, for code running 20-50x slower.
export CK_TIMEOUT_MULTIPLIER=20
unset CK_FORK	# Check forks every test: each child is checked, and a failing one is one test

passed=0 failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_one LABEL ENV CMD...: one run under Memcheck, judged by its exit status.  ENV is "-" or
# KEY=VALUE settings joined by $sep, since a value may hold blanks (a tree under "my projects").
sep=$'\x1f'
run_one() {
	local label=$1 envs=() t0 rc secs ok nok log=$work/log
	[ "$2" = - ] || IFS=$sep read -r -a envs <<<"$2"
	shift 2
	t0=$(date +%s.%N)
	env "${envs[@]}" timeout -k 10 "$limit" "${VG[@]}" "$@" >"$log" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	ok=$(grep -cE '^ok [0-9]+' "$log")
	nok=$(grep -cE '^not ok [0-9]+' "$log")
	# A suite name that is not in this program (core_compat has its own): nothing ran.
	[ "$rc" -eq 0 ] && [ "$ok" -eq 0 ] && [ "$nok" -eq 0 ] && grep -q '^1\.\.0' "$log" && return
	if [ "$rc" -eq 0 ] && [ "$nok" -eq 0 ]; then
		if [ "$ok" -gt 0 ]; then
			echo "valgrind: $label: ok (${ok} tests, ${secs} s)"
		else
			echo "valgrind: $label: ok (${secs} s)"
		fi
		passed=$((passed + 1))
		return
	fi
	case $rc in
	124 | 137) why="timed out after ${limit} s" ;;
	99) why="Memcheck errors" ;;
	*) why="exit $rc" ;;
	esac
	echo "valgrind: $label: FAILED ($why; ${ok} ok, ${nok} not ok, ${secs} s)"
	grep -E '^not ok|^==[0-9]+== (Invalid|Use of|Conditional|Syscall param|Mismatched|[0-9,]+ bytes in|    (at|by) |ERROR SUMMARY: [1-9])' "$log" | head -n 60
	failed=$((failed + 1))
}

# irqsim's default run: the main job.
echo "valgrind: Memcheck on $dir: irqsim's default run, then the test programs"
run_one "irqsim default run" - "$dir/tools/irqsim/irqsim"
# ... and in the deterministic mode: the scheduler's hand-offs, virtual time, the stall watcher.
run_one "irqsim --seed 1" - "$dir/tools/irqsim/irqsim" --seed 1
# ... and on the kernel's unmodified drivers, when the build has them (-Dupstream=enabled).
if [ "$(meson introspect --buildoptions "$dir" |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "upstream"))')" = enabled ]; then
	run_one "irqsim --drivers upstream --seed 1" - "$dir/tools/irqsim/irqsim" --drivers upstream --seed 1
fi

# The test programs, with the environment meson gives them.
mapfile -t tests < <(meson introspect "$dir" --tests | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    env = "\x1f".join("%s=%s" % kv for kv in sorted((t.get("env") or {}).items())) or "-"
    print("\t".join([t["name"], env] + t["cmd"]))')
for line in "${tests[@]}"; do
	IFS=$'\t' read -r -a f <<<"$line"
	name=${f[0]} env=${f[1]} cmd=("${f[@]:2}")
	case $skip_programs in *" $name "*) continue ;; esac
	if [ "$name" = core ]; then
		# One suite at a time, so the slow ones can stay out.
		mapfile -t suites < <(grep -ho '^UIRQ_TEST([a-z0-9_]*' tests/core/*.c | sed 's/^UIRQ_TEST(//' | sort -u)
		# none found would skip the whole program without a word: count it as a failure
		if [ "${#suites[@]}" -eq 0 ]; then
			echo "valgrind: core: no UIRQ_TEST suites found in tests/core/*.c"
			failed=$((failed + 1))
			continue
		fi
		for s in "${suites[@]}"; do
			case $skip_suites in *" $s "*) continue ;; esac
			e="CK_RUN_SUITE=$s"
			[ "$env" = - ] || e="$env$sep$e"
			run_one "core/$s" "$e" "${cmd[@]}"
		done
		continue
	fi
	run_one "$name" "$env" "${cmd[@]}"
done
echo "valgrind: not run: programs$skip_programs- suites$skip_suites(see the header of scripts/valgrind.sh)"
echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

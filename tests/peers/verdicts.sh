#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Every ported peer test (progs/*.c) under uirq-lockdep, ThreadSanitizer and
# Helgrind, side by side with the verdict the peer's own test expects, as a
# markdown table on stdout.  A tool for comparing notes, not a test.
#
#   tests/peers/verdicts.sh BUILD_DIR [NAME_REGEX]
#
# BUILD_DIR holds a built tools/uirq-lockdep.  Each program is compiled twice
# into a scratch folder: plainly with gcc (for uirq-lockdep and Helgrind) and
# with clang -fsanitize=thread.  Each program's top comment gives its runs
# (" * runs: a | b c | -", "-" for no argument; one run without arguments
# when absent) and the peer's verdict (" * peer-verdict: ...", or
# " * peer-verdict(ARGS): ..." for one run).  Every run has a time limit:
# VERDICTS_TIMEOUT seconds (default 60; Helgrind gets four times as long).
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
	echo "usage: $0 BUILD_DIR [NAME_REGEX]" >&2
	exit 2
fi

build=$(cd "$1" && pwd) || exit
filter=${2:-.}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit
runner="$build/tools/uirq-lockdep"
limit=${VERDICTS_TIMEOUT:-60}

for tool in gcc clang valgrind timeout "$runner"; do
	if ! command -v "$tool" >/dev/null; then
		echo "$0: $tool not found" >&2
		exit 2
	fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- what each tool said, as "kind xN, kind, ..." ----

# count FILE ERE: how many lines of FILE match.
count() {
	grep -cE -- "$2" "$1" || true
}

# kinds FILE (LABEL ERE)...: "label xN" for every pattern that matches, in order.
kinds() {
	local file=$1 out="" n
	shift
	while [[ $# -ge 2 ]]; do
		n=$(count "$file" "$2")
		if [[ $n -gt 0 ]]; then
			[[ -n $out ]] && out+=", "
			out+=$1
			[[ $n -gt 1 ]] && out+=" x$n"
		fi
		shift 2
	done
	echo "${out:-none}"
}

# ending STATUS: how a run ended, when that is news (a signal or the time limit).
ending() {
	local status=$1
	if [[ $status -eq 124 || $status -eq 137 ]]; then
		echo "hang/timeout"
	elif [[ $status -gt 128 ]]; then
		echo "killed by SIG$(kill -l $((status - 128)))"
	fi
}

# verdict KINDS ENDING: the cell.
verdict() {
	if [[ -n $2 ]]; then
		if [[ $1 == none ]]; then echo "$2"; else echo "$1; $2"; fi
	else
		echo "$1"
	fi
}

uirq_kinds() {
	kinds "$1" \
		cycle 'WARNING: possible circular locking dependency detected' \
		recursive 'WARNING: possible recursive locking detected' \
		'bad unlock' 'WARNING: bad unlock balance detected' \
		'held freed' 'WARNING: held lock freed' \
		'held at exit' 'still has locks held' \
		'destroyed use' 'WARNING: use of destroyed lock detected' \
		'freed use' 'WARNING: heap-use-after-free: freed lock used' \
		'cond unheld' 'WARNING: condition variable waited on without its mutex held' \
		'cond two mutexes' 'WARNING: condition variable used with two different mutexes' \
		'limit (MAX_LOCK_DEPTH)' 'BUG: MAX_LOCK_DEPTH too low' \
		'other BUG' 'BUG: (MAX_LOCK[^_]|MAX_[^L]|[^M])' \
		crash 'AddressSanitizer|Segmentation fault|core dumped'
}

tsan_kinds() {
	kinds "$1" \
		cycle 'WARNING: ThreadSanitizer: lock-order-inversion' \
		'double lock' 'WARNING: ThreadSanitizer: double lock of a mutex' \
		'bad unlock' 'WARNING: ThreadSanitizer: (unlock of an unlocked mutex|read unlock of a write locked mutex)' \
		recursive 'WARNING: ThreadSanitizer: read lock of a write locked mutex' \
		'held freed' 'WARNING: ThreadSanitizer: destroy of a locked mutex' \
		'destroyed use' 'WARNING: ThreadSanitizer: use of an invalid mutex' \
		race 'WARNING: ThreadSanitizer: data race' \
		'heap use after free' 'WARNING: ThreadSanitizer: heap-use-after-free' \
		'signal-unsafe call' 'WARNING: ThreadSanitizer: signal-unsafe call' \
		'thread leak' 'WARNING: ThreadSanitizer: thread leak' \
		'limit (too long cycle)' 'WARNING: too long mutex cycle found' \
		'limit (CHECK failed)' 'CHECK failed'
}

helgrind_kinds() {
	kinds "$1" \
		cycle 'lock order .* violated' \
		recursive 'Attempt to re-lock a non-recursive lock' \
		'bad unlock' 'unlocked a not-locked lock|currently held by thread|unlocked an invalid lock' \
		'held freed' 'pthread_(mutex|rwlock)_destroy of a locked' \
		'held at exit' 'Exiting thread still holds' \
		'cond unheld' 'pthread_cond_.*wait called with (invalid|un-held|mutex of type|mutex held by a different)' \
		'cond two mutexes' 'associated with a different mutex|cond is associated' \
		'dubious signal' 'associated lock is not held by any thread' \
		race 'Possible data race' \
		'libpthread bug' 'Bug in libpthread' \
		'failed call' "call to pthread_.* failed"
}

# ---- the programs ----

# field NAME FILE: the program's " * NAME: value" comment line.
field() {
	sed -n "s/^ \\* $1: //p" "$2" | head -n 1
}

# peer_verdict FILE ARGS: the verdict the peer's test states for this run.
peer_verdict() {
	local file=$1 args=$2 line
	if [[ -n $args ]]; then
		line=$(grep -F -- " * peer-verdict($args): " "$file" | head -n 1 || true)
		if [[ -n $line ]]; then
			echo "${line#* \* peer-verdict("$args"): }"
			return
		fi
	fi
	field peer-verdict "$file"
}

compile() {
	local src=$1 name
	name=$(basename "$src" .c)
	gcc -std=gnu11 -O1 -g -pthread -rdynamic -o "$work/$name" "$src"
	clang -std=gnu11 -O1 -g -pthread -rdynamic -fsanitize=thread -o "$work/$name.tsan" "$src"
}

# run LOG SECONDS CMD...: run CMD with a time limit, output to LOG; prints the exit status.
run() {
	local log=$1 seconds=$2 status=0
	shift 2
	timeout -k 5 "$seconds" "$@" >"$log" 2>&1 </dev/null || status=$?
	echo "$status"
}

echo "| test | peer's expected verdict | uirq-lockdep | TSan | Helgrind |"
echo "| --- | --- | --- | --- | --- |"

cd "$here/progs" || exit
for src in *.c; do
	name=${src%.c}
	[[ $name =~ $filter ]] || continue
	if ! compile "$src" 2>"$work/compile.log"; then
		echo "| $name | | does not compile | | |"
		continue
	fi
	runs=$(field runs "$src")
	IFS='|' read -r -a run_list <<<"${runs:--}"
	for spec in "${run_list[@]}"; do
		read -r -a args <<<"$spec"
		if [[ ${#args[@]} -eq 0 || ${args[0]} == - ]]; then
			args=()
		fi
		label="$name${args[*]:+ ${args[*]}}"
		log="$work/run.log"

		status=$(run "$log" "$limit" "$runner" "$work/$name" "${args[@]}")
		uirq=$(verdict "$(uirq_kinds "$log")" "$(ending "$status")")

		status=$(TSAN_OPTIONS="detect_deadlocks=1:second_deadlock_stack=1" \
			run "$log" "$limit" "$work/$name.tsan" "${args[@]}")
		tsan=$(verdict "$(tsan_kinds "$log")" "$(ending "$status")")

		status=$(run "$log" "$((limit * 4))" valgrind --tool=helgrind "$work/$name" "${args[@]}")
		helgrind=$(verdict "$(helgrind_kinds "$log")" "$(ending "$status")")

		echo "| $label | $(peer_verdict "$src" "${args[*]}") | $uirq | $tsan | $helgrind |"
	done
done

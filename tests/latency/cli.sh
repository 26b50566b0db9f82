#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# uirq-latency on the host: every mode of --json with the issue's fields, in
# order (min <= p50 <= p99 <= p99.9 <= max), as many samples as the histogram
# counts, for the eventfd and timerfd sources; the table; usage errors exit 2
# naming the option; a source whose device the host lacks exits 1 saying
# what it looked for.  The figures themselves are bench/README.md's, never a
# verdict here.  The uio, vfio and gpio sources run in the VM (tests/vm).  TAP.
#   tests/latency/cli.sh UIRQ_LATENCY
set -uo pipefail
tool=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1"
	shift
	for f in "$@"; do sed "s|^|# $(basename "$f"): |" "$f"; done
}

# check EXIT STDERR-TEXT ARGS...: the exit status and a piece of stderr; nothing on stdout after a usage error
check() {
	local want=$1 text=$2 rc
	shift 2
	timeout 60 "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/err" && { [ "$want" -ne 2 ] || [ ! -s "$tmp/out" ]; }; then
		ok "$*: exit $rc, \"$text\""
	else
		not_ok "$*: exit $rc (want $want), want \"$text\" on stderr" "$tmp/err" "$tmp/out"
	fi
}

# json SOURCE MODES...: one --json run; each mode's record checked against the histogram's counts
json() {
	local source=$1 rc
	shift
	timeout 120 "$tool" --source "$source" --duration 0.05 --json --histogram "$tmp/h.csv" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "--source $source --json: exit $rc" "$tmp/err" "$tmp/out"
		return
	fi
	if python3 - "$tmp/out" "$tmp/h.csv" "$source" "$@" >"$tmp/why" 2>&1 <<'PY'; then
import csv, json, sys
out, hist, source, modes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
recs = [json.loads(l) for l in open(out)]
assert [r["mode"] for r in recs] == modes, "modes %s, want %s" % ([r["mode"] for r in recs], modes)
rows = list(csv.reader(open(hist)))
assert rows[0] == ["upper_ns"] + modes, "histogram header %s" % rows[0]
for i, r in enumerate(recs):
    for k in ("mode", "min_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns", "cpu_percent"):
        assert k in r, "%s: no %s" % (r["mode"], k)
    assert r["source"] == source
    assert r["samples"] > 0, "%s: no samples" % r["mode"]
    assert r["min_ns"] <= r["p50_ns"] <= r["p99_ns"] <= r["p999_ns"] <= r["max_ns"], "%s: out of order: %s" % (r["mode"], r)
    assert r["cpu_percent"] > 0, "%s: no CPU time" % r["mode"]
    assert ("baseline" in r["mode"]) == r["mode"].startswith("baseline-"), r["mode"]
    counted = sum(int(row[i + 1]) for row in rows[1:])
    assert counted == r["samples"], "%s: %d samples, %d in the histogram" % (r["mode"], r["samples"], counted)
    # the histogram's buckets hold the extremes
    uppers = [int(row[0]) for row in rows[1:] if int(row[i + 1])]
    assert uppers[0] >= r["min_ns"] and uppers[-1] >= r["max_ns"], "%s: buckets %s..%s" % (r["mode"], uppers[0], uppers[-1])
PY
		ok "--source $source --json --histogram: $# modes, each consistent"
	else
		not_ok "--source $source --json --histogram" "$tmp/why" "$tmp/out" "$tmp/err"
	fi
}

json eventfd baseline-eventfd-epoll baseline-futex blocking-primary blocking-thread adaptive-primary \
	adaptive-thread poll-primary poll-thread
json timerfd baseline-timerfd-epoll blocking-primary blocking-thread adaptive-primary adaptive-thread \
	poll-primary poll-thread

# The table: a line per mode asked for, and the ratio to the epoll baseline.
if timeout 60 "$tool" --duration 0.05 --modes baseline-epoll,poll-primary >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^baseline-eventfd-epoll ' "$tmp/out" && grep -q '^poll-primary ' "$tmp/out" &&
	[ "$(grep -cE '^[a-z-]+ +[0-9]+ ' "$tmp/out")" -eq 2 ] && grep -q "p50 x" "$tmp/out"; then
	ok "--modes baseline-epoll,poll-primary: a table of those two"
else
	not_ok "--modes baseline-epoll,poll-primary: a table of those two" "$tmp/out" "$tmp/err"
fi

check 2 "--source serial: not one of eventfd, timerfd, uio, vfio, gpio" --source serial
check 2 "--duration 0: seconds, more than 0" --duration 0
check 2 "--duration x: seconds, more than 0" --duration x
check 2 "--rounds 0: a number from 1 to 1000" --rounds 0
check 2 "--interval -1: microseconds, 0 to 1000000" --interval -1
check 2 "--modes: spin-primary is not a mode" --modes spin-primary
check 2 "--modes: baseline-futex: the source has no such baseline" --source timerfd --modes baseline-futex
check 2 "--adaptive-ns 0: nanoseconds, 1 to 1000000000" --adaptive-ns 0
check 2 "--cpu 4096: not an online core" --cpu 4096
check 2 "--device x: only for --source uio, vfio or gpio" --device x
check 2 "unexpected argument extra" extra
check 2 "--interval 0: a timer due at once measures nothing" --source timerfd --interval 0
# Devices the host does not have: what was looked for.
check 1 "--source vfio: Invalid argument: --device: a PCI address, DDDD:BB:DD.F" --source vfio --device bogus
check 1 "--source gpio: Invalid argument: --device: CHIP:LINE" --source gpio --device nochip
check 1 "--source gpio: No such device: not a gpio-sim line" --source gpio --device gpiochip97:0
check 1 "--source uio: No such file or directory: its BAR 0 (sysfs resource0) does not open" --source uio --device uio97
check 1 "--histogram /nonexistent-dir/h.csv: No such file or directory" --duration 0.01 --modes poll-primary \
	--histogram /nonexistent-dir/h.csv
echo "1..$n"

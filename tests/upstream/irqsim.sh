#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# irqsim --drivers upstream (the kernel's unmodified twl4030-irq.c and
# twl4030-pwrbutton.c, -Dupstream=enabled) against --drivers own, the
# project's, on every built-in scenario:
#   - the same exit status and the same verdict: the delivery lines (edges
#     made, judged, delivered once, lost, duplicated, wrong level) and
#     lockdep's "no problems found";
#   - a seeded run replays byte for byte (output, stderr, JSON);
#   - --explore finds no failing seed;
# and the report names every file of `scripts/upstream.sh list` with its
# sha256.  The i2c line and lockdep's class counts differ, and are not
# compared: the kernel's init masks every SIH module, the project's only
# PWR_INT (16 more transfers), and its locks are its own.  TAP on stdout.
#   tests/upstream/irqsim.sh IRQSIM SOURCE_DIR SEEDS
set -uo pipefail
irqsim=$1 src=$2 seeds=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
diag() { sed 's/^/# /'; }
# The lines a verdict is made of (lockdep's without its class counts).
verdict() {
	grep -E '^(edges:|       [0-9]+ in presses|lockdep:)' "$1" |
		sed -E 's/^(lockdep: no problems found) \(.*/\1/'
}

mapfile -t scenarios < <("$irqsim" --list-scenarios | awk '{ print $1 }')
[ ${#scenarios[@]} -gt 0 ] || { echo "1..1"; not_ok "irqsim --list-scenarios names scenarios"; exit 1; }
for sc in "${scenarios[@]}"; do
	for d in own upstream; do
		"$irqsim" --drivers "$d" --scenario "$sc" --seed 1 >"$tmp/$sc.$d" 2>"$tmp/$sc.$d.err"
		echo $? >"$tmp/$sc.$d.status"
	done
	if [ "$(cat "$tmp/$sc.own.status")" = "$(cat "$tmp/$sc.upstream.status")" ] &&
		[ "$(cat "$tmp/$sc.upstream.status")" = 0 ] &&
		diff <(verdict "$tmp/$sc.own") <(verdict "$tmp/$sc.upstream") >"$tmp/diff"; then
		ok "$sc: the kernel's drivers get the project's verdict ($(verdict "$tmp/$sc.upstream" | head -n 1))"
	else
		not_ok "$sc: the kernel's drivers get the project's verdict (exit own $(cat "$tmp/$sc.own.status"), upstream $(cat "$tmp/$sc.upstream.status"))"
		diag <"$tmp/diff"
		tail -n 20 "$tmp/$sc.upstream.err" | diag
	fi
	for i in 1 2; do
		"$irqsim" --drivers upstream --scenario "$sc" --seed 7 --cpus 2 >"$tmp/r$i" 2>"$tmp/r$i.err"
		"$irqsim" --drivers upstream --scenario "$sc" --seed 7 --cpus 2 --json >"$tmp/r$i.json" 2>/dev/null
	done
	if cmp -s "$tmp/r1" "$tmp/r2" && cmp -s "$tmp/r1.err" "$tmp/r2.err" && cmp -s "$tmp/r1.json" "$tmp/r2.json"; then
		ok "$sc: --drivers upstream --seed 7 --cpus 2 replays byte for byte"
	else
		not_ok "$sc: --drivers upstream --seed 7 --cpus 2 replays byte for byte"
		diff "$tmp/r1" "$tmp/r2" | head -n 20 | diag
	fi
	# The storm's 110000 edges cost 0.4 s a seed: a twentieth of the seeds there.
	k=$seeds
	[ "$sc" != storm ] || k=$((seeds / 20 + 1))
	if "$irqsim" --drivers upstream --scenario "$sc" --explore "$k" >"$tmp/x" 2>&1 &&
		grep -q "explored $k seeds: 0 failing" "$tmp/x"; then
		ok "$sc: --drivers upstream --explore $k: no failing seed"
	else
		not_ok "$sc: --drivers upstream --explore $k: no failing seed"
		tail -n 20 "$tmp/x" | diag
	fi
done

# The report names the files it ran: each with its sha256, as scripts/upstream.sh lists them.
"$irqsim" --drivers upstream --seed 1 >"$tmp/report" 2>&1
missing=
while read -r path sum; do
	grep -qxF "  $path sha256 $sum" "$tmp/report" || missing+="$path "
done < <("$src/scripts/upstream.sh" list 2>/dev/null)
if grep -q '^drivers: upstream, unmodified from linux-source-6.1 ' "$tmp/report" && [ -z "$missing" ] &&
	[ "$("$src/scripts/upstream.sh" list 2>/dev/null | wc -l)" -gt 0 ]; then
	ok "the report names the kernel package and every file with its sha256"
else
	not_ok "the report names the kernel package and every file with its sha256 (missing: $missing)"
	sed -n '/^drivers:/,/^$/p' "$tmp/report" | diag
fi
# --legacy is the project's own 2009 form: refused with the kernel's drivers.
"$irqsim" --drivers upstream --legacy >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && grep -q -- '--legacy' "$tmp/err"; then
	ok "--legacy with --drivers upstream is a usage error naming --legacy"
else
	not_ok "--legacy with --drivers upstream is a usage error naming --legacy"
	diag <"$tmp/err"
fi
echo "1..$n"

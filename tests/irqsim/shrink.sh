#!/usr/bin/env bash
# TAP: irqsim --shrink, --replay and --explore's coverage line, on a seeded
# bug (tests/sim-bugs) whose canonical run passes, so the shrunk schedule
# must keep at least one preemption:
#   - the coverage line's counts equal the distinct trace hashes and failure
#     kinds of the same seeds run one by one (hash from the 'deterministic:'
#     line, kind from --schedule-out's verdict line);
#   - --shrink of the first failing seed writes a schedule with no more
#     preemptions than the seed's own run, at least one;
#   - that schedule replays 5 times with the same failure and identical output;
#   - without any one of its preemptions it no longer fails alike (1-minimal);
#   - --replay of a file that is not a schedule, and of a schedule with
#     another scenario, exit 2 with a clear error.
#   shrink.sh VARIANT SCENARIO SEEDS
set -uo pipefail
variant=$1 scenario=$2 seeds=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sc=(--scenario "$scenario")

echo "1..7"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # DESCRIPTION CONDITION...
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
verdict() { sed -n 's/^verdict //p' "$1"; }
preempts() { grep -c '^preempt ' "$1"; }

# (1) coverage: --explore's counts against the seeds run one by one.
out=$("$variant" "${sc[@]}" --explore "$seeds" --seed 0 2>&1)
cov=$(sed -n 's/^coverage: \([0-9]*\) distinct schedules\{0,1\}, \([0-9]*\) distinct failures\{0,1\}.*/\1 \2/p' <<<"$out")
: >"$tmp/hashes"
: >"$tmp/kinds"
first=
for ((s = 0; s < seeds; s++)); do
	"$variant" "${sc[@]}" --seed "$s" --schedule-out "$tmp/seed$s" >"$tmp/out" 2>/dev/null
	rc=$?
	sed -n 's/^deterministic: .*(hash \([0-9a-f]*\))$/\1/p' "$tmp/out" >>"$tmp/hashes"
	if [ "$rc" -ne 0 ]; then
		verdict "$tmp/seed$s" | cut -d' ' -f2 >>"$tmp/kinds"
		[ -n "$first" ] || first=$s
	fi
done
want="$(sort -u "$tmp/hashes" | wc -l) $(sort -u "$tmp/kinds" | wc -l)"
if [ -n "$cov" ] && [ "$cov" = "$want" ] && [ "$(wc -l <"$tmp/hashes")" -eq "$seeds" ]; then
	ok "coverage line '$cov' = distinct hashes and failure kinds of the $seeds seeds run alone"
else
	not_ok "coverage line '${cov:-none}', the seeds run alone give '$want'"
	grep '^coverage' <<<"$out" | sed 's/^/# /'
fi

if [ -z "$first" ]; then
	echo "Bail out! no failing seed among $seeds"
	exit 1
fi

# (2) --shrink of the first failing seed.
shrunk=$tmp/shrunk.schedule
out=$("$variant" "${sc[@]}" --shrink "$first" --schedule-out "$shrunk" 2>&1)
rc=$?
before=$(preempts "$tmp/seed$first")
after=$(preempts "$shrunk" 2>/dev/null)
said=$(sed -n 's/^shrunk: \([0-9]*\) preemptions\{0,1\}, from the seed.s \([0-9]*\),.*/\1 \2/p' <<<"$out")
if [ "$rc" -eq 0 ] && [ "$said" = "${after:-x} $before" ] && [ "$after" -le "$before" ] && [ "$after" -ge 1 ]; then
	ok "--shrink $first: $before preemptions shrunk to $after"
else
	not_ok "--shrink $first: exit $rc, '$said', the seed's $before, the file's ${after:-none}"
	printf '# %s\n' "$out" | head -n 20
fi
grep -q '^  step [0-9]*, t=.*(.*:[0-9]*)' <<<"$out"
check "--shrink prints each preemption with a source line" test $? -eq 0

# (3) the shrunk schedule replays 5 times to the seed's failure, output identical.
same=yes
for i in 1 2 3 4 5; do
	"$variant" "${sc[@]}" --replay "$shrunk" --schedule-out "$tmp/replayed" >"$tmp/run$i" 2>&1
	rc=$?
	if [ "$rc" -ne 1 ] || [ "$(verdict "$tmp/replayed")" != "$(verdict "$tmp/seed$first")" ]; then
		same="run $i: exit $rc, verdict '$(verdict "$tmp/replayed")'"
		break
	fi
	[ "$i" -eq 1 ] || cmp -s "$tmp/run1" "$tmp/run$i" || { same="run $i differs from run 1"; break; }
done
check "--replay of the shrunk schedule fails as the seed did ($(verdict "$tmp/seed$first")) 5 times, same output: $same" \
	test "$same" = yes

# (4) 1-minimal: without any one preemption (a file without an end line is followed loosely) it does not fail alike.
mapfile -t lines < <(grep '^preempt ' "$shrunk" 2>/dev/null)
minimal=yes
[ "${#lines[@]}" -ge 1 ] || minimal="no preemption in the shrunk file"
for ((i = 0; i < ${#lines[@]}; i++)); do
	{
		echo "irqsim-schedule 1"
		for ((j = 0; j < ${#lines[@]}; j++)); do
			[ "$j" -eq "$i" ] || echo "${lines[j]}"
		done
	} >"$tmp/less"
	"$variant" "${sc[@]}" --replay "$tmp/less" --schedule-out "$tmp/lessrun" >/dev/null 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(verdict "$tmp/lessrun")" = "$(verdict "$shrunk")" ]; then
		minimal="without '${lines[i]}' it still fails alike"
		break
	fi
done
check "each of the ${#lines[@]} preemptions is needed: $minimal" test "$minimal" = yes

# (5) a file that is not a schedule: exit 2, said.
printf 'preempt 1 2 3\x00garbage\n' >"$tmp/garbage"
err=$("$variant" "${sc[@]}" --replay "$tmp/garbage" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && grep -q "garbage:1: .*not an irqsim schedule" <<<"$err"; then
	ok "--replay of garbage: exit 2, '$err'"
else
	not_ok "--replay of garbage: exit $rc, '$err'"
fi

# (6) the schedule with another scenario: not the recorded run, exit 2, never another run silently.
err=$("$variant" --replay "$shrunk" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && grep -Eq "schedule mismatch|not the recorded one" <<<"$err"; then
	ok "--replay with another scenario: exit 2"
else
	not_ok "--replay with another scenario: exit $rc, '$(tail -n 2 <<<"$err")'"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# uirq-soak with its standard output's reader gone (uirq-soak | head -1,
# once head has exited): SIGPIPE does not kill it half-way; it runs to its
# end, says on stderr that the output was lost and whether the soak passed,
# and exits 1.  The reader is gone before the soak starts (a FIFO whose only
# reader the script closes), so its first write fails, every time.  TAP.
#   tests/soak/reader-gone.sh UIRQ_SOAK
set -uo pipefail
soak=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo"
exec 3<>"$tmp/fifo" # a reader, so that opening the write end does not block
exec 4>"$tmp/fifo"
exec 3<&- # and the reader gone

echo "1..1"
"$soak" 2000 0 --seed 1 >&4 2>"$tmp/err"
status=$?
exec 4>&-
if [ "$status" -eq 1 ] &&
	grep -q '^uirq-soak: writing the output failed (standard output closed or full); the soak passed$' "$tmp/err"; then
	echo "ok 1 - a reader gone: exit 1, the lost output said, the soak run to its end (passed)"
else
	echo "not ok 1 - a reader gone: exit $status (want 1 and the message)"
	sed 's/^/# /' "$tmp/err"
fi

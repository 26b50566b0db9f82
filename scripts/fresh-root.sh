#!/usr/bin/env bash
# The README's run command on a fresh Debian 12 root, as a stranger would run it.
#
# A minimal bookworm root (debootstrap --variant=minbase: apt, bash, coreutils,
# nothing to build with) is made once and kept, pristine, as a tarball in the
# cache ($UIRQ_CACHE, default /var/cache/uirq: outside the clone, so a new clone
# reuses it). Each run unpacks a copy, clones this repository's HEAD into it
# and runs ./scripts/run.sh there as root, in a chroot in a mount namespace of
# its own (proc, sys, dev: nothing of the host's build tools). run.sh must
# install what it misses, build, and end with the default run's output and exit
# status 0. apt's downloaded packages and lists are kept in the cache too, so a
# second run downloads nothing new; the root itself is always fresh.
# Ends with "fresh-root: N passed, N failed" (scripts/test.sh counts it).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh

fail() {
	echo "fresh-root: $*" >&2
	echo "fresh-root: 0 passed, 1 failed"
	exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot and mounts); run the test command as root"
uirq_need_packages debootstrap tar

cache=${UIRQ_CACHE:-/var/cache/uirq}
mirror=${UIRQ_DEBIAN_MIRROR:-http://deb.debian.org/debian}
tarball=$cache/bookworm-minbase.tar
mkdir -p "$cache/apt-archives/partial" "$cache/apt-lists/partial" || fail "cannot make $cache"

if [ ! -s "$tarball" ]; then
	echo "fresh-root: making a minimal Debian 12 root (once; cached in $tarball)"
	tmp=$(mktemp -d /var/tmp/uirq-debootstrap.XXXXXX) || fail "mktemp failed"
	if ! debootstrap --variant=minbase bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1; then
		tail -n 20 "$cache/debootstrap.log" >&2
		rm -rf "$tmp"
		fail "debootstrap failed (log: $cache/debootstrap.log)"
	fi
	tar -C "$tmp" -cf "$tarball.new" . || { rm -rf "$tmp"; fail "cannot write $tarball"; }
	mv "$tarball.new" "$tarball"
	rm -rf "$tmp"
fi

root=$(mktemp -d /var/tmp/uirq-fresh-root.XXXXXX) || fail "mktemp failed"
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xf "$tarball" || fail "cannot unpack $tarball"
# apt downloads as its own user _apt: let it write the cached download folders.
apt_uid=$(awk -F: '$1 == "_apt" { print $3 }' "$root/etc/passwd")
[ -z "$apt_uid" ] || chown "$apt_uid" "$cache/apt-archives/partial" "$cache/apt-lists/partial" ||
	fail "cannot hand $cache's download folders to _apt"
# What a freshly installed machine has: its name service configuration.
cp /etc/resolv.conf "$root/etc/resolv.conf" || fail "cannot copy /etc/resolv.conf"
# The repository as committed: a clean clone, no build tree, no local changes.
git clone -q --no-hardlinks "$PWD" "$root/root/uirq" || fail "git clone failed"
head=$(git rev-parse --short HEAD)

log=$root.log
echo "fresh-root: ./scripts/run.sh in a fresh Debian 12 root (commit $head)"
t0=$(date +%s)
# The mounts live in the namespace and end with it, whatever happens.
# shellcheck disable=SC2016 # the inner shell expands them
unshare --mount --pid --fork --propagation private /bin/bash -c '
	root=$1 cache=$2
	mount -t proc proc "$root/proc" &&
	mount -t sysfs sys "$root/sys" &&
	mount --rbind /dev "$root/dev" &&
	mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives" &&
	mount --bind "$cache/apt-lists" "$root/var/lib/apt/lists" || exit 125
	exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/uirq && ./scripts/run.sh"
' fresh-root "$root" "$cache" >"$log" 2>&1
rc=$?
t1=$(date +%s)
cp "$log" "$cache/last-run.log"
rm -f "$log"
log=$cache/last-run.log

# The default run ends with the button's events and lockdep's clean verdict.
ok=1
[ "$rc" -eq 0 ] || { echo "fresh-root: run.sh exited $rc, expected 0" >&2; ok=0; }
grep -q 'code 116 (KEY_POWER), value 1' "$log" ||
	{ echo "fresh-root: no KEY_POWER press in the output" >&2; ok=0; }
tail -n 5 "$log" | grep -q '^lockdep: no problems found' ||
	{ echo "fresh-root: the output does not end with lockdep's verdict" >&2; ok=0; }
if [ "$ok" -eq 1 ]; then
	echo "fresh-root: run.sh exited 0 with the default run's output, in $((t1 - t0)) s (log: $log)"
	tail -n 3 "$log"
	echo "fresh-root: 1 passed, 0 failed"
	exit 0
fi
tail -n 40 "$log" >&2
echo "fresh-root: 0 passed, 1 failed"
exit 1

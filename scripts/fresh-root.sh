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
#
# Then the Debian packages (debian/), in the same root, whose build tools
# run.sh has just installed: apt-get build-dep on a second clean clone,
# `dpkg-buildpackage -b -uc -us` there (the one package build of the test
# command), lintian on the result (here, outside the root: no error, no
# warning), and debian/control's Build-Depends against scripts/deps.sh's
# build packages. The packages go into a second fresh root, installed with
# apt (which pulls their dependencies), and there: uirq-lockdep on a program
# with a lock-order inversion (reported, exit status), irqsim on its default,
# and the README's "Using the library" example compiled with pkg-config.
# UIRQ_FRESH_ROOT_PACKAGES=0 leaves the packages out.
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
packages=${UIRQ_FRESH_ROOT_PACKAGES:-1}
[ "$packages" = 0 ] || uirq_need_packages "${UIRQ_PACKAGE_PACKAGES[@]}"

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

roots=()
trap 'rm -rf "${roots[@]}"' EXIT
# new_root: unpack a fresh copy of the pristine root; its path in $root.
new_root() {
	root=$(mktemp -d /var/tmp/uirq-fresh-root.XXXXXX) || fail "mktemp failed"
	roots+=("$root")
	tar -C "$root" -xf "$tarball" || fail "cannot unpack $tarball"
	# apt downloads as its own user _apt: let it write the cached download folders.
	apt_uid=$(awk -F: '$1 == "_apt" { print $3 }' "$root/etc/passwd")
	[ -z "$apt_uid" ] || chown "$apt_uid" "$cache/apt-archives/partial" "$cache/apt-lists/partial" ||
		fail "cannot hand $cache's download folders to _apt"
	# What a freshly installed machine has: its name service configuration.
	cp /etc/resolv.conf "$root/etc/resolv.conf" || fail "cannot copy /etc/resolv.conf"
}
# in_root ROOT SCRIPT: run SCRIPT with bash as root in ROOT, in a chroot in a mount
# namespace of its own (the mounts live in the namespace and end with it, whatever happens).
in_root() {
	# shellcheck disable=SC2016 # the inner shell expands them
	unshare --mount --pid --fork --propagation private /bin/bash -c '
		root=$1 cache=$2 script=$3
		mount -t proc proc "$root/proc" &&
		mount -t sysfs sys "$root/sys" &&
		mount --rbind /dev "$root/dev" &&
		mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives" &&
		mount --bind "$cache/apt-lists" "$root/var/lib/apt/lists" || exit 125
		exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/bash -c "$script"
	' fresh-root "$1" "$cache" "$2"
}

new_root
# The repository as committed: a clean clone, no build tree, no local changes.
git clone -q --no-hardlinks "$PWD" "$root/root/uirq" || fail "git clone failed"
head=$(git rev-parse --short HEAD)

log=$root.log
echo "fresh-root: ./scripts/run.sh in a fresh Debian 12 root (commit $head)"
t0=$(date +%s)
in_root "$root" "cd /root/uirq && ./scripts/run.sh" >"$log" 2>&1
rc=$?
t1=$(date +%s)
cp "$log" "$cache/last-run.log"
rm -f "$log"
log=$cache/last-run.log

passed=0 failed=0
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
	passed=$((passed + 1))
else
	tail -n 40 "$log" >&2
	failed=$((failed + 1))
fi
[ "$packages" = 0 ] && { echo "fresh-root: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

# check NAME OK: count one check, saying what passed or failed.
check() {
	if [ "$2" -eq 1 ]; then
		echo "fresh-root: ok: $1"
		passed=$((passed + 1))
	else
		echo "fresh-root: FAILED: $1" >&2
		failed=$((failed + 1))
	fi
}
finish() {
	echo "fresh-root: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# debian/control builds with what scripts/deps.sh installs to build: the same
# packages, less build-essential's own (gcc, libc6-dev), plus debhelper.
want=$(printf '%s\n' "${UIRQ_BUILD_PACKAGES[@]}" debhelper-compat | grep -vxE 'gcc|libc6-dev' | sort -u)
have=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed '$d; s/^Build-Depends://' | tr ',' '\n' |
	sed -E 's/\(.*\)//; s/[[:space:]]//g' | grep -v '^$' | sort -u)
ok=1
[ "$want" = "$have" ] || {
	ok=0
	diff <(echo "$want") <(echo "$have") | sed 's/^/fresh-root: deps.sh vs debian\/control: /' >&2
}
check "debian/control's Build-Depends are scripts/deps.sh's build packages" "$ok"

# The packages, built once, from a second clean clone in the root run.sh used.
echo "fresh-root: dpkg-buildpackage -b -uc -us in the same root"
plog=$cache/last-packages.log
git clone -q --no-hardlinks "$PWD" "$root/root/pkg/uirq" || fail "git clone failed"
t0=$(date +%s)
in_root "$root" 'set -e
	export DEBIAN_FRONTEND=noninteractive
	cd /root/pkg/uirq
	apt-get build-dep -y -qq --no-install-recommends ./
	dpkg-buildpackage -b -uc -us' >"$plog" 2>&1
rc=$?
t1=$(date +%s)
debs=$(mktemp -d /var/tmp/uirq-debs.XXXXXX) || fail "mktemp failed"
roots+=("$debs")
cp "$root"/root/pkg/*.deb "$root"/root/pkg/*.changes "$root"/root/pkg/*.buildinfo "$debs"/ 2>/dev/null
ok=1
[ "$rc" -eq 0 ] || { tail -n 30 "$plog" >&2; ok=0; }
for p in libuirq0 libuirq-dev uirq-tools; do
	compgen -G "$debs/${p}_*.deb" >/dev/null || { echo "fresh-root: no $p package" >&2; ok=0; }
done
check "dpkg-buildpackage -b -uc -us from a clean clone ($((t1 - t0)) s, with build-dep; log: $plog)" "$ok"
[ "$ok" -eq 1 ] || finish
rm -rf "$root"

# lintian, with the informational tags shown: no error and no warning.
lintian --info --pedantic "$debs"/*.changes >"$debs/lintian.txt" 2>&1
grep -v 'root privileges' "$debs/lintian.txt" | sed 's/^/fresh-root: lintian: /'
grep -qE '^[A-Z]: ' "$debs/lintian.txt" || echo "fresh-root: lintian --info --pedantic: no tag"
ok=1
! grep -qE '^[EW]: ' "$debs/lintian.txt" || ok=0
check "lintian reports no error and no warning" "$ok"

# A second fresh root: the packages installed as a user installs them, then used.
new_root
mkdir -p "$root/root/debs" "$root/root/try" || fail "mkdir failed"
cp "$debs"/*.deb "$root/root/debs/" || fail "cannot copy the packages"
rm -f "$root"/root/debs/*-dbgsym_*.deb
for f in threaded_irq.c abba.c; do
	git show "HEAD:examples/$f" >"$root/root/try/$f" || fail "git show HEAD:examples/$f failed"
done
ilog=$cache/last-install.log
# shellcheck disable=SC2016 # the chroot's shell expands them
in_root "$root" '
	export DEBIAN_FRONTEND=noninteractive
	cd /root/try
	apt-get update -qq && apt-get install -y -qq --no-install-recommends /root/debs/*.deb gcc libc6-dev pkg-config ||
		{ echo "@@ install failed"; exit 1; }
	for p in libuirq0 libuirq-dev uirq-tools; do
		dpkg-query -W -f="\${Status}" "$p" | grep -q "install ok installed" && echo "@@ installed $p"
	done
	cc -g -pthread abba.c -o abba && uirq-lockdep --exit-code 3 ./abba
	echo "@@ uirq-lockdep exit $?"
	irqsim
	echo "@@ irqsim exit $?"
	cc threaded_irq.c $(pkg-config --cflags --libs uirq) -o threaded_irq && ./threaded_irq 3
	echo "@@ example exit $?"
' >"$ilog" 2>&1
[ "$(grep -c '^@@ installed ' "$ilog")" -eq 3 ]
check "apt installs the three packages in a fresh Debian 12 root (log: $ilog)" "$((! $?))"
grep -q '^@@ uirq-lockdep exit 3$' "$ilog" && grep -q 'WARNING: possible circular locking dependency detected' "$ilog"
check "the installed uirq-lockdep reports the inversion of a program compiled there and exits 3" "$((! $?))"
grep -q '^@@ irqsim exit 0$' "$ilog" && grep -q 'code 116 (KEY_POWER), value 1' "$ilog" &&
	grep -q '^lockdep: no problems found' "$ilog"
check "the installed irqsim runs its default to lockdep's clean verdict" "$((! $?))"
grep -q '^@@ example exit 0$' "$ilog" && grep -q '^3 events, 3 handled$' "$ilog"
check "the README's example builds with pkg-config uirq against the packages and runs" "$((! $?))"
[ "$failed" -eq 0 ] || tail -n 40 "$ilog" >&2
grep -E '^(@@|3 events|WARNING|lockdep:|uirq-lockdep:)' "$ilog" | sed 's/^/fresh-root: /'
finish

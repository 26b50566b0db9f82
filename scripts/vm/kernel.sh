#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetch Debian's current kernel package into the cache and prepare it for booting:
#   scripts/vm/kernel.sh [CACHE_DIR]
# Prints the prepared folder: ROOT/vmlinuz, ROOT/version, ROOT/lib/modules/VERSION with modules.dep.
# The folder is keyed by package name and version, so a new ABI bump fetches once and an
# unchanged one costs nothing.  Works offline from the cache once a kernel is there.
set -euo pipefail
cache=${1:-${UIRQ_VM_CACHE:-$(cd "$(dirname "$0")/../.." && pwd)/.cache/vm}}
mkdir -p "$cache"

# The package linux-image-amd64 currently names (its name changes with every ABI bump).
kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}

# The newest kernel already prepared in the cache, if any.
cached() {
	local r
	r=$(find "$cache" -mindepth 2 -maxdepth 2 -path "$cache/linux-image-*/ready" 2>/dev/null | sort -V | tail -n 1)
	[ -n "$r" ] && dirname "$r"
}

# Resolve the package and its version, download and prepare it: 0 and the folder on stdout.
fetch() {
	local pkg ver root mods kver
	pkg=$(kernel_pkg || true)
	[ -n "$pkg" ] || return 1
	ver=$(apt-cache policy "$pkg" | awk '$1 == "Candidate:" { print $2; exit }')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || return 1
	root=$cache/${pkg}_${ver}
	if [ -f "$root/ready" ]; then
		echo "$root"
		return 0
	fi
	echo "vm: fetching $pkg $ver" >&2
	rm -rf "$root" "$root.tmp"
	mkdir -p "$root.tmp/dl"
	# apt-get download needs no root; as root it notes that _apt cannot write here, which is harmless.
	if ! (cd "$root.tmp/dl" && apt-get download -q "$pkg=$ver" >"$root.tmp/download.log" 2>&1); then
		cat "$root.tmp/download.log" >&2
		echo "vm: apt-get download $pkg=$ver failed" >&2
		rm -rf "$root.tmp"
		return 1
	fi
	dpkg -x "$root.tmp"/dl/*.deb "$root.tmp/x" || return 1
	# Newer packages ship under usr/lib/modules; depmod -b wants BASE/lib/modules/VERSION.
	mods=$(find "$root.tmp"/x/lib/modules "$root.tmp"/x/usr/lib/modules -mindepth 1 -maxdepth 1 2>/dev/null | head -n 1)
	[ -n "$mods" ] || { echo "vm: no modules in $pkg" >&2; return 1; }
	kver=$(basename "$mods")
	mkdir -p "$root.tmp/lib/modules"
	mv "$mods" "$root.tmp/lib/modules/$kver" || return 1
	mv "$root.tmp/x/boot/vmlinuz-$kver" "$root.tmp/vmlinuz" || return 1
	echo "$kver" >"$root.tmp/version"
	rm -rf "$root.tmp/x" "$root.tmp/dl"
	# The .deb carries no modules.dep; depmod -b makes it (it reads .ko and .ko.xz alike).
	depmod -b "$root.tmp" "$kver" || return 1
	touch "$root.tmp/ready"
	mv "$root.tmp" "$root" || return 1
	echo "$root"
}

fetch && exit 0
if [ "$(id -u)" -eq 0 ]; then
	# A fresh machine has no package lists (apt-cache knows nothing), and stale lists name a
	# version the archive has dropped: both are cured by an update.
	echo "vm: refreshing the package lists (apt-get update)" >&2
	apt-get update -qq >&2 || true
	fetch && exit 0
fi
# Offline or without lists: the newest kernel already in the cache will do.
if root=$(cached); then
	echo "vm: using the cached kernel $(basename "$root")" >&2
	echo "$root"
	exit 0
fi
echo "vm: cannot fetch the kernel package linux-image-amd64 depends on" >&2
echo "vm: run 'apt-get update' (as root) once, then retry" >&2
exit 1

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The unmodified Linux files of -Dupstream=enabled (upstream/files), from Debian's
# linux-source-6.1 package:
#   scripts/upstream.sh fetch     the folder holding them (a kernel tree's layout), on stdout
#   scripts/upstream.sh list      one line per file: PATH SHA256
#   scripts/upstream.sh version   the package and version they come from
# The package (apt-get download: no root needed, ~140 MB) is cached with the files taken
# from it in UIRQ_UPSTREAM_CACHE (default /var/cache/uirq/upstream), outside the clone,
# one folder per package version; files a list adds are extracted from the cached tarball,
# without a download, next to those already there.  Offline, the newest cached version
# with every file will do.
# Nothing here changes a byte of the files: they are compiled as the tarball holds them.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${UIRQ_UPSTREAM_CACHE:-/var/cache/uirq/upstream}
pkg=linux-source-6.1
mapfile -t files < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$here/upstream/files")

say() { echo "upstream: $*" >&2; }

# Does folder $1 hold every listed file?
complete() {
	local f
	for f in "${files[@]}"; do
		[ -f "$1/tree/$f" ] || return 1
	done
}

# Extract the listed files from $1/$pkg.tar.xz into $1/tree.  The tree is shared by every
# clone and worktree on the machine, each with its own list: files are added to it, never
# taken away, so one checkout's build does not delete another's files.  They land in a
# private folder first and each is renamed into the tree whole (a rename is atomic), so a
# concurrent build never reads half a file, and an interrupted extraction leaves none.
extract() {
	local root=$1 top=${pkg} list tmp f
	list=$(printf "$top/%s\n" "${files[@]}")
	tmp=$(mktemp -d "$root/tree.XXXXXX") || return 1
	say "extracting ${#files[@]} files from $pkg (xz reads the whole tarball: about 20 s)"
	# shellcheck disable=SC2086 # one path per word, none with blanks
	if ! tar -xJf "$root/$pkg.tar.xz" -C "$tmp" --strip-components=1 $list; then
		say "a listed file is not in $pkg (upstream/files)"
		rm -rf "$tmp"
		return 1
	fi
	for f in "${files[@]}"; do
		if ! mkdir -p "$root/tree/$(dirname "$f")" || ! mv -f "$tmp/$f" "$root/tree/$f"; then
			rm -rf "$tmp"
			return 1
		fi
	done
	rm -rf "$tmp"
}

# The candidate version's folder, downloaded and extracted: 0 and the folder on stdout.
fetch_candidate() {
	local ver root
	ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '$1 == "Candidate:" { print $2; exit }')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || return 1
	root=$cache/${pkg}_$ver
	if [ ! -f "$root/$pkg.tar.xz" ]; then
		mkdir -p "$root/dl" || { say "cannot write $cache: run as root or set UIRQ_UPSTREAM_CACHE"; return 1; }
		say "downloading $pkg $ver (about 140 MB, once)"
		if ! (cd "$root/dl" && apt-get download -q "$pkg=$ver" >download.log 2>&1); then
			cat "$root/dl/download.log" >&2
			say "apt-get download $pkg=$ver failed"
			return 1
		fi
		dpkg-deb --fsys-tarfile "$root"/dl/*.deb | tar -xO "./usr/src/$pkg.tar.xz" >"$root/$pkg.tar.xz.tmp" || return 1
		mv "$root/$pkg.tar.xz.tmp" "$root/$pkg.tar.xz"
		rm -rf "$root/dl"
		echo "$pkg $ver" >"$root/version"
	fi
	complete "$root" || extract "$root" || return 1
	echo "$root"
}

# The newest cached version that holds every listed file.
cached() {
	local r
	for r in $(find "$cache" -mindepth 1 -maxdepth 1 -name "${pkg}_*" 2>/dev/null | sort -rV); do
		if complete "$r" || { [ -f "$r/$pkg.tar.xz" ] && extract "$r"; }; then
			echo "$r"
			return 0
		fi
	done
	return 1
}

root() {
	fetch_candidate && return 0
	if [ "$(id -u)" -eq 0 ]; then
		# A fresh machine has no package lists; stale ones name a version the archive dropped.
		say "refreshing the package lists (apt-get update)"
		apt-get update -qq >&2 || true
		fetch_candidate && return 0
	fi
	if cached; then
		return 0
	fi
	say "cannot fetch $pkg: run 'apt-get update' (as root) once, then retry"
	return 1
}

case ${1:-} in
fetch)
	r=$(root)
	echo "$r/tree"
	;;
list)
	r=$(root)
	for f in "${files[@]}"; do
		echo "$f $(sha256sum "$r/tree/$f" | cut -d' ' -f1)"
	done
	;;
version)
	r=$(root)
	cat "$r/version"
	;;
*)
	echo "usage: scripts/upstream.sh fetch|list|version" >&2
	exit 2
	;;
esac

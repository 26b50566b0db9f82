#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the gpio-sim module for the guest's kernel, out of tree, and cache it:
#   scripts/vm/gpio-sim.sh KERNEL_ROOT
# KERNEL_ROOT comes from kernel.sh (its folder is named PACKAGE_VERSION).  Prints the built
# module's path.  Debian builds neither gpio-sim nor gpio-mockup nor IRQ_SIM, so this takes
# the same kernel version's linux-headers (with its -common part and linux-kbuild) and
# linux-source packages (apt-get download, dpkg -x: no root needed), and builds
# drivers/gpio/gpio-sim.c with kernel/irq/irq_sim.c as one external module.  The one change:
# irq_to_desc() is not exported to modules, so irq_sim's work function calls
# generic_handle_irq() (the same flow through the descriptor) instead.
# The module is cached per kernel version in UIRQ_GPIO_SIM_CACHE (default
# /var/cache/uirq/gpio-sim), outside the clone: a fresh clone then skips the ~150 MB
# download and the build.
set -euo pipefail
kroot=$1
kver=$(cat "$kroot/version")
pkgver=$(basename "$kroot")
pkgver=${pkgver#*_}
cache=${UIRQ_GPIO_SIM_CACHE:-/var/cache/uirq/gpio-sim}/$kver
if [ -f "$cache/ready" ] && [ -f "$cache/gpio-sim.ko" ]; then
	echo "$cache/gpio-sim.ko"
	exit 0
fi
for tool in gcc make tar xz dpkg apt-get; do
	command -v "$tool" >/dev/null ||
		{ echo "vm: $tool missing (the packages are UIRQ_VM_PACKAGES in scripts/deps.sh)" >&2; exit 1; }
done
if ! mkdir -p "$(dirname "$cache")" || ! work=$(mktemp -d "$cache.XXXXXX"); then
	echo "vm: cannot write $(dirname "$cache"): run as root or set UIRQ_GPIO_SIM_CACHE" >&2
	exit 1
fi
trap 'rm -rf "$work"' EXIT

# 6.1.0-57-amd64 -> abi 6.1.0-57, series 6.1 (the kbuild and source packages' suffix).
abi=${kver%-*}
series=$(echo "$kver" | cut -d. -f1-2)
pkgs=("linux-headers-$kver=$pkgver" "linux-headers-$abi-common=$pkgver"
	"linux-kbuild-$series=$pkgver" "linux-source-$series=$pkgver")
echo "vm: building gpio-sim for $kver (downloading ${pkgs[*]})" >&2
mkdir -p "$work/dl" "$work/x" "$work/mod"
if ! (cd "$work/dl" && apt-get download -q "${pkgs[@]}" >"$work/download.log" 2>&1); then
	cat "$work/download.log" >&2
	echo "vm: apt-get download failed (run 'apt-get update' once?)" >&2
	exit 1
fi
for deb in "$work"/dl/*.deb; do
	dpkg -x "$deb" "$work/x"
done
# Only the three files: xz still decompresses the whole tarball (~15 s).
top=linux-source-$series
tar -xJf "$work/x/usr/src/$top.tar.xz" -C "$work" \
	"$top/drivers/gpio/gpio-sim.c" "$top/drivers/gpio/gpiolib.h" "$top/kernel/irq/irq_sim.c"
cp "$work/$top/drivers/gpio/gpiolib.h" "$work/mod/"
# The module is named gpio-sim, so its main file needs another name.
cp "$work/$top/drivers/gpio/gpio-sim.c" "$work/mod/gpio-sim-main.c"
sed 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' \
	"$work/$top/kernel/irq/irq_sim.c" >"$work/mod/irq_sim.c"
if ! grep -q 'generic_handle_irq(' "$work/mod/irq_sim.c" || grep -q 'irq_to_desc' "$work/mod/irq_sim.c"; then
	echo "vm: irq_sim.c of $kver: the irq_to_desc() call to replace is not there" >&2
	exit 1
fi
# The headers' Makefile includes its -common part by its installed path: point it here.
hdr=$work/x/usr/src/linux-headers-$kver
sed -i "s|/usr/src/|$work/x/usr/src/|" "$hdr/Makefile"
cat >"$work/mod/Kbuild" <<'EOF'
obj-m := gpio-sim.o
gpio-sim-y := gpio-sim-main.o irq_sim.o
EOF
make -s -C "$hdr" M="$work/mod" modules >"$work/build.log" 2>&1 ||
	{ tail -n 40 "$work/build.log" >&2; echo "vm: building gpio-sim failed" >&2; exit 1; }
rm -rf "$cache"
mkdir -p "$cache"
cp "$work/mod/gpio-sim.ko" "$cache/"
touch "$cache/ready"
echo "$cache/gpio-sim.ko"

#!/usr/bin/env bash
# Sourced by run.sh and test.sh: make sure the Debian packages a step needs are installed.
# Idempotent; as root it installs what is missing, otherwise it prints the exact command and stops.
# shellcheck disable=SC2034 # the package lists are read by the scripts that source this file

uirq_need_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "uirq: missing Debian packages: ${missing[*]}" >&2
		echo "uirq: run as root:  apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	echo "uirq: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || { echo "uirq: apt-get update failed" >&2; exit 1; }
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
		{ echo "uirq: apt-get install ${missing[*]} failed" >&2; exit 1; }
}

# What building and running the main job needs.
# libevdev and libi2c: the uinput bridge and the i2c-dev adapter (the libraries of the field);
# libdw (elfutils): function, file:line and variable names in lockdep reports.
UIRQ_BUILD_PACKAGES=(meson ninja-build gcc pkg-config libc6-dev libevdev-dev libi2c-dev libdw-dev)
# What the test suite needs on top: the test framework (Check), valgrind, and g++ (the installed
# headers must compile as C++: tests/abi), patch (tests/sim-bugs applies its variants at build time),
# xz (scripts/upstream.sh takes the kernel's files out of linux-source-6.1's tarball);
# the sanitizers come with gcc.
UIRQ_TEST_PACKAGES=(check valgrind g++ patch xz-utils)
# What the package step needs on this machine (scripts/fresh-root.sh builds the Debian packages
# inside the fresh root, whose apt-get build-dep installs debhelper and build-essential there):
# lintian, run here on the result. To build them by hand: dpkg-dev and debhelper as well.
UIRQ_PACKAGE_PACKAGES=(lintian)
# What the VM stage of the tests needs (scripts/vm): qemu, the guest's busybox, cpio for the
# initramfs, kmod for depmod/modprobe on the Debian kernel's modules, xz for .ko.xz modules
# and the kernel source tarball, make and gcc to build gpio-sim out of tree (scripts/vm/gpio-sim.sh).
UIRQ_VM_PACKAGES=(qemu-system-x86 busybox-static cpio kmod xz-utils make gcc)
# What the fuzz stage needs (scripts/fuzz.sh): clang and its runtimes (libFuzzer, ASan, UBSan).
UIRQ_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

# Configure (once) and build a build directory: uirq_build DIR [meson options...]
uirq_build() {
	local dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log" >&2; return 1; }
	elif [ $# -gt 0 ]; then
		# configured before, perhaps with other options: these are the ones asked for now
		meson configure "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log" >&2; return 1; }
	fi
	ninja -C "$dir" >"$dir.build.log" 2>&1 || { tail -n 60 "$dir.build.log" >&2; return 1; }
}

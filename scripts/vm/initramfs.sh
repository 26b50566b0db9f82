#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the guest's initramfs (an uncompressed newc cpio, the fastest to unpack under TCG):
#   scripts/vm/initramfs.sh KERNEL_ROOT OUT.cpio [BINARY...]
# KERNEL_ROOT comes from kernel.sh.  UIRQ_VM_RUN (a glob, default vm-*) picks the binaries
# the guest runs.  The image holds busybox and its applet links, the modules
# the guest needs (in load order), every BINARY in /uirq/bin with the shared libraries ldd
# reports for it (the dynamic loader too), and scripts/vm/init as /init.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kroot=$1 out=$2
shift 2
kver=$(cat "$kroot/version")
stage=$out.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,etc/uirq,lib/modules,proc,sys,dev,tmp,run,uirq/bin,uirq/lib}

# The modules, with their parameters; modprobe --show-depends gives each one's closure in
# load order (built-in ones print as "builtin" and need nothing).  UIRQ_VM_EXTRA_MODULES
# (space-separated .ko paths, built out of tree: gpio-sim.sh) load last, after the kernel
# modules their modinfo "depends" names.
modules=(
	"uio"
	"uio_pci_generic"
	"vfio"
	"vfio_iommu_type1"
	"vfio-pci"
	"i2c-stub chip_addr=0x4b"
	"i2c-dev"
	"uinput"
	"evdev"
)
read -r -a extra <<<"${UIRQ_VM_EXTRA_MODULES:-}"
for ko in "${extra[@]}"; do
	[ -f "$ko" ] || { echo "vm: no module $ko" >&2; exit 1; }
	IFS=, read -r -a kdeps <<<"$(modinfo -F depends "$ko")"
	for dep in "${kdeps[@]}"; do
		[ -z "$dep" ] || modules+=("$dep")
	done
done
: >"$stage/etc/uirq/modules"
declare -A have=()
for spec in "${modules[@]}"; do
	read -r name args <<<"$spec"
	deps=$(modprobe -d "$kroot" -S "$kver" --show-depends "$name") ||
		{ echo "vm: kernel $kver has no module $name" >&2; exit 1; }
	# "insmod PATH [PARAMS]": the path runs to its .ko suffix, blanks included (a kernel
	# cached in a clone under "my projects").
	while read -r line; do
		[[ $line =~ ^insmod\ (.*\.ko(\.xz|\.zst)?)(\ |$) ]] || continue
		path=${BASH_REMATCH[1]}
		base=$(basename "$path")
		base=${base%.xz}
		base=${base%.zst}
		if [ -z "${have[$base]:-}" ]; then
			have[$base]=1
			# Busybox insmod takes plain .ko files only.
			case $path in
			*.ko.xz) xz -dc "$path" >"$stage/lib/modules/$base" ;;
			*.ko.zst) zstd -qdc "$path" >"$stage/lib/modules/$base" ;;
			*) cp "$path" "$stage/lib/modules/$base" ;;
			esac
			mod=${base%.ko}
			mod=${mod//-/_}
			# The parameters belong to the module asked for, not to its dependencies.
			if [ "$mod" = "${name//-/_}" ]; then
				echo "$base $args" >>"$stage/etc/uirq/modules"
			else
				echo "$base" >>"$stage/etc/uirq/modules"
			fi
		fi
	done <<<"$deps"
done
for ko in "${extra[@]}"; do
	base=$(basename "$ko")
	cp "$ko" "$stage/lib/modules/$base"
	echo "$base" >>"$stage/etc/uirq/modules"
done

# Copy a file with the libraries it loads (the loader included); a static binary has none.
# ldd's lines are "NAME => PATH (0xADDR)" and, for the loader, "PATH (0xADDR)": the path
# is everything up to the address, blanks included (a build tree under "my projects").
# System libraries keep the path ldd resolved them to; the build's own (libuirq) go to
# /uirq/lib, since the build tree may sit where the guest mounts a tmpfs (a clone in /tmp).
# The guest sets LD_LIBRARY_PATH to their folders, since build trees link with
# $ORIGIN-relative run paths that do not hold in /uirq/bin.
libdirs=()
copy_libs() {
	local lib dest dir
	while read -r lib; do
		if [ -z "$lib" ] || [ ! -e "$lib" ]; then continue; fi
		# Run paths resolve as DIR/../..: keep the name, drop the detour.
		lib=$(realpath -ms "$lib")
		case $lib in
		/lib/* | /lib64/* | /usr/lib/* | /usr/lib64/*) dest=$lib ;;
		*) dest=/uirq/lib/$(basename "$lib") ;;
		esac
		[ -e "$stage$dest" ] && continue
		dir=$(dirname "$dest")
		mkdir -p "$stage$dir"
		cp -L "$lib" "$stage$dest"
		case " ${libdirs[*]} " in *" $dir "*) ;; *) libdirs+=("$dir") ;; esac
	done < <(ldd "$1" 2>/dev/null | sed -n 's/^[[:space:]]*\([^[:space:]]* => \)\{0,1\}\(\/.*\) (0x[0-9a-f]*)$/\2/p')
}

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || { echo "vm: busybox not found (install busybox-static)" >&2; exit 1; }
cp -L "$busybox" "$stage/bin/busybox"
copy_libs "$busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done

for bin in "$@"; do
	cp -L "$bin" "$stage/uirq/bin/$(basename "$bin")"
	# ldd of a symlink would resolve $ORIGIN run paths from the link, not the file.
	copy_libs "$(realpath "$bin")"
done
# glibc dlopens libgcc_s for pthread_exit and pthread_cancel unwinding; ldd cannot see that.
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
gcc_s=$("$ldconfig" -p 2>/dev/null | awk '$1 == "libgcc_s.so.1" && /x86-64/ { print $NF; exit }' || true)
if [ -n "$gcc_s" ] && [ ${#libdirs[@]} -gt 0 ]; then
	mkdir -p "$stage$(dirname "$gcc_s")"
	cp -L "$gcc_s" "$stage$gcc_s"
fi
(IFS=:; echo "${libdirs[*]}") >"$stage/etc/uirq/libpath"
echo "${UIRQ_VM_PROG_TIMEOUT:-600}" >"$stage/etc/uirq/timeout"
# Which of the binaries /init runs, in name order: a glob (the others are tools they use).
echo "${UIRQ_VM_RUN:-vm-*}" >"$stage/etc/uirq/run"

install -m 0755 "$here/init" "$stage/init"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$out"
rm -rf "$stage"

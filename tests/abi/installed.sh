#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The installed tree as a user gets it: `meson install --destdir` into a
# scratch folder, then
#   - every installed header compiles alone, as C11 (with POSIX 2008), gnu17
#     and C++17, with only the installed include folder on the path;
#   - libuirq.so exports uirq_ names only, each declared in an installed
#     header (the documented API) and versioned UIRQ_0 (libuirq-compat.so's
#     UIRQ_COMPAT_0), debian/libuirq0.symbols lists exactly the exports of
#     both, and no header of the demonstration board is installed;
#   - uirq.pc asks for no other package's .pc file (a shared link needs
#     neither libevdev's nor libdw's headers);
#   - examples/threaded_irq.c and examples/seeded.c build with `pkg-config
#     uirq` against that tree and run on the installed library;
#   - the man pages and the systemd unit are installed, the unit pointing at
#     the configured prefix and not restarting after a usage error;
#   - the installed tools find what they run in the installed tree only,
#     with no LD_LIBRARY_PATH: libuirq through their RPATH ($ORIGIN, so the
#     --destdir tree stands for any prefix), the preload library and the
#     demonstration program through their own folder.
# TAP on stdout.  Usage: installed.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
# What a user who set nothing has: the tools must not lean on it.
unset LD_LIBRARY_PATH

build=$1 src=$2
dest=$(mktemp -d /tmp/uirq-installed.XXXXXX) || exit 1
trap 'rm -rf "$dest"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
diag() { sed 's/^/# /'; }
# expect_none WHAT FOUND: ok when nothing was found
expect_none() {
	if [ -z "$2" ]; then ok "$1"; else not_ok "$1 (found: $2)"; fi
}

if ! meson install -C "$build" --destdir "$dest/root" --no-rebuild >"$dest/install.log" 2>&1; then
	not_ok "meson install --destdir"
	diag <"$dest/install.log"
	echo "1..$n"
	exit 1
fi
ok "meson install --destdir"
inc=$(find "$dest/root" -type d -path '*/include/uirq' | head -n 1)
lib=$(find "$dest/root" -name 'libuirq.so.*' -type f | head -n 1)
pc=$(find "$dest/root" -name uirq.pc | head -n 1)
if [ -z "$inc" ] || [ -z "$lib" ] || [ -z "$pc" ]; then
	not_ok "the tree has include/uirq, libuirq.so and uirq.pc (found: '$inc' '$lib' '$pc')"
	echo "1..$n"
	exit 1
fi

# Each header alone, three ways.
for h in "$inc"/*.h; do
	name=uirq/$(basename "$h")
	for std in c11 gnu17 c++17; do
		case $std in
		c11) cmd=(cc -x c -std=c11 -D_POSIX_C_SOURCE=200809L) ;;
		gnu17) cmd=(cc -x c -std=gnu17) ;;
		c++17) cmd=(c++ -x c++ -std=c++17) ;;
		esac
		# one declaration after it: a header of macros alone is an empty unit to -pedantic
		if printf '#include <%s>\ntypedef int uirq_header_check;\n' "$name" | "${cmd[@]}" -Wall -Wextra -Werror -pedantic -fsyntax-only \
			-I"$(dirname "$inc")" - >"$dest/cc.log" 2>&1; then
			ok "<$name> compiles alone as $std"
		else
			not_ok "<$name> compiles alone as $std"
			diag <"$dest/cc.log"
		fi
	done
done

# The exports: uirq_ names declared in the installed headers, nothing else,
# each under the version node UIRQ_0 (libuirq.map); libuirq-compat's under
# UIRQ_COMPAT_0.  nm lists a version node itself as an absolute symbol.
versioned() { nm -D --defined-only --with-symbol-versions "$1" | awk '$2 != "A" { print $3 }' | sort; }
versioned "$lib" >"$dest/exports.versioned"
sed 's/@.*//' "$dest/exports.versioned" >"$dest/exports"
expect_none "every name libuirq exports carries the version node UIRQ_0" \
	"$(grep -v '@@UIRQ_0$' "$dest/exports.versioned" | tr '\n' ' ')"
compat=$(find "$dest/root" -name 'libuirq-compat.so.*' -type f | head -n 1)
if [ -n "$compat" ]; then
	expect_none "every name libuirq-compat exports carries the version node UIRQ_COMPAT_0" \
		"$(versioned "$compat" | grep -v '@@UIRQ_COMPAT_0$' | tr '\n' ' ')"
else
	not_ok "libuirq-compat.so is installed"
fi
# debian/libuirq0.symbols lists exactly what both libraries export, with
# their versions: an API call added, removed or moved to another node
# without its line there fails here, not first in a package build.  The
# file describes the packaged configuration (lockdep compiled in).
symbols=$src/debian/libuirq0.symbols
if ! grep -q '^#define UIRQ_CONFIG_LOCKDEP 1' "$inc/config.h"; then
	ok "debian/libuirq0.symbols matches the exports # SKIP lockdep compiled out"
else
	for l in "$lib" "$compat"; do
		[ -n "$l" ] || continue
		soname=$(objdump -p "$l" | awk '$1 == "SONAME" { print $2 }')
		nm -D --defined-only --with-symbol-versions "$l" |
			awk '$2 == "A" { print $3 "@" $3; next } { sub(/@@/, "@", $3); print $3 }' | sort >"$dest/have"
		awk -v so="$soname" '/^[^ *#|]/ { sec = ($1 == so); next } sec && /^ / { print $1 }' "$symbols" |
			sort >"$dest/listed"
		if [ ! -s "$dest/listed" ]; then
			not_ok "debian/libuirq0.symbols lists $soname"
		elif cmp -s "$dest/have" "$dest/listed"; then
			ok "debian/libuirq0.symbols lists exactly what $soname exports ($(wc -l <"$dest/have") symbols)"
		else
			not_ok "debian/libuirq0.symbols lists exactly what $soname exports"
			{
				comm -23 "$dest/have" "$dest/listed" | sed 's/^/exported, not listed: /'
				comm -13 "$dest/have" "$dest/listed" | sed 's/^/listed, not exported: /'
			} | diag
		fi
	done
fi
expect_none "every exported name carries uirq_ ($(wc -l <"$dest/exports") exported)" \
	"$(grep -v '^uirq_' "$dest/exports" | tr '\n' ' ')"
undocumented=
while read -r s; do
	grep -qw -- "$s" "$inc"/*.h || undocumented+="$s "
done <"$dest/exports"
expect_none "every exported name is declared in an installed header" "$undocumented"
# One convention: what a call creates comes back through a **out argument
# and the call returns 0 or a negative errno.  Calls that return a pointer
# create nothing: lookups and accessors, listed here by name.
lookups=" uirq_i2c_sim_adapter uirq_input_get_drvdata uirq_input_type_name uirq_input_code_name
 uirq_uinput_devnode uirq_irq_to_desc uirq_irq_get_irq_data uirq_irq_desc_get_handler_data
 uirq_irq_get_handler_data
 uirq_irq_domain_get_host_data uirq_irq_desc_get_chip uirq_irq_desc_get_irq_data uirq_free_irq
 uirq_lockdep_kind_name uirq_swirq_domain uirq_sim_report uirq_sim_task_name uirq_sim_preemptions "
pointers=
lookups=$(tr '\n' ' ' <<<"$lookups")
for h in "$inc"/*.h; do
	# comments out (-fpreprocessed: nothing else expanded), declarations on one line
	cc -x c -fpreprocessed -dD -E -P "$h" 2>/dev/null | tr '\n' ' ' |
		grep -oE '\*[[:space:]]*uirq_[a-z0-9_]+[[:space:]]*\(' | sed -E 's/^\*[[:space:]]*//; s/[[:space:]]*\($//'
done | sort -u >"$dest/pointers"
while read -r f; do
	[[ $lookups == *" $f "* ]] || pointers+="$f "
done <"$dest/pointers"
expect_none "calls returning a pointer are lookups (constructors return 0 or -errno, the object through **out)" \
	"$pointers"
board=
for h in board.h twl4030.h twl4030-drivers.h uio-pwrbutton.h; do
	[ ! -e "$inc/$h" ] || board+="$h "
done
expect_none "no header of the demonstration board is installed" "$board"
# The kernel's GPL-2.0 files (-Dupstream=enabled) are built for the tests and irqsim's module only.
expect_none "nothing of the unmodified Linux drivers is installed" \
	"$(find "$dest/root" -iname '*upstream*' -o -name 'twl4030-*.c' | tr '\n' ' ')$(nm -D --defined-only "$lib" | grep -wE 'twl4030_init_irq|twl_i2c_read' | tr '\n' ' ')"

# pkg-config, then the example, compiled and run as a user would.
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR=$dest/root
expect_none "uirq.pc requires no other package" \
	"$(pkg-config --print-requires-private uirq 2>&1; pkg-config --print-requires uirq 2>&1)"
read -r -a flags < <(pkg-config --cflags --libs uirq)
for ex in threaded_irq seeded; do
	if cc -std=gnu11 -Wall -Wextra -Werror "$src/examples/$ex.c" "${flags[@]}" \
		-o "$dest/$ex" >"$dest/cc.log" 2>&1; then
		ok "examples/$ex.c builds with pkg-config uirq against the installed tree"
	else
		not_ok "examples/$ex.c builds with pkg-config uirq against the installed tree"
		diag <"$dest/cc.log"
	fi
done
# "Your driver on uirq": a kernel-style file compiled as is, with the forced include and the
# kernel's warning set, and the board that binds it, against the installed compat layer.
read -r -a cflags < <(pkg-config --cflags uirq-compat)
read -r -a cflibs < <(pkg-config --cflags --libs uirq-compat)
if cc -std=gnu11 -include compat/uirq-kernel.h -fno-strict-overflow -Wall -Wno-unused-parameter \
	"${cflags[@]}" -c "$src/examples/your-driver/acme-button.c" -o "$dest/acme-button.o" >"$dest/cc.log" 2>&1 &&
	cc -std=gnu11 -Wall -Wextra -Werror "$src/examples/your-driver/board.c" "$dest/acme-button.o" "${cflibs[@]}" \
		-o "$dest/your-driver-board" >>"$dest/cc.log" 2>&1; then
	ok "examples/your-driver builds with pkg-config uirq-compat against the installed tree"
	out=$(LD_LIBRARY_PATH=$(dirname "$lib") "$dest/your-driver-board" 2>&1)
	if grep -q 'KEY_ENTER), value 1' <<<"$out" && grep -q 'KEY_ENTER), value 0' <<<"$out"; then
		ok "the driver binds and reports on the installed libraries"
	else
		not_ok "the driver binds and reports on the installed libraries"
		diag <<<"$out"
	fi
else
	not_ok "examples/your-driver builds with pkg-config uirq-compat against the installed tree"
	diag <"$dest/cc.log"
fi
out=$(LD_LIBRARY_PATH=$(dirname "$lib") "$dest/threaded_irq" 3 2>&1)
rc=$?
libs=$(LD_LIBRARY_PATH=$(dirname "$lib") ldd "$dest/threaded_irq" 2>&1 | grep libuirq)
if [ "$rc" -eq 0 ] && grep -q '^3 events, 3 handled$' <<<"$out" && grep -q "$dest/root" <<<"$libs"; then
	ok "the example runs on the installed library"
else
	not_ok "the example runs on the installed library (exit $rc)"
	{ echo "$out"; echo "$libs"; } | diag
fi
out=$(LD_LIBRARY_PATH=$(dirname "$lib") "$dest/seeded" 7 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^replayed: identical$' <<<"$out"; then
	ok "the deterministic-mode example replays its seed on the installed library"
else
	not_ok "the deterministic-mode example replays its seed on the installed library (exit $rc)"
	diag <<<"$out"
fi

# The manuals and the systemd unit: installed, the unit naming the installed
# daemon and not restarting after a usage error (exit 2).
man=
for m in man1/irqsim.1 man1/uirq-lockdep.1 man1/uirq-latency.1 man8/uirq-pwrbutton.8; do
	[ -n "$(find "$dest/root" -path "*/share/man/$m")" ] || man+="$m "
done
expect_none "the man pages irqsim(1), uirq-lockdep(1), uirq-latency(1) and uirq-pwrbutton(8) are installed" "$man"
unit=$(find "$dest/root" -name uirq-pwrbutton.service | head -n 1)
prefix=$(meson introspect --buildoptions "$build" |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
if [ -n "$unit" ] && grep -q "^ExecStart=$prefix/bin/uirq-pwrbutton " "$unit" &&
	grep -q '^RestartPreventExitStatus=2$' "$unit"; then
	ok "the systemd unit runs $prefix/bin/uirq-pwrbutton and does not restart after a usage error"
else
	not_ok "the systemd unit runs $prefix/bin/uirq-pwrbutton and does not restart after a usage error"
	[ -z "$unit" ] || diag <"$unit"
fi
# The installed tools stand on their own, LD_LIBRARY_PATH unset: each runs
# from the tree (whose prefix the loader does not search: it is under
# $dest), loading libuirq from it when it links it, and nothing from the
# build tree.
printf 'hold 5ms\nwait 5ms\n' >"$dest/story.sc"
for tool in "irqsim --seed 1 --scenario $dest/story.sc" "uirq-pwrbutton --version" "uirq-lockdep --version" \
	"uirq-latency --duration 0.01 --modes poll-primary"; do
	read -r -a cmd <<<"$tool"
	tool=${tool//"$dest/"/}
	bin=$(find "$dest/root" -path "*/bin/${cmd[0]}" | head -n 1)
	if [ -z "$bin" ]; then
		not_ok "${cmd[0]} is installed"
		continue
	fi
	out=$(LD_DEBUG=libs "$bin" "${cmd[@]:1}" 2>&1)
	rc=$?
	from_build=$(grep -F "$(cd "$build" && pwd)" <<<"$out" | head -n 3)
	uirq=$(grep -E 'calling init: .*/libuirq\.so' <<<"$out" | sed 's/.*calling init: //')
	if readelf -d "$bin" | grep -q 'NEEDED.*libuirq\.so'; then
		[[ $uirq == "$dest/root/"* ]] || uirq="not from the tree: '$uirq'"
	else
		[ -z "$uirq" ] || uirq="loaded, not linked: '$uirq'"
	fi
	if [ "$rc" -eq 0 ] && [ -z "$from_build" ] && [[ $uirq != not* && $uirq != loaded* ]]; then
		ok "the installed $tool runs without LD_LIBRARY_PATH${uirq:+ (libuirq from the tree)}"
	else
		not_ok "the installed $tool runs without LD_LIBRARY_PATH (exit $rc; $uirq)"
		{ echo "$from_build"; readelf -d "$bin" | grep -E 'RPATH|RUNPATH'; grep -v '^ *[0-9]*:' <<<"$out" | tail -n 20; } | diag
	fi
done
# irqsim --lockdep-demo runs the installed uirq-lockdep on the installed
# example, with the installed preload library, and no process of it loads
# anything from the build tree.
irqsim=$(find "$dest/root" -path '*/bin/irqsim' | head -n 1)
if [ -n "$irqsim" ]; then
	out=$(LD_DEBUG=libs "$irqsim" --lockdep-demo 2>&1)
	rc=$?
	from_build=$(grep -F "$(cd "$build" && pwd)" <<<"$out" | head -n 3)
	if [ "$rc" -eq 0 ] && grep -q 'WARNING: possible circular locking dependency detected' <<<"$out" &&
		grep -q "calling init: $dest/root/.*/libuirq-lockdep-preload.so" <<<"$out" && [ -z "$from_build" ]; then
		ok "the installed irqsim --lockdep-demo runs the installed uirq-lockdep and preload library only"
	else
		not_ok "the installed irqsim --lockdep-demo runs the installed uirq-lockdep and preload library only (exit $rc)"
		{ echo "$from_build"; grep -v '^ *[0-9]*:' <<<"$out" | tail -n 20; } | diag
	fi
else
	not_ok "irqsim is installed"
fi
echo "1..$n"

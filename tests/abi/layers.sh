#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Layers never call upward (docs/design.md): every symbol an object of
# libuirq takes from another object must be defined in its own layer or one
# below.  A layer reaches an upper one only through a callback the upper
# one installed, which the linker never sees.
#   layers.sh BUILDDIR   (libuirq's objects: BUILDDIR/libuirq.so.*.p)
set -uo pipefail
dirs=("$1"/libuirq.so.*.p)
dir=${dirs[0]}
order=(lib sim context lockdep core sources i2c input devices drivers)
declare -A rank def
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done

shopt -s nullglob
objs=("$dir"/*.c.o)
if [ ${#objs[@]} -eq 0 ]; then
	echo "1..0 # no objects in $dir"
	exit 1
fi
layer_of() { local b; b=$(basename "$1"); echo "${b%%_*}"; }
for o in "${objs[@]}"; do
	l=$(layer_of "$o")
	[ -n "${rank[$l]:-}" ] || { echo "not ok - $o: layer '$l' is not in the order (${order[*]})"; exit 1; }
	while read -r _ _ sym; do def[$sym]=$l; done < <(nm --defined-only "$o" | awk '$2 ~ /^[TDBRVW]$/')
done
bad=0 n=0
echo "1..${#objs[@]}"
for o in "${objs[@]}"; do
	l=$(layer_of "$o") up=()
	n=$((n + 1))
	while read -r _ sym; do
		d=${def[$sym]:-}
		[ -n "$d" ] && [ "${rank[$d]}" -gt "${rank[$l]}" ] && up+=("$sym ($d)")
	done < <(nm --undefined-only "$o")
	if [ ${#up[@]} -eq 0 ]; then
		echo "ok $n - $(basename "$o")"
	else
		echo "not ok $n - $(basename "$o") ($l) calls upward: ${up[*]}"
		bad=1
	fi
done
exit $bad

#!/usr/bin/env bash
# The long soak (tests/soak/soak.c, the uirq-soak program): build the tree,
# then raise EDGES edges (default 1,000,000) paced over SECONDS (default 180;
# 0: as fast as they go) on 15 lines - swirq edge, both-edge and level
# inputs, a fasteoi controller, eventfd lines; threaded and not, shared and
# not - from 3 device threads while 2 control threads request, free,
# disable, enable and re-route the lines over 2-4 CPUs.  Prints every
# line's figures and the conservation check (raised = handled + merged +
# no handler), the time and the threads; exits 1 on any failure.
# With UIRQ_SOAK_ARGS="--seed N" the whole run is in uirq's deterministic mode:
# every thread a task of one scheduler seeded with N, SECONDS virtual (they
# cost no wall time: the run takes what its work takes), the eventfd lines
# virtual (their CPU polls them); it ends with the decision count and hash,
# and the same N prints the same figures again.  Every scheduling decision is
# a hand-off between threads (a futex wake and wait, some 20 us here), so a
# seeded run costs more wall time than a free unpaced one (bench/README.md).
#   scripts/soak.sh [EDGES] [SECONDS]
#   UIRQ_SOAK_SANITIZE=address,undefined|thread  build with a sanitizer (own build dir)
#   UIRQ_SOAK_BUILD=DIR   the build dir (default build-soak, build-soak-asan, build-soak-tsan)
#   UIRQ_SOAK_ARGS="..."  more uirq-soak options: -r ROUNDS -d DEVICE_THREADS -c CONTROL_THREADS
#                         -s SEED (the soak's random sequence), --seed N (the deterministic
#                         mode) and --strategy random|pct|pct:D (its scheduler, default pct:3)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh

usage() {
	echo "usage: scripts/soak.sh [EDGES] [SECONDS]   (UIRQ_SOAK_SANITIZE=address,undefined|thread, UIRQ_SOAK_BUILD=DIR," \
		"UIRQ_SOAK_ARGS=\"--seed N ...\")" >&2
	exit 2
}
edges=${1:-1000000}
secs=${2:-180}
[ $# -le 2 ] || usage
[[ $edges =~ ^[1-9][0-9]*$ ]] || usage
[[ $secs =~ ^[0-9]+$ ]] || usage

uirq_need_packages "${UIRQ_BUILD_PACKAGES[@]}" "${UIRQ_TEST_PACKAGES[@]}"

san=${UIRQ_SOAK_SANITIZE:-}
case $san in
'') variant=plain dir=build-soak opts=() ;;
address | address,undefined) variant=asan dir=build-soak-asan opts=("-Db_sanitize=$san" -Db_lundef=false) ;;
thread) variant=tsan dir=build-soak-tsan opts=(-Db_sanitize=thread -Db_lundef=false) ;;
*) usage ;;
esac
dir=${UIRQ_SOAK_BUILD:-$dir}

echo "soak: building $dir ($variant)"
uirq_build "$dir" "${opts[@]}" || { echo "soak: build failed" >&2; exit 1; }
bin=$dir/tests/soak/uirq-soak
[ -x "$bin" ] || { echo "soak: $bin was not built" >&2; exit 1; }

# As the test command runs the sanitizers: any report fails the run.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

read -r -a extra <<<"${UIRQ_SOAK_ARGS:-}"
echo "soak: $bin $edges $secs ${extra[*]}"
"$bin" "$edges" "$secs" "${extra[@]}"

# shellcheck shell=bash
# Helpers shared by bench/lockdep-bench and bench/lock-ops-bench (sourced).

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages the benchmarks need: compilers (libclang-rt-dev holds
# clang's TSan runtime, only a Recommends of clang), Valgrind, and whatever
# the project's own build needs (meson setup configures tests/ too), taken
# from scripts/deps.sh so that the two lists cannot drift apart.
# shellcheck disable=SC2034 # used by the scripts that source this
BENCH_PACKAGES=(gcc clang libclang-rt-dev valgrind meson ninja-build)
if [ -f "$BENCH_ROOT/scripts/deps.sh" ]; then
	# shellcheck source=scripts/deps.sh
	. "$BENCH_ROOT/scripts/deps.sh"
	BENCH_PACKAGES+=("${UIRQ_BUILD_PACKAGES[@]}" "${UIRQ_TEST_PACKAGES[@]}")
else
	BENCH_PACKAGES+=(pkg-config libc6-dev check)
fi
# shellcheck disable=SC2207 # package names hold no blanks
BENCH_PACKAGES=($(printf '%s\n' "${BENCH_PACKAGES[@]}" | sort -u))

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
note() { echo "$(basename "$0"): $*" >&2; }

# Install what is missing (root), or print the apt-get line and stop.
bench_ensure_packages() {
	local missing=() p
	for p in "$@"; do
		case $(dpkg-query -W -f='${Status}' "$p" 2>&1) in
		*"install ok installed"*) ;;
		*) missing+=("$p") ;;
		esac
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "$(basename "$0"): missing Debian packages: ${missing[*]}" >&2
		echo "run as root (or ask an administrator):" >&2
		echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	note "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2 ||
		die "apt-get install ${missing[*]} failed"
}

# bench_meson_build DIR LOG "TARGETS" [meson options...]: configure DIR
# (release) if it is not configured yet and build only TARGETS (ninja target
# names, space-separated) with at most $JOBS jobs, so that unrelated parts of
# the tree do not hold the benchmark up.  Returns non-zero, with the log in
# LOG, if they do not build.
bench_meson_build() {
	local dir=$1 log=$2 targets=$3
	shift 3
	: >"$log"
	if [ ! -f "$dir/build.ninja" ]; then
		local re=()
		# A setup that failed half-way leaves coredata behind: redo it in place.
		[ -f "$dir/meson-private/coredata.dat" ] && re=(--reconfigure)
		meson setup "${re[@]}" "$dir" "$BENCH_ROOT" -Dbuildtype=release "$@" >>"$log" 2>&1 || return 1
	fi
	# shellcheck disable=SC2086 # TARGETS is a list
	ninja -C "$dir" -j "${JOBS:-2}" $targets >>"$log" 2>&1
}

# median of the numbers on stdin, one a line
bench_median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bench_machine_line() {
	local cpu
	cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
	echo "machine: $(nproc) CPUs${cpu:+ ($cpu)}, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# calc EXPR: floating-point arithmetic (awk; a comparison gives 1 or 0)
calc() { awk "BEGIN { printf \"%.6f\\n\", $1 }" | sed 's/\.000000$//'; }

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sourced by test.sh and repeat.sh: the suite's three builds, their meson options and the
# environment their tests run in, so a repeated stage runs exactly as the test command's.
# shellcheck disable=SC2034 # the values are read by the scripts that source this file

# The meson options of variant NAME (plain, asan, tsan), one per line; 1 for an unknown name.
uirq_variant_options() {
	case $1 in
	plain) ;;
	asan) printf '%s\n' -Db_sanitize=address,undefined -Db_lundef=false ;;
	tsan) printf '%s\n' -Db_sanitize=thread -Db_lundef=false ;;
	*) return 1 ;;
	esac
	# The unmodified Linux drivers too (upstream/): fetched once into /var/cache/uirq/upstream.
	printf '%s\n' -Dtests=enabled -Dupstream=enabled
}

# Export the environment variant NAME's tests run in.
uirq_variant_env() {
	# Sanitizer runtimes: fail on any report, keep going long enough to see them all.
	# intercept_tls_get_addr=0: LeakSanitizer misreads glibc's dynamic TLS blocks (those of
	# libdw, which lockdep reports dlopen()) and its tracer dies at exit (google/sanitizers#1322).
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0
	export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
	# Sanitized code runs several times slower; scale every test's timeout.
	if [ "$1" = plain ]; then
		export CK_TIMEOUT_MULTIPLIER=1
	else
		export CK_TIMEOUT_MULTIPLIER=4
	fi
}

# Configure and build variant NAME in build-test-NAME (relative to the source tree): uirq_build's status.
uirq_variant_build() {
	local opts
	mapfile -t opts < <(uirq_variant_options "$1")
	uirq_build "build-test-$1" "${opts[@]}"
}

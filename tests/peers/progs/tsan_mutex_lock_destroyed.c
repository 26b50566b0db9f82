// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_lock_destroyed test (compiler-rt/test/tsan/
 * mutex_lock_destroyed.cpp in LLVM): a mutex in malloc'ed memory is
 * initialised, locked, unlocked and destroyed, then locked again; with
 * argument "1" its memory is freed before that last lock.
 *
 * glibc marks a destroyed mutex invalid, and the lock fails with EINVAL;
 * after free() the call reads freed memory, so its result is not checked.
 *
 * TSan: "use of an invalid mutex (e.g. uninitialized or destroyed)", for
 * both runs.
 * uirq-lockdep: one "use of destroyed lock detected!" report without the
 * free; with it, one "heap-use-after-free: freed lock used!" (the freed
 * lock's memory still carries its marker: nothing initialised it again).
 * A mutex set up there anew, even by PTHREAD_MUTEX_INITIALIZER (no init
 * call to see), is a new lock: the initializer clears the marker.
 *
 * runs: - | 1
 * peer-verdict: destroyed use
 */
#include "peer.h"

int main(int argc, char **argv)
{
	pthread_mutex_t *m = malloc(sizeof(*m));

	if (!m)
		return 2;
	ok(pthread_mutex_init(m, NULL));
	ok(pthread_mutex_lock(m));
	ok(pthread_mutex_unlock(m));
	ok(pthread_mutex_destroy(m));
	if (argc > 1 && argv[1][0] == '1') {
		volatile uintptr_t freed = (uintptr_t)m;	/* used after free on purpose */

		free(m);
		pthread_mutex_lock((pthread_mutex_t *)freed);
		return 0;
	}
	expect(pthread_mutex_lock(m), EINVAL);
	free(m);
	return 0;
}

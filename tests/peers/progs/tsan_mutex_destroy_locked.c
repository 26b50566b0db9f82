// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_destroy_locked test (compiler-rt/test/tsan/
 * mutex_destroy_locked.cc in LLVM): main initialises a mutex, locks it and
 * destroys it while holding it, then returns.
 *
 * glibc refuses the destroy with EBUSY; the mutex stays locked until the
 * process ends.
 *
 * TSan: "destroy of a locked mutex".
 * uirq-lockdep: one "held lock freed!" report.  Returning from main with
 * the lock still held is the process's exit, not a thread's, and is not
 * reported.
 *
 * peer-verdict: held freed
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t m;

	ok(pthread_mutex_init(&m, NULL));
	ok(pthread_mutex_lock(&m));
	expect(pthread_mutex_destroy(&m), EBUSY);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_bad_read_lock test (compiler-rt/test/tsan/
 * mutex_bad_read_lock.cpp in LLVM), which declares, through the rwlock
 * annotation, a write acquisition and then a read acquisition of the same
 * lock.  With pthreads: write-lock an rwlock, then read-lock it in the
 * same thread.
 *
 * glibc sees that the caller is the writer and answers EDEADLK instead of
 * blocking for ever.
 *
 * TSan: "read lock of a write locked mutex".
 * uirq-lockdep: one "possible recursive locking detected" report (a read
 * of a lock the thread write-holds waits for itself).
 *
 * peer-verdict: recursive (read lock of a write locked mutex)
 */
#include "peer.h"

int main(void)
{
	static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

	ok(pthread_rwlock_wrlock(&rw));
	expect(pthread_rwlock_rdlock(&rw), EDEADLK);
	ok(pthread_rwlock_unlock(&rw));
	return 0;
}

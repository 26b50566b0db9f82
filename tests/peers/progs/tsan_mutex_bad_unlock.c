// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_bad_unlock test (compiler-rt/test/tsan/
 * mutex_bad_unlock.cpp in LLVM), which declares a write release of a lock
 * never acquired through TSan's rwlock annotation.  With pthreads: unlock
 * an rwlock nobody locked.
 *
 * glibc takes an unlock by a thread that is not the writer for a reader's
 * unlock and returns 0; the rwlock's count is wrong afterwards, so the
 * program leaves it alone.
 *
 * TSan: "unlock of an unlocked mutex (or by a wrong thread)".
 * uirq-lockdep: one "bad unlock balance detected!" report.
 *
 * peer-verdict: bad unlock
 */
#include "peer.h"

int main(void)
{
	static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

	ok(pthread_rwlock_unlock(&rw));
	return 0;
}

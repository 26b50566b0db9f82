// SPDX-License-Identifier: MIT
/*
 * Port of Test15 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 * The peer runs it for its rwlock only.
 *
 * One thread read-locks lock 0 twice and releases it twice, then three
 * times and three times.
 *
 * TSan: nothing checked - the test's CHECK line is disabled in the peer's
 * file, so whatever TSan prints is accepted.
 * uirq-lockdep, glibc's default rwlock: no report; a reader-preferring
 * rwlock lets a reader in again whatever waits, so a recursive read is
 * safe.
 * uirq-lockdep, rwlock_wp (not built by the peer): one recursive-locking
 * report (the second read; the third is the same problem).  With writers
 * preferred, a writer that queues between the two reads blocks the second
 * one for ever.
 *
 * runs: rwlock | rwlock_wp
 * peer-verdict(rwlock): not checked
 * peer-verdict(rwlock_wp): not built by the peer
 */
#include "lockkind.h"

int main(int argc, char **argv)
{
	struct lk *l;

	lk_choose(argc, argv);
	if (!lk_has_read_side())
		return 0;
	l = lk_array(5);
	lk_rdlock(&l[0]);
	lk_rdlock(&l[0]);
	lk_rdunlock(&l[0]);
	lk_rdunlock(&l[0]);
	lk_rdlock(&l[0]);
	lk_rdlock(&l[0]);
	lk_rdlock(&l[0]);
	lk_rdunlock(&l[0]);
	lk_rdunlock(&l[0]);
	lk_rdunlock(&l[0]);
	lk_array_free(l, 5);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Port of Test8 of TSan's deadlock-detector stress test
 * (compiler-rt/test/tsan/deadlock_detector_stress_test.cpp in LLVM), which
 * the peer builds once per lock type; the first argument picks it here
 * (lockkind.h).
 * The peer runs it for its rwlock only.
 *
 * Read/write orders, one thread:
 *   0/1: read 0 then write 1; later write 1 then read 0.
 *   2/3: read 2 then read 3; later read 3 then read 2.
 *
 * TSan: "lock-order-inversion" for each pair (its detector does not tell
 * readers from writers).
 * uirq-lockdep, glibc's default rwlock: no report.  That rwlock prefers
 * readers: a reader is let in whenever other readers hold the lock, even
 * with a writer waiting, so a thread holding 1 for writing always gets
 * its read of 0, and two readers never block each other.  The read side is
 * a recursive read, and neither pair can deadlock.  This difference is
 * deliberate.
 * uirq-lockdep, rwlock_wp (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP,
 * not built by the peer): two circular-dependency reports.  A waiting
 * writer stops new readers there, so with one more thread wanting to write
 * 0 (resp. 2 and 3) each pair is a real deadlock.
 *
 * runs: rwlock | rwlock_wp
 * peer-verdict(rwlock): cycle x2
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
	lk_lock(&l[1]);
	lk_rdunlock(&l[0]);
	lk_unlock(&l[1]);
	lk_lock(&l[1]);
	lk_rdlock(&l[0]);
	lk_rdunlock(&l[0]);
	lk_unlock(&l[1]);
	fprintf(stderr, "Have cycle: 0=>1\n");

	lk_rdlock(&l[2]);
	lk_rdlock(&l[3]);
	lk_rdunlock(&l[2]);
	lk_rdunlock(&l[3]);
	lk_rdlock(&l[3]);
	lk_rdlock(&l[2]);
	lk_rdunlock(&l[2]);
	lk_rdunlock(&l[3]);
	fprintf(stderr, "Have cycle: 2=>3\n");

	lk_array_free(l, 5);
	return 0;
}

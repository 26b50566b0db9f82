// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_cycle2 test (compiler-rt/test/tsan/mutex_cycle2.c in
 * LLVM): mu1 then mu2, released; mu2 then mu1; one thread.  (The peer also
 * runs it with detect_deadlocks=0 and with suppressions, which have no
 * counterpart here.)
 *
 * TSan: "lock-order-inversion (potential deadlock)", exit status non-zero.
 * uirq-lockdep: one circular-dependency report; the exit status is the
 * program's own (0) unless --exit-code asks otherwise.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t mu1, mu2;

	ok(pthread_mutex_init(&mu1, NULL));
	ok(pthread_mutex_init(&mu2, NULL));

	ok(pthread_mutex_lock(&mu1));
	ok(pthread_mutex_lock(&mu2));
	ok(pthread_mutex_unlock(&mu2));
	ok(pthread_mutex_unlock(&mu1));

	ok(pthread_mutex_lock(&mu2));
	ok(pthread_mutex_lock(&mu1));
	ok(pthread_mutex_unlock(&mu1));
	ok(pthread_mutex_unlock(&mu2));

	ok(pthread_mutex_destroy(&mu1));
	ok(pthread_mutex_destroy(&mu2));
	fprintf(stderr, "PASS\n");
	return 0;
}

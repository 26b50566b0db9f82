// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_cycle_long test (compiler-rt/test/tsan/
 * mutex_cycle_long.c in LLVM): N mutexes (argument 1, default 5) locked in
 * overlapping pairs 0-1, 1-2, ..., (N-2)-(N-1), each pair taken and released
 * before the next, then N-1 and 0 - closing a cycle of length N.
 *
 * TSan: "lock-order-inversion" for N = 5, 10, 15 and 20; for N = 30 only
 * "WARNING: too long mutex cycle found" and a clean exit, no inversion
 * report (its cycle search gives up beyond a fixed length).
 * uirq-lockdep: one circular-dependency report whatever N; 100 is run here
 * too.  The difference at 30 is deliberate: a long cycle deadlocks as
 * surely as a short one.
 *
 * runs: 5 | 10 | 15 | 20 | 30 | 100
 * peer-verdict: cycle
 * peer-verdict(30): limit (too long mutex cycle)
 * peer-verdict(100): not run by the peer
 */
#include "peer.h"

int main(int argc, char **argv)
{
	int n = (int)arg_or(argc, argv, 1, 5);
	pthread_mutex_t *m = calloc((size_t)n, sizeof(*m));

	if (!m || n < 2)
		return 2;
	for (int i = 0; i < n; i++)
		ok(pthread_mutex_init(&m[i], NULL));
	for (int i = 0; i + 1 < n; i++) {
		ok(pthread_mutex_lock(&m[i]));
		ok(pthread_mutex_lock(&m[i + 1]));
		ok(pthread_mutex_unlock(&m[i]));
		ok(pthread_mutex_unlock(&m[i + 1]));
	}
	ok(pthread_mutex_lock(&m[n - 1]));
	ok(pthread_mutex_lock(&m[0]));
	ok(pthread_mutex_unlock(&m[n - 1]));
	ok(pthread_mutex_unlock(&m[0]));
	for (int i = 0; i < n; i++)
		ok(pthread_mutex_destroy(&m[i]));
	free(m);
	fprintf(stderr, "PASS\n");
	return 0;
}

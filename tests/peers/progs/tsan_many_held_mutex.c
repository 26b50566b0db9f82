// SPDX-License-Identifier: MIT
/*
 * Port of TSan's many_held_mutex test (compiler-rt/test/tsan/
 * many_held_mutex.cpp in LLVM): one thread locks N mutexes (argument 1),
 * holding all of them at once, then unlocks them in the same order.  The
 * peer uses std::mutex; these are pthread mutexes, which is what
 * std::mutex is on glibc.
 *
 * TSan: 128 runs clean; 129 must fail (TSan keeps at most 128 held mutexes
 * per thread and dies of a CHECK beyond that).
 * uirq-lockdep: no report for 128, 129, or 1000: lockdep has no limit on
 * the number of locks held at once, and holding many is no misuse.
 *
 * runs: 128 | 129 | 1000
 * peer-verdict: none
 * peer-verdict(129): limit (TSan CHECK failure)
 * peer-verdict(1000): not run by the peer
 */
#include "peer.h"

int main(int argc, char **argv)
{
	int n = (int)arg_or(argc, argv, 1, 128);
	pthread_mutex_t *m = calloc((size_t)n, sizeof(*m));

	if (!m)
		return 2;
	for (int i = 0; i < n; i++)
		ok(pthread_mutex_init(&m[i], NULL));
	for (int i = 0; i < n; i++)
		ok(pthread_mutex_lock(&m[i]));
	for (int i = 0; i < n; i++)
		ok(pthread_mutex_unlock(&m[i]));
	for (int i = 0; i < n; i++)
		ok(pthread_mutex_destroy(&m[i]));
	free(m);
	return 0;
}

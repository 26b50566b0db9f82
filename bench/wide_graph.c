// SPDX-License-Identifier: MIT
/*
 * A wide lock graph: 4000 mutexes, one thread taking N random pairs, each
 * in ascending address order (so no cycle ever closes).  Every new pair is a
 * new dependency, and the graph grows to hundreds of thousands of them:
 * a validator that searches the graph for every new dependency does work
 * that grows with the graph (lockdep's BFS alone: 12 s for 100,000 pairs
 * here); one that keeps a topological order of its classes decides most of
 * them without a search.  "wide_graph [N]" (default 100000).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { NR_LOCKS = 4000 };

static pthread_mutex_t locks[NR_LOCKS];

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 100000;
	unsigned int seed = 1;

	for (int i = 0; i < NR_LOCKS; i++)
		pthread_mutex_init(&locks[i], NULL);
	for (long k = 0; k < pairs; k++) {
		int a = rand_r(&seed) % NR_LOCKS, b = rand_r(&seed) % NR_LOCKS;

		if (a == b)
			continue;
		if (a > b) {
			int t = a;

			a = b;
			b = t;
		}
		pthread_mutex_lock(&locks[a]);
		pthread_mutex_lock(&locks[b]);
		pthread_mutex_unlock(&locks[b]);
		pthread_mutex_unlock(&locks[a]);
	}
	for (int i = 0; i < NR_LOCKS; i++)
		pthread_mutex_destroy(&locks[i]);
	printf("wide_graph: %ld pairs of %d mutexes\n", pairs, NR_LOCKS);
	return 0;
}

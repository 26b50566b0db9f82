// SPDX-License-Identifier: MIT
/*
 * Threads take 3 of 8 mutexes, always in ascending order: heavy locking,
 * no problem.  "consistent_order THREADS ITERATIONS" (default 4 x 20000).
 */
#include "prog.h"

#define NLOCKS 8

static pthread_mutex_t locks[NLOCKS];
static long iterations = 20000;
static unsigned long counter[NLOCKS];

static void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(unsigned long)arg * 2654435761u + 1;

	for (long i = 0; i < iterations; i++) {
		int pick[3], n = 0;

		seed = seed * 1103515245u + 12345u;
		/* three distinct indices, sorted */
		for (int l = 0; l < NLOCKS && n < 3; l++)
			if ((int)((seed >> (l * 3)) % (unsigned)(NLOCKS - l)) < 3 - n)
				pick[n++] = l;
		for (int k = 0; k < n; k++)
			ok(pthread_mutex_lock(&locks[pick[k]]));
		for (int k = 0; k < n; k++)
			counter[pick[k]]++;
		for (int k = n - 1; k >= 0; k--)
			ok(pthread_mutex_unlock(&locks[pick[k]]));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[64];

	if (argc > 2)
		iterations = atol(argv[2]);
	if (nthreads < 1 || nthreads > 64)
		return 2;
	for (int i = 0; i < NLOCKS; i++)
		ok(pthread_mutex_init(&locks[i], NULL));
	for (long i = 0; i < nthreads; i++)
		ok(pthread_create(&t[i], NULL, worker, (void *)i));
	for (int i = 0; i < nthreads; i++)
		ok(pthread_join(t[i], NULL));
	for (int i = 0; i < NLOCKS; i++)
		ok(pthread_mutex_destroy(&locks[i]));
	return 0;
}

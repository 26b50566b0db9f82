// SPDX-License-Identifier: MIT
/*
 * churn: the loop of TSan's stress test 18 (tests/peers/progs/tsan_stress18.c)
 * with its two parts separable, to tell what its lock lifetimes cost from
 * what its lock operations cost.  THREADS threads (default 4), each with
 * four mutexes of its own: take all four, release all four, and - with
 * "recreate" - destroy them and initialise them again in the same memory,
 * ROUNDS times.
 *
 *   churn ROUNDS recreate|keep taken|reverse [THREADS]
 *
 * "recreate taken" is stress18 itself (it releases in the order taken);
 * "keep" leaves the locks alive, so after the first round every acquisition
 * is a chain-cache hit and every release a fast-path one: the floor of the
 * same loop for a validator that made lifetimes free.  "reverse" releases
 * the most recent first (the top of the held-lock stack each time).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_THREADS = 64, NR_LOCKS = 4 };

static long rounds;
static int recreate, reverse;

static void ok(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "churn: %s: %s\n", what, strerror(err));
		exit(1);
	}
}

static void *worker(void *arg)
{
	pthread_mutex_t own[NR_LOCKS];

	(void)arg;
	for (int j = 0; j < NR_LOCKS; j++)
		ok(pthread_mutex_init(&own[j], NULL), "pthread_mutex_init");
	for (long i = 0; i < rounds; i++) {
		for (int j = 0; j < NR_LOCKS; j++)
			ok(pthread_mutex_lock(&own[j]), "pthread_mutex_lock");
		for (int j = 0; j < NR_LOCKS; j++)
			ok(pthread_mutex_unlock(&own[reverse ? NR_LOCKS - 1 - j : j]), "pthread_mutex_unlock");
		if (!recreate)
			continue;
		for (int j = 0; j < NR_LOCKS; j++)
			ok(pthread_mutex_destroy(&own[j]), "pthread_mutex_destroy");
		for (int j = 0; j < NR_LOCKS; j++)
			ok(pthread_mutex_init(&own[j], NULL), "pthread_mutex_init");
	}
	for (int j = 0; j < NR_LOCKS; j++)
		ok(pthread_mutex_destroy(&own[j]), "pthread_mutex_destroy");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t threads[MAX_THREADS];
	long nr_threads = 4;
	char *end;

	if ((argc != 4 && argc != 5) || (rounds = strtol(argv[1], &end, 10)) <= 0 || *end ||
	    (strcmp(argv[2], "recreate") && strcmp(argv[2], "keep")) ||
	    (strcmp(argv[3], "taken") && strcmp(argv[3], "reverse")) ||
	    (argc == 5 && ((nr_threads = strtol(argv[4], &end, 10)) <= 0 || *end || nr_threads > MAX_THREADS))) {
		fprintf(stderr, "usage: churn ROUNDS recreate|keep taken|reverse [THREADS (1-%d, default 4)]\n",
			MAX_THREADS);
		return 2;
	}
	recreate = !strcmp(argv[2], "recreate");
	reverse = !strcmp(argv[3], "reverse");
	for (long i = 0; i < nr_threads; i++)
		ok(pthread_create(&threads[i], NULL, worker, NULL), "pthread_create");
	for (long i = 0; i < nr_threads; i++)
		ok(pthread_join(threads[i], NULL), "pthread_join");
	return 0;
}

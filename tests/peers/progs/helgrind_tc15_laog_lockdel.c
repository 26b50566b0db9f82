// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc15_laog_lockdel test (valgrind helgrind/tests/
 * tc15_laog_lockdel.c, expected output tc15_laog_lockdel.stderr.exp): two
 * mutexes in malloc'ed memory; order 1 -> 2, then 2 -> 1 (an error); then
 * mutex 2 is destroyed, freed, allocated and initialised afresh (malloc
 * may well return the same memory), and 2 -> 1 again - which must now be
 * fine: a destroyed lock's orders die with it.
 *
 * Helgrind: 'lock order violated' once, for the first 2 -> 1 - 1 error.
 * uirq-lockdep: one circular-dependency report, for the first 2 -> 1
 * only.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

static void lock_pair(pthread_mutex_t *outer, pthread_mutex_t *inner)
{
	ok(pthread_mutex_lock(outer));
	ok(pthread_mutex_lock(inner));
	ok(pthread_mutex_unlock(outer));
	ok(pthread_mutex_unlock(inner));
}

int main(void)
{
	pthread_mutex_t *mx1 = malloc(sizeof(*mx1)), *mx2 = malloc(sizeof(*mx2));

	if (!mx1 || !mx2)
		return 2;
	ok(pthread_mutex_init(mx1, NULL));
	ok(pthread_mutex_init(mx2, NULL));

	fprintf(stderr, "Establish order 1 -> 2\n");
	lock_pair(mx1, mx2);

	fprintf(stderr, "Try order 2 -> 1.  This gives an error.\n");
	lock_pair(mx2, mx1);

	fprintf(stderr, "Free 2 and re-allocate it.  This gives it a new identity,\n");
	fprintf(stderr, "so a second locking sequence 2 -> 1 should now be OK.\n");
	ok(pthread_mutex_destroy(mx2));
	free(mx2);
	mx2 = malloc(sizeof(*mx2));
	if (!mx2)
		return 2;
	ok(pthread_mutex_init(mx2, NULL));
	lock_pair(mx2, mx1);

	fprintf(stderr, "done\n");
	ok(pthread_mutex_destroy(mx1));
	ok(pthread_mutex_destroy(mx2));
	free(mx1);
	free(mx2);
	return 0;
}

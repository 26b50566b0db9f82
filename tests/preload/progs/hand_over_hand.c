// SPDX-License-Identifier: MIT
/*
 * Hand-over-hand down a list: hold node i, take node i+1, drop node i.
 * Releases come out of order with respect to acquisition; per-instance
 * classes see a chain, never a cycle.
 *
 * Then each lock type released below the top: a, then b, a released
 * first, then b; then c, and a under it.  A release of a that was lost (a
 * still "held" when c is taken: a -> c, then c -> a) would be reported, as
 * would one that took b's entry instead (b's own unlock then unbalanced).
 */
#include "prog.h"

#define NODES 16

struct node {
	pthread_mutex_t lock;
	int value;
};

static struct node list[NODES];

static void *walk(void *arg)
{
	(void)arg;
	for (int round = 0; round < 100; round++) {
		ok(pthread_mutex_lock(&list[0].lock));
		for (int i = 1; i < NODES; i++) {
			ok(pthread_mutex_lock(&list[i].lock));
			list[i].value += list[i - 1].value & 1;
			ok(pthread_mutex_unlock(&list[i - 1].lock));
		}
		ok(pthread_mutex_unlock(&list[NODES - 1].lock));
	}
	return NULL;
}

enum kind { MUTEX, RWLOCK_READ, RWLOCK_WRITE, SPIN, NR_KINDS };

static union lock {
	pthread_mutex_t m;
	pthread_rwlock_t rw;
	pthread_spinlock_t sp;
} locks[NR_KINDS];

static void take(enum kind k)
{
	switch (k) {
	case MUTEX:
		ok(pthread_mutex_lock(&locks[k].m));
		break;
	case RWLOCK_READ:
		ok(pthread_rwlock_rdlock(&locks[k].rw));
		break;
	case RWLOCK_WRITE:
		ok(pthread_rwlock_wrlock(&locks[k].rw));
		break;
	default:
		ok(pthread_spin_lock(&locks[k].sp));
		break;
	}
}

static void drop(enum kind k)
{
	if (k == MUTEX)
		ok(pthread_mutex_unlock(&locks[k].m));
	else if (k == SPIN)
		ok(pthread_spin_unlock(&locks[k].sp));
	else
		ok(pthread_rwlock_unlock(&locks[k].rw));
}

static void released_below_the_top(enum kind k)
{
	pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER, c = PTHREAD_MUTEX_INITIALIZER;

	take(k);
	ok(pthread_mutex_lock(&b));	/* a -> b */
	drop(k);			/* below b */
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_lock(&c));	/* nothing held */
	take(k);			/* c -> a: no cycle */
	drop(k);
	ok(pthread_mutex_unlock(&c));
	ok(pthread_mutex_destroy(&b));
	ok(pthread_mutex_destroy(&c));
}

int main(void)
{
	pthread_t t[3];

	for (int i = 0; i < NODES; i++) {
		ok(pthread_mutex_init(&list[i].lock, NULL));
		list[i].value = i;
	}
	for (int i = 0; i < 3; i++)
		ok(pthread_create(&t[i], NULL, walk, NULL));
	for (int i = 0; i < 3; i++)
		ok(pthread_join(t[i], NULL));

	ok(pthread_mutex_init(&locks[MUTEX].m, NULL));
	ok(pthread_rwlock_init(&locks[RWLOCK_READ].rw, NULL));
	ok(pthread_rwlock_init(&locks[RWLOCK_WRITE].rw, NULL));
	ok(pthread_spin_init(&locks[SPIN].sp, PTHREAD_PROCESS_PRIVATE));
	for (enum kind k = 0; k < NR_KINDS; k++)
		released_below_the_top(k);
	return 0;
}

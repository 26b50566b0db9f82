// SPDX-License-Identifier: MIT
/*
 * Memory that held a lock, freed or left behind without
 * pthread_mutex_destroy(), then holding a new lock: the new lock must not
 * inherit the old one's dependencies.  Each round takes A then B with the
 * old lock as A, and B then A with the new lock at the same address as A:
 * two locks that never existed at the same time, so no inversion.
 *   heap     free() and malloc() again (the same size: the same block)
 *   zeroed   the same memory zeroed (memset, as calloc'd memory is)
 *   static   the same memory set to PTHREAD_MUTEX_INITIALIZER
 *   stack    a function's local mutex, the function called again
 *   rwlock   the same memory as a pthread_rwlock_t, freed and reused
 */
#include "prog.h"

struct obj {
	long before;
	pthread_mutex_t lock;
	long after;
};

static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void a_then_b(pthread_mutex_t *a)
{
	ok(pthread_mutex_lock(a));
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(a));
}

static void b_then_a(pthread_mutex_t *a)
{
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_lock(a));
	ok(pthread_mutex_unlock(a));
	ok(pthread_mutex_unlock(&b));
}

static __attribute__((noinline)) uintptr_t local_lock(int order)
{
	pthread_mutex_t local = PTHREAD_MUTEX_INITIALIZER;

	if (order)
		b_then_a(&local);
	else
		a_then_b(&local);
	return (uintptr_t)&local;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "heap";
	struct obj *o, *o2;

	if (!strcmp(mode, "heap")) {
		o = malloc(sizeof(*o));
		ok(pthread_mutex_init(&o->lock, NULL));
		a_then_b(&o->lock);
		free(o);
		o2 = malloc(sizeof(*o2));
		if (o2 != o)
			fprintf(stderr, "reuse_freed: the allocator gave another block; the test proves less\n");
		ok(pthread_mutex_init(&o2->lock, NULL));
		b_then_a(&o2->lock);
		free(o2);
	} else if (!strcmp(mode, "zeroed") || !strcmp(mode, "static")) {
		o = malloc(sizeof(*o));
		ok(pthread_mutex_init(&o->lock, NULL));
		a_then_b(&o->lock);
		if (!strcmp(mode, "zeroed"))
			memset(o, 0, sizeof(*o));
		else
			o->lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
		b_then_a(&o->lock);
		free(o);
	} else if (!strcmp(mode, "stack")) {
		uintptr_t first = local_lock(0), second = local_lock(1);

		if (first != second)
			fprintf(stderr, "reuse_freed: the frames differ; the test proves less\n");
	} else if (!strcmp(mode, "rwlock")) {
		pthread_rwlock_t *l = malloc(sizeof(*l));
		pthread_mutex_t *m;

		ok(pthread_rwlock_init(l, NULL));
		ok(pthread_rwlock_wrlock(l));
		ok(pthread_mutex_lock(&b));
		ok(pthread_mutex_unlock(&b));
		ok(pthread_rwlock_unlock(l));
		free(l);
		m = malloc(sizeof(*l));
		ok(pthread_mutex_init(m, NULL));
		b_then_a(m);
		free(m);
	} else {
		fprintf(stderr, "reuse_freed: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * A lock's identity dies with it: the same memory, destroyed and initialised
 * again, is a new lock, so the opposite order is no inversion.  Also memory
 * re-initialised without a destroy, and reused as another lock type.
 */
#include "prog.h"

static union {
	pthread_mutex_t m[2];
	pthread_rwlock_t r[2];
} mem;

int main(void)
{
	/* destroy, then init again */
	ok(pthread_mutex_init(&mem.m[0], NULL));
	ok(pthread_mutex_init(&mem.m[1], NULL));
	lock_nested(&mem.m[0], &mem.m[1]);
	ok(pthread_mutex_destroy(&mem.m[0]));
	ok(pthread_mutex_destroy(&mem.m[1]));
	ok(pthread_mutex_init(&mem.m[0], NULL));
	ok(pthread_mutex_init(&mem.m[1], NULL));
	lock_nested(&mem.m[1], &mem.m[0]);

	/* init again without a destroy (memory recycled by an allocator) */
	ok(pthread_mutex_init(&mem.m[0], NULL));
	ok(pthread_mutex_init(&mem.m[1], NULL));
	lock_nested(&mem.m[0], &mem.m[1]);

	/* destroy, then a static initializer */
	ok(pthread_mutex_destroy(&mem.m[0]));
	ok(pthread_mutex_destroy(&mem.m[1]));
	mem.m[0] = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	mem.m[1] = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	lock_nested(&mem.m[1], &mem.m[0]);
	ok(pthread_mutex_destroy(&mem.m[0]));
	ok(pthread_mutex_destroy(&mem.m[1]));

	/* the same memory as rwlocks, opposite order again */
	ok(pthread_rwlock_init(&mem.r[0], NULL));
	ok(pthread_rwlock_init(&mem.r[1], NULL));
	ok(pthread_rwlock_wrlock(&mem.r[0]));
	ok(pthread_rwlock_wrlock(&mem.r[1]));
	ok(pthread_rwlock_unlock(&mem.r[1]));
	ok(pthread_rwlock_unlock(&mem.r[0]));
	ok(pthread_rwlock_destroy(&mem.r[0]));
	ok(pthread_rwlock_destroy(&mem.r[1]));
	return 0;
}

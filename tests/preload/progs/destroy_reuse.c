// SPDX-License-Identifier: MIT
/*
 * A lock's identity dies with it: the same memory, destroyed and initialised
 * again, is a new lock, so the opposite order is no inversion.  Also memory
 * re-initialised without a destroy, and reused as another lock type or
 * as a condition variable.
 */
#include "prog.h"

static union {
	pthread_mutex_t m[2];
	pthread_rwlock_t r[2];
	pthread_cond_t c;
} mem;
static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;

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

	/*
	 * The same memory as a condition variable, then a mutex again (a
	 * wait object's record keeps its own fields where a lock's are).
	 */
	ok(pthread_cond_init(&mem.c, NULL));
	ok(pthread_mutex_lock(&guard));
	{
		struct timespec t = deadline_ms(1);

		expect(pthread_cond_timedwait(&mem.c, &guard, &t), ETIMEDOUT);
	}
	ok(pthread_mutex_unlock(&guard));
	ok(pthread_cond_signal(&mem.c));
	ok(pthread_cond_destroy(&mem.c));
	ok(pthread_mutex_init(&mem.m[0], NULL));
	ok(pthread_mutex_lock(&mem.m[0]));
	ok(pthread_mutex_unlock(&mem.m[0]));
	ok(pthread_mutex_destroy(&mem.m[0]));
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * rwlock read -> mutex, then mutex -> rwlock write: a reader holding R waits
 * for M while M's holder waits to write R - a deadlock even though one side
 * only reads.  Sequential, so it cannot really happen here.
 */
#include "prog.h"

static pthread_rwlock_t r = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	ok(pthread_rwlock_rdlock(&r));
	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	ok(pthread_rwlock_unlock(&r));

	ok(pthread_mutex_lock(&m));
	ok(pthread_rwlock_wrlock(&r));
	ok(pthread_rwlock_unlock(&r));
	ok(pthread_mutex_unlock(&m));
	return 0;
}

// SPDX-License-Identifier: MIT
/* A library loaded with dlopen(): its own locks, its own static initializers. */
#include <pthread.h>

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
static int entries;

int dlmod_add(pthread_mutex_t *caller_lock)
{
	int n;

	pthread_mutex_lock(&outer);
	pthread_rwlock_wrlock(&table);
	if (caller_lock) {
		pthread_mutex_lock(caller_lock);
		pthread_mutex_unlock(caller_lock);
	}
	n = ++entries;
	pthread_rwlock_unlock(&table);
	pthread_mutex_unlock(&outer);
	return n;
}

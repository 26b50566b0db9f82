// SPDX-License-Identifier: MIT
/* Read/read ABBA on rwlocks: readers never exclude readers, so no deadlock and no report. */
#include "prog.h"

static pthread_rwlock_t a = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t b = PTHREAD_RWLOCK_INITIALIZER;

static void *read_ab(void *arg)
{
	(void)arg;
	ok(pthread_rwlock_rdlock(&a));
	ok(pthread_rwlock_rdlock(&b));
	ok(pthread_rwlock_unlock(&b));
	ok(pthread_rwlock_unlock(&a));
	return NULL;
}

static void *read_ba(void *arg)
{
	struct timespec t = deadline_ms(1000);

	(void)arg;
	ok(pthread_rwlock_tryrdlock(&b));
	ok(pthread_rwlock_timedrdlock(&a, &t));
	/* a reader may read again */
	ok(pthread_rwlock_rdlock(&a));
	ok(pthread_rwlock_unlock(&a));
	ok(pthread_rwlock_unlock(&a));
	ok(pthread_rwlock_unlock(&b));
	return NULL;
}

int main(void)
{
	run_thread(read_ab, NULL);
	run_thread(read_ba, NULL);
	/* writers alone, one at a time */
	ok(pthread_rwlock_wrlock(&a));
	ok(pthread_rwlock_unlock(&a));
	ok(pthread_rwlock_trywrlock(&b));
	ok(pthread_rwlock_unlock(&b));
	return 0;
}

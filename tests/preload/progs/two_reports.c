// SPDX-License-Identifier: MIT
/* Two distinct problems in a row, an inversion then a double unlock: --fatal stops at the first. */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void lock_pair(pthread_mutex_t *first, pthread_mutex_t *second)
{
	ok(pthread_mutex_lock(first));
	ok(pthread_mutex_lock(second));
	ok(pthread_mutex_unlock(second));
	ok(pthread_mutex_unlock(first));
}

int main(void)
{
	lock_pair(&a, &b);
	lock_pair(&b, &a);
	pthread_mutex_unlock(&a);
	printf("still running\n");
	return 0;
}

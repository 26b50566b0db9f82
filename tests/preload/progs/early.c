// SPDX-License-Identifier: MIT
/*
 * A library whose constructor locks: it runs before the preload module's own
 * constructor (a program's libraries are initialised before LD_PRELOAD ones),
 * so the interposer must work before it was set up.  The inversion here
 * must still be reported.
 */
#include <pthread.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor)) static void early_locking(void)
{
	pthread_mutex_t b;

	pthread_mutex_init(&b, NULL);
	pthread_mutex_lock(&a);
	pthread_mutex_lock(&b);
	pthread_mutex_unlock(&b);
	pthread_mutex_unlock(&a);
	pthread_mutex_lock(&b);
	pthread_mutex_lock(&a);
	pthread_mutex_unlock(&a);
	pthread_mutex_unlock(&b);
	pthread_mutex_destroy(&b);
}

int early_linked(void)
{
	return 0;
}

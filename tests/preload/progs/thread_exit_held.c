// SPDX-License-Identifier: MIT
/* A thread returns while holding a mutex; nobody touches the mutex again. */
#include "prog.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *leave_locked(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&m));
	return NULL;
}

int main(void)
{
	run_thread(leave_locked, NULL);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Double unlock of a normal mutex.  Undefined by POSIX, harmless with glibc
 * (the second unlock stores "unlocked" again), so the program goes on.
 * "never-taken": the unlock of a mutex on the heap that was never locked.
 */
#include "prog.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "never-taken")) {
		pthread_mutex_t *h = malloc(sizeof(*h));

		if (!h)
			return 1;
		ok(pthread_mutex_init(h, NULL));
		pthread_mutex_unlock(h);
		free(h);
		return 0;
	}
	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	pthread_mutex_unlock(&m);
	return 0;
}

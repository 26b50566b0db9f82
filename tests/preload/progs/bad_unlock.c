// SPDX-License-Identifier: MIT
/*
 * Double unlock of a normal mutex.  Undefined by POSIX, harmless with glibc
 * (the second unlock stores "unlocked" again), so the program goes on.
 */
#include "prog.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	pthread_mutex_unlock(&m);
	return 0;
}

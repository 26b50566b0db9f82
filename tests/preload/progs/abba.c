// SPDX-License-Identifier: MIT
/*
 * ABBA across two threads: one takes A then B, the other B then A.  The
 * second thread starts after the first ended, so the program cannot really
 * deadlock; lockdep must still see the inversion.
 * "abba _exit N" leaves with _exit(N) afterwards (exit status override test).
 */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void *a_then_b(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(&a));
	return NULL;
}

static void *b_then_a(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_mutex_unlock(&b));
	return NULL;
}

int main(int argc, char **argv)
{
	run_thread(a_then_b, NULL);
	run_thread(b_then_a, NULL);
	if (argc == 3 && strcmp(argv[1], "_exit") == 0)
		_exit(atoi(argv[2]));
	return 0;
}

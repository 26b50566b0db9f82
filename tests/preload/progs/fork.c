// SPDX-License-Identifier: MIT
/*
 * Locks held across fork(): the child's forking thread still holds A (its
 * copy of the held-lock stack says so), takes B under it and unlocks both -
 * no bad unlock, no inversion.  The parent keeps the same order.
 */
#include "prog.h"

#include <sys/wait.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void *take_b_then_drop(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_unlock(&b));
	return NULL;
}

int main(void)
{
	int status;
	pid_t pid;

	ok(pthread_mutex_lock(&a));
	pid = fork();
	if (pid < 0)
		return 5;
	if (pid == 0) {
		ok(pthread_mutex_lock(&b));
		ok(pthread_mutex_unlock(&b));
		ok(pthread_mutex_unlock(&a));
		ok(pthread_mutex_lock(&a));
		ok(pthread_mutex_lock(&b));
		ok(pthread_mutex_unlock(&b));
		ok(pthread_mutex_unlock(&a));
		run_thread(take_b_then_drop, NULL);
		exit(0);
	}
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(&a));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 6;
	run_thread(take_b_then_drop, NULL);
	return 0;
}

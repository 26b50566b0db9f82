// SPDX-License-Identifier: MIT
/*
 * Many processes reporting into one --json file at once, as a make -j tree
 * does: 16 children, released together, each with 40 lock inversions of its
 * own (40 reports) as fast as it can.
 */
#include "prog.h"

#include <sys/wait.h>

#define PROCS	16
#define PAIRS	40

static pthread_mutex_t a[PAIRS], b[PAIRS];

static void inversions(void)
{
	for (int i = 0; i < PAIRS; i++) {
		ok(pthread_mutex_init(&a[i], NULL));
		ok(pthread_mutex_init(&b[i], NULL));
	}
	for (int i = 0; i < PAIRS; i++) {
		ok(pthread_mutex_lock(&a[i]));
		ok(pthread_mutex_lock(&b[i]));
		ok(pthread_mutex_unlock(&b[i]));
		ok(pthread_mutex_unlock(&a[i]));
		ok(pthread_mutex_lock(&b[i]));
		ok(pthread_mutex_lock(&a[i]));
		ok(pthread_mutex_unlock(&a[i]));
		ok(pthread_mutex_unlock(&b[i]));
	}
}

int main(void)
{
	int go[2];
	pid_t pid[PROCS];
	char c;

	if (pipe(go))
		return 3;
	for (int i = 0; i < PROCS; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 3;
		if (!pid[i]) {
			close(go[1]);
			/* Released together: the parent closes its end. */
			if (read(go[0], &c, 1) != 0)
				_exit(3);
			inversions();
			_exit(0);
		}
	}
	close(go[0]);
	close(go[1]);
	for (int i = 0; i < PROCS; i++) {
		int st;

		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			return 3;
	}
	printf("%d processes done\n", PROCS);
	return 0;
}

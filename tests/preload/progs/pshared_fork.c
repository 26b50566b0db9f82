// SPDX-License-Identifier: MIT
/*
 * A process-shared mutex held by the parent across fork(): in the child it
 * is the same lock, still the parent's.  The child waits for it (the parent
 * lets go after a moment) - no recursive locking, no deadlock, no bad
 * unlock.  "pshared_fork rwlock" does the same with a process-shared rwlock.
 */
#include "prog.h"

#include <sys/mman.h>
#include <sys/wait.h>

struct shared {
	pthread_mutex_t m;
	pthread_rwlock_t rw;
};

int main(int argc, char **argv)
{
	bool rw = argc > 1 && !strcmp(argv[1], "rwlock");
	struct shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t ma;
	pthread_rwlockattr_t ra;
	int status;
	pid_t pid;

	if (s == MAP_FAILED)
		return 4;
	ok(pthread_mutexattr_init(&ma));
	ok(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED));
	ok(pthread_mutex_init(&s->m, &ma));
	ok(pthread_rwlockattr_init(&ra));
	ok(pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED));
	ok(pthread_rwlock_init(&s->rw, &ra));

	if (rw)
		ok(pthread_rwlock_wrlock(&s->rw));
	else
		ok(pthread_mutex_lock(&s->m));
	pid = fork();
	if (pid < 0)
		return 5;
	if (pid == 0) {
		/* waits for the parent */
		if (rw) {
			ok(pthread_rwlock_wrlock(&s->rw));
			ok(pthread_rwlock_unlock(&s->rw));
		} else {
			ok(pthread_mutex_lock(&s->m));
			ok(pthread_mutex_unlock(&s->m));
		}
		exit(0);
	}
	usleep(100 * 1000);
	if (rw)
		ok(pthread_rwlock_unlock(&s->rw));
	else
		ok(pthread_mutex_unlock(&s->m));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 6;
	return 0;
}

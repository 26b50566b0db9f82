// SPDX-License-Identifier: MIT
/*
 * fork() while another thread holds a lock: in the child that lock is held
 * for ever, by a thread the child does not have.
 *   held     a thread holds &held at fork(); the child takes it: reported
 *            before it blocks (the child then dies of SIGALRM)
 *   rwlock   the same with an rwlock held for writing, the child reading
 *   reader   the rwlock held for reading: the child reads it too (no wait,
 *            no report)
 *   atfork   the program's pthread_atfork handlers take &held before fork()
 *            and release it after, in parent and child: consistent, silent
 *   count    the parent makes a report (a double unlock), then forks a child
 *            that reports nothing: the child's summary says 0 reports
 * The parent prints how the child ended and exits 0.
 */
#include "prog.h"

#include <semaphore.h>
#include <signal.h>
#include <sys/wait.h>

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t taken, release;
static const char *mode;

static void *holder(void *arg)
{
	(void)arg;
	if (!strcmp(mode, "rwlock"))
		ok(pthread_rwlock_wrlock(&rw));
	else if (!strcmp(mode, "reader"))
		ok(pthread_rwlock_rdlock(&rw));
	else
		ok(pthread_mutex_lock(&held));
	sem_post(&taken);
	if (!strcmp(mode, "atfork"))
		usleep(100 * 1000);	/* fork() waits in the prepare handler meanwhile */
	else
		while (sem_wait(&release) != 0)
			;
	if (!strcmp(mode, "rwlock") || !strcmp(mode, "reader"))
		ok(pthread_rwlock_unlock(&rw));
	else
		ok(pthread_mutex_unlock(&held));
	/*
	 * atfork: alive until after fork(), as in the other modes.  A thread
	 * that had returned by then would be one the child inherits finished
	 * and never joined, which ThreadSanitizer's runtime in the child
	 * reports as a leaked thread (and exits 66) now and then.
	 */
	if (!strcmp(mode, "atfork"))
		while (sem_wait(&release) != 0)
			;
	return NULL;
}

static void prepare(void) { ok(pthread_mutex_lock(&held)); }
static void release_held(void) { ok(pthread_mutex_unlock(&held)); }

static void child(void)
{
	alarm(2);	/* a lock nobody releases: the child would wait for ever */
	if (!strcmp(mode, "rwlock") || !strcmp(mode, "reader")) {
		ok(pthread_rwlock_rdlock(&rw));
		ok(pthread_rwlock_unlock(&rw));
	} else {
		ok(pthread_mutex_lock(&held));
		ok(pthread_mutex_unlock(&held));
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	pthread_t t;
	int status;
	pid_t pid;

	mode = argc > 1 ? argv[1] : "held";
	sem_init(&taken, 0, 0);
	sem_init(&release, 0, 0);
	if (!strcmp(mode, "count")) {
		ok(pthread_mutex_lock(&held));
		ok(pthread_mutex_unlock(&held));
		pthread_mutex_unlock(&held);	/* one too many: the parent's report */
		pid = fork();
		if (pid == 0)
			exit(0);
	} else {
		if (!strcmp(mode, "atfork"))
			ok(pthread_atfork(prepare, release_held, release_held));
		ok(pthread_create(&t, NULL, holder, NULL));
		while (sem_wait(&taken) != 0)
			;
		pid = fork();
		if (pid == 0)
			child();
		sem_post(&release);
		ok(pthread_join(t, NULL));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 5;
	if (WIFSIGNALED(status))
		printf("child killed by signal %d\n", WTERMSIG(status));
	else
		printf("child exited %d\n", WEXITSTATUS(status));
	return 0;
}

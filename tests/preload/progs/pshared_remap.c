// SPDX-License-Identifier: MIT
/*
 * Two process-shared mutexes, one after the other at the same address: the
 * first in a mapping taken away, the second in a mapping that comes there
 * later, initialised by another process (so this one sees no init call).
 * First X then Y with the old lock as X, then Y then X with the new one:
 * two locks that never existed at the same time, no inversion.
 *   munmap   the first mapping unmapped
 *   mremap   the first mapping's page shrunk away (mremap to one page)
 */
#include "prog.h"

#include <sys/mman.h>
#include <sys/wait.h>

static pthread_mutex_t y = PTHREAD_MUTEX_INITIALIZER;

static void init_pshared(pthread_mutex_t *m)
{
	pthread_mutexattr_t ma;

	ok(pthread_mutexattr_init(&ma));
	ok(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED));
	ok(pthread_mutex_init(m, &ma));
}

int main(int argc, char **argv)
{
	bool remap = argc > 1 && !strcmp(argv[1], "mremap");
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *first = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutex_t *x = (pthread_mutex_t *)(first + page), *x2;
	int fd = memfd_create("pshared_remap", 0), status;
	char *second;
	pid_t pid;

	if (first == MAP_FAILED || fd < 0 || ftruncate(fd, (off_t)page) != 0)
		return 4;
	init_pshared(x);
	ok(pthread_mutex_lock(x));
	ok(pthread_mutex_lock(&y));
	ok(pthread_mutex_unlock(&y));
	ok(pthread_mutex_unlock(x));
	if (remap) {
		if (mremap(first, 2 * page, page, 0) != first)
			return 4;
	} else if (munmap(first, 2 * page) != 0) {
		return 4;
	}

	/* another process initialises the new lock in the file */
	pid = fork();
	if (pid == 0) {
		char *m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (m == MAP_FAILED)
			_exit(4);
		init_pshared((pthread_mutex_t *)m);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 5;
	second = mmap(first + page, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (second == MAP_FAILED)
		return 4;
	x2 = (pthread_mutex_t *)second;
	if (x2 != x)
		fprintf(stderr, "pshared_remap: the new mapping is elsewhere; the test proves less\n");
	ok(pthread_mutex_lock(&y));
	ok(pthread_mutex_lock(x2));
	ok(pthread_mutex_unlock(x2));
	ok(pthread_mutex_unlock(&y));
	printf("done\n");
	return 0;
}

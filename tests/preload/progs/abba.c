// SPDX-License-Identifier: MIT
/*
 * ABBA across two threads: one takes A then B, the other B then A.  The
 * second thread starts after the first ended, so the program cannot really
 * deadlock; lockdep must still see the inversion.
 * "abba _exit N" leaves with _exit(N) afterwards (exit status override test).
 * "abba daemon FILE" starts as a daemon does: closes every descriptor from 3
 * up, then opens FILE (writing "data") on every descriptor up to 127.
 * "abba sigterm" ends by SIGTERM, as a server is stopped.
 */
#include "prog.h"

#include <fcntl.h>
#include <signal.h>

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

static void daemon_start(const char *data)
{
	int fd;

	for (fd = 3; fd < 1024; fd++)
		close(fd);
	fd = open(data, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, "data\n", 5) != 5)
		exit(3);
	while (fd < 127)
		fd = dup(fd);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "daemon") == 0)
		daemon_start(argv[2]);
	run_thread(a_then_b, NULL);
	run_thread(b_then_a, NULL);
	if (argc == 3 && strcmp(argv[1], "_exit") == 0)
		_exit(atoi(argv[2]));
	if (argc == 2 && strcmp(argv[1], "sigterm") == 0)
		kill(getpid(), SIGTERM);
	return 0;
}

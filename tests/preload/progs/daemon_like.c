// SPDX-License-Identifier: MIT
/*
 * A daemon's start: close every descriptor from 3 up, open a data file
 * (argv[1]) on every descriptor up to 127, then an AB-BA inversion and a
 * normal exit.  The report and the summary must still reach the user, and
 * the data file must hold only what the program wrote.
 */
#include "prog.h"

#include <fcntl.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

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
	int fd;

	if (argc < 2)
		return 2;
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	fd = open(argv[1], O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, "data\n", 5) != 5)
		return 3;
	while (fd < 127)
		fd = dup(fd);
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(&a));
	run_thread(b_then_a, NULL);
	printf("done\n");
	return fd == 127 ? 0 : 3;
}

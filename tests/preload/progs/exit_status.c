// SPDX-License-Identifier: MIT
/*
 * Exit with the status given as argv[1]; "env" prints the environment the
 * runner set up instead (LD_PRELOAD and the UIRQ_LOCKDEP_* options).
 * What programs do to their descriptors before they exit:
 *   close_stderr       close stderr, as coreutils and xz do to catch write errors;
 *   reuse_stderr FILE  close stderr, then write FILE, opened as descriptor 2;
 *   close_all FILE     close every descriptor from 3 up (daemons do), then
 *                      write FILE, opened on every descriptor up to 127.
 */
#include "prog.h"

#include <fcntl.h>

static int open_data(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, "data\n", 5) != 5)
		exit(3);
	return fd;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"LD_PRELOAD", "UIRQ_LOCKDEP_FATAL", "UIRQ_LOCKDEP_EXIT_CODE",
		"UIRQ_LOCKDEP_CLASSES", "UIRQ_LOCKDEP_LOG", "ASAN_OPTIONS", "LD_LIBRARY_PATH",
	};
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	if (argc > 1 && strcmp(argv[1], "env") == 0) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			const char *v = getenv(names[i]);

			printf("%s=%s\n", names[i], v ? v : "(unset)");
		}
		for (int i = 2; i < argc; i++)
			printf("arg=%s\n", argv[i]);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "close_stderr") == 0)
		return fclose(stderr) == 0 ? 0 : 3;
	if (argc > 2 && strcmp(argv[1], "reuse_stderr") == 0) {
		close(STDERR_FILENO);
		return open_data(argv[2]) == STDERR_FILENO ? 0 : 3;
	}
	if (argc > 2 && strcmp(argv[1], "close_all") == 0) {
		int fd;

		for (fd = 3; fd < 1024; fd++)
			close(fd);
		fd = open_data(argv[2]);
		while (fd < 127)
			fd = dup(fd);
		return fd == 127 ? 0 : 3;
	}
	return argc > 1 ? atoi(argv[1]) : 0;
}

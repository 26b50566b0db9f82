// SPDX-License-Identifier: MIT
/*
 * LeakSanitizer must still see leaked objects that contain locks lockdep
 * knows (ASan builds only): lockdep keeps the addresses of maps - in the
 * held-lock stacks, which are not cleared on release, and as the class key
 * of a key-less map - and stores them hidden so that they are no references.
 * LEAK_HELPER leaks three such objects; LeakSanitizer must report all three.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

static char report[65536];

/* Run the helper with leak checking on; its exit code (-1: died), its stderr in report. */
static int run_helper(void)
{
	char *argv[] = { (char *)LEAK_HELPER, NULL };
	char *envp[256];
	char path[] = "/tmp/uirq-leak-XXXXXX";
	posix_spawn_file_actions_t fa;
	int n = 0, status, fd;
	ssize_t len;
	pid_t pid;

	for (char **e = environ; *e && n < 250; e++)
		if (strncmp(*e, "UIRQ_LOCKDEP=", 13) && strncmp(*e, "ASAN_OPTIONS=", 13) &&
		    strncmp(*e, "LSAN_OPTIONS=", 13))
			envp[n++] = *e;
	/* a leak is exit status 23, not an abort (the suite sets abort_on_error=1) */
	envp[n++] = "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23";
	envp[n] = NULL;

	fd = mkstemp(path);
	assert_ge(fd, 0);
	unlink(path);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	assert_eq(posix_spawn(&pid, LEAK_HELPER, &fa, NULL, argv, envp), 0);
	posix_spawn_file_actions_destroy(&fa);
	assert_eq(waitpid(pid, &status, 0), pid);

	len = pread(fd, report, sizeof(report) - 1, 0);
	report[len > 0 ? len : 0] = '\0';
	close(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

UIRQ_TEST(lockdep_leak, leaked_locks_are_reported, .timeout = 60)
{
	int code = run_helper();

	fputs(report, stderr);	/* in the test log, for whoever reads a failure */
	assert_eq(code, 23, "LeakSanitizer's exit code (got %d)", code);
	assert_not_null(strstr(report, "detected memory leaks"));
	assert_not_null(strstr(report, "4328 byte(s)"), "the spinlock object (static key)");
	assert_not_null(strstr(report, "4568 byte(s)"), "the mutex object (static key)");
	assert_not_null(strstr(report, "4792 byte(s)"), "the map with a NULL key");
}

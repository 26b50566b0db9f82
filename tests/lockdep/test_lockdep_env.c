// SPDX-License-Identifier: MIT
/* UIRQ_LOCKDEP=0 in the environment turns the validator off at start-up. */
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "harness.h"

extern char **environ;

/* Run the helper with one extra variable (NULL: none); its exit code. */
static int run_helper(const char *var)
{
	char *argv[] = { (char *)ENV_HELPER, NULL };
	char *envp[256];
	int n = 0, status;
	pid_t pid;

	for (char **e = environ; *e && n < 250; e++)
		if (strncmp(*e, "UIRQ_LOCKDEP=", 13))
			envp[n++] = *e;
	if (var)
		envp[n++] = (char *)var;
	envp[n] = NULL;
	if (posix_spawn(&pid, ENV_HELPER, NULL, NULL, argv, envp))
		return -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

UIRQ_TEST(lockdep_env, on_by_default, .timeout = 10)
{
	assert_eq(run_helper(NULL), 101, "on, one circular report");
	assert_eq(run_helper("UIRQ_LOCKDEP=1"), 101);
}

UIRQ_TEST(lockdep_env, zero_turns_it_off, .timeout = 10)
{
	assert_eq(run_helper("UIRQ_LOCKDEP=0"), 0);
}

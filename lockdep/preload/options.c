// SPDX-License-Identifier: MIT
/*
 * The module's set-up from the environment (the runner's flags arrive this
 * way):
 *   UIRQ_LOCKDEP=0             validator off: every call passes straight through
 *   UIRQ_LOCKDEP_FATAL=1       abort after the first report
 *   UIRQ_LOCKDEP_EXIT_CODE=N   exit with N if anything was reported
 *   UIRQ_LOCKDEP_CLASSES=site  one class per pthread_*_init call site
 *   UIRQ_LOCKDEP_LOG=FILE      append reports to FILE instead of stderr
 * and what a forked child must know.
 */
#include "preload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum class_mode preload_classes = CLASSES_INSTANCE;
PRELOAD_TLS char preload_self;
int preload_exit_code = -1;
/* Reports emitted before this process began (a forked child inherits the parent's count). */
unsigned long preload_reports_before;

void preload_msg(const char *s)
{
	preload_write(STDERR_FILENO, s, strlen(s));
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/*
 * The child is a copy of the forking thread: it holds a copy of every
 * process-private lock that thread held (and may unlock it), but a
 * process-shared lock is one lock in both processes, and the parent holds
 * it: the child waiting for it waits for the parent, which is no deadlock.
 */
static void forked_child(void)
{
	struct lockdep_task *t = &lockdep_current;

	preload_reports_before = preload_reports_now();
	for (unsigned int i = t->depth; i-- > 0;)
		if (hlock_rec(held_lock_at(t, i))->flags & REC_PSHARED)
			lockdep_drop_held(t, i);
}

__attribute__((constructor)) static void preload_setup(void)
{
	const char *v = getenv("UIRQ_LOCKDEP");

	/* The engine reads it too; nothing of ours to set up when it is off. */
	if (v && (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no"))) {
		uirq_lockdep_off();
		return;
	}
	v = getenv("UIRQ_LOCKDEP_CLASSES");
	if (v && strcmp(v, "site") == 0)
		preload_classes = CLASSES_SITE;
	else if (v && *v && strcmp(v, "instance") != 0)
		preload_msg("uirq-lockdep: UIRQ_LOCKDEP_CLASSES is \"instance\" or \"site\"; using instance\n");
	if (env_on("UIRQ_LOCKDEP_FATAL"))
		uirq_lockdep_set_fatal(true);
	v = getenv("UIRQ_LOCKDEP_EXIT_CODE");
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || n < 0 || n > 255)
			preload_msg("uirq-lockdep: UIRQ_LOCKDEP_EXIT_CODE must be 0..255; ignored\n");
		else
			preload_exit_code = (int)n;
	}
	preload_output_setup(getenv("UIRQ_LOCKDEP_LOG"));
	pthread_atfork(NULL, NULL, forked_child);
}

// SPDX-License-Identifier: MIT
/*
 * The module's set-up from the environment (the runner's flags arrive this
 * way), the report log, and the exit status override:
 *   UIRQ_LOCKDEP=0             validator off: every call passes straight through
 *   UIRQ_LOCKDEP_FATAL=1       abort after the first report
 *   UIRQ_LOCKDEP_EXIT_CODE=N   exit with N if anything was reported
 *   UIRQ_LOCKDEP_CLASSES=site  one class per pthread_*_init call site
 *   UIRQ_LOCKDEP_LOG=FILE      append reports to FILE instead of stderr
 */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum class_mode preload_classes = CLASSES_INSTANCE;
PRELOAD_TLS char preload_self;

static int exit_code = -1;
static int log_fd = -1;
/* Reports emitted before this process began (a forked child inherits the parent's count). */
static unsigned long reports_before;

void preload_msg(const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(STDERR_FILENO, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static unsigned long reports_now(void)
{
	struct uirq_lockdep_stats st;

	uirq_lockdep_get_stats(&st);
	return st.reports;
}

/* Runs with lockdep's graph lock held: one unbuffered write, nothing else. */
static void log_report(const struct uirq_lockdep_report *rep, void *arg)
{
	const char *s = rep->text;
	size_t len = strlen(s);

	(void)arg;
	while (len) {
		ssize_t n = write(log_fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* The status to exit with instead of the program's own, or -1. */
static int override_status(void)
{
	if (exit_code < 0)
		return -1;
	return reports_now() > reports_before ? exit_code : -1;
}

static void forked_child(void)
{
	reports_before = reports_now();
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
			exit_code = (int)n;
	}
	v = getenv("UIRQ_LOCKDEP_LOG");
	if (v && *v) {
		log_fd = open(v, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (log_fd < 0) {
			preload_msg("uirq-lockdep: cannot open UIRQ_LOCKDEP_LOG; reporting to stderr\n");
		} else {
			/* Keep it away from the descriptors the program counts on. */
			int high = fcntl(log_fd, F_DUPFD_CLOEXEC, 100);

			if (high >= 0) {
				close(log_fd);
				log_fd = high;
			}
			uirq_lockdep_set_report_handler(log_report, NULL);
		}
	}
	pthread_atfork(NULL, NULL, forked_child);
}

/*
 * Last of the exit path: run by _dl_fini after the program's own
 * destructors, so reports from atexit handlers and destructors count.
 * stdio has not been flushed yet at this point; flush it, then leave.
 */
__attribute__((destructor)) static void preload_teardown(void)
{
	int status = override_status();

	if (status >= 0) {
		fflush(NULL);
		REAL(exit_)(status);
	}
}

/* A program leaving with _exit() skips the destructor; catch it here. */
PRELOAD_EXPORT void _exit(int status)
{
	int override = override_status();

	REAL(exit_)(override >= 0 ? override : status);
}

PRELOAD_EXPORT void _Exit(int status)
{
	int override = override_status();

	REAL(Exit_)(override >= 0 ? override : status);
}

// SPDX-License-Identifier: MIT
/*
 * Where reports go (stderr, or the --log file; with --json, one JSON object a
 * line to that file as well; both opened O_APPEND so that processes sharing
 * them do not overwrite each other), the one-line summary at exit, and the
 * exit status override.
 *
 * Everything is written unbuffered, with write(2): a report is out before a
 * real deadlock can block the thread that made it, and nothing here takes a
 * lock the program might hold.
 */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int log_fd = STDERR_FILENO, json_fd = -1;
static const char *log_path, *json_path;

bool preload_write(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		s += n;
		len -= (size_t)n;
	}
	return true;
}

/* A report, or the summary, to the log; a log that fails says so on stderr and is dropped. */
static void log_text(const char *s)
{
	if (preload_write(log_fd, s, strlen(s)) || log_fd == STDERR_FILENO)
		return;
	preload_msg("uirq-lockdep: cannot write to the log ");
	preload_msg(log_path);
	preload_msg(": ");
	preload_msg(strerror(errno));
	preload_msg("; reports go to stderr from now on\n");
	log_fd = STDERR_FILENO;
	preload_msg(s);
}

/* One JSON record a line; a file that fails says so once and is dropped. */
static void json_line(const char *json)
{
	if (json_fd < 0)
		return;
	if (preload_write(json_fd, json, strlen(json)) && preload_write(json_fd, "\n", 1))
		return;
	preload_msg("uirq-lockdep: cannot write to the JSON file ");
	preload_msg(json_path);
	preload_msg(": ");
	preload_msg(strerror(errno));
	preload_msg("; no more JSON records\n");
	json_fd = -1;
}

/* Runs with lockdep's graph lock held: writes, nothing else. */
static void deliver(const struct uirq_lockdep_report *rep, void *arg)
{
	(void)arg;
	log_text(rep->text);
	json_line(rep->json);
}

/* A file of ours, opened for appending, away from the descriptors the program counts on; -1 said. */
static int open_output(const char *path, const char *what)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644), high;

	if (fd < 0) {
		/* the runner checked it; set by hand, it may be wrong */
		preload_msg("uirq-lockdep: cannot open the ");
		preload_msg(what);
		preload_msg(" ");
		preload_msg(path);
		preload_msg(": ");
		preload_msg(strerror(errno));
		preload_msg("\n");
		return -1;
	}
	high = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	if (high >= 0) {
		close(fd);
		fd = high;
	}
	return fd;
}

void preload_output_setup(const char *log, const char *json)
{
	if (log && *log && (log_fd = open_output(log, "log")) >= 0)
		log_path = log;
	if (log_fd < 0) {
		preload_msg("uirq-lockdep: reports go to stderr\n");
		log_fd = STDERR_FILENO;
	}
	if (json && *json && (json_fd = open_output(json, "JSON file")) >= 0)
		json_path = json;
	uirq_lockdep_set_report_handler(deliver, NULL);
}

unsigned long preload_reports_now(void)
{
	struct uirq_lockdep_stats st;

	uirq_lockdep_get_stats(&st);
	return st.reports;
}

/* The summary as the JSON file's last record of this process. */
static void json_summary(const struct uirq_lockdep_stats *st, const char *stopped)
{
	char rec[1024];
	size_t n;

	if (json_fd < 0)
		return;
	n = (size_t)snprintf(rec, sizeof(rec), "{\"kind\":\"summary\",\"pid\":%ld,\"program\":\"%s\","
			     "\"reports\":%lu,\"suppressed\":%lu,\"by_kind\":{",
			     (long)getpid(), program_invocation_short_name, st->reports, st->suppressed);
	for (int k = 0, first = 1; k < UIRQ_REPORT_NR_KINDS && n < sizeof(rec); k++) {
		if (!st->reports_by_kind[k])
			continue;
		n += (size_t)snprintf(rec + n, sizeof(rec) - n, "%s\"%s\":%lu", first ? "" : ",",
				      uirq_lockdep_kind_name(k), st->reports_by_kind[k]);
		first = 0;
	}
	if (n < sizeof(rec))
		snprintf(rec + n, sizeof(rec) - n, "},\"classes\":%lu,\"dependencies\":%lu,\"classes_live\":%lu,"
			 "\"dependencies_live\":%lu,\"chains\":%lu,\"chain_hits\":%lu,\"searches\":%lu,"
			 "\"max_depth\":%lu,\"stopped\":%s%s%s}",
			 st->classes_made, st->dependencies_made, st->classes, st->dependencies, st->chains,
			 st->chain_hits, st->bfs_searches,
			 st->max_depth_seen, stopped ? "\"out of memory for " : "null",
			 stopped ? stopped : "", stopped ? "\"" : "");
	json_line(rec);
}

/*
 * "uirq-lockdep: 2 reports (1 circular, 1 bad_unlock), 14 classes, 9
 * dependencies", and if the validator stopped, why: from every process that
 * took a lock, so that a clean run says so as plainly as a dirty one.
 */
static void print_summary(void)
{
	struct uirq_lockdep_stats st;
	const char *stopped = lockdep_stopped_reason();
	char line[512];
	size_t n;
	bool first = true;

	uirq_lockdep_get_stats(&st);
	if (!st.reports && !st.suppressed && !st.chain_hits && !st.chains && !stopped)
		return;
	n = (size_t)snprintf(line, sizeof(line), "uirq-lockdep: %s[%ld]: %lu report%s",
			     program_invocation_short_name, (long)getpid(), st.reports, st.reports == 1 ? "" : "s");
	for (int k = 0; k < UIRQ_REPORT_NR_KINDS && n < sizeof(line); k++) {
		if (!st.reports_by_kind[k])
			continue;
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%lu %s", first ? " (" : ", ",
				      st.reports_by_kind[k], uirq_lockdep_kind_name(k));
		first = false;
	}
	if (n < sizeof(line) && st.suppressed)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%lu suppressed", first ? " (" : ", ",
				      st.suppressed);
	if (n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s, %lu classes, %lu dependencies\n",
				      first && !st.suppressed ? "" : ")", st.classes_made, st.dependencies_made);
	if (stopped && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n,
			 "uirq-lockdep: the validator STOPPED: out of memory for %s; locks taken after that "
			 "were not validated\n", stopped);
	log_text(line);
	json_summary(&st, stopped);
	preload_stat_print(log_text, json_fd >= 0 ? json_line : NULL);
}

/* The status to exit with instead of the program's own, or -1. */
static int override_status(void)
{
	if (preload_exit_code < 0)
		return -1;
	return preload_reports_now() > preload_reports_before ? preload_exit_code : -1;
}

/*
 * Last of the exit path: run by _dl_fini after the program's own
 * destructors, so reports from atexit handlers and destructors count.
 * stdio has not been flushed yet at this point; flush it, then leave.
 */
__attribute__((destructor)) static void preload_teardown(void)
{
	int status;

	if (!preload_resolved)
		return;
	print_summary();
	status = override_status();
	if (status >= 0) {
		fflush(NULL);
		REAL(exit_)(status);
	}
}

/* A program leaving with _exit() skips the destructor; catch it here. */
PRELOAD_EXPORT void _exit(int status)
{
	int override = override_status();

	print_summary();
	REAL(exit_)(override >= 0 ? override : status);
}

PRELOAD_EXPORT void _Exit(int status)
{
	int override = override_status();

	print_summary();
	REAL(Exit_)(override >= 0 ? override : status);
}

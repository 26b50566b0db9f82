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
 *
 * "stderr" here is a copy of the program's descriptor 2 taken before main(),
 * high and close-on-exec: programs close stderr at exit to catch write errors
 * (coreutils' close_stdout, xz's tuklib_exit), and one that closed it earlier
 * may have a data file open as descriptor 2 by the time we write.
 */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/*
 * A descriptor of ours and the file it was opened on: a program may close
 * every descriptor above 2 (daemons do) and open its own files there, so
 * each write first checks that the file is still the same one, and finds
 * it again if not (out_reopen).
 */
struct out {
	int fd;
	dev_t dev;
	ino_t ino;
	const char *path;
};

static struct out err_out = { .fd = -1 }, log_out = { .fd = -1 }, json_out = { .fd = -1 };

/* Moved high (away from the descriptors the program counts on), close-on-exec, and remembered. */
static bool out_take(struct out *o, int fd, const char *path)
{
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	struct stat st;

	if (high < 0 || fstat(high, &st) != 0) {
		if (high >= 0)
			close(high);
		return false;
	}
	*o = (struct out){ .fd = high, .dev = st.st_dev, .ino = st.st_ino, .path = path };
	return true;
}

/*
 * write(2) without SIGPIPE: a report that finds its reader gone (stderr
 * piped to head) must not kill a program that wrote nothing itself.  The
 * signal is blocked in this thread for the write, and one raised by it is
 * taken back (not one that was pending already: that is the program's).
 */
static ssize_t write_quiet(int fd, const struct iovec *iov, int n_iov)
{
	static const struct timespec now;
	sigset_t pipe_set, old, pending;
	bool was_pending;
	ssize_t n;
	int err;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
	n = writev(fd, iov, n_iov);
	err = errno;
	if (n < 0 && err == EPIPE && !was_pending)
		sigtimedwait(&pipe_set, NULL, &now);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return n;
}

/*
 * Our descriptor is gone or holds another file (a daemon closed every
 * descriptor from 3 up, and maybe opened its own there): a file of ours is
 * opened again by its path, for appending; stderr is taken again from the
 * program's descriptor 2 if that is still the file it was at start.  The
 * old number is left alone: it is not ours any more.  Never a file that is
 * not ours.
 */
static bool out_reopen(struct out *o)
{
	struct stat st;
	int fd;
	bool ok;

	if (!o->path)
		return false;		/* never had one (stderr closed at start) */
	if (o == &err_out) {
		if (fstat(STDERR_FILENO, &st) != 0 || st.st_dev != o->dev || st.st_ino != o->ino)
			return false;
		return out_take(o, STDERR_FILENO, o->path);
	}
	fd = open(o->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = out_take(o, fd, o->path);
	close(fd);
	return ok;
}

/* Is o's descriptor still on its file (or on it again)? */
static bool out_check(struct out *o)
{
	struct stat st;

	if (o->fd >= 0 && fstat(o->fd, &st) == 0 && st.st_dev == o->dev && st.st_ino == o->ino)
		return true;
	if (o->fd >= 0 && out_reopen(o))
		return true;
	errno = EBADF;
	return false;
}

/*
 * One record in one write(2) - a JSON record and its newline as well:
 * processes appending to one file (a make -j tree) then never interleave
 * inside a record, as an O_APPEND write lands whole.  Only a short write
 * (a full disk, a pipe) goes on with a second.
 */
static bool out_writev(struct out *o, struct iovec *iov, int n_iov)
{
	if (!out_check(o))
		return false;
	while (n_iov) {
		ssize_t n = write_quiet(o->fd, iov, n_iov);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		for (; n_iov && (size_t)n >= iov->iov_len; iov++, n_iov--)
			n -= (ssize_t)iov->iov_len;
		if (n_iov) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return true;
}

static bool out_write(struct out *o, const char *s, size_t len)
{
	struct iovec iov = { (void *)s, len };

	return out_writev(o, &iov, 1);
}

/*
 * From the constructor, or from the first message if another library's
 * constructor locked something first.  Closed at start: there is no stderr
 * to keep, and descriptor 2 is not ours.
 */
void preload_stderr_setup(void)
{
	static bool taken;

	if (!taken) {
		taken = true;
		out_take(&err_out, STDERR_FILENO, "stderr");
	}
}

void preload_msg(const char *s)
{
	preload_stderr_setup();
	out_write(&err_out, s, strlen(s));
}

/* A report, or the summary, to the log; a log that fails says so on stderr and is dropped. */
static void log_text(const char *s)
{
	if (log_out.fd < 0) {
		preload_msg(s);
		return;
	}
	if (out_write(&log_out, s, strlen(s)))
		return;
	preload_msg("uirq-lockdep: cannot write to the log ");
	preload_msg(log_out.path);
	preload_msg(": ");
	preload_msg(strerror(errno));
	preload_msg("; reports go to stderr from now on\n");
	log_out.fd = -1;
	preload_msg(s);
}

/* One JSON record a line; a file that fails says so once and is dropped. */
static void json_line(const char *json)
{
	if (json_out.fd < 0)
		return;
	struct iovec iov[2] = { { (void *)json, strlen(json) }, { (void *)"\n", 1 } };

	if (out_writev(&json_out, iov, 2))
		return;
	preload_msg("uirq-lockdep: cannot write to the JSON file ");
	preload_msg(json_out.path);
	preload_msg(": ");
	preload_msg(strerror(errno));
	preload_msg("; no more JSON records\n");
	json_out.fd = -1;
}

/* Runs with lockdep's graph lock held: writes, nothing else. */
static void deliver(const struct uirq_lockdep_report *rep, void *arg)
{
	(void)arg;
	log_text(rep->text);
	json_line(rep->json);
}

/* A file of ours, opened for appending; false said. */
static bool open_output(struct out *o, const char *path, const char *what)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && out_take(o, fd, path);

	if (!ok) {
		/* the runner checked it; set by hand, it may be wrong */
		preload_msg("uirq-lockdep: cannot open the ");
		preload_msg(what);
		preload_msg(" ");
		preload_msg(path);
		preload_msg(": ");
		preload_msg(strerror(errno));
		preload_msg("\n");
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

static void print_summary(void);

/*
 * SIGTERM, SIGINT, SIGHUP left at their default (the process ends): how a
 * server is stopped.  The summary and the statistics are printed first;
 * then the signal, back at its default, ends the process as it would have
 * (the status says so).  A program's own handler replaces this one.
 * SIGKILL cannot be caught: the reports are out already, the summary is not.
 */
static void on_stop_signal(int sig)
{
	static atomic_flag once = ATOMIC_FLAG_INIT;
	int err = errno;

	if (!atomic_flag_test_and_set(&once))
		print_summary();
	raise(sig);		/* blocked until the handler returns, then the default (SA_RESETHAND) */
	errno = err;
}

static void catch_stop_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESETHAND | SA_RESTART };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	}
}

void preload_output_setup(const char *log, const char *json)
{
	catch_stop_signals();
	if (log && *log && !open_output(&log_out, log, "log"))
		preload_msg("uirq-lockdep: reports go to stderr\n");
	if (json && *json)
		open_output(&json_out, json, "JSON file");
	uirq_lockdep_set_report_handler(deliver, NULL);
}

/* Counted by the parent before this process was forked: not this process's. */
static struct uirq_lockdep_stats parent_stats;

void preload_child_stats_base(void)
{
	uirq_lockdep_get_stats(&parent_stats);
	preload_reports_before = parent_stats.reports;
}

/* This process's own counts: a forked child's without its parent's reports. */
static void own_stats(struct uirq_lockdep_stats *st)
{
	uirq_lockdep_get_stats(st);
	st->reports -= parent_stats.reports;
	st->suppressed -= parent_stats.suppressed;
	for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++)
		st->reports_by_kind[k] -= parent_stats.reports_by_kind[k];
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

	if (json_out.fd < 0)
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

	own_stats(&st);
	if (!st.reports && !st.suppressed && !st.classes_made && !stopped)
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
	preload_stat_print(log_text, json_out.fd >= 0 ? json_line : NULL);
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

// SPDX-License-Identifier: MIT
/*
 * Spawning the runner for the tests: both output streams are captured
 * through pipes, drained with poll() so a chatty program cannot block.
 */
#define _GNU_SOURCE
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct buf {
	char *data;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
			abort();
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

#ifdef TSAN_SUPPRESSIONS
const char *run_tsan_suppressions = TSAN_SUPPRESSIONS;
#else
const char *run_tsan_suppressions;
#endif

/*
 * Sanitizer runtimes in instrumented programs: TSan must not add its own
 * deadlock and mutex-misuse verdicts to the ones under test.  (ASan's
 * refusal of a library before its runtime is the runner's to lift, and the
 * tests check that it does.)
 */
static void sanitizer_env(void)
{
	const char *old = getenv("TSAN_OPTIONS");
	char *val;

	/* quoted: the runtime splits its options at blanks too (a tree under "my projects") */
	if (asprintf(&val, "%s%sreport_mutex_bugs=0:report_destroy_locked=0:detect_deadlocks=0:report_signal_unsafe=0%s%s%s",
		     old ? old : "", old && *old ? ":" : "", run_tsan_suppressions ? ":suppressions='" : "",
		     run_tsan_suppressions ? run_tsan_suppressions : "", run_tsan_suppressions ? "'" : "") < 0)
		_exit(120);
	setenv("TSAN_OPTIONS", val, 1);
}

struct run run_cmd(const char *const argv[], const char *const env[])
{
	struct run r = { 0 };
	struct buf out = { 0 }, err = { 0 };
	int po[2], pe[2];
	pid_t pid;

	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		sanitizer_env();
		for (int i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(argv[0], (char *const *)argv);
		_exit(121);
	}
	close(po[1]);
	close(pe[1]);
	buf_add(&out, "", 0);
	buf_add(&err, "", 0);
	for (int open_fds = 2; open_fds;) {
		struct pollfd p[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
		char chunk[4096];

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			abort();
		}
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[i].fd, chunk, sizeof(chunk));
			if (n > 0) {
				buf_add(i ? &err : &out, chunk, (size_t)n);
			} else if (n == 0 || errno != EINTR) {
				close(p[i].fd);
				if (i)
					pe[0] = -1;
				else
					po[0] = -1;
				open_fds--;
			}
		}
	}
	while (waitpid(pid, &r.status, 0) < 0 && errno == EINTR)
		;
	r.out = out.data;
	r.err = err.data;
	return r;
}

const char *prog(const char *name)
{
	static char path[8][4096];
	static int next;
	char *p = path[next++ % 8];

	snprintf(p, sizeof(path[0]), "%s/%s", PROGS_DIR, name);
	return p;
}

int count(const char *haystack, const char *needle)
{
	int n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

const char *describe(int status)
{
	static char text[64];

	if (WIFEXITED(status))
		snprintf(text, sizeof(text), "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(text, sizeof(text), "killed by signal %d", WTERMSIG(status));
	else
		snprintf(text, sizeof(text), "status %#x", status);
	return text;
}

void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/*
 * On stderr, not among the TAP lines: meson prints a failed test's stderr on
 * the console (and so in a CI log), where its stdout goes only to the test
 * log, which a clean-clone run throws away.
 */
void run_dump(const struct run *r)
{
	const char *names[2] = { "stdout", "stderr" };
	const char *texts[2] = { r->out, r->err };

	fprintf(stderr, "# %s\n", describe(r->status));
	for (int i = 0; i < 2; i++) {
		const char *p = texts[i];

		fprintf(stderr, "# --- %s ---\n", names[i]);
		while (p && *p) {
			const char *nl = strchrnul(p, '\n');

			fprintf(stderr, "#   %.*s\n", (int)(nl - p), p);
			p = *nl ? nl + 1 : nl;
		}
	}
	fflush(stderr);
}

// SPDX-License-Identifier: MIT
/*
 * --explore: every seed runs in a child irqsim with --seed K, because a
 * deterministic run owns its process (one mode per process, and a failing
 * seed may leave the board's threads stuck, which only that run's own
 * watchdog can end).  A seeded run uses one host CPU at a time whatever its
 * --cpus, so as many children run at once as irqsim may use CPUs.
 * Failures are printed in seed order, not in the order the children end:
 * the same exploration prints the same lines on any machine.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../sim-strategy.h"
#include "explore.h"

extern char **environ;

/* ---- the replay command ---- */

/* A word a POSIX shell passes on unchanged without quotes. */
static bool shell_plain(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("%+,-./:=@_", *s))
			return false;
	return true;
}

void irqsim_print_word(FILE *f, const char *s)
{
	if (shell_plain(s)) {
		fputs(s, f);
		return;
	}
	/* Inside single quotes only the quote itself is special: close, escape it, reopen. */
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The program as it was invoked (a variant build, tests/sim-bugs, replays with itself) and the run's options. */
void irqsim_print_args(FILE *f, const struct irqsim_opts *o)
{
	irqsim_print_word(f, o->argv[0]);
	for (int i = 1; i < o->argc; i++) {
		fputc(' ', f);
		irqsim_print_word(f, o->argv[i]);
	}
}

/*
 * The strategy is spelled out even when it is the default, so that a
 * replay line saved today still replays the same run if the default changes.
 */
static void print_replay(FILE *f, const struct irqsim_opts *o, uint64_t seed)
{
	char buf[16];

	fputs("replay: ", f);
	irqsim_print_args(f, o);
	if (o->replay_file) {
		fputs(" --replay ", f);
		irqsim_print_word(f, o->replay_file);
		fputc('\n', f);
		return;
	}
	fprintf(f, " --seed %" PRIu64 " --strategy %s\n", seed,
		sim_strategy_word(o->strategy, o->pct_depth, buf, sizeof(buf)));
}

void irqsim_print_replay(FILE *f, const struct irqsim_opts *o)
{
	print_replay(f, o, o->seed);
}

/* ---- the children ---- */

struct child {
	pid_t pid;			/* 0: the slot is free */
	unsigned long index;		/* its seed is o->seed + index */
	int rfd;			/* its --result-fd pipe's read end */
};

/* What a seed's run said on its --result-fd (schedule.c): its trace hash and its failure kinds. */
struct result {
	bool got;
	uint64_t hash;
	char *kinds;
};

struct explore {
	const struct irqsim_opts *o;
	int *status;			/* per seed: its wait status, -1 until it has finished */
	struct result *res;		/* per seed */
	unsigned long next;		/* the first seed whose result is not printed yet */
	unsigned long finished, failing;
	struct child *kids;
	unsigned int nkids, running;
	char **argv;			/* the children's: o->argv, --seed K, --strategy S, --json, --result-fd 3 */
	char seed[24], strategy[16];
	sigset_t child_mask;		/* the mask irqsim was started with, for the children */
};

static unsigned int usable_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned int)CPU_COUNT(&set);
	/* More CPUs than a cpu_set_t holds: count them all. */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned int)n : 1;
}

static void print_failure(const struct explore *x, unsigned long i)
{
	uint64_t seed = x->o->seed + i;
	int st = x->status[i];
	const char *name;

	if (WIFSIGNALED(st) && (name = sigabbrev_np(WTERMSIG(st))))
		printf("seed %" PRIu64 ": failed (signal SIG%s)\n", seed, name);
	else if (WIFSIGNALED(st))
		printf("seed %" PRIu64 ": failed (signal %d)\n", seed, WTERMSIG(st));
	else
		printf("seed %" PRIu64 ": failed (exit %d)\n", seed, WEXITSTATUS(st));
	fputs("  ", stdout);
	print_replay(stdout, x->o, seed);
}

/* The failures up to the first seed still running (all: every finished one, at the end). */
static void print_ready(struct explore *x, bool all)
{
	for (; x->next < x->o->explore && (all || x->status[x->next] != -1); x->next++)
		if (x->status[x->next] != -1 && x->status[x->next] != 0)
			print_failure(x, x->next);
	out_flush();
}

static int spawn_seed(struct explore *x, struct child *c, unsigned long index)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int err = 0, p[2] = { -1, -1 }, w = -1;

	snprintf(x->seed, sizeof(x->seed), "%" PRIu64, x->o->seed + index);
	c->rfd = -1;
	/* Both ends above 3, so that the child's dup2() to 3 makes a descriptor that survives its exec. */
	if (pipe2(p, O_CLOEXEC) || (c->rfd = fcntl(p[0], F_DUPFD_CLOEXEC, 10)) < 0 ||
	    (w = fcntl(p[1], F_DUPFD_CLOEXEC, 10)) < 0) {
		err = errno;
		if (c->rfd >= 0)
			close(c->rfd);
		c->rfd = -1;
	}
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	if (c->rfd < 0)
		goto out;
	if ((err = posix_spawn_file_actions_init(&fa)))
		goto out;
	if ((err = posix_spawnattr_init(&attr))) {
		posix_spawn_file_actions_destroy(&fa);
		goto out;
	}
	/*
	 * The run's output is dropped (the replay command shows it whole).  The
	 * child gets irqsim's original signal mask, not the exploration's, and a
	 * process group of its own: a Ctrl-C at the terminal reaches this
	 * process alone, which then ends the children and counts only the seeds
	 * that finished.
	 */
	if (!(err = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) &&
	    !(err = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)) &&
	    !(err = posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO)) &&
	    !(err = posix_spawn_file_actions_adddup2(&fa, w, 3)) &&
	    !(err = posix_spawnattr_setsigmask(&attr, &x->child_mask)) &&
	    !(err = posix_spawnattr_setpgroup(&attr, 0)) &&
	    !(err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP)))
		/* glibc returns once the exec has happened (or failed): x->seed can be reused after. */
		err = posix_spawn(&c->pid, "/proc/self/exe", &fa, &attr, x->argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
out:
	if (w >= 0)
		close(w);
	if (err) {
		fprintf(stderr, "irqsim: --explore: cannot run seed %s (/proc/self/exe): %s\n", x->seed, strerror(err));
		if (c->rfd >= 0)
			close(c->rfd);
		c->rfd = -1;
		c->pid = 0;
		return -1;
	}
	c->index = index;
	x->running++;
	return 0;
}

static struct child *free_slot(struct explore *x)
{
	for (unsigned int k = 0; k < x->nkids; k++)
		if (!x->kids[k].pid)
			return &x->kids[k];
	return NULL;
}

/* The ended child's result line ("result STATUS DECISIONS HASH KINDS"), if it wrote one. */
static void read_result(struct explore *x, struct child *c)
{
	struct result *r = &x->res[c->index];
	char buf[512], hash[17], kinds[161];
	ssize_t n = read(c->rfd, buf, sizeof(buf) - 1);
	unsigned long long h;
	size_t decisions;
	int st;

	close(c->rfd);
	c->rfd = -1;
	if (n <= 0)
		return;
	buf[n] = 0;
	if (sscanf(buf, "result %d %zu %16[0-9a-f] %160s", &st, &decisions, hash, kinds) != 4 ||
	    sscanf(hash, "%llx", &h) != 1 || !(r->kinds = strdup(kinds)))
		return;
	r->hash = h;
	r->got = true;
}

/* Record every child that has ended. */
static void reap(struct explore *x)
{
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned int k = 0; k < x->nkids; k++) {
			struct child *c = &x->kids[k];

			if (c->pid != pid)
				continue;
			c->pid = 0;
			x->running--;
			read_result(x, c);
			x->status[c->index] = st;
			x->finished++;
			x->failing += st != 0;
		}
	}
}

/* Stopped: the children still running end unrecorded, their seeds not explored. */
static void kill_children(struct explore *x)
{
	for (unsigned int k = 0; k < x->nkids; k++) {
		struct child *c = &x->kids[k];

		if (!c->pid)
			continue;
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		close(c->rfd);
		c->rfd = -1;
		c->pid = 0;
		x->running--;
	}
}

static int explore_alloc(struct explore *x)
{
	const struct irqsim_opts *o = x->o;
	int n = o->argc;

	x->nkids = usable_cpus();
	if (x->nkids > o->explore)
		x->nkids = (unsigned int)o->explore;
	x->status = malloc(o->explore * sizeof(*x->status));
	x->kids = calloc(x->nkids, sizeof(*x->kids));
	x->argv = calloc((size_t)n + 8, sizeof(*x->argv));
	x->res = calloc(o->explore, sizeof(*x->res));
	if (!x->status || !x->kids || !x->argv || !x->res) {
		fprintf(stderr, "irqsim: --explore: out of memory\n");
		return -1;
	}
	memset(x->status, 0xff, o->explore * sizeof(*x->status));
	memcpy(x->argv, o->argv, (size_t)n * sizeof(*x->argv));
	x->argv[n++] = "--seed";
	x->argv[n++] = x->seed;
	x->argv[n++] = "--strategy";
	x->argv[n++] = (char *)sim_strategy_word(o->strategy, o->pct_depth, x->strategy, sizeof(x->strategy));
	/* No human output to format: it would be dropped anyway. */
	x->argv[n++] = "--json";
	x->argv[n++] = "--result-fd";
	x->argv[n++] = "3";
	return 0;
}

/*
 * Until every seed has finished, a child cannot be started or the output
 * fails (*cut_short), or a signal stops it all: that signal, or 0.
 */
static int explore_loop(struct explore *x, int sfd, bool *cut_short)
{
	struct signalfd_siginfo si;
	unsigned long started = 0;
	struct child *c;

	for (;;) {
		while (started < x->o->explore && (c = free_slot(x))) {
			if (spawn_seed(x, c, started)) {
				*cut_short = true;
				return 0;
			}
			started++;
		}
		if (!x->running)
			return 0;
		if (read(sfd, &si, sizeof(si)) != sizeof(si)) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "irqsim: --explore: waiting for the runs: %s\n", strerror(errno));
			*cut_short = true;
			return 0;
		}
		if (si.ssi_signo != SIGCHLD) {
			fprintf(stderr, "irqsim: %s: stopping the exploration\n", si.ssi_signo == SIGTERM ? "SIGTERM" : "SIGINT");
			return (int)si.ssi_signo;
		}
		reap(x);
		print_ready(x, false);
		/* Nobody reads the failing seeds any more (out_flush()): stop, and exit 1. */
		if (atomic_load(&irqsim_stop_signal) == IRQSIM_STOP_OUTPUT) {
			*cut_short = true;
			return 0;
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A failing seed's kind: its result's words, else how it ended. */
static void failure_kind(const struct explore *x, unsigned long i, char *buf, size_t len)
{
	int st = x->status[i];
	const char *name;

	if (x->res[i].got)
		snprintf(buf, len, "%s", x->res[i].kinds);
	else if (WIFSIGNALED(st) && (name = sigabbrev_np(WTERMSIG(st))))
		snprintf(buf, len, "signal-SIG%s", name);
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "signal-%d", WTERMSIG(st));
	else
		snprintf(buf, len, "exit-%d", WEXITSTATUS(st));
}

/*
 * Coverage: how many of the runs scheduled differently (distinct trace
 * hashes: two seeds that took the same decisions ran the same
 * interleaving), and how many different ways they failed (distinct
 * failure kinds, each with its count and first seed, in seed order of
 * first appearance).
 */
static void print_coverage(const struct explore *x)
{
	unsigned long n = 0, distinct = 0, nokinds = 0, missing = 0;
	uint64_t *h = malloc((x->o->explore ? x->o->explore : 1) * sizeof(*h));
	struct { char kind[161]; unsigned long count, first; } *f = calloc(x->failing ? x->failing : 1, sizeof(*f));

	if (!h || !f) {
		free(h);
		free(f);
		return;
	}
	for (unsigned long i = 0; i < x->o->explore; i++) {
		char kind[161];
		unsigned long k;

		if (x->status[i] == -1)
			continue;
		if (x->res[i].got)
			h[n++] = x->res[i].hash;
		else
			missing++;
		if (x->status[i] == 0)
			continue;
		failure_kind(x, i, kind, sizeof(kind));
		for (k = 0; k < nokinds && strcmp(f[k].kind, kind); k++)
			;
		if (k == nokinds) {
			snprintf(f[nokinds].kind, sizeof(f[nokinds].kind), "%s", kind);
			f[nokinds++].first = i;
		}
		f[k].count++;
	}
	qsort(h, n, sizeof(*h), cmp_u64);
	for (unsigned long i = 0; i < n; i++)
		distinct += !i || h[i] != h[i - 1];
	printf("coverage: %lu distinct schedule%s, %lu distinct failure%s", distinct, distinct == 1 ? "" : "s", nokinds,
	       nokinds == 1 ? "" : "s");
	if (missing)
		printf(" (%lu run%s ended without a schedule hash)", missing, missing == 1 ? "" : "s");
	putchar('\n');
	for (unsigned long k = 0; k < nokinds; k++)
		printf("  failure %s: %lu seed%s, first seed %" PRIu64 "\n", f[k].kind, f[k].count,
		       f[k].count == 1 ? "" : "s", x->o->seed + f[k].first);
	free(h);
	free(f);
}

int explore_run(const struct irqsim_opts *o)
{
	struct explore x = { .o = o };
	bool cut_short = false;
	sigset_t sigs;
	int sfd = -1, sig = 0, status = IRQSIM_EXIT_PROBLEMS;

	if (explore_alloc(&x))
		goto out;
	/* Inherited as ignored, SIGCHLD would let the kernel reap the children and lose their statuses. */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &x.child_mask);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (sfd < 0) {
		fprintf(stderr, "irqsim: --explore: signalfd: %s\n", strerror(errno));
		goto out;
	}
	sig = explore_loop(&x, sfd, &cut_short);
	kill_children(&x);
	print_ready(&x, true);
	printf("explored %lu seeds: %lu failing%s\n", x.finished, x.failing, sig || cut_short ? " (stopped)" : "");
	print_coverage(&x);
	if (sig)
		status = 128 + sig;
	else if (!cut_short && !x.failing)
		status = IRQSIM_EXIT_CLEAN;
out:
	if (sfd >= 0)
		close(sfd);
	for (unsigned long i = 0; x.res && i < o->explore; i++)
		free(x.res[i].kinds);
	free(x.res);
	free(x.status);
	free(x.kids);
	free(x.argv);
	return status;
}

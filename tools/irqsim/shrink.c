// SPDX-License-Identifier: MIT
/*
 * --shrink SEED: from a failing seed, a schedule with as few preemptions as
 * the search finds that still fails alike, and the interleaving a person
 * reads.
 *
 * A preemption is a decision where the run left the canonical choice
 * (uirq/sim.h: the task at a scheduling point goes on if it can, else the
 * next runnable one in id order); the canonical run has none.  The seed's
 * run is recorded as its preemptions (--schedule-out), then preemptions are
 * dropped by delta debugging (Zeller and Hildebrandt, TSE 2002): chunks of
 * k, k from half the list down to 1, each trial a child irqsim following
 * the reduced list loosely (--replay of a file without an end line).  A
 * trial that fails alike - the same exit status and the same failure kinds
 * (schedule.c's outcome: "lost", a lockdep report kind, "deadlock", ...),
 * so that shrinking cannot slide to another bug - is kept: as the
 * preemptions its run actually took, a subset of the trial's (one whose
 * task was not runnable at its step is skipped), so every kept trial
 * shortens the list and the search ends.  It ends when no single
 * preemption can be dropped: the result is locally minimal (1-minimal), not
 * necessarily the fewest of all schedules that fail.  A last child replays
 * the result strictly with stacks recorded and writes the file, each
 * preemption with the source line where its task stood.
 *
 * Trials run one after the other: each depends on the one before.  As in
 * --explore, a run owns its process (one deterministic mode a process).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../sim-strategy.h"
#include "explore.h"
#include "schedule.h"

extern char **environ;

struct shrink {
	const struct irqsim_opts *o;
	char dir[64], cand[96], rec[96], best[96], final[96];
	char **argv;
	int base;			/* o->argv's words in argv */
	unsigned long runs;
	int status;			/* the seed's exit status and failure kinds: what a trial must repeat */
	char kinds[160];
};

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* One child irqsim with o's options and extra (NULL-ended): its exit status, 128 + a signal, or -1. */
static int child(struct shrink *s, const char *const *extra)
{
	posix_spawn_file_actions_t fa;
	int n = s->base, err, st;
	pid_t pid;

	while (*extra)
		s->argv[n++] = (char *)*extra++;
	s->argv[n] = NULL;
	s->runs++;
	if ((err = posix_spawn_file_actions_init(&fa)))
		goto fail;
	if (!(err = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) &&
	    !(err = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)) &&
	    !(err = posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO)))
		err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, s->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		goto fail;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			err = errno;
			goto fail;
		}
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
fail:
	fprintf(stderr, "irqsim: --shrink: cannot run a trial (/proc/self/exe): %s\n", strerror(err));
	return -1;
}

/* The recorded schedule of the last child, if it failed alike (status as child() returned it). */
static bool failed_alike(struct shrink *s, int status, struct irqsim_schedule *rec)
{
	char err[512];

	if (status != s->status)
		return false;
	if (schedule_read(s->rec, rec, err, sizeof(err))) {
		fprintf(stderr, "irqsim: --shrink: %s\n", err);
		return false;
	}
	if (!rec->has_end || !rec->has_verdict || strcmp(rec->kinds, s->kinds)) {
		schedule_free(rec);
		return false;
	}
	return true;
}

/* cur without its preemptions [from, from + len), followed loosely: does it fail alike?  Then cur is its run's. */
static int trial(struct shrink *s, struct irqsim_schedule *cur, size_t from, size_t len)
{
	const char *extra[] = { "--replay", s->cand, "--schedule-out", s->rec, "--json", NULL };
	struct uirq_sim_preemption *p = malloc((cur->n ? cur->n : 1) * sizeof(*p));
	struct irqsim_schedule rec;
	size_t n = 0;
	int err, st;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < cur->n; i++)
		if (i < from || i >= from + len)
			p[n++] = cur->p[i];
	err = schedule_write_loose(s->cand, p, n);
	free(p);
	if (err) {
		fprintf(stderr, "irqsim: --shrink: %s: %s\n", s->cand, strerror(-err));
		return err;
	}
	unlink(s->rec);
	st = child(s, extra);
	if (st < 0)
		return -EIO;
	if (!failed_alike(s, st, &rec))
		return 0;
	schedule_free(cur);
	*cur = rec;
	rename(s->rec, s->best);
	return 1;
}

/* Delta debugging over cur's preemptions, down to a list none of which can go. */
static int ddmin(struct shrink *s, struct irqsim_schedule *cur)
{
	size_t k = cur->n > 1 ? cur->n / 2 : 1;
	int got;

	while (cur->n) {
		bool dropped = false;

		for (size_t i = 0; i < cur->n && !stop_sig;) {
			size_t len = k < cur->n - i ? k : cur->n - i;

			got = trial(s, cur, i, len);
			if (got < 0)
				return got;
			if (got)
				dropped = true;	/* the list changed under i: go on from the same place */
			else
				i += len;
		}
		if (stop_sig)
			return -EINTR;
		if (!dropped) {
			if (k == 1)
				break;
			k /= 2;
		} else if (k > cur->n / 2) {
			k = cur->n > 1 ? cur->n / 2 : 1;
		}
	}
	return 0;
}

/* The result, written by the last child, says where it came from; and what a person reads of it. */
static int finish(struct shrink *s, size_t before, const struct irqsim_schedule *cur)
{
	const struct irqsim_opts *o = s->o;
	char *line = NULL, buf[16];
	size_t cap = 0;
	FILE *in = fopen(s->final, "r"), *out = NULL;
	bool listing = false;

	if (!in || !(out = fopen(o->schedule_out, "w"))) {
		fprintf(stderr, "irqsim: --shrink: %s: %s\n", in ? o->schedule_out : s->final, strerror(errno));
		if (in)
			fclose(in);
		return IRQSIM_EXIT_PROBLEMS;
	}
	printf("shrunk: %zu preemption%s, from the seed's %zu, in %lu runs; %s\n", cur->n, cur->n == 1 ? "" : "s",
	       before, s->runs, cur->n ? "without any one of them the run does not fail alike" :
	       "the canonical run fails alike");
	printf("schedule: %s\n", o->schedule_out);
	irqsim_print_replay(stdout, &(struct irqsim_opts){ .argv = o->argv, .argc = o->argc,
							   .replay_file = o->schedule_out });
	if (cur->n)
		printf("the interleaving, at each preemption of the canonical run:\n");
	while (getline(&line, &cap, in) >= 0) {
		if (!strncmp(line, "origin ", 7)) {
			fprintf(out, "origin shrink seed %" PRIu64 " strategy %s: %zu preemptions shrunk to %zu in %lu runs\n",
				o->seed, sim_strategy_word(o->strategy, o->pct_depth, buf, sizeof(buf)), before, cur->n,
				s->runs);
			continue;
		}
		fputs(line, out);
		if (!strncmp(line, "preempt ", 8))
			listing = true;
		else if (!strncmp(line, "end ", 4))
			listing = false;
		else if (listing && !strncmp(line, "#   ", 4))
			printf("  %s", line + 4);
	}
	free(line);
	fclose(in);
	if (fclose(out)) {
		fprintf(stderr, "irqsim: --shrink: %s: %s\n", o->schedule_out, strerror(errno));
		return IRQSIM_EXIT_PROBLEMS;
	}
	return IRQSIM_EXIT_CLEAN;
}

int shrink_run(const struct irqsim_opts *o_in)
{
	struct irqsim_opts o = *o_in;
	struct shrink s = { .o = &o };
	struct irqsim_schedule cur = { 0 };
	char seed[24], strategy[16], path[64], err[512];
	struct sigaction sa = { .sa_handler = on_stop };
	int status = IRQSIM_EXIT_PROBLEMS, st;
	size_t before;

	if (!o.schedule_out) {
		snprintf(path, sizeof(path), "irqsim-seed-%" PRIu64 ".schedule", o.seed);
		o.schedule_out = path;
	}
	snprintf(s.dir, sizeof(s.dir), "/tmp/irqsim-shrink-XXXXXX");
	s.argv = calloc((size_t)o.argc + 8, sizeof(*s.argv));
	if (!s.argv || !mkdtemp(s.dir)) {
		fprintf(stderr, "irqsim: --shrink: %s\n", s.argv ? strerror(errno) : "out of memory");
		free(s.argv);
		return IRQSIM_EXIT_PROBLEMS;
	}
	snprintf(s.cand, sizeof(s.cand), "%s/trial", s.dir);
	snprintf(s.rec, sizeof(s.rec), "%s/run", s.dir);
	snprintf(s.best, sizeof(s.best), "%s/best", s.dir);
	snprintf(s.final, sizeof(s.final), "%s/final", s.dir);
	memcpy(s.argv, o.argv, (size_t)o.argc * sizeof(*s.argv));
	s.base = o.argc;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* The seed's own run, recorded. */
	snprintf(seed, sizeof(seed), "%" PRIu64, o.seed);
	st = child(&s, (const char *const[]){ "--seed", seed, "--strategy",
		sim_strategy_word(o.strategy, o.pct_depth, strategy, sizeof(strategy)),
		"--schedule-out", s.rec, "--json", NULL });
	if (st == 0) {
		printf("seed %s (strategy %s) passes: nothing to shrink\n", seed, strategy);
		goto out;
	}
	if (st < 0 || schedule_read(s.rec, &cur, err, sizeof(err)) || !cur.has_verdict) {
		if (st >= 0)
			fprintf(stderr, "irqsim: --shrink: seed %s exited %d without a schedule\n", seed, st);
		goto out;
	}
	s.status = st;
	snprintf(s.kinds, sizeof(s.kinds), "%s", cur.kinds);
	rename(s.rec, s.best);
	before = cur.n;
	printf("seed %s (strategy %s) fails (exit %d: %s) with %zu preemption%s\n", seed, strategy, st, s.kinds,
	       before, before == 1 ? "" : "s");
	out_flush();

	st = ddmin(&s, &cur);
	if (st == -EINTR) {
		fprintf(stderr, "irqsim: --shrink: stopped by %s after %lu runs (%zu preemptions left); nothing written\n",
			stop_sig == SIGTERM ? "SIGTERM" : "SIGINT", s.runs, cur.n);
		status = 128 + stop_sig;
		goto out;
	}
	if (st < 0)
		goto out;

	/* The result replayed strictly, with stacks: the file a person gets, if it still fails alike. */
	st = child(&s, (const char *const[]){ "--replay", s.best, "--schedule-out", s.final, "--json", NULL });
	{
		struct irqsim_schedule fin = { 0 };
		bool same;

		rename(s.final, s.rec);
		same = failed_alike(&s, st, &fin) && fin.n == cur.n;
		schedule_free(&fin);
		if (!same) {
			fprintf(stderr, "irqsim: --shrink: the shrunk schedule did not replay to the same failure "
				"(exit %d); a run that does not replay is a bug in the deterministic mode\n", st);
			goto out;
		}
		rename(s.rec, s.final);
	}
	status = finish(&s, before, &cur);
out:
	schedule_free(&cur);
	unlink(s.cand);
	unlink(s.rec);
	unlink(s.best);
	unlink(s.final);
	rmdir(s.dir);
	free(s.argv);
	return status;
}

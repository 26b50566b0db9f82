// SPDX-License-Identifier: MIT
/*
 * Schedule files: a seeded run written as its preemptions - the decisions
 * where its scheduler left the canonical choice (uirq/sim.h: the task at a
 * scheduling point goes on if it can, else the next runnable task in id
 * order) - which --replay makes again, decision for decision.  A text file,
 * one item a line, '#' comments (the writer puts the interleaving a person
 * reads there):
 *
 *	irqsim-schedule 1			the format, first
 *	origin seed 0 strategy pct:3		where it came from (not read)
 *	preempt STEP TASK CANONICAL CHOSEN	at decision STEP, task TASK at its scheduling
 *						point, CHOSEN runs instead of CANONICAL
 *	end DECISIONS HASH			the recorded run's decision count and trace hash
 *	verdict STATUS KINDS			its exit status and what failed (not checked)
 *
 * With an end line the file is followed strictly: each preemption must
 * find the recorded task at the point and the recorded canonical choice
 * (else the scheduler reports a mismatch and irqsim exits 2 at once), and
 * the run must end with the recorded count and hash (else exit 2 after the
 * run).  Without one (a schedule edited by hand, the shrinker's candidates)
 * it is followed loosely, and irqsim says on stderr how many preemptions
 * applied.  Either way no replay is silently another run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/symbolize.h"
#include "../sim-strategy.h"
#include "explore.h"
#include "schedule.h"

/* ---- reading ---- */

static int push(struct irqsim_schedule *s, const struct uirq_sim_preemption *p)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void *q = realloc(s->p, cap * sizeof(*s->p));

		if (!q)
			return -1;
		s->p = q;
		s->cap = cap;
	}
	s->p[s->n++] = *p;
	return 0;
}

/* Up to max blank-separated words of line (modified in place); their count. */
static int words(char *line, char **w, int max)
{
	int n = 0;

	for (char *t = strtok(line, " \t\r"); t; t = strtok(NULL, " \t\r"))
		if (n++ < max)
			w[n - 1] = t;
	return n;
}

static bool u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (tool_parse_u64(s, &x) || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

int schedule_read(const char *path, struct irqsim_schedule *s, char *err, size_t len)
{
	char *line = NULL, *w[8];
	size_t cap = 0;
	unsigned int lineno = 0;
	bool header = false;
	ssize_t got;
	FILE *f;

	memset(s, 0, sizeof(*s));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
#define FAIL(...) do { int o_ = snprintf(err, len, "%s:%u: ", path, lineno); \
		snprintf(err + o_, len - (size_t)o_, __VA_ARGS__); goto bad; } while (0)
	while ((got = getline(&line, &cap, f)) >= 0) {
		struct uirq_sim_preemption p = { 0 };
		char *l = line;
		int n;

		lineno++;
		if (memchr(line, 0, (size_t)got))
			FAIL("not text: not an irqsim schedule");
		line[strcspn(line, "\n")] = 0;
		l += strspn(l, " \t\r");
		if (!*l || *l == '#')
			continue;
		if (!header) {
			n = words(l, w, 8);
			if (n != 2 || strcmp(w[0], "irqsim-schedule"))
				FAIL("not an irqsim schedule: expected \"irqsim-schedule 1\" first");
			if (strcmp(w[1], "1"))
				FAIL("irqsim-schedule %.20s: this irqsim reads format 1", w[1]);
			header = true;
			continue;
		}
		n = words(l, w, 8);
		if (!strcmp(w[0], "origin"))
			continue;
		if (!strcmp(w[0], "preempt")) {
			if (n != 5 || tool_parse_u64(w[1], &p.step) || !u32(w[2], &p.task) || !u32(w[3], &p.canonical) ||
			    !u32(w[4], &p.chosen) || !p.step)
				FAIL("expected \"preempt STEP TASK CANONICAL CHOSEN\" (numbers, STEP from 1)");
			if (s->has_end)
				FAIL("a preemption after the end line");
			if (s->n && p.step <= s->p[s->n - 1].step)
				FAIL("step %" PRIu64 " after step %" PRIu64 ": the steps must increase", p.step,
				     s->p[s->n - 1].step);
			if (p.chosen == p.canonical)
				FAIL("preempt chooses the canonical task %" PRIu32 ": no preemption", p.chosen);
			if (push(s, &p))
				FAIL("out of memory");
		} else if (!strcmp(w[0], "end")) {
			if (s->has_end)
				FAIL("a second end line");
			char hex[19] = "0x";

			if (n == 3)
				snprintf(hex + 2, sizeof(hex) - 2, "%s", w[2]);
			if (n != 3 || tool_parse_u64(w[1], &s->decisions) || strlen(w[2]) != 16 ||
			    tool_parse_u64(hex, &s->hash))
				FAIL("expected \"end DECISIONS HASH\" (HASH: 16 hex digits)");
			s->has_end = true;
		} else if (!strcmp(w[0], "verdict")) {
			uint32_t st;

			if (n != 3 || !u32(w[1], &st) || st > 255)
				FAIL("expected \"verdict STATUS KINDS\"");
			s->has_verdict = true;
			s->status = (int)st;
			snprintf(s->kinds, sizeof(s->kinds), "%s", w[2]);
		} else {
			FAIL("expected preempt, end, verdict or origin, got \"%.40s\"", w[0]);
		}
	}
	if (ferror(f)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		goto bad;
	}
	if (!header) {
		snprintf(err, len, "%s: empty: not an irqsim schedule (expected \"irqsim-schedule 1\" first)", path);
		goto bad;
	}
#undef FAIL
	free(line);
	fclose(f);
	return 0;
bad:
	free(line);
	fclose(f);
	schedule_free(s);
	return -1;
}

void schedule_free(struct irqsim_schedule *s)
{
	free(s->p);
	s->p = NULL;
	s->n = s->cap = 0;
}

/* ---- writing ---- */

static void put_preempt(FILE *f, const struct uirq_sim_preemption *p)
{
	fprintf(f, "preempt %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", p->step, p->task, p->canonical,
		p->chosen);
}

int schedule_write_loose(const char *path, const struct uirq_sim_preemption *p, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs("irqsim-schedule 1\n", f);
	for (size_t i = 0; i < n; i++)
		put_preempt(f, &p[i]);
	if (fclose(f))
		return -errno;
	return 0;
}

/* "tools/irqsim/run.c" for "/src/build/../tools/irqsim/run.c" or "../tools/irqsim/run.c". */
static const char *short_path(const char *file)
{
	const char *p = strstr(file, "/../");

	while (p) {
		file = p + 4;
		p = strstr(file, "/../");
	}
	while (!strncmp(file, "../", 3))
		file += 3;
	return file;
}

/* The scheduler's own frames and uirq's locks and waits: not where the task stood in its code. */
static bool plumbing(const char *file)
{
	return !strncmp(file, "sim/", 4) || !strncmp(file, "lib/", 4) || !strncmp(file, "lockdep/", 8);
}

/*
 * Where a stack stood: its first frame with a source line outside the
 * scheduler and the lock and wait plumbing, and that frame's caller:
 * "func (file:line) <- caller (file:line)".
 */
static void locate(void *const *frames, unsigned int n, char *buf, size_t len)
{
	size_t off = 0;
	int shown = 0;

	buf[0] = 0;
	for (unsigned int i = 0; i < n && shown < 2; i++) {
		struct uirq_sym s;

		if (!uirq_sym_code((unsigned long)frames[i], false, &s) || !s.file || !s.line)
			continue;
		const char *file = short_path(s.file);

		if (plumbing(file))
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s (%s:%d)", shown ? " <- " : "",
					s.func ? s.func : "?", file, s.line);
		shown++;
		if (off >= len)
			break;
	}
	if (!shown)
		snprintf(buf, len, "%s", n ? "an unknown place (no line information)" : "its start");
}

static const char *tname(uint32_t id)
{
	const char *s = uirq_sim_task_name(id);

	return s ? s : "?";
}

/* The interleaving a person reads, one preemption: two lines, each begun with prefix. */
static void describe(FILE *f, const struct uirq_sim_preemption *p, bool located, const char *prefix)
{
	char at[512], from[512];

	fprintf(f, "%sstep %" PRIu64 ", t=%.1f us: task %" PRIu32 " '%s' %s", prefix, p->step, (double)p->now_ns / 1e3,
		p->task, tname(p->task), p->blocked ? "stops" : "is preempted");
	if (located) {
		locate(p->frames, p->nframes, at, sizeof(at));
		fprintf(f, " at %s", at);
	}
	fprintf(f, "\n%s  -> task %" PRIu32 " '%s' runs", prefix, p->chosen, tname(p->chosen));
	if (p->canonical != p->task)
		fprintf(f, ", not task %" PRIu32 " '%s'", p->canonical, tname(p->canonical));
	if (located) {
		locate(p->chosen_frames, p->chosen_nframes, from, sizeof(from));
		fprintf(f, ", from %s", p->chosen_nframes || p->chosen == p->task ? from : "its start");
	}
	fputc('\n', f);
}

static int write_full(const char *path, const struct irqsim_opts *o, size_t decisions, uint64_t hash, int status,
		      const char *kinds)
{
	const struct uirq_sim_preemption *p;
	char buf[16];
	size_t n;
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	p = uirq_sim_preemptions(&n);
	fputs("# irqsim schedule: where this run left the canonical choice (irqsim(1), SCHEDULE FILES)\n# replay: ", f);
	irqsim_print_args(f, o);
	fputs(" --replay ", f);
	irqsim_print_word(f, path);
	fputs("\nirqsim-schedule 1\n", f);
	if (o->replay_file) {
		fputs("origin replay ", f);
		irqsim_print_word(f, o->replay_file);
		fputc('\n', f);
	} else {
		fprintf(f, "origin seed %" PRIu64 " strategy %s\n", o->seed,
			sim_strategy_word(o->strategy, o->pct_depth, buf, sizeof(buf)));
	}
	fprintf(f, "# %zu preemption%s\n", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		put_preempt(f, &p[i]);
		describe(f, &p[i], o->schedule_stacks, "#   ");
	}
	fprintf(f, "end %zu %016" PRIx64 "\nverdict %d %s\n", decisions, hash, status, kinds);
	if (fclose(f))
		return -errno;
	return 0;
}

/* ---- the outcome ---- */

static void add(char *buf, size_t len, const char *word)
{
	size_t off = strlen(buf);

	snprintf(buf + off, len - off, "%s%s", off ? "," : "", word);
}

void irqsim_outcome(const struct irqsim_run *r, int status, char *buf, size_t len)
{
	buf[0] = 0;
	if (status == IRQSIM_EXIT_CLEAN) {
		snprintf(buf, len, "none");
		return;
	}
	if (r->stopped_line)
		add(buf, len, "stopped");
	for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++)
		if (r->lockdep.reports_by_kind[k]) {
			char w[64];

			snprintf(w, sizeof(w), "%s", uirq_lockdep_kind_name(k));
			for (char *c = w; *c; c++)
				if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z')))
					*c = '-';
			add(buf, len, w);
		}
	if (r->reports.n && !r->lockdep.reports)
		add(buf, len, "report");
	if (r->oopses)
		add(buf, len, "oops");
	if (r->opts->seeded && !r->faults_injected) {
		struct delivery d;

		latency_delivery(r, &d);
		if (d.lost)
			add(buf, len, "lost");
		if (d.duplicated)
			add(buf, len, "duplicated");
		if (d.wrong)
			add(buf, len, "wrong");
		if (d.unexplained)
			add(buf, len, "unexplained");
	}
	if (r->watchdog_fired)
		add(buf, len, "watchdog");
	if (r->setup_failed)
		add(buf, len, "setup");
	if (r->output_failed)
		add(buf, len, "output");
	if (!buf[0])
		snprintf(buf, len, "exit-%d", status);
}

static void result_line(const struct irqsim_opts *o, int status, size_t decisions, uint64_t hash, const char *kinds)
{
	if (o->result_fd >= 0)
		dprintf(o->result_fd, "result %d %zu %016" PRIx64 " %s\n", status, decisions, hash, kinds);
}

static void save(const struct irqsim_opts *o, int *status, size_t decisions, uint64_t hash, const char *kinds)
{
	int err;

	if (o->schedule_out && (err = write_full(o->schedule_out, o, decisions, hash, *status, kinds))) {
		fprintf(stderr, "irqsim: --schedule-out %s: %s\n", o->schedule_out, strerror(-err));
		if (*status == IRQSIM_EXIT_CLEAN)
			*status = IRQSIM_EXIT_PROBLEMS;
	}
	result_line(o, *status, decisions, hash, kinds);
}

static const char not_recorded[] = "replay it with the program, scenario and options it was recorded with "
				   "(the replay line in the file)";

/* A strict replay that ended (or failed) elsewhere than the recorded run: -1, said on stderr. */
static int end_check(const struct irqsim_opts *o, size_t decisions, uint64_t hash)
{
	const struct irqsim_schedule *s = o->replay;
	size_t applied = uirq_sim_schedule_applied();

	if (!s->has_end) {
		fprintf(stderr, "irqsim: --replay %s has no end line: followed loosely, %zu of its %zu preemptions applied\n",
			o->replay_file, applied, s->n);
		return 0;
	}
	if (applied == s->n && decisions == s->decisions && hash == s->hash)
		return 0;
	fprintf(stderr, "irqsim: --replay %s: this run is not the recorded one: %zu scheduling decisions (hash %016"
		PRIx64 ") where the file says %" PRIu64 " (hash %016" PRIx64 "), %zu of its %zu preemptions applied; %s\n",
		o->replay_file, decisions, hash, s->decisions, s->hash, applied, s->n, not_recorded);
	return -1;
}

int schedule_finish(const struct irqsim_run *r, int status)
{
	const struct irqsim_opts *o = r->opts;
	char kinds[160];

	if (o->replay && end_check(o, r->sim_steps, r->sim_hash))
		return IRQSIM_EXIT_USAGE;
	irqsim_outcome(r, status, kinds, sizeof(kinds));
	save(o, &status, r->sim_steps, r->sim_hash, kinds);
	return status;
}

void irqsim_sim_failed(const struct irqsim_run *r, const char *report)
{
	const struct irqsim_opts *o = r->opts;
	size_t decisions = uirq_sim_trace_len();
	uint64_t hash = uirq_sim_trace_hash();
	int status = IRQSIM_EXIT_PROBLEMS;

	if (!strncmp(report, "uirq sim: schedule mismatch", 27) ||
	    (o->replay && o->replay->has_end && strstr(report, "deadlock at step") && end_check(o, decisions, hash))) {
		out_flush();
		if (!strncmp(report, "uirq sim: schedule mismatch", 27))
			fprintf(stderr, "%sirqsim: --replay %s: %s\n", report, o->replay_file, not_recorded);
		fflush(NULL);
		_exit(IRQSIM_EXIT_USAGE);
	}
	save(o, &status, decisions, hash, strstr(report, "deadlock at step") ? "deadlock" : "stall");
	if (o->replay_file) {
		out_flush();
		fputs(report, stderr);
		fprintf(stderr, "irqsim: the schedule %s failed; ", o->replay_file);
		irqsim_print_replay(stderr, o);
		fflush(NULL);
		_exit(status);
	}
}

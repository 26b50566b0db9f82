// SPDX-License-Identifier: MIT
/*
 * irqsim end to end: the built binary runs as a child, as a user runs it,
 * and the tests judge its exit status, its evtest lines, its --json summary
 * and its --trace file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "harness.h"
#include "json_mini.h"

#ifndef IRQSIM_PATH
#error "IRQSIM_PATH: the irqsim binary under test"
#endif

extern char **environ;

struct result {
	int status;		/* exit status, or 128 + signal */
	char *out, *err;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	assert_not_null(buf);
	assert_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

/* The child's stdout: captured in a file and read back, a descriptor of the test's, or closed. */
enum { OUT_CAPTURE = -1, OUT_CLOSED = -2 };

/* Start irqsim with args (NULL-terminated); stderr to fe, stdout to fo or as out says. */
static pid_t spawn(const char *const *args, int out, int fo, int fe)
{
	const char *argv[32] = { IRQSIM_PATH };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int i;

	for (i = 0; args && args[i] && i < 30; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	posix_spawn_file_actions_init(&fa);
	if (out == OUT_CLOSED)
		posix_spawn_file_actions_addclose(&fa, 1);
	else
		posix_spawn_file_actions_adddup2(&fa, out == OUT_CAPTURE ? fo : out, 1);
	posix_spawn_file_actions_adddup2(&fa, fe, 2);
	assert_eq(posix_spawn(&pid, IRQSIM_PATH, &fa, NULL, (char *const *)argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

/* Wait for pid; read back what it wrote to the files. */
static struct result reap(pid_t pid, char *out, int fo, char *err, int fe)
{
	struct result r;
	int st;

	assert_eq(waitpid(pid, &st, 0), pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.out = slurp(out);
	r.err = slurp(err);
	close(fo);
	close(fe);
	unlink(out);
	unlink(err);
	return r;
}

/* Run irqsim with args (NULL-terminated), stderr captured, stdout as out says. */
static struct result run_out(const char *const *args, int out)
{
	char outp[] = "/tmp/irqsim-outXXXXXX", errp[] = "/tmp/irqsim-errXXXXXX";
	int fo = mkstemp(outp), fe = mkstemp(errp);

	assert_ge(fo, 0);
	assert_ge(fe, 0);
	return reap(spawn(args, out, fo, fe), outp, fo, errp, fe);
}

/* Run irqsim with args (NULL-terminated), stdout and stderr captured. */
static struct result run(const char *const *args)
{
	return run_out(args, OUT_CAPTURE);
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

/* Write a scenario to a temporary file; the caller unlinks path. */
static void scenario_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_ge(fd, 0);
	assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static struct jval *parse_json(const char *text)
{
	char err[128];
	struct jval *v = json_parse(text, err, sizeof(err));

	assert_not_null(v, "not JSON: %s\n%.400s", err, text);
	return v;
}

static double num(const struct jval *root, const char *path)
{
	const struct jval *v = json_path(root, path);

	assert_not_null(v, "no %s", path);
	assert_eq(v->type, J_NUM, "%s is not a number", path);
	return v->num;
}

/* The KEY_POWER values of the evtest lines, in order. */
static size_t key_values(const char *out, int *vals, size_t max)
{
	size_t n = 0;

	for (const char *p = out; (p = strstr(p, "code 116 (KEY_POWER), value ")); p++) {
		assert_lt(n, max);
		vals[n++] = atoi(p + strlen("code 116 (KEY_POWER), value "));
	}
	return n;
}

/*
 * The default run as a user sees it.  Seeded, its timing is exact: seven
 * presses long enough to see, down and up each, in order.  Free, what it
 * shows depends on the host: a loaded one can stretch the 20 us press into
 * one the driver sees (16 events), and can delay the handler thread past
 * the 5 ms press's release, so that the status read finds the button up
 * and the press is never reported - as on the hardware (12 events, seen in
 * 1 of 8 runs at once on 2 cores).  The free run asserts what any timing
 * keeps: whole presses, in order.
 */
static void default_end_to_end(bool seeded)
{
	const char *seeded_args[] = { "--seed", "1", NULL };
	struct result r = run(seeded ? seeded_args : NULL);
	int vals[64];
	size_t n = key_values(r.out, vals, 64);

	assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
	if (seeded)
		assert_eq(n, 14, "KEY_POWER events\n%s", r.out);
	else {
		assert_eq(n % 2, 0, "%zu KEY_POWER events\n%s", n, r.out);
		assert_ge(n, 2, "KEY_POWER events\n%s", r.out);
		assert_le(n, 16, "KEY_POWER events\n%s", r.out);
	}
	for (size_t i = 0; i < n; i++)
		assert_eq(vals[i], i % 2 == 0 ? 1 : 0, "event %zu has value %d", i, vals[i]);
	assert_true(strstr(r.out, "-------------- SYN_REPORT ------------"));
	assert_true(strstr(r.out, "input: twl4030_pwrbutton as"), "no probe line:\n%s", r.out);
	assert_true(strstr(r.out, "/proc/interrupts:"));
	assert_true(strstr(r.out, "TWL4030-PIH"));
	assert_true(strstr(r.out, "twl4030_pwrbutton"));
	assert_true(strstr(r.out, "irq/"), "no irq thread listed");
	assert_true(strstr(r.out, "minus modelled bus time"));
	assert_true(strstr(r.out, "lockdep: no problems found"), "%s", r.out);
	assert_null(strstr(r.err, "BUG:"), "%s", r.err);
	result_free(&r);
}

UIRQ_TEST(irqsim, default_run_end_to_end, .timeout = 60)
{
	default_end_to_end(false);
}

UIRQ_TEST(irqsim, default_run_end_to_end_seeded, .timeout = 60)
{
	default_end_to_end(true);
}

/*
 * The default run's verdict, free (real time) and seeded.  Free, a loaded
 * host can stretch the planned 20 us press past the judge's 2 ms (its
 * release comes late: the scenario's sleeps end when the host lets them),
 * and the judge then judges that press, as it should: the free run asserts
 * what any timing keeps (every edge judged or short, the 14 long ones
 * always judged, nothing doubled or wrong, at most one event an edge, in
 * order); the seeded run, whose timing is exact, the 14 and 2 and every
 * long press delivered.  Failed 1 plain run in 20 when the free run
 * asserted exactly 14 (judged 16).  Free, nothing lost is not asserted
 * either: a loaded host can take the handler thread past a 5 ms press's
 * release, and the status read then finds the button up and reports
 * nothing - as the hardware would (seen in other free-run tests).
 */
static void default_json(bool seeded)
{
	const char *free_args[] = { "--json", NULL }, *seeded_args[] = { "--json", "--seed", "1", NULL };
	struct result r = run(seeded ? seeded_args : free_args);
	struct jval *j = parse_json(r.out);
	double judged, shorts;
	static const char *const keys[] = { "config", "input", "events", "edges", "counts", "latency_us", "irqs",
					    "lines", "lockdep", "reports", "log", "stopped", "watchdog", "exit_status" };

	assert_eq(r.status, 0, "stderr:\n%s", r.err);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_not_null(json_get(j, keys[i]), "no key %s", keys[i]);
	assert_null(strstr(r.out, "Event: time"), "human output mixed into --json");
	assert_eq(num(j, "exit_status"), 0);
	judged = num(j, "counts.judged");
	shorts = num(j, "counts.short");
	if (seeded) {
		assert_eq(judged, 14);
		assert_eq(shorts, 2);
	}
	assert_ge(judged, 14, "the long presses are always judged");
	assert_eq(judged + shorts, 16, "every edge judged or short");
	if (seeded) {
		assert_eq(num(j, "counts.delivered"), judged);
		assert_eq(num(j, "counts.lost"), 0);
	} else {
		assert_le(num(j, "counts.delivered"), judged);
	}
	assert_eq(num(j, "counts.duplicated"), 0);
	assert_eq(num(j, "counts.wrong"), 0);
	assert_eq(num(j, "lockdep.reports"), 0);
	assert_eq(json_get(j, "reports")->n, 0u);
	assert_eq(num(j, "config.bus_hz"), 2600000);
	assert_eq(num(j, "latency_us.edge_to_event.n"), num(j, "counts.delivered"));
	assert_gt(num(j, "latency_us.edge_to_event.median"), num(j, "latency_us.minus_bus.median"));
	/* Three one-byte reads per edge at 2.6 MHz: 120 us of wire at least. */
	assert_ge(num(j, "latency_us.edge_to_event.min"), 120.0);
	/* The short press: its two edges got the same number of events (none, or both seen). */
	const struct jval *edges = json_get(j, "edges");

	assert_eq(edges->n, 16u);
	assert_eq(json_get(&edges->kids[12], "events")->num, json_get(&edges->kids[13], "events")->num);
	/* Every edge of a long press answered by exactly one event (free: at most one), in order. */
	for (size_t i = 0; i < edges->n; i++) {
		if (i == 12 || i == 13)
			continue;
		if (seeded)
			assert_eq(json_get(&edges->kids[i], "events")->num, 1, "edge %zu", i);
		else
			assert_le(json_get(&edges->kids[i], "events")->num, 1, "edge %zu", i);
		if (i)
			assert_gt(json_get(&edges->kids[i], "t_us")->num, json_get(&edges->kids[i - 1], "t_us")->num);
	}
	json_free(j);
	result_free(&r);
}

UIRQ_TEST(irqsim, default_json_exactly_once, .timeout = 60)
{
	default_json(false);
}

UIRQ_TEST(irqsim, default_json_exactly_once_seeded, .timeout = 60)
{
	default_json(true);
}

/*
 * The driver reports the level it reads (twl4030.md): a press released
 * before the status read - at least two 40 us reads after the edge - shows
 * nothing, and a real press after it is seen whole.
 */
UIRQ_TEST(irqsim, instant_press_is_not_seen, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	/* Seeded: exact timing (free, a loaded host could preempt the scenario between the edges, or the thread past the hold). */
	const char *args[] = { "--json", "--scenario", path, "--seed", "1", NULL };
	struct result r;
	struct jval *j;
	const struct jval *edges;

	scenario_file(path, "press\nrelease\nwait 10ms\nhold 10ms\nwait 10ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 0, "%s", r.err);
	j = parse_json(r.out);
	edges = json_get(j, "edges");
	assert_eq(edges->n, 4u);
	double gap = json_get(&edges->kids[1], "t_us")->num - json_get(&edges->kids[0], "t_us")->num;

	assert_eq(gap, 0.0, "the press took no virtual time");
	assert_eq(json_get(&edges->kids[0], "events")->num, 0, "press %.1f us long was seen", gap);
	assert_eq(json_get(&edges->kids[1], "events")->num, 0);
	assert_eq(json_get(&edges->kids[2], "events")->num, 1);
	assert_eq(json_get(&edges->kids[3], "events")->num, 1);
	assert_eq(num(j, "counts.key_events"), gap < 60.0 ? 2 : num(j, "counts.key_events"));
	json_free(j);
	result_free(&r);
}

UIRQ_TEST(irqsim, legacy_sleeps_in_hardirq, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	const char *args[] = { "--legacy", "--scenario", path, NULL };
	struct result r;

	scenario_file(path, "hold 10ms\nwait 10ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 1, "exit %d\n%s", r.status, r.err);
	assert_true(strstr(r.err, "BUG: sleeping function called from invalid context"), "stderr:\n%s", r.err);
	assert_true(strstr(r.out, "lockdep: "), "%s", r.out);
	assert_true(strstr(r.out, "sleep_invalid"), "%s", r.out);
	result_free(&r);
}

UIRQ_TEST(irqsim, legacy_json_records_the_report, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	const char *args[] = { "--legacy", "--json", "--scenario", path, NULL };
	struct result r;
	struct jval *j;
	bool found = false;

	scenario_file(path, "hold 10ms\nwait 10ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 1);
	j = parse_json(r.out);
	assert_eq(num(j, "exit_status"), 1);
	assert_ge(num(j, "lockdep.by_kind.sleep_invalid"), 1);
	const struct jval *reps = json_get(j, "reports");

	for (size_t i = 0; i < reps->n; i++)
		found |= strstr(json_get(&reps->kids[i], "text")->str, "BUG: sleeping function called from invalid context") != NULL;
	assert_true(found, "no report text in --json");
	/* Recorded, and still printed. */
	assert_true(strstr(r.err, "BUG: sleeping function called from invalid context"));
	json_free(j);
	result_free(&r);
}

UIRQ_TEST(irqsim, threadirqs_clean, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	/* Seeded: every 10 ms press delivered is a timing a free run on a loaded host cannot promise. */
	const char *args[] = { "--threadirqs", "--cpus", "2", "--bus-speed", "400k", "--json", "--scenario", path,
			       "--seed", "1", NULL };
	struct result r;
	struct jval *j;

	scenario_file(path, "hold 10ms\nwait 10ms\nhold 10ms\nwait 10ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 0, "%s", r.err);
	j = parse_json(r.out);
	assert_eq(num(j, "config.bus_hz"), 400000);
	assert_eq(num(j, "config.cpus"), 2);
	assert_eq(num(j, "counts.delivered"), 4);
	/* 400 kHz: ~98 us per read, three reads. */
	assert_ge(num(j, "latency_us.edge_to_event.min"), 290.0);
	json_free(j);
	result_free(&r);
}

/* Every record has the fields its phase needs; B/E pairs balance per thread. */
static void check_trace(const struct jval *root)
{
	const struct jval *evs = json_get(root, "traceEvents");
	bool hard = false, thread = false, nested = false, i2c = false, input = false;
	int tids[64], depth[64];
	size_t ntids = 0;

	assert_not_null(evs);
	assert_eq(evs->type, J_ARR);
	for (size_t i = 0; i < evs->n; i++) {
		const struct jval *e = &evs->kids[i];
		const struct jval *ph = json_get(e, "ph"), *cat = json_get(e, "cat");
		int tid;

		assert_true(ph, "record %zu has no ph", i);
		assert_eq(ph->type, J_STR, "record %zu has no ph", i);
		assert_not_null(json_get(e, "pid"));
		assert_not_null(json_get(e, "tid"));
		assert_not_null(json_get(e, "name"));
		tid = (int)json_get(e, "tid")->num;
		if (!strcmp(ph->str, "M"))
			continue;
		assert_not_null(json_get(e, "ts"), "record %zu has no ts", i);
		size_t t;

		for (t = 0; t < ntids && tids[t] != tid; t++)
			;
		if (t == ntids) {
			assert_lt(ntids, 64u);
			tids[ntids] = tid;
			depth[ntids++] = 0;
		}
		if (!strcmp(ph->str, "X")) {
			assert_not_null(json_get(e, "dur"));
			assert_ge(json_get(e, "dur")->num, 0.0);
		} else if (!strcmp(ph->str, "B")) {
			depth[t]++;
		} else if (!strcmp(ph->str, "E")) {
			assert_gt(depth[t], 0, "E without B on tid %d", tid);
			depth[t]--;
		} else {
			assert_true(!strcmp(ph->str, "i") || !strcmp(ph->str, "I"), "phase %s", ph->str);
		}
		if (cat && cat->type == J_STR) {
			hard |= !strcmp(cat->str, "hardirq");
			thread |= !strcmp(cat->str, "irq_thread");
			nested |= !strcmp(cat->str, "nested_irq");
			i2c |= !strcmp(cat->str, "i2c");
			input |= !strcmp(cat->str, "input");
		}
	}
	for (size_t t = 0; t < ntids; t++)
		assert_eq(depth[t], 0, "unbalanced spans on tid %d", tids[t]);
	assert_true(hard && thread && nested && i2c && input, "hard %d thread %d nested %d i2c %d input %d", hard,
		  thread, nested, i2c, input);
	/* Each thread that has events is named. */
	for (size_t t = 0; t < ntids; t++) {
		bool named = false;

		for (size_t i = 0; i < evs->n && !named; i++) {
			const struct jval *e = &evs->kids[i];

			named = !strcmp(json_get(e, "ph")->str, "M") && !strcmp(json_get(e, "name")->str, "thread_name") &&
				(int)json_get(e, "tid")->num == tids[t];
		}
		assert_true(named, "tid %d has no thread_name", tids[t]);
	}
}

/* Read, remove and judge a --trace file. */
static void check_trace_file(const char *path)
{
	char *text = slurp(path);
	struct jval *j;

	unlink(path);
	j = parse_json(text);
	check_trace(j);
	json_free(j);
	free(text);
}

UIRQ_TEST(irqsim, trace_is_valid_chrome_json, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX", trace[] = "/tmp/irqsim-traceXXXXXX";
	/*
	 * Seeded: the trace must show an input event, which a free run on a
	 * loaded host can miss - the handler thread came after a 5 ms press's
	 * release and reported nothing (input 0; 1 of 20 plain runs at once).
	 */
	const char *args[] = { "--trace", trace, "--scenario", path, "--seed", "1", NULL };
	struct result r;
	int fd = mkstemp(trace);

	assert_ge(fd, 0);
	close(fd);
	scenario_file(path, "hold 5ms\nwait 5ms\nhold 5ms\nwait 5ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 0, "%s", r.err);
	check_trace_file(trace);
	result_free(&r);
}

UIRQ_TEST(irqsim, i2c_fault_logged_next_press_works, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	/* Seeded, for the same reason as the trace: every edge delivered once is a timing a free run cannot promise. */
	const char *args[] = { "--json", "--scenario", path, "--seed", "1", NULL };
	struct result r;
	struct jval *j;
	const struct jval *log, *edges;
	bool logged = false;

	/* The NAK hits the PIH read of the first press; the line must come back unmasked. */
	scenario_file(path, "i2c-fault nak\nhold 10ms\nwait 10ms\ni2c-fault error 2\nhold 10ms\nwait 10ms\n"
			    "hold 10ms\nwait 10ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 0, "%s", r.err);
	j = parse_json(r.out);
	assert_eq(num(j, "counts.i2c_faults_injected"), 3);
	log = json_get(j, "log");
	for (size_t i = 0; i < log->n; i++)
		logged |= strstr(json_get(&log->kids[i], "msg")->str, "(ENXIO), injected") != NULL;
	assert_true(logged, "the NAK was not logged");
	edges = json_get(j, "edges");
	assert_eq(edges->n, 6u);
	for (size_t i = 0; i < edges->n; i++)
		assert_eq(json_get(&edges->kids[i], "events")->num, 1, "edge %zu not delivered once", i);
	json_free(j);
	result_free(&r);
}

UIRQ_TEST(irqsim, shared_line_both_served, .timeout = 60)
{
	const char *args[] = { "--json", "--scenario", "shared-line", NULL };
	struct result r = run(args);
	struct jval *j;
	const struct jval *lines, *devs;

	assert_eq(r.status, 0, "%s", r.err);
	j = parse_json(r.out);
	lines = json_get(j, "lines");
	assert_eq(lines->n, 1u);
	devs = json_get(&lines->kids[0], "devices");
	assert_eq(devs->n, 2u);
	for (size_t d = 0; d < 2; d++) {
		assert_eq(json_get(&devs->kids[d], "raised")->num, 200);
		assert_eq(json_get(&devs->kids[d], "served")->num, 200, "device %zu", d);
	}
	assert_gt(json_get(&lines->kids[0], "irqs")->num, 0);
	json_free(j);
	result_free(&r);
}

UIRQ_TEST(irqsim, storm_does_not_stop_the_button, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	/* Seeded: the press after the storm delivered whatever the host load. */
	const char *args[] = { "--json", "--scenario", path, "--seed", "1", NULL };
	struct result r;
	struct jval *j;

	scenario_file(path, "storm 13 2000\nwait 5ms\nhold 10ms\nwait 10ms\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 0, "%s", r.err);
	j = parse_json(r.out);
	const struct jval *l = &json_get(j, "lines")->kids[0];

	assert_eq(json_get(l, "edges")->num, 2000);
	assert_gt(json_get(l, "irqs")->num, 0);
	assert_eq(num(j, "counts.delivered"), 2);
	json_free(j);
	result_free(&r);
}

UIRQ_TEST(irqsim, scenario_error_exits_2_with_position, .timeout = 30)
{
	char path[] = "/tmp/irqsim-scXXXXXX", want[128];
	const char *args[] = { "--scenario", path, NULL };
	struct result r;

	scenario_file(path, "# ok\nhold 5ms\nhold 5\n");
	r = run(args);
	unlink(path);
	assert_eq(r.status, 2);
	snprintf(want, sizeof(want), "%s:3:6: expected a duration (e.g. 5ms, 200us, 1s), got \"5\"", path);
	assert_true(strstr(r.err, want), "stderr: %s", r.err);
	assert_eq(r.out[0], '\0', "ran anyway: %s", r.out);
	result_free(&r);
}

UIRQ_TEST(irqsim, usage_errors_exit_2, .timeout = 30)
{
	static const char *const bad[][3] = {
		{ "--cpus", "0", NULL }, { "--cpus", "65", NULL }, { "--bus-speed", "5G", NULL },
		{ "--bus-speed", "fast", NULL }, { "--bogus", NULL, NULL }, { "--scenario", "no-such-thing", NULL },
		{ "extra", NULL, NULL }, { "--timeout", "-1", NULL }, { "--scenario", NULL, NULL },
		/* strtod() took these: "nan" reached the board ("cannot build the board", exit 1) */
		{ "--bus-speed", "nan", NULL }, { "--bus-speed", "1e6", NULL }, { "--bus-speed", "0x100000", NULL },
		{ "--bus-speed", "1000.5", NULL }, { "--bus-speed", "1.0005k", NULL }, { "--bus-speed", "inf", NULL },
		{ "--bus-speed", "999", NULL }, { "--bus-speed", "3400001", NULL }, { "--bus-speed", ".5M", NULL },
		{ "--wait", "spin", NULL }, { "--wait", "adaptive:", NULL }, { "--wait", "adaptive:0", NULL },
		{ "--wait", "adaptive:-5", NULL }, { "--wait", "adaptive:2000000000", NULL }, { "--wait", "pollx", NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result r = run(bad[i]);

		assert_eq(r.status, 2, "%s %s: exit %d", bad[i][0], bad[i][1] ? bad[i][1] : "", r.status);
		assert_true(strstr(r.err, "irqsim: "), "no message for %s", bad[i][0]);
		result_free(&r);
	}
}

/*
 * The default scenario under each wait mode of the CPUs and the handler
 * threads, seeded (where a poll is a scheduling point) and on the real
 * scheduler: the same clean verdict, every press delivered.
 */
UIRQ_TEST(irqsim, wait_modes_run_the_default_scenario_clean, .timeout = 120)
{
	static const char *const modes[] = { "blocking", "adaptive", "adaptive:20000", "poll" };

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		for (int seeded = 0; seeded < 2; seeded++) {
			const char *args[] = { "--wait", modes[i], seeded ? "--seed" : NULL, "7", NULL };
			struct result r = run(args);

			assert_eq(r.status, 0, "--wait %s%s: exit %d\n%s", modes[i], seeded ? " --seed 7" : "", r.status,
				  r.err);
			assert_true(strstr(r.out, "lockdep: no problems found"), "--wait %s:\n%s", modes[i], r.out);
			result_free(&r);
		}
	}
}

UIRQ_TEST(irqsim, list_and_help, .timeout = 30)
{
	const char *list[] = { "--list-scenarios", NULL }, *help[] = { "--help", NULL };
	static const char *const names[] = { "default", "short-presses", "bounce", "shared-line", "storm", "i2c-faults" };
	struct result r = run(list);

	assert_eq(r.status, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_true(strstr(r.out, names[i]), "%s not listed", names[i]);
	result_free(&r);
	r = run(help);
	assert_eq(r.status, 0);
	assert_true(strstr(r.out, "--scenario") && strstr(r.out, "--trace") && strstr(r.out, "--json"));
	result_free(&r);
}

UIRQ_TEST(irqsim, bus_speed_units_print_as_written, .timeout = 60)
{
	static const char *const speeds[][2] = {
		{ "1k", "i2c: 1 kHz bus" }, { "100000", "i2c: 100 kHz bus" }, { "400kHz", "i2c: 400 kHz bus" },
		{ "2.6M", "i2c: 2.6 MHz bus" }, { "3.4M", "i2c: 3.4 MHz bus" }, { "1.5k", "i2c: 1.5 kHz bus" },
	};
	char path[] = "/tmp/irqsim-scXXXXXX";

	scenario_file(path, "wait 1ms\n");
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
		const char *args[] = { "--bus-speed", speeds[i][0], "--scenario", path, NULL };
		struct result r = run(args);

		assert_eq(r.status, 0, "--bus-speed %s: exit %d\n%s", speeds[i][0], r.status, r.err);
		assert_true(strstr(r.out, speeds[i][1]), "--bus-speed %s: want \"%s\" in\n%s", speeds[i][0], speeds[i][1],
			  r.out);
		result_free(&r);
	}
	unlink(path);
}

UIRQ_TEST(irqsim, trace_to_an_unwritable_path_fails_before_the_run, .timeout = 60)
{
	const char *args[] = { "--trace", "/nonexistent-dir/trace.json", NULL };
	struct result r = run(args);

	assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
	assert_true(strstr(r.err, "irqsim: --trace /nonexistent-dir/trace.json: No such file or directory"), "stderr:\n%s",
		  r.err);
	assert_null(strstr(r.out, "Testing ..."), "the run started anyway:\n%s", r.out);
	result_free(&r);
}

UIRQ_TEST(irqsim, output_to_a_full_device_fails, .timeout = 60)
{
	static const char *const modes[][2] = { { "--json", NULL }, { NULL, NULL } };
	char path[] = "/tmp/irqsim-scXXXXXX";
	int full = open("/dev/full", O_WRONLY);

	assert_ge(full, 0);
	scenario_file(path, "hold 5ms\nwait 5ms\n");
	for (size_t i = 0; i < 2; i++) {
		const char *args[] = { "--scenario", path, modes[i][0], NULL };
		struct result r = run_out(args, full);

		assert_eq(r.status, 1, "%s: exit %d\nstderr:\n%s", modes[i][0] ? modes[i][0] : "human", r.status, r.err);
		assert_true(strstr(r.err, "irqsim: writing the output failed: No space left on device"), "stderr:\n%s", r.err);
		result_free(&r);
	}
	close(full);
	unlink(path);
}

UIRQ_TEST(irqsim, closed_stdout_fails_at_once, .timeout = 60)
{
	char trace[] = "/tmp/irqsim-traceXXXXXX";
	const char *args[] = { "--trace", trace, NULL };
	int fd = mkstemp(trace);
	struct result r;
	struct stat st;

	assert_ge(fd, 0);
	close(fd);
	r = run_out(args, OUT_CLOSED);
	assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
	assert_true(strstr(r.err, "irqsim: standard output is closed"), "stderr:\n%s", r.err);
	/* Nothing was run, so nothing landed in the trace file on descriptor 1 either. */
	assert_eq(stat(trace, &st), 0);
	assert_eq(st.st_size, 0);
	unlink(trace);
	result_free(&r);
}

/* A pipe whose reader has gone (| head after its line): the descriptor of its write end. */
static int reader_gone_pipe(void)
{
	int p[2];

	assert_eq(pipe(p), 0);
	close(p[0]);
	return p[1];
}

/*
 * irqsim --trace t.json | head -1: the first line that finds no reader (a
 * log line of the probe, before the first action) stops the run as a
 * signal would; the trace file is finished and valid, and irqsim exits 1
 * saying why - not killed by SIGPIPE (141) with t.json empty.  The 10 s
 * wait is never reached: the run stops at line 1.
 */
UIRQ_TEST(irqsim, reader_gone_stops_the_run_with_a_valid_trace, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX", trace[] = "/tmp/irqsim-traceXXXXXX", want[128];
	const char *args[] = { "--trace", trace, "--scenario", path, NULL };
	int fd = mkstemp(trace), out = reader_gone_pipe();
	struct result r;
	char *text;
	struct jval *j;
	const struct jval *evs;

	assert_ge(fd, 0);
	close(fd);
	scenario_file(path, "hold 5ms\nwait 10s\nhold 5ms\n");
	r = run_out(args, out);
	close(out);
	unlink(path);
	assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
	snprintf(want, sizeof(want), "irqsim: stopped at %s:1 by a failed write to standard output", path);
	assert_true(strstr(r.err, want), "want \"%s\" in stderr:\n%s", want, r.err);
	assert_true(strstr(r.err, "irqsim: writing the output failed: Broken pipe"), "stderr:\n%s", r.err);
	text = slurp(trace);
	unlink(trace);
	j = parse_json(text);
	evs = json_get(j, "traceEvents");
	assert_true(evs, "no traceEvents:\n%.400s", text);
	assert_eq(evs->type, J_ARR, "no traceEvents:\n%.400s", text);
	assert_ge(evs->n, 1, "no traceEvents:\n%.400s", text);
	assert_str_eq(json_get(&evs->kids[0], "name")->str, "process_name");
	json_free(j);
	free(text);
	result_free(&r);
}

UIRQ_TEST(irqsim, timeout_covers_reading_the_scenario, .timeout = 30)
{
	char dir[] = "/tmp/irqsim-fifoXXXXXX", fifo[64];
	const char *args[] = { "--timeout", "1", "--scenario", fifo, NULL };
	struct result r;

	assert_not_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/scenario", dir);
	assert_eq(mkfifo(fifo, 0600), 0);
	/* Nobody ever writes the FIFO: the open blocks until the watchdog ends the run. */
	r = run(args);
	unlink(fifo);
	rmdir(dir);
	assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
	assert_true(strstr(r.err, "irqsim: watchdog: the run reached its --timeout of 1 s"), "stderr:\n%s", r.err);
	assert_true(strstr(r.err, "while reading the scenario; giving up."), "stderr:\n%s", r.err);
	result_free(&r);
}

/* Start irqsim with args, send it SIGINT once ready(its pid, its stdout's file) says so, and wait for it. */
static struct result interrupt_when(const char *const *args, bool (*ready)(pid_t pid, const char *outp))
{
	char outp[] = "/tmp/irqsim-outXXXXXX", errp[] = "/tmp/irqsim-errXXXXXX";
	int fo = mkstemp(outp), fe = mkstemp(errp);
	pid_t pid;

	assert_ge(fo, 0);
	assert_ge(fe, 0);
	pid = spawn(args, OUT_CAPTURE, fo, fe);
	while (!ready(pid, outp)) {
		assert_eq(waitpid(pid, NULL, WNOHANG), 0, "irqsim ended before the signal");
		usleep(10000);
	}
	assert_eq(kill(pid, SIGINT), 0);
	return reap(pid, outp, fo, errp, fe);
}

/* The first press has come through as an event: the run is under way. */
static bool first_press_seen(pid_t pid, const char *outp)
{
	char *out = slurp(outp);
	bool seen = strstr(out, "code 116 (KEY_POWER), value 0");

	(void)pid;
	free(out);
	return seen;
}

/* Ctrl-C mid-run: the summary so far, a complete trace file, exit 130. */
UIRQ_TEST(irqsim, sigint_stops_with_a_summary_and_a_trace, .timeout = 60)
{
	char trace[] = "/tmp/irqsim-traceXXXXXX";
	/* Long enough that the signal lands inside it whatever the machine's speed. */
	char path[] = "/tmp/irqsim-scXXXXXX";
	const char *args[] = { "--trace", trace, "--scenario", path, NULL };
	int fd = mkstemp(trace);
	struct result r;

	assert_ge(fd, 0);
	close(fd);
	scenario_file(path, "hold 5ms\nwait 5ms\nhold 10s\nwait 10s\n");
	r = interrupt_when(args, first_press_seen);
	unlink(path);
	assert_eq(r.status, 130, "exit %d\nstderr:\n%s", r.status, r.err);
	assert_true(strstr(r.out, "/proc/interrupts:"), "no summary:\n%s", r.out);
	assert_true(strstr(r.out, "irqsim: stopped by SIGINT at "), "stdout:\n%s", r.out);
	assert_true(strstr(r.out, "lockdep: no problems found"), "stdout:\n%s", r.out);
	check_trace_file(trace);
	result_free(&r);
}

/* ---- the deterministic mode's options: --seed, --strategy, --explore ---- */

/* Run irqsim with args (NULL-terminated) then --scenario a temporary file holding text; stdout as out says. */
static struct result run_scenario_text_out(const char *text, const char *const *args, int out)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	const char *argv[30];
	struct result r;
	size_t n;

	for (n = 0; args[n]; n++) {
		assert_lt(n, 27u);
		argv[n] = args[n];
	}
	argv[n++] = "--scenario";
	argv[n++] = path;
	argv[n] = NULL;
	scenario_file(path, text);
	r = run_out(argv, out);
	unlink(path);
	return r;
}

static struct result run_scenario_text(const char *text, const char *const *args)
{
	return run_scenario_text_out(text, args, OUT_CAPTURE);
}

/*
 * --json writes at the end only, and --explore as seeds fail (here every
 * one: --legacy): a reader gone is still a failed write, exit 1 with the
 * reason, not a death by SIGPIPE.
 */
UIRQ_TEST(irqsim, reader_gone_fails_json_and_explore, .timeout = 120)
{
	static const char *const modes[][4] = { { "--json", NULL }, { "--explore", "3", "--legacy", NULL } };

	for (size_t i = 0; i < 2; i++) {
		int out = reader_gone_pipe();
		struct result r = run_scenario_text_out("hold 10ms\nwait 10ms\n", modes[i], out);

		close(out);
		assert_eq(r.status, 1, "%s: exit %d\nstderr:\n%s", modes[i][0], r.status, r.err);
		assert_true(strstr(r.err, "irqsim: writing the output failed: Broken pipe"), "%s: stderr:\n%s",
			    modes[i][0], r.err);
		result_free(&r);
	}
}

UIRQ_TEST(irqsim, seed_options_usage_errors_exit_2, .timeout = 30)
{
	static const struct {
		const char *args[5];
		const char *msg;
	} bad[] = {
		{ { "--seed", "", NULL }, "--seed: expected" },
		{ { "--seed", "-1", NULL }, "--seed: expected" },
		{ { "--seed", "12x", NULL }, "--seed: expected" },
		{ { "--seed", "0x", NULL }, "--seed: expected" },
		{ { "--seed", " 12", NULL }, "--seed: expected" },
		{ { "--seed", "18446744073709551616", NULL }, "--seed: expected" },
		{ { "--seed", "0x10000000000000000", NULL }, "--seed: expected" },
		{ { "--seed", "1", "--strategy", "pct:0", NULL }, "--strategy: expected" },
		{ { "--seed", "1", "--strategy", "pct:65", NULL }, "--strategy: expected" },
		{ { "--seed", "1", "--strategy", "pct:", NULL }, "--strategy: expected" },
		{ { "--seed", "1", "--strategy", "foo", NULL }, "--strategy: expected" },
		{ { "--strategy", "random", NULL }, "--strategy needs --seed, --explore or --shrink" },
		{ { "--explore", "0", NULL }, "--explore: expected" },
		{ { "--explore", "1000001", NULL }, "--explore: expected" },
		{ { "--explore", "4", "--trace", "/tmp/irqsim-never-written.json", NULL }, "--trace writes one run's trace" },
		{ { "--explore", "2", "--seed", "0xffffffffffffffff", NULL }, "go past 2^64-1" },
		{ { "--seed", "1", "--lockdep-demo", NULL }, "--lockdep-demo runs no scenario" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result r = run(bad[i].args);

		assert_eq(r.status, 2, "case %zu (%s %s): exit %d\nstderr:\n%s", i, bad[i].args[0], bad[i].args[1],
			  r.status, r.err);
		assert_true(strstr(r.err, bad[i].msg), "case %zu: want \"%s\" in\n%s", i, bad[i].msg, r.err);
		assert_eq(r.out[0], '\0', "case %zu ran anyway:\n%s", i, r.out);
		result_free(&r);
	}
}

UIRQ_TEST(irqsim, seeds_are_accepted_in_decimal_and_hex, .timeout = 60)
{
	static const char *const seeds[] = { "0", "18446744073709551615", "0xDEADbeef", "0xffffffffffffffff" };

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		const char *args[] = { "--seed", seeds[i], "--strategy", "pct:64", "--json", NULL };
		struct result r = run_scenario_text("wait 1ms\n", args);

		assert_eq(r.status, 0, "--seed %s: exit %d\n%s", seeds[i], r.status, r.err);
		result_free(&r);
	}
}

UIRQ_TEST(irqsim, explore_clean_seeds, .timeout = 120)
{
	const char *args[] = { "--explore", "4", "--seed", "10", NULL };
	struct result r = run_scenario_text("hold 5ms\nwait 5ms\n", args);

	assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	/* Four seeds, four interleavings, nothing failed: the coverage line says so. */
	assert_eq(strcmp(r.out, "explored 4 seeds: 0 failing\ncoverage: 4 distinct schedules, 0 distinct failures\n"), 0,
		  "stdout:\n%s", r.out);
	result_free(&r);
}

/*
 * The words of the replay command that starts at line, as a shell reads them:
 * the command is there to be pasted into one, its words quoted where they
 * need it (a build tree under "/home/me/my projects").
 */
static wordexp_t replay_words(const char *line)
{
	char *cmd = strndup(line, strcspn(line, "\n"));
	wordexp_t w;

	assert_not_null(cmd);
	assert_eq(wordexp(cmd, &w, WRDE_NOCMD | WRDE_UNDEF), 0, "not shell words: %s", cmd);
	free(cmd);
	return w;
}

/* Is word, or the pair "word next", among w's words after the program? */
static bool has_word(const wordexp_t *w, const char *word, const char *next)
{
	for (size_t i = 1; i < w->we_wordc; i++)
		if (!strcmp(w->we_wordv[i], word) && (!next || (i + 1 < w->we_wordc && !strcmp(w->we_wordv[i + 1], next))))
			return true;
	return false;
}

/* --legacy exits 1 by design: every seed fails, each with the command that replays it. */
UIRQ_TEST(irqsim, explore_prints_each_failing_seed_and_its_replay, .timeout = 120)
{
	const char *args[] = { "--explore", "3", "--legacy", NULL };
	struct result r = run_scenario_text("hold 10ms\nwait 10ms\n", args);
	const char *p;
	char want[64];

	assert_eq(r.status, 1, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	p = r.out;
	/* In seed order, whichever child ended first. */
	for (int seed = 0; seed < 3; seed++) {
		wordexp_t w;

		snprintf(want, sizeof(want), "seed %d: failed (exit 1)\n  replay: ", seed);
		p = strstr(p, want);
		assert_not_null(p, "no seed %d in\n%s", seed, r.out);
		p += strlen(want);
		w = replay_words(p);
		assert_true(w.we_wordc > 0 && !strcmp(w.we_wordv[0], IRQSIM_PATH), "seed %d's replay is not of %s:\n%s",
			    seed, IRQSIM_PATH, r.out);
		snprintf(want, sizeof(want), "%d", seed);
		assert_true(has_word(&w, "--seed", want), "seed %d's replay lacks --seed %d:\n%s", seed, seed, r.out);
		assert_true(has_word(&w, "--legacy", NULL), "seed %d's replay lacks --legacy:\n%s", seed, r.out);
		assert_false(has_word(&w, "--explore", NULL), "seed %d's replay has --explore:\n%s", seed, r.out);
		wordfree(&w);
		p = strchr(p, '\n');
		assert_not_null(p);
	}
	/* One way to fail (lockdep's and might_sleep's reports; their kinds depend on -Dlockdep), by all three. */
	assert_eq(strncmp(p, "\nexplored 3 seeds: 3 failing\ncoverage: ", 39), 0, "stdout:\n%s", r.out);
	assert_not_null(strstr(p, " distinct schedules, 1 distinct failure\n  failure "), "stdout:\n%s", r.out);
	assert_not_null(strstr(p, ": 3 seeds, first seed 0\n"), "stdout:\n%s", r.out);
	result_free(&r);
}

UIRQ_TEST(irqsim, failing_seeded_run_prints_its_replay, .timeout = 60)
{
	const char *args[] = { "--seed", "5", "--legacy", NULL };
	struct result r = run_scenario_text("hold 10ms\nwait 10ms\n", args);
	const char *line, *intro = "irqsim: seed 5 failed; replay: ";
	wordexp_t w;

	assert_eq(r.status, 1, "exit %d\nstderr:\n%s", r.status, r.err);
	line = strstr(r.err, intro);
	assert_not_null(line, "stderr:\n%s", r.err);
	w = replay_words(line + strlen(intro));
	/* the program, then the run's own arguments less the seed's, then the seed's */
	assert_true(w.we_wordc == 8 && !strcmp(w.we_wordv[0], IRQSIM_PATH) && !strcmp(w.we_wordv[1], "--legacy") &&
		    !strcmp(w.we_wordv[2], "--scenario") && !strcmp(w.we_wordv[4], "--seed") &&
		    !strcmp(w.we_wordv[5], "5") && !strcmp(w.we_wordv[6], "--strategy") && !strcmp(w.we_wordv[7], "pct:3"),
		    "stderr:\n%s", r.err);
	wordfree(&w);
	result_free(&r);
}

/*
 * Whether pid blocks SIGINT as --explore does from when it takes the signal
 * itself: SIGINT but not SIGUSR1.  glibc's pthread_create() and
 * posix_spawn() block every signal for a moment (the scenario reader's
 * watchdog thread is made that way): a SIGINT sent then would be taken,
 * fatally, when they unblock it (it failed 1 run in about 15 so).
 */
static bool blocks_sigint(pid_t pid, const char *outp)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	FILE *f;

	(void)outp;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %llx", &mask) == 1)
			break;
	fclose(f);
	return (mask & (1ULL << (SIGINT - 1))) && !(mask & (1ULL << (SIGUSR1 - 1)));
}

UIRQ_TEST(irqsim, sigint_stops_the_exploration, .timeout = 60)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	const char *args[] = { "--explore", "8", "--scenario", path, NULL };
	struct result r;

	/*
	 * Runs that would last far longer than the test.  Not waits: the
	 * seeded runs' time is virtual, a wait costs them nothing; a storm's
	 * edges are real work (110000 take some 2.5 s, 3000000 a minute).
	 */
	scenario_file(path, "hold 5ms\nstorm 3 1000000\nstorm 4 1000000\nstorm 5 1000000\n");
	r = interrupt_when(args, blocks_sigint);
	unlink(path);
	assert_eq(r.status, 130, "exit %d\nstderr:\n%s", r.status, r.err);
	assert_eq(strcmp(r.out, "explored 0 seeds: 0 failing (stopped)\ncoverage: 0 distinct schedules, 0 distinct failures\n"),
		  0, "stdout:\n%s", r.out);
	assert_true(strstr(r.err, "irqsim: SIGINT: stopping the exploration"), "stderr:\n%s", r.err);
	result_free(&r);
}

/*
 * A --seed run's latencies are the model's, exactly: handlers cost no
 * virtual time, so every edge reaches its event after exactly its wire time
 * (three one-byte reads at 2.6 MHz: 120 us), and the remainder is 0 - not
 * the host's thread wake-ups, and not off by the event stamp's microsecond
 * cut (it read -0.7 us before the edge went on the same grid).
 */
UIRQ_TEST(irqsim, seeded_latency_is_exactly_the_wire_time, .timeout = 60)
{
	const char *args[] = { "--seed", "3", "--json", NULL };
	struct result r = run(args);
	struct jval *j = parse_json(r.out);
	static const char *const rows[] = { "edge_to_event", "edge_to_client" };
	static const char *const stats[] = { "min", "median", "p99", "max" };
	char path[96];

	assert_eq(r.status, 0, "stderr:\n%s", r.err);
	assert_eq(num(j, "counts.delivered"), 14);
	for (size_t i = 0; i < 2; i++)
		for (size_t k = 0; k < 4; k++) {
			snprintf(path, sizeof(path), "latency_us.%s.%s", rows[i], stats[k]);
			assert_eq(num(j, path), 120.0, "%s", path);
			snprintf(path, sizeof(path), "latency_us.%s.%s", i ? "client_minus_bus" : "minus_bus", stats[k]);
			assert_eq(num(j, path), 0.0, "%s", path);
		}
	json_free(j);
	result_free(&r);
}

/*
 * Whether every delivered edge of a --seed run took at least the bus time
 * of one answer - a third of a settled edge's latency, which is exactly its
 * three one-byte reads (seeded_latency_is_exactly_the_wire_time) - and the
 * events credited to edges are the events read.  settled: an edge of a
 * press held long enough to read.
 */
static void check_no_edge_beats_the_bus(const struct jval *j, size_t settled, const char *what)
{
	const struct jval *edges = json_get(j, "edges");
	double answer, credited = 0;

	assert_lt(settled, edges->n, "%s", what);
	assert_eq(json_get(&edges->kids[settled], "events")->num, 1, "%s: edge %zu", what, settled);
	answer = json_get(&edges->kids[settled], "client_us")->num / 3;
	assert_ge(answer, 1.0, "%s", what);
	for (size_t i = 0; i < edges->n; i++) {
		const struct jval *e = &edges->kids[i];

		credited += json_get(e, "events")->num;
		if (json_get(e, "events")->num)
			assert_ge(json_get(e, "client_us")->num, answer, "%s: edge %zu \"delivered\" before one answer's bus time",
				  what, i);
	}
	assert_ge(num(j, "latency_us.edge_to_event.min"), answer, "%s", what);
	assert_eq(credited, num(j, "counts.key_events"), "%s: events credited to edges", what);
}

/*
 * Presses and gaps shorter than the three status reads (120 us at 2.6 MHz):
 * an event belongs to the edge whose level its status read found, not to a
 * later edge of the same value that came before the event.  The first
 * press is still down when its status read starts (80 us), so the "down"
 * event is its own; the release at 100 us and the press at 115 us came
 * after that read began and get nothing (the next read finds the button
 * down, as the key already is).  It was credited to the press at 115 us,
 * "delivered" 5 us after it.  A 30 us press is read after it ended: nothing.
 */
UIRQ_TEST(irqsim, short_presses_credit_the_edge_the_read_saw, .timeout = 60)
{
	static const double want[] = { 1, 0, 0, 1, 0, 0, 1, 1 };
	const char *args[] = { "--seed", "1", "--json", NULL };
	struct result r = run_scenario_text("press\nwait 100us\nrelease\nwait 15us\npress\nwait 10ms\nrelease\nwait 10ms\n"
					    "hold 30us\nwait 10ms\npress\nwait 10ms\nrelease\nwait 10ms\n", args);
	struct jval *j;
	const struct jval *edges;

	assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
	j = parse_json(r.out);
	edges = json_get(j, "edges");
	assert_eq(edges->n, 8u);
	for (size_t i = 0; i < 8; i++)
		assert_eq(json_get(&edges->kids[i], "events")->num, want[i], "edge %zu", i);
	check_no_edge_beats_the_bus(j, 3, "--seed 1");
	assert_eq(num(j, "counts.key_events"), 4);
	assert_eq(num(j, "counts.judged"), 3);
	assert_eq(num(j, "counts.delivered"), 3);
	assert_eq(num(j, "counts.short"), 5);
	assert_eq(num(j, "counts.short_seen"), 1);
	json_free(j);
	result_free(&r);
}

/*
 * A release at the very instant the press's status read starts (80 us
 * after it, on the reads' 40 us grid), then a press 35 us later: whether
 * the chip saw the release first is the seed's choice (these seeds go both
 * ways: the press's event, or nothing until the second press's own reads).
 * Either way the event is credited to the edge the read saw - never
 * "delivered" before one answer's bus time (the second press got the first
 * one's event, 5 us after it), every event credited once.
 */
UIRQ_TEST(irqsim, edges_on_a_status_read_credit_what_it_saw, .timeout = 120)
{
	static const char *const strategies[] = { "random", "pct:3" };

	for (int seed = 1; seed <= 6; seed++) {
		const char *args[] = { "--seed", NULL, "--strategy", strategies[seed % 2], "--json", NULL };
		char what[32], s[8];
		struct result r;
		struct jval *j;

		snprintf(s, sizeof(s), "%d", seed);
		args[1] = s;
		snprintf(what, sizeof(what), "--seed %d --strategy %s", seed, strategies[seed % 2]);
		r = run_scenario_text("press\nwait 80us\nrelease\nwait 35us\npress\nwait 10ms\nrelease\nwait 10ms\n", args);
		assert_eq(r.status, 0, "%s: exit %d\nstderr:\n%s", what, r.status, r.err);
		j = parse_json(r.out);
		assert_eq(json_get(j, "edges")->n, 4u, "%s", what);
		check_no_edge_beats_the_bus(j, 3, what);
		json_free(j);
		result_free(&r);
	}
}

/* ---- the judge: what the model can deliver, not a wall clock ---- */

/* counts.NAME of a --json run, printed with the seed's words. */
static double count(const struct jval *j, const char *what, const char *name)
{
	char path[64];
	double v;

	snprintf(path, sizeof(path), "counts.%s", name);
	v = num(j, path);
	printf("# %s: %s %g\n", what, name, v);
	return v;
}

/*
 * At 15 kHz a one-byte register read is 2.6 ms of wire: the three that
 * answer an edge outlast the default scenario's 5 ms press, so the status
 * read finds the button already up - as the hardware would.  The judge
 * calls the press unread (the bus was busy all the while) and its release
 * no change (the key never went down), not lost: every seed failed.
 */
UIRQ_TEST(irqsim, seeded_slow_bus_is_judged_on_what_it_can_read, .timeout = 120)
{
	static const char *const strategies[] = { "random", "pct:3" };

	for (int seed = 1; seed <= 4; seed++) {
		char s[8], what[48];
		const char *args[] = { "--bus-speed", "15k", "--seed", s, "--strategy", strategies[seed % 2], "--json", NULL };
		struct result r;
		struct jval *j;

		snprintf(s, sizeof(s), "%d", seed);
		snprintf(what, sizeof(what), "--seed %d --strategy %s", seed, strategies[seed % 2]);
		r = run(args);
		assert_eq(r.status, 0, "%s: exit %d\nstderr:\n%s", what, r.status, r.err);
		j = parse_json(r.out);
		assert_eq(count(j, what, "judged"), 14);
		assert_eq(count(j, what, "delivered"), 12);
		assert_eq(count(j, what, "lost"), 0);
		assert_eq(count(j, what, "unread"), 1);
		assert_eq(count(j, what, "no_change"), 1);
		assert_eq(json_get(&json_get(j, "edges")->kids[0], "events")->num, 0, "%s: the 5 ms press", what);
		json_free(j);
		result_free(&r);
	}
}

/*
 * A 30 ms controller delay on every transfer: the release's status read is
 * on the bus longer than the settle's 20 ms quiet period.  A transfer on
 * the bus is activity: the release is delivered.  Before, the settle tore
 * the board down under it and every seed failed with the release lost.
 */
UIRQ_TEST(irqsim, seeded_settle_waits_for_a_transfer_on_the_bus, .timeout = 120)
{
	for (int seed = 1; seed <= 3; seed++) {
		char s[8], what[16];
		const char *args[] = { "--seed", s, "--json", NULL };
		struct result r;
		struct jval *j;

		snprintf(s, sizeof(s), "%d", seed);
		snprintf(what, sizeof(what), "--seed %d", seed);
		r = run_scenario_text("i2c-fault delay 30ms\nhold 100ms\nwait 20ms\n", args);
		assert_eq(r.status, 0, "%s: exit %d\nstderr:\n%s", what, r.status, r.err);
		j = parse_json(r.out);
		assert_eq(count(j, what, "delivered"), 2);
		assert_eq(count(j, what, "lost"), 0);
		json_free(j);
		result_free(&r);
	}
}

/*
 * A stuck bus (1 s) under the first press: that press and its release are
 * excused (faulted), and the press after the bus came back is still judged
 * and delivered.  Before, one injected fault switched every delivery check
 * of the run off.
 */
UIRQ_TEST(irqsim, seeded_fault_excuses_only_the_edges_it_reached, .timeout = 120)
{
	const char *args[] = { "--seed", "2", "--json", NULL };
	struct result r = run_scenario_text("i2c-fault timeout\nhold 5ms\nwait 1500ms\nhold 10ms\nwait 10ms\n", args);
	struct jval *j;
	const struct jval *edges;

	assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
	j = parse_json(r.out);
	assert_eq(count(j, "--seed 2", "i2c_faults_injected"), 1);
	assert_eq(count(j, "--seed 2", "judged"), 4);
	assert_eq(count(j, "--seed 2", "faulted"), 2);
	assert_eq(count(j, "--seed 2", "delivered"), 2);
	edges = json_get(j, "edges");
	assert_eq(json_get(&edges->kids[2], "events")->num, 1, "the press after the stuck bus");
	assert_eq(json_get(&edges->kids[3], "events")->num, 1, "its release");
	json_free(j);
	result_free(&r);
}

/*
 * The shared line's threaded device sleeps 20 us "on a slow bus" in its
 * thread: on uirq's clock, so in a --seed run its thread span is 20 us of
 * virtual time.  It called nanosleep(): 0 us and no scheduling point.
 */
UIRQ_TEST(irqsim, seeded_shared_line_slow_bus_takes_virtual_time, .timeout = 60)
{
	char trace[] = "/tmp/irqsim-traceXXXXXX";
	const char *args[] = { "--seed", "1", "--json", "--trace", trace, NULL };
	int fd = mkstemp(trace);
	struct result r;
	char *text;
	struct jval *j;
	const struct jval *evs;
	size_t spans = 0;

	assert_ge(fd, 0);
	close(fd);
	r = run_scenario_text("shared 3 4\nwait 1ms\n", args);
	assert_eq(r.status, 0, "exit %d\nstderr:\n%s", r.status, r.err);
	j = parse_json(r.out);
	assert_true(json_get(&json_get(j, "lines")->kids[0], "kept")->b, "the line's promise");
	json_free(j);
	text = slurp(trace);
	unlink(trace);
	j = parse_json(text);
	evs = json_get(j, "traceEvents");
	for (size_t i = 0; i < evs->n; i++) {
		const struct jval *name = json_get(&evs->kids[i], "name");

		if (!name || name->type != J_STR || !strstr(name->str, "dummy-threaded"))
			continue;
		printf("# %s: %g us\n", name->str, json_get(&evs->kids[i], "dur")->num);
		assert_eq(json_get(&evs->kids[i], "dur")->num, 20.0);
		spans++;
	}
	assert_eq(spans, 4u, "one thread run per raise, 1 ms apart");
	json_free(j);
	free(text);
	result_free(&r);
}

/* ---- a --seed run's verdict and output are not the wall clock's ---- */

/* Twenty presses: more output than a one-page pipe holds. */
static char *presses_text(void)
{
	static char text[512];

	text[0] = '\0';
	for (int i = 0; i < 20; i++)
		strcat(text, "hold 5ms\nwait 10ms\n");
	return text;
}

/* Whether pid has ended, leaving it to be reaped. */
static bool ended(pid_t pid)
{
	siginfo_t si = { 0 };

	assert_eq(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT), 0);
	return si.si_pid == pid;
}

/*
 * The same seeded run with its stdout a one-page pipe that nobody reads
 * until it is full: the run does not wait for its reader - it has ended
 * (its trace file is written) before its output fills the pipe - and its
 * output, stderr and exit status are the file run's, byte for byte.
 * Before, the live lines were written as they came: the task writing one
 * blocked on the full pipe holding the scheduler's token, the run stood
 * still (the stall check would have failed it after 10 s of that, the
 * --timeout after the scenario's time + 30 s) and the trace was empty.
 */
UIRQ_TEST(irqsim, seeded_run_does_not_wait_for_its_reader, .timeout = 120)
{
	char trace[] = "/tmp/irqsim-traceXXXXXX", errp[] = "/tmp/irqsim-errXXXXXX", path[] = "/tmp/irqsim-scXXXXXX";
	const char *args[] = { "--seed", "7", "--trace", trace, "--scenario", path, NULL };
	int fd = mkstemp(trace), fe = mkstemp(errp), p[2], cap, queued = 0, st;
	struct result file;
	char *want_trace, *got_trace, *out;
	size_t len = 0, size = 1 << 16;
	pid_t pid;

	assert_ge(fd, 0);
	assert_ge(fe, 0);
	close(fd);
	/* One scenario file for both runs: its name is in the output. */
	scenario_file(path, presses_text());
	file = run(args);
	want_trace = slurp(trace);
	assert_eq(pipe(p), 0);
	cap = fcntl(p[1], F_SETPIPE_SZ, 4096);
	assert_ge(cap, 4096);
	printf("# pipe of %d bytes, %zu bytes of output\n", cap, strlen(file.out));
	assert_gt(strlen(file.out), (size_t)cap, "the output must fill the pipe");
	truncate(trace, 0);
	pid = spawn(args, p[1], -1, fe);
	close(p[1]);
	/* Full: no room left for another line (a write that does not fit in the one page waits whole). */
	while (queued <= cap - 512 && !ended(pid)) {
		assert_eq(ioctl(p[0], FIONREAD, &queued), 0);
		usleep(10000);
	}
	got_trace = slurp(trace);
	printf("# pipe full: %d bytes queued; the trace file has %zu bytes (the file run's %zu)\n", queued,
	       strlen(got_trace), strlen(want_trace));
	assert_str_eq(got_trace, want_trace, "the run waited for its reader");
	out = malloc(size);
	assert_not_null(out);
	for (ssize_t n; (n = read(p[0], out + len, size - len - 1)) > 0;) {
		len += (size_t)n;
		assert_lt(len, size - 1);
	}
	out[len] = '\0';
	close(p[0]);
	assert_eq(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st), "killed by a signal");
	printf("# exit %d (the file run's %d)\n", WEXITSTATUS(st), file.status);
	assert_eq(WEXITSTATUS(st), file.status);
	assert_eq(file.status, 0, "stderr:\n%s", file.err);
	assert_str_eq(out, file.out);
	free(got_trace);
	got_trace = slurp(errp);
	assert_str_eq(got_trace, file.err);
	close(fe);
	unlink(errp);
	unlink(trace);
	unlink(path);
	free(got_trace);
	free(want_trace);
	free(out);
	result_free(&file);
}

/* Whether pid has started its CPUs (a thread "uirq/cpu0"): the run is under way. */
static bool cpus_started(pid_t pid)
{
	char path[64], comm[32];
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	for (struct dirent *de; d && !found && (de = readdir(d));) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/comm", (int)pid, de->d_name);
		f = fopen(path, "r");
		if (f) {
			found = fgets(comm, sizeof(comm), f) && !strncmp(comm, "uirq/cpu0", 9);
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * The same seeded run stopped for 2 s while it runs (SIGSTOP, as Ctrl-Z
 * or a debugger stops it) then continued: the same output, stderr and
 * exit status, byte for byte.  A storm makes the run last long enough in
 * wall time to be stopped in the middle.
 */
UIRQ_TEST(irqsim, seeded_run_stopped_and_continued_keeps_its_verdict, .timeout = 120)
{
	char outp[] = "/tmp/irqsim-outXXXXXX", errp[] = "/tmp/irqsim-errXXXXXX", path[] = "/tmp/irqsim-scXXXXXX";
	const char *args[] = { "--seed", "9", "--scenario", path, NULL };
	const char *text = "storm 13 20000\nhold 5ms\nwait 10ms\nhold 10ms\nwait 10ms\n";
	struct result plain, stopped;
	int fo, fe;
	pid_t pid;

	scenario_file(path, text);
	plain = run(args);
	fo = mkstemp(outp);
	fe = mkstemp(errp);
	assert_ge(fo, 0);
	assert_ge(fe, 0);
	pid = spawn(args, OUT_CAPTURE, fo, fe);
	while (!cpus_started(pid) && !ended(pid))
		usleep(1000);
	printf("# stopped %s\n", ended(pid) ? "after the run (it ended first)" : "while it ran");
	assert_eq(kill(pid, SIGSTOP), 0);
	sleep(2);
	assert_eq(kill(pid, SIGCONT), 0);
	stopped = reap(pid, outp, fo, errp, fe);
	unlink(path);
	printf("# exit %d (unstopped %d)\n", stopped.status, plain.status);
	assert_eq(plain.status, 0, "stderr:\n%s", plain.err);
	assert_eq(stopped.status, plain.status, "stderr:\n%s", stopped.err);
	assert_str_eq(stopped.out, plain.out);
	assert_str_eq(stopped.err, plain.err);
	result_free(&plain);
	result_free(&stopped);
}

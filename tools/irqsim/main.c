// SPDX-License-Identifier: MIT
/*
 * irqsim: boot the default board (TWL4030 behind i2c, its INT1 on host line
 * 7), probe the TWL4030 drivers, press the power button as a scenario says,
 * and show what the kernel would show.  Options only; the work is in
 * run.c, the output in report.c, json.c and trace.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers.h"
#include "explore.h"
#include "irqsim.h"
#include "schedule.h"
#include "uirq/irq.h"
#include "watchdog.h"
#include "../self-path.h"
#include "../sim-strategy.h"


static void usage(FILE *f)
{
	fprintf(f,
		"usage: irqsim [options]\n"
		"Boot the default board (TWL4030 on a simulated i2c bus, INT1 on host line 7),\n"
		"probe twl4030-irq and twl4030-pwrbutton, run a scenario of button presses and\n"
		"print the events as evtest does, /proc/interrupts, latencies and lockdep's verdict.\n"
		"\n"
		"  --scenario FILE|NAME  run the scenario in FILE, or the built-in NAME (default: default)\n"
		"  --list-scenarios      list the built-in scenarios\n"
		"  --print-scenario NAME print a built-in scenario's text (an example of the format)\n"
		"  --legacy              the 2009 seed patch's pwrbutton (reports a sleep in hard-irq context;\n"
		"                        exits 1 by design)\n"
		"  --drivers own|upstream the project's TWL4030 drivers (default) or the kernel's unmodified\n"
		"                        twl4030-irq.c and twl4030-pwrbutton.c (a build with -Dupstream=enabled)\n"
		"  --threadirqs          forced threading of primary handlers (the threadirqs boot option)\n"
		"  --wait MODE           how the uirq CPUs and handler threads wait: " TOOL_WAIT_HELP "\n"
		"                        (in a seeded run a poll is a scheduling point)\n"
		"  --bus-speed HZ        i2c bus speed: 100k, 400k, 2.6M, ... up to 3.4M (default 2.6M)\n"
		"  --cpus N              uirq CPUs taking interrupts (default 1)\n"
		"  --trace FILE          write a Chrome trace-event JSON (open it in ui.perfetto.dev)\n"
		"  --json                print a JSON summary on stdout instead of the human output\n"
		"  --timeout SECONDS     bound the whole run (default: the scenario's time + 30 s)\n"
		"  --seed N              the deterministic mode: uirq's tasks one at a time under a scheduler\n"
		"                        seeded with N (decimal or 0x-hex), virtual time; one seed, one run\n"
		"  --strategy S          the seeded scheduler: random, pct or pct:D (depth D 1..64; default pct:3)\n"
		"  --explore N           run N seeds (from --seed, default 0) in child processes, print the\n"
		"                        failing ones with the command that replays each, then the coverage\n"
		"  --shrink SEED         from a failing seed, the schedule with the fewest preemptions that\n"
		"                        still fails alike: written to --schedule-out (default\n"
		"                        irqsim-seed-SEED.schedule), and the interleaving printed\n"
		"  --replay FILE         run the schedule in FILE (from --schedule-out or --shrink)\n"
		"  --schedule-out FILE   write a --seed or --replay run's schedule to FILE\n"
		"  --lockdep-demo        run the ABBA demonstration under uirq-lockdep instead\n"
		"  --help                this text\n"
		"Exit status: 0 clean, 1 a lockdep or might_sleep report, the watchdog fired, an output\n"
		"could not be written or (--explore) a seed failed, 2 bad usage or scenario, 130 stopped by\n"
		"SIGINT (143 SIGTERM) after printing the summary so far; --replay of a schedule that is not\n"
		"this run's: 2.  See irqsim(1): man -l docs/irqsim.1 in the source tree.\n");
}

static void list_scenarios(void)
{
	for (size_t i = 0; i < sc_nr_builtins; i++)
		printf("%-14s %s\n", sc_builtins[i].name, sc_builtins[i].summary);
}

/*
 * "400000", "400k", "2.6M", "2600000Hz": decimal digits, a fraction only
 * before a k or M suffix, and a whole number of hertz.  strtod() would also
 * take "nan", "1e6" and "0x100000", which no bus speed is written as.
 */
static int parse_hz(const char *s, unsigned long *hz)
{
	unsigned long long whole = 0, frac = 0, scale = 1, mult = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (unsigned long long)(*p - '0');
		if (whole > UIRQ_I2C_SPEED_HS)
			return -1;
	}
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale >= 1000000)
				return -1;
			frac = frac * 10 + (unsigned long long)(*p - '0');
			scale *= 10;
		}
	}
	if (*p == 'k' || *p == 'K')
		mult = 1000, p++;
	else if (*p == 'M')
		mult = 1000000, p++;
	if (!strcmp(p, "Hz"))
		p += 2;
	/* 1000.5 and 1.0005k are not a whole number of hertz */
	if (*p || (frac * mult) % scale)
		return -1;
	whole = whole * mult + frac * mult / scale;
	if (whole < 1000 || whole > UIRQ_I2C_SPEED_HS)
		return -1;
	*hz = (unsigned long)whole;
	return 0;
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "irqsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'irqsim --help'.\n");
	return IRQSIM_EXIT_USAGE;
}

/*
 * The installed runner and example next to an installed irqsim, else the
 * build tree's next to a built one (both found from irqsim's own folder).
 */
static int lockdep_demo(void)
{
	char runner[4096], abba[4096];

	if (!self_path(IRQSIM_INSTALLED_RUNNER, true, runner, sizeof(runner)) ||
	    !self_path(IRQSIM_INSTALLED_ABBA, true, abba, sizeof(abba))) {
		if (!self_path(IRQSIM_BUILD_RUNNER, true, runner, sizeof(runner)) ||
		    !self_path(IRQSIM_BUILD_ABBA, true, abba, sizeof(abba))) {
			fprintf(stderr, "irqsim: --lockdep-demo needs uirq-lockdep and its example, installed or built "
				"(-Dlockdep=true); not found: %s, %s\n", runner, abba);
			return IRQSIM_EXIT_USAGE;
		}
	}
	char *const argv[] = { runner, abba, NULL };

	execv(argv[0], argv);
	fprintf(stderr, "irqsim: cannot run %s %s: %s\n", argv[0], argv[1], strerror(errno));
	return IRQSIM_EXIT_USAGE;
}

static sigset_t stop_signals;

/*
 * SIGINT and SIGTERM are blocked in every thread and taken here: the first
 * stops the scenario at its next action (run.c), so the summary so far is
 * printed and the trace file finished; a second one ends the process at once.
 */
static void *signal_main(void *arg)
{
	int sig;

	(void)arg;
	for (;;) {
		if (sigwait(&stop_signals, &sig))
			continue;
		if (!atomic_load(&irqsim_stop_signal)) {
			fprintf(stderr, "irqsim: %s: stopping the scenario; the summary so far follows (again to quit at once)\n",
				sig == SIGTERM ? "SIGTERM" : "SIGINT");
			atomic_store(&irqsim_stop_signal, sig);
			continue;
		}
		_exit(128 + sig);
	}
	return NULL;
}

/* A file if one is there, else a built-in name. */
static int load_scenario(const char *arg, struct scenario *sc)
{
	const struct sc_builtin *b;
	struct stat st;
	char err[512];

	if (stat(arg, &st) == 0 || strchr(arg, '/') || !(b = scenario_builtin(arg))) {
		if (scenario_load(arg, sc, err, sizeof(err))) {
			fprintf(stderr, "irqsim: %s\n", err);
			if (!strchr(arg, '/') && stat(arg, &st) != 0)
				fprintf(stderr, "irqsim: (nor is it a built-in scenario; see --list-scenarios)\n");
			return -1;
		}
		return 0;
	}
	if (scenario_parse(b->name, b->text, sc, err, sizeof(err))) {
		fprintf(stderr, "irqsim: built-in %s\n", err);
		return -1;
	}
	return 0;
}

static void run_free(struct irqsim_run *r)
{
	for (size_t i = 0; i < r->reports.n; i++) {
		free(VEC_AT(&r->reports, struct sim_report, i)->headline);
		free(VEC_AT(&r->reports, struct sim_report, i)->text);
	}
	for (size_t i = 0; i < r->logs.n; i++)
		free(VEC_AT(&r->logs, struct sim_log, i)->msg);
	for (size_t i = 0; i < r->lines.n; i++)
		free(VEC_AT(&r->lines, struct sim_line_result, i)->spurious);
	vec_free(&r->edges);
	vec_free(&r->events);
	vec_free(&r->xfers);
	vec_free(&r->reports);
	vec_free(&r->logs);
	vec_free(&r->lines);
	vec_free(&r->threads);
	vec_free(&r->irqcounts);
	vec_free(&r->unbound);
	free(r->proc_interrupts);
	scenario_free(&r->sc);
}

/* The seed options' combinations with each other and with the rest. */
static int seed_usage(struct irqsim_opts *o, bool strategy_given, bool demo)
{
	char first[24];

	if (o->replay_file && (o->seeded || strategy_given || o->explore || o->shrink))
		return bad("%s", "--replay runs the schedule in its file: not with --seed, --strategy, --explore or --shrink");
	if (o->shrink && (o->explore || o->trace_file))
		return bad("%s", "--shrink runs one seed many times: not with --explore or --trace (replay the result "
			   "with --replay FILE --trace FILE)");
	if (o->shrink && o->seeded)
		return bad("%s", "--shrink SEED names the seed: not with --seed");
	if (o->schedule_out && (o->explore || !(o->seeded || o->replay_file || o->shrink)))
		return bad("%s", "--schedule-out writes one seeded run's schedule: with --seed, --replay or --shrink");
	if (o->result_fd >= 0 && !(o->seeded || o->replay_file))
		return bad("%s", "--result-fd needs --seed or --replay");
	if (o->explore || o->shrink)
		o->seeded = true;
	if (o->replay_file) {
		o->seeded = true;
		o->strategy = UIRQ_SIM_REPLAY;
	}
	if (strategy_given && !o->seeded)
		return bad("%s", "--strategy needs --seed, --explore or --shrink");
	if (demo && o->seeded)
		return bad("%s", "--lockdep-demo runs no scenario: it takes no --seed, --strategy or --explore");
	if (o->explore && o->trace_file)
		return bad("%s", "--trace writes one run's trace and --explore makes many runs: "
			   "replay the seed you want with --seed N --trace FILE");
	if (o->explore && o->seed > UINT64_MAX - (o->explore - 1)) {
		snprintf(first, sizeof(first), "%" PRIu64, o->seed);
		return bad("--explore: the seeds from --seed %s on go past 2^64-1", first);
	}
	return 0;
}

/*
 * The command line into o, keeping in o->argv the words of every option
 * but the seed's three, as the user wrote them (the replay command).
 * -1 to go on with a run; else irqsim's exit status (usage, --help, ...).
 */
static int parse_args(int argc, char **argv, struct irqsim_opts *o)
{
	enum { O_SCENARIO = 256, O_LIST, O_PRINT, O_LEGACY, O_DRIVERS, O_THREADIRQS, O_BUS, O_CPUS, O_TRACE,
	       O_JSON, O_TIMEOUT, O_SEED, O_STRATEGY, O_EXPLORE, O_DEMO, O_HELP, O_SHRINK, O_REPLAY, O_SCHEDULE_OUT,
	       O_RESULT_FD, O_WAIT };
	static const struct option longopts[] = {
		{ "scenario", required_argument, NULL, O_SCENARIO },
		{ "list-scenarios", no_argument, NULL, O_LIST },
		{ "print-scenario", required_argument, NULL, O_PRINT },
		{ "legacy", no_argument, NULL, O_LEGACY },
		{ "drivers", required_argument, NULL, O_DRIVERS },
		{ "threadirqs", no_argument, NULL, O_THREADIRQS },
		{ "wait", required_argument, NULL, O_WAIT },
		{ "bus-speed", required_argument, NULL, O_BUS },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "trace", required_argument, NULL, O_TRACE },
		{ "json", no_argument, NULL, O_JSON },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "seed", required_argument, NULL, O_SEED },
		{ "strategy", required_argument, NULL, O_STRATEGY },
		{ "explore", required_argument, NULL, O_EXPLORE },
		{ "lockdep-demo", no_argument, NULL, O_DEMO },
		{ "shrink", required_argument, NULL, O_SHRINK },
		{ "replay", required_argument, NULL, O_REPLAY },
		{ "schedule-out", required_argument, NULL, O_SCHEDULE_OUT },
		/* Not in --help: how --explore and --shrink hear from their children (schedule.c). */
		{ "result-fd", required_argument, NULL, O_RESULT_FD },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	const struct sc_builtin *b;
	bool demo = false, strategy_given = false;
	const char *drivers = "own";
	uint64_t n;
	char *end;
	int opt, at;

	o->argv[o->argc++] = argv[0];
	opterr = 0;
	for (;;) {
		at = optind;
		opt = getopt_long(argc, argv, "h", longopts, NULL);
		if (opt == -1)
			break;
		switch (opt) {
		case O_SCENARIO:
			o->scenario_file = optarg;
			break;
		case O_LIST:
			list_scenarios();
			return 0;
		case O_PRINT:
			b = scenario_builtin(optarg);
			if (!b)
				return bad("no built-in scenario '%s' (see --list-scenarios)", optarg);
			fputs(b->text, stdout);
			return 0;
		case O_LEGACY:
			o->legacy = true;
			break;
		case O_DRIVERS:
			drivers = optarg;
			break;
		case O_THREADIRQS:
			o->threadirqs = true;
			break;
		case O_WAIT:
			if (tool_wait_parse(optarg, &o->wait))
				return bad("--wait: expected " TOOL_WAIT_HELP ", got '%s'", optarg);
			break;
		case O_BUS:
			if (parse_hz(optarg, &o->bus_hz))
				return bad("--bus-speed: expected a whole number of hertz from 1000 to 3400000, "
					   "or with a k or M suffix (400k, 2.6M), got '%s'", optarg);
			break;
		case O_CPUS: {
			unsigned long c = strtoul(optarg, &end, 10);

			if (*optarg < '0' || *optarg > '9' || *end || c < 1 || c > UIRQ_MAX_CPUS)
				return bad("--cpus: expected 1 to 64, got '%s'", optarg);
			o->cpus = (unsigned int)c;
			break;
		}
		case O_TRACE:
			o->trace_file = optarg;
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_TIMEOUT:
			o->timeout_s = strtod(optarg, &end);
			if (end == optarg || *end || !(o->timeout_s > 0 && o->timeout_s <= 3600))
				return bad("--timeout: expected seconds from 0 to 3600, got '%s'", optarg);
			break;
		case O_SEED:
			if (tool_parse_u64(optarg, &o->seed))
				return bad("--seed: expected an unsigned 64-bit number, decimal or 0x-hex, got '%s'", optarg);
			o->seeded = true;
			break;
		case O_STRATEGY:
			if (sim_strategy_parse(optarg, &o->strategy, &o->pct_depth))
				return bad("--strategy: expected random, pct or pct:D with D from 1 to 64, got '%s'", optarg);
			strategy_given = true;
			break;
		case O_EXPLORE:
			if (tool_parse_u64(optarg, &n) || n < 1 || n > 1000000)
				return bad("--explore: expected a number of seeds from 1 to 1000000, got '%s'", optarg);
			o->explore = (unsigned long)n;
			break;
		case O_DEMO:
			demo = true;
			break;
		case O_SHRINK:
			if (tool_parse_u64(optarg, &o->seed))
				return bad("--shrink: expected a seed, an unsigned 64-bit number, decimal or 0x-hex, got '%s'",
					   optarg);
			o->shrink = true;
			break;
		case O_REPLAY:
			o->replay_file = optarg;
			break;
		case O_SCHEDULE_OUT:
			o->schedule_out = optarg;
			o->schedule_stacks = true;
			break;
		case O_RESULT_FD:
			if (tool_parse_u64(optarg, &n) || n > 1023 || fcntl((int)n, F_GETFD) < 0)
				return bad("--result-fd: expected an open file descriptor, got '%s'", optarg);
			o->result_fd = (int)n;
			break;
		case 'h':
		case O_HELP:
			usage(stdout);
			return 0;
		default:
			return bad("unknown option or missing argument: '%s'", argv[optind - 1]);
		}
		/* Words of other options only (non-options, which getopt moves about, are refused below). */
		if (opt != O_SEED && opt != O_STRATEGY && opt != O_EXPLORE && opt != O_SHRINK && opt != O_REPLAY &&
		    opt != O_SCHEDULE_OUT && opt != O_RESULT_FD)
			while (at < optind)
				o->argv[o->argc++] = argv[at++];
	}
	if (optind < argc)
		return bad("unexpected argument '%s'", argv[optind]);
	if (seed_usage(o, strategy_given, demo))
		return IRQSIM_EXIT_USAGE;
	if (demo)
		return lockdep_demo();
	if (o->legacy && strcmp(drivers, "own"))
		return bad("--legacy is the project's 2009 form of the pwrbutton: not with --drivers %s", drivers);
	if (irqsim_drivers_get(drivers, &o->drivers))
		return IRQSIM_EXIT_USAGE;
	return -1;
}

/* --timeout bounds everything from here, reading the scenario included (a FIFO may never be written). */
static int read_scenario(struct irqsim_run *r, struct watchdog *wd)
{
	r->wd = wd;
	watchdog_start(wd, r, r->opts->timeout_s);
	watchdog_phase(wd, "reading the scenario", 0, 0);
	return load_scenario(r->opts->scenario_file ? r->opts->scenario_file : r->opts->builtin, &r->sc);
}

/* The output is the product: one that did not reach its file (a full disk, a closed pipe) is a failure. */
static int finish(int status)
{
	int err = out_error();

	if (err) {
		fprintf(stderr, "irqsim: writing the output failed: %s\n", strerror(err));
		if (status == IRQSIM_EXIT_CLEAN)
			status = IRQSIM_EXIT_PROBLEMS;
	}
	return status;
}

/*
 * --explore, --shrink: the scenario is read once here, so that a bad one is
 * one usage error rather than as many failing seeds; the runs are
 * explore.c's and shrink.c's.
 */
static int explore_scenario(const struct irqsim_opts *o)
{
	struct irqsim_run r = { .opts = o };
	struct watchdog wd;
	int err = read_scenario(&r, &wd);

	/* Stopped before explore_run(): it must be the only thread to take the signals it blocks. */
	watchdog_stop(&wd);
	if (err)
		return IRQSIM_EXIT_USAGE;
	scenario_free(&r.sc);
	return finish(o->shrink ? shrink_run(o) : explore_run(o));
}

/* --replay FILE: read before anything runs; a file that is not a schedule is a usage error. */
static int load_replay(struct irqsim_opts *o, struct irqsim_schedule *s)
{
	char err[512];
	int e;

	if (schedule_read(o->replay_file, s, err, sizeof(err))) {
		fprintf(stderr, "irqsim: --replay %s\n", err);
		return IRQSIM_EXIT_USAGE;
	}
	e = uirq_sim_set_schedule(s->p, s->n, s->has_end ? UIRQ_SIM_SCHEDULE_STRICT : UIRQ_SIM_SCHEDULE_LOOSE);
	if (e) {
		fprintf(stderr, "irqsim: --replay %s: %s\n", o->replay_file, strerror(-e));
		schedule_free(s);
		return IRQSIM_EXIT_USAGE;
	}
	o->replay = s;
	return -1;
}

static int run_scenario(const struct irqsim_opts *o)
{
	struct irqsim_run r = { .opts = o };
	struct watchdog wd;
	pthread_t sig_thread;
	int status, err;

	/* Before any thread: every thread of the run keeps them blocked; the signal thread takes them. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
	if (pthread_create(&sig_thread, NULL, signal_main, NULL)) {
		fprintf(stderr, "irqsim: cannot start the signal thread\n");
		return IRQSIM_EXIT_PROBLEMS;
	}
	if (read_scenario(&r, &wd)) {
		watchdog_stop(&wd);
		return IRQSIM_EXIT_USAGE;
	}
	/* Before the run, not after it: a path that cannot be written fails before anything runs. */
	if (o->trace_file && (err = trace_open(o->trace_file))) {
		fprintf(stderr, "irqsim: --trace %s: %s\n", o->trace_file, strerror(-err));
		watchdog_stop(&wd);
		scenario_free(&r.sc);
		return IRQSIM_EXIT_PROBLEMS;
	}
	if (!o->timeout_s)
		watchdog_set_timeout(&wd, (double)r.sc.planned_ns / 1e9 + 30.0);
	vec_init(&r.edges, sizeof(struct sim_edge));
	vec_init(&r.events, sizeof(struct sim_event));
	vec_init(&r.xfers, sizeof(struct sim_xfer));
	vec_init(&r.reports, sizeof(struct sim_report));
	vec_init(&r.logs, sizeof(struct sim_log));
	vec_init(&r.lines, sizeof(struct sim_line_result));
	vec_init(&r.threads, sizeof(struct sim_thread));
	vec_init(&r.irqcounts, sizeof(struct sim_irqcount));
	vec_init(&r.unbound, sizeof(struct sim_unbound));

	irqsim_run(&r);
	/*
	 * The output is written once the watchdog has stopped: a reader that
	 * takes its time (or a stopped one) delays it, and cannot fail the run.
	 */
	watchdog_stop(&wd);
	if (o->trace_file && (err = trace_finish(&r))) {
		fprintf(stderr, "irqsim: --trace %s: %s\n", o->trace_file, strerror(-err));
		r.output_failed = true;
	}
	out_release();
	if (r.stopped_line)
		fprintf(stderr, "irqsim: stopped at %s:%u by %s\n", r.sc.name, r.stopped_line, irqsim_stop_cause());
	status = irqsim_verdict(&r);
	if (o->json)
		json_print(stdout, &r, status);
	else if (!r.setup_failed)
		report_print(stdout, &r);
	/* Its schedule and outcome written, a --replay run checked against its file (schedule.c). */
	if (o->seeded)
		status = schedule_finish(&r, status);
	/* A failing seed is worth its replay command (not a run the user stopped). */
	if (o->seeded && status == IRQSIM_EXIT_PROBLEMS && !r.stopped_line) {
		if (o->replay_file)
			fprintf(stderr, "irqsim: the schedule %s failed; ", o->replay_file);
		else
			fprintf(stderr, "irqsim: seed %" PRIu64 " failed; ", o->seed);
		irqsim_print_replay(stderr, o);
	}
	run_free(&r);
	return finish(status);
}

/*
 * The deterministic mode's freed memory is to read as a pattern (run.c,
 * seeded_memory(): M_PERTURB), but glibc's per-thread cache takes every
 * free of up to 1032 bytes - a driver's state, an input device - before
 * the pattern is written, so a use after free of one reads its old values
 * and passes unseen.  The cache can only be turned off by the environment
 * glibc reads at startup: a seeded run sets it and starts itself again
 * (the same argv; --explore's children inherit it).  Not under ASan (its
 * allocator, its reports), nor under Valgrind (its allocator, its reports;
 * the exec would leave it, it does not follow children).
 */
static void seeded_malloc(char **argv)
{
	static const char tunable[] = "glibc.malloc.tcache_count=0";
	const char *old = getenv("GLIBC_TUNABLES"), *preload = getenv("LD_PRELOAD");
	char *val;

#if defined(__SANITIZE_ADDRESS__)
	return;
#endif
	if ((old && strstr(old, tunable)) || (preload && strstr(preload, "vgpreload")))
		return;
	if (asprintf(&val, "%s%s%s", old ? old : "", old && *old ? ":" : "", tunable) < 0)
		return;
	if (!setenv("GLIBC_TUNABLES", val, 1)) {
		fflush(NULL);
		execv("/proc/self/exe", argv);
		/* Not started again: the pattern covers larger frees only. */
		unsetenv("GLIBC_TUNABLES");
		if (old)
			setenv("GLIBC_TUNABLES", old, 1);
	}
	free(val);
}

int main(int argc, char **argv)
{
	struct irqsim_opts o = { .builtin = "default", .cpus = 1, .strategy = UIRQ_SIM_PCT, .pct_depth = 3,
				 .result_fd = -1 };
	struct irqsim_schedule replay = { 0 };
	int status;

	/* A closed stdout would hand descriptor 1 to the next file opened (the trace) and lose the output. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		fprintf(stderr, "irqsim: standard output is closed; nothing could be reported\n");
		return IRQSIM_EXIT_PROBLEMS;
	}
	o.argv = calloc((size_t)argc + 1, sizeof(*o.argv));
	if (!o.argv) {
		fprintf(stderr, "irqsim: out of memory\n");
		return IRQSIM_EXIT_PROBLEMS;
	}
	status = parse_args(argc, argv, &o);
	if (status < 0) {
		/*
		 * A reader that goes away (| head) is a failed write, which stops
		 * the run and finishes the trace (out_flush(), finish()), not a
		 * death by SIGPIPE.  Not before parse_args(): --lockdep-demo execs
		 * a program that keeps its own SIGPIPE.
		 */
		signal(SIGPIPE, SIG_IGN);
		if (o.seeded || o.replay_file || o.explore || o.shrink)
			seeded_malloc(argv);
		if (o.replay_file)
			status = load_replay(&o, &replay);
		/* Where each preemption happened: a backtrace at every decision, for a person's copy only. */
		uirq_sim_set_record(o.schedule_out != NULL);
		uirq_sim_set_record_stacks(o.schedule_out && o.schedule_stacks);
		if (status < 0)
			status = o.explore || o.shrink ? explore_scenario(&o) : run_scenario(&o);
	}
	schedule_free(&replay);
	free(o.argv);
	return status;
}

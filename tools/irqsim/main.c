// SPDX-License-Identifier: MIT
/*
 * irqsim: boot the default board (TWL4030 behind i2c, its INT1 on host line
 * 7), probe the TWL4030 drivers, press the power button as a scenario says,
 * and show what the kernel would show.  Options only; the work is in
 * run.c, the output in report.c, json.c and trace.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "irqsim.h"
#include "uirq/irq.h"

#ifndef IRQSIM_LOCKDEP_RUNNER
#define IRQSIM_LOCKDEP_RUNNER "uirq-lockdep"
#endif
#ifndef IRQSIM_ABBA_EXAMPLE
#define IRQSIM_ABBA_EXAMPLE "abba"
#endif

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
		"  --threadirqs          forced threading of primary handlers (the threadirqs boot option)\n"
		"  --bus-speed HZ        i2c bus speed: 100k, 400k, 2.6M, ... up to 3.4M (default 2.6M)\n"
		"  --cpus N              uirq CPUs taking interrupts (default 1)\n"
		"  --trace FILE          write a Chrome trace-event JSON (open it in ui.perfetto.dev)\n"
		"  --json                print a JSON summary on stdout instead of the human output\n"
		"  --timeout SECONDS     bound the whole run (default: the scenario's time + 30 s)\n"
		"  --lockdep-demo        run the ABBA demonstration under uirq-lockdep instead\n"
		"  --help                this text\n"
		"Exit status: 0 clean, 1 a lockdep or might_sleep report (or the watchdog fired),\n"
		"2 bad usage or scenario.  See README.md, section irqsim.\n");
}

static void list_scenarios(void)
{
	for (size_t i = 0; i < sc_nr_builtins; i++)
		printf("%-14s %s\n", sc_builtins[i].name, sc_builtins[i].summary);
}

/* "400000", "400k", "2.6M", "2600000Hz" */
static int parse_hz(const char *s, unsigned long *hz)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v <= 0)
		return -1;
	if (*end == 'k' || *end == 'K')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	if (!strcmp(end, "Hz"))
		end += 2;
	if (*end || v < 1000 || v > UIRQ_I2C_SPEED_HS)
		return -1;
	*hz = (unsigned long)(v + 0.5);
	return 0;
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "irqsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'irqsim --help'.\n");
	return IRQSIM_EXIT_USAGE;
}

static int lockdep_demo(void)
{
	char *const argv[] = { (char *)IRQSIM_LOCKDEP_RUNNER, (char *)IRQSIM_ABBA_EXAMPLE, NULL };

	execv(argv[0], argv);
	fprintf(stderr, "irqsim: cannot run %s %s: %s (built with -Dlockdep=true?)\n", argv[0], argv[1],
		strerror(errno));
	return IRQSIM_EXIT_USAGE;
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
	free(r->proc_interrupts);
	scenario_free(&r->sc);
}

int main(int argc, char **argv)
{
	enum { O_SCENARIO = 256, O_LIST, O_PRINT, O_LEGACY, O_THREADIRQS, O_BUS, O_CPUS, O_TRACE, O_JSON,
	       O_TIMEOUT, O_DEMO, O_HELP };
	static const struct option longopts[] = {
		{ "scenario", required_argument, NULL, O_SCENARIO },
		{ "list-scenarios", no_argument, NULL, O_LIST },
		{ "print-scenario", required_argument, NULL, O_PRINT },
		{ "legacy", no_argument, NULL, O_LEGACY },
		{ "threadirqs", no_argument, NULL, O_THREADIRQS },
		{ "bus-speed", required_argument, NULL, O_BUS },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "trace", required_argument, NULL, O_TRACE },
		{ "json", no_argument, NULL, O_JSON },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "lockdep-demo", no_argument, NULL, O_DEMO },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct irqsim_opts o = { .builtin = "default", .cpus = 1 };
	struct irqsim_run r = { .opts = &o };
	const struct sc_builtin *b;
	char *end;
	int opt, status;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case O_SCENARIO:
			o.scenario_file = optarg;
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
			o.legacy = true;
			break;
		case O_THREADIRQS:
			o.threadirqs = true;
			break;
		case O_BUS:
			if (parse_hz(optarg, &o.bus_hz))
				return bad("--bus-speed: expected a speed from 1k to 3.4M (Hz), got '%s'", optarg);
			break;
		case O_CPUS: {
			unsigned long n = strtoul(optarg, &end, 10);

			if (*optarg < '0' || *optarg > '9' || *end || n < 1 || n > UIRQ_MAX_CPUS)
				return bad("--cpus: expected 1 to 64, got '%s'", optarg);
			o.cpus = (unsigned int)n;
			break;
		}
		case O_TRACE:
			o.trace_file = optarg;
			break;
		case O_JSON:
			o.json = true;
			break;
		case O_TIMEOUT:
			o.timeout_s = strtod(optarg, &end);
			if (end == optarg || *end || !(o.timeout_s > 0 && o.timeout_s <= 3600))
				return bad("--timeout: expected seconds from 0 to 3600, got '%s'", optarg);
			break;
		case O_DEMO:
			return lockdep_demo();
		case 'h':
		case O_HELP:
			usage(stdout);
			return 0;
		default:
			return bad("unknown option or missing argument: '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s'", argv[optind]);
	if (load_scenario(o.scenario_file ? o.scenario_file : o.builtin, &r.sc))
		return IRQSIM_EXIT_USAGE;
	if (!o.timeout_s)
		o.timeout_s = (double)r.sc.planned_ns / 1e9 + 30.0;
	vec_init(&r.edges, sizeof(struct sim_edge));
	vec_init(&r.events, sizeof(struct sim_event));
	vec_init(&r.xfers, sizeof(struct sim_xfer));
	vec_init(&r.reports, sizeof(struct sim_report));
	vec_init(&r.logs, sizeof(struct sim_log));
	vec_init(&r.lines, sizeof(struct sim_line_result));
	vec_init(&r.threads, sizeof(struct sim_thread));
	vec_init(&r.irqcounts, sizeof(struct sim_irqcount));

	irqsim_run(&r);
	if (o.json)
		json_print(stdout, &r);
	else if (!r.setup_failed)
		report_print(stdout, &r);
	status = irqsim_verdict(&r);
	run_free(&r);
	return status;
}

// SPDX-License-Identifier: MIT
/*
 * The human output: evtest lines and a dmesg-like log while the scenario
 * runs, and at the end what an engineer would look at on a board -
 * /proc/interrupts, the irq threads, how the edges were delivered, how long
 * they took, and lockdep's verdict.
 */
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include <linux/input-event-codes.h>

#include "../sim-strategy.h"
#include "drivers.h"
#include "irqsim.h"
#include "uirq/input.h"

/* Seconds.microseconds since the board came up, as the kernel stamps since boot. */
static void rel_time(const struct irqsim_run *r, uint64_t t, long *sec, long *usec)
{
	uint64_t d = t >= r->t0_ns ? t - r->t0_ns : 0;

	*sec = (long)(d / 1000000000u);
	*usec = (long)(d % 1000000000u / 1000u);
}

void report_event_line(const struct irqsim_run *r, const struct sim_event *ev)
{
	struct uirq_input_event e = { .type = ev->type, .code = ev->code, .value = ev->value };
	char line[160];
	long sec, usec;

	rel_time(r, ev->t_ns, &sec, &usec);
	e.time.tv_sec = sec;
	e.time.tv_usec = usec;
	uirq_input_format_event(&e, line, sizeof(line));
	out_printf(stdout, "%s\n", line);
}

void report_log_line(const struct irqsim_run *r, uint64_t t_ns, const char *msg)
{
	size_t n = strlen(msg);
	long sec, usec;

	rel_time(r, t_ns, &sec, &usec);
	out_printf(stdout, "[%5ld.%06ld] %.*s\n", sec, usec, (int)(n && msg[n - 1] == '\n' ? n - 1 : n), msg);
}

static void print_threads(FILE *f, const struct irqsim_run *r)
{
	fprintf(f, "\n  TID COMMAND\n");
	for (size_t i = 0; i < r->threads.n; i++) {
		const struct sim_thread *t = VEC_AT(&r->threads, struct sim_thread, i);

		if (!strncmp(t->name, "irq/", 4) || !strncmp(t->name, "uirq/", 5))
			fprintf(f, "%5d %s\n", t->tid, t->name);
	}
}

static void print_lines(FILE *f, const struct irqsim_run *r)
{
	static const char *const dev[2] = { "dummy-primary (primary only)", "dummy-threaded (threaded)" };

	for (size_t i = 0; i < r->lines.n; i++) {
		const struct sim_line_result *l = VEC_AT(&r->lines, struct sim_line_result, i);

		char why[128];

		if (l->storm) {
			fprintf(f, "\nstorm on INTC line %u (irq %u): %lu edges, %lu interrupts taken, nobody claimed them%s\n",
				l->line, l->irq, l->edges, l->irqs,
				l->disabled ? "; the core disabled the line" : "");
			if (!line_kept_promise(l, why, sizeof(why)))
				fprintf(f, "  BROKEN: %s\n", why);
		} else {
			fprintf(f, "\nshared INTC line %u (irq %u, level): %lu interrupts taken\n", l->line, l->irq, l->irqs);
			for (int d = 0; d < 2; d++)
				fprintf(f, "  %-30s raised %6lu  served %6lu  %s\n", dev[d], l->raised[d], l->served[d],
					l->raised[d] == l->served[d] ? "ok" : "MISSED");
		}
		if (l->spurious && *l->spurious)
			fprintf(f, "/proc/irq/%u/spurious:\n%s", l->irq, l->spurious);
	}
}

static void print_latency_row(FILE *f, const char *label, const struct lat_summary *s)
{
	if (!s->n) {
		fprintf(f, "  %-26s %10s\n", label, "-");
		return;
	}
	fprintf(f, "  %-26s %9.1f %9.1f %9.1f %9.1f\n", label, s->min_us, s->median_us, s->p99_us, s->max_us);
}

static void print_delivery(FILE *f, const struct irqsim_run *r)
{
	struct delivery d;
	size_t keys = 0;

	for (size_t i = 0; i < r->events.n; i++)
		keys += VEC_AT(&r->events, struct sim_event, i)->type == EV_KEY;
	latency_delivery(r, &d);
	fprintf(f, "\nedges: %zu made, %zu KEY_POWER events; %zu judged: %zu delivered once, %zu lost, "
		"%zu duplicated, %zu ending at the wrong level\n",
		r->edges.n, keys, d.judged, d.ok, d.lost, d.duplicated, d.wrong);
	if (d.unread || d.no_change)
		fprintf(f, "       %zu too short for the bus to read (busy all the while), %zu leaving the key "
			"as it was: not lost\n", d.unread, d.no_change);
	if (d.faulted)
		fprintf(f, "       %zu not delivered beside an injected bus fault: not lost\n", d.faulted);
	if (d.unbound)
		fprintf(f, "       %zu not delivered while the button's driver was unbound: not lost\n", d.unbound);
	if (d.short_edges)
		fprintf(f, "       %zu in presses or gaps under 2 ms, not judged (%zu seen): the driver reports "
			"the level it reads\n", d.short_edges, d.short_seen);
	if (d.unexplained)
		fprintf(f, "       %zu KEY_POWER events at a level the driver's last status read did not return\n",
			d.unexplained);
}

static void print_latency(FILE *f, const struct irqsim_run *r)
{
	struct lat_summary s;

	latency_summary(r, false, false, &s);
	fprintf(f, "\nlatency over %zu delivered edges (us)    min    median       p99       max\n", s.n);
	print_latency_row(f, "edge -> event", &s);
	latency_summary(r, true, false, &s);
	print_latency_row(f, "  minus modelled bus time", &s);
	latency_summary(r, false, true, &s);
	print_latency_row(f, "edge -> client read", &s);
	latency_summary(r, true, true, &s);
	print_latency_row(f, "  minus modelled bus time", &s);
	/* 2.6 MHz, 400 kHz, 1 kHz: the unit that keeps the figure whole */
	fprintf(f, "i2c: %g %s bus, %" PRIu64 " transfers, %.1f us modelled wire time, %" PRIu64 " failed "
		"(%" PRIu64 " injected)\n",
		r->bus_hz >= 1000000 ? (double)r->bus_hz / 1e6 : (double)r->bus_hz / 1e3,
		r->bus_hz >= 1000000 ? "MHz" : "kHz", r->i2c.transfers, (double)r->i2c.wire_ns / 1000.0, r->i2c.errors,
		r->faults_injected);
}

static void print_verdict(FILE *f, const struct irqsim_run *r)
{
	fputc('\n', f);
	if (r->watchdog_fired)
		fprintf(f, "irqsim: the watchdog stopped the scenario\n");
	if (r->oopses)
		fprintf(f, "irqsim: %lu handler thread_fn%s killed by a fault (Oops above)\n", r->oopses,
			r->oopses == 1 ? "" : "s");
	if (r->stopped_line)
		fprintf(f, "irqsim: stopped by %s at %s:%u; the figures above cover the run until then\n",
			irqsim_stop_cause(), r->sc.name, r->stopped_line);
	if (r->opts->seeded) {
		char buf[16];

		fprintf(f, "deterministic: seed %" PRIu64 ", strategy %s, %zu scheduling decisions (hash %016" PRIx64 ")\n",
			r->opts->seed, sim_strategy_word(r->opts->strategy, r->opts->pct_depth, buf, sizeof(buf)),
			r->sim_steps, r->sim_hash);
	}
	if (!r->lockdep_on && !r->lockdep.reports) {
		fprintf(f, "lockdep: off (compiled out or UIRQ_LOCKDEP=0): no verdict\n");
		return;
	}
	if (!r->lockdep.reports) {
		fprintf(f, "lockdep: no problems found (%lu lock classes, %lu dependencies)\n", r->lockdep.classes,
			r->lockdep.dependencies);
		return;
	}
	fprintf(f, "lockdep: %lu report%s:", r->lockdep.reports, r->lockdep.reports == 1 ? "" : "s");
	for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++)
		if (r->lockdep.reports_by_kind[k])
			fprintf(f, " %lu %s", r->lockdep.reports_by_kind[k], uirq_lockdep_kind_name(k));
	fputc('\n', f);
	for (size_t i = 0; i < r->reports.n; i++)
		fprintf(f, "  %s\n", VEC_AT(&r->reports, struct sim_report, i)->headline);
}

static void print_file(const char *path, const char *sha256, void *f)
{
	fprintf(f, "  %s sha256 %s\n", path, sha256);
}

/* The kernel's files a run ran, each with its sha256 (--drivers upstream); nothing for the project's own. */
static void print_drivers(FILE *f, const struct irqsim_run *r)
{
	const struct irqsim_drivers *d = r->opts->drivers;

	if (!d || !d->files)
		return;
	fprintf(f, "\ndrivers: %s, unmodified from %s:\n", d->name, d->version);
	irqsim_drivers_each_file(d, print_file, f);
}

void report_print(FILE *f, const struct irqsim_run *r)
{
	print_drivers(f, r);
	fprintf(f, "\n/proc/interrupts:\n%s", r->proc_interrupts ? r->proc_interrupts : "");
	print_threads(f, r);
	print_lines(f, r);
	print_delivery(f, r);
	print_latency(f, r);
	print_verdict(f, r);
	fflush(f);
}

// SPDX-License-Identifier: MIT
/*
 * --json: the run as one JSON object on stdout, for scripts and tests.
 * Times are microseconds since the board came up (the run's t0), as the
 * human output shows them.  Keys are stable; docs/irqsim.1 (--json) lists them.  It
 * only writes: the verdict (exit_status) is the judge's (judge.c), which
 * the caller passes in.
 */
#include <inttypes.h>
#include <string.h>

#include <linux/input-event-codes.h>

#include "../sim-strategy.h"
#include "drivers.h"
#include "irqsim.h"
#include "uirq/input.h"

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static double rel_us(const struct irqsim_run *r, uint64_t t)
{
	return t >= r->t0_ns ? (double)(t - r->t0_ns) / 1000.0 : 0.0;
}

static void summary(FILE *f, const char *key, const struct lat_summary *s)
{
	fprintf(f, "\"%s\":{\"n\":%zu,\"min\":%.3f,\"median\":%.3f,\"p99\":%.3f,\"max\":%.3f}", key, s->n,
		s->min_us, s->median_us, s->p99_us, s->max_us);
}

static void print_events(FILE *f, const struct irqsim_run *r)
{
	fputs("\"events\":[", f);
	for (size_t i = 0; i < r->events.n; i++) {
		const struct sim_event *e = VEC_AT(&r->events, struct sim_event, i);

		fprintf(f, "%s\n {\"t_us\":%.3f,\"rx_us\":%.3f,\"type\":%u,\"code\":%u,\"value\":%d,\"name\":", i ? "," : "",
			rel_us(r, e->t_ns), rel_us(r, e->rx_ns), e->type, e->code, e->value);
		json_string(f, uirq_input_code_name(e->type, e->code));
		fputc('}', f);
	}
	fputs("],\n", f);
}

static void print_edges(FILE *f, const struct irqsim_run *r)
{
	fputs("\"edges\":[", f);
	for (size_t i = 0; i < r->edges.n; i++) {
		const struct sim_edge *e = VEC_AT(&r->edges, struct sim_edge, i);

		fprintf(f, "%s\n {\"t_us\":%.3f,\"kind\":\"%s\",\"bounce\":%s,\"line\":%u,\"hold_us\":%.3f,\"events\":%u",
			i ? "," : "", rel_us(r, e->t_ns), e->pressed ? "press" : "release",
			e->bounce ? "true" : "false", e->src_line, (double)e->hold_ns / 1000.0, e->events);
		if (e->events)
			fprintf(f, ",\"latency_us\":%.3f,\"client_us\":%.3f,\"wire_us\":%.3f",
				(double)(e->event_ns - e->t_ns) / 1000.0, (double)(e->rx_ns - e->t_ns) / 1000.0,
				(double)e->wire_ns / 1000.0);
		fputc('}', f);
	}
	fputs("],\n", f);
}

static void print_irqs(FILE *f, const struct irqsim_run *r)
{
	bool first = true;

	fprintf(f, "\"irqs\":{\"twl_host\":%u,\"twl_base\":%u,\"pwron\":%u,\"counts\":[", r->twl_irq, r->twl_base,
		r->pwron_irq);
	for (size_t i = 0; i < r->irqcounts.n; i++) {
		const struct sim_irqcount *c = VEC_AT(&r->irqcounts, struct sim_irqcount, i);

		fprintf(f, "%s{\"irq\":%u,\"count\":%lu}", first ? "" : ",", c->irq, c->count);
		first = false;
	}
	fputs("],\"proc_interrupts\":", f);
	json_string(f, r->proc_interrupts);
	fputs(",\"threads\":[", f);
	first = true;
	for (size_t i = 0; i < r->threads.n; i++) {
		const struct sim_thread *t = VEC_AT(&r->threads, struct sim_thread, i);

		if (strncmp(t->name, "irq/", 4))
			continue;
		fprintf(f, "%s{\"tid\":%d,\"name\":", first ? "" : ",", t->tid);
		json_string(f, t->name);
		fputc('}', f);
		first = false;
	}
	fputs("]},\n", f);
}

static void print_lines(FILE *f, const struct irqsim_run *r)
{
	fputs("\"lines\":[", f);
	for (size_t i = 0; i < r->lines.n; i++) {
		const struct sim_line_result *l = VEC_AT(&r->lines, struct sim_line_result, i);

		fprintf(f, "%s\n {\"line\":%u,\"irq\":%u,\"kind\":\"%s\",\"irqs\":%lu,\"disabled\":%s", i ? "," : "",
			l->line, l->irq, l->storm ? "storm" : "shared", l->irqs, l->disabled ? "true" : "false");
		if (l->storm)
			fprintf(f, ",\"edges\":%lu,\"handled\":%lu", l->edges, l->handled);
		else
			fprintf(f, ",\"devices\":[{\"name\":\"dummy-primary\",\"raised\":%lu,\"served\":%lu},"
				"{\"name\":\"dummy-threaded\",\"raised\":%lu,\"served\":%lu}]",
				l->raised[0], l->served[0], l->raised[1], l->served[1]);
		fprintf(f, ",\"kept\":%s", line_kept_promise(l, NULL, 0) ? "true" : "false");
		fputs(",\"spurious\":", f);
		json_string(f, l->spurious);
		fputc('}', f);
	}
	fputs("],\n", f);
}

static void print_reports(FILE *f, const struct irqsim_run *r)
{
	if (r->opts->seeded) {
		char buf[16];

		fprintf(f, "\"deterministic\":{\"seed\":%" PRIu64 ",\"strategy\":\"%s\",\"decisions\":%zu,"
			"\"hash\":\"%016" PRIx64 "\"},\n", r->opts->seed,
			sim_strategy_word(r->opts->strategy, r->opts->pct_depth, buf, sizeof(buf)), r->sim_steps, r->sim_hash);
	}
	fprintf(f, "\"lockdep\":{\"enabled\":%s,\"reports\":%lu,\"by_kind\":{", r->lockdep_on ? "true" : "false",
		r->lockdep.reports);
	bool first = true;

	for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++) {
		if (!r->lockdep.reports_by_kind[k])
			continue;
		fprintf(f, "%s\"%s\":%lu", first ? "" : ",", uirq_lockdep_kind_name(k), r->lockdep.reports_by_kind[k]);
		first = false;
	}
	fputs("}},\n\"reports\":[", f);
	for (size_t i = 0; i < r->reports.n; i++) {
		const struct sim_report *rep = VEC_AT(&r->reports, struct sim_report, i);

		fprintf(f, "%s\n {\"kind\":\"%s\",\"headline\":", i ? "," : "", uirq_lockdep_kind_name(rep->kind));
		json_string(f, rep->headline);
		fputs(",\"text\":", f);
		json_string(f, rep->text);
		fputc('}', f);
	}
	fputs("],\n\"log\":[", f);
	for (size_t i = 0; i < r->logs.n; i++) {
		const struct sim_log *l = VEC_AT(&r->logs, struct sim_log, i);

		fprintf(f, "%s\n {\"t_us\":%.3f,\"msg\":", i ? "," : "", rel_us(r, l->t_ns));
		json_string(f, l->msg);
		fputc('}', f);
	}
	fputs("],\n", f);
}

struct file_list {
	FILE *f;
	const char *sep;
};

static void print_file(const char *path, const char *sha256, void *arg)
{
	struct file_list *l = arg;

	fprintf(l->f, "%s{\"path\":", l->sep);
	json_string(l->f, path);
	fputs(",\"sha256\":", l->f);
	json_string(l->f, sha256);
	fputc('}', l->f);
	l->sep = ",";
}

/* "upstream": the kernel package and each file with its sha256, for --drivers upstream. */
static void print_upstream(FILE *f, const struct irqsim_drivers *d)
{
	struct file_list l = { f, "" };

	if (!d || !d->files)
		return;
	fputs("\"upstream\":{\"version\":", f);
	json_string(f, d->version);
	fputs(",\"files\":[", f);
	irqsim_drivers_each_file(d, print_file, &l);
	fputs("]},\n", f);
}

void json_print(FILE *f, const struct irqsim_run *r, int exit_status)
{
	const struct irqsim_opts *o = r->opts;
	struct lat_summary s;
	struct delivery d;
	size_t keys = 0;

	fputs("{\n\"config\":{\"scenario\":", f);
	json_string(f, r->sc.name);
	fprintf(f, ",\"legacy\":%s,\"threadirqs\":%s,\"bus_hz\":%lu,\"cpus\":%u,\"drivers\":",
		o->legacy ? "true" : "false", o->threadirqs ? "true" : "false", r->bus_hz, o->cpus);
	json_string(f, o->drivers ? o->drivers->name : "own");
	fputs("},\n", f);
	print_upstream(f, o->drivers);
	fputs("\"input\":{\"name\":", f);
	json_string(f, r->input_name);
	fprintf(f, ",\"nr\":%d},\n", r->input_nr);
	print_events(f, r);
	print_edges(f, r);
	latency_delivery(r, &d);
	for (size_t i = 0; i < r->events.n; i++)
		keys += VEC_AT(&r->events, struct sim_event, i)->type == EV_KEY;
	fprintf(f, "\"counts\":{\"edges\":%zu,\"events\":%zu,\"key_events\":%zu,\"judged\":%zu,\"delivered\":%zu,\"lost\":%zu,"
		"\"duplicated\":%zu,\"wrong\":%zu,\"unread\":%zu,\"no_change\":%zu,\"faulted\":%zu,\"unbound\":%zu,"
		"\"short\":%zu,\"short_seen\":%zu,\"unexplained\":%zu,\"i2c_transfers\":%" PRIu64 ",\"i2c_errors\":%" PRIu64 ",\"i2c_faults_injected\":%" PRIu64
		",\"i2c_wire_us\":%.3f},\n",
		r->edges.n, r->events.n, keys, d.judged, d.ok, d.lost, d.duplicated, d.wrong, d.unread, d.no_change,
		d.faulted, d.unbound, d.short_edges, d.short_seen, d.unexplained,
		r->i2c.transfers, r->i2c.errors, r->faults_injected, (double)r->i2c.wire_ns / 1000.0);
	fputs("\"latency_us\":{", f);
	latency_summary(r, false, false, &s);
	summary(f, "edge_to_event", &s);
	fputc(',', f);
	latency_summary(r, true, false, &s);
	summary(f, "minus_bus", &s);
	fputc(',', f);
	latency_summary(r, false, true, &s);
	summary(f, "edge_to_client", &s);
	fputc(',', f);
	latency_summary(r, true, true, &s);
	summary(f, "client_minus_bus", &s);
	fputs("},\n", f);
	print_irqs(f, r);
	print_lines(f, r);
	print_reports(f, r);
	/* stopped: the signal (SIGINT 2, SIGTERM 15) and scenario line that ended the run early, else null */
	if (r->stopped_line)
		fprintf(f, "\"stopped\":{\"signal\":%d,\"line\":%u},\n", atomic_load(&irqsim_stop_signal),
			r->stopped_line);
	else
		fputs("\"stopped\":null,\n", f);
	fprintf(f, "\"oopses\":%lu,\n\"watchdog\":%s,\n\"exit_status\":%d\n}\n", r->oopses,
		r->watchdog_fired ? "true" : "false", exit_status);
}

// SPDX-License-Identifier: MIT
/*
 * Which edge an event answers, and how long it took.  The driver reports the
 * level it reads, so an event answers the edge whose level its status read
 * found - recorded at that read (run.c, on_xfer) - and no later edge, even
 * one of the same value that came before the event: a press and release
 * shorter than the three status reads, then a press, must not credit the
 * second press with the first one's event (its "latency" would be shorter
 * than the bus time of one answer).
 */
#include <math.h>
#include <stdlib.h>

#include <linux/input-event-codes.h>

#include "irqsim.h"

/* Bus time of transfers that started in [from, to): the wire part of a latency. */
static uint64_t wire_between(const struct irqsim_run *r, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < r->xfers.n; i++) {
		const struct sim_xfer *x = VEC_AT(&r->xfers, struct sim_xfer, i);

		if (x->start_ns >= from && x->start_ns < to)
			sum += x->wire_ns;
	}
	return sum;
}

/*
 * The status read that produced an event: the last one to start before the
 * event's stamp.  The handler reads, then reports, and never runs twice at
 * once, so the next read starts after the stamp; the read's wire time (tens
 * of microseconds) covers the stamp's cut to the microsecond.  *from keeps
 * the search going forward: events and transfers are both in time order.
 */
static const struct sim_xfer *status_read(const struct irqsim_run *r, uint64_t t_ns, size_t *from)
{
	const struct sim_xfer *found = NULL;

	for (size_t i = *from; i < r->xfers.n; i++) {
		const struct sim_xfer *x = VEC_AT(&r->xfers, struct sim_xfer, i);

		if (x->start_ns >= t_ns)
			break;
		if (x->edges_seen >= 0) {
			found = x;
			*from = i;
		}
	}
	return found;
}

void latency_match(struct irqsim_run *r)
{
	size_t from = 0;

	for (size_t i = 0; i < r->events.n; i++) {
		const struct sim_event *ev = VEC_AT(&r->events, struct sim_event, i);
		const struct sim_xfer *x;
		struct sim_edge *best;

		if (ev->type != EV_KEY || ev->code != KEY_POWER)
			continue;
		/* No edge had reached the chip (the reset level), or a level none of ours left: nobody's. */
		x = status_read(r, ev->t_ns, &from);
		if (!x || x->edges_seen < 1 || (size_t)x->edges_seen > r->edges.n)
			continue;
		best = VEC_AT(&r->edges, struct sim_edge, (size_t)x->edges_seen - 1);
		if (best->pressed != (ev->value != 0))
			continue;
		best->last_ns = ev->t_ns;
		if (!best->events++) {
			best->event_ns = ev->t_ns;
			best->rx_ns = ev->rx_ns;
			best->wire_ns = wire_between(r, best->t_ns, ev->t_ns);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v. */
static double percentile(const double *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

void latency_summary(const struct irqsim_run *r, bool minus_bus, bool to_client, struct lat_summary *s)
{
	double *v = malloc((r->edges.n + 1) * sizeof(*v));
	size_t n = 0;

	*s = (struct lat_summary){ 0 };
	if (!v)
		return;
	for (size_t i = 0; i < r->edges.n; i++) {
		const struct sim_edge *e = VEC_AT(&r->edges, struct sim_edge, i);
		uint64_t end;
		double d;

		if (!e->events || e->bounce)
			continue;
		end = to_client ? e->rx_ns : e->event_ns;
		/*
		 * An event's stamp is a timeval, cut to the microsecond: the edge
		 * goes on the same grid, or an exact latency (a --seed run's) would
		 * read up to 1 us short of its wire time.
		 */
		d = (double)(end - (to_client ? e->t_ns : e->t_ns - e->t_ns % 1000u));
		if (minus_bus)
			d -= (double)e->wire_ns;
		v[n++] = d / 1000.0;
	}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		s->n = n;
		s->min_us = v[0];
		s->max_us = v[n - 1];
		s->median_us = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		s->p99_us = percentile(v, n, 99.0);
	}
	free(v);
}

// SPDX-License-Identifier: MIT
/*
 * Which edge an event answers, and how long it took.  The driver reports the
 * level it reads, so an event with value v answers the latest edge to v
 * before it: a press whose release came before the status read is still
 * the press's event if it shows "down", and shows nothing otherwise.
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

void latency_match(struct irqsim_run *r)
{
	for (size_t i = 0; i < r->events.n; i++) {
		const struct sim_event *ev = VEC_AT(&r->events, struct sim_event, i);
		struct sim_edge *best = NULL;

		if (ev->type != EV_KEY || ev->code != KEY_POWER)
			continue;
		for (size_t j = 0; j < r->edges.n; j++) {
			struct sim_edge *e = VEC_AT(&r->edges, struct sim_edge, j);

			if (e->t_ns > ev->t_ns)
				break;
			if (e->pressed == (ev->value != 0))
				best = e;
		}
		if (!best)
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

/*
 * A group is a scenario edge and the bounce edges after it.  A group judged
 * for delivery is settled on both sides: the button held still for
 * SETTLED_NS before it and after it; shorter presses and gaps are where the
 * driver's level reads legitimately see nothing (twl4030.md).
 */
#define SETTLED_NS 2000000ull

void latency_delivery(const struct irqsim_run *r, struct delivery *d)
{
	size_t n = r->edges.n;
	uint64_t prev_t = 0;
	bool have_prev = false;

	*d = (struct delivery){ 0 };
	for (size_t i = 0; i < n;) {
		const struct sim_edge *e = VEC_AT(&r->edges, struct sim_edge, i);
		size_t j = i + 1, events = 0;
		bool bounced = false, final = e->pressed, last_value = false;
		uint64_t last_t = 0;

		while (j < n && VEC_AT(&r->edges, struct sim_edge, j)->bounce)
			j++;
		/* The group's events, and the latest of them by stamp. */
		for (size_t k = i; k < j; k++) {
			const struct sim_edge *g = VEC_AT(&r->edges, struct sim_edge, k);

			if (k > i)
				bounced = true;
			final = g->pressed;
			events += g->events;
			if (g->events && g->last_ns >= last_t) {
				last_t = g->last_ns;
				last_value = g->pressed;
			}
		}
		bool settled_before = !have_prev || e->t_ns - prev_t >= SETTLED_NS;
		bool settled_after = j >= n || VEC_AT(&r->edges, struct sim_edge, j)->t_ns -
					       VEC_AT(&r->edges, struct sim_edge, j - 1)->t_ns >= SETTLED_NS;

		if (e->bounce) {
			/* Chatter before any scenario edge: nothing to judge it against. */
		} else if (settled_before && settled_after) {
			d->judged++;
			if (!events)
				d->lost++;
			else if (!bounced && events > 1)
				d->duplicated++;
			else if (last_value != final)
				d->wrong++;
			else
				d->ok++;
		} else {
			d->short_edges++;
			if (events)
				d->short_seen++;
		}
		have_prev = true;
		prev_t = VEC_AT(&r->edges, struct sim_edge, j - 1)->t_ns;
		i = j;
	}
}

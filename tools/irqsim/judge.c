// SPDX-License-Identifier: MIT
/*
 * The judge: how the scenario's edges were delivered, whether the storm and
 * shared lines kept their promise, and the exit status a run earned.
 *
 * A seeded run fails on what the model says the code should have done, not
 * on what a fixed figure guesses the bus can do: an edge no event answered
 * is lost only if the model could have shown it to the driver.  The bus
 * samples STS_HW_CONDITIONS as a read starts (i2c-sim.c runs the slave
 * callbacks first), and each such read records which edge's level it
 * returned (run.c, on_xfer): so the judge knows what the status register
 * held each time the driver read it, and when the bus was free to read it.
 */
#include <stdatomic.h>
#include <stdio.h>

#include <linux/input-event-codes.h>

#include "irqsim.h"

/*
 * A group is a scenario edge and the bounce edges after it.  A group judged
 * for delivery is settled on both sides: the button held still for
 * SETTLED_NS before it and after it; shorter presses and gaps are where the
 * driver's level reads legitimately see nothing (twl4030.md).
 */
#define SETTLED_NS 2000000ull

/*
 * Whether the button's driver was unbound at some time in [from, to), or
 * bound again less than SETTLED_NS before it: its edges had no driver to
 * report them (a scenario's unbind ... bind), or came while the new one was
 * still settling in.  Not expected to be delivered.
 */
static bool unbound_within(const struct irqsim_run *r, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < r->unbound.n; i++) {
		const struct sim_unbound *u = VEC_AT(&r->unbound, struct sim_unbound, i);
		uint64_t end = u->to_ns == UINT64_MAX ? UINT64_MAX : u->to_ns + SETTLED_NS;

		if (u->from_ns < to && end > from)
			return true;
	}
	return false;
}

/* The last bind of the button by t (0: none): its new input device started with the key released. */
static uint64_t bound_since(const struct irqsim_run *r, uint64_t t)
{
	uint64_t since = 0;

	for (size_t i = 0; i < r->unbound.n; i++) {
		const struct sim_unbound *u = VEC_AT(&r->unbound, struct sim_unbound, i);

		if (u->to_ns != UINT64_MAX && u->to_ns <= t)
			since = u->to_ns;
	}
	return since;
}

/*
 * The key as the input core held it at t: the last KEY_POWER event stamped
 * by then (released at reset, and at each new bind of the button).
 */
static bool key_at(const struct irqsim_run *r, uint64_t t)
{
	uint64_t since = bound_since(r, t);
	bool down = false;

	for (size_t i = 0; i < r->events.n; i++) {
		const struct sim_event *ev = VEC_AT(&r->events, struct sim_event, i);

		if (ev->t_ns > t)
			break;
		if (ev->t_ns < since)
			continue;
		if (ev->type == EV_KEY && ev->code == KEY_POWER)
			down = ev->value != 0;
	}
	return down;
}

/*
 * Whether transfers kept the bus busy over all of [from, to): then no read
 * could start while the level lasted, however fast the driver.  Transfers
 * are recorded in bus order (the hook runs under the bus lock), so one pass
 * finds the first free moment.  Exact in a --seed run, where handlers cost
 * no virtual time; a free run's host delays are free moments.
 */
static bool bus_busy_over(const struct irqsim_run *r, uint64_t from, uint64_t to)
{
	uint64_t covered = from;

	for (size_t i = 0; i < r->xfers.n && covered < to; i++) {
		const struct sim_xfer *x = VEC_AT(&r->xfers, struct sim_xfer, i);

		if (x->end_ns <= covered)
			continue;
		if (x->start_ns > covered)
			return false;
		covered = x->end_ns;
	}
	return covered >= to;
}

/* Whether a transfer that failed by an injected fault was on the bus during [from, to). */
static bool fault_within(const struct irqsim_run *r, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < r->xfers.n; i++) {
		const struct sim_xfer *x = VEC_AT(&r->xfers, struct sim_xfer, i);

		if (x->injected && x->start_ns < to && x->end_ns > from)
			return true;
	}
	return false;
}

/*
 * A judged group (edges [first, end), the button at its levels over
 * [from, to)) that no event answered: lost, unless the model could not
 * have shown it to the driver as a change.  The status reads that returned
 * one of its levels say what the driver had in hand: a level other than
 * the key's at that read had to be reported (lost).  If every such read
 * found the key already there, there was nothing to report - but the key
 * can only be there if the group before it went unanswered, so this is
 * excused (no_change) only when that one could not be read either
 * (prev_unreadable: the release of a press the bus could not read); a
 * driver that swallowed the edge before (an early acknowledgement) is
 * caught here.  With no such read, the level was gone before any read
 * began: unread if the bus was busy all along (three 15 kHz reads outlast
 * a 5 ms press: the hardware misses it too), lost if the bus had a free
 * moment the driver did not use.
 */
static void judge_unanswered(const struct irqsim_run *r, size_t first, size_t end, uint64_t from, uint64_t to,
			     bool prev_unreadable, struct delivery *d)
{
	bool seen = false;

	for (size_t i = 0; i < r->xfers.n; i++) {
		const struct sim_xfer *x = VEC_AT(&r->xfers, struct sim_xfer, i);
		size_t edge;

		if (x->edges_seen < 1 || (size_t)x->edges_seen - 1 < first || (size_t)x->edges_seen - 1 >= end)
			continue;
		edge = (size_t)x->edges_seen - 1;
		seen = true;
		if (VEC_AT(&r->edges, struct sim_edge, edge)->pressed != key_at(r, x->start_ns)) {
			d->lost++;
			return;
		}
	}
	if (seen && prev_unreadable)
		d->no_change++;
	else if (!seen && bus_busy_over(r, from, to))
		d->unread++;
	else
		d->lost++;
}

/*
 * The driver reports the level it reads (twl4030-pwrbutton.c): each
 * KEY_POWER event must carry the level the last status read before it
 * returned (the read's edges_seen says which; none yet: released, as at
 * boot).  An event no read explains - one made up by the driver, such as a
 * press and release "for an edge the read missed", on every interrupt of
 * a pair - is counted whatever the edges' groups make of it: the input
 * core drops a repeated value, so a made-up pair inside a short press is
 * otherwise invisible.  Reads and reports of one driver are one thread's,
 * in order.
 */
static size_t unexplained_events(const struct irqsim_run *r)
{
	size_t n = 0, x = 0;
	bool level = false;

	for (size_t i = 0; i < r->events.n; i++) {
		const struct sim_event *ev = VEC_AT(&r->events, struct sim_event, i);

		if (ev->type != EV_KEY || ev->code != KEY_POWER)
			continue;
		/*
		 * The status reads begun before the event's stamp, in bus order
		 * (as latency.c pairs them: a stamp has microseconds only, and
		 * a read lasts tens of them).
		 */
		for (; x < r->xfers.n; x++) {
			const struct sim_xfer *t = VEC_AT(&r->xfers, struct sim_xfer, x);

			if (t->start_ns >= ev->t_ns)
				break;
			if (t->edges_seen >= 1)
				level = VEC_AT(&r->edges, struct sim_edge, (size_t)t->edges_seen - 1)->pressed;
			else if (t->edges_seen == 0)
				level = false;
		}
		if ((ev->value != 0) != level)
			n++;
	}
	return n;
}

void latency_delivery(const struct irqsim_run *r, struct delivery *d)
{
	size_t n = r->edges.n;
	uint64_t prev_t = 0;
	bool have_prev = false, prev_unreadable = false;

	*d = (struct delivery){ 0 };
	for (size_t i = 0; i < n;) {
		const struct sim_edge *e = VEC_AT(&r->edges, struct sim_edge, i);
		size_t j = i + 1, events = 0;
		bool bounced = false, final = e->pressed, last_value = false;
		uint64_t last_t = 0, to;

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
		/* The group's levels last until the next group's first edge, the last group's to the run's end. */
		to = j < n ? VEC_AT(&r->edges, struct sim_edge, j)->t_ns : r->end_ns > e->t_ns ? r->end_ns : UINT64_MAX;
		bool settled_before = !have_prev || e->t_ns - prev_t >= SETTLED_NS;
		bool settled_after = j >= n || VEC_AT(&r->edges, struct sim_edge, j)->t_ns -
					       VEC_AT(&r->edges, struct sim_edge, j - 1)->t_ns >= SETTLED_NS;
		bool ok = events && (bounced || events == 1) && last_value == final;

		if (e->bounce) {
			/* Chatter before any scenario edge: nothing to judge it against. */
		} else if (settled_before && settled_after) {
			d->judged++;
			if (ok)
				d->ok++;
			else if (fault_within(r, e->t_ns, to))
				d->faulted++;	/* what an injected fault can reach: the edges it was on the bus for */
			else if (unbound_within(r, e->t_ns, to))
				d->unbound++;	/* no driver to report it */
			else if (!events)
				judge_unanswered(r, i, j, e->t_ns, to, prev_unreadable, d);
			else if (!bounced && events > 1)
				d->duplicated++;
			else
				d->wrong++;
		} else {
			d->short_edges++;
			if (events)
				d->short_seen++;
		}
		/* Judged or not, a group no event answered whose levels no read could have found, or a fault reached. */
		prev_unreadable = !events && (bus_busy_over(r, e->t_ns, to) || fault_within(r, e->t_ns, to) ||
					      unbound_within(r, e->t_ns, to));
		have_prev = true;
		prev_t = VEC_AT(&r->edges, struct sim_edge, j - 1)->t_ns;
		i = j;
	}
	d->unexplained = unexplained_events(r);
}

/*
 * A shared line's devices stay pending until served (a level line), and
 * the settle waits until both are: each raise served once.  A storm line's
 * only handler runs once per interrupt taken - forced into a thread, at
 * most once and at least once after the last (interrupts that come while
 * its thread is already due merge into that run, as the kernel's
 * IRQTF_RUNTHREAD does); an edge becomes at most one interrupt, and every
 * one while the core has not disabled the line (a storm edge waits until
 * the CPU took the last, or comes INTERVAL later; the core disables the
 * line only when nobody cared).
 */
bool line_kept_promise(const struct sim_line_result *l, char *why, size_t len)
{
	static const char *const dev[2] = { "dummy-primary", "dummy-threaded" };

	if (!why || !len)
		why = NULL, len = 0;
	if (!l->storm) {
		for (int i = 0; i < 2; i++)
			if (l->served[i] != l->raised[i]) {
				if (why)
					snprintf(why, len, "%s raised %lu events, served %lu", dev[i], l->raised[i],
						 l->served[i]);
				return false;
			}
		return true;
	}
	if (l->threaded ? l->handled > l->irqs || (l->irqs && !l->handled) : l->handled != l->irqs) {
		if (why)
			snprintf(why, len, "%lu interrupts taken, the handler ran %lu times", l->irqs, l->handled);
		return false;
	}
	if (l->irqs > l->edges || (!l->disabled && l->irqs != l->edges)) {
		if (why)
			snprintf(why, len, "%lu edges became %lu interrupts%s", l->edges, l->irqs,
				 l->disabled ? "" : " on a line left enabled");
		return false;
	}
	return true;
}

int irqsim_verdict(const struct irqsim_run *r)
{
	if (r->stopped_line && atomic_load(&irqsim_stop_signal) == IRQSIM_STOP_OUTPUT)
		return IRQSIM_EXIT_PROBLEMS;	/* the output could not be written */
	if (r->stopped_line)
		return 128 + atomic_load(&irqsim_stop_signal);
	if (r->lockdep.reports || r->reports.n || r->oopses || r->watchdog_fired || r->setup_failed || r->output_failed)
		return IRQSIM_EXIT_PROBLEMS;
	/*
	 * A --seed run is judged on delivery and on its lines too: its time is
	 * the model's, so a judged edge lost, duplicated or ending at the wrong
	 * level, or a line that broke its promise, is the code's fault.  A free
	 * run's time is the host's (a loaded machine can starve the handler
	 * thread past an edge's 2 ms, or the settle past a line's last
	 * service), so it only reports them.  An injected bus fault excuses
	 * the edges it was on the bus for (faulted), no others.
	 */
	if (r->opts->seeded) {
		struct delivery d;

		latency_delivery(r, &d);
		if (d.lost || d.duplicated || d.wrong || d.unexplained)
			return IRQSIM_EXIT_PROBLEMS;
		for (size_t i = 0; i < r->lines.n; i++)
			if (!line_kept_promise(VEC_AT(&r->lines, struct sim_line_result, i), NULL, 0))
				return IRQSIM_EXIT_PROBLEMS;
	}
	return IRQSIM_EXIT_CLEAN;
}

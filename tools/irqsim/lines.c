// SPDX-License-Identifier: MIT
/* The storm and shared-line devices (lines.h says what they model). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

void lines_init(struct lines *l, struct uirq_swirq *intc, struct irqsim_run *r)
{
	memset(l, 0, sizeof(*l));
	l->intc = intc;
	l->r = r;
}

static void say(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct lines *l, const char *fmt, ...)
{
	struct sim_log e = { .t_ns = now_ns() };
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e.msg = xstrdup(buf);
	if (!vec_push(&l->r->logs, &e))
		free(e.msg);
	if (!l->r->opts->json)
		report_log_line(l->r, e.t_ns, buf);
}

/* ---- storm: a device nobody claims ---- */

static uirq_irqreturn_t storm_handler(int irq, void *dev_id)
{
	struct line_slot *s = dev_id;

	(void)irq;
	atomic_fetch_add_explicit(&s->storm_calls, 1, memory_order_relaxed);
	return UIRQ_IRQ_NONE;
}

void lines_storm(struct lines *l, const struct sc_action *a)
{
	struct line_slot *s = &l->slot[a->line];

	if (!s->used) {
		int irq = uirq_swirq_map(l->intc, a->line);
		int err = irq < 0 ? irq
				  : uirq_request_irq((unsigned int)irq, storm_handler,
						     UIRQF_SHARED | UIRQF_TRIGGER_RISING, "storm", s);

		if (err) {
			say(l, "irqsim: storm: cannot set up INTC line %u: %s", a->line, strerror(-err));
			return;
		}
		s->used = true;
		s->storm = true;
		s->irq = (unsigned int)irq;
	}
	for (unsigned int i = 0; i < a->count && !atomic_load(&irqsim_stop_signal); i++) {
		uirq_swirq_pulse(l->intc, a->line);
		s->edges++;
		if (a->interval_ns) {
			sleep_until_ns(now_ns() + a->interval_ns);
			continue;
		}
		/*
		 * Back to back: each edge after the CPU took the last one, so edges
		 * become interrupts instead of merging in the latch - unless the
		 * core has disabled the line, when they can only merge.
		 */
		uint64_t give_up = now_ns() + 1000000u;
		struct uirq_swirq_stats st;

		while (!uirq_swirq_get_stats(l->intc, a->line, &st) && st.pending && !uirq_irq_get_depth(s->irq) &&
		       now_ns() < give_up)
			if (l->r->opts->seeded)
				uirq_sim_yield();	/* the CPU is a task that only the scheduler runs */
	}
}

/* ---- shared: the cover letter's pair ---- */

/* Drive the line from the devices' state; serialized so two updates cannot cross. */
static void update_level(struct shared_line *sl)
{
	bool level = false;
	unsigned long flags;

	uirq_spin_lock_irqsave(&sl->level_lock, flags);
	level = atomic_load(&sl->dev[0].pending) ||
		(atomic_load(&sl->dev[1].pending) && atomic_load(&sl->dev[1].enabled));
	uirq_swirq_set_level(sl->intc, sl->hwirq, level);
	uirq_spin_unlock_irqrestore(&sl->level_lock, flags);
}

/* Device 0: everything in hard-irq context (a fast MMIO device). */
static uirq_irqreturn_t primary_only(int irq, void *dev_id)
{
	struct shared_dev *d = dev_id;
	unsigned long n = atomic_exchange(&d->pending, 0);

	(void)irq;
	if (!n)
		return UIRQ_IRQ_NONE;
	atomic_fetch_add(&d->served, n);
	update_level(d->line);
	return UIRQ_IRQ_HANDLED;
}

/* Device 1's primary: check and silence the device, leave the work to the thread. */
static uirq_irqreturn_t threaded_primary(int irq, void *dev_id)
{
	struct shared_dev *d = dev_id;

	(void)irq;
	if (!atomic_load(&d->pending) || !atomic_load(&d->enabled))
		return UIRQ_IRQ_NONE;
	atomic_store(&d->enabled, false);
	update_level(d->line);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t threaded_thread(int irq, void *dev_id)
{
	struct shared_dev *d = dev_id;

	(void)irq;
	/*
	 * The point of the thread: it may sleep, here as a slow bus would make
	 * it.  On uirq's clock: in a --seed run the sleep is 20 us of virtual
	 * time and a scheduling point, where nanosleep() took none of either.
	 */
	uirq_sim_sleep_ns(SHARED_SLOW_BUS_NS);
	atomic_fetch_add(&d->served, atomic_exchange(&d->pending, 0));
	atomic_store(&d->enabled, true);
	update_level(d->line);
	return UIRQ_IRQ_HANDLED;
}

static int shared_setup(struct lines *l, struct line_slot *s, unsigned int line)
{
	struct shared_line *sl = calloc(1, sizeof(*sl));
	int irq, err;

	if (!sl)
		return -ENOMEM;
	uirq_spin_lock_init(&sl->level_lock);
	sl->intc = l->intc;
	sl->hwirq = line;
	for (int i = 0; i < 2; i++)
		sl->dev[i].line = sl;
	atomic_store(&sl->dev[1].enabled, true);
	irq = uirq_swirq_map(l->intc, line);
	if (irq < 0) {
		err = irq;
		goto fail;
	}
	err = uirq_request_irq((unsigned int)irq, primary_only, UIRQF_SHARED | UIRQF_TRIGGER_HIGH, "dummy-primary",
			       &sl->dev[0]);
	if (err)
		goto fail;
	err = uirq_request_threaded_irq((unsigned int)irq, threaded_primary, threaded_thread,
					UIRQF_SHARED | UIRQF_TRIGGER_HIGH, "dummy-threaded", &sl->dev[1]);
	if (err) {
		uirq_free_irq((unsigned int)irq, &sl->dev[0]);
		goto fail;
	}
	s->used = true;
	s->irq = (unsigned int)irq;
	s->shared = sl;
	return 0;
fail:
	free(sl);
	return err;
}

void lines_shared(struct lines *l, const struct sc_action *a)
{
	struct line_slot *s = &l->slot[a->line];

	if (!s->used) {
		int err = shared_setup(l, s, a->line);

		if (err) {
			say(l, "irqsim: shared: cannot set up INTC line %u: %s", a->line, strerror(-err));
			return;
		}
	}
	for (unsigned int i = 0; i < a->count && !atomic_load(&irqsim_stop_signal); i++) {
		for (int d = 0; d < 2; d++) {
			atomic_fetch_add(&s->shared->dev[d].raised, 1);
			atomic_fetch_add(&s->shared->dev[d].pending, 1);
		}
		update_level(s->shared);
		if (a->interval_ns)
			sleep_until_ns(now_ns() + a->interval_ns);
	}
}

bool lines_quiet(struct lines *l)
{
	for (unsigned int i = 0; i < SC_INTC_LINES; i++) {
		struct shared_line *sl = l->slot[i].shared;

		if (sl && (atomic_load(&sl->dev[0].pending) || atomic_load(&sl->dev[1].pending) ||
			   !atomic_load(&sl->dev[1].enabled)))
			return false;
	}
	return true;
}

void lines_snapshot(struct lines *l, struct vec *out)
{
	for (unsigned int i = 0; i < SC_INTC_LINES; i++) {
		struct line_slot *s = &l->slot[i];
		struct sim_line_result res = { .line = i, .irq = s->irq, .storm = s->storm, .edges = s->edges,
					       .handled = atomic_load(&s->storm_calls),
					       .threaded = l->r->opts->threadirqs };
		size_t len = 0;
		FILE *f;

		if (!s->used)
			continue;
		res.irqs = uirq_kstat_irqs(s->irq);
		res.disabled = uirq_irq_get_depth(s->irq) > 0;
		for (int d = 0; s->shared && d < 2; d++) {
			res.raised[d] = atomic_load(&s->shared->dev[d].raised);
			res.served[d] = atomic_load(&s->shared->dev[d].served);
		}
		f = open_memstream(&res.spurious, &len);
		if (f) {
			uirq_show_spurious(f, s->irq);
			fclose(f);
		}
		if (!vec_push(out, &res))
			free(res.spurious);
	}
}

void lines_free(struct lines *l)
{
	for (unsigned int i = 0; i < SC_INTC_LINES; i++) {
		struct line_slot *s = &l->slot[i];

		if (!s->used)
			continue;
		if (s->storm) {
			uirq_free_irq(s->irq, s);
			continue;
		}
		uirq_free_irq(s->irq, &s->shared->dev[1]);
		uirq_free_irq(s->irq, &s->shared->dev[0]);
		/* Deasserted, so the input is quiet when the controller goes. */
		uirq_swirq_set_level(l->intc, i, false);
		free(s->shared);
		s->shared = NULL;
		s->used = false;
	}
}

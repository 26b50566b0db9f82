// SPDX-License-Identifier: MIT
/* An interrupt output of a hardware model, delivered in order outside the chip's lock (model-pin.h). */
#include <sched.h>

#include "model-pin.h"
#include "uirq/sim.h"

void model_pin_init(struct model_pin *p, pthread_mutex_t *lock, bool level)
{
	*p = (struct model_pin){ .lock = lock, .level = level };
}

void model_pin_deliver(struct model_pin *p)
{
	pthread_mutex_lock(p->lock);
	if (p->delivering) {
		/* The deliverer loops until the listener matches: this change reaches it too. */
		pthread_mutex_unlock(p->lock);
		return;
	}
	p->delivering = true;
	for (;;) {
		model_pin_fn fn = p->fn;
		void *arg = p->arg;
		struct uirq_swirq *intc = p->intc;
		unsigned int line = p->line;
		bool level = p->level;
		bool pulse;

		if (!fn && !intc)
			break;
		/* Pulses first, as the chip gave them before it last set the level. */
		pulse = p->valid && p->pulses_reported != p->pulses;
		if (pulse)
			p->pulses_reported++;
		else if (!p->valid || p->reported != level)
			p->reported = level, p->valid = true;
		else
			break;
		pthread_mutex_unlock(p->lock);
		if (fn && !pulse)
			fn(level, arg);
		else if (intc && pulse)
			uirq_swirq_pulse(intc, line);
		else if (intc)
			uirq_swirq_set_level(intc, line, level);
		pthread_mutex_lock(p->lock);
	}
	p->delivering = false;
	pthread_mutex_unlock(p->lock);
}

static void connect(struct model_pin *p, model_pin_fn fn, void *arg, struct uirq_swirq *intc, unsigned int line)
{
	pthread_mutex_lock(p->lock);
	p->fn = fn;
	p->arg = arg;
	p->intc = intc;
	p->line = line;
	p->valid = false;	/* a new listener hears the current level, and no old pulse */
	p->pulses_reported = p->pulses;
	pthread_mutex_unlock(p->lock);
	model_pin_deliver(p);
}

void model_pin_connect(struct model_pin *p, model_pin_fn fn, void *arg)
{
	connect(p, fn, arg, NULL, 0);
}

void model_pin_connect_swirq(struct model_pin *p, struct uirq_swirq *intc, unsigned int line)
{
	connect(p, NULL, NULL, intc, line);
}

void model_pin_disconnect(struct model_pin *p)
{
	pthread_mutex_lock(p->lock);
	p->fn = NULL;
	p->intc = NULL;
	/* A delivery in progress on another thread must finish before the listener goes. */
	while (p->delivering) {
		pthread_mutex_unlock(p->lock);
		/* In the deterministic mode the deliverer runs only when this task lets the token go. */
		if (uirq_sim_task_id() >= 0)
			uirq_sim_yield();
		else
			sched_yield();
		pthread_mutex_lock(p->lock);
	}
	pthread_mutex_unlock(p->lock);
}

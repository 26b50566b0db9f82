// SPDX-License-Identifier: MIT
/* A model's interrupt output, delivered outside its lock and in order (irq-pin.h says why). */
#include <sched.h>

#include "irq-pin.h"
#include "uirq/sim.h"

void irq_pin_init(struct irq_pin *p, pthread_mutex_t *lock, struct uirq_swirq *intc, unsigned int line)
{
	*p = (struct irq_pin){ .lock = lock, .intc = intc, .line = line };
}

void irq_pin_sync(struct irq_pin *p)
{
	pthread_mutex_lock(p->lock);
	if (p->delivering) {
		/* The one delivering loops until it has given the controller this change too. */
		pthread_mutex_unlock(p->lock);
		return;
	}
	p->delivering = true;
	while (p->delivered_pulses != p->pulses || p->delivered_asserted != p->asserted) {
		bool pulse = p->delivered_pulses != p->pulses;
		bool level = p->asserted;

		if (pulse)
			p->delivered_pulses++;
		else
			p->delivered_asserted = level;
		pthread_mutex_unlock(p->lock);
		if (pulse)
			uirq_swirq_pulse(p->intc, p->line);
		else
			uirq_swirq_set_level(p->intc, p->line, level);
		pthread_mutex_lock(p->lock);
	}
	p->delivering = false;
	pthread_mutex_unlock(p->lock);
}

void irq_pin_quiesce(struct irq_pin *p)
{
	pthread_mutex_lock(p->lock);
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

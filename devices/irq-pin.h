/* SPDX-License-Identifier: MIT */
/*
 * Private to devices/: a model's interrupt output on a swirq input.  The
 * model decides under its own lock what the pin does (a level, or a
 * pulse); irq_pin_sync(), called after the lock is dropped, hands that to
 * the controller in order.  The controller must not be called under the
 * model's lock: raising a line is a scheduling point of the deterministic
 * mode, and another task blocking on the model's plain mutex there would
 * hold the only token.  Whoever finds nobody delivering delivers until
 * the controller has caught up with the model, so changes made by several
 * threads arrive in the order the model made them.
 */
#ifndef UIRQ_DEVICES_IRQ_PIN_H
#define UIRQ_DEVICES_IRQ_PIN_H

#include <pthread.h>
#include <stdbool.h>

#include "uirq/sources.h"

struct irq_pin {
	pthread_mutex_t *lock;		/* the model's; everything below is under it */
	struct uirq_swirq *intc;
	unsigned int line;
	bool asserted;			/* the level the model drives */
	unsigned long pulses;		/* pulses the model gave */
	bool delivered_asserted;	/* what the controller was told */
	unsigned long delivered_pulses;
	bool delivering;
};

/* A pin on input line of intc, deasserted; lock is the model's. */
void irq_pin_init(struct irq_pin *p, pthread_mutex_t *lock, struct uirq_swirq *intc, unsigned int line);
/* Model's lock held: drive the level. */
static inline void irq_pin_set(struct irq_pin *p, bool asserted)
{
	p->asserted = asserted;
}
/* Model's lock held: one short pulse (an edge on an edge input; the level stays). */
static inline void irq_pin_pulse(struct irq_pin *p)
{
	p->pulses++;
}
/* Model's lock not held: deliver what the model drives. */
void irq_pin_sync(struct irq_pin *p);
/* Model's lock not held: wait out a delivery in progress on another thread (before the model is freed). */
void irq_pin_quiesce(struct irq_pin *p);

#endif

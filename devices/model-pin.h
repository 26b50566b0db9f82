/* SPDX-License-Identifier: MIT */
/*
 * Private to devices/: an interrupt output of a hardware model (the
 * TWL4030's INT1, the MAX77650's nIRQ, the ZET6223's and the KXTJ9's INT),
 * handed to whatever the board wired it to - a callback, or a swirq input
 * - outside the chip's lock: raising a line is a scheduling point of the
 * deterministic mode, and another task blocking on the chip's plain mutex
 * there would hold the only token.  The chip decides under its lock what
 * the pin does (a level, or a pulse), then calls model_pin_deliver() with
 * the lock dropped.  One thread delivers at a time; a change made
 * meanwhile is left to it, and it keeps going until the listener was told
 * what the chip drives: every change arrives in the order the chip made
 * it, never a stale one, and the listener may call back into the model.
 */
#ifndef UIRQ_DEVICES_MODEL_PIN_H
#define UIRQ_DEVICES_MODEL_PIN_H

#include <pthread.h>
#include <stdbool.h>

#include "uirq/sources.h"

/* asserted: the pin is active (for an active-low pin, driven low). */
typedef void (*model_pin_fn)(bool asserted, void *arg);

struct model_pin {
	pthread_mutex_t *lock;	/* the chip's: it guards every field */
	model_pin_fn fn;	/* a callback listener, or */
	void *arg;
	struct uirq_swirq *intc;	/* a swirq input */
	unsigned int line;
	bool level;		/* what the chip drives now: set it with the lock held */
	unsigned long pulses;	/* short pulses the chip gave: model_pin_pulse() */
	bool reported;		/* what the listener was last told */
	unsigned long pulses_reported;
	bool valid;		/* false: the listener has not been told anything yet */
	bool delivering;	/* a thread is telling it */
};

/* A pin of the chip whose lock is lock, driving level, connected to nothing. */
void model_pin_init(struct model_pin *p, pthread_mutex_t *lock, bool level);
/*
 * The chip's lock held: one short pulse, an edge of its own on an edge
 * input even while the level stays asserted.  Only a swirq input hears
 * pulses (uirq_swirq_pulse(): a level input ignores them); a callback
 * listener hears levels.
 */
static inline void model_pin_pulse(struct model_pin *p)
{
	p->pulses++;
}
/* After a change, the lock not held: the listener hears of it (now, or from the deliverer). */
void model_pin_deliver(struct model_pin *p);
/* Wire the pin to fn (NULL: to nothing), told the current level at once; the lock not held. */
void model_pin_connect(struct model_pin *p, model_pin_fn fn, void *arg);
/* Wire it to input line of intc instead, told the current level at once; the lock not held. */
void model_pin_connect_swirq(struct model_pin *p, struct uirq_swirq *intc, unsigned int line);
/* Unwire it and wait for a delivery in flight: after it the listener is not called again. */
void model_pin_disconnect(struct model_pin *p);

#endif

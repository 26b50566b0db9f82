/* SPDX-License-Identifier: MIT */
/*
 * Private to devices/: an interrupt output of a hardware model (the
 * TWL4030's INT1, the MAX77650's nIRQ), handed to whatever the board
 * wired it to outside the chip's lock - raising a line may hand the CPU
 * to another task in the deterministic mode, which may then enter the
 * chip.  One thread delivers at a time; a change made meanwhile is left
 * to it, and it keeps going until the listener was told what the chip
 * drives: every change arrives in order, never a stale one, and the
 * listener may call back into the model.
 */
#ifndef UIRQ_DEVICES_MODEL_PIN_H
#define UIRQ_DEVICES_MODEL_PIN_H

#include <pthread.h>
#include <stdbool.h>

/* asserted: the pin is active (for an active-low pin, driven low). */
typedef void (*model_pin_fn)(bool asserted, void *arg);

struct model_pin {
	pthread_mutex_t *lock;	/* the chip's: it guards every field */
	model_pin_fn fn;
	void *arg;
	bool level;		/* what the chip drives now: set it with the lock held */
	bool reported;		/* what fn was last told */
	bool valid;		/* false: fn has not been told anything yet */
	bool delivering;	/* a thread is telling it */
};

/* A pin of the chip whose lock is lock, driving level, connected to nothing. */
void model_pin_init(struct model_pin *p, pthread_mutex_t *lock, bool level);
/* After a change of level, the lock not held: fn hears of it (now, or from the deliverer). */
void model_pin_deliver(struct model_pin *p);
/* Wire the pin to fn (NULL: to nothing), told the current level at once; the lock not held. */
void model_pin_connect(struct model_pin *p, model_pin_fn fn, void *arg);
/* Unwire it and wait for a delivery in flight: after it fn is not called again. */
void model_pin_disconnect(struct model_pin *p);

#endif

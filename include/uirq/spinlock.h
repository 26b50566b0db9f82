/* SPDX-License-Identifier: MIT */
/*
 * Spinlocks with lockdep built in.  Holding one raises the preempt count, so
 * sleeping under it is caught by might_sleep(); the _irq and _irqsave
 * variants really disable interrupts on the calling thread (context.h).
 * The file:line of every call reaches lockdep's reports.
 */
#ifndef UIRQ_SPINLOCK_H
#define UIRQ_SPINLOCK_H

#include <stdbool.h>

#include "uirq/config.h"
#include "uirq/context.h"
#include "uirq/lockdep.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uirq_spinlock {
	UIRQ_ATOMIC_INT raw;
	struct uirq_lockdep_map dep_map;
} uirq_spinlock_t;

#define UIRQ_SPINLOCK_UNLOCKED(name) { .raw = 0, .dep_map = UIRQ_LOCKDEP_MAP_INIT(#name) }
/* A statically allocated spinlock, its class keyed by its address. */
#define UIRQ_DEFINE_SPINLOCK(x) uirq_spinlock_t x = UIRQ_SPINLOCK_UNLOCKED(x)

/* Initialise with a class per call site (a static key here, as the kernel does). */
#define uirq_spin_lock_init(l)						\
	do {								\
		static struct uirq_lock_class_key uirq__key;		\
		uirq__spin_lock_init((l), #l, &uirq__key);		\
	} while (0)

/* Initialise with an explicit name and key. */
void uirq__spin_lock_init(uirq_spinlock_t *l, const char *name, const struct uirq_lock_class_key *key);
/* Take the lock as subclass sub; the public macros below supply file and line. */
void uirq__spin_lock(uirq_spinlock_t *l, unsigned int sub, const char *file, int line);
/* Try once; returns 1 when it took the lock, 0 otherwise.  A trylock adds no dependency. */
int uirq__spin_trylock(uirq_spinlock_t *l, const char *file, int line);
/* Release the lock. */
void uirq__spin_unlock(uirq_spinlock_t *l, const char *file, int line);
/* Disable interrupts, then take the lock. */
void uirq__spin_lock_irq(uirq_spinlock_t *l, const char *file, int line);
/* Release the lock, then enable interrupts. */
void uirq__spin_unlock_irq(uirq_spinlock_t *l, const char *file, int line);
/* Save and disable interrupts, take the lock as subclass sub, return the flags. */
unsigned long uirq__spin_lock_irqsave(uirq_spinlock_t *l, unsigned int sub, const char *file, int line);
/* Release the lock, then restore the saved interrupt state. */
void uirq__spin_unlock_irqrestore(uirq_spinlock_t *l, unsigned long flags, const char *file, int line);
/* True while some thread holds the lock. */
bool uirq_spin_is_locked(uirq_spinlock_t *l);

#define uirq_spin_lock(l)		uirq__spin_lock((l), 0, __FILE__, __LINE__)
#define uirq_spin_lock_nested(l, s)	uirq__spin_lock((l), (s), __FILE__, __LINE__)
#define uirq_spin_trylock(l)		uirq__spin_trylock((l), __FILE__, __LINE__)
#define uirq_spin_unlock(l)		uirq__spin_unlock((l), __FILE__, __LINE__)
#define uirq_spin_lock_irq(l)		uirq__spin_lock_irq((l), __FILE__, __LINE__)
#define uirq_spin_unlock_irq(l)		uirq__spin_unlock_irq((l), __FILE__, __LINE__)
#define uirq_spin_lock_irqsave(l, flags) \
	((flags) = uirq__spin_lock_irqsave((l), 0, __FILE__, __LINE__))
#define uirq_spin_lock_irqsave_nested(l, flags, s) \
	((flags) = uirq__spin_lock_irqsave((l), (s), __FILE__, __LINE__))
#define uirq_spin_unlock_irqrestore(l, flags) \
	uirq__spin_unlock_irqrestore((l), (flags), __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif

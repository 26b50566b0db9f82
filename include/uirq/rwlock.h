/* SPDX-License-Identifier: MIT */
/*
 * Spinning reader-writer locks with lockdep built in, as the kernel's
 * rwlock_t.  Readers never wait for a waiting writer, so the read side is
 * recursive and lockdep treats it as recursive-read: read/read "cycles" are
 * no deadlock.  Holding either side raises the preempt count.
 */
#ifndef UIRQ_RWLOCK_H
#define UIRQ_RWLOCK_H


#include "uirq/config.h"
#include "uirq/context.h"
#include "uirq/lockdep.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uirq_rwlock {
	UIRQ_ATOMIC_INT raw;		/* -1 writer, else number of readers */
	struct uirq_lockdep_map dep_map;
} uirq_rwlock_t;

#define UIRQ_RWLOCK_UNLOCKED(name) { .raw = 0, .dep_map = UIRQ_LOCKDEP_MAP_INIT(#name) }
/* A statically allocated rwlock, its class keyed by its address. */
#define UIRQ_DEFINE_RWLOCK(x) uirq_rwlock_t x = UIRQ_RWLOCK_UNLOCKED(x)

/* Initialise with a class per call site. */
#define uirq_rwlock_init(l)						\
	do {								\
		static struct uirq_lock_class_key uirq__key;		\
		uirq__rwlock_init((l), #l, &uirq__key);			\
	} while (0)

/* Initialise with an explicit name and key. */
void uirq__rwlock_init(uirq_rwlock_t *l, const char *name, const struct uirq_lock_class_key *key);
/* Take the read side (recursive-read for lockdep). */
void uirq__read_lock(uirq_rwlock_t *l, const char *file, int line);
/* Try the read side once; returns 1 when it took it, 0 otherwise. */
int uirq__read_trylock(uirq_rwlock_t *l, const char *file, int line);
/* Release the read side. */
void uirq__read_unlock(uirq_rwlock_t *l, const char *file, int line);
/* Take the write side. */
void uirq__write_lock(uirq_rwlock_t *l, const char *file, int line);
/* Try the write side once; returns 1 when it took it, 0 otherwise. */
int uirq__write_trylock(uirq_rwlock_t *l, const char *file, int line);
/* Release the write side. */
void uirq__write_unlock(uirq_rwlock_t *l, const char *file, int line);
/* Save and disable interrupts, then take the read side; returns the flags. */
unsigned long uirq__read_lock_irqsave(uirq_rwlock_t *l, const char *file, int line);
/* Release the read side, then restore the interrupt state. */
void uirq__read_unlock_irqrestore(uirq_rwlock_t *l, unsigned long flags, const char *file, int line);
/* Save and disable interrupts, then take the write side; returns the flags. */
unsigned long uirq__write_lock_irqsave(uirq_rwlock_t *l, const char *file, int line);
/* Release the write side, then restore the interrupt state. */
void uirq__write_unlock_irqrestore(uirq_rwlock_t *l, unsigned long flags, const char *file, int line);

#define uirq_read_lock(l)		uirq__read_lock((l), __FILE__, __LINE__)
#define uirq_read_trylock(l)		uirq__read_trylock((l), __FILE__, __LINE__)
#define uirq_read_unlock(l)		uirq__read_unlock((l), __FILE__, __LINE__)
#define uirq_write_lock(l)		uirq__write_lock((l), __FILE__, __LINE__)
#define uirq_write_trylock(l)		uirq__write_trylock((l), __FILE__, __LINE__)
#define uirq_write_unlock(l)		uirq__write_unlock((l), __FILE__, __LINE__)
#define uirq_read_lock_irq(l)		(uirq_local_irq_disable(), uirq_read_lock(l))
#define uirq_read_unlock_irq(l)		(uirq_read_unlock(l), uirq_local_irq_enable())
#define uirq_write_lock_irq(l)		(uirq_local_irq_disable(), uirq_write_lock(l))
#define uirq_write_unlock_irq(l)	(uirq_write_unlock(l), uirq_local_irq_enable())
#define uirq_read_lock_irqsave(l, f)	((f) = uirq__read_lock_irqsave((l), __FILE__, __LINE__))
#define uirq_read_unlock_irqrestore(l, f) uirq__read_unlock_irqrestore((l), (f), __FILE__, __LINE__)
#define uirq_write_lock_irqsave(l, f)	((f) = uirq__write_lock_irqsave((l), __FILE__, __LINE__))
#define uirq_write_unlock_irqrestore(l, f) uirq__write_unlock_irqrestore((l), (f), __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif

/* SPDX-License-Identifier: MIT */
/*
 * Sleeping mutexes with lockdep built in.  Every lock calls might_sleep(), so
 * taking one in hard-irq context, under a spinlock or with interrupts
 * disabled is reported even when it would not have blocked.
 */
#ifndef UIRQ_MUTEX_H
#define UIRQ_MUTEX_H

#include <stdbool.h>

#include "uirq/config.h"
#include "uirq/lockdep.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uirq_mutex {
	UIRQ_ATOMIC_INT state;	/* 0 free, 1 locked, 2 locked with waiters */
	struct uirq_lockdep_map dep_map;
} uirq_mutex_t;

#define UIRQ_MUTEX_INITIALIZER(name) { .state = 0, .dep_map = UIRQ_LOCKDEP_MAP_INIT(#name) }
/* A statically allocated mutex, its class keyed by its address. */
#define UIRQ_DEFINE_MUTEX(x) uirq_mutex_t x = UIRQ_MUTEX_INITIALIZER(x)

/* Initialise with a class per call site. */
#define uirq_mutex_init(m)						\
	do {								\
		static struct uirq_lock_class_key uirq__key;		\
		uirq__mutex_init((m), #m, &uirq__key);			\
	} while (0)

/* Initialise with an explicit name and key (re-initialising a held mutex is reported). */
void uirq__mutex_init(uirq_mutex_t *m, const char *name, const struct uirq_lock_class_key *key);
/* Take the mutex as subclass sub, sleeping while it is contended. */
void uirq__mutex_lock(uirq_mutex_t *m, unsigned int sub, const char *file, int line);
/* Try once; returns 1 when it took the mutex (no dependency added), 0 otherwise. */
int uirq__mutex_trylock(uirq_mutex_t *m, const char *file, int line);
/* Release the mutex and wake one waiter. */
void uirq__mutex_unlock(uirq_mutex_t *m, const char *file, int line);
/* End a mutex's life; destroying a held mutex is reported. */
void uirq__mutex_destroy(uirq_mutex_t *m);
/* True while some thread holds the mutex. */
bool uirq_mutex_is_locked(uirq_mutex_t *m);

#define uirq_mutex_lock(m)		uirq__mutex_lock((m), 0, __FILE__, __LINE__)
#define uirq_mutex_lock_nested(m, s)	uirq__mutex_lock((m), (s), __FILE__, __LINE__)
#define uirq_mutex_trylock(m)		uirq__mutex_trylock((m), __FILE__, __LINE__)
#define uirq_mutex_unlock(m)		uirq__mutex_unlock((m), __FILE__, __LINE__)
#define uirq_mutex_destroy(m)		uirq__mutex_destroy(m)

#ifdef __cplusplus
}
#endif
#endif

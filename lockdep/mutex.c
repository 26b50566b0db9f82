// SPDX-License-Identifier: MIT
/* Sleeping mutexes: might_sleep and lockdep around a futex lock. */
#include "uirq/mutex.h"

#include "uirq/might_sleep.h"
#include "../lib/lib.h"

#define IP ((unsigned long)__builtin_return_address(0))

enum { UNLOCKED, LOCKED, CONTENDED };

static int cmpxchg(atomic_int *v, int old, int new)
{
	atomic_compare_exchange_strong_explicit(v, &old, new, memory_order_acquire, memory_order_relaxed);
	return old;
}

/* Three-state futex mutex: waiters mark the lock CONTENDED so unlock knows to wake. */
static void raw_lock(atomic_int *state)
{
	int c = cmpxchg(state, UNLOCKED, LOCKED);

	if (c == UNLOCKED)
		return;
	if (c != CONTENDED)
		c = atomic_exchange_explicit(state, CONTENDED, memory_order_acquire);
	while (c != UNLOCKED) {
		uirq_futex_wait(state, CONTENDED);
		c = atomic_exchange_explicit(state, CONTENDED, memory_order_acquire);
	}
}

static void raw_unlock(atomic_int *state)
{
	int old = atomic_load_explicit(state, memory_order_relaxed);

	/* An unlock of a free mutex (reported by lockdep) must not corrupt it. */
	while (old != UNLOCKED) {
		if (atomic_compare_exchange_weak_explicit(state, &old, UNLOCKED,
							  memory_order_release, memory_order_relaxed)) {
			if (old == CONTENDED)
				uirq_futex_wake(state, 1);
			return;
		}
	}
}

void uirq__mutex_init(uirq_mutex_t *m, const char *name, const struct uirq_lock_class_key *key)
{
	uirq_lockdep_init_map(&m->dep_map, name, key, 0);
	atomic_store_explicit(&m->state, UNLOCKED, memory_order_release);
}

void uirq__mutex_lock(uirq_mutex_t *m, unsigned int sub, const char *file, int line)
{
	uirq__might_sleep(file, line);
	if (uirq_debug_locks)
		uirq_lock_acquire(&m->dep_map, sub, 0, UIRQ_LOCK_WRITE, IP, file, line);
	raw_lock(&m->state);
}

int uirq__mutex_trylock(uirq_mutex_t *m, const char *file, int line)
{
	if (cmpxchg(&m->state, UNLOCKED, LOCKED) != UNLOCKED)
		return 0;
	if (uirq_debug_locks)
		uirq_lock_acquire(&m->dep_map, 0, 1, UIRQ_LOCK_WRITE, IP, file, line);
	return 1;
}

void uirq__mutex_unlock(uirq_mutex_t *m, const char *file, int line)
{
	if (uirq_debug_locks)
		uirq_lock_release(&m->dep_map, IP, file, line);
	raw_unlock(&m->state);
}

void uirq__mutex_destroy(uirq_mutex_t *m)
{
	uirq_lockdep_check_no_locks_freed(m, sizeof(*m));
}

bool uirq_mutex_is_locked(uirq_mutex_t *m)
{
	return atomic_load_explicit(&m->state, memory_order_relaxed) != UNLOCKED;
}

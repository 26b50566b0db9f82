// SPDX-License-Identifier: MIT
/* Spinlocks: preempt count, interrupt state and lockdep around a test-and-set lock. */
#include "uirq/spinlock.h"

#include "raw_spin.h"

#define IP ((unsigned long)__builtin_return_address(0))

static void raw_lock(atomic_int *raw)
{
	unsigned int spins = 0;

	for (;;) {
		if (!atomic_exchange_explicit(raw, 1, memory_order_acquire))
			return;
		while (atomic_load_explicit(raw, memory_order_relaxed))
			uirq_cpu_relax(&spins);
	}
}

void uirq__spin_lock_init(uirq_spinlock_t *l, const char *name, const struct uirq_lock_class_key *key)
{
	/* lockdep_init_map reports re-initialisation of a held lock first. */
	uirq_lockdep_init_map(&l->dep_map, name, key, 0);
	atomic_store_explicit(&l->raw, 0, memory_order_release);
}

static void do_lock(uirq_spinlock_t *l, unsigned int sub, unsigned long ip, const char *file, int line)
{
	uirq_preempt_disable();
	if (uirq_debug_locks)
		uirq_lock_acquire(&l->dep_map, sub, 0, UIRQ_LOCK_WRITE, ip, file, line);
	raw_lock(&l->raw);
}

static void do_unlock(uirq_spinlock_t *l, unsigned long ip, const char *file, int line)
{
	if (uirq_debug_locks)
		uirq_lock_release(&l->dep_map, ip, file, line);
	atomic_store_explicit(&l->raw, 0, memory_order_release);
	uirq_preempt_enable();
}

void uirq__spin_lock(uirq_spinlock_t *l, unsigned int sub, const char *file, int line)
{
	do_lock(l, sub, IP, file, line);
}

int uirq__spin_trylock(uirq_spinlock_t *l, const char *file, int line)
{
	uirq_preempt_disable();
	if (atomic_load_explicit(&l->raw, memory_order_relaxed) ||
	    atomic_exchange_explicit(&l->raw, 1, memory_order_acquire)) {
		uirq_preempt_enable();
		return 0;
	}
	if (uirq_debug_locks)
		uirq_lock_acquire(&l->dep_map, 0, 1, UIRQ_LOCK_WRITE, IP, file, line);
	return 1;
}

void uirq__spin_unlock(uirq_spinlock_t *l, const char *file, int line)
{
	do_unlock(l, IP, file, line);
}

void uirq__spin_lock_irq(uirq_spinlock_t *l, const char *file, int line)
{
	uirq_local_irq_disable();
	do_lock(l, 0, IP, file, line);
}

void uirq__spin_unlock_irq(uirq_spinlock_t *l, const char *file, int line)
{
	do_unlock(l, IP, file, line);
	uirq_local_irq_enable();
}

unsigned long uirq__spin_lock_irqsave(uirq_spinlock_t *l, unsigned int sub, const char *file, int line)
{
	unsigned long flags = uirq_local_irq_save();

	do_lock(l, sub, IP, file, line);
	return flags;
}

void uirq__spin_unlock_irqrestore(uirq_spinlock_t *l, unsigned long flags, const char *file, int line)
{
	do_unlock(l, IP, file, line);
	uirq_local_irq_restore(flags);
}

bool uirq_spin_is_locked(uirq_spinlock_t *l)
{
	return atomic_load_explicit(&l->raw, memory_order_relaxed) != 0;
}

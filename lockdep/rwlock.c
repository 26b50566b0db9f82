// SPDX-License-Identifier: MIT
/*
 * Reader-writer spinlocks.  Readers only wait for an active writer, never a
 * waiting one, which is what makes the read side recursive for lockdep.
 */
#include "uirq/rwlock.h"

#include "raw_spin.h"

#define IP ((unsigned long)__builtin_return_address(0))
#define WRITER (-1)

static bool raw_read_trylock(atomic_int *raw)
{
	int v = atomic_load_explicit(raw, memory_order_relaxed);

	while (v != WRITER)
		if (atomic_compare_exchange_weak_explicit(raw, &v, v + 1, memory_order_acquire,
							  memory_order_relaxed))
			return true;
	return false;
}

static bool raw_write_trylock(atomic_int *raw)
{
	int v = 0;

	return atomic_compare_exchange_strong_explicit(raw, &v, WRITER, memory_order_acquire,
						       memory_order_relaxed);
}

static void raw_read_unlock(atomic_int *raw)
{
	int v = atomic_load_explicit(raw, memory_order_relaxed);

	/* An unbalanced unlock (lockdep reports it) must not corrupt the lock. */
	while (v > 0)
		if (atomic_compare_exchange_weak_explicit(raw, &v, v - 1, memory_order_release,
							  memory_order_relaxed))
			return;
}

static void raw_write_unlock(atomic_int *raw)
{
	int v = WRITER;

	atomic_compare_exchange_strong_explicit(raw, &v, 0, memory_order_release, memory_order_relaxed);
}

void uirq__rwlock_init(uirq_rwlock_t *l, const char *name, const struct uirq_lock_class_key *key)
{
	uirq_lockdep_init_map(&l->dep_map, name, key, 0);
	atomic_store_explicit(&l->raw, 0, memory_order_release);
}

static void do_read_lock(uirq_rwlock_t *l, unsigned long ip, const char *file, int line)
{
	unsigned int spins = 0;

	uirq_preempt_disable();
	if (uirq_debug_locks)
		uirq_lock_acquire(&l->dep_map, 0, 0, UIRQ_LOCK_READ_RECURSIVE, ip, file, line);
	while (!raw_read_trylock(&l->raw))
		uirq_cpu_relax(&spins);
}

static void do_write_lock(uirq_rwlock_t *l, unsigned long ip, const char *file, int line)
{
	unsigned int spins = 0;

	uirq_preempt_disable();
	if (uirq_debug_locks)
		uirq_lock_acquire(&l->dep_map, 0, 0, UIRQ_LOCK_WRITE, ip, file, line);
	while (!raw_write_trylock(&l->raw))
		uirq_cpu_relax(&spins);
}

static void do_read_unlock(uirq_rwlock_t *l, unsigned long ip, const char *file, int line)
{
	if (uirq_debug_locks)
		uirq_lock_release(&l->dep_map, ip, file, line);
	raw_read_unlock(&l->raw);
	uirq_preempt_enable();
}

static void do_write_unlock(uirq_rwlock_t *l, unsigned long ip, const char *file, int line)
{
	if (uirq_debug_locks)
		uirq_lock_release(&l->dep_map, ip, file, line);
	raw_write_unlock(&l->raw);
	uirq_preempt_enable();
}

void uirq__read_lock(uirq_rwlock_t *l, const char *file, int line)
{
	do_read_lock(l, IP, file, line);
}

void uirq__write_lock(uirq_rwlock_t *l, const char *file, int line)
{
	do_write_lock(l, IP, file, line);
}

void uirq__read_unlock(uirq_rwlock_t *l, const char *file, int line)
{
	do_read_unlock(l, IP, file, line);
}

void uirq__write_unlock(uirq_rwlock_t *l, const char *file, int line)
{
	do_write_unlock(l, IP, file, line);
}

/* A successful trylock is held like any lock but adds no dependency. */
static int trylock(uirq_rwlock_t *l, bool (*try)(atomic_int *), int read, unsigned long ip,
		   const char *file, int line)
{
	uirq_preempt_disable();
	if (!try(&l->raw)) {
		uirq_preempt_enable();
		return 0;
	}
	if (uirq_debug_locks)
		uirq_lock_acquire(&l->dep_map, 0, 1, read, ip, file, line);
	return 1;
}

int uirq__read_trylock(uirq_rwlock_t *l, const char *file, int line)
{
	return trylock(l, raw_read_trylock, UIRQ_LOCK_READ_RECURSIVE, IP, file, line);
}

int uirq__write_trylock(uirq_rwlock_t *l, const char *file, int line)
{
	return trylock(l, raw_write_trylock, UIRQ_LOCK_WRITE, IP, file, line);
}

unsigned long uirq__read_lock_irqsave(uirq_rwlock_t *l, const char *file, int line)
{
	unsigned long flags = uirq_local_irq_save();

	do_read_lock(l, IP, file, line);
	return flags;
}

void uirq__read_unlock_irqrestore(uirq_rwlock_t *l, unsigned long flags, const char *file, int line)
{
	do_read_unlock(l, IP, file, line);
	uirq_local_irq_restore(flags);
}

unsigned long uirq__write_lock_irqsave(uirq_rwlock_t *l, const char *file, int line)
{
	unsigned long flags = uirq_local_irq_save();

	do_write_lock(l, IP, file, line);
	return flags;
}

void uirq__write_unlock_irqrestore(uirq_rwlock_t *l, unsigned long flags, const char *file, int line)
{
	do_write_unlock(l, IP, file, line);
	uirq_local_irq_restore(flags);
}

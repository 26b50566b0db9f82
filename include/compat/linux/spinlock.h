/* SPDX-License-Identifier: MIT */
/* Kernel names for spinlocks and rwlocks (uirq/spinlock.h, uirq/rwlock.h). */
#ifndef UIRQ_COMPAT_LINUX_SPINLOCK_H
#define UIRQ_COMPAT_LINUX_SPINLOCK_H

#include <linux/cleanup.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include "uirq/rwlock.h"
#include "uirq/spinlock.h"

typedef uirq_spinlock_t spinlock_t;
typedef uirq_rwlock_t rwlock_t;

#define DEFINE_SPINLOCK(x)		UIRQ_DEFINE_SPINLOCK(x)
#define __SPIN_LOCK_UNLOCKED(x)		UIRQ_SPINLOCK_UNLOCKED(x)
#define spin_lock_init(l)		uirq_spin_lock_init(l)
#define spin_lock(l)			uirq_spin_lock(l)
#define spin_lock_nested(l, s)		uirq_spin_lock_nested((l), (s))
#define spin_trylock(l)			uirq_spin_trylock(l)
#define spin_unlock(l)			uirq_spin_unlock(l)
#define spin_lock_irq(l)		uirq_spin_lock_irq(l)
#define spin_unlock_irq(l)		uirq_spin_unlock_irq(l)
#define spin_lock_irqsave(l, f)		uirq_spin_lock_irqsave((l), (f))
#define spin_lock_irqsave_nested(l, f, s) uirq_spin_lock_irqsave_nested((l), (f), (s))
#define spin_unlock_irqrestore(l, f)	uirq_spin_unlock_irqrestore((l), (f))
#define spin_is_locked(l)		uirq_spin_is_locked(l)
#define raw_spinlock_t			spinlock_t
#define raw_spin_lock_init(l)		spin_lock_init(l)
#define raw_spin_lock(l)		spin_lock(l)
#define raw_spin_unlock(l)		spin_unlock(l)
#define raw_spin_lock_irqsave(l, f)	spin_lock_irqsave((l), (f))
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore((l), (f))

#define DEFINE_RWLOCK(x)		UIRQ_DEFINE_RWLOCK(x)
#define rwlock_init(l)			uirq_rwlock_init(l)
#define read_lock(l)			uirq_read_lock(l)
#define read_trylock(l)			uirq_read_trylock(l)
#define read_unlock(l)			uirq_read_unlock(l)
#define write_lock(l)			uirq_write_lock(l)
#define write_trylock(l)		uirq_write_trylock(l)
#define write_unlock(l)			uirq_write_unlock(l)
#define read_lock_irq(l)		uirq_read_lock_irq(l)
#define read_unlock_irq(l)		uirq_read_unlock_irq(l)
#define write_lock_irq(l)		uirq_write_lock_irq(l)
#define write_unlock_irq(l)		uirq_write_unlock_irq(l)
#define read_lock_irqsave(l, f)		uirq_read_lock_irqsave((l), (f))
#define read_unlock_irqrestore(l, f)	uirq_read_unlock_irqrestore((l), (f))
#define write_lock_irqsave(l, f)	uirq_write_lock_irqsave((l), (f))
#define write_unlock_irqrestore(l, f)	uirq_write_unlock_irqrestore((l), (f))

/* The kernel's lock guards (<linux/cleanup.h>): guard(spinlock_irqsave)(&lock) holds it to the end of the scope. */
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t, spin_lock_irq(_T->lock), spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t, spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags), unsigned long flags)

#endif

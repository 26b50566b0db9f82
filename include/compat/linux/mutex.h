/* SPDX-License-Identifier: MIT */
/* Kernel names for sleeping mutexes (uirq/mutex.h). */
#ifndef UIRQ_COMPAT_LINUX_MUTEX_H
#define UIRQ_COMPAT_LINUX_MUTEX_H

#include <linux/cleanup.h>

#include <linux/lockdep.h>
#include "uirq/mutex.h"

#define mutex				uirq_mutex
#define DEFINE_MUTEX(x)			UIRQ_DEFINE_MUTEX(x)
#define mutex_init(m)			uirq_mutex_init(m)
#define mutex_lock(m)			uirq_mutex_lock(m)
#define mutex_lock_nested(m, s)		uirq_mutex_lock_nested((m), (s))
#define mutex_trylock(m)		uirq_mutex_trylock(m)
#define mutex_unlock(m)			uirq_mutex_unlock(m)
#define mutex_destroy(m)		uirq_mutex_destroy(m)
#define mutex_is_locked(m)		uirq_mutex_is_locked(m)

/* guard(mutex)(&m) holds m to the end of the scope (<linux/cleanup.h>). */
DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))

#endif

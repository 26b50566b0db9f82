// SPDX-License-Identifier: MIT
/* pthread_spin_*: exclusive locks, validated before the thread starts spinning. */
#include "preload.h"

PRELOAD_EXPORT int pthread_spin_lock(pthread_spinlock_t *l)
{
	unsigned long ip = CALLER_IP;
	struct lock_rec *r;
	int ret;

	if (unlikely(!preload_active()) || !(r = rec_get((void *)l, REC_SPIN, ip)))
		return REAL(spin_lock)(l);
	if (unlikely(r->flags & REC_FORK_HELD))
		preload_fork_held_check(r, (void *)l, true, ip);
	preload_acquire(r, 0, 0, UIRQ_LOCK_WRITE, ip);
	ret = likely(!preload_stat) ? REAL(spin_lock)(l) :
	      preload_stat_lock(r, (void *)l, (int (*)(void *))REAL(spin_trylock), (int (*)(void *))REAL(spin_lock),
				true, ip);
	if (unlikely(ret != 0))
		uirq_lock_release(&r->map, ip, NULL, 0);
	return ret;
}

PRELOAD_EXPORT int pthread_spin_trylock(pthread_spinlock_t *l)
{
	unsigned long ip = CALLER_IP;
	struct lock_rec *r;
	int ret = REAL(spin_trylock)(l);

	if (ret == 0 && likely(preload_active()) && (r = rec_get((void *)l, REC_SPIN, ip))) {
		if (unlikely(preload_stat))
			preload_stat_acquired(r, (void *)l, true);
		preload_acquire(r, 0, 1, UIRQ_LOCK_WRITE, ip);
	}
	return ret;
}

PRELOAD_EXPORT int pthread_spin_unlock(pthread_spinlock_t *l)
{
	preload_stat_release((void *)l);
	if (likely(preload_active()) && !preload_release_top((void *)l, REC_SPIN))
		rec_unlock_slow((void *)l, REC_SPIN, CALLER_IP);
	return REAL(spin_unlock)(l);
}

PRELOAD_EXPORT int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(spin_init)(l, pshared);

	if (ret == 0 && preload_active())
		rec_init((void *)l, REC_SPIN, ip, pshared == PTHREAD_PROCESS_SHARED);
	return ret;
}

PRELOAD_EXPORT int pthread_spin_destroy(pthread_spinlock_t *l)
{
	struct lock_rec *r;
	int held, ret;

	if (unlikely(!preload_active()))
		return REAL(spin_destroy)(l);
	r = rec_destroy_begin((void *)l, REC_SPIN, &held);
	ret = REAL(spin_destroy)(l);
	rec_destroy_end(r, (void *)l, held, ret, CALLER_IP);
	return ret;
}

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
	uirq_lock_acquire(&r->map, 0, 0, UIRQ_LOCK_WRITE, ip, NULL, 0);
	ret = REAL(spin_lock)(l);
	if (unlikely(ret != 0))
		uirq_lock_release(&r->map, ip, NULL, 0);
	return ret;
}

PRELOAD_EXPORT int pthread_spin_trylock(pthread_spinlock_t *l)
{
	unsigned long ip = CALLER_IP;
	struct lock_rec *r;
	int ret = REAL(spin_trylock)(l);

	if (ret == 0 && likely(preload_active()) && (r = rec_get((void *)l, REC_SPIN, ip)))
		uirq_lock_acquire(&r->map, 0, 1, UIRQ_LOCK_WRITE, ip, NULL, 0);
	return ret;
}

PRELOAD_EXPORT int pthread_spin_unlock(pthread_spinlock_t *l)
{
	unsigned long ip = CALLER_IP;
	struct lock_rec *r;

	if (likely(preload_active()) && (r = rec_get((void *)l, REC_SPIN, ip)))
		uirq_lock_release(&r->map, ip, NULL, 0);
	return REAL(spin_unlock)(l);
}

PRELOAD_EXPORT int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(spin_init)(l, pshared);

	if (ret == 0 && preload_active())
		rec_lookup_slow((void *)l, REC_SPIN, ip, true);
	return ret;
}

PRELOAD_EXPORT int pthread_spin_destroy(pthread_spinlock_t *l)
{
	struct lock_rec *r;
	int held, ret;

	if (unlikely(!preload_active()))
		return REAL(spin_destroy)(l);
	r = rec_find((void *)l);
	held = rec_destroy_begin(r);
	ret = REAL(spin_destroy)(l);
	rec_destroy_end(r, held, ret, CALLER_IP);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * pthread_rwlock_*: the read side of glibc's default rwlock is a recursive
 * read (read=2), as for the kernel's rwlock_t: it prefers readers, so a
 * reader never waits for a writer that waits for it, and read/read
 * "inversions" are no deadlock.  An rwlock made with
 * PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP makes new readers wait behind
 * a waiting writer: its reads are non-recursive (read=1), and a cycle
 * through them is a deadlock.  The write side is exclusive.
 */
#include "preload.h"

#include <errno.h>

enum op { OP_RD, OP_TRYRD, OP_TIMEDRD, OP_CLOCKRD, OP_WR, OP_TRYWR, OP_TIMEDWR, OP_CLOCKWR };

static ALWAYS_INLINE int real_lock(enum op op, pthread_rwlock_t *l, clockid_t clk, const struct timespec *t)
{
	switch (op) {
	case OP_RD:
		return REAL(rwlock_rdlock)(l);
	case OP_TRYRD:
		return REAL(rwlock_tryrdlock)(l);
	case OP_TIMEDRD:
		return REAL(rwlock_timedrdlock)(l, t);
	case OP_CLOCKRD:
		return REAL(rwlock_clockrdlock) ? REAL(rwlock_clockrdlock)(l, clk, t) : ENOSYS;
	case OP_WR:
		return REAL(rwlock_wrlock)(l);
	case OP_TRYWR:
		return REAL(rwlock_trywrlock)(l);
	case OP_TIMEDWR:
		return REAL(rwlock_timedwrlock)(l, t);
	default:
		return REAL(rwlock_clockwrlock) ? REAL(rwlock_clockwrlock)(l, clk, t) : ENOSYS;
	}
}

static ALWAYS_INLINE int do_lock(enum op op, pthread_rwlock_t *l, clockid_t clk, const struct timespec *t,
				 unsigned long ip, unsigned int subclass)
{
	bool try = op == OP_TRYRD || op == OP_TRYWR;
	struct lock_rec *r;
	int ret, read;

	if (unlikely(!preload_active()))
		return real_lock(op, l, clk, t);
	r = rec_get(l, REC_RWLOCK, ip);
	if (unlikely(!r))
		return real_lock(op, l, clk, t);
	if (unlikely(r->flags & REC_FORK_HELD) && !try)
		preload_fork_held_check(r, l, op >= OP_WR, ip);
	read = op >= OP_WR ? UIRQ_LOCK_WRITE :
	       r->mtype == MTYPE_RW_WRITER_FIRST ? UIRQ_LOCK_READ : UIRQ_LOCK_READ_RECURSIVE;
	if (!try)
		preload_acquire(r, subclass, 0, read, ip);
	if (unlikely(preload_stat) && (op == OP_RD || op == OP_WR))
		ret = preload_stat_lock(r, l, (int (*)(void *))(op == OP_RD ? REAL(rwlock_tryrdlock) : REAL(rwlock_trywrlock)),
					(int (*)(void *))(op == OP_RD ? REAL(rwlock_rdlock) : REAL(rwlock_wrlock)),
					op == OP_WR, ip);
	else
		ret = real_lock(op, l, clk, t);
	if (unlikely(preload_stat) && ret == 0 && op != OP_RD && op != OP_WR)
		preload_stat_acquired(r, l, op >= OP_WR);
	if (ret == 0 && try)
		preload_acquire(r, subclass, 1, read, ip);
	else if (ret != 0 && !try) {
		uirq_lock_release(&r->map, ip, NULL, 0);	/* timed out, or EDEADLK */
		wait_unlog(r);	/* got through without it (waits.c) */
	}
	return ret;
}

PRELOAD_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	return do_lock(OP_RD, l, 0, NULL, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	return do_lock(OP_TRYRD, l, 0, NULL, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t *restrict l, const struct timespec *restrict t)
{
	return do_lock(OP_TIMEDRD, l, 0, t, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t *restrict l, clockid_t clk,
					      const struct timespec *restrict t)
{
	return do_lock(OP_CLOCKRD, l, clk, t, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	return do_lock(OP_WR, l, 0, NULL, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	return do_lock(OP_TRYWR, l, 0, NULL, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t *restrict l, const struct timespec *restrict t)
{
	return do_lock(OP_TIMEDWR, l, 0, t, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t *restrict l, clockid_t clk,
					      const struct timespec *restrict t)
{
	return do_lock(OP_CLOCKWR, l, clk, t, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	preload_stat_release(l);
	if (likely(preload_active()) && !preload_release_top(l, REC_RWLOCK))
		rec_unlock_slow(l, REC_RWLOCK, CALLER_IP);
	return REAL(rwlock_unlock)(l);
}

PRELOAD_EXPORT int pthread_rwlock_init(pthread_rwlock_t *restrict l, const pthread_rwlockattr_t *restrict attr)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(rwlock_init)(l, attr);

	if (ret == 0 && preload_active())
		rec_init(l, REC_RWLOCK, ip, false);
	return ret;
}

PRELOAD_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
	struct lock_rec *r;
	int held, ret;

	if (unlikely(!preload_active()))
		return REAL(rwlock_destroy)(l);
	r = rec_destroy_begin(l, REC_RWLOCK, &held);
	ret = REAL(rwlock_destroy)(l);
	rec_destroy_end(r, l, held, ret, CALLER_IP);
	return ret;
}

PRELOAD_EXPORT int uirq__rwlock_rdlock_nested(pthread_rwlock_t *l, unsigned int subclass)
{
	return do_lock(OP_RD, l, 0, NULL, CALLER_IP, subclass);
}

PRELOAD_EXPORT int uirq__rwlock_wrlock_nested(pthread_rwlock_t *l, unsigned int subclass)
{
	return do_lock(OP_WR, l, 0, NULL, CALLER_IP, subclass);
}

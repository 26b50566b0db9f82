// SPDX-License-Identifier: MIT
/*
 * pthread_mutex_*: every blocking acquisition is validated before the real
 * call, so a deadlock is reported before the thread can block in it; a
 * trylock is noted only once it has succeeded (it adds no dependency).
 *
 * Recursive and error-checking mutexes track their owner here: a recursive
 * relock is legal and invisible to lockdep (only the outermost lock and
 * unlock are annotated); an error-checking relock is left to the real call,
 * which fails with EDEADLK - the program asked for that check and gets its
 * answer.  An unlock by a thread that does not own the mutex (one unlock too
 * many, or another thread's mutex) is reported as a bad unlock for every
 * type: few programs look at what pthread_mutex_unlock() returns.
 */
#include "preload.h"

#include <errno.h>

enum op { OP_LOCK, OP_TRY, OP_TIMED, OP_CLOCK };

static ALWAYS_INLINE int real_lock(enum op op, pthread_mutex_t *m, clockid_t clk, const struct timespec *t)
{
	switch (op) {
	case OP_LOCK:
		return REAL(mutex_lock)(m);
	case OP_TRY:
		return REAL(mutex_trylock)(m);
	case OP_TIMED:
		return REAL(mutex_timedlock)(m, t);
	default:
		return REAL(mutex_clocklock) ? REAL(mutex_clocklock)(m, clk, t) : ENOSYS;
	}
}

/* EOWNERDEAD: a robust mutex whose owner died - the caller holds it now. */
static inline bool got_it(int ret)
{
	return ret == 0 || ret == EOWNERDEAD;
}

static ALWAYS_INLINE int do_lock(enum op op, pthread_mutex_t *m, clockid_t clk, const struct timespec *t,
				 unsigned long ip, unsigned int subclass)
{
	struct lock_rec *r;
	bool owned;
	int ret;

	if (unlikely(!preload_active()))
		return real_lock(op, m, clk, t);
	r = rec_get(m, REC_MUTEX, ip);
	if (unlikely(!r))
		return real_lock(op, m, clk, t);
	if (unlikely(r->flags & REC_FORK_HELD) && op != OP_TRY)
		preload_fork_held_check(r, m, true, ip);
	owned = r->mtype != MTYPE_NORMAL;
	if (owned && atomic_load_explicit(&r->owner, memory_order_relaxed) == SELF) {
		ret = real_lock(op, m, clk, t);
		if (ret == 0 && r->mtype == MTYPE_RECURSIVE)
			r->depth++;
		return ret;
	}
	if (op != OP_TRY)
		preload_acquire(r, subclass, 0, UIRQ_LOCK_WRITE, ip);
	if (unlikely(preload_stat) && op == OP_LOCK)
		ret = preload_stat_lock(r, m, (int (*)(void *))REAL(mutex_trylock), (int (*)(void *))REAL(mutex_lock),
					true, ip);
	else
		ret = real_lock(op, m, clk, t);
	if (likely(got_it(ret))) {
		if (unlikely(preload_stat) && op != OP_LOCK)
			preload_stat_acquired(r, m, true);
		if (op == OP_TRY)
			preload_acquire(r, subclass, 1, UIRQ_LOCK_WRITE, ip);
		if (owned) {
			atomic_store_explicit(&r->owner, SELF, memory_order_relaxed);
			r->depth = 1;
		}
	} else if (op != OP_TRY) {
		/* Timed out or failed: the validation stays, the hold does not. */
		uirq_lock_release(&r->map, ip, NULL, 0);
		wait_unlog(r);	/* got through without it (waits.c) */
	}
	return ret;
}

/* pthread_mutex_lock, for whatever the fast path below does not handle. */
static __attribute__((noinline)) int lock_slow(pthread_mutex_t *m, unsigned long ip)
{
	return do_lock(OP_LOCK, m, 0, NULL, ip, 0);
}

/* A failed pthread_mutex_lock (EINVAL, ENOTRECOVERABLE, ...): the validation stays, the hold does not. */
static __attribute__((noinline)) void lock_failed(pthread_mutex_t *m, unsigned long ip)
{
	struct lock_rec *r = rec_get(m, REC_MUTEX, ip);

	if (r) {
		uirq_lock_release(&r->map, ip, NULL, 0);
		wait_unlog(r);
	}
}

/* The real pthread_mutex_lock of an annotated lock. */
static __attribute__((noinline)) int lock_call(pthread_mutex_t *m, struct lock_rec *r, unsigned long ip)
{
	int ret;

	if (likely(!preload_stat)) {
		ret = REAL(mutex_lock)(m);
	} else if ((ret = REAL(mutex_trylock)(m)) == 0) {
		preload_stat_acquired(r, m, true);
	} else {
		/* taken (or EINVAL & co, which the real lock answers again) */
		ret = preload_stat_lock(r, m, (int (*)(void *))REAL(mutex_trylock),
					(int (*)(void *))REAL(mutex_lock), true, ip);
	}

	if (unlikely(!got_it(ret)))
		lock_failed(m, ip);
	return ret;
}

/*
 * The common case, do_lock(OP_LOCK) for a normal mutex with a live record,
 * with nothing but m kept across the real call.
 */
PRELOAD_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	struct lockdep_task *t;
	struct lock_rec *r;

	if (unlikely(!preload_active()))
		return REAL(mutex_lock)(m);
	r = rec_probe_mutex(m);
	if (unlikely(!r))
		return lock_slow(m, CALLER_IP);
	t = lockdep_task();
	if (unlikely(!lockdep_acquire_fast(t, &r->map, 0, 0, UIRQ_LOCK_WRITE, CALLER_IP, NULL, 0))) {
		/*
		 * Out of lockdep again, and the whole of do_lock(), which finds r
		 * and tries the fast path once more before the complete one: a
		 * few dozen instructions on a path of thousands, for keeping
		 * nothing but m and the caller's address live in the fast path
		 * (fewer registers to save).
		 */
		t->recursion = 0;
		return lock_slow(m, CALLER_IP);
	}
	if (unlikely(preload_stat))
		return lock_call(m, r, CALLER_IP);
	/*
	 * The probe's tag said: a normal or adaptive mutex, neither robust nor
	 * PI nor PP, whose real lock always returns 0 - nothing to undo after
	 * it, so a tail call and this function keeps no stack frame.
	 */
	return REAL(mutex_lock)(m);
}

/* <uirq/lockdep-annotate.h>: mutex_lock_nested() */
PRELOAD_EXPORT int uirq__mutex_lock_nested(pthread_mutex_t *m, unsigned int subclass)
{
	return do_lock(OP_LOCK, m, 0, NULL, CALLER_IP, subclass);
}

PRELOAD_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
	return do_lock(OP_TRY, m, 0, NULL, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *restrict m, const struct timespec *restrict t)
{
	return do_lock(OP_TIMED, m, 0, t, CALLER_IP, 0);
}

PRELOAD_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *restrict m, clockid_t clk,
					   const struct timespec *restrict t)
{
	return do_lock(OP_CLOCK, m, clk, t, CALLER_IP, 0);
}

/* The annotation of an unlock that is not of the top of the stack, or of a recursive/error-checking mutex. */
static __attribute__((noinline)) void unlock_slow(pthread_mutex_t *m, unsigned long ip)
{
	struct lock_rec *r;

	if (rec_release_below(m, REC_MUTEX))
		return;
	r = rec_get(m, REC_MUTEX, ip);

	if (unlikely(!r))
		return;
	if (r->mtype != MTYPE_NORMAL) {
		if (atomic_load_explicit(&r->owner, memory_order_relaxed) != SELF) {
			/* not held by this thread, so not on its stack: lockdep reports the bad unlock */
			preload_release(r, ip);
			return;
		}
		if (r->depth > 1) {
			r->depth--;
			return;
		}
		r->depth = 0;
		atomic_store_explicit(&r->owner, 0, memory_order_relaxed);
	}
	preload_release(r, ip);
}

/* The complete unlock: annotation, then the real call. */
static __attribute__((noinline)) int unlock_slow_call(pthread_mutex_t *m, unsigned long ip)
{
	unlock_slow(m, ip);
	return REAL(mutex_unlock)(m);
}

static ALWAYS_INLINE int do_unlock(pthread_mutex_t *m, unsigned long ip)
{
	/* Released before the real unlock, as the kernel does: the next owner may run at once. */
	if (likely(preload_active()) && unlikely(!preload_release_top(m, REC_MUTEX)))
		return unlock_slow_call(m, ip);
	return REAL(mutex_unlock)(m);
}

/* --stat: the hold time ends first; out of line, so the common case keeps no stack frame. */
static __attribute__((noinline)) int unlock_stat(pthread_mutex_t *m, unsigned long ip)
{
	preload_stat_release(m);
	return do_unlock(m, ip);
}

PRELOAD_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (unlikely(preload_stat))
		return unlock_stat(m, CALLER_IP);
	return do_unlock(m, CALLER_IP);
}

PRELOAD_EXPORT int pthread_mutex_init(pthread_mutex_t *restrict m, const pthread_mutexattr_t *restrict attr)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(mutex_init)(m, attr);

	if (ret == 0 && preload_active())
		rec_init(m, REC_MUTEX, ip, false);
	return ret;
}

PRELOAD_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m)
{
	struct lock_rec *r;
	int held, ret;

	if (unlikely(!preload_active()))
		return REAL(mutex_destroy)(m);
	r = rec_destroy_begin(m, REC_MUTEX, &held);
	ret = REAL(mutex_destroy)(m);
	rec_destroy_end(r, m, held, ret, CALLER_IP);
	return ret;
}

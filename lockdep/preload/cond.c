// SPDX-License-Identifier: MIT
/*
 * pthread_cond_*wait: the wait releases the mutex and takes it again before
 * returning (also on timeout, and before cancellation handlers run), so the
 * annotation follows: released before the wait, re-acquired after it.  The
 * relock happens inside the real call, so it is validated on return.
 */
#include "preload.h"

#include <errno.h>

struct waiter {
	struct lock_rec *r;
	uintptr_t owner;	/* owner and depth of a recursive/error-checking mutex */
	unsigned int depth;
	unsigned long ip;
};

enum op { OP_WAIT, OP_TIMED, OP_CLOCK };

static void relock(struct waiter *w)
{
	uirq_lock_acquire(&w->r->map, 0, 0, UIRQ_LOCK_WRITE, w->ip, NULL, 0);
	if (w->r->mtype != MTYPE_NORMAL) {
		atomic_store_explicit(&w->r->owner, w->owner, memory_order_relaxed);
		w->r->depth = w->depth;
	}
}

/* Cancelled in the wait: the mutex is held again when cleanup handlers run. */
static void relock_on_cancel(void *arg)
{
	relock(arg);
}

static ALWAYS_INLINE int real_wait(enum op op, pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
			    const struct timespec *t)
{
	switch (op) {
	case OP_WAIT:
		return REAL(cond_wait)(c, m);
	case OP_TIMED:
		return REAL(cond_timedwait)(c, m, t);
	default:
		return REAL(cond_clockwait) ? REAL(cond_clockwait)(c, m, clk, t) : ENOSYS;
	}
}

static int do_wait(enum op op, pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
		   const struct timespec *t, unsigned long ip)
{
	struct waiter w = { .ip = ip };
	int ret;

	if (unlikely(!preload_active()) || !(w.r = rec_get(m, REC_MUTEX, ip)))
		return real_wait(op, c, m, clk, t);
	if (w.r->mtype != MTYPE_NORMAL) {
		w.owner = atomic_load_explicit(&w.r->owner, memory_order_relaxed);
		if (w.owner != SELF)	/* not ours: EPERM from the real call */
			return real_wait(op, c, m, clk, t);
		w.depth = w.r->depth;
		w.r->depth = 0;
		atomic_store_explicit(&w.r->owner, 0, memory_order_relaxed);
	}
	uirq_lock_release(&w.r->map, ip, NULL, 0);
	pthread_cleanup_push(relock_on_cancel, &w);
	ret = real_wait(op, c, m, clk, t);
	pthread_cleanup_pop(0);
	relock(&w);
	return ret;
}

PRELOAD_EXPORT int pthread_cond_wait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m)
{
	return do_wait(OP_WAIT, c, m, 0, NULL, CALLER_IP);
}

PRELOAD_EXPORT int pthread_cond_timedwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
					  const struct timespec *restrict t)
{
	return do_wait(OP_TIMED, c, m, 0, t, CALLER_IP);
}

PRELOAD_EXPORT int pthread_cond_clockwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
					  clockid_t clk, const struct timespec *restrict t)
{
	return do_wait(OP_CLOCK, c, m, clk, t, CALLER_IP);
}

// SPDX-License-Identifier: MIT
/*
 * pthread_cond_*wait: the wait releases the mutex and takes it again before
 * returning (also on timeout, and before cancellation handlers run), so the
 * annotation follows: released before the wait, re-acquired after it.  The
 * relock happens inside the real call, so it is validated on return.
 *
 * Two misuses are reported, as Helgrind does: waiting with a mutex the
 * caller does not hold (the wait unlocks someone else's mutex, or none), and
 * waiting with another mutex than the threads already waiting there.  POSIX
 * binds a condition variable to a mutex only while someone waits on it, so
 * the binding is made by the first waiter and ends with the last.
 */
#include "preload.h"

#include <errno.h>

struct waiter {
	struct lock_rec *r;	/* the mutex's */
	struct lock_rec *c;	/* the condition variable's, or NULL */
	pthread_cond_t *cond;
	uintptr_t owner;	/* owner and depth of a recursive/error-checking mutex */
	unsigned int depth;
	bool held;		/* the caller held the mutex */
	unsigned long ip;
};

enum op { OP_WAIT, OP_TIMED, OP_CLOCK };

/* One more waiter on cond with m; reported if it waits there with another mutex. */
static void cond_enter(struct waiter *w, pthread_cond_t *cond, pthread_mutex_t *m)
{
	uintptr_t bound;

	w->cond = cond;
	if (!rec_table_enter())
		return;
	w->c = cond_rec(cond);
	if (w->c) {
		bound = atomic_load_explicit(&w->c->owner, memory_order_relaxed);
		if (w->c->depth && bound != (uintptr_t)m)
			preload_report_cond_two(cond, w->c, m, (void *)bound, w->ip);
		if (!w->c->depth++) {
			atomic_store_explicit(&w->c->owner, (uintptr_t)m, memory_order_relaxed);
			w->c->site = w->ip;
		}
	}
	rec_table_exit();
}

static void cond_exit(struct waiter *w)
{
	if (!w->c || !rec_table_enter())
		return;
	/* the same condition variable still (not freed and reused meanwhile) */
	if (atomic_load_explicit(&w->c->addr, memory_order_relaxed) == (uintptr_t)w->cond &&
	    w->c->kind == REC_COND && w->c->depth && !--w->c->depth)
		atomic_store_explicit(&w->c->owner, 0, memory_order_relaxed);
	rec_table_exit();
}

/* The wait returned holding the mutex: as it was before, or (not held before) held once now. */
static void relock(struct waiter *w)
{
	uirq_lock_acquire(&w->r->map, 0, 0, UIRQ_LOCK_WRITE, w->ip, NULL, 0);
	if (w->r->mtype == MTYPE_NORMAL)
		return;
	atomic_store_explicit(&w->r->owner, w->held ? w->owner : SELF, memory_order_relaxed);
	w->r->depth = w->held ? w->depth : 1;
}

/* Cancelled in the wait: the mutex is held again when cleanup handlers run. */
static void relock_on_cancel(void *arg)
{
	struct waiter *w = arg;

	wait_done();
	relock(w);
	cond_exit(w);
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

	if (unlikely(!preload_active()))
		return real_wait(op, c, m, clk, t);
	if (!(w.r = rec_get(m, REC_MUTEX, ip))) {
		/* no mutex we can track (misaligned, say): certainly not one the caller holds */
		if (lockdep_current.recursion)
			return real_wait(op, c, m, clk, t);
		preload_report_cond_unheld(c, NULL, m, ip);
		return real_wait(op, c, m, clk, t);
	}
	if (w.r->mtype != MTYPE_NORMAL) {
		w.owner = atomic_load_explicit(&w.r->owner, memory_order_relaxed);
		w.held = w.owner == SELF;
	} else {
		w.held = uirq_lockdep_is_held(&w.r->map);
	}
	if (!w.held) {
		preload_report_cond_unheld(c, w.r, m, ip);
	} else {
		if (w.r->mtype != MTYPE_NORMAL) {
			w.depth = w.r->depth;
			w.r->depth = 0;
			atomic_store_explicit(&w.r->owner, 0, memory_order_relaxed);
		}
		uirq_lock_release(&w.r->map, ip, NULL, 0);
	}
	cond_enter(&w, c, m);
	/* the locks still held lead to the condition's event (waits.c) */
	if (w.c)
		wait_edge(w.c, op == OP_WAIT ? "pthread_cond_wait" : op == OP_TIMED ? "pthread_cond_timedwait" :
			  "pthread_cond_clockwait", op != OP_WAIT, ip);
	pthread_cleanup_push(relock_on_cancel, &w);
	ret = real_wait(op, c, m, clk, t);
	pthread_cleanup_pop(0);
	wait_done();
	cond_exit(&w);
	/* EPERM: an error-checking or recursive mutex not ours - the call did nothing to it */
	if (ret != EPERM)
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

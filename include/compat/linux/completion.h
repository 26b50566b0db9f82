/* SPDX-License-Identifier: MIT */
/*
 * Completions (compat/wait.c): a count of complete() calls that waiters
 * consume one each, complete_all() releasing every waiter until
 * reinit_completion().  The waits are uirq's (uirq_sim_wait_word()): a
 * scheduling point in the deterministic mode, where a timeout runs on the
 * virtual clock.  Timeouts and what the _timeout forms return are in
 * jiffies, as the kernel's: 0 on timeout, else the jiffies left (at least 1).
 */
#ifndef UIRQ_COMPAT_LINUX_COMPLETION_H
#define UIRQ_COMPAT_LINUX_COMPLETION_H

#include <stdint.h>

#include <linux/kernel.h>

struct completion {
	unsigned int done;	/* UINT_MAX: completed for all */
	uint32_t uirq_seq;	/* bumped by each complete: the waiters' word */
};

#define COMPLETION_INITIALIZER(work)		{ 0, 0 }
#define COMPLETION_INITIALIZER_ONSTACK(work)	COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION(work)		struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work)	DECLARE_COMPLETION(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	x->uirq_seq = 0;
}

/* Back to not done, as after init_completion(); waiters there are not woken. */
static inline void reinit_completion(struct completion *x)
{
	__atomic_store_n(&x->done, 0, __ATOMIC_SEQ_CST);
}

void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout);
/* No signals reach a waiter here: these return as the uninterruptible forms do (0, or the jiffies left). */
int wait_for_completion_interruptible(struct completion *x);
int wait_for_completion_killable(struct completion *x);
long wait_for_completion_interruptible_timeout(struct completion *x, unsigned long timeout);
long wait_for_completion_killable_timeout(struct completion *x, unsigned long timeout);
/* Consume one complete() without waiting: whether there was one. */
bool try_wait_for_completion(struct completion *x);
/* Whether no waiter would block (a complete() not yet consumed). */
bool completion_done(struct completion *x);

#endif

// SPDX-License-Identifier: MIT
/*
 * Completions and wait queues (<linux/completion.h>, <linux/wait.h>) on
 * uirq's wait word (uirq_sim_wait_word()): a word each waiter reads before
 * it checks its condition and sleeps on after, bumped by every
 * complete()/wake_up() before the wake, so no wake-up falls between the
 * check and the sleep.  In the deterministic mode the sleep is a
 * scheduling point and a timeout runs on the virtual clock.
 */
#include <errno.h>
#include <limits.h>

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/wait.h>

#include "uirq/sim.h"

#define NSEC_PER_JIFFY	1000000ull	/* HZ=1000 */

uint64_t uirq_wait_deadline(unsigned long timeout_jiffies)
{
	/* MAX_SCHEDULE_TIMEOUT and anything past a few centuries: no deadline. */
	if (timeout_jiffies >= (unsigned long)LONG_MAX || timeout_jiffies > UINT64_MAX / NSEC_PER_JIFFY / 2)
		return UIRQ_SIM_WAIT_FOREVER;
	return uirq_sim_clock_ns() + timeout_jiffies * NSEC_PER_JIFFY;
}

/* The kernel's answer after a wait that succeeded: the jiffies left, rounded up, and at least 1. */
long uirq_wait_jiffies_left(uint64_t deadline_ns)
{
	uint64_t now = uirq_sim_clock_ns();

	if (deadline_ns == UIRQ_SIM_WAIT_FOREVER)
		return LONG_MAX;
	if (deadline_ns <= now)
		return 1;
	return (long)((deadline_ns - now + NSEC_PER_JIFFY - 1) / NSEC_PER_JIFFY);
}

uint32_t uirq_wait_queue_prepare(struct wait_queue_head *wq)
{
	return __atomic_load_n(&wq->uirq_seq, __ATOMIC_SEQ_CST);
}

/* Sleep until a wake-up or the deadline: the ns left then (0: the deadline passed; UINT64_MAX: none). */
static uint64_t sleep_on(uint32_t *word, uint32_t seq, uint64_t deadline_ns)
{
	uint64_t now;

	if (deadline_ns == UIRQ_SIM_WAIT_FOREVER) {
		uirq_sim_wait_word(word, seq, UIRQ_SIM_WAIT_FOREVER);
		return UIRQ_SIM_WAIT_FOREVER;
	}
	now = uirq_sim_clock_ns();
	if (now >= deadline_ns)
		return 0;
	uirq_sim_wait_word(word, seq, deadline_ns - now);
	now = uirq_sim_clock_ns();
	return now >= deadline_ns ? 0 : deadline_ns - now;
}

uint64_t uirq_wait_queue_sleep(struct wait_queue_head *wq, uint32_t seq, uint64_t deadline_ns)
{
	return sleep_on(&wq->uirq_seq, seq, deadline_ns);
}

void __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr, void *key)
{
	(void)mode;
	(void)nr;
	(void)key;
	__atomic_fetch_add(&wq->uirq_seq, 1, __ATOMIC_SEQ_CST);
	uirq_sim_wake_word(&wq->uirq_seq, INT_MAX);
}

/* ---- completions ---- */

static void signal(struct completion *x, bool all)
{
	unsigned int d = __atomic_load_n(&x->done, __ATOMIC_SEQ_CST);

	/* done saturates: complete_all() makes it UINT_MAX, which no waiter consumes. */
	do {
		if (d == UINT_MAX)
			break;
	} while (!__atomic_compare_exchange_n(&x->done, &d, all ? UINT_MAX : d + 1, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	__atomic_fetch_add(&x->uirq_seq, 1, __ATOMIC_SEQ_CST);
	uirq_sim_wake_word(&x->uirq_seq, INT_MAX);
}

void complete(struct completion *x)
{
	signal(x, false);
}

void complete_all(struct completion *x)
{
	signal(x, true);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned int d = __atomic_load_n(&x->done, __ATOMIC_SEQ_CST);

	do {
		if (!d)
			return false;
		if (d == UINT_MAX)
			return true;
	} while (!__atomic_compare_exchange_n(&x->done, &d, d - 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	return true;
}

bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_SEQ_CST) != 0;
}

/* Consume one completion before the deadline: true, or false when it passed first. */
static bool wait_until(struct completion *x, uint64_t deadline_ns)
{
	might_sleep();
	for (;;) {
		uint32_t seq = __atomic_load_n(&x->uirq_seq, __ATOMIC_SEQ_CST);

		if (try_wait_for_completion(x))
			return true;
		if (!sleep_on(&x->uirq_seq, seq, deadline_ns))
			return try_wait_for_completion(x);
	}
}

void wait_for_completion(struct completion *x)
{
	wait_until(x, UIRQ_SIM_WAIT_FOREVER);
}

unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout)
{
	uint64_t deadline = uirq_wait_deadline(timeout);

	return wait_until(x, deadline) ? (unsigned long)uirq_wait_jiffies_left(deadline) : 0;
}

int wait_for_completion_interruptible(struct completion *x)
{
	wait_for_completion(x);
	return 0;
}

int wait_for_completion_killable(struct completion *x)
{
	wait_for_completion(x);
	return 0;
}

long wait_for_completion_interruptible_timeout(struct completion *x, unsigned long timeout)
{
	return (long)wait_for_completion_timeout(x, timeout);
}

long wait_for_completion_killable_timeout(struct completion *x, unsigned long timeout)
{
	return (long)wait_for_completion_timeout(x, timeout);
}

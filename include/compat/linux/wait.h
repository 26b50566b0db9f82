/* SPDX-License-Identifier: MIT */
/*
 * Wait queues (compat/wait.c) as drivers use them: wait_event*() sleep
 * until a condition holds, re-checked after every wake_up*() on the queue.
 * Every waiter is woken by a wake-up (none here waits exclusively), which
 * is the kernel's outcome for the non-exclusive waits these macros make.
 * The sleep is uirq's (uirq_sim_wait_word()): a scheduling point in the
 * deterministic mode, timeouts in jiffies on uirq's clock.  No signal
 * reaches a waiter here, so the _interruptible forms never return
 * -ERESTARTSYS.
 */
#ifndef UIRQ_COMPAT_LINUX_WAIT_H
#define UIRQ_COMPAT_LINUX_WAIT_H

#include <stdint.h>

#include <linux/kernel.h>
#include "uirq/sim.h"

struct wait_queue_head {
	uint32_t uirq_seq;	/* bumped by each wake-up: the waiters' word */
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)	{ 0 }
#define DECLARE_WAIT_QUEUE_HEAD(name)		wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
#define init_waitqueue_head(wq)			((void)((wq)->uirq_seq = 0))

void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr, void *key);
#define wake_up(x)			__wake_up((x), 3, 1, NULL)
#define wake_up_nr(x, nr)		__wake_up((x), 3, (nr), NULL)
#define wake_up_all(x)			__wake_up((x), 3, 0, NULL)
#define wake_up_interruptible(x)	__wake_up((x), 1, 1, NULL)
#define wake_up_interruptible_all(x)	__wake_up((x), 1, 0, NULL)
/* Whether anyone may be waiting: always, as the kernel's answer may be stale anyway. */
#define waitqueue_active(wq)		((void)(wq), true)
#define wq_has_sleeper(wq)		((void)(wq), true)

/*
 * The wait itself: the queue's word before the condition is evaluated, so
 * a wake-up between the evaluation and the sleep is not lost; the time
 * left (ns) on return.  The helpers are uirq's (compat/wait.c).
 */
uint32_t uirq_wait_queue_prepare(struct wait_queue_head *wq);
uint64_t uirq_wait_queue_sleep(struct wait_queue_head *wq, uint32_t seq, uint64_t deadline_ns);
uint64_t uirq_wait_deadline(unsigned long timeout_jiffies);
long uirq_wait_jiffies_left(uint64_t deadline_ns);

#define uirq__wait_event(wq, cond, deadline)						\
	({										\
		long uirq_we_ret_ = 1;							\
		might_sleep();								\
		for (;;) {								\
			uint32_t uirq_we_seq_ = uirq_wait_queue_prepare(&(wq));		\
			if (cond)							\
				break;							\
			if (!uirq_wait_queue_sleep(&(wq), uirq_we_seq_, (deadline))) {	\
				uirq_we_ret_ = (cond) ? 1 : 0;				\
				break;							\
			}								\
		}									\
		uirq_we_ret_;								\
	})

#define wait_event(wq, cond)	((void)uirq__wait_event(wq, cond, UIRQ_SIM_WAIT_FOREVER))
#define wait_event_interruptible(wq, cond) ({ wait_event(wq, cond); 0; })
#define wait_event_killable(wq, cond)	wait_event_interruptible(wq, cond)
/* 0 if cond still fails when timeout (jiffies) has passed; else the jiffies left, at least 1. */
#define wait_event_timeout(wq, cond, timeout)						\
	({										\
		uint64_t uirq_wt_deadline_ = uirq_wait_deadline(timeout);		\
		uirq__wait_event(wq, cond, uirq_wt_deadline_) ?				\
			uirq_wait_jiffies_left(uirq_wt_deadline_) : 0;			\
	})
#define wait_event_interruptible_timeout(wq, cond, timeout)	wait_event_timeout(wq, cond, timeout)

#endif

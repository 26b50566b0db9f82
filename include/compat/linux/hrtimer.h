/* SPDX-License-Identifier: MIT */
/*
 * High-resolution timers (compat/timer.c): expiries in ns on uirq's clock,
 * virtual in the deterministic mode.  Callbacks run on uirq's timer
 * thread in hard-irq context with interrupts off, as the kernel's hrtimer
 * interrupt runs them (the _SOFT modes: in the atomic context the
 * timer_list callbacks get).  A callback returning HRTIMER_RESTART is
 * queued again at the expiry it set (hrtimer_forward()).
 */
#ifndef UIRQ_COMPAT_LINUX_HRTIMER_H
#define UIRQ_COMPAT_LINUX_HRTIMER_H

#include <time.h>

#include <linux/ktime.h>
#include <linux/timer.h>

enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
	HRTIMER_MODE_PINNED	= 0x02,
	HRTIMER_MODE_SOFT	= 0x04,
	HRTIMER_MODE_HARD	= 0x08,
	HRTIMER_MODE_ABS_PINNED = HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_REL_PINNED = HRTIMER_MODE_REL | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_ABS_SOFT	= HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_SOFT	= HRTIMER_MODE_REL | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_ABS_HARD	= HRTIMER_MODE_ABS | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_HARD	= HRTIMER_MODE_REL | HRTIMER_MODE_HARD,
};

enum hrtimer_restart {
	HRTIMER_NORESTART,
	HRTIMER_RESTART,
};

struct hrtimer {
	ktime_t expires;	/* absolute, on uirq's clock */
	enum hrtimer_restart (*function)(struct hrtimer *);
	struct uirq_ktimer uirq_node;
	bool uirq_soft;
};

/* Every clock is uirq's: CLOCK_REALTIME and CLOCK_BOOTTIME run as CLOCK_MONOTONIC (no clock is set here). */
void hrtimer_init(struct hrtimer *timer, clockid_t which_clock, enum hrtimer_mode mode);
void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns, const enum hrtimer_mode mode);
static inline void hrtimer_start(struct hrtimer *timer, ktime_t tim, const enum hrtimer_mode mode)
{
	hrtimer_start_range_ns(timer, tim, 0, mode);
}
/* 1 if it was queued, 0 if not, -1 if its callback is running (not waited for). */
int hrtimer_try_to_cancel(struct hrtimer *timer);
/* Dequeue and wait for a callback in progress: 1 if it was queued, else 0. */
int hrtimer_cancel(struct hrtimer *timer);
bool hrtimer_active(const struct hrtimer *timer);
bool hrtimer_is_queued(struct hrtimer *timer);
bool hrtimer_callback_running(struct hrtimer *timer);
/* Move the expiry past now by whole intervals: how many. */
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval);
static inline u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	return hrtimer_forward(timer, ktime_get(), interval);
}
static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->expires;
}
static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	timer->expires = time;
}
static inline ktime_t hrtimer_get_remaining(const struct hrtimer *timer)
{
	return timer->expires - ktime_get();
}
#define hrtimer_cb_get_time(t)	ktime_get()

#endif

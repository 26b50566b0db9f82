/* SPDX-License-Identifier: MIT */
/*
 * Timer-wheel timers (struct timer_list, compat/timer.c): expiries in
 * jiffies on uirq's clock, virtual in the deterministic mode.  Callbacks
 * run one at a time on uirq's timer thread, in an atomic context standing
 * for the kernel's softirq (a sleep there is the kernel's "scheduling while
 * atomic" BUG), each under the timer's lockdep map as the kernel's
 * call_timer_fn() holds it, so that del_timer_sync() under a lock the
 * callback takes is reported.
 */
#ifndef UIRQ_COMPAT_LINUX_TIMER_H
#define UIRQ_COMPAT_LINUX_TIMER_H

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/ktime.h>

/* What timers and hrtimers share on uirq's timer thread (compat/timer.c). */
struct uirq_ktimer {
	struct uirq_ktimer *next;
	u64 deadline;		/* ns on uirq's clock */
	u64 seq;		/* arming order: equal deadlines run first armed, first run */
	bool queued;
	bool hard;		/* an hrtimer: its callback runs in hard-irq context */
	void (*run)(struct uirq_ktimer *t);
};

struct timer_list {
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;
	struct lockdep_map lockdep_map;
	struct uirq_ktimer uirq_node;
};

#define TIMER_DEFERRABLE	0x00080000
#define TIMER_PINNED		0x00100000
#define TIMER_IRQSAFE		0x00200000

void uirq_timer_init_key(struct timer_list *timer, void (*func)(struct timer_list *), unsigned int flags,
			 const char *name, struct lock_class_key *key);

/* A lockdep class per call site, as the kernel's macro makes one. */
#define timer_setup(timer, callback, flags)						\
	do {										\
		static struct lock_class_key uirq_timer_key_;				\
		uirq_timer_init_key((timer), (callback), (flags), #timer, &uirq_timer_key_); \
	} while (0)
#define timer_setup_on_stack(timer, callback, flags)	timer_setup(timer, callback, flags)
#define destroy_timer_on_stack(timer)			((void)(timer))

#define from_timer(var, callback_timer, timer_fieldname) \
	container_of(callback_timer, __typeof__(*var), timer_fieldname)

/* Arm at timer->expires (jiffies). */
void add_timer(struct timer_list *timer);
/* (Re)arm at expires: whether it was pending. */
int mod_timer(struct timer_list *timer, unsigned long expires);
int mod_timer_pending(struct timer_list *timer, unsigned long expires);
int timer_reduce(struct timer_list *timer, unsigned long expires);
/* Disarm: whether it was pending. */
int del_timer(struct timer_list *timer);
/* Disarm and wait for a callback in progress: whether it was pending. */
int del_timer_sync(struct timer_list *timer);
int timer_pending(const struct timer_list *timer);
#define try_to_del_timer_sync(t)	del_timer(t)

static inline unsigned long round_jiffies(unsigned long j)
{
	return j;
}
#define round_jiffies_relative(j)	round_jiffies(j)
#define round_jiffies_up(j)		round_jiffies(j)
#define round_jiffies_up_relative(j)	round_jiffies(j)

#endif

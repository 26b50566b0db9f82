// SPDX-License-Identifier: MIT
/*
 * The deterministic mode's synchronisation calls (sim.h): an emulated futex
 * table (one queue in parking order, so wakes per address are FIFO),
 * yield, and sleeps and timeouts on the virtual clock.  From a thread that
 * is not a task each is the plain call, so code may use them either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/lib.h"
#include "internal.h"

static int sim_wait(void *addr, unsigned int val, uint64_t ns)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me) {
		struct timespec ts = uirq_ns_to_timespec(ns);

		return uirq_futex_wait_kernel(addr, val, ns == NO_DEADLINE ? NULL : &ts);
	}
	if (uirq_sim.deadlocked)
		return -EDEADLK;
	if (__atomic_load_n((unsigned int *)addr, __ATOMIC_RELAXED) != val)
		return -EAGAIN;
	struct uirq_sim_task **p = &uirq_sim.qhead;

	while (*p)
		p = &(*p)->qnext;
	*p = me;
	me->qnext = NULL;
	me->state = T_FUTEX;
	me->addr = addr;
	me->deadline = ns == NO_DEADLINE ? NO_DEADLINE :
		       (ns > NO_DEADLINE - 1 - uirq_sim.now ? NO_DEADLINE - 1 : uirq_sim.now + ns);
	me->wait_result = 0;
	uirq_sim_schedule(me, UIRQ_SIM_R_WAIT);
	return me->wait_result;
}

int uirq_sim_futex_wait(void *addr, unsigned int val)
{
	return sim_wait(addr, val, NO_DEADLINE);
}

int uirq_sim_futex_wait_timeout(void *addr, unsigned int val, uint64_t ns)
{
	return sim_wait(addr, val, ns == NO_DEADLINE ? NO_DEADLINE - 1 : ns);
}

int uirq_sim_futex_wake(void *addr, int nr)
{
	struct uirq_sim_task *me = uirq_sim_current;
	int n = 0;

	if (!me)
		return uirq_futex_wake_kernel(addr, nr);
	if (uirq_sim.deadlocked)
		return 0;
	for (struct uirq_sim_task *t = uirq_sim.qhead, *next; t && n < nr; t = next) {
		next = t->qnext;
		if (t->addr == addr) {
			uirq_sim_make_runnable(t, 0);
			n++;
		}
	}
	uirq_sim_schedule(me, UIRQ_SIM_R_WAKE);
	return n;
}

void uirq_sim_yield(void)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me) {
		sched_yield();
		return;
	}
	if (!uirq_sim.deadlocked)
		uirq_sim_schedule(me, UIRQ_SIM_R_YIELD);
}

void uirq_sim_sleep_ns(uint64_t ns)
{
	struct uirq_sim_task *me = uirq_sim_current;

	if (!me) {
		struct timespec ts = uirq_ns_to_timespec(ns);

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return;
	}
	if (uirq_sim.deadlocked)
		return;
	me->state = T_SLEEP;
	me->deadline = ns > NO_DEADLINE - 1 - uirq_sim.now ? NO_DEADLINE - 1 : uirq_sim.now + ns;
	uirq_sim_schedule(me, UIRQ_SIM_R_SLEEP);
}

uint64_t uirq_sim_now_ns(void)
{
	return __atomic_load_n(&uirq_sim.now, __ATOMIC_RELAXED);
}

static long task_pid(void)
{
	return (long)uirq_sim_current->id + 1;
}

/* Its thread's name would be the task's: the tasks share one thread. */
static void task_comm(char buf[16])
{
	memcpy(buf, uirq_sim_current->comm, 16);
}

static void task_set_comm(const char *name)
{
	strncpy(uirq_sim_current->comm, name, sizeof(uirq_sim_current->comm) - 1);
	uirq_sim_current->comm[sizeof(uirq_sim_current->comm) - 1] = '\0';
}

/* What lib's futex, back-off and clock calls become on a task's thread (lib.h's seam). */
const struct uirq_sched_ops uirq_sim_ops = {
	.wait = sim_wait,
	.wake = uirq_sim_futex_wake,
	.yield = uirq_sim_yield,
	.sleep_ns = uirq_sim_sleep_ns,
	.now_ns = uirq_sim_now_ns,
	.task_pid = task_pid,
	.comm = task_comm,
	.set_comm = task_set_comm,
};

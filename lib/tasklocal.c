// SPDX-License-Identifier: MIT
/*
 * The registry of task-local variables (uirq/sim.h): the __thread
 * variables the deterministic mode saves and restores at each switch
 * between its coroutine tasks (sim/coro.c).  Here, under the scheduler,
 * because every layer that has such a variable registers it - lockdep
 * too, which is also built into the preload library without the
 * scheduler.  Constructors register (one thread, before main()); the
 * scheduler reads the list at its start.
 */
#include "lib.h"
#include "uirq/sim.h"

struct uirq_sim_task_local *uirq_task_locals;
unsigned int uirq_task_locals_gen;

void uirq_sim_task_local(struct uirq_sim_task_local *tl)
{
	for (struct uirq_sim_task_local *p = uirq_task_locals; p; p = p->next)
		if (p == tl)
			return;
	tl->next = uirq_task_locals;
	__atomic_store_n(&uirq_task_locals, tl, __ATOMIC_RELEASE);
	__atomic_fetch_add(&uirq_task_locals_gen, 1, __ATOMIC_RELEASE);
}

// SPDX-License-Identifier: MIT
/*
 * Waiting for yourself: disable_irq(), synchronize_irq() or free_irq()
 * called by a handler of the same line.  They wait until the line's hard
 * handlers and threads have finished - and the caller is one of them.  The
 * kernel deadlocks there (a primary handler also gets "sleeping function
 * called from invalid context").  uirq notices, says so with a backtrace,
 * waits for everybody but the caller, and leaves the line usable.
 *
 * What a thread is running, as the waits need to know it:
 *   - the hard handlers of a line (handle_irq_event), a short stack since
 *     chained demultiplexers nest flows;
 *   - a run of its own handler thread (the thread's action, while INRUN);
 *   - nested runs (handle_nested_irq), in the parent's thread.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internals.h"

#define SELF_DEPTH 8	/* deeper nesting is not tracked: such a wait is not caught */

/* Descriptors a thread runs, innermost last. */
struct self_stack {
	unsigned int n;		/* first: a switch of the deterministic mode's tasks copies up to the used part */
	struct uirq_irq_desc *desc[SELF_DEPTH];
};

static __thread struct {
	struct uirq_irqaction *thread;	/* this handler thread's action */
	struct self_stack hard;
} self;
static __thread struct self_stack self_nested;

static size_t stack_live(const struct self_stack *st)
{
	return offsetof(struct self_stack, desc) + (st->n < SELF_DEPTH ? st->n : SELF_DEPTH) * sizeof(st->desc[0]);
}

static size_t self_live(const void *value)
{
	return offsetof(__typeof__(self), hard) + stack_live(&((const __typeof__(self) *)value)->hard);
}

static size_t nested_live(const void *value)
{
	return stack_live(value);
}
UIRQ_SIM_TASK_LOCAL_EXT(self, self_live, NULL)
UIRQ_SIM_TASK_LOCAL_EXT(self_nested, nested_live, NULL)

static void push(struct self_stack *st, struct uirq_irq_desc *desc)
{
	if (st->n < SELF_DEPTH)
		st->desc[st->n] = desc;
	st->n++;
}

/* How many times desc is on the stack (the tracked part of it). */
static int count(const struct self_stack *st, const struct uirq_irq_desc *desc)
{
	int n = 0;

	for (unsigned int i = 0; i < st->n && i < SELF_DEPTH; i++)
		n += st->desc[i] == desc;
	return n;
}

void irq_self_hard_enter(struct uirq_irq_desc *desc)
{
	push(&self.hard, desc);
}

void irq_self_hard_exit(void)
{
	self.hard.n--;
}

void irq_self_nested_enter(struct uirq_irq_desc *desc)
{
	push(&self_nested, desc);
}

void irq_self_nested_exit(void)
{
	self_nested.n--;
}

void irq_self_thread(struct uirq_irqaction *action)
{
	self.thread = action;
}

bool irq_self_hard(struct uirq_irq_desc *desc)
{
	return count(&self.hard, desc) > 0;
}

int irq_self_runs(struct uirq_irq_desc *desc)
{
	int n = count(&self_nested, desc);

	if (self.thread && self.thread->irq == desc->irq_data.irq &&
	    (atomic_load_explicit(&self.thread->thread_flags, memory_order_relaxed) & IRQTF_INRUN))
		n++;
	return n;
}

void irq_self_wait_report(const char *call, struct uirq_irq_desc *desc)
{
	char comm[17] = "?", sym[256];
	void *frames[32];
	int n = backtrace(frames, 32), cpu = uirq_this_cpu();

	uirq_task_comm(comm);
	comm[16] = '\0';
	uirq_printk("------------[ cut here ]------------\n"
		    "genirq: %s(%u) called by %s, a %s of irq %u: it would wait for itself; "
		    "waiting for the others only\n"
		    "CPU: %d PID: %ld Comm: %s\nCall Trace:\n",
		    call, desc->irq_data.irq, comm,
		    irq_self_hard(desc) ? "hard-irq handler" : "handler thread", desc->irq_data.irq,
		    cpu < 0 ? 0 : cpu, uirq_task_pid(), comm);
	/* Frame 0 is this function: the caller's trace starts at 1. */
	for (int i = 1; i < n; i++) {
		irq_format_ip(sym, sizeof(sym), frames[i], true);
		uirq_printk(" %s\n", sym);
	}
	uirq_printk("---[ end trace ]---\n");
}

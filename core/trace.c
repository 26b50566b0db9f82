// SPDX-License-Identifier: MIT
/*
 * Trace points for tools (irqsim --trace): the kernel has tracepoints
 * irq_handler_entry/exit and friends; here one function pointer receives
 * them all.  Off, a trace point costs one relaxed load and a branch.
 */
#include "internals.h"

_Atomic(uirq_irq_trace_fn) irq_trace_fn;
static _Atomic(void *) irq_trace_arg;

void uirq_irq_set_trace(uirq_irq_trace_fn fn, void *arg)
{
	/* arg first: a trace point that sees the new fn sees its arg. */
	atomic_store_explicit(&irq_trace_fn, NULL, memory_order_release);
	atomic_store_explicit(&irq_trace_arg, arg, memory_order_release);
	atomic_store_explicit(&irq_trace_fn, fn, memory_order_release);
}

void irq_trace_call(enum uirq_irq_trace_point point, unsigned int irq, const char *name)
{
	uirq_irq_trace_fn fn = atomic_load_explicit(&irq_trace_fn, memory_order_acquire);

	if (fn)
		fn(point, irq, uirq_this_cpu(), name, atomic_load_explicit(&irq_trace_arg, memory_order_acquire));
}

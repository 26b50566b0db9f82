/* SPDX-License-Identifier: MIT */
/*
 * Execution context: what the calling thread is doing, in the kernel's terms.
 *
 * Every thread has a preempt count laid out as the kernel lays it out
 * (preempt bits 0-7, softirq 8-15, hardirq 16-19, nmi 20-23), an
 * interrupts-disabled flag and an "irq handler thread" marker.  The state is
 * per thread and always tracked; lockdep and the irq core read it.
 *
 * "Interrupts disabled" is a per-thread fact here: a CPU thread runs hard-irq
 * handlers with it set, and process context may set it to exclude the CPU
 * threads from state it shares with them (the core honours it for lines
 * whose affinity targets the same CPU; see core/).
 */
#ifndef UIRQ_CONTEXT_H
#define UIRQ_CONTEXT_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UIRQ_PREEMPT_SHIFT	0
#define UIRQ_SOFTIRQ_SHIFT	8
#define UIRQ_HARDIRQ_SHIFT	16
#define UIRQ_NMI_SHIFT		20
#define UIRQ_PREEMPT_MASK	0x000000ffu
#define UIRQ_SOFTIRQ_MASK	0x0000ff00u
#define UIRQ_HARDIRQ_MASK	0x000f0000u
#define UIRQ_NMI_MASK		0x00f00000u
#define UIRQ_HARDIRQ_OFFSET	(1u << UIRQ_HARDIRQ_SHIFT)

/* One thread's context; read through the accessors below, changed only through the calls. */
struct uirq_context {
	unsigned int preempt_count;
	bool irqs_off;
	bool irq_thread;
};

/*
 * The calling thread's context.  Exposed, like the kernel's per-cpu
 * preempt_count, so that lockdep's fast path reads it without a call.
 */
extern __thread struct uirq_context uirq__context __attribute__((tls_model("initial-exec")));

/* Disable interrupts on this thread and return the previous state for restore. */
unsigned long uirq_local_irq_save(void);
/* Restore the interrupt state returned by uirq_local_irq_save(). */
void uirq_local_irq_restore(unsigned long flags);
/* Disable interrupts on this thread. */
void uirq_local_irq_disable(void);
/* Enable interrupts on this thread (lockdep marks held locks irq-unsafe). */
void uirq_local_irq_enable(void);
/* True when interrupts are disabled on this thread. */
static inline bool uirq_irqs_disabled(void)
{
	return uirq__context.irqs_off;
}
/* True when the saved flags say interrupts were disabled. */
static inline bool uirq_irqs_disabled_flags(unsigned long flags)
{
	return flags != 0;
}

/* Raise the preempt count (no sleeping until the matching enable). */
void uirq_preempt_disable(void);
/* Lower the preempt count; warns on underflow instead of wrapping. */
void uirq_preempt_enable(void);
/* The calling thread's whole preempt count. */
static inline unsigned int uirq_preempt_count(void)
{
	return uirq__context.preempt_count;
}

/* True inside a hard-irq section. */
static inline bool uirq_in_hardirq(void)
{
	return uirq__context.preempt_count & UIRQ_HARDIRQ_MASK;
}
/* True in any interrupt context (hard-irq, softirq or nmi). */
static inline bool uirq_in_interrupt(void)
{
	return uirq__context.preempt_count & (UIRQ_HARDIRQ_MASK | UIRQ_SOFTIRQ_MASK | UIRQ_NMI_MASK);
}
/* True when sleeping is forbidden: a non-zero preempt count. */
static inline bool uirq_in_atomic(void)
{
	return uirq__context.preempt_count != 0;
}
/* True in plain process context. */
static inline bool uirq_in_task(void)
{
	return !uirq_in_interrupt();
}

/* Enter a hard-irq section: hardirq count++, interrupts must be disabled. */
void uirq_hardirq_enter(void);
/* Leave a hard-irq section entered with uirq_hardirq_enter(). */
void uirq_hardirq_exit(void);

/* Mark (or unmark) the calling thread as an irq handler thread. */
void uirq_set_irq_thread(bool on);
/* True when the calling thread is an irq handler thread. */
static inline bool uirq_is_irq_thread(void)
{
	return uirq__context.irq_thread;
}

/*
 * Hooks called on every interrupt-state transition of the calling thread,
 * the way the kernel calls trace_hardirqs_on/off.  Lower layers cannot call
 * lockdep, so lockdep installs itself here.  ip is the caller's address.
 */
struct uirq_context_hooks {
	void (*hardirqs_on)(unsigned long ip);
	void (*hardirqs_off)(unsigned long ip);
};
/* Install the interrupt-state hooks (NULL removes them). */
void uirq_context_set_hooks(const struct uirq_context_hooks *hooks);

#ifdef __cplusplus
}
#endif
#endif

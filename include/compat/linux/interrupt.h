/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for the driver side of genirq (uirq/irq.h): handler return
 * values, request flags, request/free, enable/disable, synchronize.
 *
 * Difference forced by user space: irq_set_affinity() takes a bit mask of
 * uirq CPUs (uint64_t) instead of a struct cpumask pointer.
 */
#ifndef UIRQ_COMPAT_LINUX_INTERRUPT_H
#define UIRQ_COMPAT_LINUX_INTERRUPT_H

#include <linux/irqflags.h>
#include <linux/hardirq.h>
#include "uirq/irq.h"

typedef uirq_irqreturn_t irqreturn_t;
typedef uirq_irq_handler_t irq_handler_t;

#define IRQ_NONE		UIRQ_IRQ_NONE
#define IRQ_HANDLED		UIRQ_IRQ_HANDLED
#define IRQ_WAKE_THREAD		UIRQ_IRQ_WAKE_THREAD
#define IRQ_RETVAL(x)		((x) ? IRQ_HANDLED : IRQ_NONE)

#define IRQF_TRIGGER_NONE	UIRQF_TRIGGER_NONE
#define IRQF_TRIGGER_RISING	UIRQF_TRIGGER_RISING
#define IRQF_TRIGGER_FALLING	UIRQF_TRIGGER_FALLING
#define IRQF_TRIGGER_HIGH	UIRQF_TRIGGER_HIGH
#define IRQF_TRIGGER_LOW	UIRQF_TRIGGER_LOW
#define IRQF_TRIGGER_MASK	UIRQF_TRIGGER_MASK
#define IRQF_SHARED		UIRQF_SHARED
#define IRQF_PROBE_SHARED	UIRQF_PROBE_SHARED
#define IRQF_PERCPU		UIRQF_PERCPU
#define IRQF_NOBALANCING	UIRQF_NOBALANCING
#define IRQF_IRQPOLL		UIRQF_IRQPOLL
#define IRQF_ONESHOT		UIRQF_ONESHOT
#define IRQF_NO_SUSPEND		UIRQF_NO_SUSPEND
#define IRQF_NO_THREAD		UIRQF_NO_THREAD
#define IRQF_NO_AUTOEN		UIRQF_NO_AUTOEN
#define IRQF_NO_DEBUG		UIRQF_NO_DEBUG
#define IRQF_COND_ONESHOT	UIRQF_COND_ONESHOT

#define IRQC_IS_HARDIRQ		UIRQC_IS_HARDIRQ
#define IRQC_IS_NESTED		UIRQC_IS_NESTED
#define IRQ_NOTCONNECTED	UIRQ_IRQ_NOTCONNECTED

#define request_threaded_irq(irq, h, t, f, n, d) uirq_request_threaded_irq((irq), (h), (t), (f), (n), (d))
#define request_irq(irq, h, f, n, d)	uirq_request_irq((irq), (h), (f), (n), (d))
#define request_any_context_irq(irq, h, f, n, d) uirq_request_any_context_irq((irq), (h), (f), (n), (d))
#define free_irq(irq, d)		uirq_free_irq((irq), (d))
#define disable_irq(irq)		uirq_disable_irq(irq)
#define disable_irq_nosync(irq)		uirq_disable_irq_nosync(irq)
#define disable_hardirq(irq)		uirq_disable_hardirq(irq)
#define enable_irq(irq)			uirq_enable_irq(irq)
#define synchronize_irq(irq)		uirq_synchronize_irq(irq)
#define synchronize_hardirq(irq)	uirq_synchronize_hardirq(irq)
#define irq_wake_thread(irq, d)		uirq_irq_wake_thread((irq), (d))
#define irq_set_affinity(irq, mask)	uirq_irq_set_affinity((irq), (mask))
#define irq_set_irq_type(irq, t)	uirq_irq_set_irq_type((irq), (t))

#endif

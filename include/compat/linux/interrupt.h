/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for the driver side of genirq (uirq/irq.h): handler return
 * values, request flags, request/free, enable/disable, synchronize.
 *
 * The devm_ forms free their line when the driver unbinds
 * (compat/irq.c).  A process has no system suspend: wake-up settings
 * succeed and change nothing, IRQF_EARLY_RESUME is 0.
 */
#ifndef UIRQ_COMPAT_LINUX_INTERRUPT_H
#define UIRQ_COMPAT_LINUX_INTERRUPT_H

#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/hardirq.h>
#include <linux/kernel.h>
#include "uirq/irq.h"

struct device;

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
#define IRQF_EARLY_RESUME	0u
#define IRQF_FORCE_RESUME	0u
#define IRQF_TIMER		UIRQF_NO_THREAD

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
#define irq_set_irq_type(irq, t)	uirq_irq_set_irq_type((irq), (t))

/* The CPUs of mask (uirq's CPUs 0..63): 0 or -errno. */
static inline int irq_set_affinity(unsigned int irq, const struct cpumask *mask)
{
	return uirq_irq_set_affinity(irq, uirq_cpumask_bits(mask));
}

static inline int enable_irq_wake(unsigned int irq)
{
	(void)irq;
	return 0;
}

static inline int disable_irq_wake(unsigned int irq)
{
	(void)irq;
	return 0;
}

static inline int irq_set_irq_wake(unsigned int irq, unsigned int on)
{
	(void)irq, (void)on;
	return 0;
}

int devm_request_threaded_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
			      irq_handler_t thread_fn, unsigned long irqflags, const char *devname,
			      void *dev_id);
int devm_request_any_context_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
				 unsigned long irqflags, const char *devname, void *dev_id);
void devm_free_irq(struct device *dev, unsigned int irq, void *dev_id);

static inline int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler,
				   unsigned long irqflags, const char *devname, void *dev_id)
{
	return devm_request_threaded_irq(dev, irq, handler, NULL, irqflags, devname, dev_id);
}

#endif

/* SPDX-License-Identifier: MIT */
/* Kernel names for the calling thread's interrupt state (uirq/context.h). */
#ifndef UIRQ_COMPAT_LINUX_IRQFLAGS_H
#define UIRQ_COMPAT_LINUX_IRQFLAGS_H

#include "uirq/context.h"

#define local_irq_save(flags)		((flags) = uirq_local_irq_save())
#define local_irq_restore(flags)	uirq_local_irq_restore(flags)
#define local_irq_disable()		uirq_local_irq_disable()
#define local_irq_enable()		uirq_local_irq_enable()
#define irqs_disabled()			uirq_irqs_disabled()
#define irqs_disabled_flags(flags)	uirq_irqs_disabled_flags(flags)

#endif

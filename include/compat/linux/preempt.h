/* SPDX-License-Identifier: MIT */
/* Kernel names for the calling thread's preempt count (uirq/context.h). */
#ifndef UIRQ_COMPAT_LINUX_PREEMPT_H
#define UIRQ_COMPAT_LINUX_PREEMPT_H

#include "uirq/context.h"

#define preempt_disable()	uirq_preempt_disable()
#define preempt_enable()	uirq_preempt_enable()
#define preempt_count()		uirq_preempt_count()
#define in_atomic()		uirq_in_atomic()
#define in_hardirq()		uirq_in_hardirq()
#define in_irq()		uirq_in_hardirq()
#define in_interrupt()		uirq_in_interrupt()
#define in_task()		uirq_in_task()
#define HARDIRQ_OFFSET		UIRQ_HARDIRQ_OFFSET

#endif

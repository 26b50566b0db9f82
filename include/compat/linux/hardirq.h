/* SPDX-License-Identifier: MIT */
/* Kernel names for entering and leaving hard-irq context (uirq/context.h). */
#ifndef UIRQ_COMPAT_LINUX_HARDIRQ_H
#define UIRQ_COMPAT_LINUX_HARDIRQ_H

#include <linux/preempt.h>

#define __irq_enter()	uirq_hardirq_enter()
#define __irq_exit()	uirq_hardirq_exit()

#endif

/* SPDX-License-Identifier: MIT */
/* The parts of <linux/kernel.h> drivers here use. */
#ifndef UIRQ_COMPAT_LINUX_KERNEL_H
#define UIRQ_COMPAT_LINUX_KERNEL_H

#include "uirq/might_sleep.h"

#define might_sleep()	uirq_might_sleep()

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif

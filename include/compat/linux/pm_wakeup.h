/* SPDX-License-Identifier: MIT */
/*
 * Wakeup sources: a process does not suspend, so nothing is ever woken;
 * device_init_wakeup() records the wish (struct device's uirq_wakeup, which
 * device_may_wakeup() reads) and succeeds, as the kernel's does on a
 * wakeup-capable device.
 */
#ifndef UIRQ_COMPAT_LINUX_PM_WAKEUP_H
#define UIRQ_COMPAT_LINUX_PM_WAKEUP_H

#include <stdbool.h>

struct device;

int device_init_wakeup(struct device *dev, bool enable);

static inline void pm_wakeup_event(struct device *dev, unsigned int msec)
{
	(void)dev, (void)msec;
}

static inline void pm_stay_awake(struct device *dev)
{
	(void)dev;
}

static inline void pm_relax(struct device *dev)
{
	(void)dev;
}

bool device_may_wakeup(struct device *dev);

#endif

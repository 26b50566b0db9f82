/* SPDX-License-Identifier: MIT */
/*
 * Power management callbacks as drivers declare them.  The configuration
 * (uirq-kernel.h) has neither CONFIG_PM nor CONFIG_PM_SLEEP: a process is
 * never suspended, so, as in a kernel built without them, the sleep
 * callbacks are compiled (drivers mark them __maybe_unused) but never put
 * into the ops, and pm_ptr()/pm_sleep_ptr() give NULL.
 */
#ifndef UIRQ_COMPAT_LINUX_PM_H
#define UIRQ_COMPAT_LINUX_PM_H

#include <linux/kconfig.h>

struct device;

struct dev_pm_ops {
	int (*prepare)(struct device *dev);
	void (*complete)(struct device *dev);
	int (*suspend)(struct device *dev);
	int (*resume)(struct device *dev);
	int (*freeze)(struct device *dev);
	int (*thaw)(struct device *dev);
	int (*poweroff)(struct device *dev);
	int (*restore)(struct device *dev);
	int (*suspend_late)(struct device *dev);
	int (*resume_early)(struct device *dev);
	int (*suspend_noirq)(struct device *dev);
	int (*resume_noirq)(struct device *dev);
	int (*runtime_suspend)(struct device *dev);
	int (*runtime_resume)(struct device *dev);
	int (*runtime_idle)(struct device *dev);
};

/* Without CONFIG_PM_SLEEP: nothing (a kernel so configured leaves these out too). */
#define SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn)
#define SET_LATE_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn)
#define SET_NOIRQ_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn)
/* Without CONFIG_PM: nothing. */
#define SET_RUNTIME_PM_OPS(suspend_fn, resume_fn, idle_fn)

#define SIMPLE_DEV_PM_OPS(name, suspend_fn, resume_fn) \
	const struct dev_pm_ops __maybe_unused name = { SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) }
#define DEFINE_SIMPLE_DEV_PM_OPS(name, suspend_fn, resume_fn) \
	const struct dev_pm_ops name = { SET_SYSTEM_SLEEP_PM_OPS(suspend_fn, resume_fn) }

#define pm_ptr(ptr)		(IS_ENABLED(CONFIG_PM) ? (ptr) : NULL)
#define pm_sleep_ptr(ptr)	(IS_ENABLED(CONFIG_PM_SLEEP) ? (ptr) : NULL)

#endif

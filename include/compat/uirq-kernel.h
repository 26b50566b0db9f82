/* SPDX-License-Identifier: MIT */
/*
 * The one header forced into every unmodified Linux file compiled with
 * -Dupstream=enabled (-include uirq-kernel.h), as the kernel's build forces
 * <linux/kconfig.h> and <linux/compiler_types.h> into each of its files:
 * the configuration those files see, then the same two headers (this
 * project's, in include/compat/linux/).
 *
 * The configuration is the kernel uirq stands in for: device tree matching
 * on (CONFIG_OF: the board describes its devices with compatible strings
 * and properties), the TWL4030 MFD core present, no power management
 * (CONFIG_PM, CONFIG_PM_SLEEP unset: user space has no system suspend, so
 * suspend/resume callbacks compile out as in a kernel built without them).
 */
#ifndef UIRQ_COMPAT_UIRQ_KERNEL_H
#define UIRQ_COMPAT_UIRQ_KERNEL_H

#define CONFIG_OF 1
#define CONFIG_TWL4030_CORE 1

#include <linux/kconfig.h>
#include <linux/compiler_types.h>

#endif

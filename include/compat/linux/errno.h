/* SPDX-License-Identifier: MIT */
/*
 * The error numbers: the system's (they are the kernel's uAPI), and the
 * kernel-internal ones a driver may return, which never reach user space
 * in the kernel (EPROBE_DEFER: the probe waits for another driver).
 */
#ifndef UIRQ_COMPAT_LINUX_ERRNO_H
#define UIRQ_COMPAT_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS	512
#define ENOIOCTLCMD	515
#define EPROBE_DEFER	517
#define ENOTSUPP	524

#endif

/* SPDX-License-Identifier: MIT */
/*
 * <linux/sched.h>: nothing a driver on this layer uses from it (drivers
 * include it by habit); the names they do use come with the headers
 * that declare them here.
 */
#ifndef UIRQ_COMPAT_LINUX_SCHED_H
#define UIRQ_COMPAT_LINUX_SCHED_H

#include <linux/kernel.h>

#endif

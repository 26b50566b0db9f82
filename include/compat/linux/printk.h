/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for the log (uirq/printk.h): printk() and the pr_*()
 * helpers.  Log levels are accepted and dropped: every message goes to the
 * log sink (stderr by default).  Define pr_fmt() before including this
 * header to prefix a file's messages, as in the kernel.
 */
#ifndef UIRQ_COMPAT_LINUX_PRINTK_H
#define UIRQ_COMPAT_LINUX_PRINTK_H

#include "uirq/printk.h"

#define KERN_EMERG	""
#define KERN_ALERT	""
#define KERN_CRIT	""
#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_NOTICE	""
#define KERN_INFO	""
#define KERN_DEBUG	""
#define KERN_CONT	""

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define printk(fmt, ...)	uirq_log_printk(fmt, ##__VA_ARGS__)
#define pr_emerg(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)
/* Compiled, never printed (no dynamic debug here). */
#define pr_debug(fmt, ...)	((void)(0 && uirq_log_printk(pr_fmt(fmt), ##__VA_ARGS__)))

#endif

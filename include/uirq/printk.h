/* SPDX-License-Identifier: MIT */
/*
 * The log of code written against the kernel-compat headers (printk and
 * pr_*() in <linux/printk.h>): the drivers' probe lines and i2c error
 * messages.  Each call is one message, handed whole to the sink; the
 * default sink writes it to stderr.  The genirq core's own warnings go to
 * stderr directly, except its oops reports of faulting handlers
 * (core/fault.c) and its hung irq thread reports (core/hung.c): they come
 * here, so a program can collect them.
 */
#ifndef UIRQ_PRINTK_H
#define UIRQ_PRINTK_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Receives each message (with its newline) from any context, hard-irq
 * included: it must not sleep or take uirq locks.
 */
typedef void (*uirq_log_sink_t)(const char *msg, void *arg);

/* Format a message and hand it to the sink; returns its length. */
__attribute__((format(printf, 1, 2))) int uirq_log_printk(const char *fmt, ...);
/*
 * A kernel-style WARNING: the "cut here" banner, the message, then
 * "WARNING: CPU: N PID: N at FILE:LINE FUNC", through the sink.  For a
 * condition that should never hold; the program goes on.
 */
__attribute__((format(printf, 4, 5))) void uirq_log_warn(const char *file, int line, const char *func,
							 const char *fmt, ...);
/* Install a sink (NULL: stderr again). */
void uirq_log_set_sink(uirq_log_sink_t fn, void *arg);

#ifdef __cplusplus
}
#endif
#endif

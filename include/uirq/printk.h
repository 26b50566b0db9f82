/* SPDX-License-Identifier: MIT */
/*
 * The log: every message uirq writes goes here - printk and pr_*() of code
 * written against the kernel-compat headers (<linux/printk.h>), the genirq
 * core's warnings and reports (oopses of faulting handlers, hung irq
 * threads, "nobody cared"), the misuse warnings of the other layers, the
 * deterministic mode's messages, and lockdep's reports when no report
 * handler is installed.  Each is one message, handed whole to the sink; the
 * default sink writes it to stderr.
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

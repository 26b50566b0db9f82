// SPDX-License-Identifier: MIT
/* The core's printk: the kernel's messages, one message at a time, through the log (lib/log.c). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internals.h"
#include "uirq/printk.h"

/* The core's messages ("nobody cared", WARN) go where every message goes: the log's sink, else stderr. */
void uirq_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	uirq_log_vprintk(fmt, ap);
	va_end(ap);
}

void uirq_log_warn(const char *file, int line, const char *func, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int cpu = uirq_this_cpu();

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t n = strlen(msg);
	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	uirq_printk("------------[ cut here ]------------\n%s\nWARNING: CPU: %d PID: %ld at %s:%d %s\n",
		    msg, cpu < 0 ? 0 : cpu, uirq_task_pid(), file, line, func);
}

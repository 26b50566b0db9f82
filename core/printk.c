// SPDX-License-Identifier: MIT
/* The core's printk: the kernel's messages, one message at a time, through the log (log.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internals.h"
#include "uirq/printk.h"

/* The core's messages ("nobody cared", WARN) go where every message goes: the log's sink, else stderr. */
void uirq_printk(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	uirq_log_printk("%s", buf);
}

void uirq_warn(const char *file, int line, const char *func, const char *fmt, ...)
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
		    msg, cpu < 0 ? 0 : cpu, (long)syscall(SYS_gettid), file, line, func);
}

const char *uirq_symbol_name(const void *fn, char *buf, size_t len)
{
	Dl_info info;

	/* dladdr() knows exported symbols only: static functions have no name here. */
	if (fn && dladdr(fn, &info) && info.dli_sname && info.dli_saddr) {
		snprintf(buf, len, "%s+0x%lx", info.dli_sname,
			 (unsigned long)((const char *)fn - (const char *)info.dli_saddr));
		return buf;
	}
	return NULL;
}

const char *uirq_symbol(const void *fn, char *buf, size_t len)
{
	if (!uirq_symbol_name(fn, buf, len))
		snprintf(buf, len, "%p", fn);
	return buf;
}

unsigned long uirq_jiffies(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000ul + (unsigned long)ts.tv_nsec / 1000000ul;
}

void uirq_futex_wait(void *addr, unsigned int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void uirq_futex_wake(void *addr, int nr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

void uirq_backoff(unsigned int *round)
{
	if (*round < 50) {
		(*round)++;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		return;
	}
	struct timespec ts = { 0, *round < 200 ? 20000 : 200000 };

	(*round)++;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

// SPDX-License-Identifier: MIT
/* WARN and BUG in the kernel's words (linux/bug.h): the banner, the place, the message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/printk.h>

void uirq_compat_warn(const char *file, int line, const char *func, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t n = strlen(msg);

	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	uirq_log_printk("------------[ cut here ]------------\n%s%sWARNING: at %s:%d %s\n", msg, n ? "\n" : "", file,
			line, func);
}

void uirq_compat_bug(const char *file, int line, const char *func)
{
	uirq_log_printk("------------[ cut here ]------------\nkernel BUG at %s:%d! (%s)\n", file, line, func);
	abort();
}

// SPDX-License-Identifier: MIT
/* BUG in the kernel's words (linux/bug.h); WARN is uirq's own uirq_log_warn(). */
#include <stdlib.h>

#include <linux/bug.h>
#include <linux/printk.h>

void uirq_compat_bug(const char *file, int line, const char *func)
{
	uirq_log_printk("------------[ cut here ]------------\nkernel BUG at %s:%d! (%s)\n", file, line, func);
	abort();
}

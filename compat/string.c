// SPDX-License-Identifier: MIT
/* The kernel's string allocations, on the heap (kfree() frees them). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/slab.h>

char *kasprintf(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	(void)gfp;
	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : p;
}

char *kstrdup(const char *s, gfp_t gfp)
{
	(void)gfp;
	return s ? strdup(s) : NULL;
}

/* The kernel shares strings of its read-only sections; here every string is a copy. */
const char *kstrdup_const(const char *s, gfp_t gfp)
{
	return kstrdup(s, gfp);
}

void kfree_const(const void *p)
{
	kfree(p);
}

void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

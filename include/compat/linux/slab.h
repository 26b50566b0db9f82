/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for memory allocation: the heap.  GFP flags are accepted
 * and ignored (an allocation may always sleep here; might_sleep() is not
 * called for GFP_KERNEL, which the kernel's lockdep would check under its
 * own option); __GFP_ZERO zeroes.  kasprintf() and kstrdup() are in
 * compat/string.c.
 */
#ifndef UIRQ_COMPAT_LINUX_SLAB_H
#define UIRQ_COMPAT_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include <linux/gfp.h>
#include <linux/overflow.h>

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	return gfp & __GFP_ZERO ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	return n && size > (size_t)-1 / n ? NULL : kmalloc(n * size, gfp);
}

static inline void *krealloc(const void *p, size_t size, gfp_t gfp)
{
	(void)gfp;
	return realloc((void *)p, size ? size : 1);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvzalloc(size, gfp)	kzalloc((size), (gfp))
#define kvfree(p)		kfree(p)

__attribute__((__format__(printf, 2, 3))) char *kasprintf(gfp_t gfp, const char *fmt, ...);
char *kstrdup(const char *s, gfp_t gfp);
const char *kstrdup_const(const char *s, gfp_t gfp);
void kfree_const(const void *p);
void *kmemdup(const void *src, size_t len, gfp_t gfp);

#endif

/* SPDX-License-Identifier: MIT */
/* Kernel names for memory allocation: the heap; GFP flags are accepted and ignored. */
#ifndef UIRQ_COMPAT_LINUX_SLAB_H
#define UIRQ_COMPAT_LINUX_SLAB_H

#include <stdlib.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL	0u
#define GFP_ATOMIC	0u

#define kmalloc(size, gfp)	malloc(size)
#define kzalloc(size, gfp)	calloc(1, (size))
#define kcalloc(n, size, gfp)	calloc((n), (size))
#define kfree(p)		free(p)

#endif

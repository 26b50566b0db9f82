/* SPDX-License-Identifier: MIT */
/*
 * Allocation sizes that cannot wrap (the kernel's <linux/overflow.h>): an
 * overflowing size saturates at SIZE_MAX, which no allocation satisfies.
 */
#ifndef UIRQ_COMPAT_LINUX_OVERFLOW_H
#define UIRQ_COMPAT_LINUX_OVERFLOW_H

#include <stddef.h>
#include <stdint.h>

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

/* The size of *p with count elements of its flexible array member. */
#define struct_size(p, member, count)	size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), (size_t)(count)))
#define array_size(a, b)		size_mul((a), (b))

#endif

/* SPDX-License-Identifier: MIT */
/*
 * What <linux/kernel.h> gives a driver, directly or through the headers it
 * includes in the kernel: the fixed-size types, the log, byte order, bit
 * operations, the string functions, sprintf(), kstrto*(), container_of(),
 * min()/max(), swap(), rounding, might_sleep().
 */
#ifndef UIRQ_COMPAT_LINUX_KERNEL_H
#define UIRQ_COMPAT_LINUX_KERNEL_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>	/* sprintf(), snprintf(): the C library's, for the formats drivers use */
#include <string.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/byteorder.h>
#include <linux/compiler_types.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/printk.h>
#include <linux/types.h>
#include "uirq/might_sleep.h"
#include <stdarg.h>

#define might_sleep()	uirq_might_sleep()

/* Exchange two lvalues of one type. */
#define swap(a, b)	do { __typeof__(a) swap_tmp_ = (a); (a) = (b); (b) = swap_tmp_; } while (0)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define container_of(ptr, type, member)	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Each operand once, of any arithmetic type (the kernel's also insist both have one type). */
#define min(a, b)	({ __typeof__(a) min_a_ = (a); __typeof__(b) min_b_ = (b); min_a_ < min_b_ ? min_a_ : min_b_; })
#define max(a, b)	({ __typeof__(a) max_a_ = (a); __typeof__(b) max_b_ = (b); max_a_ > max_b_ ? max_a_ : max_b_; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max((v), (lo)), (hi))
#define clamp_t(t, v, lo, hi) clamp((t)(v), (t)(lo), (t)(hi))
#define clamp_val(v, lo, hi) clamp_t(__typeof__(v), (v), (lo), (hi))

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_CLOSEST(x, d)	(((x) + ((d) / 2)) / (d))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define ALIGN(x, a)		(((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y)		((x) - ((x) % (y)))

#define U8_MAX		((u8)~0U)
#define S8_MAX		((s8)(U8_MAX >> 1))
#define U16_MAX		((u16)~0U)
#define S16_MAX		((s16)(U16_MAX >> 1))
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))

#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

/* snprintf() returning what it wrote, with the kernel's %*pb and %*pbl (compat/vsprintf.c). */
__attribute__((__format__(printf, 3, 4))) int scnprintf(char *buf, size_t size, const char *fmt, ...);
__attribute__((__format__(printf, 3, 0))) int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);

#endif

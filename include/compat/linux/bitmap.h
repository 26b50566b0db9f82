/* SPDX-License-Identifier: MIT */
/*
 * Bitmaps on the heap and as text (compat/bitmap.c): allocation, subset,
 * and the kernel's list format ("0-3,7", what "%*pbl" prints and
 * bitmap_parselist() reads).
 */
#ifndef UIRQ_COMPAT_LINUX_BITMAP_H
#define UIRQ_COMPAT_LINUX_BITMAP_H

#include <stdbool.h>

#include <linux/bitops.h>
#include <linux/gfp.h>

unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags);
unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags);
void bitmap_free(const unsigned long *bitmap);
/* Whether every bit of src1 is set in src2. */
bool bitmap_subset(const unsigned long *src1, const unsigned long *src2, unsigned int nbits);
void bitmap_zero(unsigned long *dst, unsigned int nbits);
/* "1,3-5" into maskp (cleared first): 0, -EINVAL for text that does not parse, -ERANGE past nmaskbits. */
int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits);
/* The list format of the set bits into buf (at most size bytes, NUL included): the length written. */
int uirq_bitmap_print_list(char *buf, size_t size, const unsigned long *maskp, unsigned int nbits);

#endif

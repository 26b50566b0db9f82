// SPDX-License-Identifier: MIT
/*
 * Bitmaps (lib/bitmap.c's answers): the list format is ranges of set bits,
 * "a-b" or "a", comma-separated, in increasing order; parsing takes the
 * same, with spaces around the entries and a trailing newline, and refuses
 * a bit past the map (-ERANGE) or text that is no list (-EINVAL).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitmap.h>

unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags)
{
	(void)flags;
	return malloc(BITS_TO_LONGS(nbits ? nbits : 1) * sizeof(unsigned long));
}

unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags)
{
	(void)flags;
	return calloc(BITS_TO_LONGS(nbits ? nbits : 1), sizeof(unsigned long));
}

void bitmap_free(const unsigned long *bitmap)
{
	free((void *)bitmap);
}

void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

bool bitmap_subset(const unsigned long *src1, const unsigned long *src2, unsigned int nbits)
{
	for (unsigned int i = 0; i < nbits; i++)
		if (test_bit(i, src1) && !test_bit(i, src2))
			return false;
	return true;
}

/* A decimal number at *p, moved past; -EINVAL for none, -EOVERFLOW past INT_MAX. */
static int number(const char **p, unsigned int *out)
{
	unsigned long v = 0;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (unsigned long)(**p - '0');
		if (v > INT_MAX)
			return -EOVERFLOW;
		(*p)++;
	}
	*out = (unsigned int)v;
	return 0;
}

int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits)
{
	const char *p = buf;

	bitmap_zero(maskp, (unsigned int)nmaskbits);
	for (;;) {
		unsigned int start, end;
		int ret;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		ret = number(&p, &start);
		if (ret)
			return ret;
		end = start;
		if (*p == '-') {
			p++;
			ret = number(&p, &end);
			if (ret)
				return ret;
			if (end < start)
				return -EINVAL;
		}
		if (end >= (unsigned int)nmaskbits)
			return -ERANGE;
		for (unsigned int b = start; b <= end; b++)
			__set_bit(b, maskp);
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p)
			return -EINVAL;
	}
}

int uirq_bitmap_print_list(char *buf, size_t size, const unsigned long *maskp, unsigned int nbits)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int b = 0; b < nbits; b++) {
		unsigned int end = b;
		int n;

		if (!test_bit(b, maskp))
			continue;
		while (end + 1 < nbits && test_bit(end + 1, maskp))
			end++;
		if (end == b)
			n = snprintf(buf + len, len < size ? size - len : 0, "%s%u", len ? "," : "", b);
		else
			n = snprintf(buf + len, len < size ? size - len : 0, "%s%u-%u", len ? "," : "", b, end);
		len += (size_t)n;
		b = end;
	}
	return (int)(len < size ? len : size ? size - 1 : 0);
}

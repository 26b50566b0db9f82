// SPDX-License-Identifier: MIT
/*
 * The kernel's scnprintf()/vscnprintf(): snprintf() that returns what it
 * wrote (not what it would have), with the kernel's "%*pb"/"%*pbl"
 * extension - a bitmap of width bits as a hex mask or a range list - which
 * the C library has no form of.  Every other conversion is the C
 * library's, one conversion at a time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <string.h>

#include <linux/bitmap.h>
#include <linux/kernel.h>

struct out {
	char *buf;
	size_t size, len;	/* len: what the whole text needs, as snprintf() counts */
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len - 1;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

/* A bitmap as the kernel's %*pb: 32-bit chunks in hex, the highest first, comma-separated. */
static void bitmap_mask(struct out *o, const unsigned long *map, unsigned int nbits)
{
	char chunk[16];
	int chunks = (int)((nbits + 31) / 32);

	for (int c = chunks - 1; c >= 0; c--) {
		uint32_t v = 0;

		for (unsigned int b = 0; b < 32 && (unsigned int)c * 32 + b < nbits; b++)
			if (test_bit((long)((unsigned int)c * 32 + b), map))
				v |= 1u << b;
		int n = snprintf(chunk, sizeof(chunk), c == chunks - 1 ? "%x" : ",%08x", v);

		put(o, chunk, (size_t)n);
	}
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size };

	while (*fmt) {
		const char *pct = strchr(fmt, '%');

		if (!pct) {
			put(&o, fmt, strlen(fmt));
			break;
		}
		put(&o, fmt, (size_t)(pct - fmt));
		/* One conversion: flags, width, precision, length, then its letter. */
		const char *p = pct + 1;
		int width = -1, prec = -1;
		bool star_w = false, star_p = false;

		p += strspn(p, "-+ #0");
		if (*p == '*') {
			star_w = true;
			width = va_arg(ap, int);
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				p++;
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				star_p = true;
				prec = va_arg(ap, int);
				p++;
			} else {
				while (*p >= '0' && *p <= '9')
					p++;
			}
		}
		const char *len = p;

		p += strspn(p, "hlqLjzt");
		char conv = *p;
		char spec[32], piece[512];
		size_t speclen = (size_t)(p - pct) + 1;
		int n = 0;

		if (!conv)
			break;
		if (conv == 'p' && p[1] == 'b') {
			/* The kernel's bitmap: the width is its number of bits. */
			const unsigned long *map = va_arg(ap, const unsigned long *);
			unsigned int nbits = width < 0 ? 0 : (unsigned int)width;

			if (p[2] == 'l') {
				char list[4096];

				n = uirq_bitmap_print_list(list, sizeof(list), map, nbits);
				put(&o, list, (size_t)n);
				fmt = p + 3;
			} else {
				bitmap_mask(&o, map, nbits);
				fmt = p + 2;
			}
			continue;
		}
		if (speclen >= sizeof(spec)) {
			put(&o, pct, speclen);
			fmt = p + 1;
			continue;
		}
		memcpy(spec, pct, speclen);
		spec[speclen] = '\0';
		bool l = len[0] == 'l' && len[1] != 'l', ll = (len[0] == 'l' && len[1] == 'l') || len[0] == 'q' ||
			 len[0] == 'L', z = len[0] == 'z' || len[0] == 't' || len[0] == 'j';

/* The conversion with the width and precision it took from the arguments, if any. */
#define ONE(arg)												\
	(star_w && star_p ? snprintf(piece, sizeof(piece), spec, width, prec, arg) :				\
	 star_w ? snprintf(piece, sizeof(piece), spec, width, arg) :						\
	 star_p ? snprintf(piece, sizeof(piece), spec, prec, arg) : snprintf(piece, sizeof(piece), spec, arg))
		switch (conv) {
		case '%':
			n = 1;
			piece[0] = '%';
			break;
		case 'd': case 'i':
			n = ll ? ONE(va_arg(ap, long long)) : l ? ONE(va_arg(ap, long)) : z ? ONE(va_arg(ap, ssize_t)) :
				 ONE(va_arg(ap, int));
			break;
		case 'u': case 'x': case 'X': case 'o':
			n = ll ? ONE(va_arg(ap, unsigned long long)) : l ? ONE(va_arg(ap, unsigned long)) :
			    z ? ONE(va_arg(ap, size_t)) : ONE(va_arg(ap, unsigned int));
			break;
		case 'c':
			n = ONE(va_arg(ap, int));
			break;
		case 's':
			n = ONE(va_arg(ap, const char *));
			break;
		case 'p':
			n = ONE(va_arg(ap, void *));
			break;
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
			n = len[0] == 'L' ? ONE(va_arg(ap, long double)) : ONE(va_arg(ap, double));
			break;
		default:
			/* Not a conversion: the text as it stands. */
			memcpy(piece, spec, speclen);
			n = (int)speclen;
			break;
		}
#undef ONE
		if (n > 0)
			put(&o, piece, (size_t)n < sizeof(piece) ? (size_t)n : sizeof(piece) - 1);
		/* The kernel's %p extensions other than %pb print as plain pointers; their letters go by. */
		fmt = p + 1;
		if (conv == 'p')
			while ((*fmt >= 'a' && *fmt <= 'z') || (*fmt >= 'A' && *fmt <= 'Z'))
				fmt++;
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return size ? (int)(o.len < size ? o.len : size - 1) : 0;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

// SPDX-License-Identifier: MIT
/*
 * The kernel's kstrto*() rules (<linux/kstrtox.h>), parsed here digit by
 * digit as lib/kstrtox.c does: the C library's strtoull() would take
 * leading blanks, a second sign, "0x" with no digit after it and bases
 * past 16, and wrap negative numbers silently.
 */
#include <errno.h>
#include <limits.h>

#include <linux/kstrtox.h>

/* A digit's value in bases up to 16 (either case), or 16 for a character that is none. */
static unsigned int digit_value(char c)
{
	unsigned int lc = (unsigned char)c | 0x20;

	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	if (lc >= 'a' && lc <= 'f')
		return lc - 'a' + 10;
	return 16;
}

/*
 * The magnitude of s (sign already taken off): 0, -EINVAL or -ERANGE.
 * Base 0 is octal after a 0 and hex after 0x only when a hex digit
 * follows (the kernel's choice: "0x" alone is octal 0 then an x, so
 * invalid); base 16 skips a 0x prefix.  An overflow is -ERANGE even if
 * text follows it, as the kernel checks the overflow first.
 */
static int parse_magnitude(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	bool overflow = false;
	const char *start;

	if (base == 0) {
		if (s[0] != '0')
			base = 10;
		else if ((s[1] | 0x20) == 'x' && digit_value(s[2]) < 16)
			base = 16;
		else
			base = 8;
	}
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (start = s; digit_value(*s) < base; s++) {
		unsigned int d = digit_value(*s);

		if (v > (ULLONG_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	if (overflow)
		return -ERANGE;
	if (s == start)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	return parse_magnitude(s[0] == '+' ? s + 1 : s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int ret;

	if (s[0] == '-') {
		ret = parse_magnitude(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = v ? -(long long)(v - 1) - 1 : 0;
		return 0;
	}
	ret = kstrtoull(s, base, &v);
	if (ret)
		return ret;
	if (v > LLONG_MAX)
		return -ERANGE;
	*res = (long long)v;
	return 0;
}

/* Narrowing: kstrto{u,}ll() then the range of the type. */
#define KSTRTO(name, type, wide, parse, lo, hi)					\
	int name(const char *s, unsigned int base, type *res)			\
	{									\
		wide v;								\
		int ret = parse(s, base, &v);					\
										\
		if (ret)							\
			return ret;						\
		if (v < (lo) || v > (hi))					\
			return -ERANGE;						\
		*res = (type)v;							\
		return 0;							\
	}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtype-limits"	/* an unsigned value is never below 0 */
KSTRTO(kstrtoul, unsigned long, unsigned long long, kstrtoull, 0, ULONG_MAX)
KSTRTO(kstrtol, long, long long, kstrtoll, LONG_MIN, LONG_MAX)
KSTRTO(kstrtouint, unsigned int, unsigned long long, kstrtoull, 0, UINT_MAX)
KSTRTO(kstrtoint, int, long long, kstrtoll, INT_MIN, INT_MAX)
KSTRTO(kstrtou8, u8, unsigned long long, kstrtoull, 0, UCHAR_MAX)
#pragma GCC diagnostic pop

/* y/Y/t/T/1 true, n/N/f/F/0 false, on/off in any case (6.1's words); the rest of the string is not looked at. */
int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

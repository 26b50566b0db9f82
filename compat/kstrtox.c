// SPDX-License-Identifier: MIT
/*
 * The kernel's kstrto*() rules (<linux/kstrtox.h>) on the C library's
 * strtoull(), which alone would take leading blanks, a sign where none is
 * allowed, trailing text and a silent wrap of negative numbers.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include <linux/kstrtox.h>

/* The magnitude of s (sign already taken off): 0, -EINVAL or -ERANGE. */
static int parse_magnitude(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;	/* no blanks, no second sign: strtoull() would take them */
	errno = 0;
	v = strtoull(s, &end, (int)base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || errno)
		return -EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
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

/* y/Y/1 true, n/N/0 false, on/off in any case; the rest of the string is not looked at. */
int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case '0':
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

/* SPDX-License-Identifier: MIT */
/*
 * Numbers from strings, as a sysfs store() parses what was written
 * (compat/kstrtox.c): the whole string, an optional sign, digits in base
 * (0: decimal, 0x hex or 0 octal by prefix; 16 takes a 0x too), one
 * trailing newline allowed.  0 and *res, -EINVAL (not such a number) or
 * -ERANGE (it does not fit); *res is untouched on failure.
 */
#ifndef UIRQ_COMPAT_LINUX_KSTRTOX_H
#define UIRQ_COMPAT_LINUX_KSTRTOX_H

#include <linux/types.h>

int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtou8(const char *s, unsigned int base, u8 *res);
int kstrtobool(const char *s, bool *res);

#endif

/* SPDX-License-Identifier: MIT */
/* Single bits and contiguous masks, as the kernel names them. */
#ifndef UIRQ_COMPAT_LINUX_BITS_H
#define UIRQ_COMPAT_LINUX_BITS_H

#define BITS_PER_LONG		((int)(sizeof(long) * 8))
#define BITS_PER_LONG_LONG	64
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BITS_PER_BYTE		8
/* Bits h..l set, h >= l. */
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))

#endif

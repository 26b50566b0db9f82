/* SPDX-License-Identifier: MIT */
/*
 * Bit searches and bit operations on unsigned long arrays.  set_bit() and
 * clear_bit() are atomic, as the kernel's are; the __ forms are not.
 */
#ifndef UIRQ_COMPAT_LINUX_BITOPS_H
#define UIRQ_COMPAT_LINUX_BITOPS_H

#include <stdbool.h>
#include <strings.h>
#include <linux/bits.h>

#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

/* The lowest set bit of word, counted from 0; undefined for 0. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* The highest set bit of word, counted from 0; undefined for 0. */
static inline unsigned long __fls(unsigned long word)
{
	return (unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(word));
}

/* ffs(): the C library's, the kernel's meaning (the lowest set bit counted from 1, 0 for none). */

/* The highest set bit counted from 1, 0 for none. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(unsigned long long x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* The order of count rounded up to a power of two (4 -> 2, 5 -> 3); -1 for 0. */
static inline int get_count_order(unsigned int count)
{
	return count ? fls(count - 1) : -1;
}

static inline unsigned int hweight32(unsigned int w)
{
	return (unsigned int)__builtin_popcount(w);
}

static inline unsigned long hweight_long(unsigned long w)
{
	return (unsigned long)__builtin_popcountl(w);
}

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return __atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline void assign_bit(long nr, volatile unsigned long *addr, bool value)
{
	if (value)
		set_bit(nr, addr);
	else
		clear_bit(nr, addr);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1UL;
}

/* The first set bit of the size-bit array at or after offset; size if none. */
static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	for (; offset < size; offset++)
		if (test_bit((long)offset, addr))
			return offset;
	return size;
}

static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)					\
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size);		\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

#endif

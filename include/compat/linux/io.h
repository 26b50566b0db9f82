/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for memory-mapped register access: readl()/writel() and
 * their 8- and 16-bit forms on a mapped window (a UIO map, a PCI BAR
 * mmapped from sysfs).  Each is one volatile access with a compiler
 * barrier on both sides, so accesses keep program order against each other
 * and against surrounding memory operations, as the kernel's do on x86.
 * The window's byte order is the host's (little-endian devices on x86).
 */
#ifndef UIRQ_COMPAT_LINUX_IO_H
#define UIRQ_COMPAT_LINUX_IO_H

#include <stdint.h>

#define __iomem volatile

#define UIRQ_IO_BARRIER()	__asm__ __volatile__("" ::: "memory")

static inline uint32_t readl(const volatile void *addr)
{
	uint32_t v;

	UIRQ_IO_BARRIER();
	v = *(const volatile uint32_t *)addr;
	UIRQ_IO_BARRIER();
	return v;
}

static inline void writel(uint32_t v, volatile void *addr)
{
	UIRQ_IO_BARRIER();
	*(volatile uint32_t *)addr = v;
	UIRQ_IO_BARRIER();
}

static inline uint16_t readw(const volatile void *addr)
{
	uint16_t v;

	UIRQ_IO_BARRIER();
	v = *(const volatile uint16_t *)addr;
	UIRQ_IO_BARRIER();
	return v;
}

static inline void writew(uint16_t v, volatile void *addr)
{
	UIRQ_IO_BARRIER();
	*(volatile uint16_t *)addr = v;
	UIRQ_IO_BARRIER();
}

static inline uint8_t readb(const volatile void *addr)
{
	uint8_t v;

	UIRQ_IO_BARRIER();
	v = *(const volatile uint8_t *)addr;
	UIRQ_IO_BARRIER();
	return v;
}

static inline void writeb(uint8_t v, volatile void *addr)
{
	UIRQ_IO_BARRIER();
	*(volatile uint8_t *)addr = v;
	UIRQ_IO_BARRIER();
}

#endif

/* SPDX-License-Identifier: MIT */
/* Resources a bus hands a device: register windows and interrupt lines. */
#ifndef UIRQ_COMPAT_LINUX_IOPORT_H
#define UIRQ_COMPAT_LINUX_IOPORT_H

#include <linux/types.h>

struct resource {
	resource_size_t start;
	resource_size_t end;	/* inclusive */
	const char *name;
	unsigned long flags;
};

#define IORESOURCE_IO		0x00000100
#define IORESOURCE_MEM		0x00000200
#define IORESOURCE_REG		0x00000300
#define IORESOURCE_IRQ		0x00000400
#define IORESOURCE_TYPE_BITS	0x00001f00

#define DEFINE_RES_IRQ(irq)	{ .start = (irq), .end = (irq), .flags = IORESOURCE_IRQ }
#define DEFINE_RES_IRQ_NAMED(irq, n)	{ .start = (irq), .end = (irq), .name = (n), .flags = IORESOURCE_IRQ }
#define DEFINE_RES_MEM(s, size)	{ .start = (s), .end = (s) + (size) - 1, .flags = IORESOURCE_MEM }

static inline resource_size_t resource_size(const struct resource *res)
{
	return res->end - res->start + 1;
}

static inline unsigned long resource_type(const struct resource *res)
{
	return res->flags & IORESOURCE_TYPE_BITS;
}

#endif

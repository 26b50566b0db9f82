/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for the controller side of genirq (uirq/irq.h): chips,
 * descriptors, flow handlers, line settings and types.
 *
 * The structure tags are macros: struct irq_chip is struct uirq_irq_chip,
 * and so on, so code that names one of these words for something else must
 * not include this header.  irq_alloc_descs() ignores the NUMA node.
 */
#ifndef UIRQ_COMPAT_LINUX_IRQ_H
#define UIRQ_COMPAT_LINUX_IRQ_H

#include <linux/interrupt.h>
#include "uirq/irq.h"

#define irq_chip		uirq_irq_chip
#define irq_data		uirq_irq_data
#define irq_desc		uirq_irq_desc
typedef uirq_irq_flow_handler_t irq_flow_handler_t;
typedef unsigned long irq_hw_number_t;

#define IRQ_TYPE_NONE		UIRQ_TYPE_NONE
#define IRQ_TYPE_EDGE_RISING	UIRQ_TYPE_EDGE_RISING
#define IRQ_TYPE_EDGE_FALLING	UIRQ_TYPE_EDGE_FALLING
#define IRQ_TYPE_EDGE_BOTH	UIRQ_TYPE_EDGE_BOTH
#define IRQ_TYPE_LEVEL_HIGH	UIRQ_TYPE_LEVEL_HIGH
#define IRQ_TYPE_LEVEL_LOW	UIRQ_TYPE_LEVEL_LOW
#define IRQ_TYPE_LEVEL_MASK	UIRQ_TYPE_LEVEL_MASK
#define IRQ_TYPE_SENSE_MASK	UIRQ_TYPE_SENSE_MASK

#define IRQ_NOREQUEST		UIRQ_NOREQUEST
#define IRQ_NOAUTOEN		UIRQ_NOAUTOEN
#define IRQ_NOTHREAD		UIRQ_NOTHREAD
#define IRQ_NESTED_THREAD	UIRQ_NESTED_THREAD
/* The kernel's other settings, at its values; uirq keeps none of them (no probing, balancing or per-CPU lines). */
#define IRQ_LEVEL		(1u << 8)
#define IRQ_PER_CPU		(1u << 9)
#define IRQ_NOPROBE		(1u << 10)
#define IRQ_NO_BALANCING	(1u << 13)
#define IRQ_MOVE_PCNTXT		(1u << 14)

#define IRQCHIP_ONESHOT_SAFE	UIRQCHIP_ONESHOT_SAFE
#define IRQCHIP_EOI_THREADED	UIRQCHIP_EOI_THREADED
/* The kernel's chip flags uirq has no use for (no wakeup, no suspend, no masking on suspend). */
#define IRQCHIP_SET_TYPE_MASKED	(1u << 0)
#define IRQCHIP_EOI_IF_HANDLED	(1u << 1)
#define IRQCHIP_MASK_ON_SUSPEND	(1u << 2)
#define IRQCHIP_SKIP_SET_WAKE	(1u << 4)
#define IRQCHIP_IMMUTABLE	(1u << 11)

#define IRQ_SET_MASK_OK		UIRQ_IRQ_SET_MASK_OK
#define IRQ_SET_MASK_OK_NOCOPY	UIRQ_IRQ_SET_MASK_OK_NOCOPY
#define IRQ_SET_MASK_OK_DONE	UIRQ_IRQ_SET_MASK_OK_DONE

#define handle_level_irq	uirq_handle_level_irq
#define handle_edge_irq		uirq_handle_edge_irq
#define handle_fasteoi_irq	uirq_handle_fasteoi_irq
#define handle_simple_irq	uirq_handle_simple_irq
#define handle_nested_irq(irq)	uirq_handle_nested_irq(irq)
#define generic_handle_irq(irq)	uirq_generic_handle_irq(irq)
#define chained_irq_enter(c, d)	uirq_chained_irq_enter((c), (d))
#define chained_irq_exit(c, d)	uirq_chained_irq_exit((c), (d))

/* The NUMA node is ignored; from 0 is taken as 1 (irq 0 is never valid here). */
#define irq_alloc_descs(irq, from, cnt, node)	uirq_irq_alloc_descs((irq), (from) ? (from) : 1, (cnt))
#define irq_free_descs(from, cnt)		uirq_irq_free_descs((from), (cnt))
#define irq_to_desc(irq)			uirq_irq_to_desc(irq)
#define irq_get_irq_data(irq)			uirq_irq_get_irq_data(irq)
#define irq_desc_get_chip(desc)			uirq_irq_desc_get_chip(desc)
#define irq_desc_get_irq_data(desc)		uirq_irq_desc_get_irq_data(desc)
#define irq_desc_get_handler_data(desc)		uirq_irq_desc_get_handler_data(desc)
#define irq_data_get_irq_chip_data(d)		((d)->chip_data)
#define irqd_to_hwirq(d)			((d)->hwirq)
#define irq_get_chip_data(irq)			(uirq_irq_get_irq_data(irq) ? uirq_irq_get_irq_data(irq)->chip_data : NULL)

#define irq_set_chip(irq, c)			uirq_irq_set_chip((irq), (c))
#define irq_set_chip_data(irq, d)		uirq_irq_set_chip_data((irq), (d))
#define irq_set_handler(irq, h)			uirq_irq_set_handler((irq), (h))
#define irq_set_chip_and_handler_name(irq, c, h, n) uirq_irq_set_chip_and_handler_name((irq), (c), (h), (n))
#define irq_set_chip_and_handler(irq, c, h)	uirq_irq_set_chip_and_handler_name((irq), (c), (h), NULL)
#define irq_set_chained_handler_and_data(irq, h, d) uirq_irq_set_chained_handler_and_data((irq), (h), (d))
#define irq_set_nested_thread(irq, nest)	uirq_irq_set_nested_thread((irq), (nest))
#define irq_set_parent(irq, parent)		uirq_irq_set_parent((irq), (parent))
#define irq_modify_status(irq, clr, set)	uirq_irq_modify_status((irq), (clr), (set))
#define irq_set_status_flags(irq, set)		uirq_irq_modify_status((irq), 0, (set))
#define irq_clear_status_flags(irq, clr)	uirq_irq_modify_status((irq), (clr), 0)
#define irq_set_noprobe(irq)			((void)(irq))
#define irq_set_handler_data(irq, d)		uirq_irq_set_handler_data((irq), (d))
#define irq_get_handler_data(irq)		uirq_irq_get_handler_data(irq)
#define irq_get_trigger_type(irq)		uirq_irq_get_trigger_type(irq)
/* The type the line has now: inside a chip's irq_set_type(), the one being replaced. */
#define irqd_get_trigger_type(d)		uirq_irq_get_trigger_type((d)->irq)
/* No line wakes a process (enable_irq_wake() records nothing): never set. */
#define irqd_is_wakeup_set(d)			((void)(d), false)

/*
 * A chip whose callbacks do nothing, for a demultiplexer's lines that the
 * parent masks (compat/irq.c): startup answers 0, the rest return.
 */
extern struct irq_chip dummy_irq_chip;
extern struct irq_chip no_irq_chip;

#endif

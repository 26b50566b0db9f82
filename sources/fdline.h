/* SPDX-License-Identifier: MIT */
/*
 * Inside the sources layer: what a kind of fd line (eventfd, timerfd, UIO, GPIO, VFIO)
 * adds to the common fd-line chip of fdline.c.  Not a public header.
 */
#ifndef UIRQ_SOURCES_FDLINE_H
#define UIRQ_SOURCES_FDLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/irq.h"
#include "uirq/sources.h"

/* The types of a line whose source is a counter (eventfd, timerfd): an edge per event, or readiness as a level. */
#define FD_LINE_COUNTER_TYPES (UIRQ_TYPE_EDGE_RISING | UIRQ_TYPE_LEVEL_HIGH)

struct fd_line_ops {
	const char *name;	/* the chip's name in /proc/interrupts */
	unsigned int types;	/* the UIRQ_TYPE_* bits this kind accepts (EDGE_RISING, EDGE_FALLING, LEVEL_HIGH) */
	/*
	 * The ack quiets the source (reading an eventfd's counter is all there
	 * is to it, as an MSI needs no unmask): the chip is UIRQCHIP_ONESHOT_SAFE
	 * and IRQF_ONESHOT is dropped.  false where the device keeps asserting
	 * until a handler has talked to it (UIO's INTx, VFIO's INTx): ONESHOT
	 * must then hold the line masked until the thread has run.
	 */
	bool oneshot_safe;
	/*
	 * The deterministic mode may run it, its CPU polling the fd: only the
	 * program writes it (an eventfd it made itself, raised through the
	 * API).  Every other kind is a kernel's or another process's, which
	 * the scheduler cannot order: refused there.
	 */
	bool sim_virtual;
	/* Events since the previous read, 0 for none; called in hard-irq context, must not block. */
	uint64_t (*read_events)(struct uirq_fd_line *l);
	/* Let the device interrupt again (startup, unmask) or stop it (shutdown); NULL: nothing to do. */
	void (*hw_enable)(struct uirq_fd_line *l, bool on);
	/*
	 * True if hw_enable(l, true) signals the fd again while the device
	 * still asserts its level: VFIO's INTx unmask re-checks the pin and
	 * re-triggers, uio_pci_generic's kernel handler takes the still
	 * asserted INTx again.  A signal left unread from before (a level line
	 * disabled or freed when it came) is then the same interrupt twice,
	 * and is dropped before the re-enable (fdline.c, drop_stale()).  NULL:
	 * never; an eventfd's counter is its level, nothing signals it again.
	 */
	bool (*resignals)(struct uirq_fd_line *l);
	/*
	 * The line's type changes to type (valid for the kind, maybe the same
	 * as now): reconfigure the source, 0 or -errno (the type is then
	 * kept); NULL: the chip's state is all there is.
	 */
	int (*set_type)(struct uirq_fd_line *l, unsigned int type);
	/* Free the kind's state at destroy, after the line is gone; NULL: nothing to do. */
	void (*release)(struct uirq_fd_line *l);
	/* The line belongs to a device object that removes it (VFIO): uirq_fd_line_destroy() refuses it. */
	bool device_owned;
};

/*
 * A new line watching fd, with a descriptor, the kind's chip and its flow:
 * the irq (> 0) and *out, or -errno (fd and priv are then the caller's).
 * owned: close fd on destroy.
 */
int fd_line_new(int fd, bool owned, const struct fd_line_ops *ops, void *priv, unsigned int type,
		struct uirq_fd_line **out);
/*
 * As fd_line_new() on irq, a descriptor the caller allocated (a domain's
 * mapping), which fd_line_remove() then leaves allocated.  0 or -errno.
 */
int fd_line_new_at(unsigned int irq, int fd, bool owned, const struct fd_line_ops *ops, void *priv,
		   unsigned int type, struct uirq_fd_line **out);
/* Tear a line down (whatever made it): -EBUSY, nothing done, while a handler is installed. */
int fd_line_remove(struct uirq_fd_line *l);
/* Read an eventfd's or timerfd's 64-bit counter (resetting it): the value, 0 for none. */
uint64_t fd_line_read_counter64(struct uirq_fd_line *l);
/*
 * Add n events to an eventfd line's counter (an eventfd write) and tell the
 * CPU watching it, as uirq_eventfd_line_raise() does with 1: 0 or -errno.
 */
int fd_line_add_events(struct uirq_fd_line *l, uint64_t n);
/* The kind's state given to fd_line_new(). */
void *fd_line_priv(const struct uirq_fd_line *l);
/* The line's ops, to tell kinds apart. */
const struct fd_line_ops *fd_line_kind(const struct uirq_fd_line *l);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Interrupt sources: what raises lines.
 *
 *  - swirq: a software interrupt controller (an OMAP-INTC-like chip on
 *    software lines) for hardware models.  Each input is a level (high/low)
 *    or edge (rising/falling/both) input, set through the chip's
 *    irq_set_type (uirq_irq_set_irq_type(), or the IRQF_TRIGGER_* flags of a
 *    request).  Device models drive inputs from any thread.  Edges latch a
 *    pending bit until acked; a level stays asserted until the device
 *    deasserts it; an unmask (or an EOI) of a line that is still asserted or
 *    latched raises it again.  Inputs start masked, as a controller comes
 *    out of reset.  Lock-free: every call is safe from any thread and from
 *    hard-irq context.
 *
 *  - fd lines: an eventfd or a timerfd as an interrupt line, watched by the
 *    CPUs (uirq_cpu_watch_fd).  Readiness is the line asserting; the ack
 *    reads the counter (the number of edges merged into this interrupt, or
 *    of timer expirations), mask leaves the fd unwatched, unmask and ack
 *    re-arm it.  Types: UIRQ_TYPE_EDGE_RISING (default; the edge flow) or
 *    UIRQ_TYPE_LEVEL_HIGH (the level flow); anything else is -EINVAL.  The
 *    chip is oneshot-safe (like MSI): a threaded handler with handler NULL
 *    needs no IRQF_ONESHOT.
 *
 *  - UIO lines: a /dev/uioN device of the running kernel as a level line
 *    of the fd-line chip (the kernel's UIO handler has already silenced
 *    the device's interrupt and counted it).  The ack reads the 32-bit
 *    event count (the difference to the previous read is the number of
 *    interrupts merged) but does not quiet the device, so the chip is not
 *    oneshot-safe: with IRQF_ONESHOT the interrupt stays disabled until the
 *    thread returns (handler NULL needs IRQF_ONESHOT, as on a kernel's
 *    level line).  Unmask re-enables the interrupt - irqcontrol (a
 *    write of 1 to the fd) or, for uio_pci_generic, the INTx disable bit
 *    of the PCI command register in device/config - and watches the fd
 *    again; shutdown disables it.  uio_pci_generic's INTx, still asserted
 *    at the re-enable, interrupts the kernel again: a count the line left
 *    unread while disabled or freed is that same interrupt and is dropped
 *    there (counted once).  The device's registers are mapped from
 *    sysfs so a primary handler can check and acknowledge the device.
 *
 *  - GPIO lines: one input line of a /dev/gpiochipN of the running kernel,
 *    requested through the GPIO character device's uAPI v2 with edge
 *    detection, as an edge line of the fd-line chip.  The type picks the
 *    edges (UIRQ_TYPE_EDGE_RISING, _FALLING or _BOTH; a later set_type or
 *    IRQF_TRIGGER_* reconfigures the request).  The ack reads every event
 *    the kernel queued (its timestamp, edge kind and line sequence number;
 *    the number read is the count merged into this interrupt) and the chip
 *    is oneshot-safe.  The kernel queues 16 events per line and drops the
 *    oldest when full (a masked or slow line): the gap in the sequence
 *    numbers is counted as lost in the line's stats, never hidden.  Edges
 *    faster than the kernel's own edge handling merge before they are
 *    numbered.  The driver reads the last event (timestamp, seqno, kind)
 *    or the line's current value from its handler.
 *
 *  - VFIO lines: a PCI device bound to vfio-pci (type1 IOMMU), its MSI or
 *    MSI-X vectors as edge lines of an irq domain of the device (hwirq =
 *    vector; the chip is oneshot-safe, as an MSI needs no unmask) or its
 *    INTx as a level line that is not (VFIO masks INTx when it signals;
 *    unmask writes VFIO's unmask eventfd).  See "VFIO lines" below.
 *
 * Levels here are logical: a device model says "asserted" or "deasserted";
 * the polarity of the configured type (HIGH/LOW, RISING/FALLING) is the
 * wire's business and is assumed to match the device.  For EDGE_BOTH every
 * change of the level is an edge.
 *
 * Native API only (no kernel names).  Errors are negative errno values.
 */
#ifndef UIRQ_SOURCES_H
#define UIRQ_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uirq/irq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Software interrupt controller                                       */
/* ------------------------------------------------------------------ */

struct uirq_swirq;

/* uirq_swirq_config.flags */
#define UIRQ_SWIRQ_FASTEOI	(1u << 0)	/* fasteoi flow: the CPU's acknowledge takes the input "in service" until EOI, as a GIC does; default: level/edge flows by type */
#define UIRQ_SWIRQ_ONESHOT_SAFE	(1u << 1)	/* mark the chip UIRQCHIP_ONESHOT_SAFE (off by default) */

struct uirq_swirq_config {
	const char *name;		/* chip name in /proc/interrupts (copied); NULL: "swirq" */
	unsigned int nr_inputs;		/* 1 .. UIRQ_SWIRQ_MAX_INPUTS */
	unsigned int default_type;	/* type of every input at creation; 0: UIRQ_TYPE_LEVEL_HIGH */
	unsigned int flags;		/* UIRQ_SWIRQ_* */
};

#define UIRQ_SWIRQ_MAX_INPUTS	65536u

/* Per-input counters and state (a snapshot; counters only grow). */
struct uirq_swirq_stats {
	unsigned long edges;		/* edges the device produced (edge types) */
	unsigned long latched;		/* edges that set the pending bit */
	unsigned long merged;		/* edges that arrived while it was already set: edges == latched + merged */
	unsigned long asserts;		/* deasserted -> asserted transitions */
	unsigned long raises;		/* uirq_irq_raise() calls made for the input */
	unsigned long vanished;		/* level raises found deasserted or masked when the CPU took them */
	unsigned long acks, masks, unmasks, eois;	/* chip callbacks the core made */
	unsigned long retriggers;	/* resends through irq_retrigger */
	unsigned int type;		/* UIRQ_TYPE_* now */
	bool asserted;			/* the level the device drives now */
	bool pending;			/* the edge latch (edge types) */
	bool masked;			/* the controller's mask bit */
	bool in_service;		/* between acknowledge and EOI (UIRQ_SWIRQ_FASTEOI) */
	bool started;			/* between irq_startup and irq_shutdown (a handler is installed) */
};

/* Create a controller and its linear irq domain; 0 and *out, or -EINVAL/-ENOMEM. */
int uirq_swirq_create(const struct uirq_swirq_config *cfg, struct uirq_swirq **out);
/* Remove the domain and free the controller; -EBUSY (nothing done) while an input has a handler. */
int uirq_swirq_destroy(struct uirq_swirq *c);
/* The controller's irq domain (hwirq = input number). */
struct uirq_irq_domain *uirq_swirq_domain(struct uirq_swirq *c);
/* Number of inputs. */
unsigned int uirq_swirq_nr_inputs(const struct uirq_swirq *c);
/* Map an input to its irq (creating the mapping on first use): the irq (> 0), or -EINVAL/-ENOMEM. */
int uirq_swirq_map(struct uirq_swirq *c, unsigned int hwirq);
/*
 * Set an input's type through the core (maps it first): uirq_irq_set_irq_type()
 * semantics.  0, or uirq_swirq_map()'s errors, or -EINVAL (the chip refuses the type).
 */
int uirq_swirq_set_type(struct uirq_swirq *c, unsigned int hwirq, unsigned int type);
/*
 * The device drives the input asserted (true) or deasserted (false); an edge
 * input latches its edges.  0, or -EINVAL (c NULL, hwirq out of range).
 */
int uirq_swirq_set_level(struct uirq_swirq *c, unsigned int hwirq, bool asserted);
/* One edge on an edge input (the level is left as it is); -EINVAL on a level input (use set_level). */
int uirq_swirq_pulse(struct uirq_swirq *c, unsigned int hwirq);
/* The level the device drives now: 1 asserted, 0 deasserted, or -EINVAL. */
int uirq_swirq_get_level(const struct uirq_swirq *c, unsigned int hwirq);
/* Copy an input's counters and state; 0 or -EINVAL. */
int uirq_swirq_get_stats(const struct uirq_swirq *c, unsigned int hwirq, struct uirq_swirq_stats *st);

/* ------------------------------------------------------------------ */
/* File-descriptor lines                                               */
/* ------------------------------------------------------------------ */

struct uirq_fd_line;

/* Counters of an fd line (a snapshot). */
struct uirq_fd_line_stats {
	unsigned long acks;		/* counter reads that found events: interrupts delivered */
	unsigned long empty;		/* counter reads that found nothing (a resend, a reset timer) */
	unsigned long events;		/* sum of the counter values read (writes, expirations) */
	unsigned long merged;		/* events folded into an interrupt already counted: events == acks + merged */
	unsigned long rearms;		/* uirq_cpu_rearm_fd() calls */
	unsigned int type;		/* UIRQ_TYPE_EDGE_RISING or LEVEL_HIGH (GPIO lines: EDGE_FALLING, EDGE_BOTH too) */
	bool masked;			/* the watch is not re-armed */
	bool started;			/* a handler is installed */
};

/*
 * An eventfd as a new line.  fd < 0 creates an eventfd (closed on destroy);
 * fd >= 0 adopts the caller's eventfd (switched to O_NONBLOCK, left open on
 * destroy; -EBADF if not open, -EINVAL if not an eventfd).  type 0 means
 * UIRQ_TYPE_EDGE_RISING.  Returns the irq (> 0) and *out, or -errno.
 */
int uirq_eventfd_line_create(int fd, unsigned int type, struct uirq_fd_line **out);
/* Raise an eventfd line from any thread: write 1 to its eventfd.  0 or -errno. */
int uirq_eventfd_line_raise(struct uirq_fd_line *l);
/*
 * A CLOCK_MONOTONIC timerfd as a new line: first expiry after initial_ns
 * (0: disarmed), then every period_ns (0: one-shot).  Expirations count as
 * an eventfd's writes do.  Returns the irq (> 0) and *out, or -errno.  In
 * the deterministic mode (uirq/sim.h) the timer is on the virtual clock,
 * made from a task (-EOPNOTSUPP from any other thread), its fd an eventfd;
 * set and destroy it from tasks, before uirq_sim_stop().
 */
int uirq_timerfd_line_create(unsigned int type, uint64_t initial_ns, uint64_t period_ns,
			     struct uirq_fd_line **out);
/* Re-arm (or, initial_ns 0, disarm) a timerfd line, dropping unread expirations; -EINVAL on an eventfd line. */
int uirq_timerfd_line_settime(struct uirq_fd_line *l, uint64_t initial_ns, uint64_t period_ns);
/* Stop watching, free the line's descriptor, close an owned fd, free l; -EBUSY (nothing done) while a handler is installed. */
int uirq_fd_line_destroy(struct uirq_fd_line *l);
/* The line's irq number. */
unsigned int uirq_fd_line_irq(const struct uirq_fd_line *l);
/* Returns the line's file descriptor (the line's; do not close it), or -EINVAL for l NULL. */
int uirq_fd_line_fd(const struct uirq_fd_line *l);
/* The counter value the latest ack read (events merged into the interrupt being handled). */
uint64_t uirq_fd_line_last_count(const struct uirq_fd_line *l);
/* Events read since the previous call, then zero (for thread handlers: nothing is counted twice or lost). */
uint64_t uirq_fd_line_take_count(struct uirq_fd_line *l);
/* Copy the line's counters; 0 or -EINVAL. */
int uirq_fd_line_get_stats(const struct uirq_fd_line *l, struct uirq_fd_line_stats *st);

/* ------------------------------------------------------------------ */
/* UIO lines                                                           */
/* ------------------------------------------------------------------ */

/*
 * Open dev ("/dev/uioN" or "uioN") as a new line (an fd line: the
 * uirq_fd_line_* calls apply).  type 0 or UIRQ_TYPE_LEVEL_HIGH; anything
 * else, or a bad name, is -EINVAL.  Returns the irq (> 0) and *out, or
 * open()'s error (-ENOENT no such device, -EACCES no permission, ...).
 */
int uirq_uio_line_create(const char *dev, unsigned int type, struct uirq_fd_line **out);
/* The device node uirq_uio_line_create() opens for dev, into path (len bytes): 0, -EINVAL (a bad name) or -ENAMETOOLONG. */
int uirq_uio_path(const char *dev, char *path, size_t len);
/*
 * Map register region index (0..5) of the line's device: a PCI device's
 * BAR (device/resourceN), else UIO's memory map N.  0 with *addr (and
 * *size), or -EINVAL (not a UIO line), -ENOENT (no such region), -errno.
 * Mapped once, unmapped by uirq_fd_line_destroy().
 */
int uirq_uio_line_map(struct uirq_fd_line *l, unsigned int index, volatile void **addr, size_t *size);
/* N of the line's /dev/uioN, or -EINVAL for a line that is not a UIO line. */
int uirq_uio_line_index(const struct uirq_fd_line *l);
/* Re-enables and disables of the device's interrupt that failed (0 for other lines). */
unsigned long uirq_uio_line_hw_errors(const struct uirq_fd_line *l);

/* ------------------------------------------------------------------ */
/* GPIO lines                                                          */
/* ------------------------------------------------------------------ */

/* An edge event as the kernel reported it (struct gpio_v2_line_event). */
struct uirq_gpio_event {
	uint64_t timestamp_ns;		/* CLOCK_MONOTONIC, taken by the kernel's edge handler */
	uint32_t line_seqno;		/* the line's event number, from 1; a gap is events lost */
	unsigned int kind;		/* UIRQ_TYPE_EDGE_RISING or UIRQ_TYPE_EDGE_FALLING */
};

/* Counters of a GPIO line (a snapshot; counters only grow).  The fd-line stats count the interrupts. */
struct uirq_gpio_line_stats {
	unsigned long rising;		/* rising-edge events read */
	unsigned long falling;		/* falling-edge events read */
	unsigned long lost;		/* events the kernel dropped (sequence-number gaps): rising + falling + lost = last_seqno */
	unsigned long read_errors;	/* reads of the request fd that failed other than with EAGAIN */
	uint32_t last_seqno;		/* the last event's line_seqno, 0 before the first */
	unsigned int offset;		/* the line's offset on its chip */
	uint32_t debounce_us;		/* the debounce period asked for, 0 for none */
};

/*
 * Request line offset of chip ("/dev/gpiochipN", "gpiochipN" or "N") as an
 * input with edge detection, as a new line (an fd line: the uirq_fd_line_*
 * calls apply; uirq_fd_line_destroy() releases the request).  type 0 means
 * UIRQ_TYPE_EDGE_BOTH; EDGE_RISING and EDGE_FALLING pick one edge; levels
 * are -EINVAL (the uAPI reports changes only).  debounce_us > 0 asks the
 * kernel to debounce (GPIO_V2_LINE_ATTR_ID_DEBOUNCE: in the chip where it
 * can, else in software).  Returns the irq (> 0) and *out, or -errno:
 * -ENOENT no such chip, -EACCES no permission, -ENOTTY not a GPIO chip,
 * -EINVAL no such line (or a bad type), -EBUSY the line is requested
 * already, -ENAMETOOLONG a chip name longer than a path.
 */
int uirq_gpio_line_create(const char *chip, unsigned int offset, unsigned int type, uint32_t debounce_us,
			  struct uirq_fd_line **out);
/*
 * The device uirq_gpio_line_create() opens for chip, into path (len
 * bytes), so that a message can name the file it tried: 0, -EINVAL (an
 * empty name) or -ENAMETOOLONG.
 */
int uirq_gpio_chip_path(const char *chip, char *path, size_t len);
/*
 * The last event the ack read (for a handler: the one that ended this
 * interrupt's batch).  0, -ENODATA before the first event, -EINVAL for a
 * line that is not a GPIO line.
 */
int uirq_gpio_line_last_event(const struct uirq_fd_line *l, struct uirq_gpio_event *ev);
/* Copy a GPIO line's counters; 0 or -EINVAL (not a GPIO line). */
int uirq_gpio_line_get_stats(const struct uirq_fd_line *l, struct uirq_gpio_line_stats *st);
/* The line's current (logical) value, 0 or 1, read from the kernel; -EINVAL (not a GPIO line) or -errno. */
int uirq_gpio_line_get_value(const struct uirq_fd_line *l);

/* ------------------------------------------------------------------ */
/* VFIO lines                                                          */
/* ------------------------------------------------------------------ */

/*
 * A PCI device bound to vfio-pci (echo vfio-pci > .../driver_override, then
 * .../drivers_probe), opened through a container with the type1v2 IOMMU
 * and the device's IOMMU group (every device of the group must be bound
 * to vfio-pci; the process needs /dev/vfio/vfio and /dev/vfio/GROUP).
 * Its interrupts are one of three kinds (VFIO's irq indexes), never two
 * at once:
 *  - MSI, MSI-X: uirq_vfio_msi_enable() enables nvec vectors, each an
 *    edge line of an eventfd in an irq domain of the device (hwirq =
 *    vector).  The chip is oneshot-safe (an MSI is quiet once sent):
 *    handler NULL needs no IRQF_ONESHOT.  Bus mastering is switched on
 *    (an MSI is a memory write by the device; QEMU drops it otherwise).
 *    The triggers stay connected until uirq_vfio_close(): an MSI sent
 *    between free_irq and the next request is kept pending and delivered
 *    at that request, as a kernel delivers a masked MSI at unmask.
 *    (Removing a single vector's trigger would have the kernel deactivate
 *    it: the device's next MSI would be a DMA write to address 0, an
 *    IOMMU fault.)
 *  - INTx: uirq_vfio_intx_line(), a level line that is NOT oneshot-safe:
 *    VFIO masks INTx when it signals, and the device asserts it until a
 *    handler acknowledges it, so a threaded handler with handler NULL
 *    needs IRQF_ONESHOT and INTx stays masked until the thread returns.
 *    Unmask writes VFIO's unmask eventfd (VFIO signals again if the
 *    device still asserts: a bit latched while the line was freed arrives
 *    at the next request); shutdown masks INTx.  A signal the line left
 *    unread while disabled or freed is that same interrupt, and is dropped
 *    at the unmask: one interrupt, one handler run, counted once.
 *
 * MSIs merge.  A device does not send a second MSI for a vector while the
 * first is pending in the interrupt controller, and the kernel signals the
 * eventfd once per MSI it takes: measured under QEMU with edu, 100 raises
 * made while nobody read the eventfd read as anything from 6 to 100.  The
 * line therefore counts at least one interrupt per wake-up
 * (uirq_fd_line_take_count() and the stats' acks/merged are wake-ups and
 * signals, not device events), and a driver must treat the device's own
 * status register as the truth: read it, acknowledge what it found, and
 * expect some handler runs to find several events and others none.
 *
 * Errors are negative errno values; each failure of the device's set-up
 * is also logged (uirq_log_printk) naming the device and the step.
 */

struct uirq_vfio_dev;

/* uirq_vfio_* kinds: VFIO's irq indexes of a PCI device. */
#define UIRQ_VFIO_INTX	0u
#define UIRQ_VFIO_MSI	1u
#define UIRQ_VFIO_MSIX	2u

/*
 * Open dev, a PCI address ("0000:00:04.0") or its sysfs folder
 * ("/sys/bus/pci/devices/0000:00:04.0").  0 and *out, or -EINVAL (not an
 * address), -ENOENT (no such device, or no IOMMU group), -EBUSY (group not
 * viable, or taken), -EACCES, or the failing ioctl's error.
 */
int uirq_vfio_open(const char *dev, struct uirq_vfio_dev **out);
/*
 * Remove every trigger, the lines (and the MSI domain), unmap the BARs,
 * switch off bus mastering if it was switched on here, close the device,
 * group and container, free v.  -EBUSY (nothing done) while a line has a
 * handler; -EINVAL for NULL.
 */
int uirq_vfio_close(struct uirq_vfio_dev *v);
/*
 * Map BAR bar (0..5) through the device fd's region.  0 with *addr (and
 * *size), -EINVAL, -ENOENT (no such BAR), -ENOTSUP (not mappable), -errno.
 * Mapped once, unmapped by uirq_vfio_close().
 */
int uirq_vfio_map(struct uirq_vfio_dev *v, unsigned int bar, volatile void **addr, size_t *size);
/* Vectors of kind (UIRQ_VFIO_*) the device has: 0 (none), the count, or -errno. */
int uirq_vfio_nr_vectors(struct uirq_vfio_dev *v, unsigned int kind);
/*
 * Enable nvec vectors of kind UIRQ_VFIO_MSI or UIRQ_VFIO_MSIX as edge
 * lines (irqs in a domain of the device; *out gets it when out is not
 * NULL).  0, or -EINVAL, -EBUSY (interrupts already enabled), -ENOSPC
 * (fewer vectors), -errno.
 */
int uirq_vfio_msi_enable(struct uirq_vfio_dev *v, unsigned int kind, unsigned int nvec,
			 struct uirq_irq_domain **out);
/*
 * Vector vector's line (the uirq_fd_line_* calls apply; it goes with the
 * device: uirq_fd_line_destroy() refuses it): its irq (> 0) and *out, or
 * -EINVAL (no such vector enabled).
 */
int uirq_vfio_msi_line(struct uirq_vfio_dev *v, unsigned int vector, struct uirq_fd_line **out);
/*
 * INTx as a new level line (masked until requested; goes with the
 * device): its irq (> 0) and *out, or -EINVAL, -EBUSY (MSI enabled),
 * -ENODEV (no interrupt pin), -errno.
 */
int uirq_vfio_intx_line(struct uirq_vfio_dev *v, struct uirq_fd_line **out);
/*
 * The device fd (regions at the offsets VFIO_DEVICE_GET_REGION_INFO gives),
 * for what this API does not cover; closed by uirq_vfio_close().  -EINVAL
 * for NULL.
 */
int uirq_vfio_device_fd(const struct uirq_vfio_dev *v);
/* Trigger connections, INTx unmasks and masks that failed (0 for NULL). */
unsigned long uirq_vfio_hw_errors(const struct uirq_vfio_dev *v);

#ifdef __cplusplus
}
#endif
#endif

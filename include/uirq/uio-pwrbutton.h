/* SPDX-License-Identifier: MIT */
/*
 * uio-pwrbutton (drivers layer): a power button for a real kernel.  Its
 * interrupt comes through a UIO line (sources/uio.c) from a device whose
 * mapped register window has an interrupt status and an acknowledge
 * register; the button's level is a bit of a status register of an i2c
 * chip.  It requests the line threaded and IRQF_ONESHOT, as
 * "uirq-pwrbutton":
 *  - primary (hard-irq context): read the status register (32-bit); 0 is
 *    not ours (IRQ_NONE); else write it to the acknowledge register, which
 *    drops the device's interrupt, and wake the thread;
 *  - thread: read the status byte over i2c (SMBus read byte data) and
 *    report KEY_POWER = the bit, then sync.  An i2c error is logged and
 *    nothing is reported; the next interrupt reads again.
 */
#ifndef UIRQ_UIO_PWRBUTTON_H
#define UIRQ_UIO_PWRBUTTON_H

#include <stddef.h>
#include <stdint.h>

#include "uirq/i2c.h"
#include "uirq/input.h"

#ifdef __cplusplus
extern "C" {
#endif

struct uio_pwrbutton;

/* What a platform device would carry. */
struct uio_pwrbutton_config {
	unsigned int irq;		/* the UIO line's irq (uirq_fd_line_irq) */
	volatile void *regs;		/* the mapped register window (uirq_uio_line_map) */
	size_t regs_size;		/* its size: both offsets must fit a 32-bit register in it */
	unsigned int status_off;	/* interrupt status register (read in the primary) */
	unsigned int ack_off;		/* acknowledge register (the status is written to it) */
	struct uirq_i2c_adapter *adap;	/* the bus the status chip sits on */
	uint16_t addr;			/* its 7-bit address */
	uint8_t reg;			/* the register holding the button's level */
	unsigned int bit;		/* the level's bit number in it, 0..7 */
	struct uirq_input_dev *input;	/* a registered input device with EV_KEY KEY_POWER */
};

/*
 * Probe: create the i2c client, read the status register once (so a chip
 * that does not answer fails here, with the transfer's error: -ENXIO a
 * NACK, -ENODEV for i2c-stub, ...) and request the irq.  0 and *out, or
 * -EINVAL (bad config), -EBUSY (address taken), -ENOMEM, the i2c error or
 * request_threaded_irq()'s.  Nothing is reported at probe.
 */
int uio_pwrbutton_probe(const struct uio_pwrbutton_config *cfg, struct uio_pwrbutton **out);
/* Free the irq (waiting for a running handler), remove the client, free pb; NULL is ignored. */
void uio_pwrbutton_remove(struct uio_pwrbutton *pb);
/* Interrupts the primary claimed (status != 0) and those it refused (IRQ_NONE), for tools. */
void uio_pwrbutton_counts(const struct uio_pwrbutton *pb, unsigned long *claimed, unsigned long *refused);

#ifdef __cplusplus
}
#endif
#endif

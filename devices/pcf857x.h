/* SPDX-License-Identifier: MIT */
/*
 * The PCF8574 (8 lines) and PCF8575 (16 lines) i2c GPIO expander model
 * (devices/pcf857x.c), as Linux's gpio-pcf857x.c drives it.  Not
 * installed: the tests' own.
 *
 * Facts (NXP's PCF8574/74A and PCF8575 datasheets):
 *   - No registers: a write message sets the output latch, a read message
 *     returns the pins.  The PCF8574 takes each data byte of a write as
 *     the new latch and answers each byte of a read with the port; the
 *     PCF8575's bytes alternate P07..P00, P17..P10, on writes and reads.
 *   - Quasi-bidirectional pins: a latch bit of 0 drives the pin low; a
 *     latch bit of 1 (the power-on state: all ones) pulls it up weakly, so
 *     something outside may pull it low - that is how a pin is an input.
 *     A pin reads as its level: latch AND not pulled low.
 *   - INT (open drain, active low) is asserted by any change of an input
 *     pin, and reset by reading or writing the port, or by the port
 *     returning to the state it had then ("changed to the original
 *     setting").  The model keeps the port's state at the last read or
 *     write: INT is asserted exactly while the pins differ from it.
 * Not modelled: the reset at the acknowledge bit (the model resets INT
 * when the transfer's data is handed over; a change inside the ack clock,
 * which the datasheet says may be lost, cannot happen here), and the
 * strong pull-up pulse of a 0-to-1 write.
 */
#ifndef UIRQ_DEVICES_PCF857X_H
#define UIRQ_DEVICES_PCF857X_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/i2c.h"
#include "uirq/sources.h"

struct pcf857x;

/*
 * A chip with ngpio lines (8: PCF8574, 16: PCF8575) out of power-on (latch
 * all ones, nothing pulled low, INT released), its slave at addr on sim,
 * INT driving input hwirq of intc (asserted = low: configure the input
 * EDGE_FALLING or LEVEL_LOW).  0, or -EINVAL, -ENOMEM, the adapter's -EBUSY.
 */
int pcf857x_create(struct uirq_i2c_sim *sim, uint16_t addr, unsigned int ngpio, struct uirq_swirq *intc,
		   unsigned int hwirq, struct pcf857x **out);
/* Detach the slave (after a transfer in flight) and free the model. */
void pcf857x_destroy(struct pcf857x *c);
/* Something outside pulls pin low (a button pressed), or lets it go. */
void pcf857x_pull(struct pcf857x *c, unsigned int pin, bool low);
/* The pins' levels now, the latch, and whether INT is asserted: no bus traffic, no side effect. */
uint16_t pcf857x_pins(struct pcf857x *c);
uint16_t pcf857x_latch(struct pcf857x *c);
bool pcf857x_int_asserted(struct pcf857x *c);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * A Kionix KXTJ9 accelerometer model (devices/kxtj9.c) on the simulated
 * i2c bus, its INT pin on a swirq input, from the datasheet's register map
 * (facts: addresses, bits, reset values, output format):
 *
 *   0x06..0x0B XOUT_L .. ZOUT_H  12-bit two's complement, left-justified
 *                                (bits 11..4 in _H, 3..0 in _L's high
 *                                nibble); in 8-bit mode the value is _H
 *   0x0C DCST_RESP 0x55          0x0F WHO_AM_I 0x08
 *   0x16 INT_SOURCE1: DRDY (bit 4)   0x18 STATUS_REG: INT (bit 4)
 *   0x1A INT_REL: reading it clears INT_SOURCE1/2, STATUS_REG.INT and a
 *        latched pin
 *   0x1B CTRL_REG1: PC1 (7, operating), RES (6, 12-bit), DRDYE (5,
 *        data-ready interrupt), GSEL1..0 (4..3: +-2g, 4g, 8g), WUFE (1)
 *   0x1D CTRL_REG2   0x1E INT_CTRL_REG1: IEN (5, pin on), IEA (4, active
 *        high), IEL (3: 1 a pulse per event, 0 latched until INT_REL)
 *   0x21 DATA_CTRL_REG: output data rate, 0 12.5 Hz .. 6 800 Hz (reset 2,
 *        50 Hz)
 *
 * The other control registers may only be written while PC1 is 0 (the
 * datasheet's rule): the model does not take such a write, and counts it.
 * Conversions are the test's: kxtj9_sample() is one at the output data
 * rate (kxtj9_odr_mhz() says how often the chip would), taking the
 * acceleration set with kxtj9_set_acceleration().  The pin is modelled as
 * a wire: the swirq input must be rising-edge (or high-level) sensitive,
 * and the level it is given is the wire's (high means asserted only with
 * IEA set).
 *
 * Private to devices/ and the tests (not installed).
 */
#ifndef UIRQ_DEVICES_KXTJ9_H
#define UIRQ_DEVICES_KXTJ9_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/i2c.h"
#include "uirq/sources.h"

#define KXTJ9_ADDR		0x0F
#define KXTJ9_XOUT_L		0x06
#define KXTJ9_DCST_RESP		0x0C
#define KXTJ9_WHO_AM_I		0x0F
#define KXTJ9_INT_SOURCE1	0x16
#define KXTJ9_INT_SOURCE2	0x17
#define KXTJ9_STATUS_REG	0x18
#define KXTJ9_INT_REL		0x1A
#define KXTJ9_CTRL_REG1		0x1B
#define KXTJ9_CTRL_REG2		0x1D
#define KXTJ9_INT_CTRL_REG1	0x1E
#define KXTJ9_INT_CTRL_REG2	0x1F
#define KXTJ9_DATA_CTRL_REG	0x21

#define KXTJ9_PC1		0x80
#define KXTJ9_RES		0x40
#define KXTJ9_DRDYE		0x20
#define KXTJ9_GSEL		0x18
#define KXTJ9_IEN		0x20
#define KXTJ9_IEA		0x10
#define KXTJ9_IEL		0x08
#define KXTJ9_DRDY		0x10	/* INT_SOURCE1 */
#define KXTJ9_INT		0x10	/* STATUS_REG */
#define KXTJ9_WHO_AM_I_VALUE	0x08

struct kxtj9;

/* A chip at addr on sim, INT on intc's input line: 0 and *out, -EINVAL, -ENOMEM, or the bus's -EBUSY. */
int kxtj9_create(struct uirq_i2c_sim *sim, uint16_t addr, struct uirq_swirq *intc, unsigned int line,
		 struct kxtj9 **out);
/* Off the bus (after a transfer in flight) and freed. */
void kxtj9_destroy(struct kxtj9 *k);
/* The acceleration the chip feels, in mg per axis; the next conversion takes it. */
void kxtj9_set_acceleration(struct kxtj9 *k, int x_mg, int y_mg, int z_mg);
/*
 * One conversion: in operation (PC1) the outputs take the acceleration in
 * the configured range and resolution and, with DRDYE, data ready is
 * signalled (INT_SOURCE1, STATUS_REG, the pin with IEN).  false in standby
 * (nothing converts).
 */
bool kxtj9_sample(struct kxtj9 *k);
/* The configured output data rate in mHz (12500 .. 800000), the pace of kxtj9_sample(). */
uint32_t kxtj9_odr_mhz(struct kxtj9 *k);
/* A register as the chip holds it, read without a side effect. */
uint8_t kxtj9_peek(struct kxtj9 *k, uint8_t reg);
/* Writes the datasheet forbids in operation (a control register other than CTRL_REG1 with PC1 set). */
unsigned long kxtj9_refused_writes(struct kxtj9 *k);
/* Conversions signalled as data ready, and INT_REL reads, so far. */
unsigned long kxtj9_data_ready_count(struct kxtj9 *k);
unsigned long kxtj9_int_rel_reads(struct kxtj9 *k);

#endif

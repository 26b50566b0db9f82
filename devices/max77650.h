/* SPDX-License-Identifier: MIT */
/*
 * The MAX77650/MAX77651 PMIC model (devices/max77650.c): one i2c slave
 * with the chip's register map as far as its drivers touch it, the nEN
 * on-key input and the nIRQ output.  Not installed: the board library's
 * and the tests' own.
 *
 * Facts (Maxim's MAX77650/MAX77651 datasheet and programmer's guide
 * UG6428, the register names of Linux's include/linux/mfd/max77650.h,
 * Maxim's register descriptions of the family, and firmware on the chip
 * that reads nEN_F as "pressed" and nEN_R as "released"):
 *
 *   0x00 INT_GLBL   clear on read.  bit 0 GPI_F, 1 GPI_R, 2 nEN_F (nEN fell:
 *                   the key was pressed), 3 nEN_R (nEN rose: released),
 *                   4 TJAL1_R, 5 TJAL2_R, 6 DOD_R.  A bit latches whether or
 *                   not it is masked.
 *   0x01 INT_CHG    clear on read.  bits 0..6: THM, CHG, CHGIN, TJ_REG,
 *                   CHGIN_CTRL, SYS_CTRL, SYS_CNFG.
 *   0x02, 0x03      STAT_CHG_A, STAT_CHG_B: read-only.
 *   0x04 ERCFLAG    clear on read.
 *   0x05 STAT_GLBL  read-only: bit 0 STAT_IRQ (the nIRQ driver is on),
 *                   bit 1 STAT_EN (debounced nEN is active, i.e. low).
 *   0x06 INTM_GLBL  masks of INT_GLBL's bits, 1 = masked.
 *   0x07 INTM_CHG   masks of INT_CHG's bits.
 *   0x10 CNFG_GLBL  bits 1:0 SFT_CTRL, 2 DBEN_nEN (debounce 100 us / 30 ms),
 *                   3 nEN_MODE (0 push-button, 1 slide switch), 4 SBIA_EN,
 *                   5 SBIA_LPM (low-power mode), 6 T_MRST, 7 PU_DIS.
 *   0x11 CID        read-only chip identification: bits 3:0 are 0x3
 *                   (MAX77650A), 0xa (MAX77650C), 0x6 (MAX77651A), 0x8
 *                   (MAX77651B).
 *   0x12 CNFG_GPIO, 0x18..0x20 CNFG_CHG_A..I, 0x28..0x2e CNFG_SBB*,
 *   0x38, 0x39 CNFG_LDO_A/B, 0x40..0x46 CNFG_LED*: read/write storage here.
 *
 * nIRQ is an open-drain, active-low output: asserted while any status bit
 * of INT_GLBL or INT_CHG is set and unmasked (so a write that unmasks a
 * latched bit asserts it, and the read that clears the last one releases
 * it).  nEN is an active-low, internally debounced input: the model takes
 * the debounced level (max77650_set_nen()); a press latches nEN_F, a
 * release nEN_R.
 *
 * Inferences, not documented facts: the interrupt masks reset to all
 * masked (0x7f); CNFG_GLBL and the other configuration registers reset to
 * 0 unless the board's configuration (the chip's OTP) says otherwise;
 * SFT_CTRL's commands (cold reset, power off) are stored and do nothing:
 * the model never powers itself off.  Unlisted registers read 0 and ignore
 * writes.
 */
#ifndef UIRQ_DEVICES_MAX77650_H
#define UIRQ_DEVICES_MAX77650_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/i2c.h"
#include "uirq/sources.h"

#define MAX77650_I2C_ADDR	0x48	/* the datasheet's (board strapping aside) */

#define MAX77650_INT_GLBL	0x00
#define MAX77650_INT_CHG	0x01
#define MAX77650_STAT_GLBL	0x05
#define MAX77650_INTM_GLBL	0x06
#define MAX77650_INTM_CHG	0x07
#define MAX77650_CNFG_GLBL	0x10
#define MAX77650_CID		0x11

#define MAX77650_INT_nEN_F	0x04	/* INT_GLBL bits */
#define MAX77650_INT_nEN_R	0x08
#define MAX77650_STAT_IRQ	0x01	/* STAT_GLBL bits */
#define MAX77650_STAT_EN	0x02
#define MAX77650_nEN_MODE	0x08	/* CNFG_GLBL bits */
#define MAX77650_SBIA_LPM	0x20

/* What the chip's OTP sets at reset; zeroed: a MAX77650A, push-button mode, nothing pending. */
struct max77650_config {
	uint8_t cid;		/* 0: 0x03, MAX77650A */
	uint8_t cnfg_glbl;	/* CNFG_GLBL's reset value */
	uint8_t int_glbl;	/* INT_GLBL's bits latched at power-up (the press that powered it on: nEN_F) */
};

struct max77650;

/*
 * The chip at its reset values, its slave at addr on sim, its nIRQ driving
 * input hwirq of intc (asserted = the pin is low; configure the input
 * LEVEL_LOW).  cfg NULL: the zeroed configuration.  0, or -EINVAL, -ENOMEM,
 * the adapter's -EBUSY (an address taken).
 */
int max77650_create(struct uirq_i2c_sim *sim, uint16_t addr, struct uirq_swirq *intc, unsigned int hwirq,
		    const struct max77650_config *cfg, struct max77650 **out);
/* Detach the slave (after a transfer in flight) and free the model; nIRQ is left as it was. */
void max77650_destroy(struct max77650 *m);
/* The debounced nEN input: pressed drives it low (nEN_F), released lets it rise (nEN_R). */
void max77650_set_nen(struct max77650 *m, bool pressed);
/* Whether nIRQ is asserted (low) now. */
bool max77650_nirq_asserted(struct max77650 *m);
/* A register's value without bus traffic or side effects (a status read does not clear it). */
uint8_t max77650_peek(struct max77650 *m, uint8_t reg);
/*
 * How many nEN edges (nEN_F and nEN_R bits) bus reads of INT_GLBL have
 * returned so far - each read clears them - and into *masked (if not
 * NULL) how many of those were masked in INTM_GLBL at the read.
 */
unsigned long max77650_nen_events_read(struct max77650 *m, unsigned long *masked);

#endif

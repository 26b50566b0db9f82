/* SPDX-License-Identifier: MIT */
/*
 * Private to devices/: the TWL4030 model's state, shared by the register
 * map (twl4030-regs.c), the PWR_INT SIH and the derived PIH
 * (twl4030-sih.c), and the i2c slaves, INT1 and PWRON (twl4030.c).
 *
 * One lock covers the whole chip.  It is a plain pthread mutex, not a
 * lockdep-annotated kernel lock: it stands for the silicon, which has no
 * locking discipline of its own, and the model is entered from every
 * context a driver can be in (a sleeping i2c transfer, the seed patch's
 * faked hard-irq section, the scenario thread).  Tracking it would make
 * lockdep report the hardware instead of the driver.
 */
#ifndef UIRQ_DEVICES_TWL4030_MODEL_H
#define UIRQ_DEVICES_TWL4030_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "model-pin.h"
#include "uirq/twl4030.h"

#define TWL4030_NR_SLAVES	4	/* 0x48 .. 0x4b */
#define TWL4030_SIH_LINES	2	/* INT1 and INT2 */

struct twl4030;

/* What the i2c adapter hands a slave's callbacks. */
struct twl4030_slave {
	struct twl4030 *chip;
	uint16_t addr;
};

struct twl4030 {
	pthread_mutex_t lock;
	struct uirq_i2c_sim *sim;
	struct twl4030_slave slave[TWL4030_NR_SLAVES];
	bool attached[TWL4030_NR_SLAVES];

	/* Every slave is a flat 256-byte map; derived registers are computed on read. */
	uint8_t regs[TWL4030_NR_SLAVES][256];

	/* PWR_INT SIH: the one more event per line buffered while PENDDIS=0. */
	uint8_t pwr_buffered[TWL4030_SIH_LINES];
	/* The internal PWRON signal: true while the button is pressed. */
	bool pwron;
	unsigned long pwron_changes;	/* how often it changed since reset */
	unsigned long sts_seen;		/* pwron_changes as the last bus read of STS_HW_CONDITIONS found it */

	/* INT1 (asserted = low): int1.level is what the chip drives, handed to the board in order. */
	struct model_pin int1;
};

/* Index of a slave address in regs[], or -1. */
static inline int twl4030_slave_index(uint16_t addr)
{
	return addr >= TWL4030_ADDR_USB && addr <= TWL4030_ADDR_POWER ? addr - TWL4030_ADDR_USB : -1;
}

/* ---- twl4030-regs.c ---- */
/* Load every register's reset value. */
void twl4030_regs_reset(struct twl4030 *t);

/* ---- twl4030-sih.c (chip lock held) ---- */
/* An interrupt event on PWR_INT bits: latch into both lines' ISRs (or buffer it). */
void twl4030_pwr_event(struct twl4030 *t, uint8_t bits);
/* A register read on 0x4b inside PWR_INT; clear-on-read when SIH_CTRL.COR is set. */
uint8_t twl4030_pwr_read(struct twl4030 *t, uint8_t reg, bool side_effects);
/* A register write on 0x4b inside PWR_INT. */
void twl4030_pwr_write(struct twl4030 *t, uint8_t reg, uint8_t val);
/* PIH_ISR_P1 (line 0) or PIH_ISR_P2 (line 1), derived from the modules. */
uint8_t twl4030_pih_isr(struct twl4030 *t, int line);
/* Whether reg on slave 0x4b belongs to the PWR_INT SIH. */
static inline bool twl4030_is_pwr_reg(uint8_t reg)
{
	return reg >= TWL4030_PWR_ISR1 && reg <= TWL4030_PWR_SIH_CTRL;
}

#endif

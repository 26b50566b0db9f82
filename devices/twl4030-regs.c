// SPDX-License-Identifier: MIT
/*
 * The TWL4030 register map: which registers the model knows by name, and
 * their reset values.  Every other register of the four 256-byte slaves
 * resets to 0 and keeps what is written to it, so drivers that touch
 * modules the model does not emulate still see a register file.
 *
 * Reset values are QEMU's (its TWL4030 model; not verified against the TRM):
 * a PWRON event is pending at boot,
 * the PWR_INT masks are open, both edges are enabled everywhere and the SIH
 * is in write-1-to-clear mode with EXCLEN set.
 */
#include <stddef.h>
#include <string.h>

#include "twl4030-model.h"

struct twl4030_reg {
	uint16_t addr;
	uint8_t reg;
	uint8_t reset;
	const char *name;
};

static const struct twl4030_reg twl4030_regs[] = {
	/* PIH, 0x49 base 0x80: the ISRs are derived, never stored. */
	{ TWL4030_ADDR_AUDIO, TWL4030_PIH_ISR_P1, 0x00, "PIH_ISR_P1" },
	{ TWL4030_ADDR_AUDIO, TWL4030_PIH_ISR_P2, 0x00, "PIH_ISR_P2" },
	{ TWL4030_ADDR_AUDIO, 0x83, 0x00, "PIH_SIR" },
	/* PWR_INT SIH, 0x4b base 0x2e. */
	{ TWL4030_ADDR_POWER, TWL4030_PWR_ISR1, 0x01, "PWR_ISR1" },	/* PWRON pending at boot */
	{ TWL4030_ADDR_POWER, TWL4030_PWR_IMR1, 0x00, "PWR_IMR1" },
	{ TWL4030_ADDR_POWER, TWL4030_PWR_ISR2, 0x00, "PWR_ISR2" },	/* the doc gives ISR1 only */
	{ TWL4030_ADDR_POWER, TWL4030_PWR_IMR2, 0x00, "PWR_IMR2" },
	{ TWL4030_ADDR_POWER, TWL4030_PWR_SIR, 0x00, "PWR_SIR" },
	{ TWL4030_ADDR_POWER, TWL4030_PWR_EDR1, 0xff, "PWR_EDR1" },
	{ TWL4030_ADDR_POWER, TWL4030_PWR_EDR2, 0xff, "PWR_EDR2" },
	{ TWL4030_ADDR_POWER, TWL4030_PWR_SIH_CTRL, TWL4030_SIH_CTRL_EXCLEN, "PWR_SIH_CTRL" },
	/* PM_MASTER, 0x4b base 0x36: bit 0 is the live button level. */
	{ TWL4030_ADDR_POWER, TWL4030_STS_HW_CONDITIONS, 0x00, "STS_HW_CONDITIONS" },
};

void twl4030_regs_reset(struct twl4030 *t)
{
	memset(t->regs, 0, sizeof(t->regs));
	memset(t->pwr_buffered, 0, sizeof(t->pwr_buffered));
	for (size_t i = 0; i < sizeof(twl4030_regs) / sizeof(twl4030_regs[0]); i++) {
		const struct twl4030_reg *r = &twl4030_regs[i];

		t->regs[twl4030_slave_index(r->addr)][r->reg] = r->reset;
	}
}

const char *twl4030_reg_name(uint16_t addr, uint8_t reg)
{
	for (size_t i = 0; i < sizeof(twl4030_regs) / sizeof(twl4030_regs[0]); i++)
		if (twl4030_regs[i].addr == addr && twl4030_regs[i].reg == reg)
			return twl4030_regs[i].name;
	return NULL;
}

// SPDX-License-Identifier: MIT
/*
 * The PWR_INT secondary interrupt handler (SIH) and the primary one (PIH)
 * derived from it.  All functions run with the chip lock held.
 *
 * SIH, per line L (1 = INT1, 2 = INT2): an event on bit b sets ISR_L bit b
 * whatever IMR_L says (the mask only gates the output: *inference*, it is
 * why Linux clears ISR after masking at init); if the bit is already set
 * and SIH_CTRL.PENDDIS is 0, one more event is buffered and shows up when
 * the bit is cleared, otherwise it merges.  With SIH_CTRL.COR a read of
 * ISR_L returns it and clears it, and ISR writes are ignored; without COR,
 * writing 1s clears those bits.  EXCLEN is stored but not modelled.
 *
 * PIH: PIH_ISR_P1 bit n is set while module n has ISR1 & ~IMR1 non-zero
 * (P2 likewise for line 2).  Only PWR_INT (bit 5) is modelled as a source;
 * the other modules read as quiet.
 */
#include "twl4030-model.h"

static uint8_t *pwr_reg(struct twl4030 *t, uint8_t reg)
{
	return &t->regs[twl4030_slave_index(TWL4030_ADDR_POWER)][reg];
}

/* ISR and IMR register of line 0 (INT1) or 1 (INT2). */
static uint8_t isr_of(int line)
{
	return line ? TWL4030_PWR_ISR2 : TWL4030_PWR_ISR1;
}

static uint8_t imr_of(int line)
{
	return line ? TWL4030_PWR_IMR2 : TWL4030_PWR_IMR1;
}

static bool penddis(struct twl4030 *t)
{
	return *pwr_reg(t, TWL4030_PWR_SIH_CTRL) & TWL4030_SIH_CTRL_PENDDIS;
}

static bool cor(struct twl4030 *t)
{
	return *pwr_reg(t, TWL4030_PWR_SIH_CTRL) & TWL4030_SIH_CTRL_COR;
}

void twl4030_pwr_event(struct twl4030 *t, uint8_t bits)
{
	for (int line = 0; line < TWL4030_SIH_LINES; line++) {
		uint8_t *isr = pwr_reg(t, isr_of(line));
		uint8_t again = *isr & bits;

		*isr |= bits;
		if (!penddis(t))
			t->pwr_buffered[line] |= again;
	}
}

/* Clear ISR bits of a line; a buffered event on a cleared bit takes its place. */
static void pwr_clear(struct twl4030 *t, int line, uint8_t bits)
{
	uint8_t *isr = pwr_reg(t, isr_of(line));
	uint8_t reload = t->pwr_buffered[line] & bits & *isr;

	*isr &= (uint8_t)~bits;
	*isr |= reload;
	t->pwr_buffered[line] &= (uint8_t)~reload;
}

uint8_t twl4030_pwr_read(struct twl4030 *t, uint8_t reg, bool side_effects)
{
	uint8_t val = *pwr_reg(t, reg);

	if (reg == TWL4030_PWR_ISR1 || reg == TWL4030_PWR_ISR2) {
		if (side_effects && cor(t))
			pwr_clear(t, reg == TWL4030_PWR_ISR2, val);
	}
	return val;
}

void twl4030_pwr_write(struct twl4030 *t, uint8_t reg, uint8_t val)
{
	switch (reg) {
	case TWL4030_PWR_ISR1:
	case TWL4030_PWR_ISR2:
		/* COR: the read acknowledged it; a write means nothing. */
		if (!cor(t))
			pwr_clear(t, reg == TWL4030_PWR_ISR2, val);
		break;
	case TWL4030_PWR_SIR:
		/* *inference*: a test write raises the events, bypassing EDR; it reads back 0. */
		twl4030_pwr_event(t, val);
		break;
	default:
		/* IMRs, EDRs and SIH_CTRL are plain storage; INT1 is re-evaluated by the caller. */
		*pwr_reg(t, reg) = val;
		break;
	}
}

uint8_t twl4030_pih_isr(struct twl4030 *t, int line)
{
	uint8_t pending = *pwr_reg(t, isr_of(line)) & (uint8_t)~*pwr_reg(t, imr_of(line));

	return pending ? (uint8_t)(1u << TWL4030_PIH_PWR_INT) : 0;
}

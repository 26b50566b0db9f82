// SPDX-License-Identifier: MIT
/*
 * The MAX77650 model (facts and inferences: max77650.h): one register
 * file behind one i2c slave, the clear-on-read interrupt registers, the
 * masks, the nEN input and the nIRQ output.
 *
 * Like the TWL4030 model, the chip has one plain pthread lock: it stands
 * for the silicon, which lockdep has nothing to say about, and it is
 * taken from every context a driver can be in.  nIRQ changes reach the
 * controller's input outside it, in order (model-pin.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "max77650.h"
#include "model-pin.h"

#define INT_BITS	0x7f	/* INT_GLBL, INT_CHG and their masks: bit 7 is reserved */

struct max77650 {
	pthread_mutex_t lock;
	struct uirq_i2c_sim *sim;
	uint16_t addr;
	bool attached;
	struct uirq_swirq *intc;
	unsigned int hwirq;

	uint8_t regs[256];
	bool pressed;		/* the debounced nEN is low */
	unsigned long nen_read;	/* nEN bits bus reads of INT_GLBL returned */
	unsigned long nen_read_masked;	/* ... of them while masked in INTM_GLBL */

	struct model_pin nirq;	/* asserted: driven low */
};

/* The registers that are plain storage: everything a driver configures. */
static bool is_storage(uint8_t reg)
{
	return reg == MAX77650_INTM_GLBL || reg == MAX77650_INTM_CHG || reg == MAX77650_CNFG_GLBL ||
	       reg == 0x12 || (reg >= 0x18 && reg <= 0x20) || (reg >= 0x28 && reg <= 0x2e) ||
	       reg == 0x38 || reg == 0x39 || (reg >= 0x40 && reg <= 0x46);
}

/* nIRQ from the latches and masks (lock held). */
static void nirq_update(struct max77650 *m)
{
	uint8_t glbl = m->regs[MAX77650_INT_GLBL] & (uint8_t)~m->regs[MAX77650_INTM_GLBL];
	uint8_t chg = m->regs[MAX77650_INT_CHG] & (uint8_t)~m->regs[MAX77650_INTM_CHG];

	m->nirq.level = ((glbl | chg) & INT_BITS) != 0;
}

/* A register as the bus reads it; with side_effects the clear-on-read ones clear (lock held). */
static uint8_t read_reg(struct max77650 *m, uint8_t reg, bool side_effects)
{
	uint8_t v = m->regs[reg];

	switch (reg) {
	case MAX77650_INT_GLBL:
	case MAX77650_INT_CHG:
	case 0x04:	/* ERCFLAG */
		if (side_effects && reg == MAX77650_INT_GLBL) {
			uint8_t masked = v & m->regs[MAX77650_INTM_GLBL];

			m->nen_read += (unsigned long)!!(v & MAX77650_INT_nEN_F) + !!(v & MAX77650_INT_nEN_R);
			m->nen_read_masked += (unsigned long)!!(masked & MAX77650_INT_nEN_F) +
					      !!(masked & MAX77650_INT_nEN_R);
		}
		if (side_effects)
			m->regs[reg] = 0;
		return v;
	case MAX77650_STAT_GLBL:
		return (uint8_t)((v & ~(MAX77650_STAT_IRQ | MAX77650_STAT_EN)) | (m->nirq.level ? MAX77650_STAT_IRQ : 0) |
				 (m->pressed ? MAX77650_STAT_EN : 0));
	default:
		return v;
	}
}

static int slave_read(void *priv, uint8_t reg, uint8_t *val)
{
	struct max77650 *m = priv;

	pthread_mutex_lock(&m->lock);
	*val = read_reg(m, reg, true);
	nirq_update(m);
	pthread_mutex_unlock(&m->lock);
	model_pin_deliver(&m->nirq);
	return 0;
}

static int slave_write(void *priv, uint8_t reg, uint8_t val)
{
	struct max77650 *m = priv;

	pthread_mutex_lock(&m->lock);
	if (is_storage(reg))
		m->regs[reg] = reg == MAX77650_INTM_GLBL || reg == MAX77650_INTM_CHG ? val & INT_BITS : val;
	nirq_update(m);
	pthread_mutex_unlock(&m->lock);
	model_pin_deliver(&m->nirq);
	return 0;
}

static const struct uirq_i2c_sim_device_ops max77650_ops = {
	.read = slave_read,
	.write = slave_write,
};

int max77650_create(struct uirq_i2c_sim *sim, uint16_t addr, struct uirq_swirq *intc, unsigned int hwirq,
		    const struct max77650_config *cfg, struct max77650 **out)
{
	static const struct max77650_config zeroed;
	struct max77650 *m;
	int ret;

	if (!sim || !intc || !out || hwirq >= uirq_swirq_nr_inputs(intc))
		return -EINVAL;
	if (!cfg)
		cfg = &zeroed;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	pthread_mutex_init(&m->lock, NULL);
	m->sim = sim;
	m->addr = addr;
	m->intc = intc;
	m->hwirq = hwirq;
	m->regs[MAX77650_CID] = cfg->cid ? cfg->cid : 0x03;
	m->regs[MAX77650_CNFG_GLBL] = cfg->cnfg_glbl;
	m->regs[MAX77650_INT_GLBL] = cfg->int_glbl & INT_BITS;
	m->regs[MAX77650_INTM_GLBL] = INT_BITS;
	m->regs[MAX77650_INTM_CHG] = INT_BITS;
	model_pin_init(&m->nirq, &m->lock, false);
	nirq_update(m);
	ret = uirq_i2c_sim_attach(sim, addr, &max77650_ops, m);
	if (ret) {
		pthread_mutex_destroy(&m->lock);
		free(m);
		return ret;
	}
	m->attached = true;
	/* The controller hears the pin as it is out of reset (levels are logical there: asserted is low). */
	model_pin_connect_swirq(&m->nirq, m->intc, m->hwirq);
	*out = m;
	return 0;
}

void max77650_destroy(struct max77650 *m)
{
	if (!m)
		return;
	/* Detaching waits for a transfer in flight; after it no callback can start. */
	if (m->attached)
		uirq_i2c_sim_detach(m->sim, m->addr);
	model_pin_disconnect(&m->nirq);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void max77650_set_nen(struct max77650 *m, bool pressed)
{
	pthread_mutex_lock(&m->lock);
	if (m->pressed != pressed) {
		/* nEN is active low: a press is its falling edge, a release its rising one. */
		m->pressed = pressed;
		m->regs[MAX77650_INT_GLBL] |= pressed ? MAX77650_INT_nEN_F : MAX77650_INT_nEN_R;
		nirq_update(m);
	}
	pthread_mutex_unlock(&m->lock);
	model_pin_deliver(&m->nirq);
}

bool max77650_nirq_asserted(struct max77650 *m)
{
	bool v;

	pthread_mutex_lock(&m->lock);
	v = m->nirq.level;
	pthread_mutex_unlock(&m->lock);
	return v;
}

uint8_t max77650_peek(struct max77650 *m, uint8_t reg)
{
	uint8_t v;

	pthread_mutex_lock(&m->lock);
	v = read_reg(m, reg, false);
	pthread_mutex_unlock(&m->lock);
	return v;
}

unsigned long max77650_nen_events_read(struct max77650 *m, unsigned long *masked)
{
	unsigned long n;

	pthread_mutex_lock(&m->lock);
	n = m->nen_read;
	if (masked)
		*masked = m->nen_read_masked;
	pthread_mutex_unlock(&m->lock);
	return n;
}

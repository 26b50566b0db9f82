// SPDX-License-Identifier: MIT
/*
 * The TWL4030 model: its four i2c slaves, the INT1 output and the PWRON
 * input.  The register semantics live in twl4030-sih.c (PWR_INT, PIH) and
 * the reset values in twl4030-regs.c.
 *
 * The slave callbacks run in the thread of whoever drives the bus (an irq
 * handler thread, or the seed patch's handler in faked hard-irq context)
 * with the adapter's bus lock held; twl4030_set_pwron() runs in whatever
 * thread plays the user.  INT1 changes are handed to the board's callback
 * outside the chip lock, in the order they happened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "twl4030-model.h"

static uint8_t read_reg(struct twl4030 *t, uint16_t addr, uint8_t reg, bool side_effects)
{
	int idx = twl4030_slave_index(addr);

	if (idx < 0)
		return 0;
	if (addr == TWL4030_ADDR_AUDIO && (reg == TWL4030_PIH_ISR_P1 || reg == TWL4030_PIH_ISR_P2))
		return twl4030_pih_isr(t, reg == TWL4030_PIH_ISR_P2);
	if (addr == TWL4030_ADDR_POWER && twl4030_is_pwr_reg(reg))
		return twl4030_pwr_read(t, reg, side_effects);
	if (addr == TWL4030_ADDR_POWER && reg == TWL4030_STS_HW_CONDITIONS) {
		if (side_effects)
			t->sts_seen = t->pwron_changes;
		return (uint8_t)((t->regs[idx][reg] & ~TWL4030_STS_PWON) | (t->pwron ? TWL4030_STS_PWON : 0));
	}
	return t->regs[idx][reg];
}

static void write_reg(struct twl4030 *t, uint16_t addr, uint8_t reg, uint8_t val)
{
	int idx = twl4030_slave_index(addr);

	if (addr == TWL4030_ADDR_AUDIO && (reg == TWL4030_PIH_ISR_P1 || reg == TWL4030_PIH_ISR_P2))
		return;		/* derived, read-only */
	if (addr == TWL4030_ADDR_POWER && twl4030_is_pwr_reg(reg)) {
		twl4030_pwr_write(t, reg, val);
		return;
	}
	if (addr == TWL4030_ADDR_POWER && reg == TWL4030_STS_HW_CONDITIONS)
		return;		/* a status register */
	t->regs[idx][reg] = val;
}

/* Recompute INT1 (chip lock held): asserted while any module is pending on line 1. */
static void int1_update(struct twl4030 *t)
{
	t->int1.level = twl4030_pih_isr(t, 0) != 0;
}

static int slave_read(void *priv, uint8_t reg, uint8_t *val)
{
	struct twl4030_slave *s = priv;
	struct twl4030 *t = s->chip;

	pthread_mutex_lock(&t->lock);
	*val = read_reg(t, s->addr, reg, true);
	int1_update(t);
	pthread_mutex_unlock(&t->lock);
	model_pin_deliver(&t->int1);
	return 0;
}

static int slave_write(void *priv, uint8_t reg, uint8_t val)
{
	struct twl4030_slave *s = priv;
	struct twl4030 *t = s->chip;

	pthread_mutex_lock(&t->lock);
	write_reg(t, s->addr, reg, val);
	int1_update(t);
	pthread_mutex_unlock(&t->lock);
	model_pin_deliver(&t->int1);
	return 0;
}

static const struct uirq_i2c_sim_device_ops twl4030_slave_ops = {
	.read = slave_read,
	.write = slave_write,
};

static void detach_all(struct twl4030 *t)
{
	for (int i = 0; i < TWL4030_NR_SLAVES; i++) {
		if (t->attached[i])
			uirq_i2c_sim_detach(t->sim, t->slave[i].addr);
		t->attached[i] = false;
	}
}

int twl4030_create(struct uirq_i2c_sim *sim, struct twl4030 **out)
{
	struct twl4030 *t;
	int ret;

	if (!sim || !out)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	t->sim = sim;
	twl4030_regs_reset(t);
	model_pin_init(&t->int1, &t->lock, false);
	int1_update(t);
	for (int i = 0; i < TWL4030_NR_SLAVES; i++) {
		t->slave[i] = (struct twl4030_slave){ .chip = t, .addr = (uint16_t)(TWL4030_ADDR_USB + i) };
		ret = uirq_i2c_sim_attach(sim, t->slave[i].addr, &twl4030_slave_ops, &t->slave[i]);
		if (ret) {
			detach_all(t);
			pthread_mutex_destroy(&t->lock);
			free(t);
			return ret;
		}
		t->attached[i] = true;
	}
	*out = t;
	return 0;
}

void twl4030_destroy(struct twl4030 *t)
{
	if (!t)
		return;
	/* Detaching waits for a transfer in flight; after it no callback can start. */
	detach_all(t);
	model_pin_disconnect(&t->int1);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

void twl4030_connect_int1(struct twl4030 *t, twl4030_int_fn fn, void *arg)
{
	model_pin_connect(&t->int1, fn, arg);
}

void twl4030_set_pwron(struct twl4030 *t, bool pressed)
{
	pthread_mutex_lock(&t->lock);
	if (t->pwron != pressed) {
		uint8_t edr1 = t->regs[twl4030_slave_index(TWL4030_ADDR_POWER)][TWL4030_PWR_EDR1];

		/* Press is the rising edge of the internal signal (the pin is active low). */
		t->pwron = pressed;
		t->pwron_changes++;
		if (edr1 & (pressed ? 0x02 : 0x01))
			twl4030_pwr_event(t, 0x01);
		int1_update(t);
	}
	pthread_mutex_unlock(&t->lock);
	model_pin_deliver(&t->int1);
}

bool twl4030_get_pwron(struct twl4030 *t)
{
	bool v;

	pthread_mutex_lock(&t->lock);
	v = t->pwron;
	pthread_mutex_unlock(&t->lock);
	return v;
}

unsigned long twl4030_pwron_seen(struct twl4030 *t)
{
	unsigned long n;

	pthread_mutex_lock(&t->lock);
	n = t->sts_seen;
	pthread_mutex_unlock(&t->lock);
	return n;
}

bool twl4030_int1_asserted(struct twl4030 *t)
{
	bool v;

	pthread_mutex_lock(&t->lock);
	v = t->int1.level;
	pthread_mutex_unlock(&t->lock);
	return v;
}

uint8_t twl4030_peek(struct twl4030 *t, uint16_t addr, uint8_t reg)
{
	uint8_t v;

	pthread_mutex_lock(&t->lock);
	v = read_reg(t, addr, reg, false);
	pthread_mutex_unlock(&t->lock);
	return v;
}

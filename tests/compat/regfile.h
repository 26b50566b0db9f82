/* SPDX-License-Identifier: MIT */
/*
 * A register file on the simulated i2c bus, for the regmap tests: 256
 * byte registers at one address, some clear-on-read, some
 * write-1-to-clear, some read-only, one counting its reads; and the bus
 * traffic as text ("R10=5a" a register write then a read, "W10=5a,5b" a
 * write), so a test says exactly what went over the wire.
 */
#ifndef UIRQ_TESTS_COMPAT_REGFILE_H
#define UIRQ_TESTS_COMPAT_REGFILE_H

#include <stdio.h>
#include <string.h>

#include <linux/i2c.h>

#include "harness.h"
#include "uirq/i2c.h"

#define RF_ADDR		0x3c
#define RF_COUNTER	0xf0	/* reads 1, 2, 3, ... */

struct regfile {
	uint8_t regs[256];
	bool cor[256];		/* cleared by a read */
	bool w1c[256];		/* a written 1 clears that bit */
	bool ro[256];		/* writes ignored */
	uint8_t counter;
	void (*changed)(void);	/* after every bus access (a test's interrupt output) */
};

static struct regfile rf;
static char traffic[4096];
static size_t traffic_len;
static int transfers;

static int rf_read(void *priv, uint8_t reg, uint8_t *val)
{
	(void)priv;
	*val = reg == RF_COUNTER ? ++rf.counter : rf.regs[reg];
	if (rf.cor[reg])
		rf.regs[reg] = 0;
	if (rf.changed)
		rf.changed();
	return 0;
}

static int rf_write(void *priv, uint8_t reg, uint8_t val)
{
	(void)priv;
	if (rf.w1c[reg])
		rf.regs[reg] &= (uint8_t)~val;
	else if (!rf.ro[reg])
		rf.regs[reg] = val;
	if (rf.changed)
		rf.changed();
	return 0;
}

static const struct uirq_i2c_sim_device_ops rf_ops = { .read = rf_read, .write = rf_write };

static void rf_trace(const struct uirq_i2c_trace *t, void *arg)
{
	const struct uirq_i2c_msg *m = t->msgs;
	char s[160];
	int n;

	(void)arg;
	transfers++;
	if (t->ret < 0 || t->num < 1)
		return;
	n = snprintf(s, sizeof(s), "%c", t->num == 2 ? 'R' : 'W');
	for (int i = 0; i < m[0].len && n < 140; i++)
		n += snprintf(s + n, sizeof(s) - (size_t)n, "%s%02x", i == 1 ? "=" : i > 1 ? "," : "", m[0].buf[i]);
	for (int i = 0; t->num == 2 && i < m[1].len && n < 140; i++)
		n += snprintf(s + n, sizeof(s) - (size_t)n, "%s%02x", i ? "," : "=", m[1].buf[i]);
	if (traffic_len + (size_t)n + 2 < sizeof(traffic)) {
		memcpy(traffic + traffic_len, s, (size_t)n);
		traffic_len += (size_t)n;
		traffic[traffic_len++] = ' ';
		traffic[traffic_len] = '\0';
	}
}

/* What went over the wire since the last call, and forget it. */
static const char *wire(void)
{
	static char out[sizeof(traffic)];

	memcpy(out, traffic, traffic_len + 1);
	traffic_len = 0;
	traffic[0] = '\0';
	transfers = 0;
	return out;
}

static struct uirq_i2c_sim *rf_sim;

/* The bus, the register file at RF_ADDR, and a client for it (no driver binds it). */
static struct i2c_client *rf_setup(void)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("regfile", RF_ADDR) };
	struct i2c_client *c;

	memset(&rf, 0, sizeof(rf));
	assert_eq(uirq_i2c_sim_new("regfile-bus", 400000, &rf_sim), 0);
	assert_eq(uirq_i2c_sim_attach(rf_sim, RF_ADDR, &rf_ops, NULL), 0);
	uirq_i2c_set_trace(uirq_i2c_sim_adapter(rf_sim), rf_trace, NULL);
	c = i2c_new_client_device(uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(rf_sim)), &info);
	assert_false(IS_ERR(c), "%ld", PTR_ERR(c));
	wire();
	return c;
}

static void rf_teardown(struct i2c_client *c)
{
	struct i2c_adapter *adap = c->adapter;

	i2c_unregister_device(c);
	assert_eq(uirq_compat_i2c_adapter_del(adap), 0);
	uirq_i2c_set_trace(uirq_i2c_sim_adapter(rf_sim), NULL, NULL);
	assert_eq(uirq_i2c_sim_free(rf_sim), 0);
}

#endif

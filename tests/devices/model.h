/* SPDX-License-Identifier: MIT */
/*
 * What the model tests share: a simulated bus with the TWL4030 on it, an
 * SMBus client per slave to talk to it as a driver would, and a record of
 * INT1 as the host would see it.  No CPUs are needed: the model is plain
 * hardware and the bus runs in the calling thread.
 */
#ifndef UIRQ_TESTS_DEVICES_MODEL_H
#define UIRQ_TESTS_DEVICES_MODEL_H

#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "uirq/i2c.h"
#include "uirq/lockdep.h"
#include "uirq/twl4030.h"

#define INT1_LOG_MAX 4096

struct model {
	struct uirq_i2c_sim *sim;
	struct twl4030 *twl;
	struct uirq_i2c_client *c49, *c4b;
	pthread_mutex_t log_lock;
	int int1_n;
	bool int1_log[INT1_LOG_MAX];
};

static struct model m;
static atomic_int model_reports;

static void model_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	atomic_fetch_add(&model_reports, 1);
	fprintf(stderr, "lockdep report: %s\n%s\n", r->headline, r->text);
}

static void record_int1(bool asserted, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m.log_lock);
	if (m.int1_n < INT1_LOG_MAX)
		m.int1_log[m.int1_n] = asserted;
	m.int1_n++;
	pthread_mutex_unlock(&m.log_lock);
}

static inline int int1_count(void)
{
	pthread_mutex_lock(&m.log_lock);
	int n = m.int1_n;
	pthread_mutex_unlock(&m.log_lock);
	return n;
}

/* The last level INT1 was reported at. */
static inline bool int1_last(void)
{
	pthread_mutex_lock(&m.log_lock);
	bool v = m.int1_n ? m.int1_log[(m.int1_n - 1) % INT1_LOG_MAX] : false;
	pthread_mutex_unlock(&m.log_lock);
	return v;
}

static inline void model_setup(void)
{
	pthread_mutex_init(&m.log_lock, NULL);
	uirq_lockdep_set_report_handler(model_report, NULL);
	/* 3.4 MHz keeps the many transfers of these tests short. */
	assert_eq(uirq_i2c_sim_new("twl-test", UIRQ_I2C_SPEED_HS, &m.sim), 0);
	assert_eq(twl4030_create(m.sim, &m.twl), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(m.sim), "twl-pih", TWL4030_ADDR_AUDIO, &m.c49), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(m.sim), "twl-pwr", TWL4030_ADDR_POWER, &m.c4b), 0);
	assert_not_null(m.c49);
	assert_not_null(m.c4b);
	twl4030_connect_int1(m.twl, record_int1, NULL);
}

static inline void model_teardown(void)
{
	uirq_i2c_unregister_device(m.c49);
	uirq_i2c_unregister_device(m.c4b);
	twl4030_destroy(m.twl);
	assert_eq(uirq_i2c_sim_free(m.sim), 0);
	assert_eq(atomic_load(&model_reports), 0, "lockdep reported");
}

/* Register access over the bus, as a driver does it. */
static inline int rd(struct uirq_i2c_client *c, uint8_t reg)
{
	int v = uirq_i2c_smbus_read_byte_data(c, reg);

	assert_ge(v, 0, "read 0x%02x:0x%02x failed: %d", c->addr, reg, v);
	return v;
}

static inline void wr(struct uirq_i2c_client *c, uint8_t reg, uint8_t val)
{
	int r = uirq_i2c_smbus_write_byte_data(c, reg, val);

	assert_eq(r, 0, "write 0x%02x:0x%02x failed: %d", c->addr, reg, r);
}

#define PWR(reg)	twl4030_peek(m.twl, TWL4030_ADDR_POWER, (reg))
#define PIH_P1()	twl4030_peek(m.twl, TWL4030_ADDR_AUDIO, TWL4030_PIH_ISR_P1)
#define PIH_P2()	twl4030_peek(m.twl, TWL4030_ADDR_AUDIO, TWL4030_PIH_ISR_P2)

/* Linux's init: mask both lines, clear-on-read, flush what is pending. */
static inline void linux_init(void)
{
	wr(m.c4b, TWL4030_PWR_IMR1, 0xff);
	wr(m.c4b, TWL4030_PWR_IMR2, 0xff);
	wr(m.c4b, TWL4030_PWR_SIH_CTRL, TWL4030_SIH_CTRL_COR);
	rd(m.c4b, TWL4030_PWR_ISR1);
	rd(m.c4b, TWL4030_PWR_ISR1);
	rd(m.c4b, TWL4030_PWR_ISR2);
	rd(m.c4b, TWL4030_PWR_ISR2);
}

#endif

// SPDX-License-Identifier: MIT
/*
 * uio-pwrbutton on the host: an eventfd line stands in for the UIO line,
 * an array for the mapped register window and a simulated i2c slave for
 * the status chip.  Each interrupt must be acknowledged with the status it
 * found, reported once with the chip's level, refused when the status is
 * 0, and survive a transient i2c error with the driver's message; lockdep
 * must stay silent throughout.  (The real kernel's run is vm-90-pwrbutton.)
 */
#include "harness.h"

#include <errno.h>
#include <linux/input-event-codes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "uirq/i2c.h"
#include "uirq/input.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/printk.h"
#include "uirq/sources.h"
#include "uirq/uio-pwrbutton.h"

#define ADDR 0x4b
#define REG 0x45
#define STATUS_OFF 0x24
#define ACK_OFF 0x64

static struct {
	struct uirq_i2c_sim *sim;
	struct uirq_fd_line *line;
	struct uirq_input_dev *input;
	struct uirq_input_client *client;
	struct uio_pwrbutton *pb;
	uint32_t regs[64];
	_Atomic uint8_t chip_status;
	pthread_mutex_t log_lock;
	char log[4096];
} fx = { .log_lock = PTHREAD_MUTEX_INITIALIZER };

static int chip_read(void *priv, uint8_t reg, uint8_t *val)
{
	(void)priv;
	*val = reg == REG ? atomic_load(&fx.chip_status) : 0;
	return 0;
}

static int chip_write(void *priv, uint8_t reg, uint8_t val)
{
	(void)priv, (void)reg, (void)val;
	return 0;
}

static const struct uirq_i2c_sim_device_ops chip_ops = { .read = chip_read, .write = chip_write };

static void on_log(const char *msg, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&fx.log_lock);
	strncat(fx.log, msg, sizeof(fx.log) - strlen(fx.log) - 1);
	pthread_mutex_unlock(&fx.log_lock);
}

static bool logged(const char *s)
{
	bool r;

	pthread_mutex_lock(&fx.log_lock);
	r = strstr(fx.log, s) != NULL;
	pthread_mutex_unlock(&fx.log_lock);
	return r;
}

static struct uio_pwrbutton_config config(void)
{
	struct uio_pwrbutton_config c = {
		.irq = uirq_fd_line_irq(fx.line),
		.regs = fx.regs,
		.regs_size = sizeof(fx.regs),
		.status_off = STATUS_OFF,
		.ack_off = ACK_OFF,
		.adap = uirq_i2c_sim_adapter(fx.sim),
		.addr = ADDR,
		.reg = REG,
		.bit = 0,
		.input = fx.input,
	};
	return c;
}

static void setup(void)
{
	uirq_log_set_sink(on_log, NULL);
	assert_eq(uirq_cpus_start(NULL), 0);
	assert_eq(uirq_i2c_sim_new("sim", 400000, &fx.sim), 0);
	assert_eq(uirq_i2c_sim_attach(fx.sim, ADDR, &chip_ops, NULL), 0);
	assert_gt(uirq_eventfd_line_create(-1, 0, &fx.line), 0);
	assert_eq(uirq_input_allocate_device(&fx.input), 0);
	fx.input->name = "uirq-pwrbutton";
	uirq_input_set_capability(fx.input, EV_KEY, KEY_POWER);
	assert_eq(uirq_input_register_device(fx.input), 0);
	assert_eq(uirq_input_open(fx.input, &fx.client), 0);
}

static void probe(void)
{
	struct uio_pwrbutton_config c;

	setup();
	c = config();
	assert_eq(uio_pwrbutton_probe(&c, &fx.pb), 0);
}

static void teardown(void)
{
	struct uirq_lockdep_stats st;

	uio_pwrbutton_remove(fx.pb);
	uirq_input_unregister_device(fx.input);
	uirq_input_close(fx.client);
	assert_eq(uirq_fd_line_destroy(fx.line), 0);
	uirq_i2c_sim_detach(fx.sim, ADDR);
	assert_eq(uirq_i2c_sim_free(fx.sim), 0);
	uirq_cpus_stop();
	uirq_lockdep_get_stats(&st);
	assert_eq(st.reports, 0ul, "lockdep reported");
}

/* Raise with the device's status and the chip's level; returns once the primary has run. */
static void interrupt(uint32_t status, bool down)
{
	unsigned long before, after, r0, r1;

	uio_pwrbutton_counts(fx.pb, &before, &r0);
	atomic_store(&fx.chip_status, down ? 0x01 : 0x00);
	__atomic_store_n(&fx.regs[STATUS_OFF / 4], status, __ATOMIC_SEQ_CST);
	assert_eq(uirq_eventfd_line_raise(fx.line), 0);
	do {
		usleep(100);
		uio_pwrbutton_counts(fx.pb, &after, &r1);
	} while (after == before && r1 == r0);
}

static void expect_key(int value)
{
	struct uirq_input_event ev[4];
	int n = uirq_input_read(fx.client, ev, 4, 0);

	assert_eq(n, 2, "read %d events", n);
	assert_eq(ev[0].type, EV_KEY, "type %u code %u value %d", ev[0].type, ev[0].code, ev[0].value);
	assert_eq(ev[0].code, KEY_POWER, "type %u code %u value %d", ev[0].type, ev[0].code, ev[0].value);
	assert_eq(ev[0].value, value, "type %u code %u value %d", ev[0].type, ev[0].code, ev[0].value);
	assert_eq(ev[1].type, EV_SYN);
	assert_eq(ev[1].code, SYN_REPORT);
}

static void expect_nothing(void)
{
	struct uirq_input_event ev[4];

	assert_eq(uirq_input_read(fx.client, ev, 4, UIRQ_INPUT_NONBLOCK), -EAGAIN);
}

UIRQ_TEST(uio_pwrbutton, press_release_acked_and_reported, .init = probe, .fini = teardown, .timeout = 30)
{
	for (int i = 0; i < 20; i++) {
		interrupt(0x1, true);
		expect_key(1);
		assert_eq(fx.regs[ACK_OFF / 4], 0x1u, "the primary acknowledged %#x", fx.regs[ACK_OFF / 4]);
		fx.regs[ACK_OFF / 4] = 0;
		interrupt(0x3, false);
		expect_key(0);
		assert_eq(fx.regs[ACK_OFF / 4], 0x3u, "the acknowledge carries the status read");
	}
}

UIRQ_TEST(uio_pwrbutton, status_zero_is_not_ours, .init = probe, .fini = teardown, .timeout = 30)
{
	unsigned long claimed, refused;

	fx.regs[ACK_OFF / 4] = 0xdead;
	interrupt(0, true);
	uio_pwrbutton_counts(fx.pb, &claimed, &refused);
	assert_eq(claimed, 0ul);
	assert_eq(refused, 1ul);
	assert_eq(fx.regs[ACK_OFF / 4], 0xdeadu, "nothing is acknowledged for a refused interrupt");
	/* Every handler of the line has finished: whatever the refusal could lead to has happened. */
	uirq_synchronize_irq(uirq_fd_line_irq(fx.line));
	expect_nothing();
}

/* A transient i2c error: the driver's message, no event; the next interrupt reports again. */
UIRQ_TEST(uio_pwrbutton, transient_i2c_error_logged_then_recovers, .init = probe, .fini = teardown, .timeout = 30)
{
	assert_eq(uirq_i2c_sim_fail_match(fx.sim, ADDR, REG, -EIO), 0);
	interrupt(0x1, true);
	while (!logged("uio-pwrbutton: i2c error -5 while reading register 0x45 of the chip at 0x4b"))
		usleep(1000);
	expect_nothing();
	uirq_i2c_sim_clear_faults(fx.sim);
	interrupt(0x1, true);
	expect_key(1);
}

UIRQ_TEST(uio_pwrbutton, absent_chip_fails_probe, .init = setup, .fini = teardown, .timeout = 30)
{
	struct uio_pwrbutton_config c;

	c = config();
	assert_eq(uirq_i2c_sim_set_nak(fx.sim, 0x20, true), 0);
	c.addr = 0x20;
	assert_eq(uio_pwrbutton_probe(&c, &fx.pb), -ENXIO);
	assert_null(fx.pb);
	assert_true(logged("no answer from the chip at 0x20"));
}

UIRQ_TEST(uio_pwrbutton, bad_config_is_einval, .init = setup, .fini = teardown, .timeout = 30)
{
	struct uio_pwrbutton_config c = config();

	c.bit = 8;
	assert_eq(uio_pwrbutton_probe(&c, &fx.pb), -EINVAL);
	c = config();
	c.status_off = sizeof(fx.regs);
	assert_eq(uio_pwrbutton_probe(&c, &fx.pb), -EINVAL);
	c = config();
	c.ack_off = 0x62;
	assert_eq(uio_pwrbutton_probe(&c, &fx.pb), -EINVAL);
	c = config();
	c.input = NULL;
	assert_eq(uio_pwrbutton_probe(&c, &fx.pb), -EINVAL);
	assert_null(fx.pb);
}

/* SPDX-License-Identifier: MIT */
/*
 * The board the unmodified i2c input drivers run on in these tests, built
 * in C as a device tree would describe it: CPUs in the deterministic mode,
 * a simulated i2c bus, a swirq interrupt controller whose inputs the chip
 * models drive, a device-tree node for the chip, the i2c client with its
 * interrupt, and the drivers' module_init() run as the kernel boots them.
 * An evdev-style reader opens the input device the driver registers.
 *
 * Every test runs over many seeds (SIM_TEST_SEEDS): the CPUs', the irq
 * threads' and the test's steps interleave differently each time, and the
 * waits are virtual - a sleep returns once everything else is blocked or
 * its time comes - so "the driver has read the report" is exact.
 */
#ifndef UIRQ_TESTS_UPSTREAM_BOARD_H
#define UIRQ_TESTS_UPSTREAM_BOARD_H

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/of.h>

#include "frames.h"
#include "io_reports.h"
#include "sim_runs.h"
#include "uirq/printk.h"
#include "uirq/sources.h"

/* Seeds per test: the issue's --explore 200; UIRQ_SIM_SEED=N replays one. */
#define UP_SEEDS	200

struct up_board {
	unsigned int cpus;
	struct uirq_i2c_sim *sim;
	struct i2c_adapter *adap;	/* the bus as client drivers see it */
	struct uirq_swirq *intc;
	struct device_node *np;
	struct i2c_client *client;
	struct uirq_input_client *reader;
	unsigned int irq;
};

static struct up_board ub;

/* ---- the drivers' log ---- */

static pthread_mutex_t up_log_mu = PTHREAD_MUTEX_INITIALIZER;
static char up_log[1 << 14];

static void up_log_sink(const char *msg, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&up_log_mu);
	strncat(up_log, msg, sizeof(up_log) - strlen(up_log) - 1);
	pthread_mutex_unlock(&up_log_mu);
}

/* Whether the log has needle so far. */
static inline bool up_logged(const char *needle)
{
	pthread_mutex_lock(&up_log_mu);
	bool has = strstr(up_log, needle) != NULL;
	pthread_mutex_unlock(&up_log_mu);
	return has;
}

/* ---- time: virtual in the mode ---- */

static inline void up_sleep_ms(double ms)
{
	uirq_sim_sleep_ns((uint64_t)(ms * 1e6));
}

/* ---- the board ---- */

/* A seeded run's start: CPUs, the bus, the controller (its inputs masked until a driver asks). */
static inline void up_begin(unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };
	struct uirq_swirq_config icfg = { .name = "pio", .nr_inputs = 8 };

	memset(&ub, 0, sizeof(ub));
	ub.cpus = cpus;
	up_log[0] = '\0';
	io_reports_start();
	uirq_log_set_sink(up_log_sink, NULL);
	assert_true(uirq_lockdep_enabled(), "lockdep must be on");
	assert_eq(uirq_cpus_start(&cfg), 0);
	assert_eq(uirq_i2c_sim_new("i2c-sim", UIRQ_I2C_SPEED_FAST, &ub.sim), 0);
	ub.adap = uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(ub.sim));
	assert_not_null(ub.adap);
	assert_eq(uirq_swirq_create(&icfg, &ub.intc), 0);
}

/* Input line of the controller with the trigger the device tree gives it: its irq. */
static inline unsigned int up_line(unsigned int line, unsigned int type)
{
	int irq = uirq_swirq_map(ub.intc, line);

	assert_gt(irq, 0, "swirq input %u: %d", line, irq);
	assert_eq(uirq_swirq_set_type(ub.intc, line, type), 0);
	ub.irq = (unsigned int)irq;
	return ub.irq;
}

/* A node called name with compatible, as the device tree's child of the i2c bus. */
static inline struct device_node *up_node(const char *name, const char *compatible, u32 reg)
{
	ub.np = uirq_of_node_new(NULL, name);
	assert_not_null(ub.np);
	assert_eq(uirq_of_node_add_string(ub.np, "compatible", compatible), 0);
	assert_eq(uirq_of_node_add_u32s(ub.np, "reg", &reg, 1), 0);
	return ub.np;
}

/* The modules boot, then the client appears, as of_i2c_register_devices() adds it: bound, or the test fails. */
static inline void up_probe(const struct i2c_board_info *info)
{
	assert_eq(uirq_compat_modules_init(), 0);
	ub.client = i2c_new_client_device(ub.adap, info);
	assert_false(IS_ERR(ub.client), "i2c_new_client_device: %ld", PTR_ERR(ub.client));
	assert_not_null(ub.client->dev.driver, "no driver bound:\n%s", up_log);
}

/* The input device the driver registered on its client. */
static inline struct uirq_input_dev *up_input(void)
{
	struct input_dev *in = uirq_compat_input_find(&ub.client->dev);

	assert_not_null(in, "the driver registered no input device");
	return uirq_compat_input_dev(in);
}

static inline void up_open(void)
{
	assert_eq(uirq_input_open(up_input(), &ub.reader), 0);
}

static inline void up_close(void)
{
	uirq_input_close(ub.reader);
	ub.reader = NULL;
}

/*
 * Everything goes, in the kernel's order - the reader, the client (the
 * driver's remove and its managed resources), the modules - then the
 * chip (destroy_chip), the controller, the bus, the CPUs; lockdep said
 * nothing all along.
 */
static inline void up_end(void (*destroy_chip)(void))
{
	if (ub.reader)
		up_close();
	i2c_unregister_device(ub.client);
	uirq_compat_modules_exit();
	destroy_chip();
	assert_eq(uirq_swirq_destroy(ub.intc), 0);
	assert_eq(uirq_compat_i2c_adapter_del(ub.adap), 0);
	assert_eq(uirq_i2c_sim_free(ub.sim), 0);
	uirq_of_node_free(ub.np);
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
	assert_no_reports();
}

#endif

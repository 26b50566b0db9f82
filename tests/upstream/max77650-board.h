/* SPDX-License-Identifier: MIT */
/*
 * The board the kernel's max77650.c and max77650-onkey.c run on in
 * tests/upstream/test_upstream_max77650.c: CPUs, a GPIO-like swirq
 * controller whose input 3 (level, active low) takes the PMIC's nIRQ, a
 * 400 kHz simulated i2c bus with the MAX77650 model at 0x48, and the
 * device tree the binding describes (Documentation/devicetree/bindings/
 * mfd/max77650.yaml): the PMIC node with its interrupt and an onkey child.
 * The board adds the i2c client and boots the modules, as a kernel does;
 * the drivers do the rest: the MFD probes, adds its cells, the onkey binds
 * to its cell.
 *
 * Every test runs its body in the deterministic mode under SEEDS seeds
 * (the "--explore 200"), odd seeds on two CPUs, even ones on one,
 * each run from a fresh board to a teardown in the kernel's order.
 * UIRQ_SIM_SEED=N replays seed N alone, UIRQ_SIM_SEEDS=N runs seeds 1..N;
 * each run's wall time is measured.
 */
#ifndef UIRQ_TESTS_UPSTREAM_MAX77650_BOARD_H
#define UIRQ_TESTS_UPSTREAM_MAX77650_BOARD_H

#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/device.h>
#include <linux/i2c.h>
#include <linux/input.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include "harness.h"
#include "sim_runs.h"
#include "max77650.h"
#include "uirq/input.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/printk.h"
#include "uirq/sim.h"
#include "uirq/sources.h"

#define SEEDS		200
#define HOST_LINE	3		/* the GPIO input nIRQ is wired to */
#define BUS_HZ		400000
#define MS		1000000ull	/* virtual ns */
#define US		1000ull

struct board {
	unsigned int cpus;
	struct max77650_config otp;	/* the chip's reset values */
	bool slide;			/* the onkey node says maxim,onkey-slide */
	int code;			/* its linux,code; 0: none (KEY_POWER) */

	struct uirq_swirq *gpio;
	unsigned int host_irq;
	struct uirq_i2c_sim *sim;
	struct max77650 *pmic;
	struct device_node *np, *onkey_np;
	struct i2c_adapter *adap;
	struct i2c_client *client;
	bool modules;
	struct device *onkey;
	struct input_dev *input;
	struct uirq_input_client *reader;
};

static struct board bd;

/* ---- what the run saw: log, lockdep reports, handler runs, bus traffic, input events ---- */

static char log_text[1 << 15];
static _Atomic size_t log_len;
static char rep_text[1 << 14];
static _Atomic int reports;
static char handlers[256];		/* 'D' onkey-down ran, 'U' onkey-up ran, 'P' the PMIC's thread */
static _Atomic int nhandlers;
static char bus[4096];			/* the i2c transfers, "R10=00 W10=08 ..." */
static size_t bus_len;
static struct uirq_input_event evs[256];
static int nev;

/* Append to a fixed buffer from any thread (one task runs at a time in the mode; atomics for the rest). */
static void append(char *buf, size_t size, _Atomic size_t *len, const char *s)
{
	size_t n = strlen(s), at = atomic_fetch_add(len, n);

	if (at + n + 1 < size)
		memcpy(buf + at, s, n + 1);
}

static void log_sink(const char *msg, void *arg)
{
	(void)arg;
	append(log_text, sizeof(log_text), &log_len, msg);
}

static bool log_has(const char *s)
{
	return strstr(log_text, s) != NULL;
}

static int log_count(const char *s)
{
	int n = 0;

	for (const char *p = log_text; (p = strstr(p, s)); p++)
		n++;
	return n;
}

static void rep_handler(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	if (atomic_fetch_add(&reports, 1) == 0)
		snprintf(rep_text, sizeof(rep_text), "%s", r->text);
	fputs(r->text, stderr);
}

/* Which handlers ran, in order: the onkey's two are nested in the PMIC's thread. */
static void trace(enum uirq_irq_trace_point point, unsigned int irq, int cpu, const char *name, void *arg)
{
	char c = 0;

	(void)irq, (void)cpu, (void)arg;
	if (point == UIRQ_TRACE_NESTED_ENTRY && name && !strcmp(name, "onkey-down"))
		c = 'D';
	else if (point == UIRQ_TRACE_NESTED_ENTRY && name && !strcmp(name, "onkey-up"))
		c = 'U';
	else if (point == UIRQ_TRACE_THREAD_ENTRY && name && !strcmp(name, "max77650-irq"))
		c = 'P';
	if (c) {
		int i = atomic_fetch_add(&nhandlers, 1);

		if (i < (int)sizeof(handlers) - 1)
			handlers[i] = c;
	}
}

/* The handlers' runs without the PMIC thread's: "DU" is one press and one release. */
static const char *onkey_runs(void)
{
	static char out[sizeof(handlers)];
	size_t n = 0;

	for (int i = 0; i < atomic_load(&nhandlers) && i < (int)sizeof(handlers) - 1; i++)
		if (handlers[i] != 'P')
			out[n++] = handlers[i];
	out[n] = '\0';
	return out;
}

static int pmic_thread_runs(void)
{
	int n = 0;

	for (int i = 0; i < atomic_load(&nhandlers) && i < (int)sizeof(handlers) - 1; i++)
		n += handlers[i] == 'P';
	return n;
}

/* Every transfer, with the bus lock held: a register write then a read is "Rrr=vv[,vv]", a write "Wrr=vv". */
static void bus_trace(const struct uirq_i2c_trace *t, void *arg)
{
	char s[64];
	int n = 0;

	(void)arg;
	if (t->ret < 0 || t->num < 1 || !t->msgs[0].len)
		return;
	if (t->num == 2 && (t->msgs[1].flags & UIRQ_I2C_M_RD)) {
		n = snprintf(s, sizeof(s), "R%02x=", t->msgs[0].buf[0]);
		for (int i = 0; i < t->msgs[1].len && n < 50; i++)
			n += snprintf(s + n, sizeof(s) - (size_t)n, "%s%02x", i ? "," : "", t->msgs[1].buf[i]);
	} else {
		n = snprintf(s, sizeof(s), "W%02x=", t->msgs[0].buf[0]);
		for (int i = 1; i < t->msgs[0].len && n < 50; i++)
			n += snprintf(s + n, sizeof(s) - (size_t)n, "%s%02x", i > 1 ? "," : "", t->msgs[0].buf[i]);
	}
	if (bus_len + (size_t)n + 2 < sizeof(bus)) {
		memcpy(bus + bus_len, s, (size_t)n);
		bus_len += (size_t)n;
		bus[bus_len++] = ' ';
		bus[bus_len] = '\0';
	}
}

/* Forget the traffic so far (what a test checks next starts here). */
static void bus_clear(void)
{
	bus_len = 0;
	bus[0] = '\0';
}

/* ---- time: uirq's clock, virtual in the mode ---- */

static void vsleep(uint64_t ns)
{
	uirq_sim_sleep_ns(ns);
}

/* ---- the user ---- */

static void press(void)
{
	max77650_set_nen(bd.pmic, true);
}

static void release(void)
{
	max77650_set_nen(bd.pmic, false);
}

/* Read what the reader has; the number of events read so far. */
static int read_events(void)
{
	int n;

	while ((n = uirq_input_read(bd.reader, evs + nev, (int)(sizeof(evs) / sizeof(evs[0])) - nev,
				    UIRQ_INPUT_NONBLOCK)) > 0)
		nev += n;
	assert_true(n == -EAGAIN || n == 0, "uirq_input_read: %d", n);
	return nev;
}

/* The key events' values as "10..." (each checked to be KEY_POWER framed by a SYN_REPORT). */
static const char *key_values(void)
{
	static char out[sizeof(evs) / sizeof(evs[0]) + 1];
	size_t k = 0;

	read_events();
	for (int i = 0; i < nev; i++) {
		if (evs[i].type != EV_KEY)
			continue;
		assert_eq(evs[i].code, KEY_POWER);
		assert_lt(i + 1, nev, "key event %zu not followed by SYN_REPORT", k);
		assert_eq(evs[i + 1].type, EV_SYN, "key event %zu not followed by SYN_REPORT", k);
		assert_eq(evs[i + 1].code, SYN_REPORT, "key event %zu not followed by SYN_REPORT", k);
		out[k++] = (char)('0' + evs[i].value);
	}
	out[k] = '\0';
	return out;
}

/* Everything handled: nIRQ released and the host line unmasked again, then a while with nothing more. */
static void settle(void)
{
	struct uirq_swirq_stats st;

	for (int i = 0; i < 2000; i++) {
		assert_eq(uirq_swirq_get_stats(bd.gpio, HOST_LINE, &st), 0);
		if (!max77650_nirq_asserted(bd.pmic) && !st.masked)
			break;
		vsleep(100 * US);
	}
	vsleep(20 * MS);
	assert_false(max77650_nirq_asserted(bd.pmic), "nIRQ still asserted");
	assert_eq(uirq_swirq_get_stats(bd.gpio, HOST_LINE, &st), 0);
	assert_false(st.masked, "the host line was left masked");
}

/* ---- the board ---- */

static void board_nodes(void)
{
	/* The binding's required properties: reg, interrupts (the GPIO's line 3, IRQ_TYPE_LEVEL_LOW). */
	const u32 reg = MAX77650_I2C_ADDR, irq[2] = { HOST_LINE, IRQ_TYPE_LEVEL_LOW }, two = 2;

	bd.np = uirq_of_node_new(NULL, "pmic@48");
	assert_not_null(bd.np);
	assert_eq(uirq_of_node_add_string(bd.np, "compatible", "maxim,max77650"), 0);
	assert_eq(uirq_of_node_add_u32s(bd.np, "reg", &reg, 1), 0);
	assert_eq(uirq_of_node_add_u32s(bd.np, "interrupts", irq, 2), 0);
	assert_eq(uirq_of_node_add_bool(bd.np, "interrupt-controller"), 0);
	assert_eq(uirq_of_node_add_u32s(bd.np, "#interrupt-cells", &two, 1), 0);
	assert_eq(uirq_of_node_add_bool(bd.np, "gpio-controller"), 0);
	assert_eq(uirq_of_node_add_u32s(bd.np, "#gpio-cells", &two, 1), 0);
	bd.onkey_np = uirq_of_node_new(bd.np, "onkey");
	assert_not_null(bd.onkey_np);
	assert_eq(uirq_of_node_add_string(bd.onkey_np, "compatible", "maxim,max77650-onkey"), 0);
	if (bd.code) {
		u32 code = (u32)bd.code;

		assert_eq(uirq_of_node_add_u32s(bd.onkey_np, "linux,code", &code, 1), 0);
	}
	if (bd.slide)
		assert_eq(uirq_of_node_add_bool(bd.onkey_np, "maxim,onkey-slide"), 0);
}

/* The hardware and the device tree; no driver yet. */
static void board_hw(void)
{
	struct uirq_cpu_config cfg = { .nr_cpus = bd.cpus };
	struct uirq_swirq_config gcfg = { .name = "gpio2", .nr_inputs = 8 };
	int ret;

	for (unsigned int i = 0; i < UIRQ_MAX_CPUS; i++)
		cfg.pin[i] = -1;
	uirq_lockdep_set_report_handler(rep_handler, NULL);
	uirq_log_set_sink(log_sink, NULL);
	uirq_irq_set_trace(trace, NULL);
	assert_true(uirq_lockdep_enabled(), "lockdep must be on");
	assert_eq(uirq_cpus_start(&cfg), 0);
	assert_eq(uirq_swirq_create(&gcfg, &bd.gpio), 0);
	ret = uirq_swirq_map(bd.gpio, HOST_LINE);
	assert_gt(ret, 0);
	bd.host_irq = (unsigned int)ret;
	/* nIRQ is open-drain, active low: a low level (levels are logical: "asserted" is low). */
	assert_eq(uirq_swirq_set_type(bd.gpio, HOST_LINE, UIRQ_TYPE_LEVEL_LOW), 0);
	assert_eq(uirq_i2c_sim_new("i2c-sim", BUS_HZ, &bd.sim), 0);
	uirq_i2c_set_trace(uirq_i2c_sim_adapter(bd.sim), bus_trace, NULL);
	assert_eq(max77650_create(bd.sim, MAX77650_I2C_ADDR, bd.gpio, HOST_LINE, &bd.otp, &bd.pmic), 0);
	board_nodes();
}

/* The board's i2c device, as a device tree's i2c node makes it. */
static void board_add_client(void)
{
	struct i2c_board_info info = {
		I2C_BOARD_INFO("max77650", MAX77650_I2C_ADDR),
		.of_node = bd.np,
		.irq = (int)bd.host_irq,
	};

	bd.adap = uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(bd.sim));
	assert_not_null(bd.adap);
	bd.client = i2c_new_client_device(bd.adap, &info);
	assert_false(IS_ERR(bd.client), "i2c_new_client_device: %ld", PTR_ERR(bd.client));
}

/* Boot: the client, the modules' inits; then the onkey the MFD made, and a reader on its input. */
static void board_boot(void)
{
	board_hw();
	board_add_client();
	assert_eq(uirq_compat_modules_init(), 0);
	bd.modules = true;
	bd.onkey = bus_find_device_by_name(&platform_bus_type, NULL, "max77650-onkey");
	assert_not_null(bd.onkey, "the MFD made no onkey device:\n%s", log_text);
	assert_not_null(bd.onkey->driver, "the onkey driver did not bind:\n%s", log_text);
	bd.input = uirq_compat_input_find(bd.onkey);
	assert_not_null(bd.input);
	assert_eq(uirq_input_open(uirq_compat_input_dev(bd.input), &bd.reader), 0);
}

/* The drivers go: the device first (its driver unbinds: the MFD's devres removes the onkey, then the chip). */
static void board_remove_device(void)
{
	if (bd.reader)
		uirq_input_close(bd.reader);
	bd.reader = NULL;
	i2c_unregister_device(bd.client);
	bd.client = NULL;
}

static void board_exit_modules(void)
{
	if (bd.modules)
		uirq_compat_modules_exit();
	bd.modules = false;
}

/* Whatever is left, in the kernel's order; then nothing is held, nothing reported, every line gone. */
static void board_teardown(void)
{
	board_remove_device();
	board_exit_modules();
	assert_false(uirq_irq_has_action(bd.host_irq), "the PMIC's line is still requested");
	max77650_destroy(bd.pmic);
	assert_eq(uirq_compat_i2c_adapter_del(bd.adap), 0, "a client is left on the bus");
	uirq_i2c_set_trace(uirq_i2c_sim_adapter(bd.sim), NULL, NULL);
	assert_eq(uirq_i2c_sim_free(bd.sim), 0, "a client is left on the bus");
	assert_eq(uirq_swirq_destroy(bd.gpio), 0);
	uirq_of_node_free(bd.np);
	uirq_cpus_stop();
	uirq_irq_set_trace(NULL, NULL);
	uirq_log_set_sink(NULL, NULL);
	assert_eq(atomic_load(&reports), 0, "lockdep reported:\n%.3000s", rep_text);
}

/* A run's start: a fresh board description on cpus CPUs; nothing logged, reported or seen yet. */
static void board_reset(unsigned int cpus)
{
	memset(&bd, 0, sizeof(bd));
	bd.cpus = cpus;
	atomic_store(&log_len, 0);
	log_text[0] = '\0';
	atomic_store(&reports, 0);
	rep_text[0] = '\0';
	atomic_store(&nhandlers, 0);
	memset(handlers, 0, sizeof(handlers));
	bus_clear();
	nev = 0;
}

/* ---- the seeds ---- */

static void (*run_setup)(void);	/* the board a test wants, after board_reset() */

static void seeded_begin(unsigned int cpus)
{
	board_reset(cpus);
	if (run_setup)
		run_setup();
}

/* One run of seed (on one CPU for an even seed, two for an odd one), from a fresh board. */
static void seeded_run(uint64_t seed, void (*setup)(void), void (*body)(void))
{
	run_setup = setup;
	sim_run_one(seed, 1 + (unsigned int)(seed % 2), seeded_begin, body, board_teardown);
}

/*
 * body under each seed (sim_runs.h), each run from board_reset() and setup
 * (the board a test wants) to board_teardown(); the wall time per run is
 * printed after what.
 */
static void seeded_runs(const char *what, void (*setup)(void), void (*body)(void))
{
	run_setup = setup;
	printf("# %s\n", what);
	sim_runs_seeds(SEEDS, 0, seeded_begin, body, board_teardown);
}

#endif

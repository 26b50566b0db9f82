// SPDX-License-Identifier: MIT
/*
 * i2c wire time: the pure function against clock counts worked out by hand
 * from the TWL4030 notes' table, and the simulated adapter sleeping at least
 * that long (lower bounds only: a loaded machine may sleep longer).
 */
#include <errno.h>
#include <time.h>

#include "io_reports.h"
#include "uirq/i2c.h"

#define OPTS .timeout = 20, .init = io_reports_start

static uint8_t reg = 0x45, val, block[8];

/* S addr+W reg Sr addr+R data+NACK P = 1+9+9+1+9+9+1 = 39 clocks. */
static struct uirq_i2c_msg read_reg[2] = {
	{ 0x4b, 0, 1, &reg },
	{ 0x4b, UIRQ_I2C_M_RD, 1, &val },
};
/* S addr+W reg data P = 1+9+9+9+1 = 29 clocks. */
static uint8_t wbuf[2] = { 0x2f, 0xff };
static struct uirq_i2c_msg write_reg[1] = { { 0x4b, 0, 2, wbuf } };
/* Read 4 registers: 39 + 3*9 = 66 clocks. */
static struct uirq_i2c_msg read_block[2] = {
	{ 0x4b, 0, 1, &reg },
	{ 0x4b, UIRQ_I2C_M_RD, 4, block },
};
/* Write 4 registers: 29 + 3*9 = 56 clocks. */
static uint8_t wblock[5] = { 0x10, 1, 2, 3, 4 };
static struct uirq_i2c_msg write_block[1] = { { 0x4b, 0, 5, wblock } };

static void expect(struct uirq_i2c_msg *m, int n, unsigned long hz,
		   uint32_t clocks, uint32_t preamble, uint64_t ns)
{
	struct uirq_i2c_wire_time wt;

	assert_eq(uirq_i2c_wire_time(m, n, hz, &wt), 0);
	assert_eq(wt.clocks, clocks, "%lu Hz: %u clocks, want %u", hz, wt.clocks, clocks);
	assert_eq(wt.preamble_clocks, preamble, "%lu Hz: preamble %u, want %u", hz,
		     wt.preamble_clocks, preamble);
	assert_eq(wt.ns, ns, "%lu Hz: %llu ns, want %llu", hz, (unsigned long long)wt.ns,
		     (unsigned long long)ns);
	assert_eq(uirq_i2c_wire_ns(m, n, hz), ns);
}

UIRQ_TEST(i2c_timing, read_register)
{
	expect(read_reg, 2, 100000, 39, 0, 390000);	/* the table's 390 us */
	expect(read_reg, 2, 400000, 39, 0, 97500);	/* ~98 us */
	/* HS: 39 clocks at 2.6 MHz = 15 us, plus S + master code (10 clocks) at 400 kHz = 25 us. */
	expect(read_reg, 2, 2600000, 39, 10, 40000);
	/* 3.4 MHz: 39 / 3.4e6 = 11470.59 ns, rounded up. */
	expect(read_reg, 2, 3400000, 39, 10, 11471 + 25000);
}

UIRQ_TEST(i2c_timing, write_register)
{
	expect(write_reg, 1, 100000, 29, 0, 290000);
	expect(write_reg, 1, 400000, 29, 0, 72500);
	/* 29 / 2.6e6 = 11153.85 ns -> 11154, + 25000: the table's ~36 us. */
	expect(write_reg, 1, 2600000, 29, 10, 36154);
}

UIRQ_TEST(i2c_timing, blocks_add_nine_clocks_a_byte)
{
	expect(read_block, 2, 100000, 66, 0, 660000);
	expect(read_block, 2, 400000, 66, 0, 165000);
	expect(read_block, 2, 2600000, 66, 10, 25385 + 25000);	/* 25384.6 rounded up */
	expect(write_block, 1, 100000, 56, 0, 560000);
	expect(write_block, 1, 400000, 56, 0, 140000);
	expect(write_block, 1, 2600000, 56, 10, 21539 + 25000);	/* 21538.5 rounded up */
}

UIRQ_TEST(i2c_timing, stop_and_ten_bit_and_nostart)
{
	/* A STOP between messages: P + S instead of Sr, and in HS a second master code. */
	struct uirq_i2c_msg m[2] = {
		{ 0x4b, UIRQ_I2C_M_STOP, 1, &reg },
		{ 0x4b, UIRQ_I2C_M_RD, 1, &val },
	};

	expect(m, 2, 100000, 40, 0, 400000);
	expect(m, 2, 2600000, 40, 20, 40 * 1000000000ull / 2600000 + 1 + 50000);
	/* 10-bit write of one byte: S, 2 address bytes, data, P = 1+18+9+1. */
	m[0] = (struct uirq_i2c_msg){ 0x123, UIRQ_I2C_M_TEN, 1, &reg };
	expect(m, 1, 100000, 29, 0, 290000);
	/* 10-bit read of one byte: S, 2 address bytes W, Sr, high byte R, data, P. */
	m[0].flags = UIRQ_I2C_M_TEN | UIRQ_I2C_M_RD;
	expect(m, 1, 100000, 1 + 28 + 9 + 1, 0, 390000);
	/* NOSTART continues the previous message: no Sr, no address. */
	m[0] = (struct uirq_i2c_msg){ 0x4b, 0, 1, &reg };
	m[1] = (struct uirq_i2c_msg){ 0x4b, UIRQ_I2C_M_NOSTART, 2, wbuf };
	expect(m, 2, 100000, 1 + 9 + 9 + 18 + 1, 0, 380000);
	assert_no_reports();
}

UIRQ_TEST(i2c_timing, bad_arguments)
{
	struct uirq_i2c_wire_time wt;

	assert_eq(uirq_i2c_wire_time(read_reg, 2, 0, &wt), -EINVAL);
	assert_eq(uirq_i2c_wire_time(read_reg, 2, 3400001, &wt), -EINVAL);
	assert_eq(uirq_i2c_wire_time(read_reg, 0, 100000, &wt), -EINVAL);
	assert_eq(uirq_i2c_wire_time(NULL, 1, 100000, &wt), -EINVAL);
	assert_eq(uirq_i2c_wire_time(read_reg, 2, 100000, NULL), -EINVAL);
	assert_eq(uirq_i2c_wire_ns(read_reg, 2, 0), 0);
}

static uint8_t regs[256];

static int rd(void *priv, uint8_t r, uint8_t *v)
{
	(void)priv;
	*v = regs[r];
	return 0;
}

static int wr(void *priv, uint8_t r, uint8_t v)
{
	(void)priv;
	regs[r] = v;
	return 0;
}

static const struct uirq_i2c_sim_device_ops ops = { .read = rd, .write = wr };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Each transfer shape at each speed: measured time >= modeled wire time, and the counters agree. */
UIRQ_TEST(i2c_timing, sim_sleeps_at_least_wire_time, .timeout = 30, .init = io_reports_start)
{
	static const unsigned long speeds[] = { 100000, 400000, 2600000 };
	struct { struct uirq_i2c_msg *m; int n; } shapes[] = {
		{ read_reg, 2 }, { write_reg, 1 }, { read_block, 2 }, { write_block, 1 },
	};
	struct uirq_i2c_sim *sim;
	struct uirq_i2c_adapter *adap;
	uint64_t wire_sum = 0;
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_sim_new("timing", 100000, &sim), 0);
	adap = uirq_i2c_sim_adapter(sim);
	assert_eq(uirq_i2c_sim_attach(sim, 0x4b, &ops, NULL), 0);
	for (unsigned int s = 0; s < 3; s++) {
		assert_eq(uirq_i2c_sim_set_bus_speed(sim, speeds[s]), 0);
		assert_eq(uirq_i2c_sim_bus_speed(sim), speeds[s]);
		for (unsigned int i = 0; i < 4; i++) {
			uint64_t wire = uirq_i2c_wire_ns(shapes[i].m, shapes[i].n, speeds[s]);
			uint64_t t0 = now_ns();
			int ret = uirq_i2c_transfer(adap, shapes[i].m, shapes[i].n);
			uint64_t took = now_ns() - t0;

			assert_eq(ret, shapes[i].n);
			assert_ge(took, wire, "%lu Hz shape %u: %llu ns < wire %llu ns", speeds[s], i,
				      (unsigned long long)took, (unsigned long long)wire);
			wire_sum += wire;
		}
	}
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.wire_ns, wire_sum);
	assert_ge(st.sleep_ns, st.wire_ns);
	assert_eq(st.transfers, 12);
	assert_eq(st.messages, 3 * 6);
	assert_eq(st.bytes, 3 * (2 + 2 + 5 + 5));
	assert_eq(uirq_i2c_sim_set_bus_speed(sim, 0), -EINVAL);
	assert_eq(uirq_i2c_sim_set_bus_speed(sim, 5000000), -EINVAL);
	assert_eq(uirq_i2c_sim_free(sim), 0);
	assert_no_reports();
}

// SPDX-License-Identifier: MIT
/*
 * The KXTJ9 model on its own (no CPUs, no driver), against the datasheet's
 * register map: reset values and identity, the output format per range and
 * resolution, data ready as a pulse or a latched level released by
 * INT_REL, the pin's polarity, standby-only registers.
 */
#include "harness.h"
#include "kxtj9.h"

static struct uirq_i2c_sim *sim;
static struct uirq_swirq *intc;
static struct kxtj9 *k;
static struct uirq_i2c_client *cl;

static void setup(void)
{
	struct uirq_swirq_config cfg = { .name = "gpio", .nr_inputs = 2, .default_type = UIRQ_TYPE_EDGE_RISING };

	assert_eq(uirq_i2c_sim_new("i2c-accel", 400000, &sim), 0);
	assert_eq(uirq_swirq_create(&cfg, &intc), 0);
	assert_eq(kxtj9_create(sim, KXTJ9_ADDR, intc, 1, &k), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(sim), "kxtj9", KXTJ9_ADDR, &cl), 0);
}

static void teardown(void)
{
	uirq_i2c_unregister_device(cl);
	kxtj9_destroy(k);
	assert_eq(uirq_swirq_destroy(intc), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

#define MODEL .init = setup, .fini = teardown

static struct uirq_swirq_stats pin(void)
{
	struct uirq_swirq_stats st;

	assert_eq(uirq_swirq_get_stats(intc, 1, &st), 0);
	return st;
}

static int rd(uint8_t reg)
{
	return uirq_i2c_smbus_read_byte_data(cl, reg);
}

static void wr(uint8_t reg, uint8_t v)
{
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, reg, v), 0);
}

/* The three outputs as the driver reads them: six bytes from XOUT_L, little endian. */
static void outputs(int16_t out[3])
{
	uint8_t b[6];

	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, KXTJ9_XOUT_L, 6, b), 6);
	for (int i = 0; i < 3; i++)
		out[i] = (int16_t)(b[2 * i] | b[2 * i + 1] << 8);
}

UIRQ_TEST(kxtj9, reset_values_and_identity, MODEL)
{
	assert_eq(rd(KXTJ9_WHO_AM_I), KXTJ9_WHO_AM_I_VALUE);
	assert_eq(rd(KXTJ9_DCST_RESP), 0x55);
	assert_eq(rd(KXTJ9_CTRL_REG1), 0);
	assert_eq(rd(KXTJ9_INT_CTRL_REG1), KXTJ9_IEA);
	assert_eq(rd(KXTJ9_DATA_CTRL_REG), 0x02);
	assert_eq(kxtj9_odr_mhz(k), 50000u, "50 Hz out of reset");
	wr(KXTJ9_WHO_AM_I, 0);
	assert_eq(rd(KXTJ9_WHO_AM_I), KXTJ9_WHO_AM_I_VALUE, "read-only");
	assert_false(kxtj9_sample(k), "standby: nothing converts");
}

UIRQ_TEST(kxtj9, output_format_per_range_and_resolution, MODEL)
{
	int16_t o[3];

	kxtj9_set_acceleration(k, 1000, -500, 125);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1 | KXTJ9_RES);	/* 12-bit, +-2g: 1024 counts a g */
	assert_true(kxtj9_sample(k));
	outputs(o);
	assert_eq(o[0], 1024 << 4, "left-justified");
	assert_eq(o[1], -512 * 16);
	assert_eq(o[2], 128 << 4);
	wr(KXTJ9_CTRL_REG1, 0);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1 | KXTJ9_RES | 0x10);	/* 12-bit, +-8g: 256 a g */
	kxtj9_sample(k);
	outputs(o);
	assert_eq(o[0] >> 4, 256);
	assert_eq(o[1] >> 4, -128);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1);	/* 8-bit, +-2g: 64 a g, in XOUT_H */
	kxtj9_sample(k);
	outputs(o);
	assert_eq(o[0], 64 << 8);
	assert_eq(rd(KXTJ9_XOUT_L + 1), 64);
	/* Beyond the range: the most the chip can say. */
	kxtj9_set_acceleration(k, 9000, -9000, 0);
	kxtj9_sample(k);
	outputs(o);
	assert_eq(o[0] >> 8, 127);
	assert_eq(o[1] >> 8, -128);
}

/* The driver's setting: IEN, IEA, IEL - a rising pulse per conversion, status until INT_REL. */
UIRQ_TEST(kxtj9, data_ready_pulses, MODEL)
{
	wr(KXTJ9_INT_CTRL_REG1, KXTJ9_IEN | KXTJ9_IEA | KXTJ9_IEL);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1 | KXTJ9_RES | KXTJ9_DRDYE);
	kxtj9_sample(k);
	assert_eq(pin().edges, 1ul);
	assert_false(pin().asserted, "a pulse: the wire is low again");
	assert_eq(rd(KXTJ9_INT_SOURCE1), KXTJ9_DRDY);
	assert_eq(rd(KXTJ9_STATUS_REG), KXTJ9_INT);
	kxtj9_sample(k);
	assert_eq(pin().edges, 2ul, "one pulse per conversion, released or not");
	rd(KXTJ9_INT_REL);
	assert_eq(rd(KXTJ9_INT_SOURCE1), 0);
	assert_eq(rd(KXTJ9_STATUS_REG), 0);
	assert_eq(kxtj9_data_ready_count(k), 2ul);
	assert_eq(kxtj9_int_rel_reads(k), 1ul);
	/* Without DRDYE a conversion signals nothing. */
	wr(KXTJ9_CTRL_REG1, 0);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1);
	kxtj9_sample(k);
	assert_eq(pin().edges, 2ul);
	assert_eq(rd(KXTJ9_INT_SOURCE1), 0);
}

/* IEL 0: the pin stays asserted from the first conversion until INT_REL; IEA 0 turns the wire over. */
UIRQ_TEST(kxtj9, latched_level_and_polarity, MODEL)
{
	wr(KXTJ9_INT_CTRL_REG1, KXTJ9_IEN | KXTJ9_IEA);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1 | KXTJ9_DRDYE);
	kxtj9_sample(k);
	kxtj9_sample(k);
	assert_true(pin().asserted);
	assert_eq(pin().edges, 1ul, "latched: one rising edge");
	rd(KXTJ9_INT_REL);
	assert_false(pin().asserted);
	/* Active low: idle high, so a release makes the rising edge. */
	wr(KXTJ9_CTRL_REG1, 0);
	wr(KXTJ9_INT_CTRL_REG1, KXTJ9_IEN);
	assert_true(pin().asserted, "idle: the wire is high");
	assert_eq(pin().edges, 2ul);
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1 | KXTJ9_DRDYE);
	kxtj9_sample(k);
	assert_false(pin().asserted, "asserted: low");
	rd(KXTJ9_INT_REL);
	assert_eq(pin().edges, 3ul);
}

/* The datasheet's rule: the other control registers change only in standby. */
UIRQ_TEST(kxtj9, control_registers_only_in_standby, MODEL)
{
	wr(KXTJ9_CTRL_REG1, KXTJ9_PC1);
	wr(KXTJ9_DATA_CTRL_REG, 6);
	wr(KXTJ9_INT_CTRL_REG1, KXTJ9_IEN);
	assert_eq(kxtj9_refused_writes(k), 2ul);
	assert_eq(rd(KXTJ9_DATA_CTRL_REG), 2);
	wr(KXTJ9_CTRL_REG1, 0);
	wr(KXTJ9_DATA_CTRL_REG, 6);
	assert_eq(kxtj9_odr_mhz(k), 800000u);
	assert_eq(kxtj9_refused_writes(k), 2ul);
	assert_eq(kxtj9_peek(k, KXTJ9_DATA_CTRL_REG), 6);
}

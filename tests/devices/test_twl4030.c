// SPDX-License-Identifier: MIT
/* The TWL4030 model on its own: registers, the PWR_INT SIH, the PIH, INT1 and PWRON. */
#include "model.h"

#include <stdlib.h>
#include <unistd.h>

#define MODEL .init = model_setup, .fini = model_teardown

UIRQ_TEST(twl4030, reset_values, MODEL)
{
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x01, "PWRON pending at boot");
	assert_eq(PWR(TWL4030_PWR_IMR1), 0x00);
	assert_eq(PWR(TWL4030_PWR_ISR2), 0x00);
	assert_eq(PWR(TWL4030_PWR_IMR2), 0x00);
	assert_eq(PWR(TWL4030_PWR_EDR1), 0xff);
	assert_eq(PWR(TWL4030_PWR_EDR2), 0xff);
	assert_eq(PWR(TWL4030_PWR_SIH_CTRL), 0x01);
	assert_eq(PWR(TWL4030_STS_HW_CONDITIONS), 0x00);
	assert_eq(PIH_P1(), 1u << TWL4030_PIH_PWR_INT);
	assert_eq(PIH_P2(), 0x00);
	/* The pending PWRON is unmasked: INT1 is low out of reset, and the listener hears it at once. */
	assert_true(twl4030_int1_asserted(m.twl));
	assert_eq(int1_count(), 1);
	assert_true(int1_last());
	/* The same over the bus. */
	assert_eq(rd(m.c49, TWL4030_PIH_ISR_P1), 0x20);
	assert_eq(rd(m.c4b, TWL4030_PWR_EDR1), 0xff);
	assert_str_eq(twl4030_reg_name(TWL4030_ADDR_POWER, TWL4030_PWR_ISR1), "PWR_ISR1");
	assert_str_eq(twl4030_reg_name(TWL4030_ADDR_POWER, TWL4030_STS_HW_CONDITIONS), "STS_HW_CONDITIONS");
	assert_null(twl4030_reg_name(TWL4030_ADDR_USB, 0x10));
}

UIRQ_TEST(twl4030, unknown_registers_store_writes, MODEL)
{
	struct uirq_i2c_client *c48, *c4a;

	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(m.sim), "usb", TWL4030_ADDR_USB, &c48), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(m.sim), "aux", TWL4030_ADDR_AUX, &c4a), 0);
	assert_eq(rd(c48, 0x10), 0);
	wr(c48, 0x10, 0x5a);
	wr(c4a, 0xd2, 0xa5);
	assert_eq(rd(c48, 0x10), 0x5a);
	assert_eq(rd(c4a, 0xd2), 0xa5);
	assert_eq(twl4030_peek(m.twl, TWL4030_ADDR_AUX, 0xd2), 0xa5);
	/* Block access walks the register pointer across the map. */
	uint8_t blk[3] = { 1, 2, 3 }, back[3] = { 0 };

	assert_eq(uirq_i2c_smbus_write_i2c_block_data(c48, 0x20, 3, blk), 0);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(c48, 0x20, 3, back), 3);
	assert_eq(memcmp(blk, back, 3), 0);
	/* Read-only registers ignore writes: the derived PIH and the status. */
	wr(m.c49, TWL4030_PIH_ISR_P1, 0x00);
	assert_eq(PIH_P1(), 0x20);
	wr(m.c4b, TWL4030_STS_HW_CONDITIONS, 0xff);
	assert_eq(PWR(TWL4030_STS_HW_CONDITIONS), 0x00);
	/* Not on the chip at all: peek says 0. */
	assert_eq(twl4030_peek(m.twl, 0x50, 0), 0);
	uirq_i2c_unregister_device(c48);
	uirq_i2c_unregister_device(c4a);
}

UIRQ_TEST(twl4030, write_one_to_clear_without_cor, MODEL)
{
	/* Out of reset COR is 0: reading does not acknowledge. */
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_true(twl4030_int1_asserted(m.twl));
	/* Writing 0 clears nothing; writing 1 clears the bit and INT1 goes high. */
	wr(m.c4b, TWL4030_PWR_ISR1, 0x00);
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x01);
	wr(m.c4b, TWL4030_PWR_ISR1, 0x01);
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x00);
	assert_false(twl4030_int1_asserted(m.twl));
	assert_eq(int1_count(), 2);
	assert_false(int1_last());
	assert_eq(PIH_P1(), 0x00);
}

UIRQ_TEST(twl4030, clear_on_read, MODEL)
{
	wr(m.c4b, TWL4030_PWR_SIH_CTRL, TWL4030_SIH_CTRL_COR);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_false(twl4030_int1_asserted(m.twl), "the read acknowledged it");
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
	/* With COR a write to ISR means nothing. */
	twl4030_set_pwron(m.twl, true);
	wr(m.c4b, TWL4030_PWR_ISR1, 0x01);
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x01);
	/* Peeking has no side effects. */
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x01);
	/* Each line acknowledges on its own. */
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR2), 0x01);
	assert_eq(PWR(TWL4030_PWR_ISR2), 0x00);
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x01);
}

UIRQ_TEST(twl4030, penddis_buffers_one_event, MODEL)
{
	linux_init();
	assert_false(twl4030_int1_asserted(m.twl));
	wr(m.c4b, TWL4030_PWR_IMR1, 0xfe);
	/* Press sets the bit; the release arrives while it is set and is buffered. */
	twl4030_set_pwron(m.twl, true);
	twl4030_set_pwron(m.twl, false);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_true(twl4030_int1_asserted(m.twl), "the buffered event re-asserts INT1");
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
	assert_false(twl4030_int1_asserted(m.twl));
	/* Only one is buffered: a third edge merges. */
	twl4030_set_pwron(m.twl, true);
	twl4030_set_pwron(m.twl, false);
	twl4030_set_pwron(m.twl, true);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
	/* PENDDIS=1: nothing is buffered. */
	wr(m.c4b, TWL4030_PWR_SIH_CTRL, TWL4030_SIH_CTRL_COR | TWL4030_SIH_CTRL_PENDDIS);
	twl4030_set_pwron(m.twl, false);
	twl4030_set_pwron(m.twl, true);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
}

UIRQ_TEST(twl4030, penddis_with_write_one_to_clear, MODEL)
{
	wr(m.c4b, TWL4030_PWR_ISR1, 0x01);
	twl4030_set_pwron(m.twl, true);
	twl4030_set_pwron(m.twl, false);
	wr(m.c4b, TWL4030_PWR_ISR1, 0x01);
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x01, "the buffered release");
	wr(m.c4b, TWL4030_PWR_ISR1, 0x01);
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x00);
}

UIRQ_TEST(twl4030, edr_selects_edges, MODEL)
{
	linux_init();
	wr(m.c4b, TWL4030_PWR_IMR1, 0xfe);
	/* Rising only (EDR1 bit 1): the press. */
	wr(m.c4b, TWL4030_PWR_EDR1, 0x02);
	twl4030_set_pwron(m.twl, true);
	assert_eq(PWR(TWL4030_STS_HW_CONDITIONS) & TWL4030_STS_PWON, TWL4030_STS_PWON);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	twl4030_set_pwron(m.twl, false);
	assert_eq(PWR(TWL4030_STS_HW_CONDITIONS) & TWL4030_STS_PWON, 0);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
	/* Falling only (bit 0): the release. */
	wr(m.c4b, TWL4030_PWR_EDR1, 0x01);
	twl4030_set_pwron(m.twl, true);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
	twl4030_set_pwron(m.twl, false);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	/* Neither: never fires, but the status still follows the button. */
	wr(m.c4b, TWL4030_PWR_EDR1, 0xfc);
	twl4030_set_pwron(m.twl, true);
	assert_true(twl4030_get_pwron(m.twl));
	assert_eq(rd(m.c4b, TWL4030_STS_HW_CONDITIONS) & TWL4030_STS_PWON, TWL4030_STS_PWON);
	twl4030_set_pwron(m.twl, false);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
	assert_false(twl4030_int1_asserted(m.twl));
	/* The same level twice is no edge. */
	wr(m.c4b, TWL4030_PWR_EDR1, 0x03);
	twl4030_set_pwron(m.twl, false);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x00);
}

UIRQ_TEST(twl4030, pih_is_derived_per_line, MODEL)
{
	wr(m.c4b, TWL4030_PWR_SIH_CTRL, TWL4030_SIH_CTRL_COR);
	rd(m.c4b, TWL4030_PWR_ISR1);
	rd(m.c4b, TWL4030_PWR_ISR1);
	twl4030_set_pwron(m.twl, true);		/* both lines latch */
	assert_eq(PIH_P1(), 0x20);
	assert_eq(PIH_P2(), 0x20);
	/* Masked on line 1: P1 quiet, P2 still pending. */
	wr(m.c4b, TWL4030_PWR_IMR1, 0x01);
	assert_eq(PIH_P1(), 0x00);
	assert_eq(PIH_P2(), 0x20);
	assert_false(twl4030_int1_asserted(m.twl));
	/* ISR latched while masked: unmasking shows it. */
	wr(m.c4b, TWL4030_PWR_IMR1, 0x00);
	assert_eq(rd(m.c49, TWL4030_PIH_ISR_P1), 0x20);
	assert_true(twl4030_int1_asserted(m.twl));
	/* Masking other bits does not hide bit 0. */
	wr(m.c4b, TWL4030_PWR_IMR1, 0xfe);
	assert_eq(PIH_P1(), 0x20);
	wr(m.c4b, TWL4030_PWR_IMR2, 0xff);
	assert_eq(PIH_P2(), 0x00);
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x01);
	assert_eq(PIH_P1(), 0x00);
}

UIRQ_TEST(twl4030, int1_follows_imr_and_isr, MODEL)
{
	int n0 = int1_count();

	assert_true(int1_last());
	/* Every IMR write re-evaluates; only changes are reported. */
	wr(m.c4b, TWL4030_PWR_IMR1, 0x01);
	assert_eq(int1_count(), n0 + 1);
	assert_false(int1_last());
	wr(m.c4b, TWL4030_PWR_IMR1, 0x03);
	assert_eq(int1_count(), n0 + 1, "no change, no report");
	wr(m.c4b, TWL4030_PWR_IMR1, 0x00);
	assert_eq(int1_count(), n0 + 2);
	assert_true(int1_last());
	/* ISR clear deasserts; an event asserts. */
	wr(m.c4b, TWL4030_PWR_ISR1, 0x01);
	assert_eq(int1_count(), n0 + 3);
	assert_false(int1_last());
	twl4030_set_pwron(m.twl, true);
	assert_eq(int1_count(), n0 + 4);
	assert_true(int1_last());
	/* INT2 activity does not touch INT1. */
	wr(m.c4b, TWL4030_PWR_IMR2, 0xff);
	wr(m.c4b, TWL4030_PWR_ISR2, 0x01);
	assert_eq(int1_count(), n0 + 4);
}

UIRQ_TEST(twl4030, sir_raises_events, MODEL)
{
	wr(m.c4b, TWL4030_PWR_SIH_CTRL, TWL4030_SIH_CTRL_COR);
	rd(m.c4b, TWL4030_PWR_ISR1);
	rd(m.c4b, TWL4030_PWR_ISR1);
	wr(m.c4b, TWL4030_PWR_SIR, 0x88);	/* SC_DETECT and RTC_IT */
	assert_eq(PWR(TWL4030_PWR_ISR1), 0x88);
	assert_eq(PWR(TWL4030_PWR_SIR), 0x00);
	assert_true(twl4030_int1_asserted(m.twl));
	assert_eq(rd(m.c4b, TWL4030_PWR_ISR1), 0x88);
	assert_false(twl4030_int1_asserted(m.twl));
}

static void *presser(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++)
		twl4030_set_pwron(m.twl, !(i & 1));
	return NULL;
}

/* Presses from one thread, COR reads from another: the host hears INT1 change in order. */
UIRQ_TEST(twl4030, concurrent_press_and_reads, MODEL, .timeout = 60)
{
	pthread_t th;

	linux_init();
	wr(m.c4b, TWL4030_PWR_IMR1, 0xfe);
	int n0 = int1_count();

	assert_eq(pthread_create(&th, NULL, presser, NULL), 0);
	for (int i = 0; i < 300; i++)
		rd(m.c4b, TWL4030_PWR_ISR1);
	pthread_join(th, NULL);
	rd(m.c4b, TWL4030_PWR_ISR1);
	rd(m.c4b, TWL4030_PWR_ISR1);
	assert_false(twl4030_int1_asserted(m.twl));
	assert_false(twl4030_get_pwron(m.twl));
	pthread_mutex_lock(&m.log_lock);
	int n = m.int1_n < INT1_LOG_MAX ? m.int1_n : INT1_LOG_MAX;

	for (int i = n0 + 1; i < n; i++)
		assert_ne(m.int1_log[i], m.int1_log[i - 1], "INT1 reported the same level twice at %d", i);
	assert_false(m.int1_log[n - 1], "the last report is the pin's level");
	pthread_mutex_unlock(&m.log_lock);
}

static void reenter(bool asserted, void *arg)
{
	(void)arg;
	/* A listener may look at the chip from its callback. */
	(void)twl4030_int1_asserted(m.twl);
	(void)twl4030_peek(m.twl, TWL4030_ADDR_POWER, TWL4030_PWR_ISR1);
	record_int1(asserted, NULL);
}

UIRQ_TEST(twl4030, callback_may_reenter, MODEL)
{
	twl4030_connect_int1(m.twl, reenter, NULL);
	assert_true(int1_last());
	wr(m.c4b, TWL4030_PWR_IMR1, 0xff);
	assert_false(int1_last());
	twl4030_connect_int1(m.twl, NULL, NULL);
	wr(m.c4b, TWL4030_PWR_IMR1, 0x00);
	assert_false(int1_last(), "disconnected");
}

UIRQ_TEST(twl4030, create_refuses_taken_addresses)
{
	struct uirq_i2c_sim *sim;
	static const struct uirq_i2c_sim_device_ops ops = { 0 };
	struct twl4030 *t = NULL;

	assert_eq(uirq_i2c_sim_new("busy", UIRQ_I2C_SPEED_FAST, &sim), 0);
	assert_not_null(sim);
	assert_eq(twl4030_create(NULL, &t), -EINVAL);
	assert_eq(uirq_i2c_sim_attach(sim, TWL4030_ADDR_AUX, &ops, NULL), 0);
	assert_eq(twl4030_create(sim, &t), -EBUSY);
	/* Nothing half-attached is left behind. */
	assert_eq(uirq_i2c_sim_detach(sim, TWL4030_ADDR_USB), -ENODEV);
	assert_eq(uirq_i2c_sim_detach(sim, TWL4030_ADDR_AUX), 0);
	assert_eq(twl4030_create(sim, &t), 0);
	twl4030_destroy(t);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

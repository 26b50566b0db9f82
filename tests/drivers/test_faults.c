// SPDX-License-Identifier: MIT
/*
 * i2c faults at each step of an edge's handling and of the SIH chip's
 * sync: each is logged with the kernel's words, the host line is not left
 * masked, and the button works again afterwards.
 *
 * One edge costs three transfers in this order: PIH_ISR_P1, PWR_ISR1,
 * STS_HW_CONDITIONS; fail_nth(N) picks the step.
 */
#include "xfer_log.h"

#include "uirq/twl4030.h"


static void press_and_check(int *keys, int want_value)
{
	int vals[64];

	assert_eq(collect(*keys + 1, 1000), *keys + 1, "no event");
	(*keys)++;
	assert_eq(key_values(vals, 64), *keys);
	assert_eq(vals[*keys - 1], want_value);
}

/* PIH read fails: the thread says IRQ_NONE, the line is unmasked, INT1 is still low, the retry delivers. */
FX_TEST(faults, pih_read, fx_mainline, .timeout = 20)
{
	int keys = 0;

	settle();
	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 1, -EIO), 0);
	press();
	press_and_check(&keys, 1);
	assert_eq(log_count("twl4030: I2C error -5 reading PIH ISR"), 1);
	assert_eq(uirq_i2c_sim_faults_injected(fx.sim), 1u);
	release();
	press_and_check(&keys, 0);
	settle();
}

/* PWR_ISR1 read fails: nothing acknowledged, so INT1 stays low and the next PIH run delivers it. */
FX_TEST(faults, sih_read, fx_mainline, .timeout = 20)
{
	int keys = 0;

	settle();
	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 2, -ENXIO), 0);
	press();
	press_and_check(&keys, 1);
	assert_eq(log_count("twl4030: PWR_INT SIH, read ISR error -6"), 1);
	release();
	press_and_check(&keys, 0);
	settle();
}

/* STS_HW_CONDITIONS read fails: logged, nothing reported; the release then matches the state; the next press works. */
FX_TEST(faults, status_read, fx_mainline, .timeout = 20)
{
	int keys = 0;

	settle();
	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 3, -EIO), 0);
	press();
#define PM_MASTER_ERR "twl4030: i2c error -5 while reading TWL4030 PM_MASTER STS_HW_CONDITIONS register"
	VIRTUAL_WAIT(log_count(PM_MASTER_ERR) == 1, 1000);
	assert_eq(log_count(PM_MASTER_ERR), 1);
#undef PM_MASTER_ERR
	settle();
	assert_eq(collect(1, 20), 0, "the failed read reported something");
	release();
	settle();
	assert_eq(collect(1, 20), 0, "a release of a key that is up is dropped");
	press();
	press_and_check(&keys, 1);
	release();
	press_and_check(&keys, 0);
	settle();
}

/* A stuck bus on the status read: -ETIMEDOUT after the adapter timeout, then business as usual. */
FX_TEST(faults, status_read_timeout, fx_mainline, .timeout = 30)
{
	int keys = 0;

	settle();
	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 3, -ETIMEDOUT), 0);
	press();
	VIRTUAL_WAIT(log_count("twl4030: i2c error -110 while reading") == 1, 3000);
	assert_eq(log_count("twl4030: i2c error -110 while reading"), 1);
	settle();
	release();
	settle();
	press();
	press_and_check(&keys, 1);
	release();
	press_and_check(&keys, 0);
}

/* Every transfer to the PIH fails for a while: the host line keeps being retried, never left masked. */
FX_TEST(faults, pih_unreachable_then_back, fx_mainline, .timeout = 20)
{
	int keys = 0;

	settle();
	assert_eq(uirq_i2c_sim_fail_match(fx.sim, TWL4030_ADDR_AUDIO, -1, -EIO), 0);
	press();
	VIRTUAL_WAIT(log_count("twl4030: I2C error -5 reading PIH ISR") >= 3, 1000);
	assert_ge(log_count("twl4030: I2C error -5 reading PIH ISR"), 3);
	assert_eq(collect(1, 10), 0);
	uirq_i2c_sim_clear_faults(fx.sim);
	press_and_check(&keys, 1);
	release();
	press_and_check(&keys, 0);
	settle();
	assert_eq(uirq_irq_get_depth(fx.host_irq), 0u);
}

static void board_and_core(void)
{
	fx_board();
	fx_probe_irq(0);
	settle();
}

/* The IMR write of the button's request fails: logged; PWRON stays masked; the next sync retries it. */
FX_TEST(faults, imr_write, board_and_core, .timeout = 20)
{
	int keys = 0;

	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 1, -EIO), 0);
	fx_probe_pwrbutton(false);
	assert_eq(log_count("twl4030: twl4030_sih_bus_sync_unlock, write --> -5"), 1);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR1), 0xff);
	/* Masked in the chip: the press latches in ISR but INT1 stays high. */
	press();
	msleep(20);
	assert_false(twl4030_int1_asserted(fx.twl));
	assert_eq(collect(1, 10), 0);
	/* Any bus-locked operation on the line syncs again: the latched press comes through. */
	uirq_disable_irq(fx.pwr_irq);
	uirq_enable_irq(fx.pwr_irq);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR1), 0xfe);
	press_and_check(&keys, 1);
	release();
	press_and_check(&keys, 0);
	settle();
}

/* The EDR write fails (EDR cleared beforehand): logged, edges stay off; the retry turns them on. */
FX_TEST(faults, edr_write, board_and_core, .timeout = 20)
{
	struct uirq_i2c_msg msg = { .addr = TWL4030_ADDR_POWER, .len = 3,
				    .buf = (uint8_t[]){ TWL4030_PWR_EDR1, 0x00, 0x00 } };
	int keys = 0;

	/* Another boot state: no edges enabled (a raw write; the twl core owns the clients). */
	assert_eq(uirq_i2c_transfer(uirq_board_i2c(fx.b), &msg, 1), 1);
	/* request_irq's sync: IMR write (1), EDR read (2), EDR write (3). */
	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 3, -EIO), 0);
	fx_probe_pwrbutton(false);
	assert_eq(log_count("twl4030: twl4030_sih_bus_sync_unlock, write --> -5"), 1);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_EDR1), 0x00);
	press();
	msleep(20);
	assert_false(twl4030_int1_asserted(fx.twl), "no edge selected: nothing latched");
	release();
	uirq_disable_irq(fx.pwr_irq);
	uirq_enable_irq(fx.pwr_irq);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_EDR1), 0x03);
	press();
	press_and_check(&keys, 1);
	release();
	press_and_check(&keys, 0);
	settle();
}

/* The EDR read of the read-modify-write fails: nothing is written blind; retried on the next sync. */
FX_TEST(faults, edr_read, board_and_core, .timeout = 20)
{
	int keys = 0;

	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 2, -EIO), 0);
	fx_probe_pwrbutton(false);
	assert_eq(log_count("twl4030: twl4030_sih_bus_sync_unlock, read --> -5"), 1);
	xl_start();
	uirq_disable_irq(fx.pwr_irq);
	uirq_enable_irq(fx.pwr_irq);
	int n = xl_stop();

	assert_eq(n, 2, "the edge change was retried: %d transfers", n);
	press();
	press_and_check(&keys, 1);
	release();
	press_and_check(&keys, 0);
	settle();
}

/* The probe's own init fails: the probe fails cleanly and a second one works. */
FX_TEST(faults, init_write, fx_board, .timeout = 20)
{
	struct twl4030_irq *ti;

	assert_eq(uirq_i2c_sim_fail_nth(fx.sim, 1, -ENXIO), 0);
	assert_eq(twl4030_irq_probe(uirq_board_i2c(fx.b), fx.host_irq, &ti), -ENXIO);
	assert_eq(log_count("twl4030: PWR_INT SIH init failed --> -6"), 1);
	fx_probe_irq(0);
	fx_probe_pwrbutton(false);
	press();
	assert_eq(collect(1, 1000), 1);
	release();
	assert_eq(collect(2, 1000), 2);
}

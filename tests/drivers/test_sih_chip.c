// SPDX-License-Identifier: MIT
/*
 * The PWR_INT SIH irq chip: mask, unmask and set_type only change shadows;
 * IMR and EDR go over i2c in irq_bus_sync_unlock, once per bus-locked
 * operation, from the thread that made it.
 */
#include "xfer_log.h"

#include "uirq/twl4030.h"


static void board_and_core(void)
{
	fx_board();
	fx_probe_irq(0);
}

static void assert_write(int i, uint8_t reg, int len, const uint8_t *data)
{
	assert_eq(xl[i].addr, TWL4030_ADDR_POWER);
	assert_eq(xl[i].reg, reg, "transfer %d: register 0x%02x, want 0x%02x", i, xl[i].reg, reg);
	assert_false(xl[i].read, "transfer %d is a read", i);
	assert_eq(xl[i].len, len);
	for (int j = 0; j < len; j++)
		assert_eq(xl[i].data[j], data[j], "transfer %d byte %d: 0x%02x", i, j, xl[i].data[j]);
}

static void assert_read(int i, uint8_t reg, int len)
{
	assert_eq(xl[i].addr, TWL4030_ADDR_POWER);
	assert_eq(xl[i].reg, reg, "transfer %d: register 0x%02x, want 0x%02x", i, xl[i].reg, reg);
	assert_true(xl[i].read, "transfer %d is a write", i);
	assert_eq(xl[i].len, len);
}

/* The button's request: set_type (EDGE_BOTH) and startup (unmask) reach the chip once, at sync_unlock. */
FX_TEST(sih_chip, request_writes_in_sync_unlock, board_and_core, .timeout = 20)
{
	pid_t me = (pid_t)syscall(SYS_gettid);

	/* Start from EDR all clear so the read-modify-write shows. */
	struct uirq_i2c_client *c;

	assert_eq(uirq_i2c_new_client_device(uirq_board_i2c(fx.b), "test", 0x4b, &c), -EBUSY,
		  "0x4b belongs to the twl core's dummy client");
	assert_null(c);
	settle();
	xl_start();
	fx_probe_pwrbutton(false);
	int n = xl_stop();

	assert_eq(n, 3, "%d transfers", n);
	assert_write(0, TWL4030_PWR_IMR1, 1, (const uint8_t[]){ 0xfe });
	assert_read(1, TWL4030_PWR_EDR1, 2);
	assert_write(2, TWL4030_PWR_EDR1, 2, (const uint8_t[]){ 0xff, 0xff });
	for (int i = 0; i < n; i++)
		assert_eq(xl[i].tid, me, "the chip's bus traffic runs in the caller's thread");
	settle();
}

FX_TEST(sih_chip, set_type_rewrites_only_its_edges, board_and_core, .timeout = 20)
{
	fx_probe_pwrbutton(false);
	settle();
	xl_start();
	assert_eq(uirq_irq_set_irq_type(fx.pwr_irq, UIRQ_TYPE_EDGE_RISING), 0);
	int n = xl_stop();

	assert_eq(n, 2, "%d transfers", n);
	assert_read(0, TWL4030_PWR_EDR1, 2);
	assert_write(1, TWL4030_PWR_EDR1, 2, (const uint8_t[]){ 0xfe, 0xff });
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_EDR1), 0xfe);

	/* Same type again: no change, no traffic. */
	xl_start();
	assert_eq(uirq_irq_set_irq_type(fx.pwr_irq, UIRQ_TYPE_EDGE_RISING), 0);
	assert_eq(xl_stop(), 0);

	/* EDR has no levels: refused, nothing written. */
	xl_start();
	assert_eq(uirq_irq_set_irq_type(fx.pwr_irq, UIRQ_TYPE_LEVEL_HIGH), -EINVAL);
	assert_eq(uirq_irq_set_irq_type(fx.pwr_irq, UIRQ_TYPE_LEVEL_LOW), -EINVAL);
	assert_eq(xl_stop(), 0);
	assert_eq(uirq_irq_get_trigger_type(fx.pwr_irq), UIRQ_TYPE_EDGE_RISING);

	/* Rising only: a press is reported, its release is never seen by the chip. */
	press();
	assert_eq(collect(1, 1000), 1);
	release();
	settle();
	assert_eq(collect(2, 50), 1);
	assert_true(uirq_input_key_pressed(twl4030_pwrbutton_input(fx.pwr), KEY_POWER));

	/* Another child's type touches its own two bits only (CHG_PRES, EDR1 [3:2]). */
	unsigned int chg = twl4030_irq_base(fx.ti) + 9;

	xl_start();
	assert_eq(uirq_irq_set_irq_type(chg, UIRQ_TYPE_EDGE_FALLING), 0);
	assert_eq(xl_stop(), 2);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_EDR1), 0xf6);
}

FX_TEST(sih_chip, disable_enable_free, board_and_core, .timeout = 20)
{
	fx_probe_pwrbutton(false);
	settle();
	/* Lazy disable: the line is only marked; nothing reaches the chip. */
	xl_start();
	uirq_disable_irq(fx.pwr_irq);
	uirq_enable_irq(fx.pwr_irq);
	assert_eq(xl_stop(), 0);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR1), 0xfe);

	/* An edge while disabled: the nested flow only marks it pending; no chip traffic. */
	uirq_disable_irq(fx.pwr_irq);
	xl_start();
	press();
	assert_true(VIRTUAL_WAIT(!twl4030_int1_asserted(fx.twl) && !host_masked(), 1000));
	msleep(20);
	int n = xl_stop();

	/*
	 * The demux reads: PIH_ISR_P1 then PWR_ISR1, nothing written, no status
	 * read.  A loaded host may add a PIH read that finds nothing: INT1's
	 * fall reaches the level host line from the transfer's thread, after
	 * the oneshot unmask, which can re-raise it once (a spurious run, as on
	 * real hardware).  Seen 1 run in 10 on a busy 2-core VM, before and
	 * after the deterministic mode came in.
	 */
	assert_ge(n, 2, "%d transfers", n);
	assert_true(xl[0].read, "transfer 0: 0x%02x reg 0x%02x", xl[0].addr, xl[0].reg);
	assert_eq(xl[0].addr, TWL4030_ADDR_AUDIO, "transfer 0: 0x%02x reg 0x%02x", xl[0].addr, xl[0].reg);
	assert_eq(xl[0].reg, TWL4030_PIH_ISR_P1, "transfer 0: 0x%02x reg 0x%02x", xl[0].addr, xl[0].reg);
	assert_true(xl[1].read, "transfer 1: 0x%02x reg 0x%02x", xl[1].addr, xl[1].reg);
	assert_eq(xl[1].addr, TWL4030_ADDR_POWER, "transfer 1: 0x%02x reg 0x%02x", xl[1].addr, xl[1].reg);
	assert_eq(xl[1].reg, TWL4030_PWR_ISR1, "transfer 1: 0x%02x reg 0x%02x", xl[1].addr, xl[1].reg);
	for (int i = 2; i < n; i++) {
#define SIH_XFER_MSG "transfer %d: 0x%02x reg 0x%02x %s 0x%02x: only a spurious PIH read may follow", i, \
		     xl[i].addr, xl[i].reg, xl[i].read ? "read" : "write", xl[i].data[0]
		assert_true(xl[i].read, SIH_XFER_MSG);
		assert_eq(xl[i].addr, TWL4030_ADDR_AUDIO, SIH_XFER_MSG);
		assert_eq(xl[i].reg, TWL4030_PIH_ISR_P1, SIH_XFER_MSG);
		assert_eq(xl[i].data[0], 0, SIH_XFER_MSG);
#undef SIH_XFER_MSG
	}
	assert_eq(collect(1, 20), 0);
	/* The enable retriggers the pending edge through PWR_SIR, written at sync_unlock. */
	xl_start();
	uirq_enable_irq(fx.pwr_irq);
	n = xl_stop();
	assert_ge(n, 1);
	assert_write(0, TWL4030_PWR_SIR, 1, (const uint8_t[]){ 0x01 });
	assert_eq(collect(1, 1000), 1);
	release();
	assert_eq(collect(2, 1000), 2);
	settle();

	/* free_irq shuts the line down: one IMR write, masking PWRON. */
	xl_start();
	twl4030_pwrbutton_remove(fx.pwr);
	fx.pwr = NULL;
	n = xl_stop();
	assert_eq(n, 1, "%d transfers", n);
	assert_write(0, TWL4030_PWR_IMR1, 1, (const uint8_t[]){ 0xff });
	uirq_input_close(fx.client);
	fx.client = NULL;
}

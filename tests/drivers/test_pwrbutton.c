// SPDX-License-Identifier: MIT
/*
 * The mainline drivers on the default board: probe, every press and release
 * delivered once and in order, the level-reporting behaviour the kernel
 * defines for short presses and merged edges, and the /proc view.
 */
#include "fixture.h"


#include "uirq/twl4030.h"


FX_TEST(pwrbutton, probe_sets_up_the_chip, fx_mainline, .timeout = 20)
{
	char want[128];

#ifdef FX_UPSTREAM
	/*
	 * The kernel's own lines, twl4030_init_irq()'s and twl4030_sih_setup()'s
	 * dev_info()s on the chip's device ("twl" bound to the i2c client
	 * N-0048).  The PIH's end is irq_end, one past its last line: the
	 * kernel prints it so.
	 */
	snprintf(want, sizeof(want), "-0048: PIH (irq %u) chaining IRQs %u..%u\n", fx.host_irq, fx_irq_base(),
		 fx_irq_base() + 8);
	assert_eq(log_count(want), 1, "probe line '%s' missing", want);
	snprintf(want, sizeof(want), "-0048: power (irq %u) chaining IRQs %u..%u\n", fx_irq_base() + 5,
		 fx_irq_base() + 8, fx_irq_base() + 15);
	assert_eq(log_count(want), 1, "probe line '%s' missing", want);
	assert_eq(log_count("twl "), 2, "the chip's messages name its driver");
#else
	snprintf(want, sizeof(want), "twl4030: PIH (irq %u) nested IRQs %u..%u", fx.host_irq,
		 fx_irq_base(), fx_irq_base() + TWL4030_NR_IRQS - 1);
	assert_eq(log_count(want), 1, "probe line '%s' missing", want);
	assert_eq(log_count("input: twl4030_pwrbutton as twl4030_pwrbutton/input0"), 1);
	assert_false(twl4030_irq_is_legacy(fx.ti));
#endif
	/* Linux's init, then the button's request: PWRON unmasked on INT1, both edges. */
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_SIH_CTRL), TWL4030_SIH_CTRL_COR);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR1), 0xfe);
#ifdef FX_UPSTREAM
	/*
	 * The kernel masks its own line only (irq_line 0: IMR1) and leaves
	 * INT2's mask at its reset value; the project's driver masks both.
	 */
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR2), 0x00);
#else
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR2), 0xff);
#endif
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_EDR1) & 0x03, 0x03);
	assert_eq(twl4030_peek(fx.twl, TWL4030_ADDR_POWER, TWL4030_PWR_ISR1), 0x00,
		     "the boot-time PWRON was flushed");
	assert_eq(uirq_irq_get_trigger_type(fx.pwr_irq), UIRQ_TYPE_EDGE_BOTH);
	assert_eq(uirq_irq_get_trigger_type(fx.host_irq), UIRQ_TYPE_LEVEL_LOW);
	settle();
	assert_eq(collect(1, 30), 0, "no event without a press");
	struct uirq_input_dev *dev = fx_input();

	assert_str_eq(dev->name, "twl4030_pwrbutton");
	assert_str_eq(dev->phys, "twl4030_pwrbutton/input0");
}

/* Each press and release outlasting the handling latency arrives exactly once, in order. */
FX_TEST(pwrbutton, press_release_cycles, fx_mainline, .timeout = 60)
{
	const int cycles = 20;
	const double hold = 5;
	int vals[64];

	/*
	 * Each hold lasts 5 ms (virtual), or until its event was read: the
	 * point is that every press outlasting the handling latency is seen
	 * once.  Reading as they come also keeps the client's 64-event buffer
	 * from overflowing.
	 */
	for (int i = 0; i < cycles; i++) {
		double t = now_ms();

		press();
		assert_eq(collect(2 * i + 1, 1000), 2 * i + 1, "press %d", i);
		msleep(hold - (now_ms() - t));
		t = now_ms();
		release();
		assert_eq(collect(2 * i + 2, 1000), 2 * i + 2, "release %d", i);
		msleep(hold - (now_ms() - t));
	}
	assert_eq(collect(2 * cycles, 2000), 2 * cycles, "got %d key events", key_events());
	settle();
	collect(2 * cycles + 1, 20);
	assert_eq(key_values(vals, 64), 2 * cycles);
	for (int i = 0; i < 2 * cycles; i++)
		assert_eq(vals[i], !(i & 1), "event %d has value %d", i, vals[i]);
	/* Events are stamped in order. */
	for (int i = 1; i < nev; i++)
		assert_true(timercmp(&evs[i - 1].time, &evs[i].time, <=));
	assert_false(uirq_input_key_pressed(fx_input(), KEY_POWER));
	assert_ge(uirq_kstat_irqs(fx.host_irq), (unsigned long)(2 * cycles));
	assert_eq(uirq_kstat_irqs(fx.pwr_irq), (unsigned long)(2 * cycles),
		     "one nested run per edge");
}

/*
 * A press and release that both end before the status read: the driver
 * reads "released", the key is already up, the input core drops it.  The
 * added controller delay makes it deterministic: the status read is the
 * third transfer of the edge, so it starts at least two delays after it.
 */
FX_TEST(pwrbutton, short_press_gives_no_event, fx_mainline, .timeout = 20)
{
	const double delay = 30;	/* virtual ms: no host is too slow for it */
	int vals[4];

	settle();
	uirq_i2c_sim_set_delay(fx.sim, (uint64_t)(delay * 1e6));
	press();
	msleep(delay / 3);
	release();
	msleep(delay * 8);
	settle();
	uirq_i2c_sim_set_delay(fx.sim, 0);
	assert_eq(collect(1, 50), 0, "a press shorter than the handling produced an event");
	assert_ge(uirq_kstat_irqs(fx.pwr_irq), 1ul, "but the edge was handled");
	/* The next press is seen. */
	press();
	assert_eq(collect(1, 1000), 1);
	release();
	assert_eq(collect(2, 1000), 2);
	assert_eq(key_values(vals, 4), 2);
	assert_eq(vals[0], 1);
	assert_eq(vals[1], 0);
}

/* Press, release, press inside one handling: the edges merge, one event (the level read). */
FX_TEST(pwrbutton, merged_edges_give_one_event, fx_mainline, .timeout = 20)
{
	const double delay = 30;	/* virtual ms: no host is too slow for it */
	int vals[4];

	settle();
	uirq_i2c_sim_set_delay(fx.sim, (uint64_t)(delay * 1e6));
	press();
	msleep(delay / 4);
	release();
	msleep(delay / 4);
	press();
	msleep(delay * 8);
	settle();
	uirq_i2c_sim_set_delay(fx.sim, 0);
	assert_eq(collect(2, 50), 1);
	release();
	assert_eq(collect(2, 1000), 2);
	assert_eq(key_values(vals, 4), 2);
	assert_eq(vals[0], 1);
	assert_eq(vals[1], 0);
}


FX_TEST(pwrbutton, proc_interrupts_and_threads, fx_mainline, .timeout = 20)
{
	char *buf = NULL, thread[32];
	size_t len = 0;
	FILE *f;

	press();
	assert_eq(collect(1, 1000), 1);
	release();
	assert_eq(collect(2, 1000), 2);
	f = open_memstream(&buf, &len);
	assert_not_null(f);
	uirq_show_interrupts(f);
	fclose(f);
	fputs(buf, stderr);
	assert_not_null(strstr(buf, "TWL4030-PIH"));
	assert_not_null(strstr(buf, "twl4030_pwrbutton"));
#ifdef FX_UPSTREAM
	assert_not_null(strstr(buf, "twl4030_power"));	/* the kernel's kasprintf("twl4030_%s", sih->name) */
#else
	assert_not_null(strstr(buf, "twl4030_sih"));
#endif
	assert_not_null(strstr(buf, "INTC"));
	free(buf);
	/* The PIH has a handler thread; the nested SIH and button run in it and have none. */
	snprintf(thread, sizeof(thread), "irq/%u-TWL4030", fx.host_irq);
	assert_gt(harness_find_task(thread, true), 0, "no %s thread", thread);
	snprintf(thread, sizeof(thread), "irq/%u-", fx.pwr_irq);
	assert_eq(harness_find_task(thread, true), -1, "a nested line got a thread");
}

#ifndef FX_UPSTREAM
/* The project's drivers only: their legacy forms and their probe's arguments. */

/* The seed patch's request_irq() on today's nested lines: refused, as the kernel does. */
FX_TEST(pwrbutton, seed_patch_refused_on_nested_lines, fx_board, .timeout = 20)
{
	fx_probe_irq(0);
	assert_eq(twl4030_pwrbutton_probe(uirq_board_i2c(fx.b), fx.pwr_irq, true, &fx.pwr), -EINVAL);
	fx.pwr = NULL;
	assert_eq(log_count("twl4030_pwrbutton: Can't get IRQ for pwrbutton: -22"), 1);
	/* Nothing half-probed stays behind: the mainline driver probes fine after it. */
	fx_probe_pwrbutton(false);
	press();
	assert_eq(collect(1, 1000), 1);
	release();
	assert_eq(collect(2, 1000), 2);
}

/* The threaded driver is right on the 2.6.30 dispatch too: its read runs in its own thread. */
FX_TEST(pwrbutton, mainline_button_on_legacy_core, fx_board, .timeout = 20)
{
	char thread[32];
	int vals[8];

	fx_probe_irq(TWL4030_IRQ_LEGACY);
	assert_true(twl4030_irq_is_legacy(fx.ti));
	fx_probe_pwrbutton(false);
	snprintf(thread, sizeof(thread), "irq/%u-twl4030", fx.pwr_irq);
	assert_gt(harness_find_task(thread, true), 0, "no %s thread", thread);
	for (int i = 0; i < 3; i++) {
		press();
		assert_eq(collect(2 * i + 1, 1000), 2 * i + 1);
		release();
		assert_eq(collect(2 * i + 2, 1000), 2 * i + 2);
	}
	settle();
	assert_eq(key_values(vals, 8), 6);
}

FX_TEST(pwrbutton, probe_rejects_bad_arguments, fx_board, .timeout = 20)
{
	struct twl4030_irq *ti;
	struct twl4030_pwrbutton *pwr;

	assert_eq(twl4030_irq_probe(NULL, fx.host_irq, &ti), -EINVAL);
	assert_eq(twl4030_irq_probe_flags(uirq_board_i2c(fx.b), fx.host_irq, 0x80, &ti), -EINVAL);
	assert_eq(twl4030_pwrbutton_probe(NULL, 1, false, &pwr), -EINVAL);
	/* A host irq that does not exist: the request fails and everything is undone. */
	assert_eq(twl4030_irq_probe(uirq_board_i2c(fx.b), 60000, &ti), -EINVAL);
	fx_probe_irq(0);
	fx_probe_pwrbutton(false);
	press();
	assert_eq(collect(1, 1000), 1);
	release();
	assert_eq(collect(2, 1000), 2);
}
#endif

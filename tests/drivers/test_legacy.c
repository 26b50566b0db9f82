// SPDX-License-Identifier: MIT
/*
 * The 2009 seed patch's power button on the 2.6.30 dispatch: its handler
 * reads the status over i2c in (faked) hard-irq context, so the first press
 * produces the might_sleep report and lockdep's inconsistent-lock-state
 * report for the adapter's bus lock.  The mainline form produces none.
 */
#include "fixture.h"

static void press_release(int *keys)
{
	press();
	assert_eq(collect(*keys + 1, 1000), *keys + 1);
	release();
	assert_eq(collect(*keys + 2, 1000), *keys + 2);
	*keys += 2;
}

static bool reported_in_an_earlier_run;

FX_TEST(legacy, first_press_reports, fx_legacy, .timeout = 20)
{
	int keys = 0, vals[8];

	assert_true(twl4030_irq_is_legacy(fx.ti));
	assert_eq(log_count("hard-irq handler (2009 seed patch)"), 1);
	settle();
	assert_eq(reports(-1), 0, "nothing before the first press:\n%s", rep.text);

	press_release(&keys);
	/* Once in a process, as the kernel's: the seeded runs after the first see none. */
	if (!reported_in_an_earlier_run) {
		assert_ge(reports(UIRQ_REPORT_SLEEP_INVALID), 1);
		assert_ge(reports(UIRQ_REPORT_INCONSISTENT), 1);
		assert_true(report_text_has("BUG: sleeping function called from invalid context"));
		assert_true(report_text_has("twl4030-pwrbutton.c:"), "reported at the handler's read");
		assert_true(report_text_has("inconsistent lock state"));
		assert_true(report_text_has("bus_lock"), "the adapter's bus lock is named");
		assert_true(report_text_has("IN-HARDIRQ"));
	} else {
		assert_eq(reports(-1), 0, "reported again in a later run:\n%s", rep.text);
	}
	reported_in_an_earlier_run = true;

	/* Each problem is reported once; the button still works (user space survives the sleep). */
	int n = reports(-1);

	press_release(&keys);
	press_release(&keys);
	assert_eq(reports(-1), n, "reported again:\n%s", rep.text);
	settle();
	assert_eq(key_values(vals, 8), 6);
	for (int i = 0; i < 6; i++)
		assert_eq(vals[i], !(i & 1));
}

/* The same presses through the mainline drivers: not a word from lockdep. */
FX_TEST(legacy, mainline_is_clean, fx_mainline, .timeout = 20)
{
	int keys = 0;

	for (int i = 0; i < 5; i++)
		press_release(&keys);
	settle();
	assert_eq(reports(-1), 0, "%s", rep.text);
}

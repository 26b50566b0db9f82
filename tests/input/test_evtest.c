// SPDX-License-Identifier: MIT
/* evtest's line format, character for character, and the name tables. */
#include "io_reports.h"
#include "uirq/input.h"

#define OPTS .timeout = 10, .init = io_reports_start

static const char *fmt(unsigned int type, unsigned int code, int value, long sec, long usec)
{
	static char buf[160];
	struct uirq_input_event ev = {
		.time = { .tv_sec = sec, .tv_usec = usec }, .type = (uint16_t)type, .code = (uint16_t)code,
		.value = value,
	};
	int n = uirq_input_format_event(&ev, buf, sizeof(buf));

	assert_eq((size_t)n, strlen(buf));
	return buf;
}

UIRQ_TEST(evtest, key_power_line, OPTS)
{
	assert_str_eq(fmt(EV_KEY, KEY_POWER, 1, 1234, 56),
			 "Event: time 1234.000056, type 1 (EV_KEY), code 116 (KEY_POWER), value 1");
	assert_str_eq(fmt(EV_KEY, KEY_POWER, 0, 0, 999999),
			 "Event: time 0.999999, type 1 (EV_KEY), code 116 (KEY_POWER), value 0");
}

UIRQ_TEST(evtest, syn_lines, OPTS)
{
	assert_str_eq(fmt(EV_SYN, SYN_REPORT, 0, 1234, 56),
			 "Event: time 1234.000056, -------------- SYN_REPORT ------------");
	assert_str_eq(fmt(EV_SYN, SYN_DROPPED, 0, 7, 0),
			 "Event: time 7.000000, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<");
	assert_str_eq(fmt(EV_SYN, SYN_MT_REPORT, 0, 7, 0),
			 "Event: time 7.000000, ++++++++++++++ SYN_MT_REPORT ++++++++++++");
	assert_str_eq(fmt(EV_SYN, 9, 0, 7, 0), "Event: time 7.000000, -------------- ? ------------");
}

UIRQ_TEST(evtest, msc_scan_in_hex_and_unknowns, OPTS)
{
	assert_str_eq(fmt(EV_MSC, MSC_SCAN, 0x74, 1, 2),
			 "Event: time 1.000002, type 4 (EV_MSC), code 4 (MSC_SCAN), value 74");
	assert_str_eq(fmt(EV_MSC, MSC_SERIAL, 10, 1, 2),
			 "Event: time 1.000002, type 4 (EV_MSC), code 0 (MSC_SERIAL), value 10");
	assert_str_eq(fmt(EV_KEY, 0x2ff, 1, 1, 2),
			 "Event: time 1.000002, type 1 (EV_KEY), code 767 (?), value 1");
	assert_str_eq(fmt(0x1e, 3, -1, 1, 2),
			 "Event: time 1.000002, type 30 (?), code 3 (?), value -1");
}

/* A touchscreen's lines, as evtest prints a multi-touch device's. */
UIRQ_TEST(evtest, abs_and_mt_lines, OPTS)
{
	assert_str_eq(fmt(EV_ABS, ABS_MT_SLOT, 1, 3, 4),
			 "Event: time 3.000004, type 3 (EV_ABS), code 47 (ABS_MT_SLOT), value 1");
	assert_str_eq(fmt(EV_ABS, ABS_MT_TRACKING_ID, -1, 3, 4),
			 "Event: time 3.000004, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1");
	assert_str_eq(fmt(EV_ABS, ABS_MT_POSITION_X, 800, 3, 4),
			 "Event: time 3.000004, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 800");
	assert_str_eq(fmt(EV_ABS, ABS_Z, -1000, 3, 4),
			 "Event: time 3.000004, type 3 (EV_ABS), code 2 (ABS_Z), value -1000");
	assert_str_eq(fmt(EV_KEY, BTN_TOUCH, 1, 3, 4),
			 "Event: time 3.000004, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1");
	assert_str_eq(uirq_input_code_name(EV_KEY, BTN_TOOL_DOUBLETAP), "BTN_TOOL_DOUBLETAP");
	assert_str_eq(uirq_input_code_name(EV_ABS, ABS_MT_TOOL_Y), "ABS_MT_TOOL_Y");
}

UIRQ_TEST(evtest, names, OPTS)
{
	assert_str_eq(uirq_input_type_name(EV_SYN), "EV_SYN");
	assert_str_eq(uirq_input_type_name(EV_KEY), "EV_KEY");
	assert_str_eq(uirq_input_type_name(EV_MSC), "EV_MSC");
	assert_str_eq(uirq_input_type_name(EV_MAX + 1), "?");
	assert_str_eq(uirq_input_code_name(EV_KEY, KEY_POWER), "KEY_POWER");
	assert_str_eq(uirq_input_code_name(EV_SYN, SYN_REPORT), "SYN_REPORT");
	assert_str_eq(uirq_input_code_name(EV_SW, SW_LID), "SW_LID");
	assert_str_eq(uirq_input_code_name(EV_KEY, KEY_CNT + 5), "?");
	assert_str_eq(uirq_input_code_name(EV_LED, 0), "?");
}

UIRQ_TEST(evtest, truncation_follows_snprintf, OPTS)
{
	struct uirq_input_event ev = { .type = EV_SYN, .code = SYN_REPORT };
	char small[8];
	int n = uirq_input_format_event(&ev, small, sizeof(small));

	assert_eq(n, (int)strlen("Event: time 0.000000, -------------- SYN_REPORT ------------"));
	assert_str_eq(small, "Event: ");
}

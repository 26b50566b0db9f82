// SPDX-License-Identifier: MIT
/*
 * Events as evtest prints them, so output from uirq can be compared line by
 * line with a capture from a real device.  Names come from the codes' own
 * macro spellings; codes without one here print "?", as evtest does for
 * codes it does not know.
 */
#include <stdio.h>

#include "uirq/input.h"

#define NAME(c) [c] = #c

static const char *const type_names[EV_CNT] = {
	NAME(EV_SYN), NAME(EV_KEY), NAME(EV_REL), NAME(EV_ABS), NAME(EV_MSC), NAME(EV_SW),
	NAME(EV_LED), NAME(EV_SND), NAME(EV_REP), NAME(EV_FF), NAME(EV_PWR), NAME(EV_FF_STATUS),
};

static const char *const syn_names[SYN_CNT] = {
	NAME(SYN_REPORT), NAME(SYN_CONFIG), NAME(SYN_MT_REPORT), NAME(SYN_DROPPED),
};

/* The keys a PMIC, a phone or a test is likely to report. */
static const char *const key_names[KEY_CNT] = {
	NAME(KEY_RESERVED), NAME(KEY_ESC), NAME(KEY_1), NAME(KEY_2), NAME(KEY_3), NAME(KEY_4),
	NAME(KEY_5), NAME(KEY_6), NAME(KEY_7), NAME(KEY_8), NAME(KEY_9), NAME(KEY_0),
	NAME(KEY_BACKSPACE), NAME(KEY_TAB), NAME(KEY_ENTER), NAME(KEY_SPACE),
	NAME(KEY_A), NAME(KEY_B), NAME(KEY_C), NAME(KEY_UP), NAME(KEY_DOWN), NAME(KEY_LEFT),
	NAME(KEY_RIGHT), NAME(KEY_HOME), NAME(KEY_END), NAME(KEY_MUTE), NAME(KEY_VOLUMEDOWN),
	NAME(KEY_VOLUMEUP), NAME(KEY_POWER), NAME(KEY_MENU), NAME(KEY_SLEEP), NAME(KEY_WAKEUP),
	NAME(KEY_BACK), NAME(KEY_CAMERA), NAME(KEY_SUSPEND), NAME(KEY_BATTERY), NAME(KEY_POWER2),
	NAME(BTN_0), NAME(BTN_1), NAME(BTN_LEFT), NAME(BTN_RIGHT), NAME(BTN_MIDDLE),
	NAME(BTN_TOUCH), NAME(BTN_TOOL_FINGER), NAME(BTN_TOOL_DOUBLETAP), NAME(BTN_TOOL_TRIPLETAP),
	NAME(BTN_TOOL_QUADTAP), NAME(BTN_TOOL_QUINTTAP),
};

static const char *const rel_names[REL_CNT] = {
	NAME(REL_X), NAME(REL_Y), NAME(REL_Z), NAME(REL_HWHEEL), NAME(REL_WHEEL),
};

/* A touchscreen's, an accelerometer's and the multi-touch slots' axes. */
static const char *const abs_names[ABS_CNT] = {
	NAME(ABS_X), NAME(ABS_Y), NAME(ABS_Z), NAME(ABS_RX), NAME(ABS_RY), NAME(ABS_RZ),
	NAME(ABS_PRESSURE), NAME(ABS_DISTANCE), NAME(ABS_MT_SLOT), NAME(ABS_MT_TOUCH_MAJOR),
	NAME(ABS_MT_TOUCH_MINOR), NAME(ABS_MT_WIDTH_MAJOR), NAME(ABS_MT_WIDTH_MINOR),
	NAME(ABS_MT_ORIENTATION), NAME(ABS_MT_POSITION_X), NAME(ABS_MT_POSITION_Y),
	NAME(ABS_MT_TOOL_TYPE), NAME(ABS_MT_BLOB_ID), NAME(ABS_MT_TRACKING_ID), NAME(ABS_MT_PRESSURE),
	NAME(ABS_MT_DISTANCE), NAME(ABS_MT_TOOL_X), NAME(ABS_MT_TOOL_Y),
};

static const char *const msc_names[MSC_CNT] = {
	NAME(MSC_SERIAL), NAME(MSC_PULSELED), NAME(MSC_GESTURE), NAME(MSC_RAW), NAME(MSC_SCAN),
	NAME(MSC_TIMESTAMP),
};

static const char *const sw_names[SW_CNT] = {
	NAME(SW_LID), NAME(SW_TABLET_MODE), NAME(SW_HEADPHONE_INSERT), NAME(SW_RFKILL_ALL),
	NAME(SW_MICROPHONE_INSERT), NAME(SW_DOCK), NAME(SW_LINEOUT_INSERT),
	NAME(SW_CAMERA_LENS_COVER), NAME(SW_KEYPAD_SLIDE),
};

static const char *lookup(const char *const *table, unsigned int count, unsigned int i)
{
	return i < count && table[i] ? table[i] : "?";
}

const char *uirq_input_type_name(unsigned int type)
{
	return lookup(type_names, EV_CNT, type);
}

const char *uirq_input_code_name(unsigned int type, unsigned int code)
{
	switch (type) {
	case EV_SYN:
		return lookup(syn_names, SYN_CNT, code);
	case EV_KEY:
		return lookup(key_names, KEY_CNT, code);
	case EV_REL:
		return lookup(rel_names, REL_CNT, code);
	case EV_ABS:
		return lookup(abs_names, ABS_CNT, code);
	case EV_MSC:
		return lookup(msc_names, MSC_CNT, code);
	case EV_SW:
		return lookup(sw_names, SW_CNT, code);
	default:
		return "?";
	}
}

int uirq_input_format_event(const struct uirq_input_event *ev, char *buf, size_t size)
{
	long sec = (long)ev->time.tv_sec, usec = (long)ev->time.tv_usec;
	const char *code = uirq_input_code_name(ev->type, ev->code);

	if (ev->type == EV_SYN) {
		const char *open = "--------------", *close = "------------";

		if (ev->code == SYN_MT_REPORT)
			open = "++++++++++++++", close = "++++++++++++";
		else if (ev->code == SYN_DROPPED)
			open = ">>>>>>>>>>>>>>", close = "<<<<<<<<<<<<";
		return snprintf(buf, size, "Event: time %ld.%06ld, %s %s %s", sec, usec, open, code, close);
	}
	/* evtest shows raw and scan codes in hex. */
	if (ev->type == EV_MSC && (ev->code == MSC_RAW || ev->code == MSC_SCAN))
		return snprintf(buf, size, "Event: time %ld.%06ld, type %u (%s), code %u (%s), value %02x",
				sec, usec, ev->type, uirq_input_type_name(ev->type), ev->code, code,
				(unsigned int)ev->value);
	return snprintf(buf, size, "Event: time %ld.%06ld, type %u (%s), code %u (%s), value %d",
			sec, usec, ev->type, uirq_input_type_name(ev->type), ev->code, code, ev->value);
}

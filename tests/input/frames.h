/* SPDX-License-Identifier: MIT */
/*
 * What an evdev-style client of a test's device read, compared with the
 * sequence a test expects: each event's type, code and value in order,
 * written as the kernel's documentation writes them (ABS_MT_SLOT 1,
 * ABS_MT_TRACKING_ID -1, SYN_REPORT, ...).
 */
#ifndef UIRQ_TESTS_INPUT_FRAMES_H
#define UIRQ_TESTS_INPUT_FRAMES_H

#include <errno.h>
#include <stdio.h>

#include "harness.h"
#include "io_reports.h"
#include "uirq/input.h"

struct want {
	unsigned int type, code;
	int value;
};

#define SYN		{ EV_SYN, SYN_REPORT, 0 }
#define ABS(c, v)	{ EV_ABS, (c), (v) }
#define KEY(c, v)	{ EV_KEY, (c), (v) }

/* Everything client c can read now, without waiting (at most max). */
static inline int frames_drain(struct uirq_input_client *c, struct uirq_input_event *ev, int max)
{
	int n = uirq_input_read(c, ev, max, UIRQ_INPUT_NONBLOCK);

	return n == -EAGAIN ? 0 : n;
}

/*
 * Everything c has now, read into ev (max events): whole frames, each
 * closed by SYN_REPORT, none lost (no SYN_DROPPED).  The count.
 */
static inline int frames_read_whole(struct uirq_input_client *c, struct uirq_input_event *ev, int max)
{
	int n = 0, got;

	while (n < max && (got = frames_drain(c, ev + n, max - n)) > 0)
		n += got;
	for (int i = 0; i < n; i++)
		assert_false(ev[i].type == EV_SYN && ev[i].code == SYN_DROPPED, "event %d: SYN_DROPPED", i);
	assert_true(n == 0 || (ev[n - 1].type == EV_SYN && ev[n - 1].code == SYN_REPORT),
		    "the last of %d events closes a frame", n);
	return n;
}

/* The test's end: its client closed, its device unregistered, lockdep silent all along. */
static inline void frames_done(struct uirq_input_client *c, struct uirq_input_dev *d)
{
	uirq_input_close(c);
	uirq_input_unregister_device(d);
	assert_no_reports();
}

/* Read and forget everything c has now. */
static inline void frames_discard(struct uirq_input_client *c)
{
	struct uirq_input_event ev[256];

	while (frames_drain(c, ev, 256) > 0)
		;
}

/* What c reads now is exactly want[0 .. n - 1]; line names the caller's expectation. */
static inline void frames_expect(struct uirq_input_client *c, const struct want *want, int n, int line)
{
	struct uirq_input_event ev[1024];
	int got = frames_drain(c, ev, 1024);

	for (int i = 0; i < got && i < n; i++) {
		char g[160], w[160];

		snprintf(g, sizeof(g), "%s %s %d", uirq_input_type_name(ev[i].type),
			 uirq_input_code_name(ev[i].type, ev[i].code), ev[i].value);
		snprintf(w, sizeof(w), "%s %s %d", uirq_input_type_name(want[i].type),
			 uirq_input_code_name(want[i].type, want[i].code), want[i].value);
#define FRAMES_EVENT_MSG "line %d, event %d: read %s (code %u), want %s (code %u)", line, i, g, ev[i].code, w, want[i].code
		assert_eq(ev[i].type, want[i].type, FRAMES_EVENT_MSG);
		assert_eq(ev[i].code, want[i].code, FRAMES_EVENT_MSG);
		assert_eq(ev[i].value, want[i].value, FRAMES_EVENT_MSG);
#undef FRAMES_EVENT_MSG
	}
	assert_eq(got, n, "line %d: events read", line);
}

/* EXPECT(client, { type, code, value }...): exactly these events are readable now. */
#define EXPECT(c, ...)								\
	do {									\
		static const struct want want_[] = { __VA_ARGS__ };		\
		frames_expect((c), want_, (int)(sizeof(want_) / sizeof(want_[0])), __LINE__); \
	} while (0)

/* Nothing is readable now. */
#define EXPECT_NOTHING(c)	frames_expect((c), NULL, 0, __LINE__)

#endif

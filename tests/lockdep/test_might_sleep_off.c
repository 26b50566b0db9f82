// SPDX-License-Identifier: MIT
/* lockdep compiled out: might_sleep() still reports (to stderr), stats read as zero. */
#include <unistd.h>

#include "harness.h"
#include "uirq/context.h"
#include "uirq/lockdep.h"
#include "uirq/might_sleep.h"

/* Capture stderr into a pipe around fn; returns what was written. */
static const char *capture(void (*fn)(void))
{
	static char buf[16384];
	int p[2], saved = dup(2);
	ssize_t n;

	if (pipe(p))
		return "";
	dup2(p[1], 2);
	fn();
	dup2(saved, 2);
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	close(p[0]);
	close(saved);
	return buf;
}

static void sleep_atomic(void)
{
	uirq_preempt_disable();
	uirq_might_sleep();
	uirq_might_sleep();
	uirq_preempt_enable();
}

UIRQ_TEST(might_sleep_off, still_reports, .timeout = 10)
{
	const char *out = capture(sleep_atomic);

	assert_not_null(strstr(out, "BUG: sleeping function called from invalid context at "));
	assert_not_null(strstr(out, "in_atomic(): 1, irqs_disabled(): 0"));
	assert_not_null(strstr(out, "Call Trace:"));
}

UIRQ_TEST(might_sleep_off, stats_are_zero, .timeout = 10)
{
	struct uirq_lockdep_stats st;

	memset(&st, 0xff, sizeof(st));
	uirq_lockdep_get_stats(&st);
	assert_eq(st.classes, 0);
	assert_eq(st.reports, 0);
	assert_eq(uirq_debug_locks, 0);
}

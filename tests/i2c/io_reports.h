/* SPDX-License-Identifier: MIT */
/*
 * The i2c and input tests' lockdep watch: a report handler that records
 * every report, so a test can assert the ones it expects and no others.
 */
#ifndef UIRQ_TESTS_IO_REPORTS_H
#define UIRQ_TESTS_IO_REPORTS_H

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "uirq/lockdep.h"

static struct {
	int n;
	int by_kind[UIRQ_REPORT_NR_KINDS];
	char headlines[8][256];
	char text[1 << 16];
	size_t len;
} io_rec;

/* Runs under lockdep's graph lock: plain memory only. */
static void io_rec_handler(const struct uirq_lockdep_report *r, void *arg)
{
	size_t n = strlen(r->text);

	(void)arg;
	if (io_rec.n < 8)
		snprintf(io_rec.headlines[io_rec.n], sizeof(io_rec.headlines[0]), "%s", r->headline);
	io_rec.n++;
	io_rec.by_kind[r->kind]++;
	if (io_rec.len + n + 1 < sizeof(io_rec.text)) {
		memcpy(io_rec.text + io_rec.len, r->text, n + 1);
		io_rec.len += n;
	}
}

/* Install the recorder; every test's .init. */
static inline void io_reports_start(void)
{
	memset(&io_rec, 0, sizeof(io_rec));
	uirq_lockdep_set_report_handler(io_rec_handler, NULL);
}

#define assert_no_reports() \
	assert_eq(io_rec.n, 0, "unexpected report(s):\n%.2000s", io_rec.text)

#endif

/* SPDX-License-Identifier: MIT */
/*
 * What the driver tests share: one CPU, the default board, the TWL4030
 * interrupt core and the power button probed on it, an input client, the
 * drivers' log captured, and lockdep's reports recorded so each test can
 * say which it expects (none, unless it is the seed patch's).
 *
 * Every test runs in the deterministic mode (FX_TEST, on tests/sim_runs.h)
 * under several seeds, on one CPU and two: the i2c wire time, the
 * controller delays, the holds and the waits below are virtual, so "the
 * status read came after the release" and "nothing more was reported" are
 * exact, and a loaded host cannot reorder them.
 */
#ifndef UIRQ_TESTS_DRIVERS_FIXTURE_H
#define UIRQ_TESTS_DRIVERS_FIXTURE_H

#define _GNU_SOURCE
#include "harness.h"
#include "sim_runs.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "uirq/board.h"
#include "uirq/input.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/printk.h"
#include "uirq/twl4030-drivers.h"
#ifdef FX_UPSTREAM
/* The same tests on the kernel's unmodified drivers (-Dupstream=enabled: tests/upstream). */
#include "uirq-upstream.h"
#endif

struct fixture {
	struct uirq_board *b;
	struct twl4030 *twl;
	struct uirq_i2c_sim *sim;
	struct twl4030_irq *ti;
	struct twl4030_pwrbutton *pwr;
	struct uirq_upstream_twl4030 *up;	/* FX_UPSTREAM: the kernel's drivers, both at once */
	struct uirq_input_client *client;
	unsigned int host_irq, pwr_irq;
	bool expect_reports;		/* the seed patch's tests */
};

static struct fixture fx;
static struct uirq_input_event evs[4096];
static int nev;

/* ---- the drivers' log ---- */

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char log_text[1 << 16];
static size_t log_len;

static void log_sink(const char *msg, void *arg)
{
	size_t n = strlen(msg);

	(void)arg;
	pthread_mutex_lock(&log_mu);
	if (log_len + n + 1 < sizeof(log_text)) {
		memcpy(log_text + log_len, msg, n + 1);
		log_len += n;
	}
	pthread_mutex_unlock(&log_mu);
	fputs(msg, stderr);
}

/* How many times needle appears in the log so far. */
static inline int log_count(const char *needle)
{
	int n = 0;

	pthread_mutex_lock(&log_mu);
	for (const char *p = log_text; (p = strstr(p, needle)); p++)
		n++;
	pthread_mutex_unlock(&log_mu);
	return n;
}

/* ---- lockdep's reports ---- */

static pthread_mutex_t rep_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int n;
	int by_kind[UIRQ_REPORT_NR_KINDS];
	char text[1 << 16];
	size_t len;
} rep;

/* Runs under lockdep's graph lock, in whatever thread tripped it: plain memory only. */
static void rep_handler(const struct uirq_lockdep_report *r, void *arg)
{
	size_t n = strlen(r->text);

	(void)arg;
	pthread_mutex_lock(&rep_mu);
	rep.n++;
	rep.by_kind[r->kind]++;
	if (rep.len + n + 1 < sizeof(rep.text)) {
		memcpy(rep.text + rep.len, r->text, n + 1);
		rep.len += n;
	}
	pthread_mutex_unlock(&rep_mu);
	fputs(r->text, stderr);
}

static inline int reports(int kind)
{
	pthread_mutex_lock(&rep_mu);
	int n = kind < 0 ? rep.n : rep.by_kind[kind];
	pthread_mutex_unlock(&rep_mu);
	return n;
}

static inline bool report_text_has(const char *needle)
{
	pthread_mutex_lock(&rep_mu);
	bool has = strstr(rep.text, needle) != NULL;
	pthread_mutex_unlock(&rep_mu);
	return has;
}

/* ---- time: uirq's clock, virtual in the mode ---- */

static inline double now_ms(void)
{
	return (double)uirq_sim_clock_ns() / 1e6;
}

static inline void msleep(double ms)
{
	if (ms > 0)
		uirq_sim_sleep_ns((uint64_t)(ms * 1e6));
}

/* Poll cond every 100 us of virtual time for up to ms (exact: handlers cost none); its final value. */
#define VIRTUAL_WAIT(cond, ms)							\
	({									\
		double lim_ = now_ms() + (ms);					\
		while (!(cond) && now_ms() < lim_)				\
			msleep(0.1);						\
		(cond);								\
	})

/* ---- the board and the drivers ---- */

static unsigned int fx_cpus = 1;

static inline void fx_board(void)
{
	struct uirq_cpu_config cfg = { .nr_cpus = fx_cpus };

	for (unsigned int i = 0; i < UIRQ_MAX_CPUS; i++)
		cfg.pin[i] = -1;
	uirq_lockdep_set_report_handler(rep_handler, NULL);
	uirq_log_set_sink(log_sink, NULL);
	assert_true(uirq_lockdep_enabled(), "lockdep must be on");
	assert_eq(uirq_cpus_start(&cfg), 0);
	assert_eq(uirq_board_create(NULL, &fx.b), 0);
	fx.twl = uirq_board_twl(fx.b);
	fx.sim = uirq_board_i2c_sim(fx.b);
	fx.host_irq = uirq_board_twl_irq(fx.b);
}

static inline void fx_probe_irq(unsigned int flags)
{
	int ret = twl4030_irq_probe_flags(uirq_board_i2c(fx.b), fx.host_irq, flags, &fx.ti);

	assert_eq(ret, 0, "twl4030_irq_probe: %d", ret);
	fx.pwr_irq = twl4030_irq_base(fx.ti) + TWL4030_PWR_IRQ_PWRON;
}

static inline void fx_probe_pwrbutton(bool legacy)
{
	int ret = twl4030_pwrbutton_probe(uirq_board_i2c(fx.b), fx.pwr_irq, legacy, &fx.pwr);

	assert_eq(ret, 0, "twl4030_pwrbutton_probe: %d", ret);
	assert_eq(uirq_input_open(twl4030_pwrbutton_input(fx.pwr), &fx.client), 0);
}

static inline void fx_mainline(void)
{
	fx_board();
#ifdef FX_UPSTREAM
	int ret = uirq_upstream_twl4030_probe(uirq_board_i2c(fx.b), fx.host_irq, &fx.up);

	assert_eq(ret, 0, "uirq_upstream_twl4030_probe: %d", ret);
	fx.pwr_irq = uirq_upstream_twl4030_irq_base(fx.up) + TWL4030_PWR_IRQ_PWRON;
	assert_eq(uirq_input_open(uirq_upstream_twl4030_input(fx.up), &fx.client), 0);
#else
	fx_probe_irq(0);
	fx_probe_pwrbutton(false);
#endif
}

/* The power button's input device and the first of the TWL4030's irqs, whichever drivers run. */
static inline struct uirq_input_dev *fx_input(void)
{
#ifdef FX_UPSTREAM
	return uirq_upstream_twl4030_input(fx.up);
#else
	return twl4030_pwrbutton_input(fx.pwr);
#endif
}

static inline unsigned int fx_irq_base(void)
{
#ifdef FX_UPSTREAM
	return uirq_upstream_twl4030_irq_base(fx.up);
#else
	return twl4030_irq_base(fx.ti);
#endif
}

static inline void fx_legacy(void)
{
	fx_board();
	fx.expect_reports = true;
	fx_probe_irq(TWL4030_IRQ_LEGACY);
	fx_probe_pwrbutton(true);
}

/* A seeded run's start: nothing probed, logged, reported or read yet; on cpus CPUs. */
static inline void fx_reset(unsigned int cpus)
{
	memset(&fx, 0, sizeof(fx));
	log_len = 0;
	log_text[0] = '\0';
	memset(&rep, 0, sizeof(rep));
	nev = 0;
	fx_cpus = cpus;
}

/*
 * A test whose body runs in the mode under SIM_RUNS seeds, each run from
 * fx_reset() and init() (the fixture it needs) to fx_teardown().
 */
#define FX_TEST(suite, name, init, ...)						\
	static void suite##__##name##__begin(unsigned int cpus)			\
	{									\
		fx_reset(cpus);							\
		init();								\
	}									\
	SIM_TEST(suite, name, suite##__##name##__begin, fx_teardown, __VA_ARGS__)

/* Tear down whatever the test left probed, in the kernel's order. */
static inline void fx_teardown(void)
{
	if (fx.client)
		uirq_input_close(fx.client);
	twl4030_pwrbutton_remove(fx.pwr);
	twl4030_irq_remove(fx.ti);
#ifdef FX_UPSTREAM
	uirq_upstream_twl4030_remove(fx.up);
#endif
	uirq_board_destroy(fx.b);
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
	if (!fx.expect_reports)
		assert_eq(reports(-1), 0, "lockdep reported:\n%.3000s", rep.text);
}

/* ---- the user and the input client ---- */

static inline void press(void)
{
	twl4030_set_pwron(fx.twl, true);
}

static inline void release(void)
{
	twl4030_set_pwron(fx.twl, false);
}


static inline int key_events(void)
{
	int n = 0;

	for (int i = 0; i < nev; i++)
		n += evs[i].type == EV_KEY;
	return n;
}

/* Read what the client has until want key events arrived or ms (virtual) passed; the key count. */
static inline int collect(int want, double ms)
{
	double lim = now_ms() + ms;

	for (;;) {
		int n = uirq_input_read(fx.client, evs + nev, (int)(sizeof(evs) / sizeof(evs[0])) - nev,
					UIRQ_INPUT_NONBLOCK);

		if (n > 0)
			nev += n;
		else
			assert_eq(n, -EAGAIN, "uirq_input_read: %d", n);
		if (key_events() >= want || now_ms() >= lim)
			break;
		msleep(0.1);	/* no poll(): the scheduler cannot see it */
	}
	return key_events();
}

/* The values of the key events read so far, checking that each one is a KEY_POWER framed by a SYN_REPORT. */
static inline int key_values(int *vals, int max)
{
	int k = 0;

	for (int i = 0; i < nev; i++) {
		if (evs[i].type != EV_KEY)
			continue;
		assert_eq(evs[i].code, KEY_POWER);
		assert_lt(i + 1, nev, "key event %d not followed by SYN_REPORT", k);
		assert_eq(evs[i + 1].type, EV_SYN, "key event %d not followed by SYN_REPORT", k);
		assert_eq(evs[i + 1].code, SYN_REPORT, "key event %d not followed by SYN_REPORT", k);
		if (k < max)
			vals[k] = evs[i].value;
		k++;
	}
	return k;
}

/* The host line as the INTC sees it. */
static inline bool host_masked(void)
{
	struct uirq_swirq_stats st;

	assert_eq(uirq_swirq_get_stats(uirq_board_intc(fx.b), UIRQ_BOARD_TWL_HOST_LINE, &st), 0);
	return st.masked;
}

/* Everything handled: INT1 high again, the host line unmasked, nothing in flight for a while. */
static inline void settle(void)
{
	assert_true(VIRTUAL_WAIT(!twl4030_int1_asserted(fx.twl) && !host_masked(), 2000),
		  "INT1 %d, host line masked %d", twl4030_int1_asserted(fx.twl), host_masked());
	msleep(20);	/* virtual: whatever was still to come has come */
	assert_false(twl4030_int1_asserted(fx.twl));
	assert_false(host_masked(), "the host line was left masked");
}

#endif

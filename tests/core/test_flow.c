// SPDX-License-Identifier: MIT
/*
 * Flow handlers, oneshot, sharing, nested and chained lines, lazy disable and replay.
 *
 * Every test runs in the deterministic mode (tests/sim_runs.h) under
 * several seeds, on one CPU and on two: tc_wait*() and tc_msleep() are
 * virtual there, so "the flow has seen it" and "nothing more came" are
 * exact, and a slow handler's sleep costs no wall time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sim_runs.h"
#include "testchip.h"
#include "uirq/context.h"

static int dev_a, dev_b;
static unsigned int run_cpus;	/* the seeded run's */
static void begin(unsigned int cpus);

/* ---- oneshot: the level line stays masked while the thread sleeps ---- */

static atomic_int os_primary, os_thread, os_masked_in_thread;
static unsigned int os_irq;

static uirq_irqreturn_t os_primary_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&os_primary, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t os_thread_fn(int irq, void *dev)
{
	(void)dev;
	/* The device is slow (i2c): the level stays asserted while we sleep. */
	atomic_store(&os_masked_in_thread, atomic_load(&tc_line_of((unsigned int)irq)->masked));
	tc_msleep(200);
	tc_set_level((unsigned int)irq, false);
	atomic_fetch_add(&os_thread, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, oneshot_level_no_storm_while_thread_sleeps, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_level_irq);
	os_irq = tc_irq(0);
	struct tc_line *l = tc_line_of(os_irq);

	assert_eq(uirq_request_threaded_irq(os_irq, os_primary_fn, os_thread_fn,
					       UIRQF_ONESHOT | UIRQF_TRIGGER_HIGH, "oneshot", &dev_a), 0);
	tc_set_level(os_irq, true);
	assert_true(tc_wait_atomic_ge(&os_thread, 1, 3000));
	tc_msleep(20);
	assert_eq(atomic_load(&os_primary), 1, "the primary ran %d times while the thread slept",
		     atomic_load(&os_primary));
	assert_eq(atomic_load(&os_masked_in_thread), 1, "line masked while the thread runs");
	assert_eq(atomic_load(&l->masked), 0, "unmasked after the thread finished");
	assert_eq(atomic_load(&l->unmask), 2, "startup + finalize");
	assert_eq(uirq_kstat_irqs(os_irq), 1ul);
	/* Again: the next assertion is served too. */
	tc_set_level(os_irq, true);
	assert_true(tc_wait_atomic_ge(&os_thread, 2, 3000));
	assert_eq(atomic_load(&os_primary), 2);
	uirq_free_irq(os_irq, &dev_a);
	tc_teardown();
}

/* Without ONESHOT a held level line storms (the reason ONESHOT exists). */
static atomic_int storm_primary;
static uirq_irqreturn_t storm_primary_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (atomic_fetch_add(&storm_primary, 1) >= 50)
		tc_set_level((unsigned int)irq, false);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t storm_thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, non_oneshot_level_refires, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(1);

	assert_eq(uirq_request_threaded_irq(irq, storm_primary_fn, storm_thread_fn, 0, "storm", &dev_a), 0);
	tc_set_level(irq, true);
	assert_true(tc_wait_atomic_ge(&storm_primary, 51, 3000));
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

/* ---- fasteoi + oneshot ---- */

static atomic_int fe_thread;
static atomic_int fe_masked_in_thread;
static uirq_irqreturn_t fe_thread_fn(int irq, void *dev)
{
	(void)dev;
	atomic_store(&fe_masked_in_thread, atomic_load(&tc_line_of((unsigned int)irq)->masked));
	tc_msleep(50);
	tc_set_level((unsigned int)irq, false);
	atomic_fetch_add(&fe_thread, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, fasteoi_oneshot, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_fasteoi_irq);
	unsigned int irq = tc_irq(2);
	struct tc_line *l = tc_line_of(irq);

	assert_eq(uirq_request_threaded_irq(irq, NULL, fe_thread_fn, UIRQF_ONESHOT, "fe", &dev_a), 0);
	tc_set_level(irq, true);
	assert_true(tc_wait_atomic_ge(&fe_thread, 1, 3000));
	tc_msleep(20);
	assert_eq(atomic_load(&fe_masked_in_thread), 1);
	assert_eq(atomic_load(&l->eoi), 1);
	assert_eq(atomic_load(&l->masked), 0);
	assert_eq(uirq_kstat_irqs(irq), 1ul);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

/* ---- shared level line: a primary-only device and a threaded device (the seed's EHCI case) ---- */

#define SH_ROUNDS 200
static atomic_int a_pend, b_pend, a_served, b_served, b_primary;
static unsigned int sh_irq;

static void sh_update_level(void)
{
	tc_set_level(sh_irq, atomic_load(&a_pend) || atomic_load(&b_pend));
}

static uirq_irqreturn_t a_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (!atomic_exchange(&a_pend, 0))
		return UIRQ_IRQ_NONE;
	atomic_fetch_add(&a_served, 1);
	sh_update_level();
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t b_quick(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (!atomic_exchange(&b_pend, 0))
		return UIRQ_IRQ_NONE;
	atomic_fetch_add(&b_primary, 1);
	sh_update_level();	/* silenced the device; the slow part runs in the thread */
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t b_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	tc_msleep(1);
	atomic_fetch_add(&b_served, 1);
	return UIRQ_IRQ_HANDLED;
}

static void *device(void *arg)
{
	bool is_a = arg != NULL;
	atomic_int *pend = is_a ? &a_pend : &b_pend, *served = is_a ? &a_served : &b_served;

	for (int i = 0; i < SH_ROUNDS; i++) {
		atomic_store(pend, 1);
		sh_update_level();
		if (!tc_wait_atomic_ge(served, i + 1, 5000))
			return (void *)1;
	}
	return NULL;
}

SIM_TEST(core_flow, shared_threaded_and_hardirq_both_served, begin, NULL, .timeout = 40)
{
	tc_setup(run_cpus, false, false, uirq_handle_level_irq);
	sh_irq = tc_irq(3);
	pthread_t ta, tb;
	void *ra, *rb;

	assert_eq(uirq_request_irq(sh_irq, a_primary, UIRQF_SHARED, "dev-a", &dev_a), 0);
	assert_eq(uirq_request_threaded_irq(sh_irq, b_quick, b_thread, UIRQF_SHARED, "dev-b", &dev_b), 0);
	assert_eq(uirq_sim_thread_create(&ta, NULL, device, &dev_a, "dev-a"), 0);
	assert_eq(uirq_sim_thread_create(&tb, NULL, device, NULL, "dev-b"), 0);
	assert_eq(uirq_sim_thread_join(ta, &ra), 0);
	assert_eq(uirq_sim_thread_join(tb, &rb), 0);
	assert_null(ra, "device a starved: %d served", atomic_load(&a_served));
	assert_null(rb, "device b starved: %d served, primary %d pend %d/%d masked %d asserted %d kstat %lu",
		       atomic_load(&b_served), atomic_load(&b_primary), atomic_load(&a_pend), atomic_load(&b_pend),
		       atomic_load(&tc_line_of(sh_irq)->masked), atomic_load(&tc_line_of(sh_irq)->asserted),
		       uirq_kstat_irqs(sh_irq));
	assert_eq(atomic_load(&a_served), SH_ROUNDS);
	assert_eq(atomic_load(&b_served), SH_ROUNDS);
	assert_eq(atomic_load(&b_primary), SH_ROUNDS);
	uirq_free_irq(sh_irq, &dev_b);
	uirq_free_irq(sh_irq, &dev_a);
	tc_teardown();
}

/* ---- edges: lazy disable, pending and replay ---- */

static atomic_int edge_calls;
static uirq_irqreturn_t edge_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&edge_calls, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, edges_counted_while_enabled, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(4);

	assert_eq(uirq_request_irq(irq, edge_primary, UIRQF_TRIGGER_RISING, "edge", &dev_a), 0);
	for (int i = 1; i <= 20; i++) {
		tc_edge(irq);
		assert_true(tc_wait_atomic_ge(&edge_calls, i, 2000));
	}
	assert_eq(atomic_load(&edge_calls), 20);
	assert_eq(atomic_load(&tc_line_of(irq)->ack), 20);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static void edge_replay(bool chip_retrigger)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(5);
	struct tc_line *l = tc_line_of(irq);

	tc.retrigger = chip_retrigger;
	assert_eq(uirq_request_irq(irq, edge_primary, UIRQF_TRIGGER_RISING, "edge", &dev_a), 0);
	uirq_disable_irq(irq);
	assert_eq(atomic_load(&l->masked), 0, "disable is lazy: the line is not masked yet");
	for (int i = 1; i <= 5; i++) {
		tc_edge(irq);
		assert_true(tc_wait_atomic_ge(&l->ack, i, 2000));
	}
	assert_eq(atomic_load(&edge_calls), 0, "no handler runs while disabled");
	assert_eq(atomic_load(&l->masked), 1, "the first edge masked the line");
	uirq_enable_irq(irq);
	assert_true(tc_wait_atomic_ge(&edge_calls, 1, 2000), "the pending edge is replayed");
	tc_msleep(50);
	assert_eq(atomic_load(&edge_calls), 1, "pending replays once");
	assert_eq(atomic_load(&l->retrigger), 1);
	assert_eq(atomic_load(&l->masked), 0);
	/* Enabling again with nothing pending replays nothing. */
	uirq_disable_irq(irq);
	uirq_enable_irq(irq);
	tc_msleep(20);
	assert_eq(atomic_load(&edge_calls), 1);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

SIM_TEST(core_flow, edge_replay_software_resend, begin, NULL, .timeout = 20)
{
	edge_replay(false);
}

SIM_TEST(core_flow, edge_replay_chip_retrigger, begin, NULL, .timeout = 20)
{
	edge_replay(true);
}

static atomic_int lvl_calls;
static uirq_irqreturn_t lvl_primary(int irq, void *dev)
{
	(void)dev;
	atomic_fetch_add(&lvl_calls, 1);
	tc_set_level((unsigned int)irq, false);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, level_not_resent_but_served_on_unmask, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(6);
	struct tc_line *l = tc_line_of(irq);

	assert_eq(uirq_request_irq(irq, lvl_primary, UIRQF_TRIGGER_HIGH, "lvl", &dev_a), 0);
	uirq_disable_irq(irq);
	tc_set_level(irq, true);
	assert_true(tc_wait_atomic_ge(&l->mask, 1, 2000));
	tc_msleep(10);
	assert_eq(atomic_load(&lvl_calls), 0);
	uirq_enable_irq(irq);
	assert_true(tc_wait_atomic_ge(&lvl_calls, 1, 2000), "the level is still there: unmask brings it");
	tc_msleep(20);
	assert_eq(atomic_load(&lvl_calls), 1);
	assert_eq(atomic_load(&l->retrigger), 0, "level lines are never resent");
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

/* ---- nested threaded lines (a slow-bus demultiplexer) ---- */

static unsigned int parent_irq, child_irq;
static atomic_int parent_runs, child_runs;
static pthread_t parent_thread, child_thread;
static atomic_int child_ctx_ok;
static atomic_int child_pending;

static uirq_irqreturn_t parent_thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	parent_thread = pthread_self();
	atomic_fetch_add(&parent_runs, 1);
	/* The demultiplexer reads its status over the slow bus here, then: */
	uirq_handle_nested_irq(child_irq);
	tc_set_level(parent_irq, false);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t child_thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	child_thread = pthread_self();
	atomic_store(&child_ctx_ok, uirq_is_irq_thread() && !uirq_in_hardirq() && !uirq_irqs_disabled());
	tc_msleep(1);	/* may sleep */
	atomic_fetch_add(&child_runs, 1);
	return atomic_exchange(&child_pending, 0) ? UIRQ_IRQ_HANDLED : UIRQ_IRQ_NONE;
}

SIM_TEST(core_flow, nested_child_runs_in_parent_thread, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_level_irq);
	parent_irq = tc_irq(7);
	child_irq = uirq_irq_alloc_descs(-1, 1, 1);
	uirq_irq_set_chip_and_handler_name(child_irq, &tc.chip, NULL, "nested");
	uirq_irq_set_nested_thread(child_irq, true);
	uirq_irq_set_parent(child_irq, (int)parent_irq);

	assert_eq(uirq_request_threaded_irq(parent_irq, NULL, parent_thread_fn, UIRQF_ONESHOT, "pih", &dev_a), 0);
	/* Nested: handler NULL without ONESHOT is accepted. */
	assert_eq(uirq_request_threaded_irq(child_irq, NULL, child_thread_fn, 0, "child", &dev_b), 0);

	atomic_store(&child_pending, 1);
	tc_set_level(parent_irq, true);
	assert_true(tc_wait_atomic_ge(&child_runs, 1, 2000));
	assert_true(pthread_equal(parent_thread, child_thread), "child ran in the parent's thread");
	assert_eq(atomic_load(&child_ctx_ok), 1);
	assert_eq(uirq_kstat_irqs(child_irq), 1ul);

	/* Disabled child: the parent's demux marks it pending; enable resends through the parent. */
	uirq_disable_irq(child_irq);
	atomic_store(&child_pending, 1);
	tc_set_level(parent_irq, true);
	assert_true(tc_wait_atomic_ge(&parent_runs, 2, 2000));
	tc_msleep(10);
	assert_eq(atomic_load(&child_runs), 1);
	uirq_enable_irq(child_irq);
	assert_true(tc_wait_atomic_ge(&parent_runs, 3, 2000), "the parent line was raised again");
	assert_true(tc_wait_atomic_ge(&child_runs, 2, 2000));
	uirq_synchronize_irq(child_irq);

	assert_str_eq(uirq_free_irq(child_irq, &dev_b), "child");
	uirq_free_irq(parent_irq, &dev_a);
	uirq_irq_free_descs(child_irq, 1);
	tc_teardown();
}

/* ---- chained demultiplexer in hard-irq context ---- */

static unsigned int demux_children[2];
static atomic_int demux_status, child_hard_calls;

static void demux_flow(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = uirq_irq_desc_get_chip(desc);
	unsigned int *children = uirq_irq_desc_get_handler_data(desc);

	uirq_chained_irq_enter(chip, desc);
	int st = atomic_exchange(&demux_status, 0);

	for (int i = 0; i < 2; i++)
		if (st & (1 << i))
			uirq_generic_handle_irq(children[i]);
	uirq_chained_irq_exit(chip, desc);
}

static uirq_irqreturn_t child_hard(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	assert_true(uirq_in_hardirq());
	atomic_fetch_add(&child_hard_calls, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, chained_demux, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_level_irq);
	unsigned int parent = tc_irq(8);
	static struct uirq_irq_chip sub = { .name = "SUB" };

	for (int i = 0; i < 2; i++) {
		demux_children[i] = uirq_irq_alloc_descs(-1, 1, 1);
		uirq_irq_set_chip_and_handler_name(demux_children[i], &sub, uirq_handle_simple_irq, "simple");
		assert_eq(uirq_request_irq(demux_children[i], child_hard, 0, "sub", &dev_b), 0);
	}
	uirq_irq_set_chained_handler_and_data(parent, demux_flow, demux_children);
	assert_eq(uirq_request_irq(parent, edge_primary, 0, "x", &dev_a), -EINVAL, "chained lines are NOREQUEST");
	assert_eq(atomic_load(&tc_line_of(parent)->masked), 0, "a chained line starts at once");
	atomic_store(&demux_status, 3);
	tc_edge(parent);
	assert_true(tc_wait_atomic_ge(&child_hard_calls, 2, 2000));
	assert_eq(uirq_kstat_irqs(demux_children[0]), 1ul);
	assert_eq(uirq_kstat_irqs(demux_children[1]), 1ul);
	for (int i = 0; i < 2; i++) {
		uirq_free_irq(demux_children[i], &dev_b);
		uirq_irq_free_descs(demux_children[i], 1);
	}
	uirq_irq_set_chained_handler_and_data(parent, NULL, NULL);
	tc_teardown();
}

/* ---- context and diagnostics ---- */

static atomic_int ctx_primary_ok = -1, ctx_thread_ok = -1;
static uirq_irqreturn_t ctx_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_store(&ctx_primary_ok, uirq_in_hardirq() && uirq_irqs_disabled() && !uirq_is_irq_thread());
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t ctx_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_store(&ctx_thread_ok, !uirq_in_hardirq() && !uirq_irqs_disabled() && uirq_is_irq_thread() &&
					     !uirq_in_atomic());
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, handler_contexts, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(9);

	assert_eq(uirq_request_threaded_irq(irq, ctx_primary, ctx_thread, 0, "ctx", &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&ctx_thread_ok, 0, 2000));
	assert_eq(atomic_load(&ctx_primary_ok), 1);
	assert_eq(atomic_load(&ctx_thread_ok), 1);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static uirq_irqreturn_t bogus(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&edge_calls, 1);
	return (uirq_irqreturn_t)0x7;
}

SIM_TEST(core_flow, bogus_return_value, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(10);
	char want[64];

	assert_eq(uirq_request_irq(irq, bogus, 0, "bogus", &dev_a), 0);
	tc_capture_begin();
	tc_edge(irq);
	tc_wait_atomic_ge(&edge_calls, 1, 2000);
	uirq_synchronize_irq(irq);
	const char *out = tc_capture_end();

	snprintf(want, sizeof(want), "irq event %u: bogus return value 7", irq);
	assert_true(strstr(out, want), "%s", out);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

static atomic_int second_saw_disabled = -1;
static bool enabled_warned;
static uirq_irqreturn_t enabler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	uirq_local_irq_enable();
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t after_enabler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_store(&second_saw_disabled, uirq_irqs_disabled());
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(core_flow, primary_enabling_interrupts_is_warned, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(11);
	char want[64];

	assert_eq(uirq_request_irq(irq, enabler, UIRQF_SHARED, "en", &dev_a), 0);
	assert_eq(uirq_request_irq(irq, after_enabler, UIRQF_SHARED, "after", &dev_b), 0);
	tc_capture_begin();
	tc_edge(irq);
	tc_wait_atomic_ge(&second_saw_disabled, 0, 2000);
	uirq_synchronize_irq(irq);
	const char *out = tc_capture_end();

	snprintf(want, sizeof(want), "irq %u handler ", irq);
	/* A WARN_ONCE, as the kernel's: the process's first seeded run warns, the later ones not. */
	if (!enabled_warned)
		assert_true(strstr(out, want) && strstr(out, "enabled interrupts"), "%s", out);
	else
		assert_false(strstr(out, "enabled interrupts"), "warned twice: %s", out);
	enabled_warned = true;
	assert_eq(atomic_load(&second_saw_disabled), 1, "interrupts were disabled again");
	uirq_free_irq(irq, &dev_a);
	uirq_free_irq(irq, &dev_b);
	tc_teardown();
}

static uirq_irqreturn_t wake_no_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&edge_calls, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

SIM_TEST(core_flow, wake_thread_without_thread_fn_warns, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(12);
	char want[96];

	assert_eq(uirq_request_irq(irq, wake_no_thread, 0, "nothr", &dev_a), 0);
	tc_capture_begin();
	tc_edge(irq);
	tc_wait_atomic_ge(&edge_calls, 1, 2000);
	uirq_synchronize_irq(irq);
	const char *out = tc_capture_end();

	snprintf(want, sizeof(want), "IRQ %u device nothr returned IRQ_WAKE_THREAD but no thread function available.", irq);
	assert_true(strstr(out, want), "%s", out);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

SIM_TEST(core_flow, simple_flow_and_unhandled_line, begin, NULL, .timeout = 20)
{
	tc_setup(run_cpus, false, false, uirq_handle_simple_irq);
	unsigned int irq = tc_irq(13);

	/* No action: the flow marks it pending and nothing runs. */
	tc_edge(irq);
	tc_msleep(10);
	assert_eq(uirq_kstat_irqs(irq), 0ul);
	/* The request starts the line and replays the pending interrupt. */
	assert_eq(uirq_request_irq(irq, edge_primary, 0, "simple", &dev_a), 0);
	assert_true(tc_wait_atomic_ge(&edge_calls, 1, 2000));
	assert_eq(uirq_kstat_irqs(irq), 1ul);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&edge_calls, 2, 2000));
	assert_eq(uirq_kstat_irqs(irq), 2ul);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

/* A seeded run's start: every count of the tests above back to its initial value. */
static void begin(unsigned int cpus)
{
	atomic_int *zero[] = { &os_primary, &os_thread, &os_masked_in_thread, &storm_primary, &fe_thread,
			       &fe_masked_in_thread, &a_pend, &b_pend, &a_served, &b_served, &b_primary, &edge_calls,
			       &lvl_calls, &parent_runs, &child_runs, &child_ctx_ok, &child_pending, &demux_status,
			       &child_hard_calls };

	run_cpus = cpus;
	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		atomic_store(zero[i], 0);
	atomic_store(&ctx_primary_ok, -1);
	atomic_store(&ctx_thread_ok, -1);
	atomic_store(&second_saw_disabled, -1);
}

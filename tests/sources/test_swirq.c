// SPDX-License-Identifier: MIT
/*
 * The software interrupt controller: levels, edges, latching, masking, through the genirq core.
 *
 * Every test that waits for the flow runs in the deterministic mode
 * (tests/sim_runs.h): the flow has run to its end before each check, and
 * "nothing more came" is exact, under several seeds on one CPU and two.
 * Only the concurrent-raisers stress runs on real threads (it is about
 * real parallel pulses): it waits on the handled count itself.
 */
#include "common.h"

#include <pthread.h>

#include "sim_runs.h"

static struct uirq_swirq *ctl;
static atomic_int primaries, threads;
static atomic_int deassert_after = 1;	/* the primary deasserts on this call */
static atomic_int in_handler, release_handler;
static atomic_int per_input[8];

/* A run's start in the mode: nothing counted yet, the CPUs up. */
static void begin(unsigned int cpus)
{
	ctl = NULL;
	atomic_store(&primaries, 0);
	atomic_store(&threads, 0);
	atomic_store(&deassert_after, 1);
	atomic_store(&in_handler, 0);
	atomic_store(&release_handler, 0);
	for (int i = 0; i < 8; i++)
		atomic_store(&per_input[i], 0);
	start_cpus(cpus);
}

static struct uirq_swirq *make(unsigned int type, unsigned int flags)
{
	struct uirq_swirq_config cfg = { .name = "TINTC", .nr_inputs = 8, .default_type = type,
					 .flags = flags };
	struct uirq_swirq *c = NULL;

	assert_eq(uirq_swirq_create(&cfg, &c), 0);
	assert_not_null(c);
	return c;
}

static struct uirq_swirq_stats stats_of(unsigned int hw)
{
	struct uirq_swirq_stats st;

	assert_eq(uirq_swirq_get_stats(ctl, hw, &st), 0);
	return st;
}

/* Level device: count; deassert the input on the deassert_after-th call. */
static uirq_irqreturn_t level_primary(int irq, void *dev)
{
	(void)irq;
	int n = atomic_fetch_add(&primaries, 1) + 1;

	if (n >= atomic_load(&deassert_after))
		uirq_swirq_set_level(ctl, (unsigned int)(uintptr_t)dev, false);
	return UIRQ_IRQ_HANDLED;
}

/* Longer than any flow here takes: virtual, so free; handlers take no virtual time. */
static void settle(void)
{
	uirq_sim_sleep_ns(SIM_MS);
}

SIM_TEST(swirq, level_asserted_runs_handler_once, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_LEVEL_HIGH, 0);
	int irq = uirq_swirq_map(ctl, 3);

	assert_gt(irq, 0);
	assert_eq(uirq_swirq_map(ctl, 3), irq, "mapping twice gives the same irq");
	assert_eq(uirq_request_irq(irq, level_primary, 0, "lvl", (void *)3), 0);
	assert_eq(uirq_swirq_set_level(ctl, 3, true), 0);
	settle();
	assert_eq(atomic_load(&primaries), 1, "one run, and a deasserted level must not run again");
	assert_eq(uirq_swirq_get_level(ctl, 3), 0);
	struct uirq_swirq_stats st = stats_of(3);

	assert_eq(st.asserts, 1);
	assert_eq(st.raises, 1);
	assert_ge(st.acks, 1, "level flow: mask+ack, unmask");
	assert_ge(st.masks, 1, "level flow: mask+ack, unmask");
	assert_ge(st.unmasks, 2, "level flow: mask+ack, unmask");
	assert_false(st.masked);
	assert_eq(uirq_kstat_irqs(irq), 1);
	assert_str_eq(uirq_free_irq(irq, (void *)3), "lvl");
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

SIM_TEST(swirq, level_stays_asserted_until_device_deasserts, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_LEVEL_HIGH, 0);
	int irq = uirq_swirq_map(ctl, 0);

	atomic_store(&deassert_after, 5);
	assert_eq(uirq_request_irq(irq, level_primary, 0, "lvl5", (void *)0), 0);
	uirq_swirq_set_level(ctl, 0, true);
	settle();
	assert_eq(atomic_load(&primaries), 5, "each unmask of the asserted line raises it again");
	struct uirq_swirq_stats st = stats_of(0);

	assert_eq(st.asserts, 1);
	assert_eq(st.raises, 5);
	uirq_free_irq(irq, (void *)0);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

SIM_TEST(swirq, level_low_is_logical, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_LEVEL_LOW, 0);
	int irq = uirq_swirq_map(ctl, 1);

	assert_eq(uirq_irq_get_trigger_type(irq), UIRQ_TYPE_LEVEL_LOW);
	assert_eq(uirq_request_irq(irq, level_primary, 0, "low", (void *)1), 0);
	uirq_swirq_set_level(ctl, 1, true);
	settle();
	assert_eq(atomic_load(&primaries), 1);
	uirq_free_irq(irq, (void *)1);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

/* ---- oneshot ---- */

static uirq_irqreturn_t wake_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&primaries, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

/* The slow part: 100 ms of virtual time (an i2c transfer), then silence the device. */
static uirq_irqreturn_t slow_thread(int irq, void *dev)
{
	(void)irq;
	uirq_sim_sleep_ns(100 * SIM_MS);
	uirq_swirq_set_level(ctl, (unsigned int)(uintptr_t)dev, false);
	atomic_fetch_add(&threads, 1);
	return UIRQ_IRQ_HANDLED;
}

static void oneshot_no_storm(unsigned int flags, bool default_primary)
{
	ctl = make(UIRQ_TYPE_LEVEL_HIGH, flags);
	int irq = uirq_swirq_map(ctl, 2);

	assert_eq(uirq_request_threaded_irq(irq, default_primary ? NULL : wake_primary, slow_thread,
					       UIRQF_ONESHOT, "oneshot", (void *)2), 0);
	uirq_swirq_set_level(ctl, 2, true);
	uirq_sim_sleep_ns(50 * SIM_MS);	/* the thread is half way through, the line still asserted */
	if (!default_primary)
		assert_eq(atomic_load(&primaries), 1, "primary ran %d times while the thread slept",
			     atomic_load(&primaries));
	assert_eq(atomic_load(&threads), 0);
	struct uirq_swirq_stats st = stats_of(2);

	assert_true(st.masked, "oneshot keeps the line masked while the thread runs");
	assert_eq(st.raises, 1);
	uirq_sim_sleep_ns(50 * SIM_MS);	/* the thread's end */
	settle();
	assert_false(stats_of(2).masked, "unmasked when the thread finished");
	if (!default_primary)
		assert_eq(atomic_load(&primaries), 1);
	assert_eq(atomic_load(&threads), 1);
	assert_eq(stats_of(2).raises, 1);
	assert_eq(uirq_kstat_irqs(irq), 1);
	uirq_free_irq(irq, (void *)2);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

SIM_TEST(swirq, oneshot_thread_no_storm, begin, teardown, .timeout = 20)
{
	oneshot_no_storm(0, false);
}

SIM_TEST(swirq, oneshot_default_primary_no_storm, begin, teardown, .timeout = 20)
{
	oneshot_no_storm(0, true);
}

SIM_TEST(swirq, fasteoi_oneshot_no_storm, begin, teardown, .timeout = 20)
{
	oneshot_no_storm(UIRQ_SWIRQ_FASTEOI, false);
}

UIRQ_TEST(swirq, not_oneshot_safe_by_default, .init = setup1, .fini = teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_LEVEL_HIGH, 0);
	int irq = uirq_swirq_map(ctl, 0);

	assert_eq(uirq_request_threaded_irq(irq, NULL, slow_thread, 0, "nos", (void *)0), -EINVAL,
		     "handler NULL without ONESHOT on a chip that is not oneshot-safe");
	assert_eq(uirq_swirq_destroy(ctl), 0);

	ctl = make(UIRQ_TYPE_EDGE_RISING, UIRQ_SWIRQ_ONESHOT_SAFE);
	irq = uirq_swirq_map(ctl, 0);
	assert_eq(uirq_request_threaded_irq(irq, NULL, slow_thread, 0, "safe", (void *)0), 0);
	uirq_free_irq(irq, (void *)0);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

/* ---- edges ---- */

static uirq_irqreturn_t edge_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&primaries, 1);
	return UIRQ_IRQ_HANDLED;
}

/*
 * The first call waits (spinning: hard-irq context) until the test releases
 * it; each spin a scheduling point of the mode, so the test runs meanwhile.
 */
static uirq_irqreturn_t blocking_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (atomic_fetch_add(&primaries, 1) == 0) {
		atomic_store(&in_handler, 1);
		while (!atomic_load(&release_handler))
			uirq_sim_yield();
	}
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(swirq, edge_latches_and_merges, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	int irq = uirq_swirq_map(ctl, 4);

	assert_eq(uirq_request_irq(irq, blocking_primary, 0, "edge", (void *)4), 0);
	assert_eq(uirq_swirq_pulse(ctl, 4), 0);
	/* Not a sleep: the spinning handler is always runnable, so virtual time stands still. */
	while (!atomic_load(&in_handler))
		uirq_sim_yield();
	/* Acked before the handler ran: the first of these latches, the rest merge into it. */
	for (int i = 0; i < 5; i++)
		assert_eq(uirq_swirq_pulse(ctl, 4), 0);
	struct uirq_swirq_stats st = stats_of(4);

	assert_true(st.pending);
	atomic_store(&release_handler, 1);
	settle();
	st = stats_of(4);
	assert_eq(atomic_load(&primaries), 2);
	assert_eq(st.edges, 6);
	assert_eq(st.latched, 2);
	assert_eq(st.merged, 4);
	assert_eq(st.edges, (unsigned long)atomic_load(&primaries) + st.merged, "edges == handled + merged");
	assert_false(st.pending);
	uirq_free_irq(irq, (void *)4);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

static uirq_irqreturn_t counting_primary(int irq, void *dev)
{
	(void)irq;
	atomic_fetch_add((atomic_int *)dev, 1);
	atomic_fetch_add(&primaries, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(swirq, edge_polarities_from_levels, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	int irq[3];

	for (unsigned int hw = 0; hw < 3; hw++)
		irq[hw] = uirq_swirq_map(ctl, hw);
	assert_eq(uirq_swirq_set_type(ctl, 1, UIRQ_TYPE_EDGE_FALLING), 0);
	assert_eq(uirq_swirq_set_type(ctl, 2, UIRQ_TYPE_EDGE_BOTH), 0);
	assert_eq(stats_of(2).type, UIRQ_TYPE_EDGE_BOTH);
	for (unsigned int hw = 0; hw < 3; hw++)
		assert_eq(uirq_request_irq(irq[hw], counting_primary, 0, "pol", &per_input[hw]), 0);
	for (int i = 0; i < 3; i++) {
		for (unsigned int hw = 0; hw < 3; hw++) {
			uirq_swirq_set_level(ctl, hw, true);
			uirq_swirq_set_level(ctl, hw, true);	/* no change, no edge */
			uirq_swirq_set_level(ctl, hw, false);
		}
		uirq_sim_sleep_ns(5 * SIM_MS);
	}
	settle();
	for (unsigned int hw = 0; hw < 3; hw++)
		assert_eq(stats_of(hw).latched, (unsigned long)atomic_load(&per_input[hw]), "input %u: every latch handled",
			  hw);
	assert_eq(stats_of(0).edges, 3);
	assert_eq(stats_of(1).edges, 3, "falling: the logical assert is the edge");
	assert_eq(stats_of(2).edges, 6, "both: every change");
	for (unsigned int hw = 0; hw < 3; hw++) {
		struct uirq_swirq_stats st = stats_of(hw);

		assert_eq(st.edges, st.latched + st.merged);
		assert_eq(st.edges, (unsigned long)atomic_load(&per_input[hw]) + st.merged,
			     "input %u: edges == handled + merged", hw);
	}
	for (unsigned int hw = 0; hw < 3; hw++)
		uirq_free_irq(irq[hw], &per_input[hw]);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

struct raiser {
	unsigned int hw;
	int n;
};

static void *raise_edges(void *arg)
{
	struct raiser *r = arg;

	for (int i = 0; i < r->n; i++) {
		uirq_swirq_pulse(ctl, r->hw);
		if (i % 64 == 0)
			sched_yield();
	}
	return NULL;
}

static void edge_stress(unsigned int flags)
{
	enum { RAISERS = 3, N = 20000 };
	ctl = make(UIRQ_TYPE_EDGE_RISING, flags);
	int irq = uirq_swirq_map(ctl, 5);
	pthread_t t[RAISERS];
	struct raiser r = { .hw = 5, .n = N };

	assert_eq(uirq_request_irq(irq, edge_primary, 0, "stress", &r), 0);
	for (int i = 0; i < RAISERS; i++)
		pthread_create(&t[i], NULL, raise_edges, &r);
	for (int i = 0; i < RAISERS; i++)
		pthread_join(t[i], NULL);
	/* Every raiser is done: the last latch is handled, however long a loaded host takes. */
	WAIT_FOR(!stats_of(5).pending && stats_of(5).latched == (unsigned long)atomic_load(&primaries));
	struct uirq_swirq_stats st = stats_of(5);

	assert_eq(st.edges, (unsigned long)RAISERS * N);
	assert_eq(st.edges, (unsigned long)atomic_load(&primaries) + st.merged,
		     "edges %lu == handled %d + merged %lu", st.edges, atomic_load(&primaries), st.merged);
	uirq_free_irq(irq, &r);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

UIRQ_TEST(swirq, edge_conservation_under_concurrent_raisers, .init = setup1, .fini = teardown, .timeout = 60)
{
	edge_stress(0);
}

UIRQ_TEST(swirq, fasteoi_edge_conservation, .init = setup1, .fini = teardown, .timeout = 60)
{
	edge_stress(UIRQ_SWIRQ_FASTEOI);
}

/* ---- masking ---- */

SIM_TEST(swirq, mask_prevents_delivery_unmask_delivers_latched_edge, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	int irq = uirq_swirq_map(ctl, 6);

	/* NO_AUTOEN: the input stays masked, as the controller came out of reset. */
	assert_eq(uirq_request_irq(irq, edge_primary, UIRQF_NO_AUTOEN, "masked", &ctl), 0);
	assert_true(stats_of(6).masked);
	uirq_swirq_pulse(ctl, 6);
	uirq_swirq_pulse(ctl, 6);
	settle();
	struct uirq_swirq_stats st = stats_of(6);

	assert_eq(atomic_load(&primaries), 0, "a masked input delivers nothing");
	assert_eq(st.raises, 0);
	assert_true(st.pending, "the edge stays latched");
	assert_eq(st.merged, 1);
	uirq_enable_irq(irq);
	settle();
	assert_eq(atomic_load(&primaries), 1);
	assert_eq(stats_of(6).edges, (unsigned long)atomic_load(&primaries) + stats_of(6).merged);
	uirq_free_irq(irq, &ctl);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

SIM_TEST(swirq, masked_level_delivers_on_unmask, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_LEVEL_HIGH, 0);
	int irq = uirq_swirq_map(ctl, 7);

	uirq_swirq_set_level(ctl, 7, true);	/* asserted before anyone listens */
	assert_eq(uirq_request_irq(irq, level_primary, UIRQF_NO_AUTOEN, "lm", (void *)7), 0);
	settle();
	assert_eq(atomic_load(&primaries), 0);
	uirq_enable_irq(irq);
	settle();
	assert_eq(atomic_load(&primaries), 1);
	uirq_free_irq(irq, (void *)7);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

SIM_TEST(swirq, lazy_disable_replays_edge, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	int irq = uirq_swirq_map(ctl, 1);

	assert_eq(uirq_request_irq(irq, edge_primary, 0, "lazy", &ctl), 0);
	uirq_disable_irq(irq);
	uirq_swirq_pulse(ctl, 1);
	settle();
	assert_eq(atomic_load(&primaries), 0, "disabled: not delivered");
	uirq_enable_irq(irq);
	settle();
	assert_eq(atomic_load(&primaries), 1, "replayed on enable, once");
	uirq_free_irq(irq, &ctl);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

/* ---- lifetime and errors ---- */

SIM_TEST(swirq, destroy_while_idle, begin, teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	assert_eq(uirq_swirq_destroy(ctl), 0, "never mapped");

	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	int irq = uirq_swirq_map(ctl, 0);

	assert_eq(uirq_request_irq(irq, edge_primary, 0, "idle", &ctl), 0);
	for (int i = 0; i < 10; i++) {
		uirq_swirq_pulse(ctl, 0);
		uirq_sim_sleep_ns(SIM_MS);
	}
	assert_eq(uirq_swirq_destroy(ctl), -EBUSY, "a handler is installed");
	settle();
	assert_eq(stats_of(0).latched, (unsigned long)atomic_load(&primaries), "every latch handled");
	uirq_free_irq(irq, &ctl);
	uirq_swirq_pulse(ctl, 0);	/* latched, masked: nobody is told */
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

UIRQ_TEST(swirq, errors, .init = setup1, .fini = teardown, .timeout = 20)
{
	struct uirq_swirq *c = NULL;
	struct uirq_swirq_config cfg = { .name = "E", .nr_inputs = 0 };

	assert_eq(uirq_swirq_create(&cfg, &c), -EINVAL, "no inputs");
	cfg.nr_inputs = UIRQ_SWIRQ_MAX_INPUTS + 1;
	assert_eq(uirq_swirq_create(&cfg, &c), -EINVAL, "too many inputs");
	cfg.nr_inputs = 4;
	cfg.default_type = UIRQ_TYPE_LEVEL_HIGH | UIRQ_TYPE_EDGE_RISING;
	assert_eq(uirq_swirq_create(&cfg, &c), -EINVAL, "bad type");
	cfg.default_type = 0;
	cfg.flags = 1u << 7;
	assert_eq(uirq_swirq_create(&cfg, &c), -EINVAL, "bad flags");
	assert_eq(uirq_swirq_create(NULL, &c), -EINVAL);

	ctl = make(UIRQ_TYPE_LEVEL_HIGH, 0);
	assert_eq(uirq_swirq_map(ctl, 8), -EINVAL, "bad hwirq");
	assert_eq(uirq_swirq_set_level(ctl, 8, true), -EINVAL);
	assert_eq(uirq_swirq_pulse(ctl, 9), -EINVAL);
	assert_eq(uirq_swirq_get_level(ctl, 100), -EINVAL);
	struct uirq_swirq_stats st;

	assert_eq(uirq_swirq_get_stats(ctl, 8, &st), -EINVAL);
	assert_eq(uirq_swirq_set_type(ctl, 8, UIRQ_TYPE_EDGE_RISING), -EINVAL);
	assert_eq(uirq_swirq_pulse(ctl, 0), -EINVAL, "a pulse on a level input");
	int irq = uirq_swirq_map(ctl, 0);

	assert_eq(uirq_irq_set_irq_type(irq, UIRQ_TYPE_LEVEL_HIGH | UIRQ_TYPE_EDGE_FALLING), -EINVAL);
	assert_eq(stats_of(0).type, UIRQ_TYPE_LEVEL_HIGH, "a refused type changes nothing");
	assert_eq(uirq_swirq_destroy(NULL), -EINVAL);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

/*
 * Found by tests/fuzz/fuzz_genirq.c (corpus regress-swirq-destroy-*): destroy
 * judged "has a handler" by "started".  A line requested with IRQF_NO_AUTOEN
 * has a handler and is not started (destroy freed it under the handler); a
 * line enable_irq() started by hand has none (destroy refused forever).
 */
static uirq_irqreturn_t quiet_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(swirq, destroy_busy_means_a_handler, .init = setup1, .fini = teardown, .timeout = 20)
{
	ctl = make(UIRQ_TYPE_EDGE_RISING, 0);
	int irq = uirq_swirq_map(ctl, 2);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq(irq, quiet_primary, UIRQF_NO_AUTOEN, "noauto", &ctl), 0);
	assert_true(uirq_irq_has_action(irq));
	assert_eq(uirq_swirq_destroy(ctl), -EBUSY, "a handler is installed, not started");
	assert_str_eq(uirq_free_irq(irq, &ctl), "noauto");
	assert_false(uirq_irq_has_action(irq));

	/* Enabled by hand, no handler: nothing keeps the controller. */
	irq = uirq_swirq_map(ctl, 5);
	uirq_enable_irq(irq);
	assert_true(uirq_irq_is_enabled(irq));
	assert_eq(uirq_swirq_destroy(ctl), 0, "no handler on any input");
}

/*
 * A nested child behind a level parent (a slow-bus demultiplexer: the
 * parent's ONESHOT thread calls handle_nested_irq for the child, then the
 * device drops the parent's level).  The child is disabled when its event
 * comes, so the demultiplexer's run only marks it pending; enable_irq()
 * resends it through the parent.  As mainline's irq_sw_resend() (v6.5), the
 * resend runs the parent's flow whatever the parent's input says: the
 * child's thread_fn runs.  Raising the parent again instead would find its
 * level low and the child's event would be lost.
 */
static unsigned int nest_child;
static atomic_int nest_status, nest_child_runs, nest_parent_runs;

static void nest_begin(unsigned int cpus)
{
	atomic_store(&nest_status, 0);
	atomic_store(&nest_child_runs, 0);
	atomic_store(&nest_parent_runs, 0);
	begin(cpus);
}

static uirq_irqreturn_t nest_demux(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&nest_parent_runs, 1);
	uirq_handle_nested_irq(nest_child);
	uirq_swirq_set_level(ctl, 4, false);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t nest_child_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	/* The child's status stays latched in the device until its own handler clears it. */
	if (!atomic_exchange(&nest_status, 0))
		return UIRQ_IRQ_NONE;
	atomic_fetch_add(&nest_child_runs, 1);
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(swirq, nested_child_resend_through_a_level_parent, nest_begin, teardown, .timeout = 20)
{
	static struct uirq_irq_chip nest_chip = { .name = "NEST" };
	int parent;

	ctl = make(UIRQ_TYPE_LEVEL_HIGH, 0);
	parent = uirq_swirq_map(ctl, 4);
	assert_gt(parent, 0);
	nest_child = (unsigned int)uirq_irq_alloc_descs(-1, 1, 1);
	assert_gt(nest_child, 0u);
	uirq_irq_set_chip_and_handler_name(nest_child, &nest_chip, NULL, "nested");
	uirq_irq_set_nested_thread(nest_child, true);
	assert_eq(uirq_irq_set_parent(nest_child, parent), 0);
	assert_eq(uirq_request_threaded_irq(parent, NULL, nest_demux, UIRQF_ONESHOT, "demux", &ctl), 0);
	assert_eq(uirq_request_threaded_irq(nest_child, NULL, nest_child_thread, 0, "child", &nest_child), 0);

	uirq_disable_irq(nest_child);
	atomic_store(&nest_status, 1);
	assert_eq(uirq_swirq_set_level(ctl, 4, true), 0);
	settle();
	assert_eq(atomic_load(&nest_parent_runs), 1);
	assert_eq(atomic_load(&nest_child_runs), 0, "the child is disabled");
	assert_eq(uirq_swirq_get_level(ctl, 4), 0, "the parent's level is low again");

	uirq_enable_irq(nest_child);
	settle();
	assert_eq(atomic_load(&nest_child_runs), 1, "the child's event was lost: parent runs %d",
		  atomic_load(&nest_parent_runs));
	assert_eq(atomic_load(&nest_parent_runs), 2, "one resend, one run of the parent");
	assert_eq(atomic_load(&nest_status), 0);

	assert_str_eq(uirq_free_irq(nest_child, &nest_child), "child");
	assert_str_eq(uirq_free_irq(parent, &ctl), "demux");
	uirq_irq_free_descs(nest_child, 1);
	assert_eq(uirq_swirq_destroy(ctl), 0);
}

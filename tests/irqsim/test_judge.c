// SPDX-License-Identifier: MIT
/*
 * irqsim's judge (tools/irqsim/judge.c) on runs written by hand: the edges,
 * the transfers with what each status read found, the events.  The timing
 * is a 15 kHz bus's (a one-byte register read is 2.6 ms of wire), where a
 * 5 ms press is shorter than the three reads that answer it.
 */
#include <linux/input-event-codes.h>

#include "harness.h"
#include "irqsim.h"

#define US 1000ull
#define MS 1000000ull
#define READ (2600 * US)

static struct irqsim_opts opts = { .seeded = true };
static struct irqsim_run run;

static void setup(void)
{
	vec_free(&run.edges);
	vec_free(&run.events);
	vec_free(&run.xfers);
	vec_free(&run.lines);
	run = (struct irqsim_run){ .opts = &opts, .end_ns = 200 * MS };
	vec_init(&run.edges, sizeof(struct sim_edge));
	vec_init(&run.events, sizeof(struct sim_event));
	vec_init(&run.xfers, sizeof(struct sim_xfer));
	vec_init(&run.lines, sizeof(struct sim_line_result));
}

static void edge(uint64_t t, bool pressed)
{
	struct sim_edge e = { .t_ns = t, .pressed = pressed };

	assert_true(vec_push(&run.edges, &e));
}

/* A transfer of one read's wire time from t; seen: the edges a status read found (-1: another register). */
static uint64_t xfer(uint64_t t, long seen, bool injected)
{
	struct sim_xfer x = { .start_ns = t, .end_ns = t + READ, .wire_ns = READ, .ret = injected ? -5 : 1,
			      .edges_seen = seen, .injected = injected, .read = true, .len = 1 };

	assert_true(vec_push(&run.xfers, &x));
	return x.end_ns;
}

/* The three reads of one answer (PIH, SIH, status) back to back from t; the status read finds seen. */
static uint64_t answer(uint64_t t, long seen)
{
	return xfer(xfer(xfer(t, -1, false), -1, false), seen, false);
}

static void event(uint64_t t, int value)
{
	struct sim_event ev = { .t_ns = t, .rx_ns = t, .type = EV_KEY, .code = KEY_POWER, .value = value };

	assert_true(vec_push(&run.events, &ev));
}

/*
 * A press from 10 to 15 ms, its answer's reads from `from` on and the
 * release's after them, both status reads finding the release; no event.
 */
static void unanswered_press(uint64_t from)
{
	setup();
	edge(10 * MS, true);
	edge(15 * MS, false);
	answer(answer(from, 2), 2);
}

static void judge(struct delivery *d)
{
	latency_match(&run);
	latency_delivery(&run, d);
	printf("# judged %zu: ok %zu, lost %zu, duplicated %zu, wrong %zu, unread %zu, no_change %zu, faulted %zu\n",
	       d->judged, d->ok, d->lost, d->duplicated, d->wrong, d->unread, d->no_change, d->faulted);
}

/*
 * A 5 ms press answered by reads that kept the bus busy from the edge on:
 * the status read began after the release and found it; the key never went
 * down, so the release had nothing to report.  Not lost (the hardware
 * misses it too): it was judged lost, exit 1.
 */
UIRQ_TEST(judge, a_press_the_busy_bus_could_not_read_is_not_lost)
{
	struct delivery d;

	unanswered_press(10 * MS);
	judge(&d);
	assert_eq(d.judged, 2u);
	assert_eq(d.unread, 1u);
	assert_eq(d.no_change, 1u);
	assert_eq(d.lost, 0u);
	assert_eq(irqsim_verdict(&run), IRQSIM_EXIT_CLEAN);
}

/*
 * The same press with the bus free for 100 us after the edge: a driver
 * that could have read it in time did not, and its release, which found
 * the key up, is no excuse.
 */
UIRQ_TEST(judge, a_free_bus_moment_makes_it_a_loss)
{
	struct delivery d;

	unanswered_press(10 * MS + 100 * US);
	judge(&d);
	assert_eq(d.lost, 2u, "the press, and the release after a press the bus could have read");
	assert_eq(d.no_change, 0u);
	assert_eq(irqsim_verdict(&run), IRQSIM_EXIT_PROBLEMS);
}

/* A status read found the press, and no event came: lost, however slow the bus. */
UIRQ_TEST(judge, a_level_read_and_not_reported_is_lost)
{
	struct delivery d;

	setup();
	edge(10 * MS, true);
	edge(30 * MS, false);
	answer(10 * MS, 1);
	event(answer(30 * MS, 2), 0);
	judge(&d);
	assert_eq(d.lost, 1u);
	assert_eq(irqsim_verdict(&run), IRQSIM_EXIT_PROBLEMS);
}

/*
 * An injected failure excuses the edge it was on the bus for, not the run:
 * the first press's status read failed (faulted); the second press was
 * read and never reported (lost).  A run with a fault injected was not
 * judged on delivery at all (exit 0).
 */
UIRQ_TEST(judge, an_injected_fault_excuses_only_what_it_overlapped)
{
	struct delivery d;

	setup();
	edge(10 * MS, true);
	edge(30 * MS, false);
	edge(60 * MS, true);
	edge(90 * MS, false);
	xfer(xfer(xfer(10 * MS, -1, false), -1, false), -1, true);
	answer(30 * MS, 2);
	answer(60 * MS, 3);
	event(answer(90 * MS, 4), 0);
	run.faults_injected = 1;
	judge(&d);
	assert_eq(d.faulted, 1u, "the first press");
	assert_eq(d.no_change, 1u, "its release: the key never went down");
	assert_eq(d.lost, 1u, "the second press");
	assert_eq(irqsim_verdict(&run), IRQSIM_EXIT_PROBLEMS);
}

static void line(struct sim_line_result l)
{
	setup();
	assert_true(vec_push(&run.lines, &l));
}

/*
 * The lines' counts are judged in a --seed run (they were printed only):
 * each shared device's raises served once; a storm's interrupts each run
 * its handler (merged into one thread run when forced threading), and its
 * edges each become one while the line is enabled.
 */
UIRQ_TEST(judge, lines_are_held_to_their_promise)
{
	static const struct {
		struct sim_line_result l;
		int want;
	} cases[] = {
		{ { .raised = { 200, 200 }, .served = { 200, 200 } }, IRQSIM_EXIT_CLEAN },
		{ { .raised = { 200, 200 }, .served = { 200, 199 } }, IRQSIM_EXIT_PROBLEMS },
		{ { .raised = { 200, 200 }, .served = { 201, 200 } }, IRQSIM_EXIT_PROBLEMS },
		{ { .storm = true, .edges = 2000, .irqs = 2000, .handled = 2000 }, IRQSIM_EXIT_CLEAN },
		{ { .storm = true, .edges = 2000, .irqs = 2000, .handled = 1999 }, IRQSIM_EXIT_PROBLEMS },
		{ { .storm = true, .edges = 2000, .irqs = 2000, .handled = 40, .threaded = true }, IRQSIM_EXIT_CLEAN },
		{ { .storm = true, .edges = 2000, .irqs = 2000, .handled = 0, .threaded = true }, IRQSIM_EXIT_PROBLEMS },
		{ { .storm = true, .edges = 2000, .irqs = 1999, .handled = 1999 }, IRQSIM_EXIT_PROBLEMS },
		{ { .storm = true, .edges = 110000, .irqs = 100000, .handled = 100000, .disabled = true }, IRQSIM_EXIT_CLEAN },
		{ { .storm = true, .edges = 100, .irqs = 101, .handled = 101, .disabled = true }, IRQSIM_EXIT_PROBLEMS },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[128] = "";

		line(cases[i].l);
		line_kept_promise(&cases[i].l, why, sizeof(why));
		printf("# case %zu: %s\n", i, why[0] ? why : "kept");
		assert_eq(irqsim_verdict(&run), cases[i].want, "case %zu", i);
	}
	opts.seeded = false;
	assert_eq(irqsim_verdict(&run), IRQSIM_EXIT_CLEAN, "a free run reports, it does not judge");
	opts.seeded = true;
}

// SPDX-License-Identifier: MIT
/*
 * Every host fd-line kind (eventfd edge and level, timerfd edge and level)
 * through every disable/enable/free/request order: one event, one handler
 * run, told of one event, whatever the order.  The VM's programs do the same
 * for the kernel's kinds (tests/vm/edu-line.h: UIO, VFIO INTx and MSI; GPIO).
 *
 * In the deterministic mode: "the flow has seen it" and "nothing more came"
 * are exact there (virtual time, every task blocked), and each order runs
 * under several seeds and one or two CPUs, so the CPU's read may fall
 * anywhere between the test's calls.
 */
#include "common.h"

#include <stdint.h>

#include "uirq/sim.h"

#define US 1000ull

enum kind { EVENTFD_EDGE, EVENTFD_LEVEL, TIMERFD_EDGE, TIMERFD_LEVEL, NR_KINDS };

static const char *const kind_name[NR_KINDS] = { "eventfd edge", "eventfd level", "timerfd edge",
						 "timerfd level" };

static struct {
	enum kind kind;
	struct uirq_fd_line *line;
	unsigned int irq;
	atomic_ulong runs, told;	/* the handler's */
} t;

static uirq_irqreturn_t thread_fn(int irq, void *dev)
{
	(void)irq, (void)dev;
	atomic_fetch_add(&t.runs, 1);
	atomic_fetch_add(&t.told, (unsigned long)uirq_fd_line_take_count(t.line));
	uirq_sim_sleep_ns(5 * US);	/* work: an event during it waits for the unmask */
	return UIRQ_IRQ_HANDLED;
}

static int request(void)
{
	return uirq_request_threaded_irq(t.irq, NULL, thread_fn, UIRQF_ONESHOT, "order", &t);
}

/* One event: an eventfd write, or a timer expiring 1 us from now. */
static void event(void)
{
	if (t.kind == EVENTFD_EDGE || t.kind == EVENTFD_LEVEL)
		assert_eq(uirq_eventfd_line_raise(t.line), 0);
	else
		assert_eq(uirq_timerfd_line_settime(t.line, US, 0), 0);
}

/* Long enough for any CPU to have taken whatever is there; virtual, so free. */
static void settle(void)
{
	uirq_sim_sleep_ns(100 * US);
}

static void expect_told(unsigned long runs, unsigned long events, const char *order, uint64_t seed, unsigned int cpus)
{
	unsigned long ran = atomic_load(&t.runs), told = atomic_load(&t.told);

	assert_eq(ran, runs, "%s, %s, seed %llu, %u cpus: handler runs", kind_name[t.kind], order,
		  (unsigned long long)seed, cpus);
	assert_eq(told, events, "%s, %s, seed %llu, %u cpus: events told", kind_name[t.kind], order,
		  (unsigned long long)seed, cpus);
}

/* runs handler runs so far, each told of one event. */
static void expect(unsigned long runs, const char *order, uint64_t seed, unsigned int cpus)
{
	expect_told(runs, runs, order, seed, cpus);
}

enum order { DISABLE_EVENT_ENABLE, DISABLE_TWO_EVENTS_ENABLE, NESTED_DISABLE, DISABLE_EVENT_FREE_REQUEST,
	     FREE_EVENT_REQUEST, EVENT_DURING_THE_THREAD, NR_ORDERS };

static const char *const order_name[NR_ORDERS] = { "disable, event, enable", "disable, event, event, enable",
						   "disable twice, event, enable twice",
						   "disable, event, free, request", "free, event, request",
						   "an event while the thread runs" };

static void run(enum kind kind, enum order order, uint64_t seed, unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };
	unsigned int type = kind == EVENTFD_LEVEL || kind == TIMERFD_LEVEL ? UIRQ_TYPE_LEVEL_HIGH :
									 UIRQ_TYPE_EDGE_RISING;
	const char *name = order_name[order];
	int irq;

	memset(&t, 0, sizeof(t));
	t.kind = kind;
	assert_eq(uirq_sim_start(seed, UIRQ_SIM_PCT, 3), 0);
	assert_eq(uirq_cpus_start(&cfg), 0);
	if (kind == EVENTFD_EDGE || kind == EVENTFD_LEVEL)
		irq = uirq_eventfd_line_create(-1, type, &t.line);
	else
		irq = uirq_timerfd_line_create(type, 0, 0, &t.line);
	assert_gt(irq, 0, "%s line: %d", kind_name[kind], irq);
	t.irq = (unsigned int)irq;
	assert_eq(request(), 0);
	switch (order) {
	case DISABLE_EVENT_ENABLE:
		uirq_disable_irq(t.irq);
		event();
		settle();
		expect(0, name, seed, cpus);
		uirq_enable_irq(t.irq);
		break;
	case DISABLE_TWO_EVENTS_ENABLE:
		/*
		 * The first is taken (an edge read by the disabled flow and
		 * marked for a resend, a level left asserted), the second
		 * waits in the fd: one run for both, as the kernel's resend
		 * and a controller's latch deliver one interrupt.  A
		 * timerfd's re-arm drops its unread expiration.
		 */
		uirq_disable_irq(t.irq);
		event();
		settle();
		event();
		settle();
		expect(0, name, seed, cpus);
		uirq_enable_irq(t.irq);
		settle();
		expect_told(1, kind == TIMERFD_LEVEL ? 1 : 2, name, seed, cpus);
		atomic_store(&t.told, atomic_load(&t.runs));	/* one event a run from here, as in the other orders */
		break;
	case NESTED_DISABLE:
		uirq_disable_irq(t.irq);
		uirq_disable_irq(t.irq);
		event();
		settle();
		uirq_enable_irq(t.irq);
		settle();
		expect(0, name, seed, cpus);
		uirq_enable_irq(t.irq);
		break;
	case DISABLE_EVENT_FREE_REQUEST:
		uirq_disable_irq(t.irq);
		event();
		settle();
		uirq_free_irq(t.irq, &t);
		settle();
		expect(0, name, seed, cpus);
		assert_eq(request(), 0);
		break;
	case FREE_EVENT_REQUEST:
		uirq_free_irq(t.irq, &t);
		event();
		settle();
		expect(0, name, seed, cpus);
		assert_eq(request(), 0);
		break;
	case EVENT_DURING_THE_THREAD:
		event();
		uirq_sim_sleep_ns(2 * US);	/* the thread is in its 5 us of work */
		event();
		break;
	default:
		break;
	}
	settle();
	expect(order == EVENT_DURING_THE_THREAD ? 2 : 1, name, seed, cpus);
	/* And the line works on: one more event, one more run. */
	event();
	settle();
	expect(order == EVENT_DURING_THE_THREAD ? 3 : 2, name, seed, cpus);
	uirq_free_irq(t.irq, &t);
	assert_eq(uirq_fd_line_destroy(t.line), 0);
	uirq_cpus_stop();
	assert_eq(uirq_sim_stop(), UIRQ_SIM_OK);
}

static void all_orders(enum kind kind)
{
	for (enum order o = 0; o < NR_ORDERS; o++)
		for (uint64_t seed = 1; seed <= 8; seed++)
			run(kind, o, seed, 1 + (unsigned int)(seed % 2));
}

UIRQ_TEST(fdorders, eventfd_edge, .timeout = 60)
{
	all_orders(EVENTFD_EDGE);
}

UIRQ_TEST(fdorders, eventfd_level, .timeout = 60)
{
	all_orders(EVENTFD_LEVEL);
}

UIRQ_TEST(fdorders, timerfd_edge, .timeout = 60)
{
	all_orders(TIMERFD_EDGE);
}

UIRQ_TEST(fdorders, timerfd_level, .timeout = 60)
{
	all_orders(TIMERFD_LEVEL);
}

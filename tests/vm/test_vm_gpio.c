// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: GPIO lines (sources/gpio.c) on gpio-sim's chip,
 * which scripts/vm/init creates.  This program is the hardware: it drives
 * a line's input through gpio-sim's pull attribute and waits for the
 * threaded handler, which records the last event the line read.  Every
 * edge must reach the thread exactly once, in order, with its kind and
 * the kernel's sequence number; events the kernel dropped must show in
 * the stats as lost; bad arguments must give the documented errors.
 */
#include "harness.h"
#include "vm-hw.h"

#include <errno.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/sources.h"

#define CYCLES 100	/* press-release pairs: 200 edges */
#define MAX_RUNS 512
#define WAIT_S 20	/* a bound for a hang, not a timing requirement */

static struct {
	char chip[64];
	struct uirq_fd_line *line;
	unsigned int irq;
	sem_t ran;
	atomic_uint runs;
	struct uirq_gpio_event seen[MAX_RUNS];
	int errors[MAX_RUNS];
} fx;

/* The thread records the event that ended its interrupt's batch. */
static uirq_irqreturn_t thread(int irq, void *dev)
{
	unsigned int n = atomic_load(&fx.runs);

	(void)irq, (void)dev;
	if (n < MAX_RUNS)
		fx.errors[n] = uirq_gpio_line_last_event(fx.line, &fx.seen[n]);
	atomic_store(&fx.runs, n + 1);
	sem_post(&fx.ran);
	return UIRQ_IRQ_HANDLED;
}

static void setup(void)
{
	memset(&fx, 0, sizeof(fx));
	assert_eq(sem_init(&fx.ran, 0, 0), 0);
	assert_eq(vm_gpio_chip(fx.chip, sizeof(fx.chip)), 0, "no gpio-sim chip: is the module loaded?");
	/* Every line starts low. */
	for (unsigned int i = 0; i < VM_GPIO_LINES; i++)
		assert_eq(vm_gpio_pull(i, 0), 0);
	assert_eq(uirq_cpus_start(NULL), 0);
}

/* Line 0 of the chip as an fd line of type, with the recording thread (handler NULL, ONESHOT). */
static void open_line(unsigned int type, uint32_t debounce_us)
{
	int irq = uirq_gpio_line_create(fx.chip, 0, type, debounce_us, &fx.line);

	assert_gt(irq, 0, "uirq_gpio_line_create(%s, 0): %d", fx.chip, irq);
	fx.irq = (unsigned int)irq;
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, UIRQF_ONESHOT, "vm-gpio", &fx), 0);
}

static void teardown(void)
{
	struct uirq_lockdep_stats st;

	if (fx.line) {
		uirq_free_irq(fx.irq, &fx);
		assert_eq(uirq_fd_line_destroy(fx.line), 0);
	}
	uirq_cpus_stop();
	uirq_lockdep_get_stats(&st);
	assert_eq(st.reports, 0ul, "lockdep reported");
}

/* Wait for the thread's next run; false if none came within WAIT_S. */
static bool await_run(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += WAIT_S;
	while (sem_timedwait(&fx.ran, &t)) {
		if (errno != EINTR)
			return false;
	}
	return true;
}

/* No further run within ms: what "exactly once" needs after the last edge. */
static bool quiet_for(int ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += (long)ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return sem_timedwait(&fx.ran, &t) != 0;
}

/* Drive line 0 to level and check the thread saw the edge as number seqno of kind. */
static void edge(int level, uint32_t seqno, unsigned int kind)
{
	unsigned int n = atomic_load(&fx.runs);

	assert_eq(vm_gpio_pull(0, level), 0);
	assert_true(await_run(), "edge %u (%s): no thread run", seqno, level ? "rising" : "falling");
	assert_eq(atomic_load(&fx.runs), n + 1);
	assert_eq(fx.errors[n], 0);
	assert_eq(fx.seen[n].line_seqno, seqno);
	assert_eq(fx.seen[n].kind, kind, "edge %u", seqno);
}

UIRQ_TEST(vm_gpio, both_edges_reach_the_thread_once_each_in_order, .init = setup, .fini = teardown,
	  .timeout = 300)
{
	struct uirq_gpio_line_stats gs;
	struct uirq_fd_line_stats fs;

	open_line(0, 0);	/* 0: both edges */
	for (uint32_t i = 0; i < CYCLES; i++) {
		edge(1, 2 * i + 1, UIRQ_TYPE_EDGE_RISING);
		assert_eq(uirq_gpio_line_get_value(fx.line), 1);
		edge(0, 2 * i + 2, UIRQ_TYPE_EDGE_FALLING);
		assert_eq(uirq_gpio_line_get_value(fx.line), 0);
	}
	assert_true(quiet_for(300), "an extra thread run");
	assert_eq(atomic_load(&fx.runs), 2u * CYCLES);
	/* The kernel's timestamps follow the edges' order. */
	for (unsigned int i = 1; i < 2 * CYCLES; i++)
		assert_gt(fx.seen[i].timestamp_ns, fx.seen[i - 1].timestamp_ns, "event %u", i);
	assert_eq(uirq_gpio_line_get_stats(fx.line, &gs), 0);
	assert_eq(gs.rising, (unsigned long)CYCLES);
	assert_eq(gs.falling, (unsigned long)CYCLES);
	assert_eq(gs.lost, 0ul);
	assert_eq(gs.read_errors, 0ul);
	assert_eq(gs.last_seqno, 2u * CYCLES);
	assert_eq(uirq_fd_line_get_stats(fx.line, &fs), 0);
	assert_eq(fs.type, UIRQ_TYPE_EDGE_BOTH);
	assert_eq(fs.events, 2ul * CYCLES);
	assert_eq(fs.acks, 2ul * CYCLES);
}

/* One edge type detects only its edges; set_type switches the request to the other. */
UIRQ_TEST(vm_gpio, one_edge_types_and_set_type, .init = setup, .fini = teardown, .timeout = 300)
{
	struct uirq_gpio_line_stats gs;
	struct uirq_fd_line_stats fs;
	struct uirq_gpio_event ev;

	open_line(UIRQ_TYPE_EDGE_RISING, 0);
	assert_eq(uirq_gpio_line_last_event(fx.line, &ev), -ENODATA);
	for (uint32_t i = 1; i <= 20; i++) {
		edge(1, i, UIRQ_TYPE_EDGE_RISING);
		assert_eq(vm_gpio_pull(0, 0), 0);	/* not detected */
	}
	assert_true(quiet_for(300), "a falling edge reached the thread of a rising line");
	assert_eq(uirq_gpio_line_get_stats(fx.line, &gs), 0);
	assert_eq(gs.rising, 20ul);
	assert_eq(gs.falling, 0ul);

	/* A level type is refused and the edge type stays. */
	assert_ne(uirq_irq_set_irq_type(fx.irq, UIRQ_TYPE_LEVEL_HIGH), 0);
	assert_eq(uirq_fd_line_get_stats(fx.line, &fs), 0);
	assert_eq(fs.type, UIRQ_TYPE_EDGE_RISING);

	/* Falling now: the kernel's request is reconfigured. */
	assert_eq(uirq_irq_set_irq_type(fx.irq, UIRQ_TYPE_EDGE_FALLING), 0);
	assert_eq(uirq_fd_line_get_stats(fx.line, &fs), 0);
	assert_eq(fs.type, UIRQ_TYPE_EDGE_FALLING);
	for (int i = 0; i < 20; i++) {
		unsigned int n = atomic_load(&fx.runs);

		assert_eq(vm_gpio_pull(0, 1), 0);	/* not detected */
		assert_eq(vm_gpio_pull(0, 0), 0);
		assert_true(await_run(), "falling edge %d: no thread run", i);
		assert_eq(fx.seen[n].kind, UIRQ_TYPE_EDGE_FALLING, "falling edge %d", i);
	}
	assert_true(quiet_for(300), "a rising edge reached the thread of a falling line");
	assert_eq(uirq_gpio_line_get_stats(fx.line, &gs), 0);
	assert_eq(gs.rising, 20ul);
	assert_eq(gs.falling, 20ul);
	assert_eq(gs.lost, 0ul);
	/* The reconfigured request numbers on: every event accounted for. */
	assert_eq(gs.last_seqno, 40u);
}

/*
 * The interrupts the kernel took for our line request: the /proc/interrupts
 * row of gpio-sim's chip (irq_sim) labelled with the request's consumer ("uirq"),
 * summed over the CPUs.  gpiolib's character device numbers one event per
 * interrupt (its handler is threaded and ONESHOT), so this is the kernel's
 * own count of the events it numbered.
 */
static unsigned long kernel_irqs(void)
{
	char row[512];
	unsigned long sum = 0;
	bool found = false;
	FILE *f = fopen("/proc/interrupts", "r");

	assert_not_null(f);
	while (fgets(row, sizeof(row), f)) {
		if (!strstr(row, " irq_sim ") || !strstr(row, " uirq\n"))
			continue;
		char *p = strchr(row, ':'), *end;

		assert_not_null(p);
		for (p++;; p = end) {
			unsigned long v = strtoul(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		found = true;
	}
	fclose(f);
	assert_true(found, "no irq_sim row labelled uirq in /proc/interrupts");
	return sum;
}

/* Events the line has read from the kernel so far. */
static unsigned long events_read(void)
{
	struct uirq_gpio_line_stats gs;

	assert_eq(uirq_gpio_line_get_stats(fx.line, &gs), 0);
	return gs.rising + gs.falling;
}

/*
 * Edges while the line is disabled queue in the kernel, which keeps 16 and
 * drops the oldest: after enable_irq the thread runs, and the gap in the
 * sequence numbers is in the stats as lost events.
 *
 * gpio-sim's interrupts come from the kernel's interrupt simulator, which
 * drops an edge that arrives while the interrupt is masked - as it is while
 * gpiolib's ONESHOT thread runs - instead of latching it as a controller's
 * status register would.  Toggled as fast as sysfs allows, most edges are
 * never numbered (2 of 40 seen once), and the last toggle may be among
 * them: the last event can say rising while the line is low.  That is the
 * simulator, not a lost event: so the line is toggled until the kernel has
 * taken more interrupts than its queue holds (counted in /proc/interrupts),
 * and the last event is checked against the kernel's count, not against the
 * last toggle.
 */
UIRQ_TEST(vm_gpio, events_the_kernel_dropped_are_reported_lost, .init = setup, .fini = teardown,
	  .timeout = 300)
{
	struct uirq_gpio_line_stats gs;
	struct uirq_fd_line_stats fs;
	struct uirq_gpio_event ev;
	unsigned long numbered;
	int level = 0, toggles = 0;

	open_line(UIRQ_TYPE_EDGE_BOTH, 0);
	unsigned long base = kernel_irqs();

	uirq_disable_irq(fx.irq);
	/*
	 * Until the kernel has numbered 24 more than we have read: the first
	 * interrupt drains what has queued by the time it runs (a busy
	 * machine lets 8 or more queue first) before the flow masks, and
	 * the kernel's queue holds 16 of the rest, so at least 8 are dropped.
	 */
	while (kernel_irqs() - base < events_read() + 24) {
		assert_lt(toggles, 4000, "the kernel took %lu interrupts for %d toggles", kernel_irqs() - base, toggles);
		level = !level;
		assert_eq(vm_gpio_pull(0, level), 0);
		toggles++;
	}
	assert_true(quiet_for(300), "the thread ran while the line was disabled");
	numbered = kernel_irqs() - base;
	uirq_enable_irq(fx.irq);
	/*
	 * One run: the resend of the batch the disabled flow read, and the
	 * kernel's queue waiting in the fd, are one delivery (the resend
	 * leaves a readable fd to the re-armed watch).
	 */
	assert_true(await_run(), "no thread run after enable_irq");
	assert_true(quiet_for(100), "a second thread run after enable_irq");
	assert_eq(atomic_load(&fx.runs), 1u);
	assert_eq(uirq_gpio_line_get_stats(fx.line, &gs), 0);
	assert_eq(uirq_fd_line_get_stats(fx.line, &fs), 0);
	unsigned long read = gs.rising + gs.falling;

	printf("# %d toggles, %lu numbered by the kernel, %lu read, %lu lost\n", toggles, numbered, read, gs.lost);
	assert_eq((unsigned long)gs.last_seqno, numbered, "the last event is the kernel's last numbered");
	/* More were numbered than the queue holds: the kernel dropped some, and we say so. */
	assert_gt(gs.lost, 0ul, "%lu events read of %u numbered, none reported lost", read, gs.last_seqno);
	assert_eq(read + gs.lost, (unsigned long)gs.last_seqno);
	/*
	 * Read: the batch the first interrupt drained when it found the line
	 * disabled (a lazy disable masks then), then the kernel's full queue.
	 */
	assert_ge(read, 16ul, "%lu events read of %u numbered", read, gs.last_seqno);
	assert_eq(fs.events, read);
	assert_eq(uirq_gpio_line_last_event(fx.line, &ev), 0);
	assert_eq(ev.line_seqno, gs.last_seqno);
	assert_true(ev.kind == UIRQ_TYPE_EDGE_RISING || ev.kind == UIRQ_TYPE_EDGE_FALLING, "kind %u", ev.kind);
	/* The line's value is read from the kernel now: the level driven last. */
	assert_eq(uirq_gpio_line_get_value(fx.line), level);
}

/*
 * One rising edge (up, then down: the line detects rising edges only)
 * through each disable/enable/free/request order: held back, then one
 * thread run with its sequence number, and the line works on.  The same
 * orders as the edu lines' (edu-line.h) and the host kinds' (tests/sources/
 * test_fdorders.c).
 */
enum gpio_order { DISABLE_EDGE_ENABLE, NESTED_DISABLE, DISABLE_EDGE_FREE_REQUEST, FREE_EDGE_REQUEST };

static void pulse(void)
{
	assert_eq(vm_gpio_pull(0, 1), 0);
	assert_eq(vm_gpio_pull(0, 0), 0);
}

static void request(void)
{
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, UIRQF_ONESHOT, "vm-gpio", &fx), 0);
}

/* The n-th run, and no other: it saw rising edge seqno. */
static void expect_run(unsigned int n, uint32_t seqno)
{
	assert_true(await_run(), "edge %u: no thread run", seqno);
	assert_true(quiet_for(100), "edge %u: an extra thread run", seqno);
	assert_eq(atomic_load(&fx.runs), n);
	assert_eq(fx.errors[n - 1], 0);
	assert_eq(fx.seen[n - 1].line_seqno, seqno);
	assert_eq(fx.seen[n - 1].kind, UIRQ_TYPE_EDGE_RISING);
}

static void gpio_order(enum gpio_order o)
{
	open_line(UIRQ_TYPE_EDGE_RISING, 0);
	if (o == FREE_EDGE_REQUEST)
		uirq_free_irq(fx.irq, &fx);
	else
		uirq_disable_irq(fx.irq);
	if (o == NESTED_DISABLE)
		uirq_disable_irq(fx.irq);
	pulse();
	assert_true(quiet_for(100), "ran while held back");
	switch (o) {
	case NESTED_DISABLE:
		uirq_enable_irq(fx.irq);
		assert_true(quiet_for(100), "ran at depth 1");
		uirq_enable_irq(fx.irq);
		break;
	case DISABLE_EDGE_FREE_REQUEST:
		uirq_free_irq(fx.irq, &fx);
		assert_true(quiet_for(100), "ran while freed");
		request();
		break;
	case FREE_EDGE_REQUEST:
		request();
		break;
	default:
		uirq_enable_irq(fx.irq);
		break;
	}
	expect_run(1, 1);
	pulse();
	expect_run(2, 2);
}

UIRQ_TEST(vm_gpio, disable_edge_enable, .init = setup, .fini = teardown, .timeout = 60)
{
	gpio_order(DISABLE_EDGE_ENABLE);
}

UIRQ_TEST(vm_gpio, nested_disable, .init = setup, .fini = teardown, .timeout = 60)
{
	gpio_order(NESTED_DISABLE);
}

UIRQ_TEST(vm_gpio, disable_edge_free_request, .init = setup, .fini = teardown, .timeout = 60)
{
	gpio_order(DISABLE_EDGE_FREE_REQUEST);
}

UIRQ_TEST(vm_gpio, free_edge_request, .init = setup, .fini = teardown, .timeout = 60)
{
	gpio_order(FREE_EDGE_REQUEST);
}

/* A debounced line (the kernel debounces in software where gpio-sim cannot) still reports its edges. */
UIRQ_TEST(vm_gpio, debounced_line_reports_edges, .init = setup, .fini = teardown, .timeout = 120)
{
	struct uirq_gpio_line_stats gs;

	open_line(UIRQ_TYPE_EDGE_BOTH, 1000);
	assert_eq(uirq_gpio_line_get_stats(fx.line, &gs), 0);
	assert_eq(gs.debounce_us, 1000u);
	for (uint32_t i = 0; i < 5; i++) {
		edge(1, 2 * i + 1, UIRQ_TYPE_EDGE_RISING);
		edge(0, 2 * i + 2, UIRQ_TYPE_EDGE_FALLING);
	}
}

UIRQ_TEST(vm_gpio, bad_chips_lines_and_types_fail_clearly, .init = setup, .fini = teardown, .timeout = 120)
{
	struct uirq_fd_line *l = NULL, *again = NULL;
	char node[80];
	int irq;

	snprintf(node, sizeof(node), "/dev/%s", fx.chip);
	assert_eq(uirq_gpio_line_create("/dev/gpiochip97", 0, 0, 0, &l), -ENOENT);
	assert_eq(uirq_gpio_line_create("gpiochip97", 0, 0, 0, &l), -ENOENT);
	assert_eq(uirq_gpio_line_create("/dev/null", 0, 0, 0, &l), -ENOTTY);
	assert_eq(uirq_gpio_line_create(node, VM_GPIO_LINES, 0, 0, &l), -EINVAL);
	assert_eq(uirq_gpio_line_create(node, 1000, 0, 0, &l), -EINVAL);
	assert_eq(uirq_gpio_line_create(node, 0, UIRQ_TYPE_LEVEL_HIGH, 0, &l), -EINVAL);
	assert_eq(uirq_gpio_line_create(node, 0, UIRQ_TYPE_LEVEL_LOW, 0, &l), -EINVAL);
	assert_eq(uirq_gpio_line_create(node, 0, 0x10, 0, &l), -EINVAL);
	assert_null(l);

	/* A line is requested once; destroy releases it. */
	irq = uirq_gpio_line_create(node, 3, UIRQ_TYPE_EDGE_FALLING, 0, &l);
	assert_gt(irq, 0);
	assert_eq(uirq_gpio_line_create(fx.chip, 3, 0, 0, &again), -EBUSY);
	assert_eq(uirq_fd_line_destroy(l), 0);
	irq = uirq_gpio_line_create(fx.chip + strlen("gpiochip"), 3, 0, 0, &again);	/* "N" */
	assert_gt(irq, 0, "the line was not released: %d", irq);
	assert_eq(uirq_fd_line_destroy(again), 0);
}

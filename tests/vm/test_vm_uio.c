// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: the UIO line (sources/uio.c) on the edu device
 * behind uio_pci_generic.  A threaded IRQF_ONESHOT handler's primary reads
 * and acknowledges edu's status through the mapped BAR; every interrupt
 * raised must reach the thread exactly once, the line must re-enable INTx
 * after each, disable it on free_irq, keep it disabled through a ONESHOT
 * thread, and bad arguments must give the documented errors.
 */
#define _GNU_SOURCE	/* sched_setaffinity() in edu-line.h */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
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

#include "edu-line.h"
#include "vm-hw.h"

#define CONFIG "/sys/class/uio/uio0/device/config"
#define INTX_DISABLE (1u << 10)

static struct {
	struct uirq_fd_line *line;
	volatile uint32_t *bar;
	size_t size;
	unsigned int irq;
	atomic_ulong primary, refused, thread;
	_Atomic uint32_t last_status;
} fx;

static uirq_irqreturn_t primary(int irq, void *dev)
{
	uint32_t status = fx.bar[EDU_IRQ_STATUS / 4];

	(void)irq, (void)dev;
	if (!status) {
		atomic_fetch_add(&fx.refused, 1);
		return UIRQ_IRQ_NONE;
	}
	fx.bar[EDU_IRQ_ACK / 4] = status;
	atomic_store(&fx.last_status, status);
	atomic_fetch_add(&fx.primary, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t thread(int irq, void *dev)
{
	(void)irq, (void)dev;
	atomic_fetch_add(&fx.thread, 1);
	return UIRQ_IRQ_HANDLED;
}

static void setup(void)
{
	volatile void *p;
	int irq;

	assert_eq(uirq_cpus_start(NULL), 0);
	irq = uirq_uio_line_create("/dev/uio0", 0, &fx.line);
	assert_gt(irq, 0, "uirq_uio_line_create: %d", irq);
	fx.irq = (unsigned int)irq;
	assert_eq(uirq_uio_line_map(fx.line, 0, &p, &fx.size), 0);
	fx.bar = (volatile uint32_t *)p;
}

static void setup_requested(void)
{
	setup();
	assert_eq(uirq_request_threaded_irq(fx.irq, primary, thread, UIRQF_ONESHOT, "vm-uio", &fx), 0);
}

static void teardown_line(void)
{
	struct uirq_lockdep_stats st;

	assert_eq(uirq_fd_line_destroy(fx.line), 0);
	uirq_cpus_stop();
	uirq_lockdep_get_stats(&st);
	assert_eq(st.reports, 0ul, "lockdep reported");
}

static void teardown(void)
{
	uirq_free_irq(fx.irq, &fx);
	teardown_line();
}

static uint16_t pci_command(void)
{
	uint16_t cmd = 0;
	int fd = open(CONFIG, O_RDONLY);

	assert_ge(fd, 0);
	assert_eq(pread(fd, &cmd, 2, 4), 2);
	close(fd);
	return cmd;
}

/* uio's own count of the device's interrupts. */
static unsigned long uio_events(void)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/class/uio/uio0/event", "r");

	assert_not_null(f);
	assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return strtoul(buf, NULL, 10);
}

static void wait_count(atomic_ulong *c, unsigned long n, const char *what)
{
	for (int i = 0; atomic_load(c) < n; i++) {
		assert_lt(i, 200000, "%s: %lu, want %lu", what, atomic_load(c), n);
		usleep(100);
	}
}

static void wait_thread(unsigned long n)
{
	wait_count(&fx.thread, n, "thread runs");
}

UIRQ_TEST(vm_uio_line, bar0_is_edu, .init = setup, .fini = teardown_line, .timeout = 30)
{
	assert_ge(fx.size, 4096u);
	assert_eq(fx.bar[EDU_ID / 4], 0x010000edu, "id %#x", fx.bar[EDU_ID / 4]);
	assert_eq(uirq_uio_line_index(fx.line), 0);
}

/* Each edu interrupt: primary acks with the status, the thread runs once, INTx comes back. */
UIRQ_TEST(vm_uio_line, every_interrupt_reaches_the_thread_once, .init = setup_requested, .fini = teardown,
     .timeout = 120)
{
	const unsigned long n = 100;
	unsigned long ev0 = uio_events();
	struct uirq_fd_line_stats st;

	for (unsigned long i = 1; i <= n; i++) {
		fx.bar[EDU_IRQ_RAISE / 4] = (uint32_t)i;
		wait_thread(i);
		assert_eq(atomic_load(&fx.last_status), (uint32_t)i);
	}
	usleep(50000);
	assert_eq(atomic_load(&fx.thread), n);
	assert_eq(atomic_load(&fx.primary), n);
	assert_eq(atomic_load(&fx.refused), 0ul);
	assert_eq(uio_events() - ev0, n, "the kernel counted %lu", uio_events() - ev0);
	assert_eq(uirq_fd_line_get_stats(fx.line, &st), 0);
	assert_eq(st.events, n, "events %lu", st.events);
	assert_eq(st.acks + st.merged, st.events);
	assert_eq(uirq_kstat_irqs(fx.irq), n);
	assert_eq(uirq_uio_line_hw_errors(fx.line), 0ul);
	assert_eq(fx.bar[EDU_IRQ_STATUS / 4], 0u);
	assert_eq(pci_command() & INTX_DISABLE, 0u, "INTx re-enabled after the thread");
}

/* free_irq shuts the line down: INTx disabled, the device's interrupts no longer reach the kernel. */
UIRQ_TEST(vm_uio_line, free_irq_disables_intx, .init = setup_requested, .fini = teardown, .timeout = 60)
{
	unsigned long ev;

	assert_eq(pci_command() & INTX_DISABLE, 0u, "startup enabled INTx");
	uirq_free_irq(fx.irq, &fx);
	assert_eq(pci_command() & INTX_DISABLE, INTX_DISABLE);
	ev = uio_events();
	fx.bar[EDU_IRQ_RAISE / 4] = 1;
	usleep(100000);
	assert_eq(uio_events(), ev, "an interrupt got through a shut-down line");
	fx.bar[EDU_IRQ_ACK / 4] = 1;
	/* teardown's free_irq of a free line only warns; request again so it has one to free. */
	assert_eq(uirq_request_threaded_irq(fx.irq, primary, thread, UIRQF_ONESHOT, "vm-uio", &fx), 0);
}

/*
 * IRQF_ONESHOT on a UIO line: reading the event count does not quiet edu,
 * so the line must stay disabled until the thread returns.  The thread is
 * the slow part (an i2c read, say): it waits at a gate the test opens, so
 * "while the thread runs" is a state the test holds, not a time it hopes
 * for.  A thread that acknowledges the device itself: one raise is one
 * interrupt, one flow and one thread run, and INTx is disabled throughout.
 */
static struct {
	atomic_ulong primary, thread;
	atomic_int intx_off_in_thread;	/* 1 disabled, 0 enabled, -1 not seen */
	atomic_int in_thread;		/* runs that reached the gate */
	sem_t gate;			/* one post lets one thread run finish */
	_Atomic uint64_t primary_ns[2], thread_end_ns[2];
	bool primary_acks;
} os;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uirq_irqreturn_t os_primary(int irq, void *dev)
{
	unsigned long n = atomic_fetch_add(&os.primary, 1);
	uint32_t status = fx.bar[EDU_IRQ_STATUS / 4];

	(void)irq, (void)dev;
	if (n < 2)
		atomic_store(&os.primary_ns[n], now_ns());
	if (os.primary_acks)
		fx.bar[EDU_IRQ_ACK / 4] = status;
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t os_thread(int irq, void *dev)
{
	unsigned long n = atomic_load(&os.thread);

	(void)irq, (void)dev;
	if (n == 0)
		atomic_store(&os.intx_off_in_thread, !!(pci_command() & INTX_DISABLE));
	atomic_fetch_add(&os.in_thread, 1);
	while (sem_wait(&os.gate))
		;
	if (!os.primary_acks)
		fx.bar[EDU_IRQ_ACK / 4] = fx.bar[EDU_IRQ_STATUS / 4];
	if (n < 2)
		atomic_store(&os.thread_end_ns[n], now_ns());
	atomic_fetch_add(&os.thread, 1);
	return UIRQ_IRQ_HANDLED;
}

static void wait_os_thread(unsigned long n)
{
	wait_count(&os.thread, n, "thread runs");
}

/* The n-th thread run is at its gate. */
static void wait_at_gate(int n)
{
	for (int i = 0; atomic_load(&os.in_thread) < n; i++) {
		assert_lt(i, 200000, "no thread run %d", n);
		usleep(100);
	}
}

static void setup_oneshot(bool primary_acks)
{
	memset(&os, 0, sizeof(os));
	assert_eq(sem_init(&os.gate, 0, 0), 0);
	os.intx_off_in_thread = -1;
	os.primary_acks = primary_acks;
	setup();
	assert_eq(uirq_request_threaded_irq(fx.irq, os_primary, os_thread, UIRQF_ONESHOT, "vm-uio-oneshot", &os), 0);
}

static void setup_oneshot_thread_acks(void)
{
	setup_oneshot(false);
}

static void setup_oneshot_primary_acks(void)
{
	setup_oneshot(true);
}

static void teardown_oneshot(void)
{
	/* A failed test may have left a run at the gate: free_irq waits for it. */
	for (int i = 0; i < 4; i++)
		sem_post(&os.gate);
	uirq_free_irq(fx.irq, &os);
	teardown_line();
}

UIRQ_TEST(vm_uio_line, oneshot_holds_intx_until_the_thread_returns, .init = setup_oneshot_thread_acks,
	  .fini = teardown_oneshot, .timeout = 60)
{
	unsigned long ev0 = uio_events();

	fx.bar[EDU_IRQ_RAISE / 4] = 1;
	wait_at_gate(1);
	assert_eq(atomic_load(&os.intx_off_in_thread), 1, "INTx disabled while the thread runs");
	assert_eq(pci_command() & INTX_DISABLE, INTX_DISABLE, "INTx still disabled at the gate");
	sem_post(&os.gate);
	wait_os_thread(1);
	/* Re-enabled after the thread: edu was acknowledged, so nothing more comes. */
	for (int i = 0; pci_command() & INTX_DISABLE; i++) {
		assert_lt(i, 200000, "INTx never re-enabled after the thread");
		usleep(100);
	}
	usleep(20000);
	assert_eq(uio_events() - ev0, 1ul, "the kernel took one interrupt for one raise");
	assert_eq(uirq_kstat_irqs(fx.irq), 1ul, "one flow");
	assert_eq(atomic_load(&os.primary), 1ul);
	assert_eq(atomic_load(&os.thread), 1ul);
	assert_eq(fx.bar[EDU_IRQ_STATUS / 4], 0u);
}

/*
 * The primary acknowledges at once; a second raise while the first thread
 * is held at its gate reaches no primary (INTx stays disabled) until the
 * thread returns.
 */
UIRQ_TEST(vm_uio_line, oneshot_next_primary_waits_for_the_thread, .init = setup_oneshot_primary_acks,
	  .fini = teardown_oneshot, .timeout = 60)
{
	unsigned long ev0 = uio_events();

	fx.bar[EDU_IRQ_RAISE / 4] = 1;
	wait_at_gate(1);
	fx.bar[EDU_IRQ_RAISE / 4] = 2;
	usleep(20000);		/* an early unmask would let the second interrupt in meanwhile */
	assert_eq(atomic_load(&os.primary), 1ul, "a second primary while the first thread runs");
	assert_eq(uio_events() - ev0, 1ul, "the kernel took the second interrupt while INTx was disabled");
	sem_post(&os.gate);
	wait_at_gate(2);
	sem_post(&os.gate);
	wait_os_thread(2);
	assert_eq(atomic_load(&os.primary), 2ul);
	uint64_t second_primary = atomic_load(&os.primary_ns[1]), first_thread_end = atomic_load(&os.thread_end_ns[0]);

	assert_ge(second_primary, first_thread_end, "the second primary ran %lld ns before the first thread finished",
		  (long long)(first_thread_end - second_primary));
	assert_eq(uirq_kstat_irqs(fx.irq), 2ul);
}

/* ---- one raise, one run, in every disable/enable/free/request order (edu-line.h) ---- */

static uirq_irqreturn_t edu_thread(int irq, void *dev)
{
	(void)irq, (void)dev;
	edu_record();
	return UIRQ_IRQ_HANDLED;
}

static int edu_request(void)
{
	return uirq_request_threaded_irq(edu.irq, NULL, edu_thread, UIRQF_ONESHOT, "vm-uio-order", &edu);
}

static void edu_free(void)
{
	uirq_free_irq(edu.irq, &edu);
}

static void setup_order(void)
{
	memset(&edu, 0, sizeof(edu));
	edu_fifo_on_one_cpu();
	setup();
	edu.bar = fx.bar;
	edu.line = fx.line;
	edu.irq = fx.irq;
	edu.level = true;
	assert_eq(edu_request(), 0);
}

static void teardown_order(void)
{
	edu_free();
	teardown_line();
}

#define ORDER_TEST(name)										\
	UIRQ_TEST(vm_uio_line, name, .init = setup_order, .fini = teardown_order, .timeout = 60)	\
	{												\
		edu_##name();										\
	}

/*
 * Raised while disabled: the kernel took the interrupt and masked INTx,
 * the level flow left the count unread; enable_irq's re-enable lets the
 * still-asserted INTx interrupt the kernel again.  Reading both counted
 * two interrupts for one (or ran the thread twice).
 */
ORDER_TEST(disable_raise_enable)
ORDER_TEST(disable_raise_twice_enable)
ORDER_TEST(nested_disable)
ORDER_TEST(disable_raise_free_request)
ORDER_TEST(free_raise_request)
ORDER_TEST(level_gone_while_disabled)

UIRQ_TEST(vm_uio_line, destroy_with_a_handler_is_busy, .init = setup_requested, .fini = teardown, .timeout = 30)
{
	assert_eq(uirq_fd_line_destroy(fx.line), -EBUSY);
}

UIRQ_TEST(vm_uio_line, errors, .timeout = 30)
{
	struct uirq_fd_line *l = NULL, *ev = NULL;
	volatile void *p;

	assert_eq(uirq_cpus_start(NULL), 0);
	assert_eq(uirq_uio_line_create("/dev/uio9", 0, &l), -ENOENT);
	assert_eq(uirq_uio_line_create("uio", 0, &l), -EINVAL);
	assert_eq(uirq_uio_line_create("/dev/null", 0, &l), -EINVAL);
	assert_eq(uirq_uio_line_create("uio0x", 0, &l), -EINVAL);
	assert_eq(uirq_uio_line_create("uio0", UIRQ_TYPE_EDGE_RISING, &l), -EINVAL);
	assert_eq(uirq_uio_line_create(NULL, 0, &l), -EINVAL);
	assert_gt(uirq_uio_line_create("uio0", UIRQ_TYPE_LEVEL_HIGH, &l), 0);
	assert_eq(uirq_uio_line_map(l, 5, &p, NULL), -ENOENT, "edu has no BAR 5");
	assert_eq(uirq_uio_line_map(l, 6, &p, NULL), -EINVAL);
	assert_eq(uirq_irq_set_irq_type(uirq_fd_line_irq(l), UIRQ_TYPE_EDGE_RISING), -EINVAL);
	assert_gt(uirq_eventfd_line_create(-1, 0, &ev), 0);
	assert_eq(uirq_uio_line_map(ev, 0, &p, NULL), -EINVAL);
	assert_eq(uirq_uio_line_index(ev), -EINVAL);
	assert_eq(uirq_fd_line_destroy(ev), 0);
	assert_eq(uirq_fd_line_destroy(l), 0);
	uirq_cpus_stop();
}

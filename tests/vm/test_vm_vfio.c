// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: VFIO lines (sources/vfio.c) on the edu device that
 * /init bound to vfio-pci.  edu has one MSI vector and INTx: MSI raises
 * must each reach the thread once, a burst's merged MSIs must still let
 * the handler acknowledge every bit raised (the status is the truth), and
 * INTx must behave as a level line that is not oneshot-safe: masked
 * through a ONESHOT thread, no trigger after free_irq, a latched bit
 * delivered at the next request.
 */
#define _GNU_SOURCE	/* sched_setaffinity() in edu-line.h */
#include "harness.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/printk.h"
#include "uirq/sources.h"

#include "edu-line.h"
#include "vm-hw.h"

static struct {
	char addr[32];
	struct uirq_vfio_dev *dev;
	struct uirq_fd_line *line;
	volatile uint32_t *bar;
	unsigned int irq;
	unsigned int thread_sleep_us;	/* the slow part of a thread (an i2c read, say) */
	atomic_ulong thread;
	atomic_ulong bits_acked;	/* popcount of every status the thread acknowledged */
	_Atomic uint32_t last_status;
} fx;

/* The driver's side: the device's status is the truth, whatever the line counted. */
static uirq_irqreturn_t thread(int irq, void *dev)
{
	uint32_t status;

	(void)irq, (void)dev;
	if (fx.thread_sleep_us)
		usleep(fx.thread_sleep_us);
	status = fx.bar[EDU_IRQ_STATUS / 4];
	fx.bar[EDU_IRQ_ACK / 4] = status;
	atomic_fetch_add(&fx.bits_acked, (unsigned long)__builtin_popcount(status));
	atomic_store(&fx.last_status, status);
	atomic_fetch_add(&fx.thread, 1);
	return UIRQ_IRQ_HANDLED;
}

static void open_dev(void)
{
	volatile void *p;
	size_t size;

	memset(&fx, 0, sizeof(fx));
	assert_eq(uirq_cpus_start(NULL), 0);
	assert_eq(vm_edu_vfio(fx.addr, sizeof(fx.addr)), 0, "no edu bound to vfio-pci");
	assert_eq(uirq_vfio_open(fx.addr, &fx.dev), 0);
	assert_eq(uirq_vfio_map(fx.dev, 0, &p, &size), 0);
	assert_ge(size, 4096u);
	fx.bar = (volatile uint32_t *)p;
	/* A failed test before may have left bits raised. */
	fx.bar[EDU_IRQ_ACK / 4] = 0xffffffffu;
}

static void setup_msi(void)
{
	int irq;

	open_dev();
	assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_MSI, 1, NULL), 0);
	irq = uirq_vfio_msi_line(fx.dev, 0, &fx.line);
	assert_gt(irq, 0, "uirq_vfio_msi_line: %d", irq);
	fx.irq = (unsigned int)irq;
	/* An MSI is quiet once sent: handler NULL needs no IRQF_ONESHOT. */
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, 0, "vm-vfio-msi", &fx), 0);
}

static void setup_intx(void)
{
	int irq;

	open_dev();
	irq = uirq_vfio_intx_line(fx.dev, &fx.line);
	assert_gt(irq, 0, "uirq_vfio_intx_line: %d", irq);
	fx.irq = (unsigned int)irq;
	/* Not oneshot-safe: handler NULL without IRQF_ONESHOT is refused, as on a kernel's level line. */
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, 0, "vm-vfio-intx", &fx), -EINVAL);
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, UIRQF_ONESHOT, "vm-vfio-intx", &fx), 0);
}

/* After the test's handler is freed: the device closes cleanly and lockdep stayed silent. */
static void close_dev(void)
{
	struct uirq_lockdep_stats st;

	assert_eq(uirq_vfio_hw_errors(fx.dev), 0ul);
	assert_eq(uirq_vfio_close(fx.dev), 0);
	uirq_cpus_stop();
	uirq_lockdep_get_stats(&st);
	assert_eq(st.reports, 0ul, "lockdep reported");
}

static void teardown(void)
{
	uirq_free_irq(fx.irq, &fx);
	close_dev();
}

static void wait_for(atomic_ulong *c, unsigned long n)
{
	for (int i = 0; atomic_load(c) < n; i++) {
		assert_lt(i, 200000, "counted %lu, want %lu", atomic_load(c), n);
		usleep(100);
	}
}

static unsigned long line_acks(void)
{
	struct uirq_fd_line_stats st;

	assert_eq(uirq_fd_line_get_stats(fx.line, &st), 0);
	return st.acks;
}

UIRQ_TEST(vm_vfio, bar0_is_edu_with_one_msi_and_intx, .init = open_dev, .timeout = 30)
{
	assert_eq(fx.bar[EDU_ID / 4], 0x010000edu, "id %#x", fx.bar[EDU_ID / 4]);
	assert_eq(uirq_vfio_nr_vectors(fx.dev, UIRQ_VFIO_MSI), 1);
	assert_eq(uirq_vfio_nr_vectors(fx.dev, UIRQ_VFIO_MSIX), 0);
	assert_eq(uirq_vfio_nr_vectors(fx.dev, UIRQ_VFIO_INTX), 1);
	assert_eq(uirq_vfio_close(fx.dev), 0);
	uirq_cpus_stop();
}

/* One raise, one MSI, one thread run: 200 times, none lost, none doubled. */
UIRQ_TEST(vm_vfio, msi_each_raise_reaches_the_thread_once, .init = setup_msi, .fini = teardown, .timeout = 120)
{
	const unsigned long n = 200;
	struct uirq_irq_domain *d = NULL;

	for (unsigned long i = 1; i <= n; i++) {
		fx.bar[EDU_IRQ_RAISE / 4] = 1u << (i % 32);
		wait_for(&fx.thread, i);
		assert_eq(atomic_load(&fx.last_status), 1u << (i % 32));
	}
	usleep(50000);
	assert_eq(atomic_load(&fx.thread), n);
	assert_eq(line_acks(), n);
	assert_eq(uirq_kstat_irqs(fx.irq), n);
	assert_eq(fx.bar[EDU_IRQ_STATUS / 4], 0u);
	/* The vector is hwirq 0 of the device's domain. */
	assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_MSI, 1, &d), -EBUSY);
	assert_eq(uirq_irq_find_mapping(uirq_irq_get_irq_data(fx.irq)->domain, 0), fx.irq);
}

/*
 * 32 bits raised back to back, 20 times: the MSIs merge while one is
 * pending (fewer thread runs than raises), but every bit raised is acked.
 */
UIRQ_TEST(vm_vfio, msi_burst_acks_every_bit_raised, .init = setup_msi, .fini = teardown, .timeout = 120)
{
	const unsigned long rounds = 20;
	unsigned long runs;

	for (unsigned long r = 1; r <= rounds; r++) {
		for (unsigned int b = 0; b < 32; b++)
			fx.bar[EDU_IRQ_RAISE / 4] = 1u << b;
		wait_for(&fx.bits_acked, r * 32);
		assert_eq(atomic_load(&fx.bits_acked), r * 32, "round %lu", r);
	}
	usleep(50000);
	runs = atomic_load(&fx.thread);
	printf("# %lu raises woke the thread %lu times\n", rounds * 32, runs);
	assert_eq(atomic_load(&fx.bits_acked), rounds * 32);
	assert_le(runs, rounds * 32);
	assert_ge(runs, rounds);
	assert_eq(fx.bar[EDU_IRQ_STATUS / 4], 0u);
}

/* One interrupt delivered, free_irq, then raise bit: no handler runs and the bit stays. */
static void deliver_free_raise(uint32_t bit)
{
	fx.bar[EDU_IRQ_RAISE / 4] = 1;
	wait_for(&fx.thread, 1);
	uirq_free_irq(fx.irq, &fx);
	fx.bar[EDU_IRQ_RAISE / 4] = bit;
	usleep(100000);
	assert_eq(atomic_load(&fx.thread), 1ul);
	assert_eq(fx.bar[EDU_IRQ_STATUS / 4], bit);
}

/* A freed vector's MSI is kept pending and delivered at the next request, as a masked MSI is. */
UIRQ_TEST(vm_vfio, msi_free_then_request_delivers_the_pending_msi, .init = setup_msi, .fini = teardown,
	  .timeout = 60)
{
	deliver_free_raise(2);
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, 0, "vm-vfio-msi", &fx), 0);
	wait_for(&fx.thread, 2);
	assert_eq(atomic_load(&fx.last_status), 2u);
	fx.bar[EDU_IRQ_RAISE / 4] = 4;
	wait_for(&fx.thread, 3);
	usleep(50000);
	assert_eq(atomic_load(&fx.thread), 3ul);
	assert_eq(atomic_load(&fx.last_status), 4u);
}

/* INTx, handler NULL + IRQF_ONESHOT: one trigger while the slow thread runs, then INTx unmasked. */
UIRQ_TEST(vm_vfio, intx_oneshot_triggers_once_while_the_thread_sleeps, .init = setup_intx, .fini = teardown,
	  .timeout = 60)
{
	fx.thread_sleep_us = 100000;
	fx.bar[EDU_IRQ_RAISE / 4] = 1;
	wait_for(&fx.thread, 1);
	usleep(100000);
	assert_eq(atomic_load(&fx.thread), 1ul);
	assert_eq(line_acks(), 1ul, "INTx triggered again while the thread ran");
	assert_eq(uirq_kstat_irqs(fx.irq), 1ul);
	assert_eq(atomic_load(&fx.last_status), 1u);
	/* Unmasked after the thread: the next raise arrives. */
	fx.thread_sleep_us = 0;
	for (unsigned long i = 2; i <= 50; i++) {
		fx.bar[EDU_IRQ_RAISE / 4] = (uint32_t)i;
		wait_for(&fx.thread, i);
		assert_eq(atomic_load(&fx.last_status), (uint32_t)i);
	}
	usleep(50000);
	assert_eq(line_acks(), 50ul);
}

/* After free_irq INTx is masked: no trigger; the bit stays latched and arrives at the next request. */
UIRQ_TEST(vm_vfio, intx_free_then_nothing_then_request_delivers_the_latched_bit, .init = setup_intx,
	  .fini = teardown, .timeout = 60)
{
	deliver_free_raise(8);
	assert_eq(line_acks(), 1ul, "INTx triggered after free_irq: VFIO must hold it masked");
	assert_eq(uirq_request_threaded_irq(fx.irq, NULL, thread, UIRQF_ONESHOT, "vm-vfio-intx", &fx), 0);
	wait_for(&fx.thread, 2);
	usleep(50000);
	assert_eq(atomic_load(&fx.thread), 2ul);
	assert_eq(atomic_load(&fx.last_status), 8u);
	assert_eq(fx.bar[EDU_IRQ_STATUS / 4], 0u);
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
	return uirq_request_threaded_irq(edu.irq, NULL, edu_thread, edu.level ? UIRQF_ONESHOT : 0, "vm-vfio-order",
					 &edu);
}

static void edu_free(void)
{
	uirq_free_irq(edu.irq, &edu);
}

static void setup_order(bool intx)
{
	int irq;

	memset(&edu, 0, sizeof(edu));
	edu_fifo_on_one_cpu();
	open_dev();
	if (!intx)
		assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_MSI, 1, NULL), 0);
	irq = intx ? uirq_vfio_intx_line(fx.dev, &edu.line) : uirq_vfio_msi_line(fx.dev, 0, &edu.line);
	assert_gt(irq, 0);
	edu.irq = (unsigned int)irq;
	edu.bar = fx.bar;
	edu.level = intx;
	assert_eq(edu_request(), 0);
}

static void setup_order_msi(void)
{
	setup_order(false);
}

static void setup_order_intx(void)
{
	setup_order(true);
}

static void teardown_order(void)
{
	edu_free();
	close_dev();
}

#define ORDER_TEST(kind, name, ...)								\
	UIRQ_TEST(vm_vfio, kind##_##name, .init = setup_order_##kind, .fini = teardown_order, .timeout = 60) \
	{											\
		edu_##name();									\
	}

/*
 * INTx raised while disabled: VFIO signalled once and masked INTx, the
 * level flow left the signal unread; enable_irq's unmask has VFIO find
 * INTx still pending and signal again.  Delivering both ran the thread
 * twice, the second time on a quiet device.
 */
ORDER_TEST(intx, disable_raise_enable)
ORDER_TEST(intx, disable_raise_twice_enable)
ORDER_TEST(intx, nested_disable)
ORDER_TEST(intx, disable_raise_free_request)
ORDER_TEST(intx, free_raise_request)
ORDER_TEST(intx, level_gone_while_disabled)
/* An MSI held back by a disabled or freed line is pending and resent once. */
ORDER_TEST(msi, disable_raise_enable)
ORDER_TEST(msi, disable_raise_twice_enable)
ORDER_TEST(msi, nested_disable)
ORDER_TEST(msi, disable_raise_free_request)
ORDER_TEST(msi, free_raise_request)

static char logged[512];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	snprintf(logged, sizeof(logged), "%s", msg);
}

UIRQ_TEST(vm_vfio, errors, .init = open_dev, .timeout = 60)
{
	struct uirq_vfio_dev *other = NULL;
	struct uirq_fd_line *l = NULL;
	volatile void *p;
	int irq;

	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_vfio_open(NULL, &other), -EINVAL);
	assert_eq(uirq_vfio_open("no/such/device", &other), -EINVAL);
	assert_eq(uirq_vfio_open("0000:00:1f.7", &other), -ENOENT);
	assert_true(strstr(logged, "0000:00:1f.7") && strstr(logged, "IOMMU group"), "logged: %s", logged);
	/* The other edu is uio_pci_generic's: its group has no VFIO node. */
	char link[256] = "";

	assert_gt(readlink("/sys/class/uio/uio0/device", link, sizeof(link) - 1), 0);
	assert_eq(uirq_vfio_open(strrchr(link, '/') + 1, &other), -ENOENT);
	assert_true(strstr(logged, "bound to vfio-pci"), "logged: %s", logged);
	/* A group is one process's, once. */
	assert_eq(uirq_vfio_open(fx.addr, &other), -EBUSY);
	assert_true(strstr(logged, fx.addr) && strstr(logged, "group"), "logged: %s", logged);
	uirq_log_set_sink(NULL, NULL);
	assert_eq(uirq_vfio_map(fx.dev, 5, &p, NULL), -ENOENT, "edu has no BAR 5");
	assert_eq(uirq_vfio_map(fx.dev, 6, &p, NULL), -EINVAL);
	assert_eq(uirq_vfio_msi_line(fx.dev, 0, &l), -EINVAL, "no vector enabled yet");
	assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_MSI, 2, NULL), -ENOSPC);
	assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_MSIX, 1, NULL), -ENOSPC);
	assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_INTX, 1, NULL), -EINVAL);
	irq = uirq_vfio_intx_line(fx.dev, &l);
	assert_gt(irq, 0);
	assert_eq(uirq_vfio_msi_enable(fx.dev, UIRQ_VFIO_MSI, 1, NULL), -EBUSY);
	assert_eq(uirq_irq_set_irq_type((unsigned int)irq, UIRQ_TYPE_EDGE_RISING), -EINVAL);
	assert_eq(uirq_fd_line_destroy(l), -EINVAL, "the line goes with its device");
	assert_eq(uirq_request_threaded_irq((unsigned int)irq, NULL, thread, UIRQF_ONESHOT, "vm-vfio", &fx), 0);
	assert_eq(uirq_vfio_close(fx.dev), -EBUSY);
	uirq_free_irq((unsigned int)irq, &fx);
	assert_eq(uirq_vfio_close(fx.dev), 0);
	assert_eq(uirq_vfio_close(NULL), -EINVAL);
	/* Closed cleanly: the device opens again in the same process. */
	assert_eq(uirq_vfio_open(fx.addr, &other), 0);
	assert_eq(uirq_vfio_close(other), 0);
	uirq_cpus_stop();
}

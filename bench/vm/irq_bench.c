// SPDX-License-Identifier: MIT
/*
 * irq_bench (runs in the VM, scripts/vm/bench.sh): a real interrupt ->
 * threaded handler latency through uirq, against a hand-written loop doing
 * the same work, measured in the same run, for three sources:
 *   uio        edu behind uio_pci_generic: INTx, re-enabled in the config
 *              space (hand: poll()/read() on /dev/uio0);
 *   vfio-msi   the edu bound to vfio-pci, its MSI (hand: poll()/read() on
 *              the eventfd VFIO_DEVICE_SET_IRQS connected; nothing to
 *              re-enable);
 *   vfio-intx  the same device's INTx (hand: poll()/read() on the trigger
 *              eventfd, then a write to the unmask eventfd).
 *
 * The work, both ways, for each interrupt: check edu's interrupt status and
 * acknowledge it through the mapped BAR, read the TWL4030 status byte from
 * i2c-stub over i2c-dev, let the device interrupt again.
 *   uirq   the source's line, a threaded IRQF_ONESHOT handler: the primary
 *          checks and acks on the uirq CPU, the thread (SCHED_FIFO 50, as
 *          the kernel's irq threads) reads i2c; the line re-enables the
 *          interrupt when the thread is done (MSI: ONESHOT is dropped).
 *   hand   one thread (SCHED_FIFO 50 too): poll(), read() the count, check
 *          and ack, read i2c, re-enable, poll() again.
 * The device is opened and its BAR mapped the same way for both (setup,
 * not measured): uirq_vfio_open() and uirq_vfio_map() for VFIO.
 * Timestamps (CLOCK_MONOTONIC): t0 just before the write that raises the
 * interrupt; "entry" where the slow work starts (thread handler entry /
 * after the ack), "done" after the i2c read.  One interrupt at a time.
 * Rounds alternate hand, uirq, hand, ... so drift hits both; figures are
 * medians and p99 of all samples and the ratio uirq / hand.  Under TCG only
 * the ratios mean anything.
 *
 * usage: irq_bench [-n SAMPLES_PER_ROUND] [-r ROUNDS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/vfio.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "uirq/i2c.h"
#include "uirq/irq.h"
#include "uirq/sources.h"

#include "vm-hw.h"

#define STUB_ADDR 0x4b
#define STS_HW_CONDITIONS 0x45
#define CONFIG "/sys/class/uio/uio0/device/config"
#define INTX_DISABLE (1u << 10)

enum source { SRC_UIO, SRC_VFIO_MSI, SRC_VFIO_INTX, NR_SOURCES };
static const char *const source_name[NR_SOURCES] = { "uio", "vfio-msi", "vfio-intx" };

static volatile uint32_t *bar;		/* the BAR of the round's device */
static volatile uint32_t *uio_bar;	/* edu behind uio_pci_generic, mapped once */
static _Atomic uint64_t t_entry, t_done;	/* the current interrupt's stamps, 0 until taken */

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "irq_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* ---- uirq ---- */

static struct uirq_i2c_client *client;

static uirq_irqreturn_t primary(int irq, void *dev)
{
	uint32_t status = bar[EDU_IRQ_STATUS / 4];

	(void)irq, (void)dev;
	if (!status)
		return UIRQ_IRQ_NONE;
	bar[EDU_IRQ_ACK / 4] = status;
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t thread_fn(int irq, void *dev)
{
	(void)irq, (void)dev;
	atomic_store(&t_entry, now());
	if (uirq_i2c_smbus_read_byte_data(client, STS_HW_CONDITIONS) < 0)
		die("i2c read (uirq)", EIO);
	atomic_store(&t_done, now());
	return UIRQ_IRQ_HANDLED;
}

/* ---- hand-written ---- */

/* What a hand-written loop polls, reads and re-enables. */
struct hand {
	int fd;			/* /dev/uio0 or an eventfd */
	size_t count_size;	/* UIO's 32-bit count, an eventfd's 64-bit counter */
	void (*reenable)(struct hand *h);
	int config;		/* uio: device/config */
	int unmask;		/* vfio-intx: the unmask eventfd */
	struct uirq_vfio_dev *vfio;
};

static atomic_bool hand_stop;
static int hand_i2c = -1;

static void uio_reenable(struct hand *h)
{
	uint16_t cmd;

	if (pread(h->config, &cmd, 2, 4) != 2)
		die("config read", errno);
	cmd &= (uint16_t)~INTX_DISABLE;
	if (pwrite(h->config, &cmd, 2, 4) != 2)
		die("config write", errno);
}

static void unmask_reenable(struct hand *h)
{
	const uint64_t one = 1;

	if (write(h->unmask, &one, sizeof(one)) != (ssize_t)sizeof(one))
		die("unmask eventfd", errno);
}

static void *hand_loop(void *arg)
{
	struct hand *h = arg;
	struct pollfd p = { .fd = h->fd, .events = POLLIN };

	if (h->reenable)
		h->reenable(h);
	while (!atomic_load(&hand_stop)) {
		uint64_t count;
		uint32_t status;

		if (poll(&p, 1, 100) <= 0)
			continue;
		if (read(h->fd, &count, h->count_size) != (ssize_t)h->count_size)
			continue;
		status = bar[EDU_IRQ_STATUS / 4];
		if (status) {
			bar[EDU_IRQ_ACK / 4] = status;
			atomic_store(&t_entry, now());
			if (i2c_smbus_read_byte_data(hand_i2c, STS_HW_CONDITIONS) < 0)
				die("i2c read (hand)", errno);
			atomic_store(&t_done, now());
		}
		if (h->reenable)
			h->reenable(h);
	}
	return NULL;
}

/* VFIO_DEVICE_SET_IRQS with one eventfd (or, fd < 0 and count 0, none: off). */
static void set_irq(int dev, unsigned int index, uint32_t action, int fd)
{
	struct {
		struct vfio_irq_set s;
		int32_t fd;
	} a = { .s = { .argsz = sizeof(a), .index = index, .count = fd >= 0 } };

	a.s.flags = action | (fd >= 0 ? VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE);
	a.fd = fd;
	if (ioctl(dev, VFIO_DEVICE_SET_IRQS, &a) < 0)
		die("VFIO_DEVICE_SET_IRQS", errno);
}

/* An MSI is a memory write: the device needs bus mastering (bit 2 of the command register). */
static void bus_master(int dev)
{
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = VFIO_PCI_CONFIG_REGION_INDEX };
	uint16_t cmd;

	if (ioctl(dev, VFIO_DEVICE_GET_REGION_INFO, &ri) < 0 || pread(dev, &cmd, 2, (off_t)ri.offset + 4) != 2)
		die("config read", errno);
	cmd |= 4;
	if (pwrite(dev, &cmd, 2, (off_t)ri.offset + 4) != 2)
		die("config write", errno);
}

static char vfio_addr[32];

static void vfio_open_map(struct uirq_vfio_dev **v)
{
	volatile void *p;
	int err = uirq_vfio_open(vfio_addr, v);

	if (!err)
		err = uirq_vfio_map(*v, 0, &p, NULL);
	if (err)
		die("opening the VFIO device", err);
	bar = (volatile uint32_t *)p;
}

static void hand_open(struct hand *h, enum source src)
{
	memset(h, 0, sizeof(*h));
	h->config = h->unmask = -1;
	h->count_size = sizeof(uint64_t);
	if (src == SRC_UIO) {
		bar = uio_bar;
		h->fd = open("/dev/uio0", O_RDWR);
		h->config = open(CONFIG, O_RDWR);
		h->count_size = sizeof(uint32_t);
		h->reenable = uio_reenable;
		if (h->fd < 0 || h->config < 0)
			die("opening /dev/uio0 (hand)", errno);
		return;
	}
	vfio_open_map(&h->vfio);
	int dev = uirq_vfio_device_fd(h->vfio);

	h->fd = eventfd(0, EFD_CLOEXEC);
	if (src == SRC_VFIO_MSI) {
		set_irq(dev, VFIO_PCI_MSI_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, h->fd);
		bus_master(dev);
	} else {
		h->unmask = eventfd(0, EFD_CLOEXEC);
		set_irq(dev, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, h->fd);
		set_irq(dev, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_UNMASK, h->unmask);
		h->reenable = unmask_reenable;
	}
}

static void hand_close(struct hand *h, enum source src)
{
	if (h->vfio) {
		set_irq(uirq_vfio_device_fd(h->vfio),
			src == SRC_VFIO_MSI ? VFIO_PCI_MSI_IRQ_INDEX : VFIO_PCI_INTX_IRQ_INDEX,
			VFIO_IRQ_SET_ACTION_TRIGGER, -1);
		uirq_vfio_close(h->vfio);
	}
	close(h->fd);
	if (h->config >= 0)
		close(h->config);
	if (h->unmask >= 0)
		close(h->unmask);
}

/* ---- measuring ---- */

struct series {
	uint64_t *entry, *done;
	size_t n;
};

/* Raise n interrupts one at a time and record each one's two latencies. */
static void measure(struct series *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t t0, e, d;

		atomic_store(&t_entry, 0);
		atomic_store(&t_done, 0);
		t0 = now();
		bar[EDU_IRQ_RAISE / 4] = 1;
		for (uint64_t spin = 0; !(d = atomic_load(&t_done)); spin++) {
			if (spin > 1000 && now() - t0 > 10000000000ull)
				die("an interrupt got lost", ETIMEDOUT);
			sched_yield();
		}
		e = atomic_load(&t_entry);
		s->entry[s->n] = e - t0;
		s->done[s->n] = d - t0;
		s->n++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(uint64_t *v, size_t n, double p)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return (double)v[(size_t)(p * (double)(n - 1))] / 1000.0;
}

static void fifo50(pthread_attr_t *a)
{
	struct sched_param sp = { .sched_priority = 50 };

	pthread_attr_init(a);
	pthread_attr_setinheritsched(a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(a, SCHED_FIFO);
	pthread_attr_setschedparam(a, &sp);
}

static void round_hand(struct series *s, size_t n, enum source src)
{
	struct hand h;
	pthread_attr_t a;
	pthread_t t;
	int err;

	hand_i2c = vm_i2c_open(VM_STUB_NAME, STUB_ADDR);
	if (hand_i2c < 0)
		die("opening i2c-stub (hand)", hand_i2c);
	hand_open(&h, src);
	atomic_store(&hand_stop, false);
	fifo50(&a);
	err = pthread_create(&t, &a, hand_loop, &h);
	if (err)
		die("SCHED_FIFO thread", err);
	usleep(20000);
	measure(s, n);
	atomic_store(&hand_stop, true);
	pthread_join(t, NULL);
	hand_close(&h, src);
	close(hand_i2c);
}

/* The source's line through uirq: 0 for UIO (destroyed by the caller), else the VFIO device. */
static int uirq_line(enum source src, struct uirq_fd_line **line, struct uirq_vfio_dev **v)
{
	int irq, err;

	*v = NULL;
	if (src == SRC_UIO) {
		bar = uio_bar;
		return uirq_uio_line_create("/dev/uio0", 0, line);
	}
	vfio_open_map(v);
	if (src == SRC_VFIO_INTX)
		return uirq_vfio_intx_line(*v, line);
	err = uirq_vfio_msi_enable(*v, UIRQ_VFIO_MSI, 1, NULL);
	irq = err ? err : uirq_vfio_msi_line(*v, 0, line);
	return irq;
}

static void round_uirq(struct series *s, size_t n, int bus, enum source src)
{
	struct uirq_fd_line *line;
	struct uirq_vfio_dev *v;
	struct uirq_i2c_adapter *adap;
	char which[16];
	int irq, err;

	snprintf(which, sizeof(which), "%d", bus);
	irq = uirq_line(src, &line, &v);
	if (irq < 0)
		die("the uirq line", irq);
	err = uirq_i2c_dev_open(which, &adap);
	if (err)
		die("uirq_i2c_dev_open", err);
	uirq_i2c_new_client_device(adap, "bench", STUB_ADDR, &client);
	if (!client)
		die("i2c client", errno);
	err = uirq_request_threaded_irq((unsigned int)irq, primary, thread_fn, UIRQF_ONESHOT, "irq-bench", &bar);
	if (err)
		die("request_threaded_irq", err);
	usleep(20000);
	measure(s, n);
	uirq_free_irq((unsigned int)irq, &bar);
	uirq_i2c_unregister_device(client);
	uirq_i2c_dev_close(adap);
	if (v)
		uirq_vfio_close(v);
	else
		uirq_fd_line_destroy(line);
}

static void report(enum source src, const char *what, struct series *h, struct series *u)
{
	uint64_t *hv = !strcmp(what, "entry") ? h->entry : h->done;
	uint64_t *uv = !strcmp(what, "entry") ? u->entry : u->done;
	double hm = pct(hv, h->n, 0.5), h99 = pct(hv, h->n, 0.99);
	double um = pct(uv, u->n, 0.5), u99 = pct(uv, u->n, 0.99);

	printf("irq_bench: %-9s %-5s median hand %8.1f us  uirq %8.1f us  ratio %.2f\n", source_name[src], what,
	       hm, um, um / hm);
	printf("irq_bench: %-9s %-5s p99    hand %8.1f us  uirq %8.1f us  ratio %.2f\n", source_name[src], what,
	       h99, u99, u99 / h99);
}

static struct series new_series(size_t cap)
{
	struct series s = { calloc(cap, sizeof(uint64_t)), calloc(cap, sizeof(uint64_t)), 0 };

	if (!s.entry || !s.done)
		die("memory", ENOMEM);
	return s;
}

int main(int argc, char **argv)
{
	size_t n = 500, rounds = 4;
	struct series h[NR_SOURCES], u[NR_SOURCES];
	int opt, bus, err;

	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			rounds = strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (!n || !rounds)
		return 2;
	for (int src = 0; src < NR_SOURCES; src++) {
		h[src] = new_series(n * rounds);
		u[src] = new_series(n * rounds);
	}
	if ((err = uirq_cpus_start(NULL)))
		die("uirq_cpus_start", err);
	/* One mapping of the UIO BAR 0 for both ways, as uirq_uio_line_map() makes it: the same cost. */
	uio_bar = vm_edu_bar();
	if (!uio_bar)
		die("mapping BAR 0", errno);
	if ((err = vm_edu_vfio(vfio_addr, sizeof(vfio_addr))))
		die("no edu bound to vfio-pci", err);
	bus = vm_i2c_bus(VM_STUB_NAME);
	if (bus < 0)
		die("no i2c-stub adapter", ENODEV);
	/* Warm-up (page faults, i2c-dev, scheduler) counted nowhere. */
	for (int src = 0; src < NR_SOURCES; src++) {
		round_hand(&h[src], n < 50 ? n : 50, src);
		round_uirq(&u[src], n < 50 ? n : 50, bus, src);
		h[src].n = u[src].n = 0;
	}
	/* Sources interleaved too: hand and uirq of each source see the same drift. */
	for (size_t r = 0; r < rounds; r++) {
		for (int src = 0; src < NR_SOURCES; src++) {
			round_hand(&h[src], n, src);
			round_uirq(&u[src], n, bus, src);
		}
	}
	printf("irq_bench: %zu interrupts each way per source in %zu alternating rounds (threads SCHED_FIFO 50)\n",
	       h[0].n, rounds);
	for (int src = 0; src < NR_SOURCES; src++) {
		report(src, "entry", &h[src], &u[src]);
		report(src, "done", &h[src], &u[src]);
	}
	uirq_cpus_stop();
	return 0;
}

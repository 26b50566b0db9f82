// SPDX-License-Identifier: MIT
/*
 * uio_bench (runs in the VM, scripts/vm/bench.sh): a real UIO interrupt ->
 * threaded handler latency through uirq, against a hand-written read()
 * loop on /dev/uioN doing the same work, measured in the same run.
 *
 * The work, both ways, for each interrupt of QEMU's edu device behind
 * uio_pci_generic: check edu's interrupt status and acknowledge it through
 * the mapped BAR, read the TWL4030 status byte from i2c-stub over i2c-dev,
 * let the device interrupt again (INTx re-enabled in the config space).
 *   uirq   a UIO line, a threaded IRQF_ONESHOT handler: the primary checks
 *          and acks on the uirq CPU, the thread (SCHED_FIFO 50, as the
 *          kernel's irq threads) reads i2c; the line re-enables INTx when
 *          the thread is done.
 *   hand   one thread (SCHED_FIFO 50 too): poll(), read() the count, check
 *          and ack, read i2c, re-enable INTx, poll() again.
 * Timestamps (CLOCK_MONOTONIC): t0 just before the write that raises the
 * interrupt; "entry" where the slow work starts (thread handler entry /
 * after the ack), "done" after the i2c read.  One interrupt at a time.
 * Rounds alternate hand, uirq, hand, ... so drift hits both; figures are
 * medians and p99 of all samples and the ratio uirq / hand.  Under TCG only
 * the ratios mean anything.
 *
 * usage: uio_bench [-n SAMPLES_PER_ROUND] [-r ROUNDS]
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

static volatile uint32_t *bar;
static _Atomic uint64_t t_entry, t_done;	/* the current interrupt's stamps, 0 until taken */

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "uio_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
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

static atomic_bool hand_stop;
static int hand_i2c = -1, hand_uio = -1, hand_config = -1;

static void intx_enable(void)
{
	uint16_t cmd;

	if (pread(hand_config, &cmd, 2, 4) != 2)
		die("config read", errno);
	cmd &= (uint16_t)~INTX_DISABLE;
	if (pwrite(hand_config, &cmd, 2, 4) != 2)
		die("config write", errno);
}

static void *hand_loop(void *arg)
{
	struct pollfd p = { .fd = hand_uio, .events = POLLIN };

	(void)arg;
	intx_enable();
	while (!atomic_load(&hand_stop)) {
		uint32_t count, status;

		if (poll(&p, 1, 100) <= 0)
			continue;
		if (read(hand_uio, &count, sizeof(count)) != (ssize_t)sizeof(count))
			continue;
		status = bar[EDU_IRQ_STATUS / 4];
		if (status) {
			bar[EDU_IRQ_ACK / 4] = status;
			atomic_store(&t_entry, now());
			if (i2c_smbus_read_byte_data(hand_i2c, STS_HW_CONDITIONS) < 0)
				die("i2c read (hand)", errno);
			atomic_store(&t_done, now());
		}
		intx_enable();
	}
	return NULL;
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

static void round_hand(struct series *s, size_t n)
{
	pthread_attr_t a;
	pthread_t t;
	int err;

	hand_i2c = vm_i2c_open(VM_STUB_NAME, STUB_ADDR);
	hand_uio = open("/dev/uio0", O_RDWR);
	hand_config = open(CONFIG, O_RDWR);
	if (hand_i2c < 0 || hand_uio < 0 || hand_config < 0 )
		die("opening the devices (hand)", errno);
	atomic_store(&hand_stop, false);
	fifo50(&a);
	err = pthread_create(&t, &a, hand_loop, NULL);
	if (err)
		die("SCHED_FIFO thread", err);
	usleep(20000);
	measure(s, n);
	atomic_store(&hand_stop, true);
	pthread_join(t, NULL);
	close(hand_i2c);
	close(hand_uio);
	close(hand_config);
}

static void round_uirq(struct series *s, size_t n, int bus)
{
	struct uirq_fd_line *line;
	struct uirq_i2c_adapter *adap;
	char which[16];
	int irq, err;

	snprintf(which, sizeof(which), "%d", bus);
	irq = uirq_uio_line_create("/dev/uio0", 0, &line);
	if (irq < 0)
		die("uirq_uio_line_create", irq);
	err = uirq_i2c_dev_open(which, &adap);
	if (err)
		die("uirq_i2c_dev_open", err);
	uirq_i2c_new_client_device(adap, "bench", STUB_ADDR, &client);
	if (!client)
		die("i2c client", errno);
	err = uirq_request_threaded_irq((unsigned int)irq, primary, thread_fn, UIRQF_ONESHOT, "uio-bench", &bar);
	if (err)
		die("request_threaded_irq", err);
	usleep(20000);
	measure(s, n);
	uirq_free_irq((unsigned int)irq, &bar);
	uirq_i2c_unregister_device(client);
	uirq_i2c_dev_close(adap);
	uirq_fd_line_destroy(line);
}

static void report(const char *what, struct series *h, struct series *u)
{
	uint64_t *hv = !strcmp(what, "entry") ? h->entry : h->done;
	uint64_t *uv = !strcmp(what, "entry") ? u->entry : u->done;
	double hm = pct(hv, h->n, 0.5), h99 = pct(hv, h->n, 0.99);
	double um = pct(uv, u->n, 0.5), u99 = pct(uv, u->n, 0.99);

	printf("uio_bench: %-5s median hand %8.1f us  uirq %8.1f us  ratio %.2f\n", what, hm, um, um / hm);
	printf("uio_bench: %-5s p99    hand %8.1f us  uirq %8.1f us  ratio %.2f\n", what, h99, u99, u99 / h99);
}

int main(int argc, char **argv)
{
	size_t n = 500, rounds = 4;
	struct series h = { 0 }, u = { 0 };
	int opt, bus, irq;

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
	h.entry = calloc(n * rounds, sizeof(uint64_t));
	h.done = calloc(n * rounds, sizeof(uint64_t));
	u.entry = calloc(n * rounds, sizeof(uint64_t));
	u.done = calloc(n * rounds, sizeof(uint64_t));
	if (!h.entry || !h.done || !u.entry || !u.done)
		die("memory", ENOMEM);
	if ((irq = uirq_cpus_start(NULL)))
		die("uirq_cpus_start", irq);
	/* One mapping of BAR 0 for both ways, as uirq_uio_line_map() makes it: the same cost. */
	bar = vm_edu_bar();
	if (!bar)
		die("mapping BAR 0", errno);
	bus = vm_i2c_bus(VM_STUB_NAME);
	if (bus < 0)
		die("no i2c-stub adapter", ENODEV);
	/* Warm-up (page faults, i2c-dev, scheduler) counted nowhere. */
	{
		struct series w = { h.entry, h.done, 0 };

		round_hand(&w, n < 50 ? n : 50);
		w.n = 0;
		w.entry = u.entry;
		w.done = u.done;
		round_uirq(&w, n < 50 ? n : 50, bus);
	}
	for (size_t r = 0; r < rounds; r++) {
		round_hand(&h, n);
		round_uirq(&u, n, bus);
	}
	printf("uio_bench: %zu interrupts each way in %zu alternating rounds (threads SCHED_FIFO 50)\n", h.n,
	       rounds);
	report("entry", &h, &u);
	report("done", &h, &u);
	uirq_cpus_stop();
	return 0;
}

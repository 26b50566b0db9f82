// SPDX-License-Identifier: MIT
/*
 * Interrupt logic in uirq's deterministic mode: one seed, one run, replayed
 * bit for bit.  A device samples on a 1 ms timer (a timerfd line); the
 * primary handler notes how many samples are waiting and wakes the thread,
 * which fetches them over a slow bus (200 us).  Two CPUs, PCT scheduling,
 * 20.5 ms of virtual time that cost no wall time.
 *
 *   cc seeded.c $(pkg-config --cflags --libs uirq) -o seeded && ./seeded 7
 *
 * It runs seed N (argument 1, default 1) twice: the first run prints each
 * delivery at its virtual time; the second must take the same decisions
 * (the same trace hash) and see the same deliveries.  Exit 0 when it did.
 *
 * What makes a program replayable: its threads are made with
 * uirq_sim_thread_create() (here, the main thread is task 0 and uirq makes
 * the rest), and its waits are uirq's - uirq_sim_sleep_ns() instead of
 * nanosleep(), uirq's mutexes instead of pthread's.  A raw blocking call
 * inside a task is named by the mode's stall watcher, never a silent hang.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uirq/irq.h>
#include <uirq/sim.h>
#include <uirq/sources.h>

#define MAX_DELIVERIES 64

struct device {
	struct uirq_fd_line *timer;
	atomic_uint waiting;		/* samples noted by the primary handler */
	unsigned int fetched;		/* samples the thread has fetched */
	unsigned int n;			/* deliveries seen */
	uint64_t at_ns[MAX_DELIVERIES];	/* each delivery's virtual time */
};

/* Hard-irq context: the ack read the timer's expirations; note them, wake the thread. */
static uirq_irqreturn_t primary(int irq, void *dev_id)
{
	struct device *dev = dev_id;

	(void)irq;
	if (dev->n < MAX_DELIVERIES)
		dev->at_ns[dev->n] = uirq_sim_clock_ns();
	dev->n++;
	atomic_fetch_add(&dev->waiting, (unsigned int)uirq_fd_line_last_count(dev->timer));
	return UIRQ_IRQ_WAKE_THREAD;
}

/* Process context: fetch what is waiting over a slow bus (virtual time in the mode). */
static uirq_irqreturn_t thread_fn(int irq, void *dev_id)
{
	struct device *dev = dev_id;
	unsigned int n = atomic_exchange(&dev->waiting, 0);

	(void)irq;
	uirq_sim_sleep_ns(200000);
	dev->fetched += n;
	return UIRQ_IRQ_HANDLED;
}

struct outcome {
	uint64_t hash, decisions;
	struct device dev;
	int ok;
};

static void run(uint64_t seed, struct outcome *o)
{
	struct uirq_cpu_config cpus = { .nr_cpus = 2 };
	struct device *dev = &o->dev;
	int irq, err;

	memset(o, 0, sizeof(*o));
	err = uirq_sim_start(seed, UIRQ_SIM_PCT, 3);
	if (!err)
		err = uirq_cpus_start(&cpus);
	if (err) {
		fprintf(stderr, "seeded: cannot start: %s\n", strerror(-err));
		return;
	}
	uint64_t t0 = uirq_sim_clock_ns();

	irq = uirq_timerfd_line_create(UIRQ_TYPE_EDGE_RISING, 1000000, 1000000, &dev->timer);
	if (irq < 0 || uirq_request_threaded_irq((unsigned int)irq, primary, thread_fn, UIRQF_ONESHOT, "sampler", dev)) {
		fprintf(stderr, "seeded: cannot set up the line: %d\n", irq);
		return;
	}
	uirq_sim_sleep_ns(20500000);	/* 20.5 ms of virtual time: 20 samples */
	uirq_free_irq((unsigned int)irq, dev);
	uirq_fd_line_destroy(dev->timer);
	uirq_cpus_stop();
	if (uirq_sim_stop() != UIRQ_SIM_OK) {
		fprintf(stderr, "seeded: %s", uirq_sim_report());
		return;
	}
	for (unsigned int i = 0; i < dev->n && i < MAX_DELIVERIES; i++)
		dev->at_ns[i] -= t0;
	o->hash = uirq_sim_trace_hash();
	o->decisions = uirq_sim_trace_len();
	o->ok = 1;
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	static struct outcome a, b;

	run(seed, &a);
	if (!a.ok)
		return 1;
	for (unsigned int i = 0; i < a.dev.n && i < MAX_DELIVERIES; i++)
		printf("delivery %2u at %8.1f us\n", i + 1, a.dev.at_ns[i] / 1e3);
	printf("seed %" PRIu64 ": %u samples fetched, %" PRIu64 " scheduling decisions (hash %016" PRIx64 ")\n",
	       seed, a.dev.fetched, a.decisions, a.hash);
	run(seed, &b);
	if (!b.ok)
		return 1;
	int same = a.hash == b.hash && a.dev.n == b.dev.n && a.dev.fetched == b.dev.fetched &&
		   !memcmp(a.dev.at_ns, b.dev.at_ns, sizeof(a.dev.at_ns));

	printf("replayed: %s\n", same ? "identical" : "DIFFERENT");
	return same && a.dev.fetched == 20 ? 0 : 1;
}

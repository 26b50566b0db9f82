// SPDX-License-Identifier: MIT
/*
 * A threaded interrupt handler with uirq, start to end: one uirq CPU takes
 * interrupts from an eventfd line; the primary handler runs in hard-irq
 * context, notes the event and returns UIRQ_IRQ_WAKE_THREAD; the handler
 * thread does the slow part, where it may sleep.  IRQF_ONESHOT keeps the
 * line masked until the thread has finished.  Then everything is torn down.
 *
 *   cc threaded_irq.c $(pkg-config --cflags --libs uirq) -o threaded_irq
 *
 * It raises the line N times (argument 1, default 5), one raise after the
 * thread has handled the one before, and prints what each handler saw.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uirq/context.h>
#include <uirq/irq.h>
#include <uirq/might_sleep.h>
#include <uirq/sources.h>

struct device {
	atomic_uint pending;	/* events noted by the primary handler */
	atomic_uint handled;	/* events the thread has finished */
};

/* Hard-irq context: quick, no sleeping.  Note the event and wake the thread. */
static uirq_irqreturn_t primary(int irq, void *dev_id)
{
	struct device *dev = dev_id;

	(void)irq;
	atomic_fetch_add(&dev->pending, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

/* The handler thread: process context, so it may sleep (a slow bus would go here). */
static uirq_irqreturn_t thread_fn(int irq, void *dev_id)
{
	struct device *dev = dev_id;
	struct timespec slow = { .tv_nsec = 1000000 };

	uirq_might_sleep();	/* lockdep would report it in hard-irq context */
	nanosleep(&slow, NULL);
	printf("irq %d: thread handled event %u (in hard irq: %s)\n", irq, atomic_load(&dev->pending),
	       uirq_in_hardirq() ? "yes" : "no");
	atomic_fetch_add(&dev->handled, 1);
	return UIRQ_IRQ_HANDLED;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : 5;
	struct uirq_cpu_config cpus = { .nr_cpus = 1 };
	struct device dev = { 0 };
	struct uirq_fd_line *line;
	int irq, err;

	err = uirq_cpus_start(&cpus);
	if (err) {
		fprintf(stderr, "uirq_cpus_start: %s\n", strerror(-err));
		return 1;
	}
	irq = uirq_eventfd_line_create(-1, UIRQ_TYPE_EDGE_RISING, &line);
	if (irq < 0) {
		fprintf(stderr, "uirq_eventfd_line_create: %s\n", strerror(-irq));
		uirq_cpus_stop();
		return 1;
	}
	err = uirq_request_threaded_irq((unsigned int)irq, primary, thread_fn, UIRQF_ONESHOT, "example", &dev);
	if (err) {
		fprintf(stderr, "uirq_request_threaded_irq: %s\n", strerror(-err));
		uirq_fd_line_destroy(line);
		uirq_cpus_stop();
		return 1;
	}
	for (unsigned int i = 1; i <= n; i++) {
		struct timespec tick = { .tv_nsec = 100000 };

		uirq_eventfd_line_raise(line);
		while (atomic_load(&dev.handled) < i)
			nanosleep(&tick, NULL);
	}
	/* free_irq waits for the handlers, then the line and the CPUs go */
	uirq_free_irq((unsigned int)irq, &dev);
	uirq_fd_line_destroy(line);
	uirq_cpus_stop();
	printf("%u events, %u handled\n", atomic_load(&dev.pending), atomic_load(&dev.handled));
	return atomic_load(&dev.handled) == n ? 0 : 1;
}

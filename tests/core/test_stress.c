// SPDX-License-Identifier: MIT
/*
 * Concurrency: four threads request, free, disable, enable and move lines
 * while another raises them, on two CPUs.  Bounded; clean under TSan/ASan
 * and lockdep.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testchip.h"

#define WORKERS 4
#define LINES 4
#define ITERS 150

static atomic_int stop_raising, primaries, threads_run;
static int devs[WORKERS];

static uirq_irqreturn_t s_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&primaries, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t s_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&threads_run, 1);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t s_hard(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&primaries, 1);
	return UIRQ_IRQ_HANDLED;
}

static void *raiser(void *arg)
{
	unsigned int seed = 1;

	(void)arg;
	while (!atomic_load(&stop_raising)) {
		tc_edge(tc_irq((unsigned int)rand_r(&seed) % LINES));
		if ((rand_r(&seed) & 7) == 0)
			tc_msleep(0);
	}
	return NULL;
}

static void *worker(void *arg)
{
	int w = (int)(long)arg;
	unsigned int seed = (unsigned int)w + 7;
	long fails = 0;

	for (int i = 0; i < ITERS; i++) {
		unsigned int irq = tc_irq((unsigned int)rand_r(&seed) % LINES);
		int kind = rand_r(&seed) % 3;
		int ret;

		if (kind == 0)
			ret = uirq_request_threaded_irq(irq, NULL, s_thread, UIRQF_SHARED | UIRQF_ONESHOT, "st",
							&devs[w]);
		else if (kind == 1)
			ret = uirq_request_threaded_irq(irq, s_primary, s_thread, UIRQF_SHARED | UIRQF_ONESHOT,
							"st", &devs[w]);
		else
			ret = uirq_request_irq(irq, s_hard, UIRQF_SHARED | UIRQF_ONESHOT | UIRQF_NO_THREAD,
					       "st", &devs[w]);
		if (ret) {
			fails++;
			continue;
		}
		for (int j = 0; j < 3; j++) {
			switch (rand_r(&seed) % 4) {
			case 0:
				uirq_disable_irq(irq);
				uirq_enable_irq(irq);
				break;
			case 1:
				uirq_disable_irq_nosync(irq);
				uirq_enable_irq(irq);
				break;
			case 2:
				uirq_irq_set_affinity(irq, 1u + (unsigned int)rand_r(&seed) % 3);
				break;
			default:
				uirq_synchronize_irq(irq);
			}
		}
		if (!uirq_free_irq(irq, &devs[w]))
			fails++;
	}
	return (void *)fails;
}

UIRQ_TEST(core_stress, request_free_disable_enable_affinity_while_raising, .timeout = 60)
{
	pthread_t r, t[WORKERS];

	tc_setup(2, false, false, uirq_handle_edge_irq);
	pthread_create(&r, NULL, raiser, NULL);
	for (long w = 0; w < WORKERS; w++)
		pthread_create(&t[w], NULL, worker, (void *)w);
	for (int w = 0; w < WORKERS; w++) {
		void *fails;

		pthread_join(t[w], &fails);
		assert_null(fails, "worker %d: %ld failed calls", w, (long)fails);
	}
	atomic_store(&stop_raising, 1);
	pthread_join(r, NULL);
	for (unsigned int hw = 0; hw < LINES; hw++) {
		assert_eq(uirq_irq_get_depth(tc_irq(hw)), 1u, "shut down, balanced");
		assert_false(uirq_irq_is_enabled(tc_irq(hw)));
	}
	assert_gt(atomic_load(&primaries) + atomic_load(&threads_run), 0);
	tc_teardown();
}

// SPDX-License-Identifier: MIT
/* A kernel-style driver against the compat headers: domain ops, chip, threaded irq. */
#include <errno.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/mutex.h>
#include <stdatomic.h>
#include <unistd.h>

#include "harness.h"

static atomic_int masks, unmasks, thread_runs, maps;

static void my_mask(struct irq_data *d) { (void)d; atomic_fetch_add(&masks, 1); }
static void my_unmask(struct irq_data *d) { (void)d; atomic_fetch_add(&unmasks, 1); }

static struct irq_chip my_chip = {
	.name = "compat",
	.irq_mask = my_mask,
	.irq_unmask = my_unmask,
};

static int my_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	(void)hw;
	irq_set_chip_data(virq, irq_domain_get_host_data(d));
	irq_set_chip_and_handler(virq, &my_chip, handle_level_irq);
	atomic_fetch_add(&maps, 1);
	return 0;
}

static const struct irq_domain_ops my_ops = { .map = my_map };

static irqreturn_t quick(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t slow(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&thread_runs, 1);
	return IRQ_HANDLED;
}

UIRQ_TEST(core_compat, kernel_style_driver, .timeout = 20)
{
	static int host, dev;

	assert_eq(uirq_cpus_start(NULL), 0);
	struct irq_domain *d = irq_domain_add_linear(NULL, 4, &my_ops, &host);

	assert_not_null(d);
	unsigned int virq = irq_create_mapping(d, 2);

	assert_ne(virq, 0u);
	assert_eq(irq_find_mapping(d, 2), virq);
	assert_eq(atomic_load(&maps), 1);
	assert_eq(irq_get_chip_data(virq), (void *)&host);
	assert_eq(irqd_to_hwirq(irq_get_irq_data(virq)), 2ul);
	assert_eq(request_threaded_irq(IRQ_NOTCONNECTED, quick, slow, IRQF_ONESHOT, "compat", &dev), -ENOTCONN);
	assert_eq(request_threaded_irq(virq, quick, slow, IRQF_ONESHOT, "compat", &dev), 0);
	uirq_irq_raise(virq);
	/* The thread's run, however long a loaded host takes (Check's timeout bounds a hang). */
	while (!atomic_load(&thread_runs))
		usleep(100);
	synchronize_irq(virq);
	assert_eq(atomic_load(&thread_runs), 1);
	assert_eq(atomic_load(&masks), 1);
	assert_eq(atomic_load(&unmasks), 2);
	disable_irq(virq);
	enable_irq(virq);
	assert_str_eq(free_irq(virq, &dev), "compat");
	irq_dispose_mapping(virq);
	assert_eq(irq_find_mapping(d, 2), 0u);
	irq_domain_remove(d);
	uirq_cpus_stop();
}

// SPDX-License-Identifier: MIT
/*
 * gpiolib's provider side (compat/gpiolib.c): a chip registers with a
 * dynamic base and its data; its irq chip gets a domain whose lines carry
 * the driver's chip, handler and nested threads; a line requested as an
 * interrupt is locked as one, which a line driven as an output refuses;
 * removal takes the domain away.  A chained controller's parents get its
 * demultiplexer, an irq valid mask keeps lines from being interrupts, and
 * fixed numbers (irq.first) are the lines' from the start.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include <linux/errno.h>
#include <linux/gpio/driver.h>
#include <linux/interrupt.h>

#include "compat_test.h"
#include "sim_runs.h"
#include "uirq/sources.h"

static struct {
	struct gpio_chip gc;
	unsigned long out;	/* lines driven as outputs */
	int enables;
} fake;

static int get_direction(struct gpio_chip *gc, unsigned int off)
{
	(void)gc;
	return test_bit((long)off, &fake.out) ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static void irq_enable(struct irq_data *d)
{
	gpiochip_enable_irq(irq_data_get_irq_chip_data(d), irqd_to_hwirq(d));
	fake.enables++;
}

static void irq_disable(struct irq_data *d)
{
	gpiochip_disable_irq(irq_data_get_irq_chip_data(d), irqd_to_hwirq(d));
}

static void noop(struct irq_data *d)
{
	(void)d;
}

static const struct irq_chip fake_irq_chip = {
	.name = "fake",
	.irq_enable = irq_enable,
	.irq_disable = irq_disable,
	.irq_mask = noop,
	.irq_unmask = noop,
	.flags = IRQCHIP_IMMUTABLE,
	GPIOCHIP_IRQ_RESOURCE_HELPERS,
};

static uirq_irqreturn_t thread_fn(int irq, void *dev)
{
	(void)irq, (void)dev;
	return IRQ_HANDLED;
}

static int is_fake(struct gpio_chip *gc, void *data)
{
	return gc->uirq_data == data;
}

/* The fake chip afresh: 8 lines, a dynamic base, its irq chip with handler as the lines' flow. */
static void fake_chip(irq_flow_handler_t handler)
{
	memset(&fake, 0, sizeof(fake));
	fake.gc.label = "fake";
	fake.gc.base = -1;
	fake.gc.ngpio = 8;
	gpio_irq_chip_set_chip(&fake.gc.irq, &fake_irq_chip);
	fake.gc.irq.handler = handler;
}

UIRQ_TEST(compat_gpiolib, chip_domain_and_irq_lock, .init = setup, .fini = teardown)
{
	int data, irq;

	fake_chip(handle_level_irq);
	fake.gc.get_direction = get_direction;
	fake.gc.irq.threaded = true;
	assert_eq(gpiochip_add_data(&fake.gc, &data), 0);
	assert_eq(fake.gc.base, 512 - 8, "a dynamic base, from 512 down");
	assert_eq(gpiochip_get_data(&fake.gc), &data);
	assert_eq(gpiochip_find(&data, is_fake), &fake.gc);
	assert_not_null(fake.gc.irq.domain);
	irq = fake.gc.to_irq(&fake.gc, 3);
	assert_gt(irq, 0);
	assert_eq(fake.gc.to_irq(&fake.gc, 3), irq, "one mapping per line");
	assert_eq(irq_get_chip_data((unsigned int)irq), &fake.gc, "the gpio_chip is the chip data");
	assert_eq(fake.gc.to_irq(&fake.gc, 8), -ENXIO);
	/* Requested: locked as an interrupt, enabled through the driver's callback. */
	assert_eq(request_threaded_irq((unsigned int)irq, NULL, thread_fn, IRQF_ONESHOT, "line3", &data), 0);
	assert_true(gpiochip_line_is_irq(&fake.gc, 3));
	assert_eq(fake.enables, 1);
	free_irq((unsigned int)irq, &data);
	assert_false(gpiochip_line_is_irq(&fake.gc, 3), "unlocked when freed");
	/* A line the chip drives cannot be an interrupt: the request is refused. */
	set_bit(5, &fake.out);
	irq = fake.gc.to_irq(&fake.gc, 5);
	assert_eq(request_threaded_irq((unsigned int)irq, NULL, thread_fn, IRQF_ONESHOT, "line5", &data), -EIO);
	assert_false(gpiochip_line_is_irq(&fake.gc, 5));
	gpiochip_remove(&fake.gc);
	assert_null(fake.gc.irq.domain);
	assert_null(gpiochip_find(&data, is_fake));
	/* No lines: refused. */
	fake.gc.ngpio = 0;
	assert_eq(gpiochip_add_data(&fake.gc, &data), -EINVAL);
}

static int init_hw_ret;

static int init_hw(struct gpio_chip *gc)
{
	(void)gc;
	return init_hw_ret;
}

/* The irq chip's init_hw() failing fails the registration with its error; the chip is not listed. */
UIRQ_TEST(compat_gpiolib, init_hw_failure_fails_the_chip, .init = setup, .fini = teardown)
{
	int data;

	fake_chip(handle_level_irq);
	fake.gc.irq.init_hw = init_hw;
	init_hw_ret = -EIO;
	assert_eq(gpiochip_add_data(&fake.gc, &data), -EIO);
	assert_null(gpiochip_find(&data, is_fake));
	assert_null(fake.gc.irq.domain);
	assert_false(fake.gc.irq.initialized);
	init_hw_ret = 0;
	fake.gc.base = -1;
	assert_eq(gpiochip_add_data(&fake.gc, &data), 0);
	assert_eq(fake.gc.base, 512 - 8, "the numbers were given back");
	assert_eq(gpiochip_find(&data, is_fake), &fake.gc);
	gpiochip_remove(&fake.gc);
}

/* ---- a chained controller: its demultiplexer on its parent line ---- */

static atomic_ulong pending;	/* the fake chip's latched lines */
static atomic_int child_calls;

static void demux(struct irq_desc *desc)
{
	struct gpio_chip *gc = irq_desc_get_handler_data(desc);
	struct irq_chip *chip = irq_desc_get_chip(desc);
	unsigned long bits;

	chained_irq_enter(chip, desc);
	bits = atomic_exchange(&pending, 0);
	for (unsigned int i = 0; i < gc->ngpio; i++)
		if (bits & (1ul << i))
			generic_handle_domain_irq(gc->irq.domain, i);
	chained_irq_exit(chip, desc);
}

static irqreturn_t child_hard(int irq, void *dev)
{
	(void)irq, (void)dev;
	atomic_fetch_add(&child_calls, 1);
	return IRQ_HANDLED;
}

/* In the deterministic mode, where "the CPU has taken the pulse" is exact after any sleep. */
static void sim_begin(unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };

	logbuf[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_cpus_start(&cfg), 0);
	atomic_store(&child_calls, 0);
	atomic_store(&pending, 0);
}

static void chained_chip(unsigned int *parent)
{
	fake_chip(handle_simple_irq);
	fake.gc.irq.parent_handler = demux;
	fake.gc.irq.num_parents = 1;
	fake.gc.irq.parents = parent;
}

/*
 * gpiochip_add_irqchip()'s chained parents: each parent line gets the
 * driver's parent_handler with the chip as its data, so a line of the
 * chip runs its handler when the parent fires; removal takes the handler
 * off.  A chip that may sleep cannot be chained (the kernel's -EINVAL).
 */
SIM_TEST(compat_gpiolib, chained_parent_gets_the_demultiplexer, sim_begin, teardown, .timeout = 60)
{
	struct uirq_swirq_config hcfg = { .name = "host", .nr_inputs = 1, .default_type = IRQ_TYPE_EDGE_RISING };
	struct uirq_swirq *host;
	unsigned int parent;
	int data, irq;

	assert_eq(uirq_swirq_create(&hcfg, &host), 0);
	parent = (unsigned int)uirq_swirq_map(host, 0);
	chained_chip(&parent);
	assert_eq(gpiochip_add_data(&fake.gc, &data), 0);
	irq = fake.gc.to_irq(&fake.gc, 2);
	assert_gt(irq, 0);
	assert_eq(request_irq((unsigned int)irq, child_hard, 0, "line2", &data), 0);
	atomic_store(&pending, 1ul << 2);
	assert_eq(uirq_swirq_pulse(host, 0), 0);
	uirq_sim_sleep_ns(SIM_MS);
	assert_eq(atomic_load(&child_calls), 1, "line 2's handler, once");
	assert_eq(irq_get_handler_data(parent), &fake.gc, "the chip is the parent's handler data");
	free_irq((unsigned int)irq, &data);
	gpiochip_remove(&fake.gc);
	assert_null(irq_get_handler_data(parent), "the demultiplexer is taken off");
	chained_chip(&parent);
	fake.gc.can_sleep = true;
	assert_eq(gpiochip_add_data(&fake.gc, &data), -EINVAL);
	assert_not_null(strstr(logbuf, "(fake): you cannot have chained interrupts on a chip that may sleep"), "%s",
			logbuf);
	assert_null(gpiochip_find(&data, is_fake));
	assert_eq(uirq_swirq_destroy(host), 0);
}

static void no_odd_lines(struct gpio_chip *gc, unsigned long *valid_mask, unsigned int ngpios)
{
	(void)gc;
	for (unsigned int i = 1; i < ngpios; i += 2)
		clear_bit((long)i, valid_mask);
}

/* init_valid_mask(): a line it clears is no interrupt (to_irq() -ENXIO), the others are. */
UIRQ_TEST(compat_gpiolib, irq_valid_mask_is_honoured, .init = setup, .fini = teardown)
{
	int data;

	fake_chip(handle_simple_irq);
	fake.gc.irq.init_valid_mask = no_odd_lines;
	assert_eq(gpiochip_add_data(&fake.gc, &data), 0);
	assert_not_null(fake.gc.irq.valid_mask);
	assert_gt(fake.gc.to_irq(&fake.gc, 2), 0);
	assert_eq(fake.gc.to_irq(&fake.gc, 3), -ENXIO, "cleared by init_valid_mask");
	gpiochip_remove(&fake.gc);
	assert_null(fake.gc.irq.valid_mask, "freed with the chip");
}

/*
 * irq.first: the lines are first.. from registration on (the kernel's
 * irq_domain_create_simple()), allocated by gpiolib and freed at removal,
 * or the board's when it allocated them already ("assuming
 * pre-allocated").  With a valid mask it is refused here.
 */
UIRQ_TEST(compat_gpiolib, fixed_numbers_from_first, .init = setup, .fini = teardown)
{
	int data, first = irq_alloc_descs(-1, 1, 8, 0);

	assert_gt(first, 0);
	irq_free_descs((unsigned int)first, 8);
	fake_chip(handle_simple_irq);
	fake.gc.irq.first = (unsigned int)first;
	assert_eq(gpiochip_add_data(&fake.gc, &data), 0);
	assert_eq(fake.gc.to_irq(&fake.gc, 3), first + 3);
	assert_eq(fake.gc.to_irq(&fake.gc, 0), first);
	assert_eq(irq_get_chip_data((unsigned int)first + 7), &fake.gc, "mapped at registration");
	gpiochip_remove(&fake.gc);
	assert_null(irq_get_irq_data((unsigned int)first), "gpiolib's descriptors freed");
	/* The board's numbers: used, left to the board. */
	assert_eq(irq_alloc_descs(first, 1, 8, 0), first);
	fake.gc.base = -1;
	assert_eq(gpiochip_add_data(&fake.gc, &data), 0);
	assert_not_null(strstr(logbuf, "Cannot allocate irq_descs @ IRQ"), "%s", logbuf);
	assert_eq(fake.gc.to_irq(&fake.gc, 5), first + 5);
	gpiochip_remove(&fake.gc);
	assert_not_null(irq_get_irq_data((unsigned int)first), "the board's to free");
	irq_free_descs((unsigned int)first, 8);
	fake.gc.base = -1;
	fake.gc.irq.init_valid_mask = no_odd_lines;
	assert_eq(gpiochip_add_data(&fake.gc, &data), -EINVAL);
	assert_not_null(strstr(logbuf, "irq.first with irq.init_valid_mask is not supported"), "%s", logbuf);
}

static void plain_chip(struct gpio_chip *gc, const char *label, int base, u16 ngpio)
{
	memset(gc, 0, sizeof(*gc));
	gc->label = label;
	gc->base = base;
	gc->ngpio = ngpio;
}

/*
 * Numbers, as the kernel's gpiochip_find_base() gives them: a dynamic
 * chip takes the highest free range below 512, so a chip added again
 * after its removal gets its old numbers back, a range freed in the middle
 * is taken by a chip it fits, and a fixed base overlapping a chip's
 * numbers is refused -EBUSY.  A board that adds and removes chips for
 * each run (a test over 200 seeds) never runs out of numbers.
 */
UIRQ_TEST(compat_gpiolib, numbers_are_given_back, .init = setup, .fini = teardown)
{
	struct gpio_chip a, b, c, d, e;

	for (int i = 0; i < 200; i++) {
		plain_chip(&a, "a", -1, 8);
		assert_eq(gpiochip_add_data(&a, NULL), 0);
		assert_eq(a.base, 504, "round %d", i);
		gpiochip_remove(&a);
	}
	plain_chip(&a, "a", -1, 8);
	plain_chip(&b, "b", -1, 16);
	plain_chip(&c, "c", -1, 8);
	assert_eq(gpiochip_add_data(&a, NULL), 0);
	assert_eq(gpiochip_add_data(&b, NULL), 0);
	assert_eq(gpiochip_add_data(&c, NULL), 0);
	assert_eq(a.base, 504);
	assert_eq(b.base, 488);
	assert_eq(c.base, 480);
	/* b's 16 numbers freed: an 8-line chip takes their top. */
	gpiochip_remove(&b);
	plain_chip(&d, "d", -1, 8);
	assert_eq(gpiochip_add_data(&d, NULL), 0);
	assert_eq(d.base, 496);
	gpiochip_remove(&d);
	/* A fixed base: anywhere free, refused over another chip's numbers. */
	plain_chip(&d, "d", 490, 8);
	assert_eq(gpiochip_add_data(&d, NULL), 0);
	gpiochip_remove(&d);
	plain_chip(&d, "d", 500, 8);
	assert_eq(gpiochip_add_data(&d, NULL), -EBUSY);
	plain_chip(&d, "d", 476, 8);
	assert_eq(gpiochip_add_data(&d, NULL), -EBUSY);
	gpiochip_remove(&a);
	gpiochip_remove(&c);
	/* No room left below 512: -ENOSPC; more lines than a chip may have here: -EINVAL. */
	plain_chip(&a, "a", 0, 128);
	plain_chip(&b, "b", 128, 128);
	plain_chip(&c, "c", 256, 128);
	plain_chip(&d, "d", 384, 128);
	assert_eq(gpiochip_add_data(&a, NULL), 0);
	assert_eq(gpiochip_add_data(&b, NULL), 0);
	assert_eq(gpiochip_add_data(&c, NULL), 0);
	assert_eq(gpiochip_add_data(&d, NULL), 0);
	plain_chip(&e, "e", -1, 1);
	assert_eq(gpiochip_add_data(&e, NULL), -ENOSPC);
	gpiochip_remove(&a);
	gpiochip_remove(&b);
	gpiochip_remove(&c);
	gpiochip_remove(&d);
	plain_chip(&e, "e", -1, 129);
	assert_eq(gpiochip_add_data(&e, NULL), -EINVAL);
}

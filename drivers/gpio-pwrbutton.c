// SPDX-License-Identifier: MIT
/*
 * gpio-pwrbutton: a power button on a GPIO line, the way gpio-keys serves
 * one on a board, on a real kernel's GPIO character device.  No primary
 * handler: reading the line's events in the ack is all the quieting a GPIO
 * line needs, so the thread does the work; IRQF_ONESHOT keeps the line
 * masked until it has reported, and the kernel queues edges meanwhile.
 */
#include <errno.h>
#include <linux/errno.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "uirq/gpio-pwrbutton.h"

struct gpio_pwrbutton {
	struct uirq_input_dev *input;	/* the caller's (a uirq device: reports go straight to it) */
	struct uirq_fd_line *line;
	unsigned int irq;
	bool active_low;
	unsigned long reported;		/* atomics: written by the thread, read anywhere */
	unsigned long empty;
};

static irqreturn_t gpio_pwrbutton_thread(int irq, void *_pb)
{
	struct gpio_pwrbutton *pb = _pb;
	struct uirq_gpio_event ev;

	(void)irq;
	/* The edge that ended this interrupt's batch is the button's state now. */
	if (uirq_gpio_line_last_event(pb->line, &ev)) {
		__atomic_fetch_add(&pb->empty, 1, __ATOMIC_RELAXED);
		return IRQ_NONE;
	}
	uirq_input_report_key(pb->input, KEY_POWER, (ev.kind == UIRQ_TYPE_EDGE_RISING) != pb->active_low);
	uirq_input_sync(pb->input);
	__atomic_fetch_add(&pb->reported, 1, __ATOMIC_RELAXED);
	return IRQ_HANDLED;
}

int gpio_pwrbutton_probe(const struct gpio_pwrbutton_config *cfg, struct gpio_pwrbutton **out)
{
	struct uirq_gpio_line_stats st;
	struct gpio_pwrbutton *pb;
	int err;

	if (!out || !cfg || !cfg->line || !cfg->input || uirq_gpio_line_get_stats(cfg->line, &st))
		return -EINVAL;
	pb = kzalloc(sizeof(*pb), GFP_KERNEL);
	if (!pb)
		return -ENOMEM;
	pb->input = cfg->input;
	pb->line = cfg->line;
	pb->irq = uirq_fd_line_irq(cfg->line);
	pb->active_low = cfg->active_low;
	err = request_threaded_irq(pb->irq, NULL, gpio_pwrbutton_thread,
				   IRQF_ONESHOT | IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING, "uirq-pwrbutton", pb);
	if (err < 0) {
		pr_err("gpio-pwrbutton: Can't get IRQ %u: %d\n", pb->irq, err);
		kfree(pb);
		return err;
	}
	pr_info("input: %s on irq %u, GPIO line %u, active %s\n", pb->input->name, pb->irq, st.offset,
		pb->active_low ? "low" : "high");
	*out = pb;
	return 0;
}

void gpio_pwrbutton_remove(struct gpio_pwrbutton *pb)
{
	if (!pb)
		return;
	free_irq(pb->irq, pb);
	kfree(pb);
}

void gpio_pwrbutton_counts(const struct gpio_pwrbutton *pb, unsigned long *reported, unsigned long *empty)
{
	if (reported)
		*reported = __atomic_load_n(&pb->reported, __ATOMIC_RELAXED);
	if (empty)
		*empty = __atomic_load_n(&pb->empty, __ATOMIC_RELAXED);
}

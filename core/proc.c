// SPDX-License-Identifier: MIT
/* The /proc views: /proc/interrupts and /proc/irq/N/spurious (kernel/irq/proc.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internals.h"

struct show_ctx {
	FILE *f;
	int prec;
	unsigned int ncpus;
};

static void show_one(struct uirq_irq_desc *desc, void *arg)
{
	struct show_ctx *c = arg;
	struct uirq_irqaction *action;
	unsigned long any = 0, flags;
	char line[1024];
	size_t n = 0;

	unsigned int kn;
	_Atomic unsigned int *kstat = desc_kstat(desc, &kn);

	for (unsigned int i = 0; i < kn; i++)
		any += atomic_load_explicit(&kstat[i], memory_order_relaxed);

	uirq_spin_lock_irqsave(&desc->lock, flags);
	action = desc_action(desc);
	if (!action && !any)
		goto out;
	n += (size_t)snprintf(line + n, sizeof(line) - n, "%*u: ", c->prec, desc->irq_data.irq);
	for (unsigned int i = 0; i < c->ncpus && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%10u ",
				      i < kn ? atomic_load_explicit(&kstat[i], memory_order_relaxed) : 0u);
	if (n < sizeof(line)) {
		const char *chip = desc->irq_data.chip ? desc->irq_data.chip->name : "None";

		n += (size_t)snprintf(line + n, sizeof(line) - n, " %8s", chip ? chip : "-");
	}
	if (n < sizeof(line)) {
		if (desc->irq_data.domain)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %*lu", c->prec, desc->irq_data.hwirq);
		else
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %*s", c->prec, "");
	}
	if (n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %-8s", irqd_is_level_type(desc) ? "Level" : "Edge");
	if (desc->name && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "-%-8s", desc->name);
	if (action && n < sizeof(line)) {
		n += (size_t)snprintf(line + n, sizeof(line) - n, "  %s", action->name ? action->name : "");
		while ((action = action_next(action)) && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, ", %s", action->name ? action->name : "");
	}
out:
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	if (n) {
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		line[n] = '\0';
		fprintf(c->f, "%s\n", line);
	}
}

void uirq_show_interrupts(FILE *f)
{
	struct show_ctx c = { .f = f, .prec = 3, .ncpus = uirq_num_cpus() };

	if (!c.ncpus)
		c.ncpus = 1;
	for (unsigned int j = irq_get_nr_irqs(); j >= 1000; j /= 10)
		c.prec++;
	fprintf(f, "%*s", c.prec + 8, "");
	for (unsigned int j = 0; j < c.ncpus; j++)
		fprintf(f, "CPU%-8u", j);
	fputc('\n', f);
	irq_for_each_desc(show_one, &c);
	fflush(f);
}

int uirq_show_spurious(FILE *f, unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -EINVAL;
	fprintf(f, "count %u\nunhandled %u\nlast_unhandled %u ms\n",
		atomic_load_explicit(&desc->irq_count, memory_order_relaxed),
		atomic_load_explicit(&desc->irqs_unhandled, memory_order_relaxed),
		atomic_load_explicit(&desc->last_unhandled, memory_order_relaxed));
	fflush(f);
	return 0;
}

size_t uirq_irq_line_footprint(void)
{
	unsigned int n = uirq_num_cpus();

	return sizeof(struct uirq_irq_desc) + (n ? n : 1) * sizeof(unsigned int);	/* one allocation */
}

size_t uirq_irq_action_footprint(void)
{
	return sizeof(struct uirq_irqaction);
}

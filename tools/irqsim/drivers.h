/* SPDX-License-Identifier: MIT */
/*
 * The TWL4030 drivers a run probes (--drivers): the project's own
 * (drivers/, built in) or the kernel's unmodified files, which are
 * GPL-2.0 and live in a module of their own built only with
 * -Dupstream=enabled (upstream/irqsim.c).  Both sets answer to the same
 * table, so a run, its verdict and its replay are the same code either way.
 */
#ifndef IRQSIM_DRIVERS_H
#define IRQSIM_DRIVERS_H

#include <stdbool.h>

#include "uirq/i2c.h"
#include "uirq/input.h"

struct irqsim_drivers {
	const char *name;		/* "own", "upstream" */
	const char *version;		/* the kernel package of the files; NULL for own */
	const char *files;		/* "PATH SHA256" lines of the files; NULL for own */
	/* The interrupt core on host_irq and the power button; legacy: the 2009 form (own only). */
	int (*probe)(struct uirq_i2c_adapter *adap, unsigned int host_irq, bool legacy, void **out);
	unsigned int (*irq_base)(void *d);
	struct uirq_input_dev *(*input)(void *d);
	/* Teardown in two steps: the button (its reader wakes with -ENODEV), later the core. */
	void (*remove_button)(void *d);
	void (*remove)(void *d);
	/*
	 * The scenario's unbind and bind (NULL: the set cannot, and a scenario
	 * that asks is refused): which 0 is the button, 1 the interrupt core;
	 * the caller unbinds the button before the core and binds it after.
	 * The driver's own remove and probe run, as the kernel's unbind and
	 * bind through sysfs run them.  bind: 0 or -errno.
	 */
	void (*unbind)(void *d, int which);
	int (*bind)(void *d, int which);
};

/* Call fn(path, sha256, arg) for each of d's files (none for the project's own). */
void irqsim_drivers_each_file(const struct irqsim_drivers *d, void (*fn)(const char *path, const char *sha256,
									  void *arg),
			      void *arg);

/* The name of the module's table, and its interface version. */
#define IRQSIM_DRIVERS_SYMBOL	"irqsim_upstream_drivers_v1"

/*
 * The set named name ("own" or "upstream") into *out: 0, or 2 (usage)
 * after saying on stderr why it cannot be had (irqsim built without
 * -Dupstream=enabled, the module missing or broken).
 */
int irqsim_drivers_get(const char *name, const struct irqsim_drivers **out);

#endif

// SPDX-License-Identifier: MIT
/*
 * --drivers: the project's TWL4030 drivers, or the kernel's from the module
 * -Dupstream=enabled builds (found, like --lockdep-demo's programs,
 * relative to irqsim's own folder; UIRQ_UPSTREAM_MODULE names another).
 * The module is never installed: an installed irqsim says how to build it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers.h"
#include "irqsim.h"
#include "uirq/twl4030-drivers.h"
#include "../self-path.h"

struct own {
	struct twl4030_irq *ti;
	struct twl4030_pwrbutton *pwr;
	/* What a bind probes with again. */
	struct uirq_i2c_adapter *adap;
	unsigned int host_irq;
	bool legacy;
};

static int own_probe(struct uirq_i2c_adapter *adap, unsigned int host_irq, bool legacy, void **out)
{
	struct own *d = calloc(1, sizeof(*d));
	int err;

	if (!d)
		return -ENOMEM;
	err = twl4030_irq_probe_flags(adap, host_irq, legacy ? TWL4030_IRQ_LEGACY : 0, &d->ti);
	if (err) {
		fprintf(stderr, "irqsim: twl4030-irq probe failed: %s\n", strerror(-err));
		free(d);
		return err;
	}
	err = twl4030_pwrbutton_probe(adap, twl4030_irq_base(d->ti) + TWL4030_PWR_IRQ_PWRON, legacy, &d->pwr);
	if (err) {
		fprintf(stderr, "irqsim: twl4030-pwrbutton probe failed: %s\n", strerror(-err));
		twl4030_irq_remove(d->ti);
		free(d);
		return err;
	}
	d->adap = adap;
	d->host_irq = host_irq;
	d->legacy = legacy;
	*out = d;
	return 0;
}

static void own_unbind(void *d, int which)
{
	struct own *o = d;

	if (which) {
		twl4030_irq_remove(o->ti);
		o->ti = NULL;
	} else {
		twl4030_pwrbutton_remove(o->pwr);
		o->pwr = NULL;
	}
}

static int own_bind(void *d, int which)
{
	struct own *o = d;

	if (which)
		return twl4030_irq_probe_flags(o->adap, o->host_irq, o->legacy ? TWL4030_IRQ_LEGACY : 0, &o->ti);
	return twl4030_pwrbutton_probe(o->adap, twl4030_irq_base(o->ti) + TWL4030_PWR_IRQ_PWRON, o->legacy,
				       &o->pwr);
}

static unsigned int own_irq_base(void *d)
{
	return twl4030_irq_base(((struct own *)d)->ti);
}

static struct uirq_input_dev *own_input(void *d)
{
	return twl4030_pwrbutton_input(((struct own *)d)->pwr);
}

static void own_remove_button(void *d)
{
	struct own *o = d;

	twl4030_pwrbutton_remove(o->pwr);
	o->pwr = NULL;
}

static void own_remove(void *d)
{
	struct own *o = d;

	twl4030_pwrbutton_remove(o->pwr);
	twl4030_irq_remove(o->ti);
	free(o);
}

static const struct irqsim_drivers own = {
	.name = "own",
	.probe = own_probe,
	.irq_base = own_irq_base,
	.input = own_input,
	.remove_button = own_remove_button,
	.remove = own_remove,
	.unbind = own_unbind,
	.bind = own_bind,
};

void irqsim_drivers_each_file(const struct irqsim_drivers *d, void (*fn)(const char *path, const char *sha256,
									  void *arg),
			      void *arg)
{
	for (const char *l = d && d->files ? d->files : ""; *l;) {
		size_t n = strcspn(l, "\n");
		const char *sp = memchr(l, ' ', n);

		if (sp) {
			char path[PATH_MAX], sum[128];

			snprintf(path, sizeof(path), "%.*s", (int)(sp - l), l);
			snprintf(sum, sizeof(sum), "%.*s", (int)(l + n - sp - 1), sp + 1);
			fn(path, sum, arg);
		}
		l += n + (l[n] == '\n');
	}
}

/* The module's path: UIRQ_UPSTREAM_MODULE, else the build tree's next to irqsim; false if none. */
static bool module_path(char *out, size_t len)
{
	const char *env = getenv("UIRQ_UPSTREAM_MODULE");

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return true;
	}
#ifdef IRQSIM_BUILD_UPSTREAM
	return self_path(IRQSIM_BUILD_UPSTREAM, false, out, len);
#else
	return false;
#endif
}

int irqsim_drivers_get(const char *name, const struct irqsim_drivers **out)
{
	char path[PATH_MAX];
	void *h;

	if (!strcmp(name, "own")) {
		*out = &own;
		return 0;
	}
	if (strcmp(name, "upstream")) {
		fprintf(stderr, "irqsim: --drivers: expected own or upstream, got '%s'\n", name);
		return IRQSIM_EXIT_USAGE;
	}
	if (!module_path(path, sizeof(path))) {
		fprintf(stderr,
			"irqsim: --drivers upstream runs the kernel's unmodified twl4030-irq.c and twl4030-pwrbutton.c,\n"
			"irqsim: which are GPL-2.0 and built only on request, never installed: in a source tree,\n"
			"irqsim:   meson setup build -Dupstream=enabled && ninja -C build\n"
			"irqsim:   build/tools/irqsim/irqsim --drivers upstream\n"
			"irqsim: (scripts/upstream.sh fetches the files from Debian's linux-source-6.1 package;\n"
			"irqsim: UIRQ_UPSTREAM_MODULE may name a module built elsewhere)\n");
		return IRQSIM_EXIT_USAGE;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "irqsim: --drivers upstream: cannot load %s: %s\n", path, dlerror());
		return IRQSIM_EXIT_USAGE;
	}
	*out = dlsym(h, IRQSIM_DRIVERS_SYMBOL);
	if (!*out) {
		fprintf(stderr, "irqsim: --drivers upstream: %s has no %s (built from another uirq?)\n", path,
			IRQSIM_DRIVERS_SYMBOL);
		dlclose(h);
		return IRQSIM_EXIT_USAGE;
	}
	/* Kept loaded for the run: its drivers and their threads live in it. */
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Modules linked into the program: module_init() and module_exit() record
 * their functions here from constructors, in link order, by file.  The
 * board runs the inits when it "boots" (uirq_compat_modules_init()) and
 * the exits, newest first, of the modules whose init succeeded when it
 * shuts down - as a kernel runs built-in initcalls and a module's exit.
 */
#include <stddef.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/module.h>
#include <linux/printk.h>

enum { MOD_NEW, MOD_LIVE, MOD_FAILED };

static struct uirq_compat_module *modules;	/* newest first; constructors run before any thread */

void uirq_compat_module_add(struct uirq_compat_module *m)
{
	m->next = modules;
	modules = m;
}

/* The init entry of m's file, or NULL (a file with only module_exit()). */
static struct uirq_compat_module *init_of(const struct uirq_compat_module *m)
{
	for (struct uirq_compat_module *i = modules; i; i = i->next)
		if (i->init && !strcmp(i->file, m->file))
			return i;
	return NULL;
}

/* Oldest first: the order the program's constructors registered them. */
static int run_inits(struct uirq_compat_module *m)
{
	int ret;

	if (!m)
		return 0;
	ret = run_inits(m->next);
	if (!m->init || m->state != MOD_NEW)
		return ret;
	int err = m->init();

	m->state = err ? MOD_FAILED : MOD_LIVE;
	if (err) {
		pr_err("uirq: module %s: init failed: %d\n", m->file, err);
		if (!ret)
			ret = err;
	}
	return ret;
}

int uirq_compat_modules_init(void)
{
	return run_inits(modules);
}

void uirq_compat_modules_exit(void)
{
	for (struct uirq_compat_module *m = modules; m; m = m->next) {
		struct uirq_compat_module *init = init_of(m);

		if (!m->exit || (init && init->state != MOD_LIVE))
			continue;
		m->exit();
		if (init)
			init->state = MOD_NEW;
	}
}

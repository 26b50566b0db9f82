/* SPDX-License-Identifier: MIT */
/*
 * module_init() and module_exit() (and the initcall levels, which run as
 * module_init here): each records its function, by file, in the order the
 * program's constructors run (compat/module.c).
 */
#ifndef UIRQ_COMPAT_LINUX_INIT_H
#define UIRQ_COMPAT_LINUX_INIT_H

#include <linux/compiler_types.h>

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

struct uirq_compat_module {
	const char *file;
	initcall_t init;
	exitcall_t exit;
	struct uirq_compat_module *next;
	int state;	/* compat/module.c's */
};

void uirq_compat_module_add(struct uirq_compat_module *m);

#define UIRQ_COMPAT_INITCALL(fn, field)						\
	static struct uirq_compat_module uirq_compat_module_##fn = { __FILE__, field };	\
	__attribute__((__constructor__)) static void uirq_compat_module_add_##fn(void)	\
	{									\
		uirq_compat_module_add(&uirq_compat_module_##fn);		\
	}
#define module_init(fn)		UIRQ_COMPAT_INITCALL(fn, .init = (fn))
#define module_exit(fn)		UIRQ_COMPAT_INITCALL(fn, .exit = (fn))
#define subsys_initcall(fn)	module_init(fn)
#define device_initcall(fn)	module_init(fn)
#define late_initcall(fn)	module_init(fn)
#define arch_initcall(fn)	module_init(fn)
#define postcore_initcall(fn)	module_init(fn)

#endif

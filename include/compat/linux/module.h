/* SPDX-License-Identifier: MIT */
/*
 * Modules: a program links its drivers in; module_init() and module_exit()
 * record the file's init and exit functions (compat/module.c), which the
 * board runs with uirq_compat_modules_init() and _exit(), as a kernel runs
 * built-in initcalls at boot.  The MODULE_* tags are kept as strings for
 * nobody: a compiled-in driver has no modinfo.
 */
#ifndef UIRQ_COMPAT_LINUX_MODULE_H
#define UIRQ_COMPAT_LINUX_MODULE_H

#include <linux/compiler_types.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>

struct module;

#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_ALIAS(s)
#define MODULE_VERSION(s)
#define MODULE_FIRMWARE(s)
#define MODULE_SOFTDEP(s)
#define MODULE_IMPORT_NS(s)
#define MODULE_DEVICE_TABLE(type, name)
#define module_param(name, type, perm)
#define module_param_named(name, value, type, perm)
#define MODULE_PARM_DESC(name, desc)

/*
 * Run every module_init() the program holds, oldest first (0, or the first
 * failure's error: the others still run), and the exits of those that
 * succeeded, newest first.
 */
int uirq_compat_modules_init(void);
void uirq_compat_modules_exit(void);

/* One driver's registration as a module's init and exit. */
#define module_driver(driver, register_fn, unregister_fn, ...)		\
	static int __init driver##_init(void)				\
	{								\
		return register_fn(&(driver), ##__VA_ARGS__);		\
	}								\
	module_init(driver##_init);					\
	static void __exit driver##_exit(void)				\
	{								\
		unregister_fn(&(driver), ##__VA_ARGS__);		\
	}								\
	module_exit(driver##_exit)

#endif

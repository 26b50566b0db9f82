/* SPDX-License-Identifier: MIT */
/*
 * IS_ENABLED(CONFIG_FOO) and its kin, as the kernel defines them: 1 when
 * the option is defined to 1 (built in) or, for IS_ENABLED and
 * IS_REACHABLE, to a module (CONFIG_FOO_MODULE); 0 when it is not defined.
 * The test works in #if and in C expressions alike: a defined option
 * expands to 1, which pastes into a macro that yields a spare argument.
 */
#ifndef UIRQ_COMPAT_LINUX_KCONFIG_H
#define UIRQ_COMPAT_LINUX_KCONFIG_H

#define UIRQ_KCONFIG_ARG_1		0,
#define UIRQ_KCONFIG_TAKE2(ignored, val, ...)	val
#define UIRQ_KCONFIG_TAKE(arg)		UIRQ_KCONFIG_TAKE2(arg 1, 0, 0)
#define UIRQ_KCONFIG_PASTE(val)		UIRQ_KCONFIG_TAKE(UIRQ_KCONFIG_ARG_##val)
#define UIRQ_KCONFIG_IS(val)		UIRQ_KCONFIG_PASTE(val)

#define IS_BUILTIN(option)		UIRQ_KCONFIG_IS(option)
#define IS_MODULE(option)		UIRQ_KCONFIG_IS(option##_MODULE)
#define IS_ENABLED(option)		(IS_BUILTIN(option) || IS_MODULE(option))
#define IS_REACHABLE(option)		IS_ENABLED(option)

#endif

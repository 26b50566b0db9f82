/* SPDX-License-Identifier: MIT */
/*
 * WARN_ON() and its kin: a condition that should never hold is logged with
 * the kernel's "cut here" banner and the place it was found (uirq_log_warn()),
 * and the program goes on, as the kernel does.  BUG() and BUG_ON() end the
 * program, as a BUG ends the task in the kernel (here there is nothing to
 * keep running around it).
 */
#ifndef UIRQ_COMPAT_LINUX_BUG_H
#define UIRQ_COMPAT_LINUX_BUG_H

#include <stdbool.h>
#include <stdlib.h>
#include <linux/compiler_types.h>

#include "uirq/printk.h"

__attribute__((__noreturn__)) void uirq_compat_bug(const char *file, int line, const char *func);

#define WARN(cond, fmt, ...)								\
	({										\
		bool warn_c_ = !!(cond);						\
		if (unlikely(warn_c_))							\
			uirq_log_warn(__FILE__, __LINE__, __func__, fmt, ##__VA_ARGS__); \
		warn_c_;								\
	})
#define WARN_ON(cond)		WARN((cond), "%s", "")
#define WARN_ONCE(cond, fmt, ...)							\
	({										\
		static bool warned_;							\
		bool once_c_ = !!(cond);						\
		if (unlikely(once_c_) && !__atomic_exchange_n(&warned_, true, __ATOMIC_RELAXED)) \
			uirq_log_warn(__FILE__, __LINE__, __func__, fmt, ##__VA_ARGS__); \
		once_c_;								\
	})
#define WARN_ON_ONCE(cond)	WARN_ONCE((cond), "%s", "")
#define BUG()			uirq_compat_bug(__FILE__, __LINE__, __func__)
#define BUG_ON(cond)		do { if (unlikely(cond)) BUG(); } while (0)
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#endif

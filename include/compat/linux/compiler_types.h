/* SPDX-License-Identifier: MIT */
/*
 * The annotations every kernel file may use without an include: address
 * spaces (sparse's, empty for the compiler), section markers (there are no
 * init sections to free here: __init code stays), and the compiler
 * attributes under their kernel names.
 */
#ifndef UIRQ_COMPAT_LINUX_COMPILER_TYPES_H
#define UIRQ_COMPAT_LINUX_COMPILER_TYPES_H

#ifndef __iomem
#define __iomem		volatile
#endif
#define __user
#define __kernel
#define __force
#define __rcu
#define __percpu
#define __bitwise
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)

#define __init
#define __exit
#define __initdata
#define __initconst
#define __exitdata
#define __devinit
#define __devexit
#define __ref
#define __refdata
#define __exit_p(x)	x

/* Some of these names are glibc's too (<sys/cdefs.h>), with the same meaning: the first one stands. */
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline		__attribute__((__noinline__))
#endif
#ifndef __packed
#define __packed		__attribute__((__packed__))
#endif
#ifndef __aligned
#define __aligned(x)		__attribute__((__aligned__(x)))
#endif
#ifndef __maybe_unused
#define __maybe_unused		__attribute__((__unused__))
#endif
#ifndef __always_unused
#define __always_unused		__attribute__((__unused__))
#endif
#ifndef __used
#define __used			__attribute__((__used__))
#endif
#ifndef __must_check
#define __must_check		__attribute__((__warn_unused_result__))
#endif
#ifndef __printf
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn		__attribute__((__noreturn__))
#endif
#ifndef __weak
#define __weak			__attribute__((__weak__))
#endif
#ifndef __cold
#define __cold			__attribute__((__cold__))
#endif
#ifndef __pure
#define __pure			__attribute__((__pure__))
#endif
#ifndef __section
#define __section(s)		__attribute__((__section__(s)))
#endif
#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#endif

// SPDX-License-Identifier: MIT
/*
 * Scheduling points at shared-memory accesses: the hooks a compiler's
 * thread-sanitizer instrumentation calls (gcc or clang -fsanitize=thread
 * at compile time only), defined here instead of by the ThreadSanitizer
 * runtime, so that each load, store and atomic of the instrumented code
 * is a scheduling point of the deterministic mode (LLVM's proposed TSan
 * simulation mode takes the same road).  A control transfer only at
 * uirq's synchronisation calls would never run another task between a
 * driver's check of a flag and its act on it; here it can.
 *
 * Outside the mode each hook costs two calls and a test; a plain access
 * hook does nothing else, an atomic one does the operation (the
 * instrumentation replaced it with the call), at sequential consistency
 * whatever order was asked: stronger than needed, never weaker.
 *
 * Linked into programs instead of the TSan runtime, never with it: a
 * sanitizer build compiles nothing with these hooks (meson.build).
 * The function names and signatures are the instrumentation's ABI.
 */
#include <stdbool.h>
#include <stdint.h>

#include "uirq/sim.h"

/* Who calls these: the compiler, not a header. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wmissing-declarations"

/* One call: the access point itself returns at once on a thread that is no task (a thread-local test). */
static inline void point(void)
{
	uirq_sim_access_point();
}

void __tsan_init(void)
{
}

void __tsan_func_entry(void *pc)
{
	(void)pc;
}

void __tsan_func_exit(void)
{
}

/* Plain, unaligned and volatile loads and stores of 1 to 16 bytes, and ranges (memcpy and the like). */
#define ACCESS(name)					\
	void __tsan_##name(void *addr)			\
	{						\
		(void)addr;				\
		point();				\
	}						\
	void __tsan_##name##_pc(void *addr, void *pc)	\
	{						\
		(void)addr;				\
		(void)pc;				\
		point();				\
	}
#define SIZES(kind)					\
	ACCESS(kind##1) ACCESS(kind##2) ACCESS(kind##4) ACCESS(kind##8) ACCESS(kind##16)
SIZES(read)
SIZES(write)
SIZES(unaligned_read)
SIZES(unaligned_write)
SIZES(volatile_read)
SIZES(volatile_write)

void __tsan_read_range(void *addr, unsigned long size)
{
	(void)addr;
	(void)size;
	point();
}

void __tsan_write_range(void *addr, unsigned long size)
{
	(void)addr;
	(void)size;
	point();
}

void __tsan_vptr_update(void **vptr, void *val)
{
	(void)vptr;
	(void)val;
	point();
}

void __tsan_vptr_read(void **vptr)
{
	(void)vptr;
	point();
}

/* Atomics: the point, then the operation itself. */
#define ATOMICS(bits, T)												\
	T __tsan_atomic##bits##_load(const volatile T *a, int mo)							\
	{														\
		(void)mo;												\
		point();												\
		return __atomic_load_n(a, __ATOMIC_SEQ_CST);								\
	}														\
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)							\
	{														\
		(void)mo;												\
		point();												\
		__atomic_store_n(a, v, __ATOMIC_SEQ_CST);								\
	}														\
	RMW(bits, T, exchange, __atomic_exchange_n)									\
	RMW(bits, T, fetch_add, __atomic_fetch_add)									\
	RMW(bits, T, fetch_sub, __atomic_fetch_sub)									\
	RMW(bits, T, fetch_and, __atomic_fetch_and)									\
	RMW(bits, T, fetch_or, __atomic_fetch_or)									\
	RMW(bits, T, fetch_xor, __atomic_fetch_xor)									\
	RMW(bits, T, fetch_nand, __atomic_fetch_nand)									\
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo)			\
	{														\
		(void)mo;												\
		(void)fmo;												\
		point();												\
		return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);		\
	}														\
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo)			\
	{														\
		return __tsan_atomic##bits##_compare_exchange_strong(a, c, v, mo, fmo);				\
	}														\
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)			\
	{														\
		__tsan_atomic##bits##_compare_exchange_strong(a, &c, v, mo, fmo);					\
		return c;												\
	}
#define RMW(bits, T, op, builtin)								\
	T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo)				\
	{											\
		(void)mo;									\
		point();									\
		return builtin(a, v, __ATOMIC_SEQ_CST);						\
	}
ATOMICS(8, int8_t)
ATOMICS(16, int16_t)
ATOMICS(32, int32_t)
ATOMICS(64, int64_t)

void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	point();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

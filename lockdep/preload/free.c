// SPDX-License-Identifier: MIT
/*
 * free() and realloc(): the kernel's debug_check_no_locks_freed() for user
 * space.  Memory that held a lock loses it when freed, whether or not the
 * program called pthread_*_destroy (glibc does not require it, and C++'s
 * std::mutex never does): its record is recycled, its class and
 * dependencies die, and freeing a lock still held is reported.
 *
 * Most blocks hold no lock, and the line bitmap says so with a load or two
 * (table.c); only then is the block's size asked for.
 *
 * Built without sanitizers (meson.build): a sanitizer runtime calls free()
 * from its own start-up, through dlsym, before its shadow memory exists, so
 * nothing here may be instrumented; and before our constructor has found
 * the real functions, free() must forward without them.
 */
#include "preload.h"

#include <dlfcn.h>
#include <malloc.h>

/* A sanitizer's own free, which copes with being called before it started. */
extern void __interceptor_free(void *p) __attribute__((weak));
extern void *__interceptor_realloc(void *p, size_t size) __attribute__((weak));
/* glibc's own, exported for whoever interposes it. */
extern void __libc_free(void *p);
extern void *__libc_realloc(void *p, size_t size);

static PRELOAD_TLS bool looking_up;

/* The next free() in the search order, found without our stubs (not resolved yet). */
static void early_free(void *p)
{
	void (*next)(void *);

	if (__interceptor_free) {
		__interceptor_free(p);
		return;
	}
	if (looking_up) {
		__libc_free(p);		/* dlsym frees its own scratch: glibc's */
		return;
	}
	looking_up = true;
	next = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	looking_up = false;
	(next ? next : __libc_free)(p);
}

static void *early_realloc(void *p, size_t size)
{
	void *(*next)(void *, size_t);

	if (__interceptor_realloc)
		return __interceptor_realloc(p, size);
	if (looking_up)
		return __libc_realloc(p, size);
	looking_up = true;
	next = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	looking_up = false;
	return (next ? next : __libc_realloc)(p, size);
}

static inline bool resolved(void)
{
	return atomic_load_explicit(&preload_resolved, memory_order_acquire);
}

static inline bool worth_a_look(void *p)
{
	return p && preload_active() && preload_free_checks && rec_region_maybe((uintptr_t)p);
}

PRELOAD_EXPORT void free(void *p)
{
	if (unlikely(!resolved())) {
		early_free(p);
		return;
	}
	if (unlikely(worth_a_look(p))) {
		size_t len = REAL(malloc_usable_size)(p);

		if (rec_range_maybe((uintptr_t)p, len))
			rec_memory_freed((uintptr_t)p, len, CALLER_IP);
	}
	REAL(free)(p);
}

/*
 * A block that moves or shrinks loses the locks in the part it leaves
 * behind; realloc() moves a lock only by copying its bytes, which no lock
 * survives.  Checked before the call: afterwards the memory may belong to
 * another thread's new lock already.
 */
PRELOAD_EXPORT void *realloc(void *p, size_t size)
{
	if (unlikely(!resolved()))
		return early_realloc(p, size);
	if (unlikely(worth_a_look(p))) {
		size_t len = REAL(malloc_usable_size)(p);

		/* shrinking: the tail goes; growing: it may move, then all of it goes */
		if (size < len && rec_range_maybe((uintptr_t)p + size, len - size))
			rec_memory_freed((uintptr_t)p + size, len - size, CALLER_IP);
		else if (size > len && rec_range_maybe((uintptr_t)p, len))
			rec_memory_freed((uintptr_t)p, len, CALLER_IP);
	}
	return REAL(realloc)(p, size);
}

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
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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
			rec_memory_freed((uintptr_t)p, len, CALLER_IP, MEM_FREE);
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
			rec_memory_freed((uintptr_t)p + size, len - size, CALLER_IP, 0);
		else if (size > len && rec_range_maybe((uintptr_t)p, len))
			rec_memory_freed((uintptr_t)p, len, CALLER_IP, 0);
	}
	return REAL(realloc)(p, size);
}

/*
 * munmap() and mremap() end the locks in the memory they take away, as
 * free() does: a process-shared lock in a mapping unmapped, and another
 * mapped at the same address later, is another lock.  Before our
 * constructor, the system calls themselves (nothing is tracked yet).
 */
static uintptr_t page_end(uintptr_t a)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	return (a + page - 1) & ~(page - 1);
}

PRELOAD_EXPORT int munmap(void *p, size_t len)
{
	if (unlikely(!resolved()))
		return (int)syscall(SYS_munmap, p, len);
	/* before the call: the locks' memory is still there to look at */
	if (p && len && preload_active() && rec_region_maybe((uintptr_t)p) &&
	    rec_range_maybe((uintptr_t)p, page_end((uintptr_t)p + len) - (uintptr_t)p))
		rec_memory_freed((uintptr_t)p, page_end((uintptr_t)p + len) - (uintptr_t)p, CALLER_IP, 0);
	return REAL(munmap)(p, len);
}

/* A shrinking mapping loses its tail (before the call); a moved one all of itself (after it). */
PRELOAD_EXPORT void *mremap(void *p, size_t old_len, size_t new_len, int flags, ...)
{
	uintptr_t a = (uintptr_t)p, old_end = page_end(a + old_len), new_end = page_end(a + new_len);
	bool look = resolved() && preload_active() && rec_region_maybe(a);
	void *to = NULL, *ret;
	va_list ap;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		to = va_arg(ap, void *);
		va_end(ap);
	}
	if (unlikely(!resolved()))
		return (void *)syscall(SYS_mremap, p, old_len, new_len, flags, to);
	if (look && new_end < old_end && rec_range_maybe(new_end, old_end - new_end))
		rec_memory_freed(new_end, old_end - new_end, CALLER_IP, 0);
	ret = REAL(mremap)(p, old_len, new_len, flags, to);
	if (look && ret != MAP_FAILED && ret != p && rec_range_maybe(a, (new_end < old_end ? new_end : old_end) - a))
		rec_memory_freed(a, (new_end < old_end ? new_end : old_end) - a, CALLER_IP, MEM_GONE);
	return ret;
}

/*
 * A word of memory the program freed (a lock's marker), read here where no
 * sanitizer instruments: the look is ours, to tell a later use of a freed
 * lock; a use by the program it is not (ASan and TSan called it one).
 */
uint64_t preload_peek_freed(const _Atomic uint64_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

/*
 * Another thread's held-lock depth, read at fork() to name the threads that
 * hold locks (options.c): it writes it without a lock, and a snapshot is
 * all that is wanted - read here, where TSan does not call it a race.
 */
unsigned int preload_peek_depth(const unsigned int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

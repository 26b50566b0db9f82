// SPDX-License-Identifier: MIT
/*
 * lockdep's memory: page-granular allocations straight from mmap, slabs of
 * fixed-size objects on top, and what happens when there is no more.
 *
 * Not malloc: the preload library interposes free() and calls lockdep from
 * it, and reports can be made while the program is inside its allocator.
 */
#include "lockdep_internal.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLAB_CHUNK	(256u << 10)

static size_t round_to_pages(size_t size)
{
	size_t page = 4096;

	return (size + page - 1) & ~(page - 1);
}

void *lockdep_alloc(size_t size)
{
	void *p = mmap(NULL, round_to_pages(size), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void *lockdep_grow_array(void *v, size_t *size, size_t used, size_t elem, size_t first)
{
	size_t n = *size ? *size * 2 : first;
	void *grown = lockdep_alloc(n * elem);

	if (!grown)
		return NULL;
	if (used)
		memcpy(grown, v, used * elem);
	lockdep_free(v, *size * elem);
	*size = n;
	return grown;
}

void lockdep_free(void *p, size_t size)
{
	if (p)
		munmap(p, round_to_pages(size));
}

void lockdep_retire(void *p, size_t size)
{
	size_t page = 4096;
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1), to = ((uintptr_t)p + size) & ~(page - 1);

	/* only whole pages; what stays is at most two pages of the table */
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

void *slab_alloc(struct lockdep_slab *s)
{
	void *obj = s->free_list;

	if (obj) {
		s->free_list = *(void **)((char *)obj + s->link);
		if (!s->no_clear)
			memset(obj, 0, s->size);
		return obj;
	}
	if ((size_t)(s->end - s->next) < s->size) {
		char *chunk = lockdep_alloc(SLAB_CHUNK);

		if (!chunk)
			return NULL;
		/* the rest of the old chunk is lost: less than one object */
		s->next = chunk;
		s->end = chunk + SLAB_CHUNK;
	}
	obj = s->next;
	/* keep objects 8-aligned whatever their size */
	s->next += (s->size + 7) & ~(size_t)7;
	return obj;
}

void slab_free(struct lockdep_slab *s, void *obj)
{
	*(void **)((char *)obj + s->link) = s->free_list;
	s->free_list = obj;
}

/* ---- out of memory ---- */

static const char *_Atomic stopped_by;

const char *lockdep_stopped_reason(void)
{
	return atomic_load_explicit(&stopped_by, memory_order_relaxed);
}

void lockdep_out_of_memory(const char *what)
{
	if (!debug_locks_off())
		return;
	atomic_store_explicit(&stopped_by, what, memory_order_relaxed);
	if (report_begin(UIRQ_REPORT_RESOURCES, report_sig_str(what))) {
		report_headline(false, "BUG: lockdep ran out of memory for %s!", what);
		rpt("turning off the locking correctness validator.\n");
		rpt("Locks taken from now on are not validated.\n");
		rpt_stack_backtrace("stack backtrace:");
		report_end();
	}
}

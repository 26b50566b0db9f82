// SPDX-License-Identifier: MIT
/*
 * The line bitmap: one bit per 64-byte line of the address space that holds
 * the start of a lock we have a record for, so that free() can tell in a
 * load or two that a block holds none.  Two levels: a bitmap per GiB region
 * that has locks at all (2 MiB of address space per page of bitmap: only
 * the pages written cost memory).
 *
 * Built without sanitizers with free.c: free() asks it from inside a
 * sanitizer runtime, before that thread or the runtime itself is set up.
 */
#include "preload.h"

#define REGION_SHIFT	30			/* 1 GiB a region */
#define REGIONS		(1u << (47 - REGION_SHIFT))	/* the user half of x86-64 and arm64 */
#define LINE_SHIFT	6
#define REGION_WORDS	((1ul << (REGION_SHIFT - LINE_SHIFT)) / 64)

/* Each region's bitmap, or NULL: 2 MiB for its GiB, of which only the pages written cost memory. */
static _Atomic(uint64_t *) lines[REGIONS];

static uint64_t *region_bits(uintptr_t a, bool create)
{
	uintptr_t region = a >> REGION_SHIFT;
	uint64_t *bits;

	if (region >= REGIONS)
		return NULL;
	bits = atomic_load_explicit(&lines[region], memory_order_acquire);
	if (!bits && create) {
		bits = lockdep_alloc(REGION_WORDS * sizeof(uint64_t));
		if (bits)
			atomic_store_explicit(&lines[region], bits, memory_order_release);
	}
	return bits;
}

static uint64_t line_in_region(uintptr_t a)
{
	return (a & ((1ul << REGION_SHIFT) - 1)) >> LINE_SHIFT;
}

bool rec_region_maybe(uintptr_t p)
{
	return (p >> REGION_SHIFT) < REGIONS &&
	       atomic_load_explicit(&lines[p >> REGION_SHIFT], memory_order_relaxed) != NULL;
}

/* Call fn on every marked line that [from, to) touches; stops when fn returns true. */
bool rec_for_marked_lines(uintptr_t from, uintptr_t to, bool (*fn)(uintptr_t line, void *arg), void *arg)
{
	for (uintptr_t a = from & ~((uintptr_t)63); a < to;) {
		uintptr_t region_end = (a | ((1ul << REGION_SHIFT) - 1)) + 1;
		uintptr_t end = to < region_end ? to : region_end;
		const uint64_t *bits = region_bits(a, false);

		if (!bits) {
			a = region_end;
			continue;
		}
		for (uint64_t l = line_in_region(a), last = line_in_region(end - 1); l <= last;) {
			uint64_t w = atomic_load_explicit((_Atomic uint64_t *)&bits[l / 64], memory_order_relaxed);

			w &= ~0ull << (l % 64);
			if (l / 64 == last / 64)
				w &= ~0ull >> (63 - last % 64);
			while (w) {
				uint64_t bit = (uint64_t)__builtin_ctzll(w);

				if (fn((a & ~((1ul << REGION_SHIFT) - 1)) + ((l / 64 * 64 + bit) << LINE_SHIFT), arg))
					return true;
				w &= w - 1;
			}
			l = l / 64 * 64 + 64;
		}
		a = region_end;
	}
	return false;
}

static bool any_line(uintptr_t line, void *arg)
{
	(void)line;
	(void)arg;
	return true;
}

bool rec_range_maybe(uintptr_t p, size_t len)
{
	return len && rec_for_marked_lines(p, p + len, any_line, NULL);
}

void rec_mark_line(uintptr_t a)
{
	uint64_t *bits = region_bits(a, true);
	uint64_t l = line_in_region(a);

	if (bits)
		atomic_fetch_or_explicit((_Atomic uint64_t *)&bits[l / 64], 1ull << (l % 64),
					 memory_order_relaxed);
}

void rec_clear_line(uintptr_t a)
{
	uint64_t *bits = region_bits(a, false);
	uint64_t l = line_in_region(a);

	if (bits)
		atomic_fetch_and_explicit((_Atomic uint64_t *)&bits[l / 64], ~(1ull << (l % 64)),
					  memory_order_relaxed);
}


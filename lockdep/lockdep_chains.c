// SPDX-License-Identifier: MIT
/*
 * The lock-chain cache: the set of chain keys already validated.  An open
 * addressing table read without any lock; entries are only added under the
 * graph lock.  It starts small and doubles at half load, up to
 * CHAIN_CACHE_MAX slots; at that size a full table is cleared instead (a
 * miss only costs a new validation, so a cache may forget).  A replaced table
 * is retired, not unmapped: a reader may still be probing it.
 */
#include "lockdep_internal.h"

#define CHAIN_CACHE_MIN		(1u << 12)
#define CHAIN_CACHE_MAX		(1u << 18)	/* 2 MiB of keys */

/* An always-empty table of one slot until the first chain is added. */
static union {
	struct chain_cache c;
	char room[sizeof(struct chain_cache) + sizeof(uint64_t)];
} chain_empty;

struct chain_cache *_Atomic chain_cache = &chain_empty.c;
static unsigned long nr_chains;
static _Atomic unsigned long nr_chains_seen;

unsigned long nr_lock_chains(void)
{
	return atomic_load_explicit(&nr_chains_seen, memory_order_relaxed);
}

static void insert(struct chain_cache *c, uint64_t key)
{
	uint64_t i = key & c->mask;

	while (atomic_load_explicit(&c->slots[i], memory_order_relaxed))
		i = (i + 1) & c->mask;
	/* release: the graph work this chain stands for is visible before the entry */
	atomic_store_explicit(&c->slots[i], key, memory_order_release);
}

static struct chain_cache *chain_cache_new(uint64_t slots)
{
	struct chain_cache *c = lockdep_alloc(sizeof(*c) + slots * sizeof(uint64_t));

	if (c)
		c->mask = slots - 1;
	return c;
}

/* Make room for one more chain; false when out of memory. */
static bool make_room(void)
{
	struct chain_cache *old = atomic_load_explicit(&chain_cache, memory_order_relaxed), *c;
	uint64_t size = old->mask + 1;

	if (nr_chains + 1 <= size / 2)
		return true;
	if (size >= CHAIN_CACHE_MAX) {
		for (uint64_t i = 0; i < size; i++)
			atomic_store_explicit(&old->slots[i], 0, memory_order_relaxed);
		nr_chains = 0;
		return true;
	}
	c = chain_cache_new(size < CHAIN_CACHE_MIN ? CHAIN_CACHE_MIN : size * 2);
	if (!c)
		return false;
	for (uint64_t i = 0; i < size; i++) {
		uint64_t v = atomic_load_explicit(&old->slots[i], memory_order_relaxed);

		if (v)
			insert(c, v);
	}
	atomic_store_explicit(&chain_cache, c, memory_order_release);
	if (old != &chain_empty.c)
		lockdep_retire(old, sizeof(*old) + size * sizeof(uint64_t));
	return true;
}

void add_chain_cache(uint64_t key)
{
	if (!key || lookup_chain_cache(key))
		return;		/* 0 marks a free slot (see lookup_chain_cache) */
	if (!make_room()) {
		lockdep_out_of_memory("the lock-chain cache");
		return;
	}
	insert(atomic_load_explicit(&chain_cache, memory_order_relaxed), key);
	nr_chains++;
	atomic_fetch_add_explicit(&nr_chains_seen, 1, memory_order_relaxed);
}

// SPDX-License-Identifier: MIT
/*
 * The lock-chain cache: the set of chain keys already validated.  An open
 * addressing table read without any lock; entries are only added under the
 * graph lock.  When it fills up it is simply cleared: a miss only costs a
 * new validation.
 */
#include "lockdep_internal.h"

_Atomic uint64_t chain_table[CHAIN_HASH_SIZE];
static _Atomic unsigned long nr_chains;

unsigned long nr_lock_chains(void)
{
	return atomic_load_explicit(&nr_chains, memory_order_relaxed);
}

void add_chain_cache(uint64_t key)
{
	unsigned int i;

	if (!key)
		return;		/* 0 marks a free slot (see lookup_chain_cache) */
	if (atomic_load_explicit(&nr_chains, memory_order_relaxed) >= MAX_LOCKDEP_CHAINS) {
		for (i = 0; i < CHAIN_HASH_SIZE; i++)
			atomic_store_explicit(&chain_table[i], 0, memory_order_relaxed);
		atomic_store_explicit(&nr_chains, 0, memory_order_relaxed);
	}
	for (i = chain_slot(key); ; i = (i + 1) & (CHAIN_HASH_SIZE - 1)) {
		uint64_t v = atomic_load_explicit(&chain_table[i], memory_order_relaxed);

		if (v == key)
			return;
		if (!v)
			break;
	}
	/* release: the graph work this chain stands for is visible before the entry */
	atomic_store_explicit(&chain_table[i], key, memory_order_release);
	atomic_fetch_add_explicit(&nr_chains, 1, memory_order_relaxed);
}

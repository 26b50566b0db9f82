// SPDX-License-Identifier: MIT
/*
 * Lock classes: one per (key, subclass).  A hash of chained slot indices
 * that the fast path reads without the graph lock; slots of zapped classes
 * go back to a free list and come back with a fresh id, so chain-cache
 * entries of the dead class can never match again.
 */
#include "lockdep_internal.h"

#include <stdio.h>
#include <string.h>

struct lock_class lock_classes[MAX_LOCKDEP_KEYS];

static _Atomic uint32_t class_hash[CLASS_HASH_SIZE];	/* slot index + 1 */
static uint32_t free_classes;				/* slot index + 1 */
static uint32_t nr_used_slots;				/* slots ever handed out */
static _Atomic unsigned long nr_classes;
static uint64_t next_class_id = 1;

unsigned long nr_lock_classes(void)
{
	return atomic_load_explicit(&nr_classes, memory_order_relaxed);
}

static uint32_t class_hash_of(uintptr_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 40) & (CLASS_HASH_SIZE - 1);
}

/* Bounded: a slot recycled into another bucket under our feet must not trap a reader. */
static struct lock_class *walk_bucket(uintptr_t key, unsigned int limit)
{
	uint32_t i = atomic_load_explicit(&class_hash[class_hash_of(key)], memory_order_acquire);

	for (unsigned int n = 0; i != LIST_END && n < limit; n++) {
		struct lock_class *c = &lock_classes[i - 1];

		if (atomic_load_explicit(&c->key, memory_order_acquire) == key)
			return c;
		i = atomic_load_explicit(&c->hash_next, memory_order_acquire);
	}
	return NULL;
}

struct lock_class *look_up_lock_class(uintptr_t key)
{
	return walk_bucket(key, 64);
}

static struct lock_class *alloc_class(void)
{
	struct lock_class *c;

	if (free_classes != LIST_END) {
		c = &lock_classes[free_classes - 1];
		free_classes = c->free_next;
		return c;
	}
	if (nr_used_slots >= MAX_LOCKDEP_KEYS)
		return NULL;
	return &lock_classes[nr_used_slots++];
}

static void out_of_classes(void)
{
	if (!debug_locks_off())
		return;
	if (report_begin(UIRQ_REPORT_RESOURCES, 1)) {
		report_headline(false, "BUG: MAX_LOCKDEP_KEYS too low!");
		rpt("turning off the locking correctness validator.\n");
		rpt("%u lock classes in use; unregister the keys of dead locks.\n", MAX_LOCKDEP_KEYS);
		report_end();
	}
}

struct lock_class *register_lock_class(const struct uirq_lockdep_map *map, unsigned int subclass)
{
	uintptr_t key = map_class_key(map, subclass);
	struct lock_class *c;
	uint32_t bucket;

	lockdep_init_once();
	graph_lock();
	c = walk_bucket(key, ~0u);
	if (c || !debug_locks_on())
		goto out;
	c = alloc_class();
	if (!c) {
		out_of_classes();
		goto out;
	}
	snprintf(c->name, sizeof(c->name), "%s", map->name ? map->name : "<unnamed>");
	c->subclass = subclass;
	c->after_head = c->before_head = LIST_END;
	memset(c->usage_site, 0, sizeof(c->usage_site));
	atomic_store_explicit(&c->usage_mask, 0, memory_order_relaxed);
	atomic_store_explicit(&c->chain_id, class_chain_id(next_class_id), memory_order_relaxed);
	atomic_store_explicit(&c->id, next_class_id++, memory_order_relaxed);
	bucket = class_hash_of(key);
	atomic_store_explicit(&c->hash_next, atomic_load(&class_hash[bucket]), memory_order_relaxed);
	atomic_store_explicit(&c->key, key, memory_order_release);
	atomic_store_explicit(&class_hash[bucket], class_idx(c) + 1, memory_order_release);
	atomic_fetch_add_explicit(&nr_classes, 1, memory_order_relaxed);
out:
	graph_unlock();
	return c;
}

static void unhash_class(struct lock_class *c, uintptr_t key)
{
	_Atomic uint32_t *link = &class_hash[class_hash_of(key)];
	uint32_t me = class_idx(c) + 1;

	for (uint32_t i = atomic_load(link); i != LIST_END; i = atomic_load(link)) {
		if (i == me) {
			/* c->hash_next stays: a reader standing on c can still walk on */
			atomic_store_explicit(link, atomic_load(&c->hash_next), memory_order_release);
			return;
		}
		link = &lock_classes[i - 1].hash_next;
	}
}

/* Graph lock held. */
static void zap_class(struct lock_class *c)
{
	uintptr_t key = atomic_load(&c->key);

	zap_class_deps(c);
	unhash_class(c, key);
	atomic_store_explicit(&c->key, 0, memory_order_release);
	atomic_store_explicit(&c->usage_mask, 0, memory_order_relaxed);
	c->free_next = free_classes;
	free_classes = class_idx(c) + 1;
	atomic_fetch_sub_explicit(&nr_classes, 1, memory_order_relaxed);
}

static void zap_key(const struct uirq_lock_class_key *key, bool only_if_seen)
{
	struct lockdep_task *t = &lockdep_current;
	bool seen = false;

	if (!key)
		return;
	if (only_if_seen) {
		for (unsigned int sub = 0; sub < UIRQ_MAX_LOCKDEP_SUBCLASSES && !seen; sub++)
			seen = look_up_lock_class(class_key_of(key, sub)) != NULL;
		if (!seen)
			return;
	}
	/* From a signal handler that interrupted lockdep: the graph lock may be ours. */
	if (!lockdep_recursion_enter(t))
		return;
	lockdep_init_once();
	graph_lock();
	for (unsigned int sub = 0; sub < UIRQ_MAX_LOCKDEP_SUBCLASSES; sub++) {
		struct lock_class *c = walk_bucket(class_key_of(key, sub), ~0u);

		if (c)
			zap_class(c);
	}
	graph_unlock();
	lockdep_recursion_exit(t);
}

void uirq_lockdep_register_key(struct uirq_lock_class_key *key)
{
	/* Memory reused for a new key must start clean even if nobody unregistered the old one. */
	zap_key(key, true);
}

void uirq_lockdep_unregister_key(struct uirq_lock_class_key *key)
{
	zap_key(key, false);
}

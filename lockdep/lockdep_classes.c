// SPDX-License-Identifier: MIT
/*
 * Lock classes: one per (key, subclass), as many as the program makes.
 *
 * A chained hash that the fast path reads without the graph lock.  It
 * doubles when it holds twice as many classes as buckets; readers still in
 * the old bucket array (retired, not unmapped) or walking a chain being
 * relinked may miss a class, and a miss only sends them to
 * register_lock_class(), which looks again under the graph lock.  Walks
 * are bounded for the same reason.
 * Classes come from a slab, so a class pointer never dangles; a zapped class
 * goes back to it and comes back with a fresh id, so chain-cache entries of
 * the dead class can never match again.
 *
 * The hash, the slab and the ids are the class lock's, not the graph
 * lock's: a program that makes and destroys locks all the time (a class
 * each) would otherwise queue on the graph lock twice more per lock.  A
 * zapped class leaves the hash at once, under the class lock; its
 * dependencies are unlinked, and it is freed, by the next holder of the
 * graph lock before that one does anything else (drain_zombie_classes()).
 */
#include "lockdep_internal.h"

struct class_hash {
	uint64_t mask;
	struct lock_class *_Atomic buckets[];
};

#define CLASS_HASH_MIN	1024u

/* An always-empty table of one bucket until the first class. */
static union {
	struct class_hash h;
	char room[sizeof(struct class_hash) + sizeof(void *)];
} class_hash_empty;

static struct class_hash *_Atomic class_hash = &class_hash_empty.h;
static struct raw_futex class_lock;
/*
 * Zapped, out of the hash, still in the graph: freed by the next holder of
 * the graph lock (class lock).  An array, not a link in the class: a class
 * is per lock in the preload library, and every field of a zombie is still
 * read by someone.  The graph lock's holder drains it by swapping it with
 * the array it drained last time.
 */
static struct zombie_list {
	struct lock_class **v;
	size_t n, size;
} zombies, draining;
static _Atomic size_t nr_zombies;	/* zombies.n, for a look without the class lock */
/*
 * A recycled class is set up field by field: a lock-free reader may be
 * walking through it.  Its free-list link is after_head, which only the
 * graph's walkers read, and a freed class is out of the graph.
 */
static struct lockdep_slab class_slab = {
	.size = sizeof(struct lock_class), .link = offsetof(struct lock_class, after_head), .no_clear = true,
};
static _Atomic unsigned long nr_classes, nr_classes_made;
static uint64_t next_class_id = 1;

unsigned long nr_lock_classes(void)
{
	return atomic_load_explicit(&nr_classes, memory_order_relaxed);
}

unsigned long nr_lock_classes_made(void)
{
	return atomic_load_explicit(&nr_classes_made, memory_order_relaxed);
}

static uint64_t class_hash_of(uintptr_t key, uint64_t mask)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;

	return (h >> 32) & mask;
}

/* Bounded: a class recycled or relinked under our feet must not trap a reader. */
static struct lock_class *walk_bucket(const struct class_hash *h, uintptr_t key, unsigned int limit)
{
	struct lock_class *c = atomic_load_explicit(&h->buckets[class_hash_of(key, h->mask)],
						    memory_order_acquire);

	for (unsigned int n = 0; c && n < limit; n++) {
		if (atomic_load_explicit(&c->key, memory_order_acquire) == key)
			return c;
		c = atomic_load_explicit(&c->hash_next, memory_order_acquire);
	}
	return NULL;
}

struct lock_class *look_up_lock_class(uintptr_t key)
{
	return walk_bucket(atomic_load_explicit(&class_hash, memory_order_acquire), key, 64);
}

/* Under the class lock: the table is stable and every chain complete. */
static struct lock_class *find_class(uintptr_t key)
{
	return walk_bucket(atomic_load_explicit(&class_hash, memory_order_relaxed), key, ~0u);
}

static void hash_class(struct class_hash *h, struct lock_class *c)
{
	uint64_t b = class_hash_of(atomic_load_explicit(&c->key, memory_order_relaxed), h->mask);

	atomic_store_explicit(&c->hash_next, atomic_load_explicit(&h->buckets[b], memory_order_relaxed),
			      memory_order_relaxed);
	atomic_store_explicit(&h->buckets[b], c, memory_order_release);
}

/*
 * Double the buckets once there are two classes a bucket (a chain of two is
 * one more load on a registration; a bucket is a word per lock in the
 * preload library); false when out of memory.
 */
static bool make_room(void)
{
	struct class_hash *old = atomic_load_explicit(&class_hash, memory_order_relaxed), *h;
	uint64_t size = old->mask + 1, nsize = size < CLASS_HASH_MIN ? CLASS_HASH_MIN : size * 2;

	if (nr_lock_classes() + 1 <= 2 * size && size >= CLASS_HASH_MIN)
		return true;
	h = lockdep_alloc(sizeof(*h) + nsize * sizeof(h->buckets[0]));
	if (!h)
		return false;
	h->mask = nsize - 1;
	for (uint64_t i = 0; i < size; i++) {
		struct lock_class *c = atomic_load_explicit(&old->buckets[i], memory_order_relaxed);

		while (c) {
			struct lock_class *next = atomic_load_explicit(&c->hash_next, memory_order_relaxed);

			hash_class(h, c);
			c = next;
		}
	}
	atomic_store_explicit(&class_hash, h, memory_order_release);
	if (old != &class_hash_empty.h)
		lockdep_retire(old, sizeof(*old) + size * sizeof(old->buckets[0]));
	return true;
}

struct lock_class *register_lock_class(const struct uirq_lockdep_map *map, unsigned int subclass)
{
	uintptr_t key = map_class_key(map, subclass);
	struct lock_class *c;

	lockdep_init_once();
	raw_futex_lock(&class_lock);
	c = find_class(key);
	if (c || !debug_locks_on())
		goto out;
	if (!make_room() || !(c = slab_alloc(&class_slab))) {
		raw_futex_unlock(&class_lock);
		graph_lock();
		lockdep_out_of_memory("lock classes");
		graph_unlock();
		return NULL;
	}
	c->name = map->name ? map->name : "<unnamed>";
	c->subclass = subclass;
	c->after_head = c->before_head = NULL;
#ifndef UIRQ_LOCKDEP_PRELOAD
	c->usage_site = NULL;
#endif
	atomic_store_explicit(&c->usage_mask, 0, memory_order_relaxed);
	c->order = lockdep_order_first(next_class_id);
	atomic_store_explicit(&c->id, next_class_id++, memory_order_relaxed);
	/* key last: a lock-free reader that finds the key sees the rest */
	atomic_store_explicit(&c->key, key, memory_order_release);
	hash_class(atomic_load_explicit(&class_hash, memory_order_relaxed), c);
	atomic_fetch_add_explicit(&nr_classes, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&nr_classes_made, 1, memory_order_relaxed);
out:
	raw_futex_unlock(&class_lock);
	return c;
}

static void unhash_class(struct lock_class *c, uintptr_t key)
{
	struct class_hash *h = atomic_load_explicit(&class_hash, memory_order_relaxed);
	struct lock_class *_Atomic *link = &h->buckets[class_hash_of(key, h->mask)];

	for (struct lock_class *i = atomic_load(link); i; i = atomic_load(link)) {
		if (i == c) {
			/* c->hash_next stays: a reader standing on c can still walk on */
			atomic_store_explicit(link, atomic_load(&c->hash_next), memory_order_release);
			return;
		}
		link = &i->hash_next;
	}
}

/*
 * Class lock held: out of the hash, findable no more; its graph goes at the
 * next graph lock.  False: out of memory, and nothing done.
 */
static bool zap_class(struct lock_class *c)
{
	if (zombies.n == zombies.size) {
		struct lock_class **v = lockdep_grow_array(zombies.v, &zombies.size, zombies.n, sizeof(*v), 256);

		if (!v)
			return false;
		zombies.v = v;
	}
	unhash_class(c, atomic_load(&c->key));
	atomic_store_explicit(&c->key, 0, memory_order_release);
	atomic_store_explicit(&c->usage_mask, 0, memory_order_relaxed);
	/* keep id, hash_next and key readable: lock-free readers may stand on it */
	zombies.v[zombies.n++] = c;
	atomic_store_explicit(&nr_zombies, zombies.n, memory_order_release);
	return true;
}

/* fork(): the class lock is held across it (after the graph lock), and the child's is free. */
void classes_fork_prepare(void)
{
	raw_futex_lock(&class_lock);
}

void classes_fork_parent(void)
{
	raw_futex_unlock(&class_lock);
}

void classes_fork_child(void)
{
	atomic_store_explicit(&class_lock.word, 0, memory_order_release);
}

bool for_each_lock_class(bool (*fn)(struct lock_class *c, void *data), void *data)
{
	struct class_hash *h;
	bool ok = true;

	raw_futex_lock(&class_lock);
	h = atomic_load_explicit(&class_hash, memory_order_relaxed);
	for (uint64_t b = 0; ok && h != &class_hash_empty.h && b <= h->mask; b++)
		for (struct lock_class *c = atomic_load_explicit(&h->buckets[b], memory_order_relaxed);
		     ok && c; c = atomic_load_explicit(&c->hash_next, memory_order_relaxed))
			ok = fn(c, data);
	/* zapped since the graph lock was taken: still in the graph */
	for (size_t i = 0; ok && i < zombies.n; i++)
		ok = fn(zombies.v[i], data);
	raw_futex_unlock(&class_lock);
	return ok;
}

void drain_zombie_classes(void)
{
	struct zombie_list z;

	if (!atomic_load_explicit(&nr_zombies, memory_order_acquire))
		return;
	raw_futex_lock(&class_lock);
	z = zombies;
	zombies = draining;
	zombies.n = 0;
	atomic_store_explicit(&nr_zombies, 0, memory_order_relaxed);
	raw_futex_unlock(&class_lock);
	for (size_t i = 0; i < z.n; i++) {
		zap_class_deps(z.v[i]);
		free_usage_sites(z.v[i]);
	}
	raw_futex_lock(&class_lock);
	for (size_t i = 0; i < z.n; i++)
		slab_free(&class_slab, z.v[i]);
	atomic_fetch_sub_explicit(&nr_classes, z.n, memory_order_relaxed);
	raw_futex_unlock(&class_lock);
	draining = z;	/* the graph lock's: the next drain swaps it in */
}

static void zap_key(const struct uirq_lock_class_key *key, bool only_if_seen, unsigned int subclasses)
{
	struct lockdep_task *t = &lockdep_current;
	bool seen = false, oom = false;

	if (!key)
		return;
	if (only_if_seen) {
		for (unsigned int sub = 0; sub < UIRQ_MAX_LOCKDEP_SUBCLASSES && !seen; sub++)
			seen = look_up_lock_class(class_key_of(key, sub)) != NULL;
		if (!seen)
			return;
	}
	/* From a signal handler that interrupted lockdep: the class lock may be ours. */
	if (!lockdep_recursion_enter(t))
		return;
	lockdep_init_once();
	raw_futex_lock(&class_lock);
	for (unsigned int sub = 0; sub < subclasses && !oom; sub++) {
		struct lock_class *c = find_class(class_key_of(key, sub));

		oom = c && !zap_class(c);
	}
	raw_futex_unlock(&class_lock);
	if (oom) {
		/* the graph lock before the class lock, never after */
		graph_lock();
		lockdep_out_of_memory("lock classes");
		graph_unlock();
	}
	lockdep_recursion_exit(t);
}

void uirq_lockdep_register_key(struct uirq_lock_class_key *key)
{
	/* Memory reused for a new key must start clean even if nobody unregistered the old one. */
	zap_key(key, true, UIRQ_MAX_LOCKDEP_SUBCLASSES);
}

void uirq_lockdep_unregister_key(struct uirq_lock_class_key *key)
{
	zap_key(key, false, UIRQ_MAX_LOCKDEP_SUBCLASSES);
}

void lockdep_unregister_key_subclass0(struct uirq_lock_class_key *key)
{
	zap_key(key, false, 1);
}

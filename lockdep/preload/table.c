// SPDX-License-Identifier: MIT
/*
 * Lock address -> record: an open-addressing index read without any lock,
 * written under the table lock; records from a slab, each marked in the
 * line bitmap (lines.c).  And init call site -> class key (site mode).
 *
 * The index never reuses a slot within one table: a removed lock leaves a
 * mark and its slot stays dead until the table is rebuilt, so a probe
 * chain never loses a record that is in it.  Rebuilt tables (at three
 * quarters load, counting the dead; to at most half load) are published
 * whole; an old one is retired, not unmapped: a reader still probing it
 * reads an empty table.
 */
#include "preload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define INDEX_MIN	(1u << 10)

static union {
	struct rec_index ix;
	char room[sizeof(struct rec_index) + sizeof(uintptr_t)];
} index_empty;

struct rec_index *_Atomic rec_index = &index_empty.ix;
static uint64_t index_used;		/* slots ever claimed in the current table (live + gone) */
static uint64_t nr_live;
static struct raw_futex table_lock;
/* A recycled record is set up field by field: a reader with a stale pointer may be reading it. */
static struct lockdep_slab rec_slab = {
	.size = sizeof(struct lock_rec), .link = offsetof(struct lock_rec, free_next), .no_clear = true,
};

struct rec_region rec_region;
/* 256 MiB: 1.7 million records (152 bytes) before the slab goes on in ordinary chunks */
#define REC_REGION_SIZE	(256ul << 20)

/*
 * Reserve the record region and make it the slab's first chunk (table lock
 * held).  MAP_NORESERVE: the pages are paid for as records are carved.  If
 * the system refuses (a strict overcommit policy, an address-space limit),
 * records come from ordinary chunks and the lock fast path uses the index.
 */
static void region_make(void)
{
	void *p = mmap(NULL, REC_REGION_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return;
	rec_slab.next = p;
	rec_slab.end = (char *)p + REC_REGION_SIZE;
	atomic_store_explicit(&rec_region.lo, (uintptr_t)p, memory_order_relaxed);
	atomic_store_explicit(&rec_region.span, REC_REGION_SIZE - sizeof(struct lock_rec) + 1,
			      memory_order_release);
}

/* Set while this thread holds the table lock: a signal handler locking meanwhile goes untracked. */
static PRELOAD_TLS bool in_table;

/* fork(): held across it, before lockdep's own (options.c registers it after them). */
void rec_table_fork_prepare(void)
{
	raw_futex_lock(&table_lock);
}

void rec_table_fork_parent(void)
{
	raw_futex_unlock(&table_lock);
}

void rec_table_fork_child(void)
{
	atomic_store_explicit(&table_lock.word, 0, memory_order_release);
}

bool rec_table_enter(void)
{
	if (in_table || lockdep_current.recursion)
		return false;
	in_table = true;
	raw_futex_lock(&table_lock);
	return true;
}

void rec_table_exit(void)
{
	raw_futex_unlock(&table_lock);
	in_table = false;
}

static void index_put(struct rec_index *ix, struct lock_rec *r)
{
	uint64_t h = preload_hash(atomic_load_explicit(&r->addr, memory_order_relaxed)), i = h & ix->mask;

	while (atomic_load_explicit(&ix->slots[i], memory_order_relaxed))
		i = (i + 1) & ix->mask;
	atomic_store_explicit(&ix->slots[i], rec_slot_make(r, h), memory_order_release);
}

/*
 * Room for one more slot: rebuild at three quarters load (linear probing's
 * hits still take two or three probes there, and a miss is only a first
 * acquisition), at twice the live records' need, so that a rebuild is paid
 * for by a quarter of the table's slots claimed since the last one.
 */
static bool index_make_room(void)
{
	struct rec_index *old = atomic_load_explicit(&rec_index, memory_order_relaxed), *ix;
	uint64_t size = old->mask + 1, nsize = INDEX_MIN;
	size_t bytes;

	if ((index_used + 1) * 4 <= size * 3)
		return true;
	while (nsize < (nr_live + 1) * 2)
		nsize *= 2;
	bytes = sizeof(*ix) + nsize * sizeof(ix->slots[0]);
	ix = lockdep_alloc(bytes);
	if (!ix)
		return false;
	ix->mask = nsize - 1;
	for (uint64_t i = 0; i < size; i++) {
		uintptr_t v = atomic_load_explicit(&old->slots[i], memory_order_relaxed);

		if (v > REC_SLOT_GONE)
			index_put(ix, rec_slot_rec(v));
	}
	index_used = nr_live;
	atomic_store_explicit(&rec_index, ix, memory_order_release);
	if (old != &index_empty.ix)
		lockdep_retire(old, sizeof(*old) + size * sizeof(old->slots[0]));
	return true;
}

/* ---- records ---- */

struct lock_rec *rec_alloc(uintptr_t addr)
{
	struct lock_rec *r;

	if (!rec_slab.end)
		region_make();
	if (!index_make_room() || !(r = slab_alloc(&rec_slab)))
		return NULL;
	/* what build() and cond_rec() do not set; state says it is no lock yet */
	atomic_store_explicit(&r->state, REC_UNBUILT, memory_order_relaxed);
	atomic_store_explicit(&r->owner, 0, memory_order_relaxed);
	r->had_subclass = r->unbalanced = false;
	r->user_name = NULL;
	r->stat = NULL;
	__atomic_store_n(&r->map.class_cache, NULL, __ATOMIC_RELAXED);
	r->map.key = NULL;
	atomic_store_explicit(&r->addr, addr, memory_order_relaxed);
	index_put(atomic_load_explicit(&rec_index, memory_order_relaxed), r);
	index_used++;
	nr_live++;
	rec_mark_line(addr);
	return r;
}

/* The slot of address a's record, or NULL (table lock held). */
static _Atomic uintptr_t *index_slot(uintptr_t a)
{
	struct rec_index *ix = atomic_load_explicit(&rec_index, memory_order_relaxed);
	uint64_t h = preload_hash(a);

	for (uint64_t i = h & ix->mask; ; i = (i + 1) & ix->mask) {
		uintptr_t v = atomic_load_explicit(&ix->slots[i], memory_order_relaxed);

		if (rec_slot_may_be(v, h) && atomic_load_explicit(&rec_slot_rec(v)->addr, memory_order_relaxed) == a)
			return &ix->slots[i];
		if (v == 0)
			return NULL;
	}
}

/* Does any record still start in the line of a? */
static bool line_has_lock(uintptr_t a)
{
	uintptr_t line = a & ~((uintptr_t)63);

	/* 4-byte steps: a pthread_spinlock_t is an int */
	for (uintptr_t p = line; p < line + 64; p += 4)
		if (index_slot(p))
			return true;
	return false;
}

void rec_release(struct lock_rec *r)
{
	uintptr_t a = atomic_load_explicit(&r->addr, memory_order_relaxed);
	_Atomic uintptr_t *slot = index_slot(a);

	if (slot)
		atomic_store_explicit(slot, REC_SLOT_GONE, memory_order_release);
	/* a reader holding r compares r->addr with its lock: never equal from now on */
	atomic_store_explicit(&r->addr, 0, memory_order_release);
	atomic_store_explicit(&r->state, REC_UNBUILT, memory_order_release);
	nr_live--;
	if (!line_has_lock(a))
		rec_clear_line(a);
	slab_free(&rec_slab, r);
}

/*
 * The highest entry of the lock, the one lockdep's release takes off.  An
 * entry of the same address but not of this kind, or of a mutex that keeps
 * its owner, is the ordinary path's (false); so is any unlock inside
 * lockdep (a signal handler's), as for the top.
 */
bool rec_release_below(void *lock, enum rec_kind kind)
{
	struct lockdep_task *t = &lockdep_current;
	int i;

	if (t->recursion || t->depth < 2)
		return false;
	i = rec_held_below(t, t->depth - 1, lock);
	if (i < 0 || !rec_releases(hlock_rec(held_lock_at(t, (unsigned int)i)), lock, kind))
		return false;
	lockdep_drop_held(t, (unsigned int)i);
	return true;
}

void rec_unlock_slow(void *lock, enum rec_kind kind, unsigned long ip)
{
	struct lock_rec *r;

	if (rec_release_below(lock, kind))
		return;
	r = rec_get(lock, kind, ip);
	if (r)
		preload_release(r, ip);
}

struct range_walk {
	uintptr_t from, to;
	void (*fn)(struct lock_rec *r, void *arg);
	void *arg;
};

static bool walk_line(uintptr_t line, void *arg)
{
	struct range_walk *w = arg;

	for (uintptr_t p = line; p < line + 64; p += 4) {
		_Atomic uintptr_t *slot;

		if (p < w->from || p >= w->to || !(slot = index_slot(p)))
			continue;
		w->fn(rec_slot_rec(atomic_load_explicit(slot, memory_order_relaxed)), w->arg);
	}
	return false;
}

void rec_for_range(uintptr_t from, uintptr_t to, void (*fn)(struct lock_rec *r, void *arg), void *arg)
{
	struct range_walk w = { from, to, fn, arg };

	rec_for_marked_lines(from, to, walk_line, &w);
}

/* ---- init call sites (UIRQ_LOCKDEP_CLASSES=site) ---- */

#define SITE_BITS	12
#define SITE_SIZE	(1u << SITE_BITS)
static struct site_rec sites[SITE_SIZE];

/* "mutex@function+0x1c", or "mutex@object+0x1234" for a symbol-less caller. */
static void site_name(struct site_rec *s, unsigned long ip, enum rec_kind kind)
{
	Dl_info info = { 0 };
	int found = dladdr((void *)ip, &info);

	if (found && info.dli_sname && info.dli_saddr) {
		snprintf(s->name, sizeof(s->name), "%s@%s+%#lx", rec_kind_name(kind), info.dli_sname,
			 ip - (unsigned long)info.dli_saddr);
	} else if (found && info.dli_fname && info.dli_fbase) {
		const char *base = strrchr(info.dli_fname, '/');

		snprintf(s->name, sizeof(s->name), "%s@%s+%#lx", rec_kind_name(kind),
			 base ? base + 1 : info.dli_fname, ip - (unsigned long)info.dli_fbase);
	} else {
		snprintf(s->name, sizeof(s->name), "%s@%#lx", rec_kind_name(kind), ip);
	}
}

struct site_rec *site_of_key(const void *key)
{
	uintptr_t k = (uintptr_t)key, first = (uintptr_t)&sites[0].key;

	if (k < first || k >= (uintptr_t)&sites[SITE_SIZE])
		return NULL;
	return &sites[(k - first) / sizeof(sites[0])];
}

struct site_rec *site_get(unsigned long ip, enum rec_kind kind)
{
	uint32_t i = (uint32_t)(preload_hash(ip) & (SITE_SIZE - 1));

	for (uint32_t n = 0; n < SITE_SIZE; n++, i = (i + 1) & (SITE_SIZE - 1)) {
		struct site_rec *s = &sites[i];
		uintptr_t cur = atomic_load_explicit(&s->ip, memory_order_acquire);

		if (cur == 0 && atomic_compare_exchange_strong(&s->ip, &cur, ip)) {
			memset(s->name, 0, sizeof(s->name));
			site_name(s, ip, kind);
			uirq_lockdep_register_key(&s->key);
			atomic_store_explicit(&s->ready, 1, memory_order_release);
			return s;
		}
		if (cur != ip)
			continue;
		/* Being set up by another thread (or by the code a signal interrupted). */
		for (int spin = 0; spin < 100000; spin++) {
			if (atomic_load_explicit(&s->ready, memory_order_acquire))
				return s;
			cpu_relax();
		}
		return NULL;
	}
	return NULL;
}

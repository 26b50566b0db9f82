// SPDX-License-Identifier: MIT
/*
 * Lock address -> record, and init call site -> class key: open addressing
 * with linear probing, claimed with one compare-and-swap, never locked.
 *
 * Slots are never freed: a slot's address is its identity, and a destroyed
 * lock only marks its record dead (record.c rebuilds it on reuse).  malloc
 * hands the same addresses out again, so the table fills with the distinct
 * lock addresses a program ever used, not with every lock it ever created.
 * The table is one MAP_NORESERVE mapping: only touched pages cost memory.
 */
#include "preload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

_Atomic(struct lock_rec *) preload_table;
static atomic_uint table_used;
static atomic_bool table_full_said;

/* Keep probe sequences short: stop tracking new locks at 3/4 load. */
#define TABLE_LIMIT	(TABLE_SIZE / 4 * 3)

static struct lock_rec *table_get(void)
{
	struct lock_rec *t = atomic_load_explicit(&preload_table, memory_order_acquire);
	struct lock_rec *expect = NULL;

	if (t)
		return t;
	t = mmap(NULL, sizeof(struct lock_rec) * TABLE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (t == MAP_FAILED) {
		preload_msg("uirq-lockdep: cannot map the lock table; locks go unvalidated\n");
		return NULL;
	}
	if (!atomic_compare_exchange_strong(&preload_table, &expect, t)) {
		munmap(t, sizeof(struct lock_rec) * TABLE_SIZE);
		t = expect;
	}
	return t;
}

struct lock_rec *table_slot(uintptr_t a, bool create)
{
	struct lock_rec *tab = table_get();
	uint32_t i = (uint32_t)(preload_hash(a) >> (64 - TABLE_BITS));

	if (!tab)
		return NULL;
	for (uint32_t n = 0; n < TABLE_SIZE; n++, i = (i + 1) & (TABLE_SIZE - 1)) {
		struct lock_rec *r = &tab[i];
		uintptr_t cur = atomic_load_explicit(&r->addr, memory_order_acquire);

		if (cur == a)
			return r;
		if (cur != 0)
			continue;
		if (!create)
			return NULL;
		if (atomic_load_explicit(&table_used, memory_order_relaxed) >= TABLE_LIMIT) {
			if (!atomic_exchange(&table_full_said, true))
				preload_msg("uirq-lockdep: lock table full; new locks go unvalidated\n");
			return NULL;
		}
		if (atomic_compare_exchange_strong(&r->addr, &cur, a)) {
			atomic_fetch_add_explicit(&table_used, 1, memory_order_relaxed);
			return r;
		}
		if (cur == a)	/* another thread claimed it for the same lock */
			return r;
	}
	return NULL;
}

/* ---- init call sites (UIRQ_LOCKDEP_CLASSES=site) ---- */

#define SITE_BITS	12
#define SITE_SIZE	(1u << SITE_BITS)
static struct site_rec sites[SITE_SIZE];

static const char *kind_name(enum rec_kind kind)
{
	return kind == REC_MUTEX ? "mutex" : kind == REC_RWLOCK ? "rwlock" : "spinlock";
}

/* "mutex@function+0x1c", or "mutex@object+0x1234" for a symbol-less caller. */
static void site_name(struct site_rec *s, unsigned long ip, enum rec_kind kind)
{
	Dl_info info = { 0 };
	int found = dladdr((void *)ip, &info);

	if (found && info.dli_sname && info.dli_saddr) {
		snprintf(s->name, sizeof(s->name), "%s@%s+%#lx", kind_name(kind), info.dli_sname,
			 ip - (unsigned long)info.dli_saddr);
	} else if (found && info.dli_fname && info.dli_fbase) {
		const char *base = strrchr(info.dli_fname, '/');

		snprintf(s->name, sizeof(s->name), "%s@%s+%#lx", kind_name(kind),
			 base ? base + 1 : info.dli_fname, ip - (unsigned long)info.dli_fbase);
	} else {
		snprintf(s->name, sizeof(s->name), "%s@%#lx", kind_name(kind), ip);
	}
}

struct site_rec *site_get(unsigned long ip, enum rec_kind kind)
{
	uint32_t i = (uint32_t)(preload_hash(ip) >> (64 - SITE_BITS));

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

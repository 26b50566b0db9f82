// SPDX-License-Identifier: MIT
/*
 * <uirq/lockdep-annotate.h>: what a program may tell lockdep about its
 * locks - a name, a class shared by several locks, an assertion that a lock
 * is held - through weak references that are NULL without the runner.
 *
 * Records are made at a lock's first acquisition, and a program annotates
 * right after pthread_*_init, before that: an annotation for an address
 * with no record yet waits in a small table (by address, table lock) until
 * the record is built (annotate_apply_pending(), from record.c).
 */
#include "preload.h"

#include <string.h>

struct pending {
	uintptr_t addr;			/* 0: free */
	const void *key;		/* set_class, or NULL */
	const char *name;
};

#define PENDING_MAX	1024
static struct pending pending[PENDING_MAX];
static unsigned int nr_pending;		/* slots in use, table lock */

static void apply(struct lock_rec *r, const void *key, const char *name)
{
	/* a wait object has a name of its own (wait_rec_name()) and no room for another */
	if (name && !rec_kind_is_wait(r->kind))
		r->user_name = name;
	if (key && r->map.key != key) {
		/* the lock joins key's class: its own (if it had one) dies, as at a re-init */
		if (r->map.key == rec_key(r) && __atomic_load_n(&r->map.class_cache, __ATOMIC_ACQUIRE))
			uirq_lockdep_unregister_key(rec_key(r));
		uirq_lockdep_init_map(&r->map, name ? name : rec_kind_name(r->kind), key, 0);
	}
}

void annotate_apply_pending(struct lock_rec *r)
{
	uintptr_t a = atomic_load_explicit(&r->addr, memory_order_relaxed);

	if (!nr_pending)
		return;
	for (unsigned int i = 0; i < PENDING_MAX; i++) {
		if (pending[i].addr != a)
			continue;
		apply(r, pending[i].key, pending[i].name);
		pending[i].addr = 0;
		nr_pending--;
		return;
	}
}

/* Annotate now if lock has a live record, else keep it for when it gets one. */
static void annotate(const void *lock, const void *key, const char *name)
{
	struct lock_rec *r;

	if (!preload_active() || !lock || !rec_table_enter())
		return;
	r = rec_index_find((uintptr_t)lock);
	if (r && atomic_load_explicit(&r->state, memory_order_relaxed) == REC_LIVE &&
	    rec_is_marked(r, (void *)lock)) {
		apply(r, key, name);
	} else {
		struct pending *free_slot = NULL;

		for (unsigned int i = 0; i < PENDING_MAX; i++) {
			if (pending[i].addr == (uintptr_t)lock) {
				free_slot = &pending[i];
				break;
			}
			if (!pending[i].addr && !free_slot)
				free_slot = &pending[i];
		}
		if (!free_slot) {
			preload_msg("uirq-lockdep: too many annotations of locks never taken; one is dropped\n");
		} else {
			if (!free_slot->addr)
				nr_pending++;
			free_slot->addr = (uintptr_t)lock;
			if (key)
				free_slot->key = key;
			if (name)
				free_slot->name = name;
		}
	}
	rec_table_exit();
}

PRELOAD_EXPORT void uirq__lock_set_name(const void *lock, const char *name)
{
	annotate(lock, NULL, name);
}

PRELOAD_EXPORT void uirq__lock_set_class(const void *lock, const void *key, const char *name)
{
	annotate(lock, key, name);
}

PRELOAD_EXPORT void uirq__lock_assert_held(const void *lock, const char *what, const char *file, int line)
{
	struct lock_rec *r;
	bool held;

	if (!preload_active() || lockdep_current.recursion)
		return;
	r = rec_index_find((uintptr_t)lock);
	if (r && atomic_load_explicit(&r->state, memory_order_acquire) != REC_LIVE)
		r = NULL;
	if (r && r->mtype != MTYPE_NORMAL && r->mtype != MTYPE_RW_WRITER_FIRST)
		held = atomic_load_explicit(&r->owner, memory_order_relaxed) == SELF;
	else
		held = r && uirq_lockdep_is_held(&r->map);
	if (!held)
		uirq_lockdep_assert_failed(what, file, line);
}

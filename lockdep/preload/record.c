// SPDX-License-Identifier: MIT
/*
 * A lock's identity: its record is built on first use (so statically
 * initialised locks need no init call), rebuilt by pthread_*_init and by
 * reuse of the memory as another lock type, and killed by pthread_*_destroy.
 *
 * Each instance gets its own dynamically registered key, hence its own class
 * ("mutex@0x5581..."); in site mode a lock initialised by pthread_*_init
 * shares the key of that call site instead ("mutex@make_queue+0x2c").
 * Unregistering a key zaps its classes and their dependencies, which is what
 * makes reused memory start clean.
 */
#include "preload.h"

#include <sched.h>
#include <string.h>

/* Set while this thread builds a record: a signal handler locking meanwhile goes untracked. */
static PRELOAD_TLS bool building;

static const char *const kind_prefix[] = {
	[REC_MUTEX] = "mutex@0x", [REC_RWLOCK] = "rwlock@0x", [REC_SPIN] = "spinlock@0x",
};

/* "mutex@0x55d0c3a4b040" without stdio: this runs inside pthread_mutex_lock. */
static void instance_name(char *buf, size_t size, enum rec_kind kind, uintptr_t addr)
{
	size_t n = strlen(kind_prefix[kind]);
	char hex[2 * sizeof(addr)];
	int digits = 0;

	memcpy(buf, kind_prefix[kind], n);
	do {
		hex[digits++] = "0123456789abcdef"[addr & 15];
		addr >>= 4;
	} while (addr && digits < (int)sizeof(hex));
	while (digits && n + 1 < size)
		buf[n++] = hex[--digits];
	buf[n] = '\0';
}

static enum rec_mtype mutex_type(void *lock)
{
#ifdef __GLIBC__
	/* glibc keeps the type in the mutex, also for PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP. */
	switch (((pthread_mutex_t *)lock)->__data.__kind & 3) {
	case PTHREAD_MUTEX_RECURSIVE_NP:
		return MTYPE_RECURSIVE;
	case PTHREAD_MUTEX_ERRORCHECK_NP:
		return MTYPE_ERRORCHECK;
	default:
		return MTYPE_NORMAL;
	}
#else
	(void)lock;
	return MTYPE_NORMAL;
#endif
}

/* Give r a fresh identity; the caller owns it (state REC_BUILDING). */
static void build(struct lock_rec *r, void *lock, enum rec_kind kind, unsigned long ip, bool from_init)
{
	struct site_rec *site = NULL;

	/* atomic: the fast paths read them with state, in one word (rec_tag) */
	__atomic_store_n(&r->kind, (uint8_t)kind, __ATOMIC_RELAXED);
	__atomic_store_n(&r->mtype, (uint8_t)(kind == REC_MUTEX ? mutex_type(lock) : MTYPE_NORMAL),
			 __ATOMIC_RELAXED);
	atomic_store_explicit(&r->owner, 0, memory_order_relaxed);
	r->depth = 0;
	if (from_init && preload_classes == CLASSES_SITE)
		site = site_get(ip, kind);
	if (site) {
		r->own_key = false;
		uirq_lockdep_init_map(&r->map, site->name, &site->key, 0);
	} else {
		memset(&r->key, 0, sizeof(r->key));
		uirq_lockdep_register_key(&r->key);
		r->own_key = true;
		instance_name(r->name, sizeof(r->name), kind, (uintptr_t)lock);
		uirq_lockdep_init_map(&r->map, r->name, &r->key, 0);
	}
}

static void drop_identity(struct lock_rec *r)
{
	if (r->own_key) {
		uirq_lockdep_unregister_key(&r->key);
		r->own_key = false;
	}
}

struct lock_rec *rec_lookup_slow(void *lock, enum rec_kind kind, unsigned long ip, bool reinit)
{
	struct lock_rec *r;

	if (building)
		return NULL;
	r = table_slot((uintptr_t)lock, true);
	if (!r)
		return NULL;
	for (int spin = 0;; spin++) {
		int st = atomic_load_explicit(&r->state, memory_order_acquire);

		if (st == REC_LIVE && r->kind == kind && !reinit)
			return r;
		if (st == REC_BUILDING) {
			/*
			 * Another thread is building it (never this one: see
			 * building).  Usually a short wait; giving up would leave
			 * a lock and its unlock annotated unevenly, so yield instead.
			 */
			if (spin > 1000)
				sched_yield();
			else
				cpu_relax();
			continue;
		}
		if (!atomic_compare_exchange_weak_explicit(&r->state, &st, REC_BUILDING,
							   memory_order_acquire, memory_order_relaxed))
			continue;
		building = true;
		if (st == REC_LIVE) {
			/*
			 * Re-initialised, or reused as another lock type, without a
			 * destroy: the old lock is gone.  Held by us, that is reported
			 * (and lockdep forgets the hold, as the real lock is unlocked now).
			 */
			rec_check_freed(r);
			drop_identity(r);
		}
		build(r, lock, kind, ip, reinit);
		building = false;
		atomic_store_explicit(&r->state, REC_LIVE, memory_order_release);
		return r;
	}
}

struct lock_rec *rec_find(void *lock)
{
	struct lock_rec *r = table_slot((uintptr_t)lock, false);

	if (r && atomic_load_explicit(&r->state, memory_order_acquire) == REC_LIVE)
		return r;
	return NULL;
}

void rec_check_freed(struct lock_rec *r)
{
	uirq_lockdep_check_no_locks_freed(&r->map, sizeof(r->map));
}

int rec_destroy_begin(struct lock_rec *r)
{
	int held = -1;

	if (!r)
		return -1;
	if (uirq_lockdep_is_held_type(&r->map, 0))
		held = UIRQ_LOCK_WRITE;
	else if (uirq_lockdep_is_held_type(&r->map, 1))
		held = UIRQ_LOCK_READ_RECURSIVE;
	if (held >= 0)
		rec_check_freed(r);	/* reports, and lockdep drops the hold */
	return held;
}

void rec_destroy_end(struct lock_rec *r, int held, int ret, unsigned long ip)
{
	int st = REC_LIVE;

	if (!r)
		return;
	if (ret != 0) {
		/*
		 * glibc refuses to destroy a locked mutex (EBUSY): the caller
		 * still holds it, so put the hold back - as a trylock, which
		 * adds no dependency - or its unlock would look unbalanced.
		 */
		if (held >= 0)
			uirq_lock_acquire(&r->map, 0, 1, held, ip, NULL, 0);
		return;
	}
	if (!atomic_compare_exchange_strong_explicit(&r->state, &st, REC_BUILDING,
						     memory_order_acquire, memory_order_relaxed))
		return;
	drop_identity(r);
	atomic_store_explicit(&r->state, REC_DEAD, memory_order_release);
}

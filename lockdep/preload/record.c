// SPDX-License-Identifier: MIT
/*
 * A lock's identity: its record is built at first acquisition (so statically
 * initialised locks need no init call, and a lock that is created and
 * destroyed without ever being taken costs nothing), rebuilt when the
 * memory turns out to hold a new lock, killed by pthread_*_destroy, and
 * recycled when the memory is freed.
 *
 * Each instance gets its own dynamically registered key, hence its own class
 * ("mutex@0x5581..."); in site mode a lock initialised by pthread_*_init
 * shares the key of that call site instead ("mutex@make_queue+0x2c").
 * Unregistering a key zaps its classes and their dependencies, which is what
 * makes reused memory start clean.
 *
 * A new lock at an old address is seen by its marker (preload.h): the
 * record's ident is written into a field of the lock that glibc leaves
 * unused and that pthread_*_init and the static initializers zero.  So a
 * mutex on the stack of a function called again, or in memory freed and
 * handed out again without pthread_mutex_destroy, never inherits the old
 * lock's dependencies - at the price of one load from a cache line the
 * real lock call touches anyway.
 */
#include "preload.h"

#include <string.h>

static uint64_t next_ident = 1;		/* table lock */

/* What the lock's memory says of its type (glibc keeps it there, also for the static initializers). */
static enum rec_mtype lock_mtype(void *lock, enum rec_kind kind)
{
#ifdef __GLIBC__
	if (kind == REC_MUTEX) {
		switch (((pthread_mutex_t *)lock)->__data.__kind & 3) {
		case PTHREAD_MUTEX_RECURSIVE_NP:
			return MTYPE_RECURSIVE;
		case PTHREAD_MUTEX_ERRORCHECK_NP:
			return MTYPE_ERRORCHECK;
		default:
			return MTYPE_NORMAL;
		}
	}
	/* glibc's PTHREAD_RWLOCK_PREFER_WRITER_NP behaves as reader-preferring; only this one does not */
	if (kind == REC_RWLOCK &&
	    ((pthread_rwlock_t *)lock)->__data.__flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return MTYPE_RW_WRITER_FIRST;
#else
	(void)lock;
	(void)kind;
#endif
	return MTYPE_NORMAL;
}

static unsigned int lock_flags(void *lock, enum rec_kind kind, bool pshared)
{
	unsigned int flags = 0;

#ifdef __GLIBC__
	if (kind == REC_MUTEX) {
		int k = ((pthread_mutex_t *)lock)->__data.__kind;

		/* robust mutexes use the marker's field; another process shares a pshared one */
		if (k & 16)
			flags |= REC_NO_MARKER;
		if (k & 128)
			flags |= REC_NO_MARKER | REC_PSHARED;
		/* priority inheritance or protection: the real lock can fail (EINVAL, EDEADLK, ...) */
		if (k & (32 | 64))
			flags |= REC_MAY_FAIL;
	} else if (kind == REC_RWLOCK) {
		if (((pthread_rwlock_t *)lock)->__data.__shared)
			flags |= REC_NO_MARKER | REC_PSHARED;
	}
#endif
	if (!rec_marker(lock, kind))
		flags |= REC_NO_MARKER;
	if (pshared)
		flags |= REC_PSHARED;
	return flags;
}

bool rec_is_marked(const struct lock_rec *r, void *lock)
{
	return (r->flags & REC_NO_MARKER) || rec_marked(r, lock, r->kind);
}

#ifdef __GLIBC__
/*
 * Where the mutex at lock was initialised, as it carries it (table lock
 * held), or 0.  With its marker still 0, the word beside the marker is what
 * pthread_mutex_init's wrapper left there (0 after a static initializer).
 * With a marker, that word is the address of a record: of this memory's
 * previous identity, or of the lock these bytes were copied from
 * (realloc() moving a block, a struct assignment), whose init site the
 * copy keeps while that record still has the identity the marker names.
 */
static unsigned long carried_init_site(void *lock)
{
	uint64_t mark = atomic_load_explicit(rec_marker(lock, REC_MUTEX), memory_order_relaxed);
	uintptr_t aux = atomic_load_explicit(mutex_aux(lock), memory_order_relaxed);
	const struct lock_rec *o = (const struct lock_rec *)aux;

	if (!mark)
		return aux;
	if (!rec_in_region(aux) || o->ident != (mark & ~(MARK_DESTROYED | MARK_FREED)) || !o->site_is_init)
		return 0;
	return o->site;
}
#endif

/* Give r a fresh identity (table lock held). */
static void build(struct lock_rec *r, void *lock, enum rec_kind kind, unsigned long ip,
		  bool from_init, bool pshared)
{
	unsigned int flags = lock_flags(lock, kind, pshared);
	struct site_rec *site = NULL;
	unsigned long init_site = 0;

#ifdef __GLIBC__
	/* a mutex remembers where it was initialised (mutex.c); read before r changes: it may be r's */
	if (kind == REC_MUTEX && !(flags & REC_NO_MARKER) && !from_init)
		init_site = carried_init_site(lock);
#endif
	atomic_store_explicit(&r->state, REC_BUILDING, memory_order_relaxed);
	if (rec_kind_is_wait(r->kind)) {
		/* a wait object's fields were where a lock's are */
		r->user_name = NULL;
		r->stat = NULL;
	}
	/* atomic: the fast paths read them with state, in one word (rec_tag) */
	__atomic_store_n(&r->kind, (uint8_t)kind, __ATOMIC_RELAXED);
	__atomic_store_n(&r->mtype, (uint8_t)lock_mtype(lock, kind), __ATOMIC_RELAXED);
	__atomic_store_n(&r->flags, (uint8_t)flags, __ATOMIC_RELAXED);
	atomic_store_explicit(&r->owner, 0, memory_order_relaxed);
	r->depth = 0;
	r->unbalanced = false;
	r->ident = next_ident++;
	r->destroyed_at = r->freed_at = 0;
	if (init_site) {
		ip = init_site;
		from_init = true;
	}
	r->site = ip;
	r->site_is_init = from_init;
	if (from_init && preload_classes == CLASSES_SITE)
		site = site_get(r->site, kind);
	if (site)
		uirq_lockdep_init_map(&r->map, site->name, &site->key, 0);
	else
		uirq_lockdep_init_map(&r->map, rec_kind_name(kind), rec_key(r), 0);
	annotate_apply_pending(r);
	if (preload_stat)
		preload_stat_attach(r);
	if (!(flags & REC_NO_MARKER))
		atomic_store_explicit(rec_marker(lock, kind), r->ident, memory_order_relaxed);
#ifdef __GLIBC__
	if (kind == REC_MUTEX && !(flags & REC_NO_MARKER))
		atomic_store_explicit(mutex_aux(lock), (uintptr_t)r, memory_order_relaxed);
#endif
	atomic_store_explicit(&r->state, REC_LIVE, memory_order_release);
}

/*
 * The identity ends: its classes and dependencies die with it.  A lock
 * never taken has no class, and then the graph lock is not needed.
 */
static void drop_identity(struct lock_rec *r)
{
	preload_stat_detach(r);
	/* a wait object's fields are where a lock's user name would be */
	if (!rec_kind_is_wait(r->kind))
		r->user_name = NULL;
	if (r->map.key == rec_key(r) && r->had_subclass)
		uirq_lockdep_unregister_key(rec_key(r));
	else if (r->map.key == rec_key(r) && __atomic_load_n(&r->map.class_cache, __ATOMIC_ACQUIRE))
		lockdep_unregister_key_subclass0(rec_key(r));
	__atomic_store_n(&r->map.class_cache, NULL, __ATOMIC_RELEASE);
	r->had_subclass = false;
}

/* The record goes back to the table: it is no lock's, nor any wait object's. */
static void release(struct lock_rec *r)
{
	preload_stat_free(r);
	rec_release(r);
}

/* The old lock at r's address is gone (re-initialised or reused): forget a hold of it, with a report. */
static void end_identity(struct lock_rec *r, void *lock)
{
	if (atomic_load_explicit(&r->state, memory_order_relaxed) == REC_LIVE)
		lockdep_map_freed(&r->map, lock, sizeof(pthread_mutex_t));
	drop_identity(r);
}

static bool destroyed(const struct lock_rec *r, void *lock)
{
	if (atomic_load_explicit(&r->state, memory_order_relaxed) != REC_DEAD)
		return false;
	/* without a marker nothing tells a new lock here from the destroyed one: init says (rec_init) */
	return (r->flags & REC_NO_MARKER) ||
	       atomic_load_explicit(rec_marker(lock, r->kind), memory_order_relaxed) == (r->ident | MARK_DESTROYED);
}

/* Its memory was freed and still says so: no init, no initializer, no memset since. */
static bool freed_use(const struct lock_rec *r, void *lock)
{
	return atomic_load_explicit(&r->state, memory_order_relaxed) == REC_FREED &&
	       preload_peek_freed(rec_marker(lock, r->kind)) == (r->ident | MARK_FREED);
}

/* A lock at an address no lock of its kind can have is not one: left alone, never read. */
static bool misaligned(const void *lock, enum rec_kind kind)
{
	return (uintptr_t)lock & (kind == REC_SPIN ? __alignof__(pthread_spinlock_t) - 1 :
				  __alignof__(pthread_mutex_t) - 1);
}

struct lock_rec *rec_lookup_slow(void *lock, enum rec_kind kind, unsigned long ip)
{
	struct lock_rec *r;

	if (misaligned(lock, kind))
		return NULL;
	if (!rec_table_enter())
		return NULL;
	r = rec_index_find((uintptr_t)lock);
	if (r && atomic_load_explicit(&r->state, memory_order_relaxed) == REC_LIVE &&
	    r->kind == kind && rec_is_marked(r, lock))
		goto out;		/* built by another thread meanwhile */
	if (r && r->kind == kind && destroyed(r, lock)) {
		preload_report_destroyed_use(r, lock, ip);
		r = NULL;
		goto out;
	}
	/* reported, then a lock of its own: what the program does with it next is validated */
	if (r && r->kind == kind && freed_use(r, lock))
		preload_report_freed_use(r, lock, ip);
	if (r) {
		end_identity(r, lock);
	} else if (!(r = rec_alloc((uintptr_t)lock))) {
		preload_out_of_memory("lock records");
		goto out;
	}
	build(r, lock, kind, ip, false, false);
out:
	rec_table_exit();
	return r;
}

/* Forget a hold of the lock at lock that this thread has, with a report (re-initialised while held). */
static void check_reinit_held(void *lock, size_t size)
{
	struct lockdep_task *t = &lockdep_current;
	int i = rec_held_below(t, t->depth, lock);

	if (i >= 0)
		lockdep_map_freed(&hlock_rec(held_lock_at(t, (unsigned int)i))->map, lock, size);
}

void rec_init(void *lock, enum rec_kind kind, unsigned long init_site, bool pshared)
{
	struct lock_rec *r;
	unsigned int flags;

	if (misaligned(lock, kind))
		return;
	flags = lock_flags(lock, kind, pshared);
	if (lockdep_current.depth && !lockdep_current.recursion)
		check_reinit_held(lock, kind == REC_SPIN ? sizeof(pthread_spinlock_t) : sizeof(pthread_mutex_t));
#ifdef __GLIBC__
	if (kind == REC_MUTEX && !(flags & REC_NO_MARKER))
		atomic_store_explicit(mutex_aux(lock), init_site, memory_order_relaxed);
#endif
	/*
	 * With a marker, the init call zeroed it: the next acquisition sees a
	 * new lock without any work here.  Without one, or to give the lock its
	 * site's class, the record is (re)built now.
	 */
	if (!(flags & REC_NO_MARKER) && preload_classes != CLASSES_SITE)
		return;
	if (!rec_table_enter())
		return;
	r = rec_index_find((uintptr_t)lock);
	if (r)
		drop_identity(r);
	else
		r = rec_alloc((uintptr_t)lock);
	if (r)
		build(r, lock, kind, init_site, true, pshared);
	rec_table_exit();
}

struct lock_rec *rec_destroy_begin(void *lock, enum rec_kind kind, int *held)
{
	struct lock_rec *r = rec_index_find((uintptr_t)lock);

	*held = -1;
	if (!r || atomic_load_explicit(&r->state, memory_order_acquire) != REC_LIVE || r->kind != kind ||
	    !rec_is_marked(r, lock))
		return NULL;
	/* destroying a lock held is freeing it while held: reported, and lockdep drops the hold */
	*held = lockdep_map_freed(&r->map, lock, kind == REC_SPIN ? sizeof(pthread_spinlock_t) :
				  sizeof(pthread_mutex_t));
	if (*held < 0)
		preload_check_held_elsewhere(r, lock, lock, 0);
	return r;
}

void rec_destroy_end(struct lock_rec *r, void *lock, int held, int ret, unsigned long ip)
{
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
	if (!rec_table_enter())
		return;
	if (atomic_load_explicit(&r->addr, memory_order_relaxed) == (uintptr_t)lock &&
	    atomic_load_explicit(&r->state, memory_order_relaxed) == REC_LIVE) {
		drop_identity(r);
		/* kept, marked destroyed: a later use is reported, a new init or a free ends it */
		if (!(r->flags & REC_NO_MARKER))
			atomic_store_explicit(rec_marker(lock, r->kind), r->ident | MARK_DESTROYED,
					      memory_order_relaxed);
		r->destroyed_at = ip;
		atomic_store_explicit(&r->state, REC_DEAD, memory_order_release);
	}
	rec_table_exit();
}

struct lock_rec *wait_rec_build(uintptr_t addr, enum rec_kind kind, unsigned long site)
{
	struct lock_rec *r = rec_index_find(addr);

	if (r && atomic_load_explicit(&r->state, memory_order_relaxed) == REC_LIVE && r->kind == kind)
		return r;
	if (r) {
		drop_identity(r);	/* the memory held a lock, or another kind of object: it is this one now */
		preload_stat_free(r);	/* a lock's figures are where a wait object's fields go */
	} else if (!(r = rec_alloc(addr))) {
		return NULL;
	}
	__atomic_store_n(&r->kind, (uint8_t)kind, __ATOMIC_RELAXED);
	__atomic_store_n(&r->mtype, (uint8_t)MTYPE_NORMAL, __ATOMIC_RELAXED);
	__atomic_store_n(&r->flags, (uint8_t)REC_NO_MARKER, __ATOMIC_RELAXED);
	atomic_store_explicit(&r->owner, 0, memory_order_relaxed);
	r->depth = 0;
	r->ident = next_ident++;
	r->site = site;
	r->site_is_init = false;
	r->wait_op = r->produce_op = NULL;
	r->waits = 0;
	/*
	 * A class of its own, made when it first joins the dependency graph
	 * (waits.c).  Set directly: a wait object is never held, and the
	 * engine's init would take a recycled record still on some thread's
	 * stack (its lock freed while held) for a held lock re-initialised.
	 */
	r->map.key = rec_key(r);
	r->map.name = rec_kind_name(kind);
	__atomic_store_n(&r->map.class_cache, NULL, __ATOMIC_RELEASE);
	atomic_store_explicit(&r->state, REC_LIVE, memory_order_release);
	return r;
}

void wait_rec_end(uintptr_t addr, enum rec_kind kind)
{
	struct lock_rec *r = rec_index_find(addr);

	if (!r || r->kind != kind)
		return;
	drop_identity(r);
	release(r);
}

struct lock_rec *cond_rec(void *cond)
{
	return wait_rec_build((uintptr_t)cond, REC_COND, 0);
}

/* ---- freed memory ---- */

struct freed {
	uintptr_t from;
	size_t len;
	unsigned long ip;
	unsigned int how;	/* MEM_* */
};

/*
 * Freed mutexes and rwlocks stay known for a while, as a sanitizer's
 * quarantine keeps freed blocks: their records stay in the index, marked
 * REC_FREED, and the lock's memory carries ident | MARK_FREED, so that a
 * later use of it, before anything initialised it again, is reported.  The
 * oldest of the last QUARANTINE go when new ones come (table lock).
 */
#define QUARANTINE	4096
static struct {
	struct lock_rec *r;
	uint64_t ident;
} quarantine[QUARANTINE];
static unsigned int quarantine_next;

static void quarantine_add(struct lock_rec *r)
{
	struct lock_rec *old = quarantine[quarantine_next].r;

	if (old && old->ident == quarantine[quarantine_next].ident &&
	    atomic_load_explicit(&old->state, memory_order_relaxed) == REC_FREED)
		release(old);
	quarantine[quarantine_next].r = r;
	quarantine[quarantine_next].ident = r->ident;
	quarantine_next = (quarantine_next + 1) % QUARANTINE;
}

/* Worth keeping after free(): a marker to tell its use by, and the memory still says it is this lock. */
static bool keep_freed(const struct lock_rec *r, void *lock)
{
	enum rec_state st = atomic_load_explicit(&r->state, memory_order_relaxed);
	uint64_t mark;

	if ((r->flags & REC_NO_MARKER) || (r->kind != REC_MUTEX && r->kind != REC_RWLOCK) ||
	    (st != REC_LIVE && st != REC_DEAD))
		return false;
	mark = atomic_load_explicit(rec_marker(lock, r->kind), memory_order_relaxed);
	return mark == r->ident || mark == (r->ident | MARK_DESTROYED);
}

static void kill_freed(struct lock_rec *r, void *arg)
{
	const struct freed *f = arg;
	void *lock = (void *)atomic_load_explicit(&r->addr, memory_order_relaxed);
	bool gone = f->how & MEM_GONE;
	bool keep = (f->how & MEM_FREE) && keep_freed(r, lock);

	/* memory unmapped already: nothing of the lock to read, a hold of it ends without a look */
	if (atomic_load_explicit(&r->state, memory_order_relaxed) == REC_LIVE && (gone || rec_is_marked(r, lock)) &&
	    lockdep_map_freed(&r->map, (void *)f->from, f->len) < 0 && !gone)
		preload_check_held_elsewhere(r, lock, (void *)f->from, f->len);
	drop_identity(r);
	if (!keep) {
		release(r);
		return;
	}
	r->freed_at = f->ip;
	atomic_store_explicit(rec_marker(lock, r->kind), r->ident | MARK_FREED, memory_order_relaxed);
	atomic_store_explicit(&r->state, REC_FREED, memory_order_release);
	quarantine_add(r);
}

void rec_memory_freed(uintptr_t p, size_t len, unsigned long ip, unsigned int how)
{
	struct freed f = { p, len, ip, how };

	if (!rec_table_enter())
		return;
	rec_for_range(p, p + len, kill_freed, &f);
	rec_table_exit();
}

/* SPDX-License-Identifier: MIT */
/*
 * Internals of libuirq-lockdep-preload.so, the pthread interposer that puts
 * unmodified programs under lockdep.  Everything here is hidden: the module
 * is built with -fvisibility=hidden and exports only the interposed calls.
 */
#ifndef UIRQ_PRELOAD_H
#define UIRQ_PRELOAD_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "uirq/lockdep.h"
/*
 * The engine is compiled into this module: its fast paths are inlined into
 * the wrappers (a chain-cache hit costs no call into the engine).
 */
#include "../lockdep_internal.h"

/* Nothing of this header leaves the module: direct, GOT-less access. */
#pragma GCC visibility push(hidden)

#define PRELOAD_EXPORT	__attribute__((visibility("default")))
#define PRELOAD_TLS	__thread __attribute__((tls_model("initial-exec")))
#define CALLER_IP	((unsigned long)__builtin_return_address(0))
#define ALWAYS_INLINE	inline __attribute__((always_inline))
#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))
#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#else
#define cpu_relax()	atomic_signal_fence(memory_order_seq_cst)
#endif

/* ---- the real pthread functions (real.c) ---- */
struct real_fns {
	int (*mutex_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
	int (*mutex_lock)(pthread_mutex_t *);
	int (*mutex_trylock)(pthread_mutex_t *);
	int (*mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*mutex_clocklock)(pthread_mutex_t *, clockid_t, const struct timespec *);
	int (*mutex_unlock)(pthread_mutex_t *);
	int (*mutex_destroy)(pthread_mutex_t *);

	int (*rwlock_init)(pthread_rwlock_t *, const pthread_rwlockattr_t *);
	int (*rwlock_rdlock)(pthread_rwlock_t *);
	int (*rwlock_tryrdlock)(pthread_rwlock_t *);
	int (*rwlock_timedrdlock)(pthread_rwlock_t *, const struct timespec *);
	int (*rwlock_clockrdlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*rwlock_wrlock)(pthread_rwlock_t *);
	int (*rwlock_trywrlock)(pthread_rwlock_t *);
	int (*rwlock_timedwrlock)(pthread_rwlock_t *, const struct timespec *);
	int (*rwlock_clockwrlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*rwlock_unlock)(pthread_rwlock_t *);
	int (*rwlock_destroy)(pthread_rwlock_t *);

	int (*spin_init)(pthread_spinlock_t *, int);
	int (*spin_lock)(pthread_spinlock_t *);
	int (*spin_trylock)(pthread_spinlock_t *);
	int (*spin_unlock)(pthread_spinlock_t *);
	int (*spin_destroy)(pthread_spinlock_t *);

	int (*cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	int (*cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);

	void (*exit_)(int) __attribute__((noreturn));
	void (*Exit_)(int) __attribute__((noreturn));
};

extern struct real_fns preload_real;
extern atomic_bool preload_resolved;

/* Resolve every real function (idempotent; the constructor calls it first). */
void preload_resolve(void);

/*
 * The real function NAME: one plain load.  Until resolved it is a stub that
 * resolves and calls (real.c); the pointers are written once, by the
 * constructor, before the program can start threads.  A MAYBE function the
 * C library lacks is NULL once resolved.
 */
#define REAL(name)	(preload_real.name)

/* ---- per-lock records (table.c, record.c) ---- */
enum rec_kind { REC_MUTEX = 1, REC_RWLOCK, REC_SPIN };
enum rec_state { REC_UNBUILT = 0, REC_BUILDING, REC_LIVE, REC_DEAD };
enum rec_mtype { MTYPE_NORMAL = 0, MTYPE_RECURSIVE, MTYPE_ERRORCHECK };

/*
 * One lock address.  A slot belongs to its address for the life of the
 * process (lock-free tables cannot safely recycle slots), but the identity
 * in it - key, class, name - is rebuilt whenever the lock is destroyed or
 * re-initialised, so reused memory starts clean.
 */
struct lock_rec {
	_Atomic uintptr_t addr;		/* 0: free slot */
	union {
		struct {
			atomic_int state;	/* enum rec_state */
			uint8_t kind;		/* enum rec_kind; written atomically (see tag) */
			uint8_t mtype;		/* enum rec_mtype, mutexes only; idem */
			uint8_t tag_zero[2];	/* never written: 0 */
		};
		/* state, kind and mtype in one word: the fast paths' single compare (REC_TAG) */
		uint64_t tag;
	};
	bool own_key;			/* key below is registered (instance class) */
	/* Owner and depth: recursive and error-checking mutexes only; written by the holder. */
	_Atomic uintptr_t owner;
	unsigned int depth;
	struct uirq_lockdep_map map;
	struct uirq_lock_class_key key;
	char name[48];
} __attribute__((aligned(64)));

/* The tag of a live record of this kind that the fast paths handle: not a recursive/error-checking mutex. */
#define REC_TAG(kind)	((uint64_t)REC_LIVE | (uint64_t)(kind) << 32 | (uint64_t)MTYPE_NORMAL << 40)

static inline uint64_t rec_tag(const struct lock_rec *r)
{
	return __atomic_load_n(&r->tag, __ATOMIC_ACQUIRE);
}

/* The record for lock, created on first use; NULL when the lock goes untracked. */
struct lock_rec *rec_lookup_slow(void *lock, enum rec_kind kind, unsigned long ip, bool reinit);
/* Find or claim the slot of addr in the table (NULL if the table is full). */
struct lock_rec *table_slot(uintptr_t addr, bool create);
/* The record of lock if it has a live one, never creating it (destroy). */
struct lock_rec *rec_find(void *lock);
/* About to re-initialise: "held lock freed!" if the caller holds it. */
void rec_check_freed(struct lock_rec *r);
/* About to destroy r (may be NULL): report if held; returns how it was held (-1: not). */
int rec_destroy_begin(struct lock_rec *r);
/* Destroyed with result ret: the identity dies on success, a refused destroy keeps the hold. */
void rec_destroy_end(struct lock_rec *r, int held, int ret, unsigned long ip);
/* A record for the key of an init call site (site mode); NULL if the table is full. */
struct site_rec *site_get(unsigned long ip, enum rec_kind kind);

static inline uint64_t preload_hash(uintptr_t a)
{
	return (uint64_t)(a >> 2) * 0x9E3779B97F4A7C15ull;
}

extern _Atomic(struct lock_rec *) preload_table;
#define TABLE_BITS	20
#define TABLE_SIZE	(1u << TABLE_BITS)

/* The live record for lock: one multiply and (nearly always) one probe. */
static ALWAYS_INLINE struct lock_rec *rec_get(void *lock, enum rec_kind kind, unsigned long ip)
{
	uintptr_t a = (uintptr_t)lock;
	struct lock_rec *tab = atomic_load_explicit(&preload_table, memory_order_acquire);

	if (likely(tab != NULL)) {
		uint32_t i = (uint32_t)(preload_hash(a) >> (64 - TABLE_BITS));

		for (;;) {
			struct lock_rec *r = &tab[i];
			uintptr_t cur = atomic_load_explicit(&r->addr, memory_order_acquire);

			if (cur == a) {
				if (likely(atomic_load_explicit(&r->state, memory_order_acquire) == REC_LIVE &&
					   r->kind == kind))
					return r;
				break;
			}
			if (cur == 0)
				break;
			i = (i + 1) & (TABLE_SIZE - 1);
		}
	}
	return rec_lookup_slow(lock, kind, ip, false);
}

/*
 * The record of lock if it is live, of this kind and has REC_TAG(kind) (one
 * multiply, nearly always one probe and one compare); NULL: anything else,
 * for the complete path (rec_get and the mutex type's own handling).
 */
static ALWAYS_INLINE struct lock_rec *rec_probe(void *lock, enum rec_kind kind)
{
	uintptr_t a = (uintptr_t)lock;
	struct lock_rec *tab = atomic_load_explicit(&preload_table, memory_order_acquire);

	if (likely(tab != NULL)) {
		uint32_t i = (uint32_t)(preload_hash(a) >> (64 - TABLE_BITS));

		for (;;) {
			struct lock_rec *r = &tab[i];
			uintptr_t cur = atomic_load_explicit(&r->addr, memory_order_acquire);

			if (cur == a)
				return likely(rec_tag(r) == REC_TAG(kind)) ? r : NULL;
			if (cur == 0)
				return NULL;
			i = (i + 1) & (TABLE_SIZE - 1);
		}
	}
	return NULL;
}

/*
 * Annotate an acquisition of r's lock (the caller checked preload_active()):
 * the engine's fast path, inline.  Every map this module gives the engine
 * is the map of a lock_rec.
 */
static ALWAYS_INLINE void preload_acquire(struct lock_rec *r, int trylock, int read, unsigned long ip)
{
	lockdep_acquire(&r->map, 0, trylock, read, ip, NULL, 0);
}

/*
 * The unlock fast path, without hashing lock: if the top of this thread's
 * held-lock stack is lock (a live record of this kind, and not a recursive
 * or error-checking mutex, whose owner and depth the slow path keeps), pop
 * it and return true.  The top entry's map is a lock_rec's (see above), and
 * records live as long as the process, so its record is read safely; a slot
 * belongs to one address for ever, so r->addr == lock means r is the record
 * rec_get() would have found.  Otherwise false: the caller takes the
 * ordinary path (rec_get, then uirq_lock_release).
 */
static ALWAYS_INLINE bool preload_release_top(void *lock, enum rec_kind kind)
{
	struct lockdep_task *t = &lockdep_current;
	unsigned int depth = t->depth;
	const struct lock_rec *r;

	if (unlikely(t->recursion || !depth))
		return false;
	/* stack[depth] is the top, held_locks[depth - 1] */
	r = container_of(hlock_map(&t->stack[depth]), struct lock_rec, map);
	if (likely(atomic_load_explicit(&r->addr, memory_order_relaxed) == (uintptr_t)lock &&
		   rec_tag(r) == REC_TAG(kind))) {
		/* one store: see lockdep_release_top() */
		atomic_signal_fence(memory_order_seq_cst);
		t->depth = depth - 1;
		return true;
	}
	return false;
}

/* One init call site (site mode): its class key lives as long as the process. */
struct site_rec {
	_Atomic uintptr_t ip;
	atomic_int ready;
	struct uirq_lock_class_key key;
	char name[64];
};

/* ---- options and the validator switch (options.c) ---- */
enum class_mode { CLASSES_INSTANCE, CLASSES_SITE };
extern enum class_mode preload_classes;
/* 0 when UIRQ_LOCKDEP=0 or the validator has turned itself off: pure pass-through. */
static inline bool preload_active(void)
{
	return debug_locks_on();
}

/* A per-thread identity for owner fields (cheap, unique among live threads). */
extern PRELOAD_TLS char preload_self;
#define SELF	((uintptr_t)&preload_self)

/* Write a message to stderr without stdio (safe in any context). */
void preload_msg(const char *s);

#pragma GCC visibility pop
#endif

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
#include <stdint.h>
#include <time.h>

#include "uirq/lockdep.h"

#define PRELOAD_EXPORT	__attribute__((visibility("default")))
#define PRELOAD_TLS	__thread __attribute__((tls_model("initial-exec")))
#define CALLER_IP	((unsigned long)__builtin_return_address(0))
#define ALWAYS_INLINE	inline __attribute__((always_inline))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
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
 * The real function NAME, resolving on the first call made before our
 * constructor ran.  One plain load on the fast path: the pointers are
 * written once, by the constructor, before the program can start threads.
 */
#define REAL(name)							\
	(likely(preload_real.name != NULL) ? preload_real.name :		\
	 (preload_resolve(), preload_real.name))

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
	atomic_int state;		/* enum rec_state */
	uint8_t kind;			/* enum rec_kind */
	uint8_t mtype;			/* enum rec_mtype, mutexes only */
	bool own_key;			/* key below is registered (instance class) */
	/* Owner and depth: recursive and error-checking mutexes only; written by the holder. */
	_Atomic uintptr_t owner;
	unsigned int depth;
	struct uirq_lockdep_map map;
	struct uirq_lock_class_key key;
	char name[48];
} __attribute__((aligned(64)));

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
	return __atomic_load_n(&uirq_debug_locks, __ATOMIC_RELAXED) != 0;
}

/* A per-thread identity for owner fields (cheap, unique among live threads). */
extern PRELOAD_TLS char preload_self;
#define SELF	((uintptr_t)&preload_self)

/* Write a message to stderr without stdio (safe in any context). */
void preload_msg(const char *s);

#endif

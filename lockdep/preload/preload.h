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

	/* waits (waits.c, waitcalls.c) */
	int (*cond_signal)(pthread_cond_t *);
	int (*cond_broadcast)(pthread_cond_t *);
	int (*cond_init)(pthread_cond_t *, const pthread_condattr_t *);
	int (*cond_destroy)(pthread_cond_t *);
	int (*join)(pthread_t, void **);
	int (*tryjoin)(pthread_t, void **);
	int (*timedjoin)(pthread_t, void **, const struct timespec *);
	int (*clockjoin)(pthread_t, void **, clockid_t, const struct timespec *);
	int (*detach)(pthread_t);
	int (*barrier_init)(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned int);
	int (*barrier_wait)(pthread_barrier_t *);
	int (*barrier_destroy)(pthread_barrier_t *);
	int (*sem_init)(void *, int, unsigned int);
	int (*sem_destroy)(void *);
	int (*sem_wait)(void *);
	int (*sem_timedwait)(void *, const struct timespec *);
	int (*sem_clockwait)(void *, clockid_t, const struct timespec *);
	int (*sem_post)(void *);
	int (*pipe)(int *);
	int (*pipe2)(int *, int);
	int (*eventfd)(unsigned int, int);
	int (*close)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	long (*read)(int, void *, size_t);
	long (*write)(int, const void *, size_t);
	long (*read_chk)(int, void *, size_t, size_t);
	int (*eventfd_read)(int, uint64_t *);
	int (*eventfd_write)(int, uint64_t);
	int (*poll)(void *, unsigned long, int);
	int (*poll_chk)(void *, unsigned long, int, size_t);
	int (*ppoll)(void *, unsigned long, const struct timespec *, const void *);
	int (*sigaction)(int, const void *, void *);

	pid_t (*fork_)(void);
	void (*exit_)(int) __attribute__((noreturn));
	void (*Exit_)(int) __attribute__((noreturn));

	int (*munmap)(void *, size_t);
	void *(*mremap)(void *, size_t, size_t, int, ...);
	void (*free)(void *);
	void *(*realloc)(void *, size_t);
	size_t (*malloc_usable_size)(void *);
};

extern struct real_fns preload_real;
extern atomic_bool preload_resolved;

/* Resolve every real function (idempotent; the constructor calls it first). */
void preload_resolve(void);
/* free() may look at the blocks it frees: malloc_usable_size() belongs to the same allocator. */
extern bool preload_free_checks;

/*
 * The real function NAME: one plain load.  Until resolved it is a stub that
 * resolves and calls (real.c); the pointers are written once, by the
 * constructor, before the program can start threads.  A MAYBE function the
 * C library lacks is NULL once resolved.
 */
#define REAL(name)	(preload_real.name)

/* ---- per-lock records (table.c, record.c) ---- */
enum rec_kind {
	REC_MUTEX = 1, REC_RWLOCK, REC_SPIN,
	/* wait objects (waits.c): a condition variable first, then the others */
	REC_COND, REC_SEM, REC_THREAD, REC_BARRIER, REC_PIPE, REC_EVENTFD,
	REC_NR_KINDS
};
static inline bool rec_kind_is_wait(unsigned int kind)
{
	return kind >= REC_COND && kind < REC_NR_KINDS;
}
/* REC_FREED: its memory went to free(); kept a while (record.c) to tell a later use of it */
enum rec_state { REC_UNBUILT = 0, REC_BUILDING, REC_LIVE, REC_DEAD, REC_FREED };
/* What the lock's type changes for lockdep; mutex types first (their glibc numbers don't matter). */
enum rec_mtype {
	MTYPE_NORMAL = 0,
	MTYPE_RECURSIVE,	/* owner and depth kept here; relocking is legal */
	MTYPE_ERRORCHECK,	/* owner kept here */
	MTYPE_RW_WRITER_FIRST,	/* rwlock whose waiting writers block new readers: reads are not recursive */
};
/* rec_flags: nothing set is the fast paths' case. */
#define REC_NO_MARKER	1u	/* robust, process-shared or spin: no identity marker in the lock */
#define REC_PSHARED	2u	/* process-shared: a forked child does not own it */
#define REC_FORK_HELD	4u	/* a forked child's: held at fork() by a thread the child does not have */
#define REC_FORK_READ	16u	/* ... which held it for reading only */
#define REC_MAY_FAIL	8u	/* a mutex whose real lock can fail though it is no robust one (PI, PP) */

/*
 * One live lock.  Records are created at a lock's first acquisition (never
 * at init: creating and destroying a lock that is never taken costs almost
 * nothing), found through the address index, and recycled when the lock's
 * memory is freed.  They come from slabs that are never unmapped, so a
 * pointer to one (from a held-lock entry) is always safe to read.
 *
 * The identity - ident, key, class - is rebuilt whenever the memory turns
 * out to hold a new lock: re-initialised (pthread_*_init or a static
 * initializer over it, seen through the marker), reused as another lock
 * type, or destroyed and initialised again.
 *
 * One per live lock, so every byte counts (uirq-lockdep(1) gives the
 * figure): what only locks or only wait objects use shares one place.
 */
struct lock_rec {
	_Atomic uintptr_t addr;		/* the lock's address */
	union {
		struct {
			atomic_int state;	/* enum rec_state */
			uint8_t kind;		/* enum rec_kind; written atomically (see tag) */
			uint8_t mtype;		/* enum rec_mtype; idem */
			uint8_t flags;		/* REC_*; idem */
			uint8_t tag_zero;	/* never written: 0 */
		};
		/* state, kind, mtype and flags in one word: the fast paths' single compare (REC_TAG) */
		uint64_t tag;
	};
	/*
	 * This identity's marker, also written into the lock's memory (a field
	 * glibc leaves unused for this lock type): initialising the lock again
	 * zeroes it there, so the next acquisition sees a new lock.  Its
	 * address is also the key of the lock's own class (rec_key()): a key
	 * is only an address, one byte a subclass.
	 */
	uint64_t ident;
	/*
	 * Owner and depth: recursive and error-checking mutexes only; written
	 * by the holder.  With REC_FORK_HELD (a forked child's lock held by a
	 * thread the child does not have: not the child's to own), owner is
	 * that thread's id in the parent.
	 */
	_Atomic uintptr_t owner;
	unsigned int depth;
	uint8_t waits;			/* WAITS_* */
	bool site_is_init;
	bool had_subclass;		/* taken with a nesting subclass (lockdep-annotate.h) */
	bool unbalanced;		/* unlocked once more than taken: glibc's count is off */
	unsigned long site;		/* init call site if known, else first acquisition */
	unsigned long destroyed_at;	/* REC_DEAD, REC_FREED: pthread_*_destroy's caller, or 0 */
	union {
		unsigned long freed_at;	/* REC_FREED: free()'s caller */
		struct lock_rec *free_next;	/* in the slab's free list (no report reads a record there) */
	};
	union {
		/* a wait object's (waits.c): how it was waited on and produced, for reports */
		struct {
			const char *wait_op, *produce_op;
		};
		/* a lock's */
		struct {
			const char *user_name;	/* uirq_lock_set_name() */
			struct lock_stat *stat;	/* --stat: this lock's figures (stat.c) */
		};
	};
	struct uirq_lockdep_map map;
};

_Static_assert(sizeof(((struct lock_rec *)0)->ident) >= sizeof(struct uirq_lock_class_key),
	       "a record's ident holds its key's subclasses");

/* Not const: the register calls take keys so, and lockdep never writes through one. */
static inline struct uirq_lock_class_key *rec_key(const struct lock_rec *r)
{
	return (struct uirq_lock_class_key *)(uintptr_t)&r->ident;
}

/* "mutex", "cond"...: also the name of a lock's map (a string that outlives its class) */
static inline const char *rec_kind_name(unsigned int kind)
{
	static const char *const names[REC_NR_KINDS] = {
		[REC_MUTEX] = "mutex", [REC_RWLOCK] = "rwlock", [REC_SPIN] = "spinlock", [REC_COND] = "cond",
		[REC_SEM] = "sem", [REC_THREAD] = "thread", [REC_BARRIER] = "barrier", [REC_PIPE] = "pipe",
		[REC_EVENTFD] = "eventfd",
	};

	return kind < REC_NR_KINDS && names[kind] ? names[kind] : "lock";
}

/* The tag of a live record of this kind that the fast paths handle. */
#define REC_TAG(kind)	((uint64_t)REC_LIVE | (uint64_t)(kind) << 32)
/* What the unlock fast path needs of it: live, this kind, no owner kept (the flags do not matter). */
#define REC_TAG_UNLOCK	0x0000ffffffffffffull

static inline uint64_t rec_tag(const struct lock_rec *r)
{
	return __atomic_load_n(&r->tag, __ATOMIC_ACQUIRE);
}

/* A marker that says "destroyed": ident with the top bit set; "freed": the next bit. */
#define MARK_DESTROYED	(1ull << 63)
#define MARK_FREED	(1ull << 62)

/*
 * Where the marker lives: glibc's pthread_mutex_t keeps __data.__list for
 * robust mutexes only, and pthread_rwlock_t has __data.__pad2 unused;
 * pthread_*_init and the static initializers zero both.  No room in a
 * pthread_spinlock_t.
 */
#ifdef __GLIBC__
static inline _Atomic uint64_t *rec_marker(void *lock, enum rec_kind kind)
{
	if (kind == REC_MUTEX)
		return (_Atomic uint64_t *)(void *)&((pthread_mutex_t *)lock)->__data.__list.__next;
	if (kind == REC_RWLOCK)
		return (_Atomic uint64_t *)(void *)&((pthread_rwlock_t *)lock)->__data.__pad2;
	return NULL;
}

/*
 * The word beside a mutex's marker: its init call site while the marker is
 * still 0 (pthread_mutex_init's wrapper writes it there), and once its
 * record is built, the record's address, so that the lock fast path finds
 * the record in the lock's own cache line, which the real call touches
 * anyway, instead of through the address index (rec_probe_mutex()).
 */
static inline _Atomic uint64_t *mutex_aux(pthread_mutex_t *m)
{
	return (_Atomic uint64_t *)(void *)&m->__data.__list.__prev;
}
#else
static inline _Atomic uint64_t *rec_marker(void *lock, enum rec_kind kind)
{
	(void)lock;
	(void)kind;
	return NULL;
}
#endif

static inline bool rec_marked(const struct lock_rec *r, void *lock, enum rec_kind kind)
{
	return atomic_load_explicit(rec_marker(lock, kind), memory_order_relaxed) == r->ident;
}

/* ---- the address index (table.c): lock address -> record ---- */
/*
 * A slot is one word: the record's address, and in the 16 bits above it
 * (user addresses from mmap() without a hint stay below 2^47) the top of
 * the lock address's hash, so a probe reads a record only when the tags
 * agree.  Half the size of an (address, record) pair: the index is the
 * largest per-lock table after the records and classes themselves.
 */
#define REC_SLOT_GONE	((uintptr_t)1)	/* removed; 0: never used */
#define REC_SLOT_TAG	48

struct rec_index {
	uint64_t mask;			/* slots - 1 */
	_Atomic uintptr_t slots[];
};
extern struct rec_index *_Atomic rec_index;

/*
 * Where records are carved first: one reservation, mapped whole (untouched
 * pages cost nothing), so any address in [lo, lo + span) can be read.  span
 * is 0 until it is made (or if it could not be); it is published after lo.
 */
struct rec_region {
	_Atomic uintptr_t lo;
	_Atomic uintptr_t span;		/* the region's size less one record, plus one */
};
extern struct rec_region rec_region;

/* Could p be a record's address: does a record there lie in the region? */
static inline bool rec_in_region(uintptr_t p)
{
	uintptr_t span = atomic_load_explicit(&rec_region.span, memory_order_acquire);

	return p - atomic_load_explicit(&rec_region.lo, memory_order_relaxed) < span;
}

static inline uint64_t preload_hash(uintptr_t a)
{
	uint64_t h = (uint64_t)(a >> 3) * 0x9E3779B97F4A7C15ull;

	return h ^ (h >> 29);
}

static inline uintptr_t rec_slot_make(const struct lock_rec *r, uint64_t hash)
{
	return (uintptr_t)r | (uintptr_t)(hash >> REC_SLOT_TAG) << REC_SLOT_TAG;
}

/* The record of a slot that is neither free nor gone. */
static inline struct lock_rec *rec_slot_rec(uintptr_t v)
{
	return (struct lock_rec *)(v & ((1ull << REC_SLOT_TAG) - 1));
}

/* Could the slot hold the record of an address of this hash? */
static inline bool rec_slot_may_be(uintptr_t v, uint64_t hash)
{
	return v > REC_SLOT_GONE && !((v ^ hash) >> REC_SLOT_TAG);
}

/*
 * The record for address a, or NULL: lock-free, one multiply and (nearly
 * always) one probe.  A record recycled for another lock meanwhile is not
 * ours; a table retired under our feet reads as empty.
 */
static ALWAYS_INLINE struct lock_rec *rec_index_find(uintptr_t a)
{
	const struct rec_index *ix = atomic_load_explicit(&rec_index, memory_order_acquire);
	uint64_t h = preload_hash(a);

	for (uint64_t i = h & ix->mask; ; i = (i + 1) & ix->mask) {
		uintptr_t v = atomic_load_explicit(&ix->slots[i], memory_order_acquire);

		if (likely(rec_slot_may_be(v, h))) {
			struct lock_rec *r = rec_slot_rec(v);

			if (likely(atomic_load_explicit(&r->addr, memory_order_relaxed) == a))
				return r;
		} else if (v == 0) {
			return NULL;
		}
	}
}

/*
 * Writers hold the table lock: false, and not taken, when this thread holds
 * it already (a signal handler that interrupted it) or is inside lockdep -
 * the caller then leaves its lock untracked rather than deadlock.
 */
bool rec_table_enter(void);
void rec_table_exit(void);
void rec_table_fork_prepare(void);
void rec_table_fork_parent(void);
void rec_table_fork_child(void);
struct lock_rec *rec_alloc(uintptr_t addr);	/* indexed; NULL when out of memory */
void rec_release(struct lock_rec *r);		/* out of the index, back to the slab */
/* Every record whose lock starts in [from, to), by callback (table lock held). */
void rec_for_range(uintptr_t from, uintptr_t to, void (*fn)(struct lock_rec *r, void *arg), void *arg);
/* ---- the line bitmap (lines.c) ---- */
void rec_mark_line(uintptr_t a);
void rec_clear_line(uintptr_t a);
/* Call fn on every marked line that [from, to) touches; stops when fn returns true. */
bool rec_for_marked_lines(uintptr_t from, uintptr_t to, bool (*fn)(uintptr_t line, void *arg), void *arg);
/* Could [p, p + len) hold a lock?  Lock-free, false nearly always for memory without locks. */
bool rec_range_maybe(uintptr_t p, size_t len);
/* Quick first test for rec_range_maybe: is there any lock in p's region at all? */
bool rec_region_maybe(uintptr_t p);

/* ---- identities (record.c) ---- */

/*
 * The live record for lock as this kind, built or rebuilt as needed; NULL:
 * the lock goes unannotated (out of memory, a signal handler interrupting
 * the table's writer, a destroyed lock - reported).  ip names the
 * acquisition or unlock for reports.
 */
struct lock_rec *rec_lookup_slow(void *lock, enum rec_kind kind, unsigned long ip);
/* pthread_*_init succeeded: a new lock at lock (init_site: its caller). */
void rec_init(void *lock, enum rec_kind kind, unsigned long init_site, bool pshared);
/* About to destroy: the record if live, "held lock freed!" if the caller holds it (*held: how, or -1). */
struct lock_rec *rec_destroy_begin(void *lock, enum rec_kind kind, int *held);
/* Destroyed with result ret: the identity dies on success, a refused destroy keeps the hold. */
void rec_destroy_end(struct lock_rec *r, void *lock, int held, int ret, unsigned long ip);
/* A record for the key of an init call site (site mode); NULL if the table is full. */
struct site_rec *site_get(unsigned long ip, enum rec_kind kind);
/*
 * The record of a condition variable (made on its first wait): owner is the
 * mutex its waiters use, depth how many wait now.  Table lock held.
 */
struct lock_rec *cond_rec(void *cond);
/*
 * The record of the wait object at addr as kind (made if need be, with its
 * own class key; another identity there ends).  Table lock held.
 */
struct lock_rec *wait_rec_build(uintptr_t addr, enum rec_kind kind, unsigned long site);
/* The wait object at addr ends (destroyed, initialised again, joined, closed): its class dies.  Table lock held. */
void wait_rec_end(uintptr_t addr, enum rec_kind kind);
/*
 * The memory [p, p + len) is being freed: its locks die ("held lock freed!"
 * if one is locked).  how: MEM_FREE for free() itself (not realloc), whose
 * locks a later use is reported for; MEM_GONE when the memory is unmapped
 * already, and not to be read.
 */
/* A freed lock's marker, read where no sanitizer sees it (free.c). */
uint64_t preload_peek_freed(const _Atomic uint64_t *p);
/* Another thread's held-lock depth, a snapshot read where no sanitizer sees it (free.c). */
unsigned int preload_peek_depth(const unsigned int *p);
#define MEM_FREE	1u
#define MEM_GONE	2u
void rec_memory_freed(uintptr_t p, size_t len, unsigned long ip, unsigned int how);
/* Is r still the identity of the lock at lock (its marker in place, where it has one)? */
bool rec_is_marked(const struct lock_rec *r, void *lock);

/* ---- lock statistics (stat.c, --stat) ---- */
extern bool preload_stat;
void preload_stat_setup(void);
/* A new identity gets figures of its own; an ending one adds its figures to its kind's (table lock). */
void preload_stat_attach(struct lock_rec *r);
void preload_stat_detach(struct lock_rec *r);
void preload_stat_free(struct lock_rec *r);
/* Take lock, counting it for r, and timing the wait if try_fn says it is taken. */
int preload_stat_lock(struct lock_rec *r, void *lock, int (*try_fn)(void *), int (*lock_fn)(void *),
		      bool exclusive, unsigned long ip);
/* lock was taken without a wait (a try or timed lock, or one that found it free): counted. */
void preload_stat_acquired(struct lock_rec *r, void *lock, bool exclusive);
/* About to release lock: the end of a timed hold. */
void preload_stat_unlock(void *lock);
/* Holds this thread is timing: 0 nearly always, so an unlock tests it inline. */
extern PRELOAD_TLS unsigned int preload_stat_timing;

static ALWAYS_INLINE void preload_stat_release(void *lock)
{
	if (unlikely(preload_stat) && unlikely(preload_stat_timing))
		preload_stat_unlock(lock);
}
/* The table at exit, written with text() (and each line of JSON with json(), if any). */
void preload_stat_print(void (*text)(const char *), void (*json)(const char *));

/* ---- annotations (annotate.c, <uirq/lockdep-annotate.h>) ---- */
/* A new identity for the lock at r's address: what was annotated for it before (table lock held). */
void annotate_apply_pending(struct lock_rec *r);

/* ---- waits (waits.c): a wait object is a class in the dependency graph ---- */
#define WAITS_TIMED	1u	/* waited on with a timeout */
#define WAITS_UNTIMED	2u	/* waited on without one */
/*
 * The calling thread waits on w's object (op: the call's name, ip: its
 * site): the locks it holds now lead to it.  Before the real wait.
 */
void wait_edge(struct lock_rec *w, const char *op, bool timed, unsigned long ip);
/* The wait returned: the thread's producer context starts again (inline: one store). */
static inline void wait_done(void)
{
	struct lockdep_task *t = &lockdep_current;

	t->wlog_start = t->wlog_n;
}
/* Does the calling thread hold a lock, or has it taken one since its last wait? */
static inline bool wait_holding(void)
{
	return lockdep_current.depth != 0;
}
static inline bool wait_window(void)
{
	return lockdep_current.wlog_n != lockdep_current.wlog_start;
}
/*
 * A lock attempt failed (timed out): the thread got on without the lock, so
 * what it produces next does not depend on it.  Its log entry goes.
 */
static inline void wait_unlog(const struct lock_rec *r)
{
	struct lockdep_task *t = &lockdep_current;

	if (t->wlog_n != t->wlog_start &&
	    t->wlog[(t->wlog_n - 1) % WLOG_SIZE].class == __atomic_load_n(&r->map.class_cache, __ATOMIC_RELAXED))
		t->wlog_n--;
}
/*
 * The calling thread produces w's event (op, at ip): w depends on the locks
 * taken since its last wait - but for those it still holds when skip_held
 * (a barrier's party waits on what it produces: a lock it holds there is
 * its wait's, not its arrival's).
 */
void wait_produce(struct lock_rec *w, const char *op, bool skip_held, unsigned long ip);
/* pthread_join & co returned: th ended (op at ip; timed: a timed join). */
void wait_joined(pthread_t th, const char *op, bool timed, unsigned long ip);
/* th was detached or joined without a wait: what its exit left is dropped. */
void wait_forget_thread(pthread_t th);
/* The record of the wait object at addr, made if need be; NULL: untracked. */
struct lock_rec *wait_rec_get(uintptr_t addr, enum rec_kind kind, unsigned long ip);
/* A person's name for a wait object's record; false: not a wait object. */
bool wait_rec_name(const struct lock_rec *r, char *buf, size_t len);
/* The record behind an instance class (report.c), or NULL. */
const struct lock_rec *preload_class_rec(const struct lock_class *class);
/* The engine's hooks (report.c installs them). */
bool wait_circular(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next,
		   const struct bfs_path *path);
void wait_thread_exit(struct lockdep_task *t);
void wait_fork_prepare(void);
void wait_fork_parent(void);
void wait_fork_child(void);

/* ---- reports only the preload library makes (report.c) ---- */
void preload_report_destroyed_use(struct lock_rec *r, void *lock, unsigned long ip);
/* A lock used in memory freed since, and not initialised again (heap-use-after-free). */
void preload_report_freed_use(struct lock_rec *r, void *lock, unsigned long ip);
/* pthread_cond_*wait on cond with mutex m (record r) that the caller does not hold. */
void preload_report_cond_unheld(void *cond, struct lock_rec *r, void *m, unsigned long ip);
/* ... with mutex m while others wait with other (cond's record c: where they began). */
void preload_report_cond_two(void *cond, const struct lock_rec *c, void *m, void *other, unsigned long ip);
/* r's lock is being destroyed (len 0) or its memory freed: report if another thread holds it. */
void preload_check_held_elsewhere(struct lock_rec *r, void *lock, void *mem, size_t len);
/*
 * REC_FORK_HELD (a forked child): an acquisition of r's lock that may block
 * (exclusive, or any for a lock held for writing); reported if the lock is
 * still held by the thread that did not fork.  The flag goes either way.
 */
void preload_fork_held_check(struct lock_rec *r, void *lock, bool exclusive, unsigned long ip);
/* Before fork(): the name of thread tid, for the child's reports (0: forget all). */
void preload_fork_note_thread(int tid);
/* Where the program called fork(), and the parent's pid (a forked child's report names both). */
extern unsigned long preload_fork_site;
extern long preload_fork_parent;
/* lockdep_out_of_memory() from outside the engine. */
void preload_out_of_memory(const char *what);

/*
 * The live record for lock (of this kind, marker matching where there is
 * one), whatever its type; NULL only from rec_lookup_slow.
 */
static ALWAYS_INLINE struct lock_rec *rec_get(void *lock, enum rec_kind kind, unsigned long ip)
{
	struct lock_rec *r = rec_index_find((uintptr_t)lock);

	if (likely(r != NULL && atomic_load_explicit(&r->state, memory_order_acquire) == REC_LIVE &&
		   r->kind == kind && ((r->flags & REC_NO_MARKER) || rec_marked(r, lock, kind))))
		return r;
	return rec_lookup_slow(lock, kind, ip);
}

/*
 * The record of mutex m if it has REC_TAG(REC_MUTEX) and its marker; NULL:
 * anything else, for the complete path (rec_get and the mutex type's own
 * handling).  The record's address is read from m itself (mutex_aux()):
 * the line the real call is about to take, so one dependent load, where
 * the index costs a multiply and two (the table, its slot) before the
 * record.  That word is the program's memory, so it is followed only when
 * it lies in the record region, which is mapped whole; r->addr == m then
 * says it is m's record (a copy of a mutex carries the original's).
 */
static ALWAYS_INLINE struct lock_rec *rec_probe_mutex(pthread_mutex_t *m)
{
#ifdef __GLIBC__
	struct lock_rec *r = (struct lock_rec *)(uintptr_t)atomic_load_explicit(mutex_aux(m), memory_order_relaxed);

	/* not there: a record outside the region, or a word the program overwrote */
	if (unlikely(!rec_in_region((uintptr_t)r) ||
		     atomic_load_explicit(&r->addr, memory_order_relaxed) != (uintptr_t)m) &&
	    !(r = rec_index_find((uintptr_t)m)))
		return NULL;
	return likely(rec_tag(r) == REC_TAG(REC_MUTEX) && rec_marked(r, m, REC_MUTEX)) ? r : NULL;
#else
	(void)m;
	return NULL;		/* no marker: the complete path */
#endif
}

/*
 * Annotate an acquisition of r's lock (the caller checked preload_active()):
 * the engine's fast path, inline.  Every map this module gives the engine
 * is the map of a lock_rec.
 */
static ALWAYS_INLINE void preload_acquire(struct lock_rec *r, unsigned int subclass, int trylock, int read,
					  unsigned long ip)
{
	if (subclass)
		r->had_subclass = true;		/* its class goes when the lock does (record.c) */
	lockdep_acquire(&r->map, subclass, trylock, read, ip, NULL, 0);
}

/*
 * The complete unlock annotation of r's lock.  One this thread does not hold
 * is a bad unlock (lockdep reports it); the real lock's own state is not
 * to be trusted after it (an rwlock's reader count went below zero).
 */
static inline void preload_release(struct lock_rec *r, unsigned long ip)
{
	if (!uirq_lockdep_is_held(&r->map))
		r->unbalanced = true;
	uirq_lock_release(&r->map, ip, NULL, 0);
}

/* The record behind a held lock's map (every map this module gives the engine is a record's). */
static inline struct lock_rec *hlock_rec(const struct held_lock *h)
{
	return container_of(hlock_map(h), struct lock_rec, map);
}

/* The highest of this thread's held entries below below whose record is lock's, or -1. */
static inline int rec_held_below(const struct lockdep_task *t, unsigned int below, const void *lock)
{
	for (unsigned int i = below; i-- > 0;)
		if (atomic_load_explicit(&hlock_rec(held_lock_at(t, i))->addr, memory_order_relaxed) ==
		    (uintptr_t)lock)
			return (int)i;
	return -1;
}

/* Is the held lock r the lock at lock, of this kind, one the fast paths handle? */
static ALWAYS_INLINE bool rec_releases(const struct lock_rec *r, void *lock, enum rec_kind kind)
{
	return atomic_load_explicit(&r->addr, memory_order_relaxed) == (uintptr_t)lock &&
	       (rec_tag(r) & REC_TAG_UNLOCK) == REC_TAG(kind);
}

/*
 * The unlock fast path, without hashing lock: if the top of this thread's
 * held-lock stack is lock (a live record of this kind handled by the fast
 * paths: not a recursive or error-checking mutex, whose owner and depth the
 * slow path keeps), pop it and return true.  Records are never unmapped, so
 * the top entry's record is read safely, and r->addr == lock means it is
 * the record of this lock.  Otherwise false: the caller's slow path tries
 * rec_release_below(), then the ordinary path (rec_get, then
 * uirq_lock_release).
 */
static ALWAYS_INLINE bool preload_release_top(void *lock, enum rec_kind kind)
{
	struct lockdep_task *t = &lockdep_current;
	uint64_t depth_recursion = t->depth_recursion;
	unsigned int depth = (unsigned int)depth_recursion;
	const struct lock_rec *r;

	/* recursion 0 and depth at least 1, in one compare: 1 <= depth_recursion < 2^32 */
	if (unlikely(depth_recursion - 1 >= UINT32_MAX))
		return false;
	r = hlock_rec(&t->stack[depth]);
	if (likely(rec_releases(r, lock, kind))) {
		/* one store: see lockdep_release_top() */
		atomic_signal_fence(memory_order_seq_cst);
		t->depth = depth - 1;
		return true;
	}
	return false;
}

/*
 * The same for a lock held below the top (hand-over-hand locking, or locks
 * released in the order taken): found on the stack by its record's address
 * too, instead of hashing lock to its record, asking lockdep whether it is
 * held and scanning the stack again.  Out of line: the callers' slow paths
 * try it first.
 */
bool rec_release_below(void *lock, enum rec_kind kind);
/* The unlock annotation the top did not take: below the top, else the ordinary path (rwlocks, spinlocks). */
void rec_unlock_slow(void *lock, enum rec_kind kind, unsigned long ip);

/* The site record whose key this is, or NULL (site.c's keys live in one array). */
struct site_rec *site_of_key(const void *key);

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

/* Write a message to stderr without stdio (safe in any context); output.c. */
void preload_msg(const char *s);

/* ---- output (output.c) ---- */
extern int preload_exit_code;		/* UIRQ_LOCKDEP_EXIT_CODE, or -1 */
extern unsigned long preload_reports_before;	/* inherited from the parent process */
/* A forked child: what the parent had reported, which the child's summary leaves out. */
void preload_child_stats_base(void);
void preload_stderr_setup(void);	/* keeps a copy of descriptor 2, before main() */
void preload_output_setup(const char *log_path, const char *json_path);
unsigned long preload_reports_now(void);

#pragma GCC visibility pop
#endif

/* SPDX-License-Identifier: MIT */
/*
 * lockdep engine internals, shared by the engine's files only.
 *
 * Split by concern as in the kernel: lockdep.c (held-lock stacks, acquire and
 * release), lockdep_classes.c (classes and keys), lockdep_graph.c
 * (dependencies, breadth-first search, circular checks), lockdep_irq.c (irq
 * usage states), lockdep_chains.c (lock-chain cache), lockdep_report.c
 * (report buffer and printing), lockdep_stacktrace.c (backtraces).
 *
 * Locking: every table is changed under the graph lock (a futex lock, never
 * a pthread lock: the preload library interposes those).  Fields the fast
 * path reads without the graph lock are C11 atomics.
 */
#ifndef UIRQ_LOCKDEP_INTERNAL_H
#define UIRQ_LOCKDEP_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uirq/config.h"
#include "uirq/context.h"
#include "uirq/lockdep.h"
#include "../lib/lib.h"

/* Nothing below leaves the library: direct calls, no PLT on the fast path. */
#pragma GCC visibility push(hidden)

/* initial-exec: the preload library links the engine and is loaded at start-up. */
#define LOCKDEP_TLS __thread __attribute__((tls_model("initial-exec")))

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#else
#define cpu_relax()	atomic_signal_fence(memory_order_seq_cst)
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* ---- what the preload library adds to reports (NULL in libuirq) ---- */

struct lock_class;
struct lockdep_task;
struct held_lock;
struct bfs_path;
struct lockdep_lock_info {
	/* The thread holding the lock behind map, as the real lock says: TID, -1 held (owner unknown), 0 free. */
	long (*holder)(const struct uirq_lockdep_map *map);
	/* The address of the lock behind map (the program's pthread lock, not our record of it). */
	uintptr_t (*instance)(const struct uirq_lockdep_map *map);
	/* A person's name for class into buf ("&stats_lock", "mutex@0x.. initialised at f.c:8 in f"); false: none. */
	bool (*class_name)(const struct lock_class *class, char *buf, size_t len);
	/* The same for the lock behind map, which has no class yet. */
	bool (*map_name)(const struct uirq_lockdep_map *map, char *buf, size_t len);
	/*
	 * What the reports about class are deduplicated by (report_begin2):
	 * its lock, or its kind of lock; 0: the class.
	 */
	uint64_t (*class_sig)(const struct lock_class *class, bool instance);
	/*
	 * A cycle through a wait (the preload library's waits.c): prints the
	 * report and returns true when the cycle has a wait or an event in it.
	 */
	bool (*circular)(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next,
			 const struct bfs_path *path);
	/* The calling thread is ending (its thread-exit destructor). */
	void (*thread_exit)(struct lockdep_task *t);
};
extern const struct lockdep_lock_info *lockdep_lock_info;

/* ---- stack traces (lockdep_stacktrace.c; built with lockdep on or off) ---- */

#define LOCKDEP_TRACE_FRAMES	8

struct lockdep_trace {
	unsigned int nr;
	unsigned long frames[LOCKDEP_TRACE_FRAMES];
};

/* Where something was first seen: file:line when the caller gave it, else ip and a trace. */
struct lockdep_site {
	const char *file;
	int line;
	unsigned long ip;
};

void lockdep_stacktrace_init(void);
/* Capture the caller's stack, dropping the innermost skip frames. */
void lockdep_save_trace(struct lockdep_trace *trace, int skip);

/* ---- the machine-readable side of a report (lockdep_json.c) ---- */

#define REPORT_TEXT_MAX		32768
#define REPORT_FACTS_MAX	256

/* What suppressions match on: every lock name, function and source file a report mentions. */
enum report_fact_kind { FACT_LOCK, FACT_FUNCTION, FACT_FILE };
struct report_facts {
	unsigned int nr;
	struct {
		enum report_fact_kind kind;
		const char *text;
	} fact[REPORT_FACTS_MAX];
};

void rj_reset(void);
void rj_thread(const char *name);
/* A lock in the report: role "acquiring", "holding", "freed", "held"...; site may be NULL. */
void rj_lock(const char *role, const char *name, uintptr_t instance, const struct lockdep_site *site);
void rj_dep(const char *lock, const struct lockdep_site *site, const char *holding,
	    const struct lockdep_site *holding_site);
/*
 * A chain element of another type ("wait", "event"): to (under to_key) at
 * site, from (under from_key) at from_site (under from_site_key); timed -1
 * leaves "timed" out.
 */
void rj_dep_typed(const char *type, const char *op, const char *to_key, const char *to,
		  const struct lockdep_site *site, const char *from_key, const char *from,
		  const char *from_site_key, const struct lockdep_site *from_site, int timed);
void rj_frame(unsigned long ip);
const struct report_facts *rj_facts(void);
/* s as a JSON string into buf, quotes and all: its length, or 0 if it did not fit. */
size_t json_quote(char *buf, size_t len, const char *s);
/* The whole report as one line of JSON (valid until the next report). */
const char *rj_finish(const char *kind, const char *headline, const char *text);

/* ---- suppressions (lockdep_suppress.c) ---- */

/* Add the rules in text (the --suppress file's format); -1 with *line set at a bad line. */
int lockdep_suppress_parse(const char *text, int *line, char *why, size_t why_len);
/* Does a rule cover this report? */
bool lockdep_suppressed(enum uirq_lockdep_report_kind kind, const struct report_facts *facts);

/* ---- lockdep's own locks (lockdep_report.c) ---- */

/* A futex lock: lockdep and the preload library never use the pthread locks they watch. */
struct raw_futex {
	_Atomic int word;	/* 0 free, 1 taken, 2 contended */
};
void raw_futex_lock(struct raw_futex *l);
bool raw_futex_trylock(struct raw_futex *l);
void raw_futex_unlock(struct raw_futex *l);

/* The graph lock: every table of the engine changes under it. */

void graph_lock(void);
bool graph_trylock(void);
void graph_unlock(void);
/* fork(): hold the graph lock across it so the child never inherits it taken. */
void graph_lock_atfork_child(void);

/* ---- reports (lockdep_report.c) ---- */

/*
 * Start a report unless it is one made already (caller holds the graph
 * lock): sig names the problem by its locks, type_sig by the kinds of lock
 * (lockdep_class_sig); with the preload library's class per lock, a report
 * is made only if both are new - the same locks met again, or the same
 * kinds of lock met again on the same code path (the same bug in other
 * objects of one type), are the same problem.
 */
bool report_begin2(enum uirq_lockdep_report_kind kind, uint64_t sig, uint64_t type_sig);
static inline bool report_begin(enum uirq_lockdep_report_kind kind, uint64_t sig)
{
	return report_begin2(kind, sig, sig);
}
/* The kernel's headline; framed by '=' and '-' lines unless plain. */
void report_headline(bool framed, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rpt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rpt_task(void);
/* "NAME/TID" of the calling thread, as reports print it. */
void task_name(char *buf, size_t len);
void rpt_site(const struct lockdep_site *site);
/* A trace under a site already printed (site_ip, 0 for none): the frames that follow it. */
void rpt_trace(const struct lockdep_trace *trace, const char *indent, unsigned long site_ip);
void rpt_stack_backtrace(const char *title);
/* Deliver the finished report to the handler or the log (lib/log.c); abort() if fatal. */
void report_end(void);
/* Format something that is not a report (print_held_locks), then write it to the log. */
void report_begin_plain(void);
void report_write_log(void);
uint64_t report_sig(uint64_t a, uint64_t b, uint64_t c, uint64_t d);
uint64_t report_sig_str(const char *s);
void report_set_handler(uirq_lockdep_report_fn fn, void *arg);
void report_set_fatal(bool on);
void report_stats(struct uirq_lockdep_stats *stats);
/* Tiny per-thread guard used when the engine proper is compiled out. */
bool report_enter(void);
void report_exit(void);

#if UIRQ_CONFIG_LOCKDEP

/* ---- memory (lockdep_mem.c) ---- */

/*
 * No fixed limits: classes, dependencies, held-lock stacks, the chain cache
 * and the hash tables grow with the program.  Memory comes straight from
 * mmap, never from malloc: the preload library interposes free(), which
 * calls in here, and a report may be made from inside the allocator.
 */
void *lockdep_alloc(size_t size);	/* zeroed; NULL when out of memory */
void lockdep_free(void *p, size_t size);
/*
 * A full array v of *size elements of elem bytes, used of them in use,
 * doubled (first elements when *size is 0): the new array, the used ones
 * copied, the old one freed, *size updated; NULL when out of memory (v
 * kept as it was).
 */
void *lockdep_grow_array(void *v, size_t *size, size_t used, size_t elem, size_t first);
/*
 * A lock-free table replaced by a bigger one: its memory goes back to the
 * system but stays mapped, reading as zeroes - an empty table - to a reader
 * still in it, who then misses and looks again under the lock.
 */
void lockdep_retire(void *p, size_t size);

/*
 * Fixed-size objects carved from chunks that are never given back, so that a
 * lock-free reader holding a pointer to a freed object (a class) still reads
 * memory of that type; a freed object keeps its fields but the one at link.
 */
struct lockdep_slab {
	size_t size;		/* object size */
	size_t link;		/* offset of the free-list pointer in a freed object */
	bool no_clear;		/* lock-free readers may be on a freed object: the user sets every field */
	void *free_list;
	char *next, *end;	/* what is left of the current chunk */
};
#define LOCKDEP_SLAB(type, member) { .size = sizeof(type), .link = offsetof(type, member) }

/* A new object (zeroed unless no_clear, then as it was freed), or NULL; its owner's lock held. */
void *slab_alloc(struct lockdep_slab *s);
void slab_free(struct lockdep_slab *s, void *obj);	/* its owner's lock held */

/*
 * Out of memory: the validator turns itself off - a failure, never silent:
 * reported at once (a report, so --exit-code counts it) and again at exit.
 * Graph lock held.
 */
void lockdep_out_of_memory(const char *what);
/* What stopped the validator, or NULL while it runs (or was switched off on purpose). */
const char *lockdep_stopped_reason(void);

/* ---- usage states (hard-irq only: no softirq exists here) ---- */

enum lock_usage_bit {
	LOCK_USED_IN_HARDIRQ,
	LOCK_USED_IN_HARDIRQ_READ,
	LOCK_ENABLED_HARDIRQ,
	LOCK_ENABLED_HARDIRQ_READ,
	LOCK_USED,
	LOCK_USED_READ,
	LOCK_USAGE_STATES
};
#define LOCK_USAGE_READ_MASK	1
#define LOCK_USAGE_DIR_MASK	2
#define LOCKF(bit)		(1u << (bit))
#define LOCKF_USED_IN_IRQ_ALL	(LOCKF(LOCK_USED_IN_HARDIRQ) | LOCKF(LOCK_USED_IN_HARDIRQ_READ))
#define LOCKF_ENABLED_IRQ_ALL	(LOCKF(LOCK_ENABLED_HARDIRQ) | LOCKF(LOCK_ENABLED_HARDIRQ_READ))
#define LOCKF_IRQ		(LOCKF(LOCK_USED_IN_HARDIRQ) | LOCKF(LOCK_ENABLED_HARDIRQ))
#define LOCKF_IRQ_READ		(LOCKF(LOCK_USED_IN_HARDIRQ_READ) | LOCKF(LOCK_ENABLED_HARDIRQ_READ))

/* ---- dependency types, bit0: prev is exclusive, bit1: next is non-recursive ---- */

#define DEP_SR_BIT	0
#define DEP_ER_BIT	1
#define DEP_SN_BIT	2
#define DEP_EN_BIT	3
#define DEP_SR_MASK	(1u << DEP_SR_BIT)
#define DEP_ER_MASK	(1u << DEP_ER_BIT)
#define DEP_SN_MASK	(1u << DEP_SN_BIT)
#define DEP_EN_MASK	(1u << DEP_EN_BIT)

/* ---- classes ---- */

struct lock_dep;

struct lock_class {
	_Atomic uintptr_t key;		/* key address + subclass; 0: free */
	_Atomic uint64_t id;		/* never reused: stale chains cannot match (lock_class_chain_id()) */
	_Atomic unsigned int usage_mask;
	uint8_t subclass;		/* < UIRQ_MAX_LOCKDEP_SUBCLASSES */
	struct lock_class *_Atomic hash_next;
	struct lock_dep *after_head;	/* dependencies this -> X; the slab's link once freed */
	struct lock_dep *before_head;	/* dependencies X -> this */
#ifndef UIRQ_LOCKDEP_PRELOAD
	/* where each irq usage began: allocated with the first one (most classes never have any) */
	struct lockdep_site *usage_site;
#endif
	/*
	 * The last search that reached it (lockdep_new_search() << 2) and two
	 * bits of how: the breadth-first search's two visits, or the order
	 * search's two sides.  Searches run one at a time, under the graph lock.
	 */
	uint64_t mark;
	uint64_t order;			/* rank in the topological order (lockdep_order.c) */
	/*
	 * The map's name, as the kernel keeps it: not a copy (a class per lock
	 * in the preload library, where it is only the fallback of the
	 * library's own names), so it must live as long as the class.
	 */
	const char *name;
};

/*
 * Pointers to the program's memory that lockdep keeps - a class key that is
 * the address of a key-less map, a held lock's map - are stored inverted.
 * ~p is a non-canonical address, so LeakSanitizer's scan of lockdep's tables
 * and of the (never cleared) held-lock stacks cannot mistake it for a
 * reference and keep a leaked object that contains a lock "reachable".
 */
static inline uintptr_t lockdep_hide_ptr(const void *p)
{
	return ~(uintptr_t)p;
}

static inline void *lockdep_unhide_ptr(uintptr_t v)
{
	return (void *)~v;
}

/* The class key of a key address (or a map's own address) and a subclass, hidden. */
static inline uintptr_t class_key_of(const void *k, unsigned int subclass)
{
	return lockdep_hide_ptr((const char *)k + subclass);
}

/* The class key of a map: its key (or its own address) plus the subclass. */
static inline uintptr_t map_class_key(const struct uirq_lockdep_map *map, unsigned int subclass)
{
	const void *k = map->key ? (const void *)map->key : (const void *)map;

	return class_key_of(k, subclass);
}

/* Lock-free lookup; NULL may be a false miss (the caller then registers under the lock). */
struct lock_class *look_up_lock_class(uintptr_t key);
/* Find or create the class (takes the graph lock); NULL when out of classes. */
struct lock_class *register_lock_class(const struct uirq_lockdep_map *map, unsigned int subclass);
void classes_fork_prepare(void);
void classes_fork_parent(void);
void classes_fork_child(void);
/* Free the zapped classes' dependencies and slots: the graph lock's first work, each time. */
void drain_zombie_classes(void);
/* Call fn on every class, zapped ones still in the graph included, until it returns false (graph lock held). */
bool for_each_lock_class(bool (*fn)(struct lock_class *c, void *data), void *data);
/* uirq_lockdep_unregister_key() for a key only ever used with subclass 0: one class to look for. */
void lockdep_unregister_key_subclass0(struct uirq_lock_class_key *key);
unsigned long nr_lock_classes(void);
unsigned long nr_lock_classes_made(void);

/* ---- held locks and the per-thread state ---- */

/* held_lock.flags: the four flags packed in one byte; the low four bits go into the chain key. */
#define HL_READ_MASK		3u	/* 0 write, 1 read, 2 recursive read */
#define HL_TRYLOCK		4u
#define HL_IRQ_CONTEXT		8u
#define HL_CHAIN_MASK		15u
#define HL_HARDIRQS_OFF		16u
#define HL_FLAGS_MAX		32u

struct held_lock {
	uint64_t chain_key;		/* chain key of this lock and every lock below it */
	struct lock_class *class;
	uintptr_t instance;		/* the map, hidden (lockdep_hide_ptr) */
	struct lockdep_site site;
	union {
		uint8_t flags;		/* HL_* */
		struct {
			uint8_t read : 2;
			uint8_t trylock : 1;
			uint8_t irq_context : 1;
			uint8_t hardirqs_off : 1;
		};
	};
} __attribute__((aligned(64)));		/* one cache line each, indexed by a shift */

static inline struct uirq_lockdep_map *hlock_map(const struct held_lock *h)
{
	return lockdep_unhide_ptr(h->instance);
}

#ifdef UIRQ_LOCKDEP_PRELOAD
/*
 * The locks a thread took since its last wait, for the preload library's
 * waits (lockdep/preload/waits.c): an event a thread produces (a signal, a
 * post, a write) depends on them.  A ring: the newest WLOG_SIZE are kept.
 */
#define WLOG_SIZE	32
struct wlog_entry {
	struct lock_class *class;
	uint64_t chain;			/* class->chain_id ^ read: stale once the class is recycled */
	unsigned long ip;
};
#endif

/* Held locks a thread has room for before its stack moves to the heap (the kernel's MAX_LOCK_DEPTH). */
#define LOCKDEP_INLINE_DEPTH	48

struct lockdep_task {
	/*
	 * depth and recursion share one word so that the fast path's last
	 * store publishes the pushed lock and leaves lockdep at once.
	 */
	union {
		struct {
			unsigned int depth;
			unsigned int recursion;	/* inside lockdep: nested calls are skipped */
		};
		uint64_t depth_recursion;
	};
	/*
	 * The deepest stack this thread had (never above cap).  0 until the
	 * first acquisition registers the thread, so that one compare sends
	 * the first acquisition, a new maximum and a full stack to the slow
	 * path.
	 */
	unsigned int max_depth;
	unsigned int cap;		/* held locks the stack has room for */
	bool registered;		/* stack set, thread-exit destructor armed */
	int tid;			/* the kernel's thread id, from registration */
	/* every registered thread, linked until its exit destructor (lockdep_fork_orphans) */
	struct lockdep_task *task_next, **task_prevp;
	/* Chain hits not yet in the global counter: hits_base - hits_left (batched). */
	long hits_left;
	long hits_base;
#ifdef UIRQ_LOCKDEP_PRELOAD
	/* entries [wlog_start, wlog_n) of wlog (mod WLOG_SIZE): taken since the last wait */
	unsigned int wlog_n, wlog_start;
	struct wlog_entry wlog[WLOG_SIZE];
#endif
	/*
	 * stack[0] is a sentinel whose chain key stays 0 (the key of an empty
	 * stack); the held locks are stack[1..depth], so the key below held
	 * lock i is always stack[i].chain_key and a lock is pushed and popped
	 * by one store to depth.  It points into inline_stack until a thread
	 * holds more than LOCKDEP_INLINE_DEPTH locks; then it moves to memory
	 * that doubles as needed.
	 */
	struct held_lock *stack;
	struct held_lock inline_stack[LOCKDEP_INLINE_DEPTH + 1];
};

extern LOCKDEP_TLS struct lockdep_task lockdep_current;

/*
 * In a forked child, from an atfork child handler registered after
 * lockdep's own: the tasks of the threads that did not fork, as they were at
 * fork() (their held locks are still held, by nobody), each passed to fn
 * once; the list is empty afterwards.  Their memory is gone once the child
 * starts a thread: only here may it be read.
 */
/* fn on every registered thread's task, which cannot end meanwhile (fn must not lock). */
void lockdep_for_each_task(void (*fn)(const struct lockdep_task *t, void *arg), void *arg);
void lockdep_fork_orphans(void (*fn)(const struct lockdep_task *t, void *arg), void *arg);

/*
 * The calling thread's task as a plain pointer, computed once (thread
 * pointer plus offset): the fast paths then address everything from one
 * register instead of mixing %fs-relative and materialised addresses.
 */
static inline __attribute__((always_inline)) struct lockdep_task *lockdep_task(void)
{
	struct lockdep_task *t = &lockdep_current;

	__asm__("" : "+r"(t));
	return t;
}

/* Held lock i, 0 being the bottom of the stack. */
static inline struct held_lock *held_lock_at(const struct lockdep_task *t, unsigned int i)
{
	return &t->stack[i + 1];
}

/* The chain key of the whole held-lock stack. */
static inline uint64_t curr_chain_key(const struct lockdep_task *t)
{
	return t->stack[t->depth].chain_key;
}

#ifdef UIRQ_LOCKDEP_PRELOAD
/* The preload module exports nothing: its hidden alias of the flag is read without the GOT. */
extern int lockdep_debug_locks;
#define LOCKDEP_DEBUG_LOCKS	lockdep_debug_locks
#else
/* libuirq: a program may read the flag itself (the assert macros), maybe through a copy relocation. */
#define LOCKDEP_DEBUG_LOCKS	uirq_debug_locks
#endif

static inline bool debug_locks_on(void)
{
	return __atomic_load_n(&LOCKDEP_DEBUG_LOCKS, __ATOMIC_RELAXED) != 0;
}

/* Turn the validator off; true if this call did it. */
bool debug_locks_off(void);

static inline bool lockdep_recursion_enter(struct lockdep_task *t)
{
	if (t->recursion)
		return false;
	t->recursion++;
	atomic_signal_fence(memory_order_seq_cst);
	return true;
}

static inline void lockdep_recursion_exit(struct lockdep_task *t)
{
	atomic_signal_fence(memory_order_seq_cst);
	t->recursion--;
}

void lockdep_init_once(void);
/*
 * The memory [mem, mem + len) that holds the lock behind map is being freed:
 * if this thread holds that lock, report "held lock freed!" and forget it.
 * Returns how it was held (its read value), or -1 if it was not.
 */
int lockdep_map_freed(const struct uirq_lockdep_map *map, const void *mem, size_t len);
/* Take held lock i out of t's stack without a report (a forked child does not own it). */
void lockdep_drop_held(struct lockdep_task *t, unsigned int i);
void rpt_held_locks(const struct lockdep_task *t);
void rpt_lock_name(const struct lock_class *class);	/* "(name/1)" */
void rpt_lock_name_bare(const struct lock_class *class);	/* "name/1", in scenarios */
void rpt_class(const struct lock_class *class);		/* name with usage chars */
/* "0x55.. (name){..}, at: site"; role names it in the JSON ("acquiring", "holding", "held"...) */
void rpt_held_lock(const struct held_lock *hlock, const char *role);
#define LOCKDEP_NAME_MAX	192
/*
 * What makes two reports about a class one problem: the class itself, or
 * for the preload library's one-lock classes, the lock (instance: the same
 * lock even if initialised again) or the kind of lock (lockdep_lock_info).
 */
uint64_t lockdep_class_sig(const struct lock_class *class, bool instance);
/* A place in the code for deduplication: its file and line where known, else the address. */
uint64_t lockdep_code_sig(unsigned long ip);
/* A class as reports name it: the preload library's names for its locks, else the map's name, "/subclass". */
void lockdep_class_name(const struct lock_class *class, char *buf, size_t len);

/* ---- chain cache (lockdep_chains.c) ---- */

/*
 * The chain key after adding one held lock on top of prev: the 128-bit
 * product of prev and the lock's (class id, flags), folded to 64 bits (the
 * wyhash/"mum" mixer).  Order-sensitive (prev and the lock enter through
 * different seeds), every output bit depends on every input bit, and one
 * multiply long.  The class id is never reused, so a chain of a zapped class
 * can never match again.
 */
#define CHAIN_KEY_SEED	0x243f6a8885a308d3ull	/* digits of pi */
#define CHAIN_ID_SEED	0x13198a2e03707344ull

/* The class's part of the chain key: its id, with the low four bits left for the flags. */
static inline uint64_t class_chain_id(uint64_t id)
{
	return (id << 4) ^ CHAIN_ID_SEED;
}

/* The class's part of a chain key, from its id (which a recycled class changes). */
static inline uint64_t lock_class_chain_id(const struct lock_class *c)
{
	return class_chain_id(atomic_load_explicit(&c->id, memory_order_relaxed));
}

static inline uint64_t iterate_chain_key(uint64_t prev, uint64_t chain_id, unsigned int flags)
{
	unsigned __int128 m = (unsigned __int128)(prev ^ CHAIN_KEY_SEED) * (chain_id ^ flags);

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}

/*
 * Is held lock i of t still a lock?  Its class may have died under the
 * holder (in the preload library: the lock destroyed, or its memory freed
 * or unmapped, while this thread held it): zapped (key 0), freed, or by now
 * another lock's, with a new id that the entry's chain key was not made
 * with.  Such an entry is nothing anybody can take again: it adds no
 * dependency, matches no lock and names none.  Exact under the graph lock
 * (a class is freed only under it); without, a death under way may be
 * missed.
 */
static inline bool held_lock_live(const struct lockdep_task *t, unsigned int i)
{
	const struct held_lock *h = &t->stack[i + 1];

	return atomic_load_explicit(&h->class->key, memory_order_relaxed) &&
	       iterate_chain_key(t->stack[i].chain_key, lock_class_chain_id(h->class),
				 h->flags & HL_CHAIN_MASK) == h->chain_key;
}

/*
 * The chain cache: an open-addressing set of 64-bit keys, read without any
 * lock.  It grows (the new table is published whole; an old one is never
 * unmapped, a reader may still be in it) and, at its largest, is cleared.
 */
struct chain_cache {
	uint64_t mask;			/* slots - 1 */
	_Atomic uint64_t slots[];
};
extern struct chain_cache *_Atomic chain_cache;

/*
 * Lock-free: a miss (even a false one, in a table being replaced or cleared)
 * only costs a validation.  0 marks a free slot, so the (2^-64) key 0 is
 * never found, nor cached: such a chain is validated every time.  The low
 * bits of a key are as well mixed as the high ones (the fold brings them down).
 */
static inline bool lookup_chain_cache(uint64_t key)
{
	const struct chain_cache *c = atomic_load_explicit(&chain_cache, memory_order_acquire);

	for (uint64_t i = key & c->mask; ; i = (i + 1) & c->mask) {
		uint64_t v = atomic_load_explicit(&c->slots[i], memory_order_relaxed);

		if (!v)
			return false;
		if (v == key)
			return true;
	}
}
void add_chain_cache(uint64_t chain_key);	/* graph lock held */
unsigned long nr_lock_chains(void);

/* ---- dependency graph (lockdep_graph.c) ---- */

struct lock_dep {
	struct lock_class *from, *to;
	struct lock_dep *after_next, *after_prev;	/* in from's after list */
	struct lock_dep *before_next, *before_prev;	/* in to's before list */
	uint8_t dep;				/* DEP_*_MASK bits seen */
	bool back;				/* closes a cycle: left out of the order */
	struct lockdep_site site;		/* where "to" was taken */
	struct lockdep_site prev_site;		/* where "from" had been taken */
	const struct lockdep_trace *trace;	/* a stack at site (when site.file is NULL), or NULL */
};

enum bfs_dir { BFS_FORWARDS, BFS_BACKWARDS };

/* A path found by the search: deps[0] leaves the root, deps[len-1] reaches the match. */
#define MAX_BFS_PATH 64
struct bfs_path {
	struct lock_class *match;
	bool match_xr;
	unsigned int len;
	struct lock_dep *deps[MAX_BFS_PATH];
};

typedef bool (*bfs_match_fn)(struct lock_class *class, bool only_xr, void *data);

/* Breadth-first search along strong paths only; true when match returned true. */
bool lockdep_bfs(struct lock_class *root, bool root_xr, enum bfs_dir dir,
		 bfs_match_fn match, void *data, struct bfs_path *path);
/* Add the dependencies of a newly acquired lock to the ones below it (graph lock held). */
void check_prevs_add(struct lockdep_task *t, struct held_lock *next);
/* Add (and check) the one dependency prev -> next, which need not be t's held locks (graph lock held). */
void lockdep_add_dep(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next);
/* The class of map (made if need be; recursion set, graph lock not held); NULL: none. */
struct lock_class *lockdep_map_class(struct uirq_lockdep_map *map);
/* Report a same-class acquisition (graph lock held); true if it is one (then nothing more is checked). */
bool check_deadlock(struct lockdep_task *t, struct held_lock *next);
void zap_class_deps(struct lock_class *class);
/*
 * The topological order (lockdep_order.c), graph lock held.  May from reach
 * to?  False only when the order proves it cannot; then a following
 * lockdep_order_add() of to -> from reuses the search.
 */
bool lockdep_order_may_reach(struct lock_class *from, struct lock_class *to);
/*
 * A new search's number for the classes' marks (graph lock held): 62 bits,
 * never wraps, so no mark ever needs clearing.
 */
uint64_t lockdep_new_search(void);
/* The first rank of the class with this id. */
uint64_t lockdep_order_first(uint64_t class_id);
/* A dependency was linked into the graph, or is about to be unlinked. */
void lockdep_order_add(struct lock_dep *d);
void lockdep_order_remove(const struct lock_dep *d);
unsigned long nr_lock_deps(void);
unsigned long nr_lock_deps_made(void);
void rpt_dep_path(const struct lock_class *root, const struct bfs_path *path, enum bfs_dir dir);
void rpt_dep_site(const struct lock_dep *d);

/* ---- irq usage states (lockdep_irq.c) ---- */

void mark_usage_slow(struct lockdep_task *t, struct held_lock *hlock, unsigned int needed);

/* The HL_* flags of the context an acquisition is made in now. */
static inline unsigned int lockdep_context_flags(void)
{
#ifdef UIRQ_LOCKDEP_PRELOAD
	/*
	 * The preload library's copy of the context is its own, hidden, and
	 * nothing in it ever disables interrupts: a pthread program has no
	 * hard-irq context.
	 */
	return 0;
#else
	/* hard-irq sections always run with interrupts off */
	return uirq_irqs_disabled() ? HL_HARDIRQS_OFF | (uirq_in_hardirq() ? HL_IRQ_CONTEXT : 0u) : 0u;
#endif
}

/*
 * The class key the fast path expects of map's subclass-0 class.  Every
 * map of the preload library has a key (its record's, its site's or an
 * annotation's): no test of it there (and a key-less map would only miss,
 * to the slow path).
 */
static inline uintptr_t fast_map_class_key(const struct uirq_lockdep_map *map)
{
#ifdef UIRQ_LOCKDEP_PRELOAD
	return class_key_of(map->key, 0);
#else
	return map_class_key(map, 0);
#endif
}

/* The usage bits an acquisition with HL_* flags f implies. */
#ifdef UIRQ_LOCKDEP_PRELOAD
/* No hard-irq context in a pthread program: no irq usage to track, so none is recorded. */
#define LOCKDEP_NEEDED_IRQ(f)	0
#else
#define LOCKDEP_NEEDED_IRQ(f)							\
	(/* a trylock in an irq cannot deadlock against the interrupted code */	\
	 (!((f) & HL_TRYLOCK) && ((f) & HL_IRQ_CONTEXT) ?			\
	  LOCKF(((f) & HL_READ_MASK) ? LOCK_USED_IN_HARDIRQ_READ : LOCK_USED_IN_HARDIRQ) : 0) | \
	 (!((f) & HL_HARDIRQS_OFF) ?						\
	  LOCKF(((f) & HL_READ_MASK) ? LOCK_ENABLED_HARDIRQ_READ : LOCK_ENABLED_HARDIRQ) : 0))
#endif
#define LOCKDEP_NEEDED(f)							\
	(LOCKF(LOCK_USED) | (((f) & HL_READ_MASK) ? LOCKF(LOCK_USED_READ) : 0) | LOCKDEP_NEEDED_IRQ(f))
#define LOCKDEP_NEEDED4(f)	LOCKDEP_NEEDED(f), LOCKDEP_NEEDED((f) + 1),	\
				LOCKDEP_NEEDED((f) + 2), LOCKDEP_NEEDED((f) + 3)
#define LOCKDEP_NEEDED16(f)	LOCKDEP_NEEDED4(f), LOCKDEP_NEEDED4((f) + 4),	\
				LOCKDEP_NEEDED4((f) + 8), LOCKDEP_NEEDED4((f) + 12)

/* As a table, so that the fast path reads it with one load, or none when the flags are constant. */
static const uint8_t lockdep_usage_needed[HL_FLAGS_MAX] = { LOCKDEP_NEEDED16(0u), LOCKDEP_NEEDED16(16u) };

/* Mark the usage bits this acquisition implies; no lock when they are all set already. */
static inline void mark_usage(struct lockdep_task *t, struct held_lock *hlock)
{
	unsigned int needed = lockdep_usage_needed[hlock->flags];

	if (unlikely((atomic_load_explicit(&hlock->class->usage_mask, memory_order_acquire) & needed) != needed))
		mark_usage_slow(t, hlock, needed);
}
/* New dependency prev -> next: hard-irq safe -> unsafe check (graph lock held). */
void check_irq_usage(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next);
void lockdep_irq_init(void);
void free_usage_sites(struct lock_class *class);	/* graph lock held */
const char *usage_str(unsigned int bit);
void get_usage_chars(const struct lock_class *class, char out[3]);

/* ---- counters ---- */

struct lockdep_counters {
	_Atomic unsigned long chain_hits;
	_Atomic unsigned long bfs_searches;
	_Atomic unsigned long max_depth_seen;
} __attribute__((aligned(64)));
extern struct lockdep_counters lockdep_counters;

/* ---- the fast paths (lockdep.c has the rest); the preload library inlines them too ---- */

/*
 * Everything lockdep_acquire_fast() does not answer, for the calling thread;
 * called with recursion set, leaves it clear.  (No task argument: with seven,
 * the fast path's callers can make it a tail call.)
 */
void lock_acquire_slow(struct uirq_lockdep_map *map, unsigned int subclass,
		       int trylock, int read, unsigned long ip, const char *file, int line);
/* A release that is not of the top of the stack, or made inside lockdep. */
void lock_release_slow(struct lockdep_task *t, struct uirq_lockdep_map *map,
		       unsigned long ip, const char *file, int line);
/*
 * Count a chain hit: per thread, moved to the global counter every
 * CHAIN_HITS_BATCH hits (the first one at once).  No call, so the fast path
 * needs no registers saved across one.
 */
#define CHAIN_HITS_BATCH	256L

static inline __attribute__((always_inline)) void lockdep_count_hit(struct lockdep_task *t)
{
	if (unlikely(--t->hits_left < 0)) {
		/* pending = hits_base - hits_left = hits_base + 1 */
		atomic_fetch_add_explicit(&lockdep_counters.chain_hits, (unsigned long)t->hits_base + 1,
					  memory_order_relaxed);
		t->hits_left = t->hits_base = CHAIN_HITS_BATCH;
	}
}

/*
 * Log a blocking acquisition for the waits (preload library only): three
 * stores to the ring's next slot, which counts once lockdep_wlog_commit()
 * says so.  Until then the slot is scratch, as the held-lock entry above
 * the top is: the fast path fills it before it knows it is the fast path.
 */
static inline __attribute__((always_inline)) void lockdep_wlog_fill(struct lockdep_task *t,
		struct lock_class *class, uint64_t chain_id, unsigned int flags, unsigned long ip)
{
#ifdef UIRQ_LOCKDEP_PRELOAD
	struct wlog_entry *e = &t->wlog[t->wlog_n % WLOG_SIZE];

	e->class = class;
	e->chain = chain_id ^ (flags & HL_READ_MASK);
	e->ip = ip;
#else
	(void)t;
	(void)class;
	(void)chain_id;
	(void)flags;
	(void)ip;
#endif
}

static inline __attribute__((always_inline)) void lockdep_wlog_commit(struct lockdep_task *t)
{
#ifdef UIRQ_LOCKDEP_PRELOAD
	t->wlog_n++;
#else
	(void)t;
#endif
}

/*
 * Note an acquisition, the common case; the caller has checked
 * debug_locks_on().  True: done (or skipped: see below).  False: the caller
 * must call lock_acquire_slow() with the same arguments, at once (or clear
 * recursion and start its own complete path, which gets here again).
 *
 * The common case is answered here, inline, with no lock, no call and no
 * store but to scratch (the entry above the top of the stack, the wait
 * log's next slot) before the answer is known: the class cached in the map,
 * its usage bits all set already, a stack no deeper than this thread has
 * had before, and the new chain in the chain cache - which means this very
 * sequence of classes (and flags) was validated against the graph before,
 * so this acquisition is validated.  Anything else goes to
 * lock_acquire_slow(), the complete algorithm.
 *
 * Signals: the recursion flag is set before anything is written, and the
 * last store - depth + 1 and recursion 0 in one 64-bit word - pushes the
 * lock and leaves lockdep at once.  A handler that interrupts in between
 * sees recursion set and leaves the stack alone (its lock and unlock both go
 * unannotated, as for any signal that interrupts lockdep); one that
 * interrupts before sees a stack nothing was written to yet; one after sees
 * the lock pushed.  The entry is written above the top, where only a
 * handler could write too, and the handler is kept out by the flag.
 */
static inline __attribute__((always_inline)) bool lockdep_acquire_fast(struct lockdep_task *t,
		struct uirq_lockdep_map *map, unsigned int subclass, int trylock, int read,
		unsigned long ip, const char *file, int line)
{
	struct lock_class *class;
	struct held_lock *next;
	unsigned int depth, flags, context, needed;
	uint64_t key, chain_id;

	if (unlikely(t->recursion))
		return true;
	t->recursion = 1;
	atomic_signal_fence(memory_order_seq_cst);
	depth = t->depth;
	class = __atomic_load_n((struct lock_class **)&map->class_cache, __ATOMIC_ACQUIRE);
	/* depth < max_depth: registered, no new maximum, and room on the stack */
	if (unlikely(depth >= t->max_depth || subclass != 0 || (unsigned int)read > 2 || !class ||
		     /* a class zapped with its key may have been recycled: check it is still ours */
		     atomic_load_explicit(&class->key, memory_order_relaxed) != fast_map_class_key(map)))
		return false;
	flags = (unsigned int)read | (trylock ? HL_TRYLOCK : 0u);
	context = lockdep_context_flags();
	if (likely(!context)) {
		needed = lockdep_usage_needed[flags];	/* a constant when read and trylock are */
	} else {
		flags |= context;
		needed = lockdep_usage_needed[flags];
	}
	if (unlikely((atomic_load_explicit(&class->usage_mask, memory_order_acquire) & needed) != needed))
		return false;
	/*
	 * The entry above the top is scratch (recursion keeps a signal
	 * handler's lock off it; the slow path writes it whole), and so is the
	 * wait log's next slot: filled before the chain look-up, so that what
	 * they need is dead by then (no registers to save in the callers).
	 */
	next = &t->stack[depth + 1];
	next->class = class;
	next->instance = lockdep_hide_ptr(map);
#ifdef UIRQ_LOCKDEP_PRELOAD
	/* never a file nor a line there: every entry's are NULL and 0 from the start */
	(void)file;
	(void)line;
#else
	/*
	 * Stored only when they change: every store on this path is one the
	 * real lock's atomic instruction, next, waits for.
	 */
	if (next->site.file != file)
		next->site.file = file;
	if (next->site.line != line)
		next->site.line = line;
#endif
	next->site.ip = ip;
	next->flags = (uint8_t)flags;
	chain_id = lock_class_chain_id(class);
	if (!trylock)
		lockdep_wlog_fill(t, class, chain_id, flags, ip);
	key = iterate_chain_key(next[-1].chain_key, chain_id, flags & HL_CHAIN_MASK);
	/* a trylock cannot block: it adds no dependency and is not checked */
	if (!trylock && unlikely(!lookup_chain_cache(key)))
		return false;
	next->chain_key = key;
	if (!trylock) {
		lockdep_count_hit(t);
		lockdep_wlog_commit(t);
	}
	atomic_signal_fence(memory_order_seq_cst);
	t->depth_recursion = depth + 1;		/* push; recursion = 0 */
	return true;
}

/* Note an acquisition; the caller has checked debug_locks_on(). */
static inline __attribute__((always_inline)) void lockdep_acquire(struct uirq_lockdep_map *map,
		unsigned int subclass, int trylock, int read, unsigned long ip, const char *file, int line)
{
	struct lockdep_task *t = lockdep_task();

	if (unlikely(!lockdep_acquire_fast(t, map, subclass, trylock, read, ip, file, line)))
		lock_acquire_slow(map, subclass, trylock, read, ip, file, line);
}

/*
 * Release map if it is the top of the stack (the common case): one store to
 * depth, atomic for a signal handler, which sees the lock either held or
 * not, with the chain key of what it sees (keys live in the entries).  Not
 * done inside lockdep (recursion set: the interrupted code owns the stack).
 * False: the caller goes to lock_release_slow().
 */
static inline __attribute__((always_inline)) bool lockdep_release_top(struct lockdep_task *t,
								      const struct uirq_lockdep_map *map)
{
	unsigned int depth = t->depth;

	/* stack[depth] is held_locks[depth - 1], the top */
	if (likely(!t->recursion && depth && t->stack[depth].instance == lockdep_hide_ptr(map))) {
		atomic_signal_fence(memory_order_seq_cst);
		t->depth = depth - 1;
		return true;
	}
	return false;
}

#endif /* UIRQ_CONFIG_LOCKDEP */

#pragma GCC visibility pop
#endif

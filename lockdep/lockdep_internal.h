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
#include "uirq/lockdep.h"

/* Nothing below leaves the library: direct calls, no PLT on the fast path. */
#pragma GCC visibility push(hidden)

/* initial-exec: the preload library links the engine and is loaded at start-up. */
#define LOCKDEP_TLS __thread __attribute__((tls_model("initial-exec")))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

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

/* ---- graph lock (lockdep_report.c) ---- */

void graph_lock(void);
void graph_unlock(void);
/* fork(): hold the graph lock across it so the child never inherits it taken. */
void graph_lock_atfork_child(void);

/* ---- reports (lockdep_report.c) ---- */

/* Start a report unless this signature was reported already; caller holds the graph lock. */
bool report_begin(enum uirq_lockdep_report_kind kind, uint64_t sig);
/* The kernel's headline; framed by '=' and '-' lines unless plain. */
void report_headline(bool framed, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rpt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rpt_task(void);
/* "NAME/TID" of the calling thread, as reports print it. */
void task_name(char *buf, size_t len);
void rpt_site(const struct lockdep_site *site);
void rpt_trace(const struct lockdep_trace *trace, const char *indent);
void rpt_stack_backtrace(const char *title);
/* Deliver the finished report to the handler or stderr; abort() if fatal. */
void report_end(void);
/* Format something that is not a report (print_held_locks), then write it to stderr. */
void report_begin_plain(void);
void report_write_stderr(void);
uint64_t report_sig(uint64_t a, uint64_t b, uint64_t c, uint64_t d);
uint64_t report_sig_str(const char *s);
void report_set_handler(uirq_lockdep_report_fn fn, void *arg);
void report_set_fatal(bool on);
void report_stats(struct uirq_lockdep_stats *stats);
/* Tiny per-thread guard used when the engine proper is compiled out. */
bool report_enter(void);
void report_exit(void);

#if UIRQ_CONFIG_LOCKDEP

/* ---- limits ---- */

#define MAX_LOCKDEP_KEYS	8192		/* classes */
#define MAX_LOCKDEP_ENTRIES	65536		/* dependencies (each in two lists) */
#define CLASS_HASH_SIZE		4096
#define CHAIN_HASH_SIZE		(1u << 17)
#define MAX_LOCKDEP_CHAINS	(CHAIN_HASH_SIZE / 2)
#define LIST_END		0u		/* list links are index + 1 */

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

struct lock_class {
	_Atomic uintptr_t key;		/* key address + subclass; 0: slot free */
	_Atomic uint64_t id;		/* never reused: stale chains cannot match */
	_Atomic unsigned int usage_mask;
	_Atomic uint32_t hash_next;
	unsigned int subclass;
	uint32_t after_head;		/* dependencies this -> X */
	uint32_t before_head;		/* dependencies X -> this */
	uint32_t free_next;
	struct lockdep_site usage_site[LOCK_USAGE_STATES];
	/* breadth-first search state, indexed by "arrived through *R only" */
	uint32_t bfs_gen[2];
	uint32_t bfs_parent[2];		/* dependency index + 1, LIST_END at the root */
	uint8_t bfs_parent_xr[2];
	char name[64];
};

extern struct lock_class lock_classes[MAX_LOCKDEP_KEYS];

static inline uint32_t class_idx(const struct lock_class *c)
{
	return (uint32_t)(c - lock_classes);
}

/* The class key of a map: its key (or its own address) plus the subclass. */
static inline uintptr_t map_class_key(const struct uirq_lockdep_map *map, unsigned int subclass)
{
	const void *k = map->key ? (const void *)map->key : (const void *)map;

	return (uintptr_t)k + subclass;
}

/* Lock-free lookup; NULL may be a false miss (the caller then registers under the lock). */
struct lock_class *look_up_lock_class(uintptr_t key);
/* Find or create the class (takes the graph lock); NULL when out of classes. */
struct lock_class *register_lock_class(const struct uirq_lockdep_map *map, unsigned int subclass);
unsigned long nr_lock_classes(void);

/* ---- held locks and the per-thread state ---- */

struct held_lock {
	uint64_t prev_chain_key;	/* chain key of the locks below */
	struct lock_class *class;
	struct uirq_lockdep_map *instance;
	struct lockdep_site site;
	uint8_t read;
	uint8_t trylock;
	uint8_t hardirqs_off;
	uint8_t irq_context;
};

struct lockdep_task {
	unsigned int depth;
	int recursion;			/* inside lockdep: nested calls are skipped */
	uint64_t curr_chain_key;
	bool registered;		/* thread-exit destructor armed */
	unsigned long chain_hits;	/* batched into the global counter */
	unsigned int max_depth;		/* the global maximum is updated when this grows */
	struct held_lock held_locks[UIRQ_MAX_LOCK_DEPTH];
};

extern LOCKDEP_TLS struct lockdep_task lockdep_current;

static inline bool debug_locks_on(void)
{
	return __atomic_load_n(&uirq_debug_locks, __ATOMIC_RELAXED) != 0;
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
void rpt_held_locks(const struct lockdep_task *t);
void rpt_lock_name(const struct lock_class *class);	/* "(name/1)" */
void rpt_lock_name_bare(const struct lock_class *class);	/* "name/1", in scenarios */
void rpt_class(const struct lock_class *class);		/* name with usage chars */
void rpt_held_lock(const struct held_lock *hlock);	/* " (name){..}, at: site" */

/* ---- chain cache (lockdep_chains.c) ---- */

/* The chain key after adding one held lock on top of prev. */
static inline uint64_t iterate_chain_key(uint64_t prev, uint64_t id, unsigned int flags)
{
	/* two multiply-xorshift rounds: order-sensitive and well mixed, cheap on the fast path */
	uint64_t z = (prev ^ ((id << 4) | flags)) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ull;
	z ^= z >> 32;
	return z ? z : 1;
}

extern _Atomic uint64_t chain_table[CHAIN_HASH_SIZE];

static inline unsigned int chain_slot(uint64_t key)
{
	return (unsigned int)(key ^ (key >> 32)) & (CHAIN_HASH_SIZE - 1);
}

/* Lock-free: a miss (even a false one, while the table is being cleared) only costs a validation. */
static inline bool lookup_chain_cache(uint64_t key)
{
	for (unsigned int i = chain_slot(key); ; i = (i + 1) & (CHAIN_HASH_SIZE - 1)) {
		uint64_t v = atomic_load_explicit(&chain_table[i], memory_order_relaxed);

		if (v == key)
			return true;
		if (!v)
			return false;
	}
}
void add_chain_cache(uint64_t chain_key);	/* graph lock held */
unsigned long nr_lock_chains(void);

/* ---- dependency graph (lockdep_graph.c) ---- */

struct lock_dep {
	uint32_t from, to;			/* class indices */
	uint32_t after_next, after_prev;	/* links in from's after list */
	uint32_t before_next, before_prev;	/* links in to's before list */
	uint32_t free_next;
	uint8_t dep;				/* DEP_*_MASK bits seen */
	struct lockdep_site site;		/* where "to" was taken */
	struct lockdep_site prev_site;		/* where "from" had been taken */
	struct lockdep_trace trace;		/* when site.file is NULL */
};

extern struct lock_dep lock_deps[MAX_LOCKDEP_ENTRIES];

enum bfs_dir { BFS_FORWARDS, BFS_BACKWARDS };

/* A path found by the search: path[0] leaves the root, path[len-1] reaches the match. */
#define MAX_BFS_PATH 64
struct bfs_path {
	struct lock_class *match;
	bool match_xr;
	unsigned int len;
	uint32_t deps[MAX_BFS_PATH];
};

typedef bool (*bfs_match_fn)(struct lock_class *class, bool only_xr, void *data);

/* Breadth-first search along strong paths only; true when match returned true. */
bool lockdep_bfs(struct lock_class *root, bool root_xr, enum bfs_dir dir,
		 bfs_match_fn match, void *data, struct bfs_path *path);
/* Add the dependencies of a newly acquired lock to the ones below it (graph lock held). */
void check_prevs_add(struct lockdep_task *t, struct held_lock *next);
/* Report a same-class acquisition (graph lock held). */
void check_deadlock(struct lockdep_task *t, struct held_lock *next);
void zap_class_deps(struct lock_class *class);
unsigned long nr_lock_deps(void);
void rpt_dep_path(const struct lock_class *root, const struct bfs_path *path, enum bfs_dir dir);
void rpt_dep_site(const struct lock_dep *d);

/* ---- irq usage states (lockdep_irq.c) ---- */

void mark_usage_slow(struct lockdep_task *t, struct held_lock *hlock, unsigned int needed);

/* Mark the usage bits this acquisition implies; no lock when they are all set already. */
static inline void mark_usage(struct lockdep_task *t, struct held_lock *hlock)
{
	unsigned int needed = LOCKF(LOCK_USED);

	if (hlock->read)
		needed |= LOCKF(LOCK_USED_READ);
	/* a trylock in an irq cannot deadlock against the interrupted code */
	if (!hlock->trylock && hlock->irq_context)
		needed |= LOCKF(hlock->read ? LOCK_USED_IN_HARDIRQ_READ : LOCK_USED_IN_HARDIRQ);
	if (!hlock->hardirqs_off)
		needed |= LOCKF(hlock->read ? LOCK_ENABLED_HARDIRQ_READ : LOCK_ENABLED_HARDIRQ);
	if (unlikely((atomic_load_explicit(&hlock->class->usage_mask, memory_order_acquire) & needed) != needed))
		mark_usage_slow(t, hlock, needed);
}
/* New dependency prev -> next: hard-irq safe -> unsafe check (graph lock held). */
void check_irq_usage(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next);
void lockdep_irq_init(void);
const char *usage_str(unsigned int bit);
void get_usage_chars(const struct lock_class *class, char out[3]);

/* ---- counters ---- */

struct lockdep_counters {
	_Atomic unsigned long chain_hits;
	_Atomic unsigned long bfs_searches;
	_Atomic unsigned long max_depth_seen;
} __attribute__((aligned(64)));
extern struct lockdep_counters lockdep_counters;

#endif /* UIRQ_CONFIG_LOCKDEP */

#pragma GCC visibility pop
#endif

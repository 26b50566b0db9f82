/* SPDX-License-Identifier: MIT */
/*
 * lockdep: the runtime lock validator (kernel semantics, see
 * Documentation/locking/lockdep-design.rst).
 *
 * Locks are grouped into classes by key: a static uirq_lock_class_key per
 * init site (the lock types' init macros declare one, as the kernel does),
 * an explicit key, or - for a statically allocated lock with no key - the
 * lock's own address.  A subclass (0..7) splits a class for nesting
 * annotations.  Every acquisition is checked against the dependency graph
 * *before* the caller blocks on the real lock, so a deadlock is reported
 * before it can happen.
 *
 * Differences from the kernel forced by user space: validation goes on after
 * a report (each distinct problem is reported once), and reports go to a
 * handler the program installs, else to the log (<uirq/printk.h>: its sink,
 * stderr by default).
 */
#ifndef UIRQ_LOCKDEP_H
#define UIRQ_LOCKDEP_H

#include <stdbool.h>
#include <stddef.h>

#include "uirq/config.h"

/*
 * The lock words of the lock types (spinlock.h, mutex.h, rwlock.h): C11
 * atomics, which C++ cannot name.  C++ code only hands the locks to the
 * library, which is C, so there the word is the plain int it is laid out as.
 */
#ifdef __cplusplus
#define UIRQ_ATOMIC_INT int
#else
#include <stdatomic.h>
#define UIRQ_ATOMIC_INT atomic_int
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define UIRQ_MAX_LOCKDEP_SUBCLASSES	8

/* A class key: only its address matters; one byte per subclass. */
struct uirq_lock_class_key {
	char subkeys[UIRQ_MAX_LOCKDEP_SUBCLASSES];
};

/* The lockdep part of every lock (kept when lockdep is compiled out, then unused). */
struct uirq_lockdep_map {
	const struct uirq_lock_class_key *key;	/* NULL: the map's own address */
	const char *name;
	void *class_cache;			/* subclass-0 class, filled lazily */
};

/* Static initializer for a map in a statically allocated lock (keyed by its address). */
#define UIRQ_LOCKDEP_MAP_INIT(lockname) { .key = NULL, .name = (lockname), .class_cache = NULL }

/* read argument of uirq_lock_acquire(): the kernel's values. */
enum {
	UIRQ_LOCK_WRITE = 0,		/* exclusive */
	UIRQ_LOCK_READ = 1,		/* shared, non-recursive */
	UIRQ_LOCK_READ_RECURSIVE = 2,	/* shared, recursive (rwlock readers) */
};

/* The report kinds, one per kernel headline. */
enum uirq_lockdep_report_kind {
	UIRQ_REPORT_CIRCULAR,		/* possible circular locking dependency detected */
	UIRQ_REPORT_RECURSIVE,		/* possible recursive locking detected */
	UIRQ_REPORT_INCONSISTENT,	/* inconsistent lock state */
	UIRQ_REPORT_SAFE_TO_UNSAFE,	/* HARDIRQ-safe -> HARDIRQ-unsafe lock order detected */
	UIRQ_REPORT_IRQ_INVERSION,	/* possible irq lock inversion dependency detected */
	UIRQ_REPORT_BAD_UNLOCK,		/* bad unlock balance detected! */
	UIRQ_REPORT_HELD_FREED,		/* held lock freed! */
	UIRQ_REPORT_HELD_AT_EXIT,	/* NAME/TID still has locks held! */
	UIRQ_REPORT_ASSERT,		/* a lockdep_assert_*() failed */
	UIRQ_REPORT_SLEEP_INVALID,	/* BUG: sleeping function called from invalid context */
	UIRQ_REPORT_RESOURCES,		/* out of memory: the validator turns off */
	UIRQ_REPORT_DESTROYED,		/* use of destroyed lock detected! */
	UIRQ_REPORT_COND,		/* a condition variable waited on without its mutex, or with two */
	UIRQ_REPORT_WAIT,		/* possible circular dependency through a wait detected */
	UIRQ_REPORT_FORK_HELD,		/* a forked child takes a lock another thread held at fork() */
	UIRQ_REPORT_FREED_USE,		/* a lock used in memory freed since (heap-use-after-free) */
	UIRQ_REPORT_NR_KINDS
};

/* A report kind's short name ("circular", "bad_unlock", ...), as summaries and JSON print it. */
const char *uirq_lockdep_kind_name(int kind);

/* One report as handed to a report handler; valid only during the call. */
struct uirq_lockdep_report {
	enum uirq_lockdep_report_kind kind;
	const char *headline;	/* the kernel's headline, without the "=====" frame */
	const char *text;	/* the whole report as printed */
	/*
	 * The same report as one line of JSON: kind, headline, pid, thread,
	 * locks (each with role, name, address, site), chain (each dependency
	 * with its lock, site, while_holding and holding_site), held, backtrace
	 * (sites as address, function, offset, file, line, module) and text.
	 */
	const char *json;
};

/* A report handler; it runs with lockdep's graph lock held and must not take uirq locks. */
typedef void (*uirq_lockdep_report_fn)(const struct uirq_lockdep_report *report, void *arg);

/* Counters, for tests and tools. */
struct uirq_lockdep_stats {
	unsigned long classes;		/* lock classes in use */
	unsigned long dependencies;	/* direct dependency edges */
	unsigned long classes_made;	/* lock classes ever made (those of dead locks too) */
	unsigned long dependencies_made;	/* dependency edges ever added */
	unsigned long chains;		/* lock chains cached */
	unsigned long chain_hits;	/* acquisitions answered by the chain cache */
	unsigned long bfs_searches;	/* breadth-first graph searches run */
	unsigned long reports;		/* reports emitted (all kinds) */
	unsigned long suppressed;	/* reports a suppression rule covered (not emitted) */
	unsigned long reports_by_kind[UIRQ_REPORT_NR_KINDS];
	unsigned long max_depth_seen;	/* deepest held-lock stack seen */
};

#if UIRQ_CONFIG_LOCKDEP

/*
 * Prepare a lock's map: name, key (NULL keys by the map's address) and
 * default subclass.  The name is kept, not copied, as the kernel keeps it:
 * it must live as long as the key's class (a string literal, or memory
 * freed only after uirq_lockdep_unregister_key()).
 */
void uirq_lockdep_init_map(struct uirq_lockdep_map *map, const char *name,
			   const struct uirq_lock_class_key *key, int subclass);
/* Note an acquisition (checked before the caller blocks); file NULL means "use ip". */
void uirq_lock_acquire(struct uirq_lockdep_map *map, unsigned int subclass, int trylock,
		       int read, unsigned long ip, const char *file, int line);
/* Note a release; releasing a lock this thread does not hold reports bad unlock balance. */
void uirq_lock_release(struct uirq_lockdep_map *map, unsigned long ip, const char *file, int line);
/* True if the calling thread holds the lock (read: -1 any mode, 0 write, 1 read). */
bool uirq_lockdep_is_held_type(const struct uirq_lockdep_map *map, int read);
/* Report "held lock freed!" if the calling thread holds a lock inside [mem, mem+len). */
void uirq_lockdep_check_no_locks_freed(const void *mem, size_t len);
/* Register a dynamically allocated key before use. */
void uirq_lockdep_register_key(struct uirq_lock_class_key *key);
/* Forget a dynamic key: its classes and their dependencies die with it. */
void uirq_lockdep_unregister_key(struct uirq_lock_class_key *key);
/* Check the calling thread at exit: report "still has locks held!" and forget them. */
void uirq_lockdep_thread_exit(void);
/* Print the calling thread's held locks to the log (debug_show_held_locks). */
void uirq_lockdep_print_held_locks(void);
/* Report a failed lockdep_assert_*() (called by the assert macros). */
void uirq_lockdep_assert_failed(const char *cond, const char *file, int line);

/* Install a report handler (NULL: print to the log, the default). */
void uirq_lockdep_set_report_handler(uirq_lockdep_report_fn fn, void *arg);
/* Copy the validator's counters. */
void uirq_lockdep_get_stats(struct uirq_lockdep_stats *stats);
/* True while the validator runs (UIRQ_LOCKDEP=0 in the environment turns it off). */
bool uirq_lockdep_enabled(void);
/* Turn the validator off for good (debug_locks_off()); returns whether it was on. */
bool uirq_lockdep_off(void);
/* Abort after the first report when on (the runner's --fatal). */
void uirq_lockdep_set_fatal(bool on);

/* Fast test used by the lock types: is the validator running? */
extern int uirq_debug_locks;

#define uirq_lockdep_is_held(m)		uirq_lockdep_is_held_type((m), -1)

#else /* !UIRQ_CONFIG_LOCKDEP: everything compiles to nothing */

#define uirq_debug_locks 0
static inline void uirq_lockdep_init_map(struct uirq_lockdep_map *m, const char *n,
					 const struct uirq_lock_class_key *k, int s)
{ (void)m; (void)n; (void)k; (void)s; }
static inline void uirq_lock_acquire(struct uirq_lockdep_map *m, unsigned int s, int t, int r,
				     unsigned long ip, const char *f, int l)
{ (void)m; (void)s; (void)t; (void)r; (void)ip; (void)f; (void)l; }
static inline void uirq_lock_release(struct uirq_lockdep_map *m, unsigned long ip, const char *f, int l)
{ (void)m; (void)ip; (void)f; (void)l; }
static inline bool uirq_lockdep_is_held_type(const struct uirq_lockdep_map *m, int r)
{ (void)m; (void)r; return true; }
static inline void uirq_lockdep_check_no_locks_freed(const void *mem, size_t len) { (void)mem; (void)len; }
static inline void uirq_lockdep_register_key(struct uirq_lock_class_key *k) { (void)k; }
static inline void uirq_lockdep_unregister_key(struct uirq_lock_class_key *k) { (void)k; }
static inline void uirq_lockdep_thread_exit(void) {}
static inline void uirq_lockdep_print_held_locks(void) {}
static inline void uirq_lockdep_assert_failed(const char *c, const char *f, int l) { (void)c; (void)f; (void)l; }
static inline void uirq_lockdep_set_report_handler(uirq_lockdep_report_fn fn, void *arg) { (void)fn; (void)arg; }
void uirq_lockdep_get_stats(struct uirq_lockdep_stats *stats);
static inline bool uirq_lockdep_enabled(void) { return false; }
static inline bool uirq_lockdep_off(void) { return false; }
static inline void uirq_lockdep_set_fatal(bool on) { (void)on; }
#define uirq_lockdep_is_held(m)		true

#endif /* UIRQ_CONFIG_LOCKDEP */

/* The kernel's assertions; a failure is reported once per call site and execution goes on. */
#define uirq__lockdep_assert(cond, text)					\
	do {								\
		if (uirq_debug_locks && !(cond))			\
			uirq_lockdep_assert_failed(text, __FILE__, __LINE__); \
	} while (0)
#define uirq_lockdep_assert_held(l)	\
	uirq__lockdep_assert(uirq_lockdep_is_held_type(&(l)->dep_map, -1), "lockdep_assert_held(" #l ")")
#define uirq_lockdep_assert_not_held(l)	\
	uirq__lockdep_assert(!uirq_lockdep_is_held_type(&(l)->dep_map, -1), "lockdep_assert_not_held(" #l ")")
#define uirq_lockdep_assert_held_write(l) \
	uirq__lockdep_assert(uirq_lockdep_is_held_type(&(l)->dep_map, 0), "lockdep_assert_held_write(" #l ")")
#define uirq_lockdep_assert_held_read(l) \
	uirq__lockdep_assert(uirq_lockdep_is_held_type(&(l)->dep_map, 1), "lockdep_assert_held_read(" #l ")")
#define uirq_lockdep_assert_irqs_disabled() \
	uirq__lockdep_assert(uirq_irqs_disabled(), "lockdep_assert_irqs_disabled()")
#define uirq_lockdep_assert_irqs_enabled() \
	uirq__lockdep_assert(!uirq_irqs_disabled(), "lockdep_assert_irqs_enabled()")
#define uirq_lockdep_assert_in_irq() \
	uirq__lockdep_assert(uirq_in_hardirq(), "lockdep_assert_in_irq()")

#ifdef __cplusplus
}
#endif
#endif

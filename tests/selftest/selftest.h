/* SPDX-License-Identifier: MIT */
/*
 * Harness for the locking-selftest families (tests/selftest/).
 *
 * The kernel's lib/locking-selftest.c runs one scenario per "family" and per
 * lock type and compares the validator's verdict with the expected one:
 * FAILURE (lockdep reported and switched itself off) or SUCCESS (no report).
 * Here every family x lock type is its own test (UIRQ_TEST, run by
 * the Check harness of tests/harness.h), so each runs in a freshly forked
 * process and starts with an empty dependency graph.  A test installs a
 * report handler, runs the scenario in a single thread (lockdep works on
 * classes, not threads, so one thread that plays "CPU0 then CPU1" is enough)
 * and then asserts exactly which kinds of report came out.
 *
 * Lock "slots" play the kernel's roles: A, B, C, D are four separate classes;
 * X1/X2, Y1/Y2, Z1/Z2 are pairs of instances sharing the classes X, Y, Z, so a
 * scenario can take "the same class twice" without ever spinning on one real
 * lock.  Each slot carries one lock of every type; LOCK()/UNLOCK()/INIT() act
 * on the type the current test selected, L()/WL()/RL()/... on a fixed type.
 */
#ifndef UIRQ_SELFTEST_H
#define UIRQ_SELFTEST_H

#include <stdbool.h>

#include "uirq/context.h"
#include "uirq/lockdep.h"
#include "uirq/mutex.h"
#include "uirq/rwlock.h"
#include "uirq/spinlock.h"

/* The lock types of the kernel's table that exist here. */
enum st_type {
	ST_SPIN,	/* spinlock_t: spin_lock() */
	ST_WLOCK,	/* rwlock_t, write side: write_lock() */
	ST_RLOCK,	/* rwlock_t, read side: read_lock() (recursive read) */
	ST_MUTEX,	/* struct mutex: mutex_lock() */
};

struct st_lock {
	const char *role;		/* "A", "X1", ... */
	const char *cls;		/* class role: "A", "X", ... */
	uirq_spinlock_t spin;
	uirq_rwlock_t rw;
	uirq_mutex_t mutex;
};

extern struct st_lock st_A, st_B, st_C, st_D;
extern struct st_lock st_X1, st_X2, st_Y1, st_Y2, st_Z1, st_Z2;

/* Select the lock type LOCK()/UNLOCK()/INIT() act on. */
void st_use(enum st_type type);
/* Take / release / re-initialise a slot's lock of the selected type. */
void st_lock(struct st_lock *l, const char *file, int line);
void st_unlock(struct st_lock *l, const char *file, int line);
void st_reinit(struct st_lock *l);

/* Class names as they appear in reports: "lock_A", "rwlock_X", "mutex_B". */
const char *st_class_name(enum st_type type, const char *cls);

#define LOCK(x)		st_lock(&st_##x, __FILE__, __LINE__)
#define UNLOCK(x)	st_unlock(&st_##x, __FILE__, __LINE__)
#define INIT(x)		st_reinit(&st_##x)
#define LU(x)		do { LOCK(x); UNLOCK(x); } while (0)
/* Take x then y, release both: records the dependency x -> y. */
#define LOCK_UNLOCK_2(x, y) do { LOCK(x); LOCK(y); UNLOCK(y); UNLOCK(x); } while (0)

/* Fixed-type shortcuts, whatever st_use() selected. */
#define L(x)		uirq_spin_lock(&st_##x.spin)
#define U(x)		uirq_spin_unlock(&st_##x.spin)
#define WL(x)		uirq_write_lock(&st_##x.rw)
#define WU(x)		uirq_write_unlock(&st_##x.rw)
#define RL(x)		uirq_read_lock(&st_##x.rw)
#define RU(x)		uirq_read_unlock(&st_##x.rw)
#define ML(x)		uirq_mutex_lock(&st_##x.mutex)
#define MU(x)		uirq_mutex_unlock(&st_##x.mutex)

/* Simulated contexts, as the kernel's selftests simulate them. */
#define IRQ_DISABLE()	uirq_local_irq_disable()
#define IRQ_ENABLE()	uirq_local_irq_enable()
#define IRQ_ENTER()	do { uirq_local_irq_disable(); uirq_hardirq_enter(); } while (0)
#define IRQ_EXIT()	do { uirq_hardirq_exit(); uirq_local_irq_enable(); } while (0)

/* ---- reports ---------------------------------------------------------- */

#define ST_MAX_REPORTS 32

struct st_record {
	enum uirq_lockdep_report_kind kind;
	char *headline;
	char *text;
};

/* Reports seen since st_setup(), in order. */
extern struct st_record st_reports[ST_MAX_REPORTS];
extern int st_nreports;

/* Test .init: check lockdep runs, install the recorder, set up the slots. */
void st_setup(void);
/* Test .fini: free recorded texts. */
void st_teardown(void);

/* Kernel verdict SUCCESS: not one report, and the counters agree. */
void st_expect_success(void);
/* Kernel verdict FAILURE: exactly one report, of this kind. */
void st_expect_failure(enum uirq_lockdep_report_kind kind);
/*
 * Kernel verdict FAILURE where the kernel stops at its first report but the
 * scenario holds more than one distinct problem (uirq goes on validating):
 * the first report is `first`, it comes exactly once, and every later one
 * is one of the kinds in `also` (a bit mask of 1u << kind), each at most once.
 */
void st_expect_first(enum uirq_lockdep_report_kind first, unsigned int also);
/* The recorded report of this kind (the first one), or NULL. */
const struct st_record *st_find(enum uirq_lockdep_report_kind kind);
/* Printable name of a report kind, for messages. */
const char *st_kind_name(int kind);

#define ST_BIT(k)	(1u << (k))

/* Common UIRQ_TEST() options: fresh harness, 10 s limit. */
#define ST_OPTS		.init = st_setup, .fini = st_teardown, .timeout = 10

/*
 * Event permutations, as the kernel generates them: a family is two or three
 * "events" (short lock sequences in some context); every order of the events
 * is its own test.  check(i) receives the permutation's index (0..5 in the
 * order 123, 132, 213, 231, 312, 321; 0..1 for 12, 21).
 */
#define ST_PERM2(suite, test, type, e1, e2, check)				\
	UIRQ_TEST(suite, test##_12, ST_OPTS) { st_use(type); e1(); e2(); check(0); }	\
	UIRQ_TEST(suite, test##_21, ST_OPTS) { st_use(type); e2(); e1(); check(1); }

#define ST_PERM3(suite, test, type, e1, e2, e3, check)					\
	UIRQ_TEST(suite, test##_123, ST_OPTS) { st_use(type); e1(); e2(); e3(); check(0); }	\
	UIRQ_TEST(suite, test##_132, ST_OPTS) { st_use(type); e1(); e3(); e2(); check(1); }	\
	UIRQ_TEST(suite, test##_213, ST_OPTS) { st_use(type); e2(); e1(); e3(); check(2); }	\
	UIRQ_TEST(suite, test##_231, ST_OPTS) { st_use(type); e2(); e3(); e1(); check(3); }	\
	UIRQ_TEST(suite, test##_312, ST_OPTS) { st_use(type); e3(); e1(); e2(); check(4); }	\
	UIRQ_TEST(suite, test##_321, ST_OPTS) { st_use(type); e3(); e2(); e1(); check(5); }

/* Verdict checks usable as check(i). */
#define ST_OK(i)		((void)(i), st_expect_success())
#define ST_CIRCULAR(i)		((void)(i), st_expect_failure(UIRQ_REPORT_CIRCULAR))
#define ST_RECURSIVE(i)		((void)(i), st_expect_failure(UIRQ_REPORT_RECURSIVE))
#define ST_INCONSISTENT(i)	((void)(i), st_expect_failure(UIRQ_REPORT_INCONSISTENT))

#endif

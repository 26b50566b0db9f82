// SPDX-License-Identifier: MIT
/*
 * The kernel's basic locking-selftest families, per lock type, with the
 * kernel's verdict (lib/locking-selftest.c, DO_TESTCASE_6R / DO_TESTCASE_6):
 *
 *   family          spin     wlock    rlock    mutex
 *   AA              FAIL     FAIL     ok       FAIL      recursive locking
 *   ABBA ...        FAIL     FAIL     ok       FAIL      circular dependency
 *   double unlock   FAIL     FAIL     FAIL     FAIL      bad unlock balance
 *   init held       FAIL     FAIL     FAIL     FAIL      held lock freed
 *
 * rlock is the read side of an rwlock, which is recursive-read here (readers
 * never wait for a waiting writer), so any cycle made only of read
 * acquisitions is no deadlock and must stay silent.
 */
#include "harness.h"
#include <string.h>

#include "selftest.h"

/*
 * Generator: one Test per lock type.  `events` runs the scenario, `after`
 * puts things back (after the verdict has been checked).
 */
#define FAMILY(suite, type, events, after, check)				\
	UIRQ_TEST(suite, type, ST_OPTS)						\
	{									\
		st_use(ST_##type);						\
		events();							\
		check;								\
		after();							\
	}
#define ST_spin		ST_SPIN
#define ST_wlock	ST_WLOCK
#define ST_rlock	ST_RLOCK
#define ST_mutex	ST_MUTEX

/* The kernel's "6R" row: rlock must not trigger, every other type must. */
#define FAMILY_6R(suite, events, after, kind)					\
	FAMILY(suite, spin, events, after, st_expect_failure(kind))		\
	FAMILY(suite, wlock, events, after, st_expect_failure(kind))		\
	FAMILY(suite, rlock, events, after, st_expect_success())		\
	FAMILY(suite, mutex, events, after, st_expect_failure(kind))

/* The kernel's "6" row: every type, rlock included, must trigger. */
#define FAMILY_6(suite, events, after, kind)					\
	FAMILY(suite, spin, events, after, st_expect_failure(kind))		\
	FAMILY(suite, wlock, events, after, st_expect_failure(kind))		\
	FAMILY(suite, rlock, events, after, st_expect_failure(kind))		\
	FAMILY(suite, mutex, events, after, st_expect_failure(kind))

static void nothing(void) {}

/*
 * AA: a task takes a lock of class X and then, still holding it, another
 * lock of the same class X.  With two real locks of one class this is only
 * a *possible* self-deadlock (the two might be the same lock next time), and
 * lockdep reports it as recursive locking.  X1 and X2 are two instances, so
 * the test never spins on a lock it holds.  Two readers of a recursive-read
 * lock do not deadlock: rlock stays silent.
 */
static void AA_events(void)
{
	LOCK(X1);
	LOCK(X2);	/* the kernel fails here */
}

static void AA_after(void)
{
	UNLOCK(X2);
	UNLOCK(X1);
}

FAMILY_6R(AA, AA_events, AA_after, UIRQ_REPORT_RECURSIVE)

/*
 * ABBA: one path takes A then B, another B then A.  Two CPUs each holding
 * their first lock wait forever for the other's.  The dependency B -> A
 * closes the cycle A -> B -> A.
 */
static void ABBA_events(void)
{
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, A);	/* the kernel fails here */
}

FAMILY_6R(ABBA, ABBA_events, nothing, UIRQ_REPORT_CIRCULAR)

/* AB BC CA: a three-CPU cycle A -> B -> C -> A, closed by C -> A. */
static void ABBCCA_events(void)
{
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, C);
	LOCK_UNLOCK_2(C, A);	/* the kernel fails here */
}

FAMILY_6R(ABBCCA, ABBCCA_events, nothing, UIRQ_REPORT_CIRCULAR)

/*
 * AB CA BC: the same three-lock cycle, learnt in another order, so the
 * closing edge B -> C joins two edges that were not adjacent when recorded.
 */
static void ABCABC_events(void)
{
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(C, A);
	LOCK_UNLOCK_2(B, C);	/* the kernel fails here */
}

FAMILY_6R(ABCABC, ABCABC_events, nothing, UIRQ_REPORT_CIRCULAR)

/* AB BC CD DA: a four-CPU cycle, closed by D -> A (search depth 3). */
static void ABBCCDDA_events(void)
{
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, C);
	LOCK_UNLOCK_2(C, D);
	LOCK_UNLOCK_2(D, A);	/* the kernel fails here */
}

FAMILY_6R(ABBCCDDA, ABBCCDDA_events, nothing, UIRQ_REPORT_CIRCULAR)

/*
 * AB CD BD DA: a graph with a dead end (C -> D leads nowhere back) where the
 * cycle A -> B -> D -> A must be found through B -> D, closed by D -> A.
 */
static void ABCDBDDA_events(void)
{
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(C, D);
	LOCK_UNLOCK_2(B, D);
	LOCK_UNLOCK_2(D, A);	/* the kernel fails here */
}

FAMILY_6R(ABCDBDDA, ABCDBDDA_events, nothing, UIRQ_REPORT_CIRCULAR)

/* AB CD BC DA: the four-lock cycle A -> B -> C -> D -> A learnt out of order. */
static void ABCDBCDA_events(void)
{
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(C, D);
	LOCK_UNLOCK_2(B, C);
	LOCK_UNLOCK_2(D, A);	/* the kernel fails here */
}

FAMILY_6R(ABCDBCDA, ABCDBCDA_events, nothing, UIRQ_REPORT_CIRCULAR)

/*
 * Double unlock: releasing a lock the task no longer holds.  Every type,
 * the read side included, reports bad unlock balance.  The lock types must
 * report and return: the lock has to stay usable (see double_unlock_usable).
 */
static void double_unlock_events(void)
{
	LOCK(A);
	UNLOCK(A);
	UNLOCK(A);	/* the kernel fails here */
}

FAMILY_6(double_unlock, double_unlock_events, nothing, UIRQ_REPORT_BAD_UNLOCK)

/*
 * Initialising a held lock: the lock's memory is about to be reused while
 * lockdep still lists it as held.  The kernel's init paths (spin_lock_init,
 * rwlock_init, mutex_init) all run the "no held locks in this memory" check
 * first, so every type reports "held lock freed!".
 */
static void init_held_events(void)
{
	LOCK(A);
	INIT(A);	/* the kernel fails here */
}

FAMILY_6(init_held, init_held_events, nothing, UIRQ_REPORT_HELD_FREED)

/*
 * After a double unlock the lock type must not be left corrupt: the lock
 * can still be taken (trylock, so a broken lock fails instead of hanging)
 * and released, and a spinlock's preempt count is back to zero.
 */
static int try_write_side(enum st_type t)
{
	switch (t) {
	case ST_SPIN:
		return uirq_spin_trylock(&st_A.spin);
	case ST_WLOCK:
	case ST_RLOCK:
		return uirq_write_trylock(&st_A.rw);
	case ST_MUTEX:
		return uirq_mutex_trylock(&st_A.mutex);
	}
	return 0;
}

static void release_write_side(enum st_type t)
{
	switch (t) {
	case ST_SPIN:
		uirq_spin_unlock(&st_A.spin);
		break;
	case ST_WLOCK:
	case ST_RLOCK:
		uirq_write_unlock(&st_A.rw);
		break;
	case ST_MUTEX:
		uirq_mutex_unlock(&st_A.mutex);
		break;
	}
}

#define USABLE(type)								\
	UIRQ_TEST(double_unlock_usable, type, ST_OPTS)				\
	{									\
		st_use(ST_##type);						\
		double_unlock_events();						\
		assert_eq(uirq_preempt_count(), 0,				\
			     "preempt count %#x after double unlock",		\
			     uirq_preempt_count());				\
		assert_true(try_write_side(ST_##type),				\
			  "lock unusable after a double unlock");		\
		release_write_side(ST_##type);					\
		assert_true(try_write_side(ST_##type),				\
			  "lock not released after a double unlock");		\
		release_write_side(ST_##type);					\
		assert_eq(uirq_preempt_count(), 0);				\
		st_expect_failure(UIRQ_REPORT_BAD_UNLOCK);			\
	}

USABLE(spin)
USABLE(wlock)
USABLE(rlock)
USABLE(mutex)

/*
 * False-positive guards that sit next to AA/ABBA in the kernel's design
 * (lockdep-design.rst): a nesting annotation makes the second lock of a
 * class a different subclass, and a trylock adds no dependency, so neither
 * is reported.
 */
UIRQ_TEST(AA_nested, spin, ST_OPTS)
{
	uirq_spin_lock(&st_X1.spin);
	uirq_spin_lock_nested(&st_X2.spin, 1);
	uirq_spin_unlock(&st_X2.spin);
	uirq_spin_unlock(&st_X1.spin);
	st_expect_success();
}

UIRQ_TEST(AA_nested, mutex, ST_OPTS)
{
	uirq_mutex_lock(&st_X1.mutex);
	uirq_mutex_lock_nested(&st_X2.mutex, 1);
	uirq_mutex_unlock(&st_X2.mutex);
	uirq_mutex_unlock(&st_X1.mutex);
	st_expect_success();
}

UIRQ_TEST(ABBA_trylock, spin, ST_OPTS)
{
	LOCK_UNLOCK_2(A, B);
	uirq_spin_lock(&st_B.spin);
	assert_true(uirq_spin_trylock(&st_A.spin));
	uirq_spin_unlock(&st_A.spin);
	uirq_spin_unlock(&st_B.spin);
	st_expect_success();
}

UIRQ_TEST(ABBA_trylock, mutex, ST_OPTS)
{
	st_use(ST_MUTEX);
	LOCK_UNLOCK_2(A, B);
	uirq_mutex_lock(&st_B.mutex);
	assert_true(uirq_mutex_trylock(&st_A.mutex));
	uirq_mutex_unlock(&st_A.mutex);
	uirq_mutex_unlock(&st_B.mutex);
	st_expect_success();
}

/* Consistent order, repeated: the chain cache path must stay silent too. */
UIRQ_TEST(ABAB_consistent, spin, ST_OPTS)
{
	for (int i = 0; i < 3; i++) {
		LOCK_UNLOCK_2(A, B);
		LOCK_UNLOCK_2(B, C);
		LOCK(A);
		LOCK(B);
		LOCK(C);
		UNLOCK(C);
		UNLOCK(B);
		UNLOCK(A);
	}
	st_expect_success();
}

/*
 * Unlike the kernel, uirq keeps validating after a report, and reports each
 * distinct problem once: repeating the same ABBA stays at one report, a
 * second, different cycle is reported on its own.
 */
UIRQ_TEST(after_report, same_problem_once, ST_OPTS)
{
	for (int i = 0; i < 3; i++)
		ABBA_events();
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

UIRQ_TEST(after_report, next_problem_reported, ST_OPTS)
{
	ABBA_events();
	LOCK_UNLOCK_2(C, D);
	LOCK_UNLOCK_2(D, C);
	assert_eq(st_nreports, 2, "a second, different cycle must be reported too (got %d)",
		     st_nreports);
	assert_eq(st_reports[0].kind, UIRQ_REPORT_CIRCULAR);
	assert_eq(st_reports[1].kind, UIRQ_REPORT_CIRCULAR);
	assert_true(strstr(st_reports[1].text, "lock_C") && strstr(st_reports[1].text, "lock_D"),
		  "the second report is about C and D");
}

/*
 * A trylock adds no dependency *to* the trylocked lock, but once it is held
 * it is a "prev" like any other: later acquisitions depend on it.  And the
 * search for prevs walks down through trylocked entries to the first
 * normally acquired lock (check_prevs_add), because that one's own edges do
 * not cover what was trylocked above it.
 */
UIRQ_TEST(trylock_prev, trylock_is_a_prev, ST_OPTS)
{
	assert_true(uirq_spin_trylock(&st_A.spin));
	L(B);			/* records A -> B */
	U(B);
	U(A);
	L(B);
	L(A);			/* B -> A closes the cycle */
	U(A);
	U(B);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

UIRQ_TEST(trylock_prev, walk_past_trylock_to_first_normal_lock, ST_OPTS)
{
	L(A);
	assert_true(uirq_spin_trylock(&st_B.spin));
	L(C);			/* records B -> C and A -> C */
	U(C);
	U(B);
	U(A);
	L(C);
	L(A);			/* C -> A closes A -> C -> A */
	U(A);
	U(C);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/* Subclasses are classes of their own: inverting them is a real ABBA. */
UIRQ_TEST(AA_nested, inverted_subclasses, ST_OPTS)
{
	L(X1);
	uirq_spin_lock_nested(&st_X2.spin, 1);	/* X/0 -> X/1 */
	U(X2);
	U(X1);
	uirq_spin_lock_nested(&st_X2.spin, 1);
	L(X1);					/* X/1 -> X/0: cycle */
	U(X1);
	U(X2);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

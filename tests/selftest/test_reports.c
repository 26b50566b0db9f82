// SPDX-License-Identifier: MIT
/*
 * What the reports say: the kernel's headline verbatim (in the report's
 * headline field and in its text), the class names involved, and the
 * "unsafe locking scenario" table that explains the deadlock in CPU columns.
 */
#include "harness.h"
#include <string.h>

#include "selftest.h"

static const struct st_record *only(enum uirq_lockdep_report_kind kind)
{
	st_expect_failure(kind);
	return &st_reports[0];
}

static void has(const struct st_record *r, const char *needle)
{
	assert_true(r->text && strstr(r->text, needle), "report text lacks \"%s\":\n%s", needle,
		  r->text ? r->text : "(null)");
}

static void headline_is(const struct st_record *r, const char *headline)
{
	assert_true(r->headline, "no headline");
	assert_str_eq(r->headline, headline);
	has(r, headline);
}

/* ABBA on spinlocks: the circular report names both classes and draws it. */
UIRQ_TEST(report_text, circular, ST_OPTS)
{
	const struct st_record *r;

	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, A);
	r = only(UIRQ_REPORT_CIRCULAR);
	headline_is(r, "WARNING: possible circular locking dependency detected");
	has(r, "lock_A");
	has(r, "lock_B");
	has(r, "is trying to acquire lock:");
	has(r, "but task is already holding lock:");
	has(r, "which lock already depends on the new lock.");
	has(r, "the existing dependency chain (in reverse order) is:");
	has(r, "Possible unsafe locking scenario:");
	has(r, "CPU0");
	has(r, "CPU1");
	has(r, "*** DEADLOCK ***");
	has(r, "lock(lock_A);");
	has(r, "lock(lock_B);");
}

/* A three-lock cycle: every class of the cycle is in the chain. */
UIRQ_TEST(report_text, circular_three, ST_OPTS)
{
	const struct st_record *r;

	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, C);
	LOCK_UNLOCK_2(C, A);
	r = only(UIRQ_REPORT_CIRCULAR);
	headline_is(r, "WARNING: possible circular locking dependency detected");
	has(r, "lock_A");
	has(r, "lock_B");
	has(r, "lock_C");
	has(r, "Possible unsafe locking scenario:");
	has(r, "*** DEADLOCK ***");
}

/* The scenario table for mutexes uses the mutex class names. */
UIRQ_TEST(report_text, circular_mutex, ST_OPTS)
{
	const struct st_record *r;

	st_use(ST_MUTEX);
	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, A);
	r = only(UIRQ_REPORT_CIRCULAR);
	headline_is(r, "WARNING: possible circular locking dependency detected");
	has(r, "Possible unsafe locking scenario:");
	has(r, "lock(mutex_A);");
	has(r, "lock(mutex_B);");
}

UIRQ_TEST(report_text, recursive, ST_OPTS)
{
	const struct st_record *r;

	LOCK(X1);
	LOCK(X2);
	r = only(UIRQ_REPORT_RECURSIVE);
	headline_is(r, "WARNING: possible recursive locking detected");
	has(r, "lock_X");
	has(r, "Possible unsafe locking scenario:");
	has(r, "*** DEADLOCK ***");
	has(r, "May be due to missing lock nesting notation");
	/* the scenario names the class as the kernel does: lock(NAME); */
	has(r, "lock(lock_X);");
	UNLOCK(X2);
	UNLOCK(X1);
}

/* IN-HARDIRQ-W first, then HARDIRQ-ON-W: the usage pair in that order. */
UIRQ_TEST(report_text, inconsistent_in_irq_then_on, ST_OPTS)
{
	const struct st_record *r;

	IRQ_ENTER();
	LU(A);
	IRQ_EXIT();
	LU(A);
	r = only(UIRQ_REPORT_INCONSISTENT);
	headline_is(r, "WARNING: inconsistent lock state");
	has(r, "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	has(r, "lock_A");
	has(r, "unsafe locking scenario");
	has(r, "<Interrupt>");
	has(r, "*** DEADLOCK ***");
	has(r, "lock(lock_A);");
}

UIRQ_TEST(report_text, inconsistent_on_then_in_irq, ST_OPTS)
{
	const struct st_record *r;

	LU(A);
	IRQ_ENTER();
	LU(A);
	IRQ_EXIT();
	r = only(UIRQ_REPORT_INCONSISTENT);
	headline_is(r, "WARNING: inconsistent lock state");
	has(r, "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.");
	has(r, "lock_A");
	has(r, "<Interrupt>");
}

/* A write lock in irq against readers with irqs on: the _R usage appears. */
UIRQ_TEST(report_text, inconsistent_read_usage, ST_OPTS)
{
	const struct st_record *r;

	RL(A);
	RU(A);
	IRQ_ENTER();
	WL(A);
	WU(A);
	IRQ_EXIT();
	r = only(UIRQ_REPORT_INCONSISTENT);
	headline_is(r, "WARNING: inconsistent lock state");
	has(r, "inconsistent {HARDIRQ-ON-R} -> {IN-HARDIRQ-W} usage.");
	has(r, "rwlock_A");
}

UIRQ_TEST(report_text, safe_to_unsafe, ST_OPTS)
{
	const struct st_record *r;

	IRQ_ENTER();
	LU(A);
	IRQ_EXIT();
	LU(B);
	IRQ_DISABLE();
	LOCK_UNLOCK_2(A, B);
	IRQ_ENABLE();
	r = only(UIRQ_REPORT_SAFE_TO_UNSAFE);
	headline_is(r, "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	has(r, "lock_A");
	has(r, "lock_B");
	has(r, "unsafe locking scenario");
	has(r, "<Interrupt>");
	has(r, "*** DEADLOCK ***");
	has(r, "local_irq_disable();");
	has(r, "lock(lock_A);");
	has(r, "lock(lock_B);");
}

UIRQ_TEST(report_text, irq_inversion, ST_OPTS)
{
	const struct st_record *r;

	IRQ_DISABLE();
	LOCK_UNLOCK_2(A, B);
	IRQ_ENABLE();
	LU(B);
	IRQ_ENTER();
	LU(A);
	IRQ_EXIT();
	r = only(UIRQ_REPORT_IRQ_INVERSION);
	headline_is(r, "WARNING: possible irq lock inversion dependency detected");
	has(r, "lock_A");
	has(r, "lock_B");
	has(r, "unsafe locking scenario");
	has(r, "<Interrupt>");
	has(r, "*** DEADLOCK ***");
	has(r, "local_irq_disable();");
	has(r, "lock(lock_A);");
	has(r, "lock(lock_B);");
}

UIRQ_TEST(report_text, bad_unlock, ST_OPTS)
{
	const struct st_record *r;

	LOCK(A);
	UNLOCK(A);
	UNLOCK(A);
	r = only(UIRQ_REPORT_BAD_UNLOCK);
	headline_is(r, "WARNING: bad unlock balance detected!");
	has(r, "is trying to release lock (lock_A)");
	has(r, "but there are no more locks to release!");
}

UIRQ_TEST(report_text, held_freed, ST_OPTS)
{
	const struct st_record *r;

	st_use(ST_MUTEX);
	LOCK(A);
	INIT(A);
	r = only(UIRQ_REPORT_HELD_FREED);
	headline_is(r, "WARNING: held lock freed!");
	has(r, "mutex_A");
}

/* A mutex under a spinlock: might_sleep()'s report, not a lockdep one. */
UIRQ_TEST(report_text, sleep_invalid, ST_OPTS)
{
	const struct st_record *r;

	L(A);
	ML(B);
	MU(B);
	U(A);
	r = only(UIRQ_REPORT_SLEEP_INVALID);
	assert_true(r->headline);
	assert_true(!strncmp(r->headline, "BUG: sleeping function called from invalid context at ",
			   strlen("BUG: sleeping function called from invalid context at ")),
		  "headline: %s", r->headline);
	has(r, "BUG: sleeping function called from invalid context at ");
	has(r, "in_atomic(): 1");
	has(r, "irqs_disabled(): 0");
	has(r, "lock_A");	/* the held locks are listed */
}

/*
 * The breadth-first search reports the shortest cycle: with both
 * A -> B -> C -> D and A -> D recorded, closing D -> A shows only A and D.
 */
UIRQ_TEST(report_text, circular_shortest, ST_OPTS)
{
	const struct st_record *r;

	LOCK_UNLOCK_2(A, B);
	LOCK_UNLOCK_2(B, C);
	LOCK_UNLOCK_2(C, D);
	LOCK_UNLOCK_2(A, D);
	LOCK_UNLOCK_2(D, A);
	r = only(UIRQ_REPORT_CIRCULAR);
	has(r, "lock_A");
	has(r, "lock_D");
	assert_true(!strstr(r->text, "lock_B") && !strstr(r->text, "lock_C"),
		  "the shortest cycle is A -> D -> A, not the one through B and C:\n%s", r->text);
}

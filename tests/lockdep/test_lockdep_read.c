// SPDX-License-Identifier: MIT
/*
 * Read locks: recursive readers (read=2, rwlock readers) and non-recursive
 * readers (read=1), judged by strong paths as lockdep-design.rst describes:
 * a cycle is a deadlock only if no -(*R)-> edge is followed by -(S*)->.
 */
#include "recorder.h"

static MAP(A);
static MAP(B);
static MAP(C);

UIRQ_TEST(lockdep_read, recursive_read_same_lock_is_fine, .timeout = 10)
{
	rec_start();
	RLOCK(A);
	RLOCK(A);
	UNLOCK(A);
	UNLOCK(A);
	RLOCK1(B);
	RLOCK(B);	/* a recursive read on top of any read */
	UNLOCK(B);
	UNLOCK(B);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep_read, non_recursive_read_twice_is_recursive_locking, .timeout = 10)
{
	rec_start();
	RLOCK1(A);
	RLOCK1(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_RECURSIVE], 1);
	assert_true(rec_has("rlock(A)"));
	UNLOCK(A);
	UNLOCK(A);
}

UIRQ_TEST(lockdep_read, write_then_read_same_lock_is_recursive_locking, .timeout = 10)
{
	rec_start();
	LOCK(A);
	RLOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_RECURSIVE], 1);
	UNLOCK(A);
	UNLOCK(A);
	RLOCK(B);
	LOCK(B);
	assert_eq(rec.by_kind[UIRQ_REPORT_RECURSIVE], 2);
	UNLOCK(B);
	UNLOCK(B);
}

UIRQ_TEST(lockdep_read, read_read_abba_is_no_deadlock, .timeout = 10)
{
	rec_start();
	RLOCK(A); RLOCK(B); UNLOCK(B); UNLOCK(A);
	RLOCK(B); RLOCK(A); UNLOCK(A); UNLOCK(B);
	assert_eq(rec.n, 0);
}

/* A -(ER)-> B then B -(SN)-> A: *R followed by S*, no strong cycle. */
UIRQ_TEST(lockdep_read, write_read_vs_read_write_is_no_deadlock, .timeout = 10)
{
	rec_start();
	LOCK(A); RLOCK(B); UNLOCK(B); UNLOCK(A);
	RLOCK(B); LOCK(A); UNLOCK(A); UNLOCK(B);
	assert_eq(rec.n, 0);
}

/* A -(ER)-> B, B -(SR)-> A: no strong cycle either. */
UIRQ_TEST(lockdep_read, write_read_vs_read_read_is_no_deadlock, .timeout = 10)
{
	rec_start();
	LOCK(A); RLOCK(B); UNLOCK(B); UNLOCK(A);
	RLOCK(B); RLOCK(A); UNLOCK(A); UNLOCK(B);
	assert_eq(rec.n, 0);
}

/* A -(SN)-> B, B -(SN)-> A: each holds a read lock the other wants to write. */
UIRQ_TEST(lockdep_read, read_write_both_ways_is_a_deadlock, .timeout = 10)
{
	rec_start();
	RLOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
	RLOCK(B); LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_true(rec_has("rlock(B)"));
	UNLOCK(A); UNLOCK(B);
}

/* A -(EN)-> B, B -(SN)-> A: a writer wants B while a reader of B wants A. */
UIRQ_TEST(lockdep_read, write_write_vs_read_write_is_a_deadlock, .timeout = 10)
{
	rec_start();
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
	RLOCK(B); LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	UNLOCK(A); UNLOCK(B);
}

/* A non-recursive reader blocks behind a waiting writer: A -(EN)-> B, B -(SN)-> A. */
UIRQ_TEST(lockdep_read, non_recursive_read_is_a_deadlock, .timeout = 10)
{
	rec_start();
	LOCK(A); RLOCK1(B); UNLOCK(B); UNLOCK(A);
	RLOCK1(B); LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	UNLOCK(A); UNLOCK(B);
}

/*
 * Three locks: A -(ER)-> B -(SN)-> C -(EN)-> A.  The path through B is not
 * strong (entered as recursive reader, left as reader): no report.
 */
UIRQ_TEST(lockdep_read, weak_link_in_a_longer_cycle, .timeout = 10)
{
	rec_start();
	LOCK(A); RLOCK(B); UNLOCK(B); UNLOCK(A);
	RLOCK(B); LOCK(C); UNLOCK(C); UNLOCK(B);
	LOCK(C); LOCK(A); UNLOCK(A); UNLOCK(C);
	assert_eq(rec.n, 0);
	/* now make B's entry strong: A -(EN)-> B closes A -> B -> C -> A */
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
}

/* The same edge seen first as -(ER)-> then as -(EN)->: the new type is checked. */
UIRQ_TEST(lockdep_read, new_dependency_type_on_an_old_edge_is_checked, .timeout = 10)
{
	rec_start();
	RLOCK(B); LOCK(A); UNLOCK(A); UNLOCK(B);	/* B -(SN)-> A */
	LOCK(A); RLOCK(B); UNLOCK(B); UNLOCK(A);	/* A -(ER)-> B: fine */
	assert_eq(rec.n, 0);
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);	/* A -(EN)-> B: deadlock */
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
}

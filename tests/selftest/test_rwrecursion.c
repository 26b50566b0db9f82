// SPDX-License-Identifier: MIT
/*
 * Recursive-read families: how read and write acquisitions of rwlocks mix.
 *
 * The read side of an rwlock is recursive-read (read=2): a reader never waits
 * behind a waiting writer, so readers only ever wait for a writer that holds
 * the lock.  lockdep-design.rst ("Recursive read locks") labels every
 * dependency by how its two ends were taken - E (exclusive: writer or plain
 * lock) or S (shared: reader) on the holding side, R (recursive reader) or N
 * (anything else) on the acquiring side - and reports a cycle only when it
 * is "strong": no -(*R)-> edge is directly followed by an -(S*)-> edge.
 * That is "a reader that got in because another reader was there cannot be
 * the one a writer waits for".
 *
 * X, Y, Z are rwlock classes (X1/X2 two instances of X); Y1 is also used as
 * a plain spinlock where the kernel's test takes L(Y1).
 */
#include "harness.h"

#include "selftest.h"

/* read after read of one class (same instance or two): no deadlock. */
UIRQ_TEST(rlock_AA1, same_instance, ST_OPTS)
{
	RL(X1);
	RL(X1);		/* a reader recursing on its own lock: fine */
	RU(X1);
	RU(X1);
	st_expect_success();
}

UIRQ_TEST(rlock_AA1B, two_instances, ST_OPTS)
{
	RL(X1);
	RL(X2);		/* two readers of class X: fine */
	RU(X2);
	RU(X1);
	st_expect_success();
}

/* read then write of one class: the writer waits for our own reader. */
UIRQ_TEST(rlock_AA2, read_then_write, ST_OPTS)
{
	RL(X1);
	WL(X2);		/* the kernel fails here: recursive locking */
	st_expect_failure(UIRQ_REPORT_RECURSIVE);
	WU(X2);
	RU(X1);
}

/* write then read of one class: the reader waits for our own writer. */
UIRQ_TEST(rlock_AA3, write_then_read, ST_OPTS)
{
	WL(X1);
	RL(X2);		/* the kernel fails here: recursive locking */
	st_expect_failure(UIRQ_REPORT_RECURSIVE);
	RU(X2);
	WU(X1);
}

/*
 * read_lock(X); lock(Y)   vs   lock(Y); write_lock(X)
 * X -(SN)-> Y -(EN)-> X has no R end at all, so it is strong: CPU1's
 * writer waits for CPU0's reader, CPU0 waits for Y held by CPU1.  Deadlock.
 */
UIRQ_TEST(rlock_ABBA1, read_lock_vs_lock_write, ST_OPTS)
{
	RL(X1);
	L(Y1);
	U(Y1);
	RU(X1);

	L(Y1);
	WL(X1);		/* the kernel fails here */
	WU(X1);
	U(Y1);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/*
 * read_lock(X); lock(Y)   vs   lock(Y); read_lock(X)
 * X -(SN)-> Y -(ER)-> X: around the cycle the R end of Y -> X meets the S
 * start of X -> Y, so it is not strong: CPU1's reader gets in beside CPU0's
 * reader.  No deadlock.
 */
UIRQ_TEST(rlock_ABBA2, read_lock_vs_lock_read, ST_OPTS)
{
	RL(X1);
	L(Y1);
	U(Y1);
	RU(X1);

	L(Y1);
	RL(X1);		/* must NOT fail */
	RU(X1);
	U(Y1);
	st_expect_success();
}

/* write_lock(X); lock(Y)   vs   lock(Y); write_lock(X): plain ABBA. */
UIRQ_TEST(rlock_ABBA3, write_lock_vs_lock_write, ST_OPTS)
{
	WL(X1);
	L(Y1);
	U(Y1);
	WU(X1);

	L(Y1);
	WL(X1);		/* the kernel fails here */
	WU(X1);
	U(Y1);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/*
 * The chain cache must key on read/write too: after Y -> read X has been
 * validated and cached as harmless, Y -> write X (same classes, same order)
 * is a new question and closes the deadlock of rlock_ABBA1.
 */
UIRQ_TEST(rlock_chaincache_ABBA1, cached_read_then_write, ST_OPTS)
{
	RL(X1);
	L(Y1);
	U(Y1);
	RU(X1);

	L(Y1);
	RL(X1);		/* fine, and now cached */
	RU(X1);
	U(Y1);

	L(Y1);
	WL(X1);		/* the kernel fails here despite the cached chain */
	WU(X1);
	U(Y1);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/*
 * Three-lock mixes; every order of the three events is a test, as in the
 * kernel.  W = write_lock, R = read_lock; "W1R2" is "write X then read Y".
 */

/*
 * W1R2 / W2R3 / W3R1: X -(ER)-> Y -(ER)-> Z -(ER)-> X.  Every R end is
 * followed by an E start, so the cycle is strong: each writer waits for the
 * reader the next CPU holds under its own writer.  Deadlock.
 */
static void w1r2(void) { WL(X1); RL(Y1); RU(Y1); WU(X1); }
static void w2r3(void) { WL(Y1); RL(Z1); RU(Z1); WU(Y1); }
static void w3r1(void) { WL(Z1); RL(X1); RU(X1); WU(Z1); }

ST_PERM3(W1R2_W2R3_W3R1, rlock, ST_RLOCK, w1r2, w2r3, w3r1, ST_CIRCULAR)

/*
 * W1W2 / R2R3 / W3R1: X -(EN)-> Y -(SR)-> Z -(ER)-> X.  The only R end
 * (Y -> Z) is followed by an E start (Z -> X): strong.  Deadlock.
 */
static void w1w2(void) { WL(X1); WL(Y1); WU(Y1); WU(X1); }
static void r2r3(void) { RL(Y1); RL(Z1); RU(Z1); RU(Y1); }

ST_PERM3(W1W2_R2R3_W3R1, rlock, ST_RLOCK, w1w2, r2r3, w3r1, ST_CIRCULAR)

/*
 * W1W2 / R2R3 / R3W1: X -(EN)-> Y -(SR)-> Z -(SN)-> X.  Y -> Z ends in R
 * and Z -> X starts with S: not strong, no deadlock (the reader of Z gets
 * in beside the other reader of Z).
 */
static void r3w1(void) { RL(Z1); WL(X1); WU(X1); RU(Z1); }

ST_PERM3(W1W2_R2R3_R3W1, rlock, ST_RLOCK, w1w2, r2r3, r3w1, ST_OK)

/*
 * W1R2 / R2R3 / W3W1: X -(ER)-> Y -(SR)-> Z -(EN)-> X.  X -> Y ends in R
 * and Y -> Z starts with S: not strong, no deadlock.
 */
static void w3w1(void) { WL(Z1); WL(X1); WU(X1); WU(Z1); }

ST_PERM3(W1R2_R2R3_W3W1, rlock, ST_RLOCK, w1r2, r2r3, w3w1, ST_OK)

/*
 * Two classes may be linked by more than one kind of dependency
 * (lockdep-design.rst: "given two locks, they may have multiple
 * dependencies between them").  X -(SR)-> Y alone would make the cycle
 * below harmless, but X -(EN)-> Y recorded afterwards makes it strong:
 * CPU0 read-holds Y and wants X for write, CPU1 write-holds X and wants Y
 * for write, which waits for CPU0's reader.  The edge must remember both.
 */
UIRQ_TEST(rlock_multi_dep, read_edge_then_write_edge, ST_OPTS)
{
	RL(X1); RL(Y1); RU(Y1); RU(X1);	/* X -(SR)-> Y */
	WL(X1); WL(Y1); WU(Y1); WU(X1);	/* X -(EN)-> Y, same pair of classes */
	RL(Y1);
	WL(X1);				/* Y -(SN)-> X: strong with X -(EN)-> Y */
	WU(X1);
	RU(Y1);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/* The same pair learnt the other way round: still a deadlock. */
UIRQ_TEST(rlock_multi_dep, write_edge_then_read_edge, ST_OPTS)
{
	WL(X1); WL(Y1); WU(Y1); WU(X1);	/* X -(EN)-> Y */
	RL(X1); RL(Y1); RU(Y1); RU(X1);	/* X -(SR)-> Y */
	RL(Y1);
	WL(X1);				/* Y -(SN)-> X */
	WU(X1);
	RU(Y1);
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/* Only the read edge: Y -(SN)-> X after X -(SR)-> Y is not strong. */
UIRQ_TEST(rlock_multi_dep, read_edge_only, ST_OPTS)
{
	RL(X1); RL(Y1); RU(Y1); RU(X1);	/* X -(SR)-> Y */
	RL(Y1);
	WL(X1);				/* Y -(SN)-> X */
	WU(X1);
	RU(Y1);
	st_expect_success();
}

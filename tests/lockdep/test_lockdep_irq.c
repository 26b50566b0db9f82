// SPDX-License-Identifier: MIT
/*
 * Hard-irq usage states, with the context module simulating interrupts:
 * uirq_hardirq_enter/exit for "taken in an irq handler", local_irq_* for
 * the interrupt state of process context.
 */
#include "recorder.h"

static MAP(A);
static MAP(B);
static MAP(C);

UIRQ_TEST(lockdep_irq, irq_safe_then_taken_with_irqs_on, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(LOCK(A); UNLOCK(A));
	assert_eq(rec.n, 0);
	LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_INCONSISTENT], 1);
	assert_str_eq(rec.last_headline, "WARNING: inconsistent lock state");
	assert_true(rec_has("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage."));
	assert_true(rec_has("{IN-HARDIRQ-W} state was registered at:"));
	assert_true(rec_has("<Interrupt>"));
	UNLOCK(A);
}

UIRQ_TEST(lockdep_irq, irq_unsafe_then_taken_in_irq, .timeout = 10)
{
	rec_start();
	LOCK(A);
	UNLOCK(A);
	IN_HARDIRQ(LOCK(A); UNLOCK(A));
	assert_eq(rec.by_kind[UIRQ_REPORT_INCONSISTENT], 1);
	assert_true(rec_has("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage."));
	assert_true(rec_has("[HC1[1]:SC0[0]:HE0:SE1] takes:"));
}

UIRQ_TEST(lockdep_irq, irq_safe_lock_taken_with_irqs_off_is_fine, .timeout = 10)
{
	unsigned long flags;

	rec_start();
	IN_HARDIRQ(LOCK(A); UNLOCK(A));
	flags = uirq_local_irq_save();
	LOCK(A);
	UNLOCK(A);
	uirq_local_irq_restore(flags);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep_irq, enabling_irqs_while_holding_marks_unsafe, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(LOCK(A); UNLOCK(A));
	uirq_local_irq_disable();
	LOCK(A);
	assert_eq(rec.n, 0);
	uirq_local_irq_enable();	/* A is now held with interrupts on */
	assert_eq(rec.by_kind[UIRQ_REPORT_INCONSISTENT], 1);
	assert_true(rec_has("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage."));
	UNLOCK(A);
}

UIRQ_TEST(lockdep_irq, read_in_irq_vs_read_with_irqs_on_is_fine, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(RLOCK(A); UNLOCK(A));
	RLOCK(A);
	UNLOCK(A);
	assert_eq(rec.n, 0, "rwlock readers recurse in irqs");
	LOCK(A);	/* but a writer with irqs on can be interrupted by a reader */
	assert_eq(rec.by_kind[UIRQ_REPORT_INCONSISTENT], 1);
	assert_true(rec_has("inconsistent {IN-HARDIRQ-R} -> {HARDIRQ-ON-W} usage."));
	UNLOCK(A);
}

UIRQ_TEST(lockdep_irq, trylock_in_irq_is_not_irq_safe, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(TRYLOCK(A); UNLOCK(A));
	LOCK(A);
	UNLOCK(A);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep_irq, safe_to_unsafe_two_locks, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(LOCK(A); UNLOCK(A));	/* A: irq-safe */
	LOCK(B);
	UNLOCK(B);			/* B: irq-unsafe */
	uirq_local_irq_disable();
	LOCK(A);
	LOCK(B);
	assert_eq(rec.by_kind[UIRQ_REPORT_SAFE_TO_UNSAFE], 1);
	assert_str_eq(rec.last_headline, "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	assert_true(rec_has("which would create a new lock dependency:"));
	assert_true(rec_has("but this new dependency connects a HARDIRQ-irq-safe lock:"));
	assert_true(rec_has("to a HARDIRQ-irq-unsafe lock:"));
	assert_true(rec_has("Possible interrupt unsafe locking scenario"));
	UNLOCK(B);
	UNLOCK(A);
	uirq_local_irq_enable();
	assert_eq(rec.n, 1);
}

UIRQ_TEST(lockdep_irq, safe_to_unsafe_three_locks, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(LOCK(A); UNLOCK(A));	/* A: irq-safe */
	LOCK(C);
	UNLOCK(C);			/* C: irq-unsafe */
	uirq_local_irq_disable();
	LOCK(B); LOCK(C); UNLOCK(C); UNLOCK(B);	/* B -> C */
	assert_eq(rec.n, 0);
	LOCK(A); LOCK(B);			/* A -> B -> C */
	assert_eq(rec.by_kind[UIRQ_REPORT_SAFE_TO_UNSAFE], 1);
	assert_true(rec_has("Chain exists of:"));
	UNLOCK(B); UNLOCK(A);
	uirq_local_irq_enable();
}

UIRQ_TEST(lockdep_irq, safe_to_unsafe_read_variants, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(RLOCK(A); UNLOCK(A));	/* A: read-safe */
	RLOCK(B);
	UNLOCK(B);			/* B: read-unsafe */
	uirq_local_irq_disable();
	/* A(read) -> B(recursive read): both ends only readers, no deadlock */
	RLOCK(A); RLOCK(B); UNLOCK(B); UNLOCK(A);
	assert_eq(rec.n, 0);
	/* C: taken as a writer, then interrupts enabled under it */
	LOCK(C);
	uirq_local_irq_enable();
	UNLOCK(C);
	uirq_local_irq_disable();
	/* a reader of A in C's interrupt still proceeds past another reader of A */
	RLOCK(A); LOCK(C); UNLOCK(C); UNLOCK(A);
	assert_eq(rec.n, 0);
	/* but not past a writer: A (write, irqs off) -> C */
	LOCK(A); LOCK(C); UNLOCK(C); UNLOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_SAFE_TO_UNSAFE], 1);
	assert_str_eq(rec.last_headline,
			 "WARNING: HARDIRQ-READ-safe -> HARDIRQ-READ-unsafe lock order detected");
	uirq_local_irq_enable();
}

UIRQ_TEST(lockdep_irq, inversion_found_forwards, .timeout = 10)
{
	rec_start();
	uirq_local_irq_disable();
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);	/* A -> B */
	uirq_local_irq_enable();
	LOCK(B);
	UNLOCK(B);				/* B: irq-unsafe */
	assert_eq(rec.n, 0);
	IN_HARDIRQ(LOCK(A); UNLOCK(A));		/* A becomes irq-safe */
	assert_eq(rec.by_kind[UIRQ_REPORT_IRQ_INVERSION], 1);
	assert_str_eq(rec.last_headline, "WARNING: possible irq lock inversion dependency detected");
	assert_true(rec_has("just changed the state of lock:"));
	assert_true(rec_has("but this lock took another, HARDIRQ-unsafe lock in the past:"));
	assert_true(rec_has("the shortest dependencies between 2nd lock and 1st lock:"));
}

UIRQ_TEST(lockdep_irq, inversion_found_backwards, .timeout = 10)
{
	rec_start();
	IN_HARDIRQ(LOCK(A); UNLOCK(A));		/* A: irq-safe */
	uirq_local_irq_disable();
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);	/* A -> B */
	uirq_local_irq_enable();
	assert_eq(rec.n, 0);
	LOCK(B);				/* B becomes irq-unsafe */
	assert_eq(rec.by_kind[UIRQ_REPORT_IRQ_INVERSION], 1);
	assert_true(rec_has("but this lock was taken by another, HARDIRQ-safe lock in the past:"));
	UNLOCK(B);
}

UIRQ_TEST(lockdep_irq, recursive_read_in_irq_vs_write_elsewhere, .timeout = 10)
{
	rec_start();
	/* irq: read A; process: write A with irqs off, then B under it, B irq-unsafe */
	IN_HARDIRQ(RLOCK(A); UNLOCK(A));
	uirq_local_irq_disable();
	LOCK(A);
	UNLOCK(A);
	uirq_local_irq_enable();
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep_irq, separate_chains_per_irq_context, .timeout = 10)
{
	rec_start();
	/* B taken in an irq that interrupted a holder of A: no A -> B dependency */
	uirq_local_irq_disable();
	LOCK(A);
	IN_HARDIRQ(LOCK(B); UNLOCK(B));
	UNLOCK(A);
	LOCK(B); LOCK(A); UNLOCK(A); UNLOCK(B);
	uirq_local_irq_enable();
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 0);
}

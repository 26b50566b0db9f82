// SPDX-License-Identifier: MIT
/*
 * Hard-irq families: locks used in interrupt context and with interrupts on.
 *
 * A lock taken in a hard-irq handler is HARDIRQ-safe-needing ("IN-HARDIRQ");
 * a lock ever held with interrupts enabled is "HARDIRQ-ON".  If one class is
 * both, an interrupt can arrive on the CPU that holds the lock and spin on it
 * forever: "inconsistent lock state".  If a safe lock is held while an unsafe
 * one is taken, the same happens through the dependency: "HARDIRQ-safe ->
 * HARDIRQ-unsafe lock order detected" when the dependency is what completes
 * the picture, "possible irq lock inversion dependency detected" when the
 * usage is (lockdep-design.rst, "Hardirq and softirq... rules").
 *
 * Readers of a recursive-read lock never wait for readers, so a read
 * acquisition in irq context together with read acquisitions with irqs on
 * is fine; only a write side on either end makes it a deadlock.
 *
 * Contexts are simulated in one thread exactly as the kernel's selftests do
 * it: IRQ_ENTER() disables interrupts and enters a hard-irq section.
 * Soft-irq families (the kernel's *_soft_* and irqsafe2A "sirq-safe-A =>
 * hirqs-on") have no counterpart: uirq has no bottom-half context.
 *
 * Lock types here are the kernel's three for these families: spin, wlock
 * (rwlock write side) and rlock (rwlock read side); mutexes cannot be taken
 * in irq context.
 */
#include "harness.h"
#include <string.h>

#include "selftest.h"

/*
 * For the three-event families below the events are always: E1 records the
 * dependency safe -> unsafe, E2 makes the "unsafe" end irq-unsafe, E3 makes
 * the "safe" end irq-safe.  Which report the kernel prints depends on which
 * fact comes last: the dependency (check_irq_usage at the new edge:
 * safe -> unsafe order) or a usage bit (mark_lock's forward or backward
 * search: irq inversion).  Orders 123 132 213 231 312 321:
 */
static const enum uirq_lockdep_report_kind dep_last_kind[6] = {
	UIRQ_REPORT_IRQ_INVERSION,	/* 123: safe usage comes last */
	UIRQ_REPORT_IRQ_INVERSION,	/* 132: unsafe usage comes last */
	UIRQ_REPORT_IRQ_INVERSION,	/* 213: safe usage comes last */
	UIRQ_REPORT_SAFE_TO_UNSAFE,	/* 231: the dependency comes last */
	UIRQ_REPORT_IRQ_INVERSION,	/* 312: unsafe usage comes last */
	UIRQ_REPORT_SAFE_TO_UNSAFE,	/* 321: the dependency comes last */
};

#define ST_IRQ_ORDER(i)		st_expect_failure(dep_last_kind[(i)])

/* irqsafe3 holds two problems; the kernel stops at the first. */
#define ST_INCONSISTENT_FIRST(i)						\
	((void)(i), st_expect_first(UIRQ_REPORT_INCONSISTENT,			\
				    ST_BIT(UIRQ_REPORT_SAFE_TO_UNSAFE) |	\
				    ST_BIT(UIRQ_REPORT_IRQ_INVERSION)))

/*
 * irqsafe1 "irqs-on + irq-safe-A": A is taken in a hard irq and, in plain
 * process context, with interrupts on.  Both orders: IN-HARDIRQ-W then
 * HARDIRQ-ON-W, and HARDIRQ-ON-W then IN-HARDIRQ-W.
 * Kernel: spin FAIL, wlock FAIL, rlock ok.
 */
static void irqsafe1_e1(void) { IRQ_ENTER(); LOCK(A); UNLOCK(A); IRQ_EXIT(); }
static void irqsafe1_e2(void) { LOCK(A); UNLOCK(A); }

ST_PERM2(irqsafe1_hard, spin, ST_SPIN, irqsafe1_e1, irqsafe1_e2, ST_INCONSISTENT)
ST_PERM2(irqsafe1_hard, wlock, ST_WLOCK, irqsafe1_e1, irqsafe1_e2, ST_INCONSISTENT)
ST_PERM2(irqsafe1_hard, rlock, ST_RLOCK, irqsafe1_e1, irqsafe1_e2, ST_OK)

/*
 * irqsafe2B "safe-A + irqs-on": A is irq-safe, and process context takes it
 * with interrupts off but then turns interrupts on while still holding it
 * (lockdep marks the held locks HARDIRQ-ON when irqs get enabled).
 * Kernel: spin FAIL, wlock FAIL, rlock ok.
 */
static void irqsafe2B_e1(void) { IRQ_ENTER(); LOCK(A); UNLOCK(A); IRQ_EXIT(); }
static void irqsafe2B_e2(void) { IRQ_DISABLE(); LOCK(A); IRQ_ENABLE(); UNLOCK(A); }

ST_PERM2(irqsafe2B_hard, spin, ST_SPIN, irqsafe2B_e1, irqsafe2B_e2, ST_INCONSISTENT)
ST_PERM2(irqsafe2B_hard, wlock, ST_WLOCK, irqsafe2B_e1, irqsafe2B_e2, ST_INCONSISTENT)
ST_PERM2(irqsafe2B_hard, rlock, ST_RLOCK, irqsafe2B_e1, irqsafe2B_e2, ST_OK)

/*
 * irqsafe3 "safe-A + unsafe-B #1": A -> B taken with interrupts on, B alone
 * with interrupts on, A in a hard irq.  A itself is then both IN-HARDIRQ and
 * HARDIRQ-ON, which is what the kernel reports first in every order; the
 * A(safe) -> B(unsafe) dependency is a second, distinct problem that uirq
 * may report as well since it keeps validating.
 * Kernel: spin FAIL, wlock FAIL, rlock ok.
 */
static void irqsafe3_e1(void) { LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A); }
static void irqsafe3_e2(void) { LOCK(B); UNLOCK(B); }
static void irqsafe3_e3(void) { IRQ_ENTER(); LOCK(A); UNLOCK(A); IRQ_EXIT(); }

ST_PERM3(irqsafe3_hard, spin, ST_SPIN, irqsafe3_e1, irqsafe3_e2, irqsafe3_e3, ST_INCONSISTENT_FIRST)
ST_PERM3(irqsafe3_hard, wlock, ST_WLOCK, irqsafe3_e1, irqsafe3_e2, irqsafe3_e3, ST_INCONSISTENT_FIRST)
ST_PERM3(irqsafe3_hard, rlock, ST_RLOCK, irqsafe3_e1, irqsafe3_e2, irqsafe3_e3, ST_OK)

/*
 * irqsafe4 "safe-A + unsafe-B #2": A -> B taken with interrupts off (so A
 * is consistent), B taken with interrupts on, A taken in a hard irq.  CPU0
 * holds B with irqs on; CPU1 holds A and spins on B; the interrupt on CPU0
 * spins on A.  The report depends on which fact comes last (dep_last_kind).
 * Kernel: spin FAIL, wlock FAIL, rlock ok.
 */
static void irqsafe4_e1(void) { IRQ_DISABLE(); LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A); IRQ_ENABLE(); }
static void irqsafe4_e2(void) { LOCK(B); UNLOCK(B); }
static void irqsafe4_e3(void) { IRQ_ENTER(); LOCK(A); UNLOCK(A); IRQ_EXIT(); }

ST_PERM3(irqsafe4_hard, spin, ST_SPIN, irqsafe4_e1, irqsafe4_e2, irqsafe4_e3, ST_IRQ_ORDER)
ST_PERM3(irqsafe4_hard, wlock, ST_WLOCK, irqsafe4_e1, irqsafe4_e2, irqsafe4_e3, ST_IRQ_ORDER)
ST_PERM3(irqsafe4_hard, rlock, ST_RLOCK, irqsafe4_e1, irqsafe4_e2, irqsafe4_e3, ST_OK)

/*
 * irq lock inversion with a reader in the irq: CPU0 write-locks rwlock A
 * (irqs off) and then wants B; CPU1 holds B with irqs on and its interrupt
 * read-locks A, waiting for CPU0's writer.  B is the selected lock type;
 * when B is itself only read-locked, CPU0 gets it beside CPU1: no deadlock.
 * Kernel: spin FAIL, wlock FAIL, rlock ok.
 */
static void irqinv_e1(void) { IRQ_DISABLE(); WL(A); LOCK(B); UNLOCK(B); WU(A); IRQ_ENABLE(); }
static void irqinv_e2(void) { LOCK(B); UNLOCK(B); }
static void irqinv_e3(void) { IRQ_ENTER(); RL(A); RU(A); IRQ_EXIT(); }

ST_PERM3(irq_inversion_hard, spin, ST_SPIN, irqinv_e1, irqinv_e2, irqinv_e3, ST_IRQ_ORDER)
ST_PERM3(irq_inversion_hard, wlock, ST_WLOCK, irqinv_e1, irqinv_e2, irqinv_e3, ST_IRQ_ORDER)
ST_PERM3(irq_inversion_hard, rlock, ST_RLOCK, irqinv_e1, irqinv_e2, irqinv_e3, ST_OK)

/*
 * irq read-recursion #1: rwlock A is read-locked with irqs on and taken in
 * a hard irq (then B inside).  A reader in the irq gets in beside the
 * interrupted reader: fine.  A writer in the irq waits for the reader it
 * interrupted: inconsistent lock state (IN-HARDIRQ-W vs HARDIRQ-ON-R).
 * Kernel: wlock FAIL, rlock ok.
 */
static void rrec1_e1(void) { IRQ_DISABLE(); WL(A); WU(A); IRQ_ENABLE(); }
static void rrec1_e2(void) { RL(A); RU(A); }
static void rrec1_e3(void) { IRQ_ENTER(); LOCK(A); L(B); U(B); UNLOCK(A); IRQ_EXIT(); }

ST_PERM3(irq_read_recursion_hard, wlock, ST_WLOCK, rrec1_e1, rrec1_e2, rrec1_e3, ST_INCONSISTENT)
ST_PERM3(irq_read_recursion_hard, rlock, ST_RLOCK, rrec1_e1, rrec1_e2, rrec1_e3, ST_OK)

/*
 * irq read-recursion #2: spinlock B -> rwlock A with irqs off, A read-locked
 * with irqs on, B taken in a hard irq.  CPU0 read-holds A, its interrupt
 * spins on B; CPU1 holds B and takes A: as a reader it gets in (fine), as a
 * writer it waits for CPU0's reader (deadlock).
 * Kernel: wlock FAIL, rlock ok.
 */
static void rrec2_e1(void) { IRQ_DISABLE(); L(B); LOCK(A); UNLOCK(A); U(B); IRQ_ENABLE(); }
static void rrec2_e2(void) { RL(A); RU(A); }
static void rrec2_e3(void) { IRQ_ENTER(); L(B); U(B); IRQ_EXIT(); }

ST_PERM3(irq_read_recursion2_hard, wlock, ST_WLOCK, rrec2_e1, rrec2_e2, rrec2_e3, ST_IRQ_ORDER)
ST_PERM3(irq_read_recursion2_hard, rlock, ST_RLOCK, rrec2_e1, rrec2_e2, rrec2_e3, ST_OK)

/*
 * irq read-recursion #3: as #2 but B is an rwlock, write-locked in process
 * context and read-locked in the irq (B is IN-HARDIRQ-R, A HARDIRQ-ON-R).
 * CPU0 read-holds A, its interrupt read-waits for CPU1's writer on B; CPU1
 * then takes A: a reader gets in, a writer waits for CPU0 (deadlock).
 * Kernel: wlock FAIL, rlock ok.
 */
static void rrec3_e1(void) { IRQ_DISABLE(); WL(B); LOCK(A); UNLOCK(A); WU(B); IRQ_ENABLE(); }
static void rrec3_e2(void) { RL(A); RU(A); }
static void rrec3_e3(void) { IRQ_ENTER(); RL(B); RU(B); IRQ_EXIT(); }

ST_PERM3(irq_read_recursion3_hard, wlock, ST_WLOCK, rrec3_e1, rrec3_e2, rrec3_e3, ST_IRQ_ORDER)
ST_PERM3(irq_read_recursion3_hard, rlock, ST_RLOCK, rrec3_e1, rrec3_e2, rrec3_e3, ST_OK)

/*
 * Safe -> unsafe over longer chains: the irq-safe lock and the irq-unsafe
 * lock are not adjacent, the dependency search has to walk through the
 * locks in between (the hard-irq half of the kernel's
 * hardirq_deadlock_softirq_not_deadlock case).
 * Kernel semantics: spin and wlock FAIL; all-reader chains are fine.
 */
static void make_A_safe(void) { IRQ_ENTER(); LOCK(A); UNLOCK(A); IRQ_EXIT(); }
static void make_C_unsafe(void) { LOCK(C); UNLOCK(C); }
static void make_D_unsafe(void) { LOCK(D); UNLOCK(D); }
static void dep(void (*f)(void)) { IRQ_DISABLE(); f(); IRQ_ENABLE(); }
static void AB(void) { LOCK_UNLOCK_2(A, B); }
static void BC(void) { LOCK_UNLOCK_2(B, C); }
static void CD(void) { LOCK_UNLOCK_2(C, D); }

/* A safe, C unsafe, then A -> B, then B -> C closes safe -> unsafe. */
#define CHAIN3_S2U(type, ST, check)						\
	UIRQ_TEST(safe_unsafe_chain3, type, ST_OPTS)					\
	{									\
		st_use(ST);							\
		make_A_safe();							\
		make_C_unsafe();						\
		dep(AB);							\
		dep(BC);							\
		check;								\
	}
CHAIN3_S2U(spin, ST_SPIN, st_expect_failure(UIRQ_REPORT_SAFE_TO_UNSAFE))
CHAIN3_S2U(wlock, ST_WLOCK, st_expect_failure(UIRQ_REPORT_SAFE_TO_UNSAFE))
CHAIN3_S2U(rlock, ST_RLOCK, st_expect_success())

/* A -> B -> C -> D with A safe and D unsafe, the last edge closes it. */
#define CHAIN4_S2U(type, ST, check)						\
	UIRQ_TEST(safe_unsafe_chain4, type, ST_OPTS)					\
	{									\
		st_use(ST);							\
		make_A_safe();							\
		make_D_unsafe();						\
		dep(AB);							\
		dep(BC);							\
		dep(CD);							\
		check;								\
	}
CHAIN4_S2U(spin, ST_SPIN, st_expect_failure(UIRQ_REPORT_SAFE_TO_UNSAFE))
CHAIN4_S2U(wlock, ST_WLOCK, st_expect_failure(UIRQ_REPORT_SAFE_TO_UNSAFE))
CHAIN4_S2U(rlock, ST_RLOCK, st_expect_success())

/* A -> B -> C recorded, C unsafe, then A becomes safe: forward search. */
#define CHAIN3_INV_FWD(type, ST, check)						\
	UIRQ_TEST(irq_inversion_chain3_forward, type, ST_OPTS)			\
	{									\
		st_use(ST);							\
		dep(AB);							\
		dep(BC);							\
		make_C_unsafe();						\
		make_A_safe();							\
		check;								\
	}
CHAIN3_INV_FWD(spin, ST_SPIN, st_expect_failure(UIRQ_REPORT_IRQ_INVERSION))
CHAIN3_INV_FWD(wlock, ST_WLOCK, st_expect_failure(UIRQ_REPORT_IRQ_INVERSION))
CHAIN3_INV_FWD(rlock, ST_RLOCK, st_expect_success())

/* A -> B -> C recorded, A safe, then C becomes unsafe: backward search. */
#define CHAIN3_INV_BWD(type, ST, check)						\
	UIRQ_TEST(irq_inversion_chain3_backward, type, ST_OPTS)			\
	{									\
		st_use(ST);							\
		dep(AB);							\
		dep(BC);							\
		make_A_safe();							\
		make_C_unsafe();						\
		check;								\
	}
CHAIN3_INV_BWD(spin, ST_SPIN, st_expect_failure(UIRQ_REPORT_IRQ_INVERSION))
CHAIN3_INV_BWD(wlock, ST_WLOCK, st_expect_failure(UIRQ_REPORT_IRQ_INVERSION))
CHAIN3_INV_BWD(rlock, ST_RLOCK, st_expect_success())

/*
 * The consistent pattern must stay silent: an irq-safe lock always taken
 * with irqs off (spin_lock_irqsave) in process context, and in the irq.
 */
UIRQ_TEST(irqsafe_consistent, spin_irqsave, ST_OPTS)
{
	unsigned long flags;

	for (int i = 0; i < 2; i++) {
		IRQ_ENTER();
		uirq_spin_lock(&st_A.spin);
		uirq_spin_unlock(&st_A.spin);
		IRQ_EXIT();
		uirq_spin_lock_irqsave(&st_A.spin, flags);
		uirq_spin_lock(&st_B.spin);
		uirq_spin_unlock(&st_B.spin);
		uirq_spin_unlock_irqrestore(&st_A.spin, flags);
		uirq_spin_lock_irq(&st_B.spin);
		uirq_spin_unlock_irq(&st_B.spin);
	}
	assert_true(!uirq_irqs_disabled());
	st_expect_success();
}

/*
 * A reader in the irq against a *writer* with irqs on is as bad as two
 * writers: the interrupt's reader waits for the writer it interrupted
 * ({IN-HARDIRQ-R} vs {HARDIRQ-ON-W}).  The mirror image of
 * irq_read_recursion's wlock row.
 */
static void rd_in_irq(void) { IRQ_ENTER(); RL(A); RU(A); IRQ_EXIT(); }
static void wr_irqs_on(void) { WL(A); WU(A); }

ST_PERM2(irqsafe1_read_in_irq, write_irqs_on, ST_WLOCK, rd_in_irq, wr_irqs_on, ST_INCONSISTENT)

/*
 * An interrupt does not depend on the locks of the context it interrupted:
 * lockdep starts a new chain at the irq boundary, so holding P (irqs on)
 * while the simulated interrupt takes Q records no P -> Q dependency and
 * nothing is reported.
 */
UIRQ_TEST(irq_context, no_dependency_across_irq_entry, ST_OPTS)
{
	struct uirq_lockdep_stats before, after;

	uirq_lockdep_get_stats(&before);
	L(A);				/* process context, irqs on */
	IRQ_ENTER();
	L(B);				/* the interrupt on this CPU */
	U(B);
	IRQ_EXIT();
	U(A);
	uirq_lockdep_get_stats(&after);
	assert_eq(after.dependencies, before.dependencies,
		     "an irq's lock must not depend on the interrupted context's locks");
	st_expect_success();
}

/*
 * A cached lock chain skips the graph search, never the usage marking: the
 * chain A, B is first validated with interrupts off; B then becomes
 * irq-safe; taking the very same chain with interrupts on must still mark B
 * HARDIRQ-ON and find the inconsistency.
 */
UIRQ_TEST(chaincache_usage, irqs_on_after_cached_irqs_off, ST_OPTS)
{
	IRQ_DISABLE();
	L(A); L(B); U(B); U(A);
	IRQ_ENABLE();
	IRQ_ENTER();
	L(B); U(B);
	IRQ_EXIT();
	L(A); L(B); U(B); U(A);		/* same chain, irqs on */
	st_expect_failure(UIRQ_REPORT_INCONSISTENT);
}

/* The same in the other direction: the cached chain is then taken in irq. */
UIRQ_TEST(chaincache_usage, in_irq_after_cached_irqs_on, ST_OPTS)
{
	L(A); L(B); U(B); U(A);		/* A, B: HARDIRQ-ON */
	IRQ_ENTER();
	L(A); L(B); U(B); U(A);		/* same classes in irq: IN-HARDIRQ */
	IRQ_EXIT();
	/* A's inconsistency first (the kernel stops there); B's is a second one */
	assert_ge(st_nreports, 1, "the cached chain in irq hid the inconsistency");
	assert_eq(st_reports[0].kind, UIRQ_REPORT_INCONSISTENT, "first report: %s",
		     st_kind_name(st_reports[0].kind));
	assert_true(strstr(st_reports[0].text, "(lock_A)"), "A is marked first:\n%s",
		  st_reports[0].text);
	for (int i = 1; i < st_nreports; i++) {
		assert_true(st_reports[i].kind != UIRQ_REPORT_INCONSISTENT ||
			  strstr(st_reports[i].text, "(lock_B)"),
			  "a second inconsistency can only be B's:\n%s", st_reports[i].text);
		assert_true(ST_BIT(st_reports[i].kind) & (ST_BIT(UIRQ_REPORT_INCONSISTENT) |
			  ST_BIT(UIRQ_REPORT_SAFE_TO_UNSAFE) | ST_BIT(UIRQ_REPORT_IRQ_INVERSION)),
			  "unexpected %s", st_kind_name(st_reports[i].kind));
	}
}

/*
 * Dependencies are global, whatever the context that recorded them: A -> B
 * learnt in an interrupt and B -> A in process context (irqs off, so both
 * locks stay irq-consistent) is a plain ABBA.
 */
UIRQ_TEST(ABBA_irq, irq_then_process, ST_OPTS)
{
	IRQ_ENTER();
	LOCK_UNLOCK_2(A, B);
	IRQ_EXIT();
	IRQ_DISABLE();
	LOCK_UNLOCK_2(B, A);
	IRQ_ENABLE();
	st_expect_failure(UIRQ_REPORT_CIRCULAR);
}

/*
 * An interrupt that read-locks the rwlock its own CPU already read-holds
 * (irqs on) is the case recursive readers exist for: no report.
 */
UIRQ_TEST(irq_read_recursion_nested, same_thread, ST_OPTS)
{
	RL(A);
	IRQ_ENTER();
	RL(A);
	RU(A);
	IRQ_EXIT();
	RU(A);
	st_expect_success();
}

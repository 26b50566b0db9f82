// SPDX-License-Identifier: MIT
/* The lockdep engine through its map API: dependencies, cycles, held-lock stacks, reports. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

#include "recorder.h"

static MAP(A);
static MAP(B);
static MAP(C);
static MAP(D);
static MAP(X);
static MAP(Y);
static MAP(Z);

UIRQ_TEST(lockdep, aa_is_recursive_locking, .timeout = 10)
{
	rec_start();
	LOCK(A);
	LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_RECURSIVE], 1);
	assert_eq(rec.n, 1);
	assert_true(rec_has("WARNING: possible recursive locking detected"));
	assert_true(rec_has("(A)"));
	assert_true(rec_has("*** DEADLOCK ***"));
	assert_true(rec_has("1 lock held by"));
	UNLOCK(A);
	UNLOCK(A);
	assert_eq(rec.n, 1, "validation goes on, balanced unlocks are fine");
}

UIRQ_TEST(lockdep, abba_one_thread, .timeout = 10)
{
	rec_start();
	LOCK(A);
	LOCK(B);
	UNLOCK(B);
	UNLOCK(A);
	assert_eq(rec.n, 0);
	LOCK(B);
	LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_str_eq(rec.last_headline, "WARNING: possible circular locking dependency detected");
	assert_true(rec_has("-> #1 (B)"));
	assert_true(rec_has("-> #0 (A)"));
	assert_true(rec_has("Possible unsafe locking scenario"));
	assert_true(rec_has("*** DEADLOCK ***"));
	assert_true(rec_has("test_lockdep.c:"), "edges carry their file:line");
	UNLOCK(A);
	UNLOCK(B);
}

static void *take_ab(void *arg)
{
	(void)arg;
	LOCK(A);
	LOCK(B);
	UNLOCK(B);
	UNLOCK(A);
	return NULL;
}

static void *take_ba(void *arg)
{
	(void)arg;
	LOCK(B);
	LOCK(A);
	UNLOCK(A);
	UNLOCK(B);
	return NULL;
}

UIRQ_TEST(lockdep, abba_two_threads, .timeout = 10)
{
	pthread_t t;

	rec_start();
	pthread_create(&t, NULL, take_ab, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, take_ba, NULL);
	pthread_join(t, NULL);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_eq(rec.n, 1);
}

UIRQ_TEST(lockdep, abbcca_reports_the_shortest_cycle, .timeout = 10)
{
	rec_start();
	/* a long way A -> X -> Y -> Z -> C, learned first, and a short one A -> B -> C */
	LOCK(A); LOCK(X); UNLOCK(X); UNLOCK(A);
	LOCK(X); LOCK(Y); UNLOCK(Y); UNLOCK(X);
	LOCK(Y); LOCK(Z); UNLOCK(Z); UNLOCK(Y);
	LOCK(Z); LOCK(C); UNLOCK(C); UNLOCK(Z);
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
	LOCK(B); LOCK(C); UNLOCK(C); UNLOCK(B);
	assert_eq(rec.n, 0);
	LOCK(C);
	LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_true(rec_has("-> #2 (C)"));
	assert_true(rec_has("-> #1 (B)"));
	assert_true(rec_has("-> #0 (A)"));
	assert_false(rec_has("-> #3"));
	assert_false(rec_has("(X)"), "the longer path must not be shown");
	assert_true(rec_has("Chain exists of:\n  A --> B --> C"));
	UNLOCK(A);
	UNLOCK(C);
}

UIRQ_TEST(lockdep, trylock_adds_no_dependency, .timeout = 10)
{
	struct uirq_lockdep_stats st;

	rec_start();
	LOCK(A);
	TRYLOCK(B);
	assert_true(uirq_lockdep_is_held(&B));
	UNLOCK(B);
	UNLOCK(A);
	uirq_lockdep_get_stats(&st);
	assert_eq(st.dependencies, 0);
	LOCK(B);
	LOCK(A);
	UNLOCK(A);
	UNLOCK(B);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep, lock_after_trylock_depends_on_both, .timeout = 10)
{
	rec_start();
	/* edges from each held lock down to the first non-trylock: B -> C and A -> C */
	LOCK(A);
	TRYLOCK(B);
	LOCK(C);
	UNLOCK(C);
	UNLOCK(B);
	UNLOCK(A);
	assert_eq(rec.n, 0);
	LOCK(C);
	LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	UNLOCK(A);
	UNLOCK(C);
}

UIRQ_TEST(lockdep, out_of_order_release, .timeout = 10)
{
	rec_start();
	LOCK(A);
	LOCK(B);
	LOCK(C);
	UNLOCK(A);
	assert_false(uirq_lockdep_is_held(&A));
	assert_true(uirq_lockdep_is_held(&B));
	assert_true(uirq_lockdep_is_held(&C));
	LOCK(D);	/* chain B, C, D: C -> D */
	UNLOCK(B);
	UNLOCK(D);
	UNLOCK(C);
	assert_eq(rec.n, 0);
	assert_false(uirq_lockdep_is_held(&C));
	/* the stack is consistent again: the same sequence is a plain cache hit */
	LOCK(A);
	LOCK(B);
	UNLOCK(B);
	UNLOCK(A);
	LOCK(D);
	LOCK(C);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1, "C -> D was learned after the out-of-order release");
	UNLOCK(C);
	UNLOCK(D);
}

UIRQ_TEST(lockdep, subclasses_are_separate_classes, .timeout = 10)
{
	rec_start();
	LOCK(A);
	LOCK_NESTED(A, 1);
	UNLOCK(A);
	UNLOCK(A);
	assert_eq(rec.n, 0, "nesting annotation: no recursive report");
	LOCK_NESTED(A, 1);
	LOCK(A);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_true(rec_has("(A/1)"));
	UNLOCK(A);
	UNLOCK(A);
}

UIRQ_TEST(lockdep, chain_cache_skips_the_graph, .timeout = 10)
{
	struct uirq_lockdep_stats s1, s2;

	rec_start();
	/* the first time each class is taken, its chain is validated but not cached (it may never come again) */
	LOCK(A); LOCK(B); LOCK(C); UNLOCK(C); UNLOCK(B); UNLOCK(A);
	uirq_lockdep_get_stats(&s1);
	assert_eq(s1.chains, 0);
	assert_eq(s1.dependencies, 2);
	LOCK(A); LOCK(B); LOCK(C); UNLOCK(C); UNLOCK(B); UNLOCK(A);
	uirq_lockdep_get_stats(&s1);
	assert_gt(s1.bfs_searches, 0);
	assert_ge(s1.chains, 3);
	assert_eq(s1.dependencies, 2);
	for (int i = 0; i < 1000; i++) {
		LOCK(A); LOCK(B); LOCK(C); UNLOCK(C); UNLOCK(B); UNLOCK(A);
	}
	uirq_lockdep_get_stats(&s2);
	assert_eq(s2.bfs_searches, s1.bfs_searches);
	assert_eq(s2.chain_hits, s1.chain_hits + 3000);
	assert_eq(s2.chains, s1.chains);
	assert_eq(s2.max_depth_seen, 3);
}

static void *hit_chains(void *arg)
{
	(void)arg;
	for (int i = 0; i < 500; i++) {
		LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
	}
	return NULL;
}

UIRQ_TEST(lockdep, chain_cache_is_shared_by_threads, .timeout = 10)
{
	pthread_t t[4];
	struct uirq_lockdep_stats st;

	rec_start();
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, hit_chains, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	uirq_lockdep_get_stats(&st);
	assert_eq(rec.n, 0);
	assert_eq(st.dependencies, 1);
	assert_ge(st.chain_hits, 4 * 500 * 2 - 2 * 4, "flushed at thread exit");
}

/* Past the kernel's MAX_LOCK_DEPTH (48) the stack grows: nothing turns off. */
#define DEEP 300

UIRQ_TEST(lockdep, deep_nesting_has_no_limit, .timeout = 10)
{
	static struct uirq_lockdep_map maps[DEEP];
	struct uirq_lockdep_stats st;

	rec_start();
	for (int i = 0; i < DEEP; i++) {
		uirq_lockdep_init_map(&maps[i], "deep", NULL, 0);
		LOCK(maps[i]);
	}
	for (int i = 0; i < DEEP; i++)
		assert_true(uirq_lockdep_is_held(&maps[i]), "lock %d of %d not held", i, DEEP);
	assert_eq(rec.n, 0);
	assert_true(uirq_lockdep_enabled());
	/* out of order from the middle of a deep stack: the locks above are re-validated */
	UNLOCK(maps[DEEP / 2]);
	assert_eq(rec.n, 0);
	for (int i = DEEP - 1; i >= 0; i--)
		if (i != DEEP / 2)
			UNLOCK(maps[i]);
	assert_eq(rec.n, 0);
	uirq_lockdep_get_stats(&st);
	assert_eq(st.max_depth_seen, DEEP);
	/* and the validator still sees an inversion afterwards */
	LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
	LOCK(B); LOCK(A); UNLOCK(A); UNLOCK(B);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_eq(rec.n, 1);
}

UIRQ_TEST(lockdep, bad_unlock_balance, .timeout = 10)
{
	rec_start();
	for (int i = 0; i < 3; i++)
		UNLOCK(A);	/* one site: one report */
	assert_eq(rec.by_kind[UIRQ_REPORT_BAD_UNLOCK], 1);
	assert_true(rec_has("WARNING: bad unlock balance detected!"));
	assert_true(rec_has("is trying to release lock (A) at:"));
	assert_true(rec_has("but there are no more locks to release!"));
	LOCK(B);
	UNLOCK(B);
	UNLOCK(B);	/* double unlock, another site */
	assert_eq(rec.by_kind[UIRQ_REPORT_BAD_UNLOCK], 2);
	assert_eq(rec.n, 2);
}

UIRQ_TEST(lockdep, held_lock_freed, .timeout = 10)
{
	struct uirq_lockdep_map *m = malloc(sizeof(*m));

	rec_start();
	uirq_lockdep_init_map(m, "heap_lock", NULL, 0);
	LOCK(A);
	LOCK(*m);
	uirq_lockdep_check_no_locks_freed(m, sizeof(*m));
	assert_eq(rec.by_kind[UIRQ_REPORT_HELD_FREED], 1);
	assert_true(rec_has("WARNING: held lock freed!"));
	assert_true(rec_has("(heap_lock)"));
	assert_false(uirq_lockdep_is_held(m), "the freed lock is forgotten");
	assert_true(uirq_lockdep_is_held(&A));
	free(m);
	/* lock init paths check too: re-initialising a held lock */
	LOCK(B);
	uirq_lockdep_init_map(&B, "B", NULL, 0);
	assert_eq(rec.by_kind[UIRQ_REPORT_HELD_FREED], 2);
	UNLOCK(A);
	assert_eq(rec.n, 2);
	/* freeing memory with no lock in it says nothing */
	LOCK(C);
	uirq_lockdep_check_no_locks_freed(&D, sizeof(D));
	UNLOCK(C);
	assert_eq(rec.n, 2);
}

static void *exit_holding(void *arg)
{
	(void)arg;
	LOCK(C);
	LOCK(D);
	return NULL;
}

UIRQ_TEST(lockdep, thread_exit_with_locks_held, .timeout = 10)
{
	pthread_t t;

	rec_start();
	pthread_create(&t, NULL, exit_holding, NULL);
	pthread_join(t, NULL);
	assert_eq(rec.by_kind[UIRQ_REPORT_HELD_AT_EXIT], 1);
	assert_true(rec_has("still has locks held!"));
	assert_true(rec_has("2 locks held by"));
	assert_true(strstr(rec.last_headline, "WARNING: ") == rec.last_headline);
	/* explicit check on this thread */
	LOCK(A);
	uirq_lockdep_thread_exit();
	assert_eq(rec.by_kind[UIRQ_REPORT_HELD_AT_EXIT], 2);
	assert_false(uirq_lockdep_is_held(&A), "forgotten after the check");
	uirq_lockdep_thread_exit();
	assert_eq(rec.n, 2, "nothing held: nothing to say");
}

UIRQ_TEST(lockdep, each_problem_reported_once, .timeout = 10)
{
	rec_start();
	for (int i = 0; i < 5; i++) {
		LOCK(A); LOCK(B); UNLOCK(B); UNLOCK(A);
		LOCK(B); LOCK(A); UNLOCK(A); UNLOCK(B);
		LOCK(C); LOCK(C); UNLOCK(C); UNLOCK(C);
	}
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 1);
	assert_eq(rec.by_kind[UIRQ_REPORT_RECURSIVE], 1);
	assert_eq(rec.n, 2);
	/* a different cycle is a different problem */
	LOCK(C); LOCK(D); UNLOCK(D); UNLOCK(C);
	LOCK(D); LOCK(C); UNLOCK(C); UNLOCK(D);
	assert_eq(rec.by_kind[UIRQ_REPORT_CIRCULAR], 2);
	struct uirq_lockdep_stats st;

	uirq_lockdep_get_stats(&st);
	assert_eq(st.reports, 3);
	assert_eq(st.reports_by_kind[UIRQ_REPORT_CIRCULAR], 2);
}

struct guarded {
	struct uirq_lockdep_map dep_map;
};

static struct guarded G = { UIRQ_LOCKDEP_MAP_INIT("G") };

UIRQ_TEST(lockdep, assert_macros, .timeout = 10)
{
	rec_start();
	for (int i = 0; i < 3; i++)
		uirq_lockdep_assert_held(&G);
	assert_eq(rec.by_kind[UIRQ_REPORT_ASSERT], 1, "once per site");
	assert_true(rec_has("WARNING: lockdep_assert_held(&G) failed at "));
	uirq_lock_acquire(&G.dep_map, 0, 0, UIRQ_LOCK_WRITE, 0, __FILE__, __LINE__);
	uirq_lockdep_assert_held(&G);
	uirq_lockdep_assert_held_write(&G);
	assert_eq(rec.n, 1);
	uirq_lockdep_assert_held_read(&G);
	uirq_lockdep_assert_not_held(&G);
	assert_eq(rec.by_kind[UIRQ_REPORT_ASSERT], 3);
	assert_true(rec_has("1 lock held by"));
	uirq_lock_release(&G.dep_map, 0, __FILE__, __LINE__);
	uirq_lockdep_assert_not_held(&G);
	uirq_lockdep_assert_irqs_enabled();
	uirq_lockdep_assert_irqs_disabled();
	uirq_lockdep_assert_in_irq();
	assert_eq(rec.by_kind[UIRQ_REPORT_ASSERT], 5);
	assert_true(rec_has("lockdep_assert_irqs_disabled() failed"));
	assert_true(rec_has("lockdep_assert_in_irq() failed"));
}

UIRQ_TEST(lockdep, dynamic_key_unregister_zaps, .timeout = 10)
{
	struct uirq_lock_class_key *keys = malloc(2 * sizeof(*keys));
	struct uirq_lockdep_map ma, mb;
	struct uirq_lockdep_stats st;

	rec_start();
	uirq_lockdep_register_key(&keys[0]);
	uirq_lockdep_register_key(&keys[1]);
	uirq_lockdep_init_map(&ma, "dyn_a", &keys[0], 0);
	uirq_lockdep_init_map(&mb, "dyn_b", &keys[1], 0);
	LOCK(ma); LOCK(mb); UNLOCK(mb); UNLOCK(ma);
	uirq_lockdep_get_stats(&st);
	assert_eq(st.classes, 2);
	assert_eq(st.dependencies, 1);
	uirq_lockdep_unregister_key(&keys[0]);
	uirq_lockdep_unregister_key(&keys[1]);
	uirq_lockdep_get_stats(&st);
	assert_eq(st.classes, 0);
	assert_eq(st.dependencies, 0);

	/* the same memory as new keys: a clean start, B -> A is no inversion */
	uirq_lockdep_register_key(&keys[0]);
	uirq_lockdep_register_key(&keys[1]);
	uirq_lockdep_init_map(&ma, "dyn_a2", &keys[0], 0);
	uirq_lockdep_init_map(&mb, "dyn_b2", &keys[1], 0);
	LOCK(mb); LOCK(ma); UNLOCK(ma); UNLOCK(mb);
	assert_eq(rec.n, 0);
	uirq_lockdep_unregister_key(&keys[0]);
	uirq_lockdep_unregister_key(&keys[1]);
	free(keys);
}

UIRQ_TEST(lockdep, register_key_on_reused_memory_starts_clean, .timeout = 10)
{
	static struct uirq_lock_class_key k1, k2;
	struct uirq_lockdep_map ma, mb;

	rec_start();
	uirq_lockdep_init_map(&ma, "ra", &k1, 0);
	uirq_lockdep_init_map(&mb, "rb", &k2, 0);
	LOCK(ma); LOCK(mb); UNLOCK(mb); UNLOCK(ma);
	/* nobody unregistered: registering again still forgets the old classes */
	uirq_lockdep_register_key(&k1);
	uirq_lockdep_register_key(&k2);
	LOCK(mb); LOCK(ma); UNLOCK(ma); UNLOCK(mb);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep, class_slots_are_recycled, .timeout = 30)
{
	struct uirq_lock_class_key *key = malloc(sizeof(*key));
	struct uirq_lockdep_map m;
	struct uirq_lockdep_stats st;

	rec_start();
	/* many more lock lifetimes than class slots, each with a dependency */
	for (int i = 0; i < 20000; i++) {
		uirq_lockdep_register_key(key);
		uirq_lockdep_init_map(&m, "short_lived", key, 0);
		LOCK(A);
		LOCK(m);
		UNLOCK(m);
		UNLOCK(A);
		uirq_lockdep_unregister_key(key);
	}
	uirq_lockdep_get_stats(&st);
	assert_eq(rec.n, 0);
	assert_true(uirq_lockdep_enabled());
	assert_eq(st.classes, 1);
	assert_eq(st.dependencies, 0);
	free(key);
}

UIRQ_TEST(lockdep, fatal_aborts_after_the_report, .timeout = 10, .signal = SIGABRT)
{
	uirq_lockdep_set_fatal(true);
	LOCK(A);
	LOCK(A);
}

static int handler_locks;

static void locking_handler(const struct uirq_lockdep_report *r, void *arg)
{
	(void)r;
	(void)arg;
	/* lockdep re-entered from its own report: skipped, no self-deadlock */
	LOCK(X);
	UNLOCK(X);
	handler_locks++;
}

UIRQ_TEST(lockdep, reentry_from_report_handler, .timeout = 10)
{
	uirq_lockdep_set_report_handler(locking_handler, NULL);
	LOCK(A);
	LOCK(A);
	UNLOCK(A);
	UNLOCK(A);
	assert_eq(handler_locks, 1);
	assert_false(uirq_lockdep_is_held(&X));
}

static void sig_locker(int sig)
{
	(void)sig;
	LOCK(Y);
	UNLOCK(Y);
}

UIRQ_TEST(lockdep, signal_handler_that_locks, .timeout = 10)
{
	rec_start();
	signal(SIGUSR1, sig_locker);
	for (int i = 0; i < 1000; i++) {
		LOCK(A);
		raise(SIGUSR1);
		UNLOCK(A);
	}
	assert_eq(rec.n, 0);
	assert_false(uirq_lockdep_is_held(&Y));
}

static volatile sig_atomic_t alarms;

static void alarm_locker(int sig)
{
	(void)sig;
	LOCK(Y);
	LOCK(Z);
	UNLOCK(Z);
	UNLOCK(Y);
	alarms++;
}

UIRQ_TEST(lockdep, signals_landing_inside_lockdep, .timeout = 20)
{
	struct itimerval it = { .it_interval = { 0, 50 }, .it_value = { 0, 50 } };
	static struct uirq_lockdep_map fresh[2000];

	rec_start();
	signal(SIGALRM, alarm_locker);
	setitimer(ITIMER_REAL, &it, NULL);
	/* slow paths too: every fresh map registers a class under the graph lock */
	for (int i = 0; i < 2000 || alarms < 20; i++) {
		struct uirq_lockdep_map *m = &fresh[i % 2000];

		if (i < 2000)
			uirq_lockdep_init_map(m, "fresh", NULL, 0);
		LOCK(A);
		LOCK(*m);
		UNLOCK(*m);
		UNLOCK(A);
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	assert_eq(rec.n, 0);
	assert_false(uirq_lockdep_is_held(&A));
}

UIRQ_TEST(lockdep, off_switch, .timeout = 10)
{
	rec_start();
	assert_true(uirq_lockdep_enabled());
	assert_true(uirq_lockdep_off());
	assert_false(uirq_lockdep_off());
	LOCK(A);
	LOCK(A);
	UNLOCK(B);
	assert_eq(rec.n, 0);
}

UIRQ_TEST(lockdep, print_held_locks, .timeout = 10)
{
	LOCK(A);
	LOCK(B);
	uirq_lockdep_print_held_locks();
	UNLOCK(B);
	UNLOCK(A);
}

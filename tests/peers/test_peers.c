// SPDX-License-Identifier: MIT
/*
 * The peers' deadlock and lock-misuse tests, ported as plain pthread
 * programs (progs/), run through uirq-lockdep: for each, exactly how many
 * reports of each kind uirq-lockdep makes and how the program ends.  The
 * programs' top comments give the peer's verdict beside ours and explain
 * where the two differ.
 */
#define _GNU_SOURCE
#include "harness.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "run.h"

/* The report headlines, and the count of each one a program must produce. */
static const char *const headlines[] = {
	"WARNING: possible circular locking dependency detected",
	"WARNING: possible recursive locking detected",
	"WARNING: bad unlock balance detected!",
	"WARNING: held lock freed!",
	"still has locks held!",
	"WARNING: use of destroyed lock detected!",
	"WARNING: condition variable waited on without its mutex held!",
	"WARNING: condition variable used with two different mutexes!",
	"WARNING: heap-use-after-free: freed lock used!",
};

enum { NHEADLINES = sizeof(headlines) / sizeof(headlines[0]) };

struct verdict {
	int circular, recursive, bad_unlock, held_freed, held_at_exit, destroyed_use,
	    cond_unheld, cond_two_mutexes, freed_use;
	int signal;		/* the program dies of this signal; 0: it exits 0 */
	const char *names[4];	/* functions the report must name */
	bool tsan_sees_it;	/* in a TSan build, TSan reports the misuse too: silence it */
};

/*
 * In a TSan build the programs are instrumented too, and TSan has its own
 * verdicts on the misuse they commit on purpose; run.c turns off those it
 * can, and a program whose misuse TSan reports anyway (use of an invalid
 * mutex, an unlock by the wrong thread, a use after free) runs with TSan's
 * reports off altogether: what TSan says is verdicts.sh's business, not
 * this suite's.  The options replace the whole variable, run.c's included.
 */
static const char *quiet_tsan_env(void)
{
	static char env[1024];
	const char *old = getenv("TSAN_OPTIONS");

	snprintf(env, sizeof(env), "TSAN_OPTIONS=%s%sreport_mutex_bugs=0:report_destroy_locked=0:"
		 "detect_deadlocks=0:report_signal_unsafe=0:report_bugs=0",
		 old ? old : "", old && *old ? ":" : "");
	return env;
}

static void counts_of(const struct verdict *v, int out[NHEADLINES])
{
	const int in[NHEADLINES] = {
		v->circular, v->recursive, v->bad_unlock, v->held_freed, v->held_at_exit,
		v->destroyed_use, v->cond_unheld, v->cond_two_mutexes, v->freed_use,
	};

	memcpy(out, in, sizeof(in));
}

/* The headlines whose count is not the expected one, and the total if that is off too. */
static void describe_counts(char *buf, size_t size, const int got[NHEADLINES], const int want[NHEADLINES],
			    int got_all, int want_all)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < NHEADLINES && n < size; i++) {
		if (got[i] != want[i])
			n += (size_t)snprintf(buf + n, size - n, " \"%s\" x%d, expected x%d;",
					      headlines[i], got[i], want[i]);
	}
	if (got_all != want_all && n < size)
		snprintf(buf + n, size - n, " WARNING:/BUG: lines in all %d, expected %d", got_all,
			 want_all);
}

/*
 * Run PROGS_DIR/name with args (NULL-terminated) through the runner and
 * check the verdict: the exact number of each headline, no other report,
 * the exit, and the names the report must contain.
 */
static void check_verdict(const char *name, const char *const args[], struct verdict want)
{
	const char *argv[16] = { RUNNER, prog(name) };
	char what[256], diff[2048];
	int got[NHEADLINES], expected[NHEADLINES], got_all, want_all = 0;
	bool counts_ok = true, exit_ok;
	struct run r;
	int argc = 2;

	snprintf(what, sizeof(what), "%s", name);
	for (int i = 0; args && args[i] && argc < 15; i++) {
		argv[argc++] = args[i];
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s", args[i]);
	}
	argv[argc] = NULL;
	r = run_cmd(argv, want.tsan_sees_it ? (const char *const[]){ quiet_tsan_env(), NULL } : NULL);

	counts_of(&want, expected);
	for (int i = 0; i < NHEADLINES; i++) {
		got[i] = count(r.err, headlines[i]);
		want_all += expected[i];
		counts_ok &= got[i] == expected[i];
	}
	got_all = count(r.err, "WARNING:") + count(r.err, "BUG:");
	counts_ok &= got_all == want_all;
	exit_ok = want.signal ? WIFSIGNALED(r.status) && WTERMSIG(r.status) == want.signal
			      : WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0;
	if (!counts_ok || !exit_ok)
		run_dump(&r);
	describe_counts(diff, sizeof(diff), got, expected, got_all, want_all);
	assert_true(counts_ok, "%s: wrong reports:%s", what, diff);
	if (want.signal)
		assert_true(exit_ok, "%s: %s, expected killed by signal %d", what, describe(r.status),
			      want.signal);
	else
		assert_true(exit_ok, "%s: %s, expected exited 0", what, describe(r.status));
	for (int i = 0; i < 4 && want.names[i]; i++) {
		if (!strstr(r.err, want.names[i]))
			run_dump(&r);
		assert_true(strstr(r.err, want.names[i]), "%s: the report does not name %s", what,
			      want.names[i]);
	}
	run_free(&r);
}

#define ARGS(...)	((const char *const[]){ __VA_ARGS__, NULL })
#define NOARGS		((const char *const *)NULL)
#define VERDICT(...)	((struct verdict){ __VA_ARGS__ })

/* One test: program prog with args, and its verdict (struct verdict fields; none: no report, exit 0). */
#define PEER(suite, name, prog, args, ...)					\
	UIRQ_TEST(suite, name, .timeout = 60)					\
	{									\
		check_verdict(prog, args, VERDICT(__VA_ARGS__));		\
	}

/* ---- liblockdep (Linux tools/lib/lockdep/tests, run by run_tests.sh) ---- */

PEER(liblockdep, AA, "liblockdep_AA", NOARGS, .recursive = 1)
PEER(liblockdep, ABA, "liblockdep_ABA", NOARGS, .recursive = 1)
PEER(liblockdep, ABBA, "liblockdep_ABBA", NOARGS, .circular = 1)
PEER(liblockdep, ABBA_2threads, "liblockdep_ABBA_2threads", NOARGS, .circular = 1)
PEER(liblockdep, ABBCCA, "liblockdep_ABBCCA", NOARGS, .circular = 1)
PEER(liblockdep, ABBCCDDA, "liblockdep_ABBCCDDA", NOARGS, .circular = 1)
PEER(liblockdep, ABCABC, "liblockdep_ABCABC", NOARGS, .circular = 1)
PEER(liblockdep, ABCDBCDA, "liblockdep_ABCDBCDA", NOARGS, .circular = 1)
PEER(liblockdep, ABCDBDDA, "liblockdep_ABCDBDDA", NOARGS, .circular = 1)
PEER(liblockdep, WW, "liblockdep_WW", NOARGS, .recursive = 1)
PEER(liblockdep, unlock_balance, "liblockdep_unlock_balance", NOARGS, .bad_unlock = 1)

/* ---- TSan: deadlock_detector_stress_test.cpp, test by test, lock type by lock type ---- */

#define STRESS(n, kind, ...)	PEER(tsan, stress##n##_##kind, "tsan_stress" #n, ARGS(#kind), ##__VA_ARGS__)

/* every lock type the peer builds the test for */
#define STRESS_ALL(n, ...)							\
	STRESS(n, mutex, ##__VA_ARGS__)						\
	STRESS(n, spin, ##__VA_ARGS__)						\
	STRESS(n, rwlock, ##__VA_ARGS__)					\
	STRESS(n, recursive, ##__VA_ARGS__)

STRESS_ALL(01, .circular = 1)
STRESS_ALL(02, .circular = 1)
STRESS_ALL(03, .circular = 1)
STRESS_ALL(04, .circular = 1)		/* TSan forgets 0 -> 1 after 4096 new locks; lockdep must not */
STRESS_ALL(05, .circular = 1)
STRESS_ALL(06)
STRESS_ALL(07, .circular = 2)		/* 4/5 and 6/7: a held trylock still orders what follows */
STRESS(08, rwlock)			/* reader-preferring: read/write inversions cannot block */
STRESS(08, rwlock_wp, .circular = 2)	/* writer-preferring: both are real deadlocks */
STRESS(09, recursive, .circular = 1)
STRESS_ALL(10)
STRESS_ALL(11)
STRESS(12, rwlock)
STRESS(12, rwlock_wp)
STRESS(13, rwlock)
STRESS(13, rwlock_wp)
STRESS_ALL(14)
STRESS(15, rwlock)			/* a recursive read of a reader-preferring rwlock */
STRESS(15, rwlock_wp, .recursive = 1)	/* cannot pass a queued writer */
STRESS_ALL(16, .circular = 1, .names = { "acquire_0", "acquire_1" })
STRESS_ALL(17, .circular = 1, .names = { "acquire_0", "acquire_1", "acquire_2" })
STRESS_ALL(18)
STRESS_ALL(19, .circular = 1)

/* ---- TSan: the other deadlock and mutex-misuse tests ---- */

PEER(tsan, must_deadlock, "tsan_must_deadlock", NOARGS, .circular = 1)
PEER(tsan, mutex_cycle2, "tsan_mutex_cycle2", NOARGS, .circular = 1)
/* the peer's lengths (at 30 TSan gives up: "too long mutex cycle"), and 100 */
PEER(tsan, mutex_cycle_long_5, "tsan_mutex_cycle_long", ARGS("5"), .circular = 1)
PEER(tsan, mutex_cycle_long_10, "tsan_mutex_cycle_long", ARGS("10"), .circular = 1)
PEER(tsan, mutex_cycle_long_15, "tsan_mutex_cycle_long", ARGS("15"), .circular = 1)
PEER(tsan, mutex_cycle_long_20, "tsan_mutex_cycle_long", ARGS("20"), .circular = 1)
PEER(tsan, mutex_cycle_long_30, "tsan_mutex_cycle_long", ARGS("30"), .circular = 1)
PEER(tsan, mutex_cycle_long_100, "tsan_mutex_cycle_long", ARGS("100"), .circular = 1)
/* TSan: 128 is fine, 129 dies of a CHECK; lockdep has no such limit */
PEER(tsan, many_held_mutex_128, "tsan_many_held_mutex", ARGS("128"))
PEER(tsan, many_held_mutex_129, "tsan_many_held_mutex", ARGS("129"))
PEER(tsan, many_held_mutex_1000, "tsan_many_held_mutex", ARGS("1000"))
PEER(tsan, mutex_destroy_locked, "tsan_mutex_destroy_locked", NOARGS, .held_freed = 1)
PEER(tsan, mutex_destroy_locked2, "tsan_mutex_destroy_locked2", NOARGS, .held_freed = 1, .held_at_exit = 1)
PEER(tsan, mutex_double_lock, "tsan_mutex_double_lock", NOARGS)
PEER(tsan, mutex_bad_unlock, "tsan_mutex_bad_unlock", NOARGS, .bad_unlock = 1)
PEER(tsan, mutex_bad_read_lock, "tsan_mutex_bad_read_lock", NOARGS, .recursive = 1)
PEER(tsan, mutex_bad_read_unlock, "tsan_mutex_bad_read_unlock", NOARGS, .bad_unlock = 1,
     .tsan_sees_it = true)
PEER(tsan, mutex_lock_destroyed, "tsan_mutex_lock_destroyed", NOARGS, .destroyed_use = 1,
     .tsan_sees_it = true)
#ifndef PEERS_ASAN
/* destroyed, freed, then locked: reported as TSan's heap-use-after-free is (not under ASan, which stops first) */
PEER(tsan, mutex_lock_destroyed_and_freed, "tsan_mutex_lock_destroyed", ARGS("1"), .freed_use = 1,
     .tsan_sees_it = true)
#endif
/* 20000 steps a thread, a fixed seed */
PEER(tsan, real_deadlock_detector_stress_test, "tsan_real_deadlock_detector_stress_test",
     ARGS("20000", "4242"))
PEER(tsan, clockwait_double_lock, "tsan_clockwait_double_lock", NOARGS)
PEER(tsan, trylock_no_deadlock, "tsan_trylock_no_deadlock", NOARGS)
PEER(tsan, mutex_robust, "tsan_mutex_robust", NOARGS, .held_at_exit = 1)
PEER(tsan, mutex_robust2, "tsan_mutex_robust2", NOARGS, .held_at_exit = 1)
PEER(tsan, cond_cancel, "tsan_cond_cancel", NOARGS)
PEER(tsan, pthread_mutex_clocklock, "tsan_pthread_mutex_clocklock", NOARGS)
#ifndef PEERS_TSAN
/* the bug it tests is TSan's own, and older TSan runtimes hang in it */
PEER(tsan, signal_in_mutex_lock, "tsan_signal_in_mutex_lock", NOARGS)
#endif

/* ---- Helgrind (valgrind helgrind/tests) ---- */

PEER(helgrind, tc04_free_lock, "helgrind_tc04_free_lock", NOARGS, .held_freed = 3)
PEER(helgrind, tc09_bad_unlock, "helgrind_tc09_bad_unlock", NOARGS, .bad_unlock = 3, .held_freed = 1,
     .tsan_sees_it = true)
PEER(helgrind, tc10_rec_lock, "helgrind_tc10_rec_lock", NOARGS, .bad_unlock = 1)
PEER(helgrind, tc12_rwl_trivial, "helgrind_tc12_rwl_trivial", NOARGS, .bad_unlock = 1)
PEER(helgrind, tc13_laog1, "helgrind_tc13_laog1", NOARGS, .circular = 1)
PEER(helgrind, tc14_laog_dinphils, "helgrind_tc14_laog_dinphils", NOARGS, .circular = 1)
PEER(helgrind, tc15_laog_lockdel, "helgrind_tc15_laog_lockdel", NOARGS, .circular = 1)
PEER(helgrind, tc20_verifywrap, "helgrind_tc20_verifywrap", NOARGS, .held_freed = 1, .bad_unlock = 4,
     .cond_unheld = 2, .tsan_sees_it = true)
PEER(helgrind, tc22_exit_w_lock, "helgrind_tc22_exit_w_lock", NOARGS, .held_at_exit = 2, .signal = SIGABRT)
PEER(helgrind, tc23_bogus_condwait, "helgrind_tc23_bogus_condwait", NOARGS, .cond_unheld = 4)
PEER(helgrind, hg02_deadlock, "helgrind_hg02_deadlock", NOARGS, .circular = 1)
PEER(helgrind, t2t_laog, "helgrind_t2t_laog", ARGS("30", "10", "4"))
PEER(helgrind, trylock, "helgrind_trylock", NOARGS)
PEER(helgrind, lock_destroy_report, "helgrind_lock_destroy_report", NOARGS)

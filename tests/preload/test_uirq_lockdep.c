// SPDX-License-Identifier: MIT
/*
 * uirq-lockdep on unmodified programs: every report type through plain
 * pthread calls, clean programs that must stay silent, and the runner's own
 * behaviour (options, exit statuses, errors).
 */
#define _GNU_SOURCE
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_mini.h"
#include "run.h"

#define CIRCULAR	"WARNING: possible circular locking dependency detected"
#define RECURSIVE	"WARNING: possible recursive locking detected"
#define BAD_UNLOCK	"WARNING: bad unlock balance detected!"
#define HELD_FREED	"WARNING: held lock freed!"
#define HELD_AT_EXIT	"still has locks held!"
#define DESTROYED	"WARNING: use of destroyed lock detected!"
#define OUT_OF_MEMORY	"BUG: lockdep ran out of memory"

/* Anything lockdep says starts like one of these. */
static int any_report(const char *err)
{
	return count(err, "WARNING:") + count(err, "BUG:");
}

#define RUN(env, ...)	run_cmd((const char *const[]){ RUNNER, __VA_ARGS__, NULL }, (env))

/* Assert cond about run r; on failure the program's output goes to the log as TAP comments. */
#define check(r, cond, ...)						\
	do {								\
		if (!(cond))						\
			run_dump(&(r));					\
		assert_true(cond, __VA_ARGS__);				\
	} while (0)

#define assert_exit(r, code)						\
	check(r, WIFEXITED((r).status) && WEXITSTATUS((r).status) == (code), \
	      "expected exit %d, %s", (code), describe((r).status))

#define assert_signal(r, sig)						\
	check(r, WIFSIGNALED((r).status) && WTERMSIG((r).status) == (sig), \
	      "expected signal %d, %s", (sig), describe((r).status))

/* Exactly one report, and it is this one. */
#define assert_one_report(r, headline)					\
	do {								\
		check(r, count((r).err, (headline)) == 1, "expected one '%s'", (headline)); \
		check(r, any_report((r).err) == 1, "other reports too");	\
	} while (0)

/* A clean program: silent, and --exit-code does not fire. */
static void assert_clean(const char *name, const char *arg)
{
	struct run r = arg ? RUN(NULL, "--exit-code", "99", prog(name), arg)
			   : RUN(NULL, "--exit-code", "99", prog(name));

	check(r, any_report(r.err) == 0, "%s reported", name);
	assert_exit(r, 0);
	run_free(&r);
}

/* ---- one program per report type ---- */

UIRQ_TEST(report, abba_two_threads, .timeout = 20)
{
	struct run r = RUN(NULL, prog("abba"));

	assert_one_report(r, CIRCULAR);
	/* named as the program names them, frames symbolized */
	check(r, strstr(r.err, "(&a){"), "lock a not named");
	check(r, strstr(r.err, "(&b){"), "lock b not named");
	check(r, strstr(r.err, ", at: b_then_a+0x"), "frame not symbolized");
	check(r, strstr(r.err, "(abba.c:"), "no file:line");
	assert_exit(r, 0);
	run_free(&r);
}

/*
 * stderr piped to a reader that has gone (| head): the report's write
 * fails, and the program, which wrote nothing there itself, is not killed by
 * SIGPIPE; it exits with its own status.  The test closes the read end
 * before the program starts, so the write finds no reader, every time.
 */
UIRQ_TEST(report, a_gone_reader_does_not_kill_the_program, .timeout = 20)
{
	int p[2], st;
	pid_t pid;

	assert_eq(pipe(p), 0);
	close(p[0]);
	pid = fork();
	assert_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		/*
		 * Under ThreadSanitizer the program's runtime finds abba's
		 * inversion too and prints its own warning to stderr with a
		 * raw write, which SIGPIPE kills: then the program did write
		 * there.  This test is about uirq-lockdep's write: TSan's
		 * deadlock detector is switched off (the option means nothing
		 * to an uninstrumented program).
		 */
		const char *tsan = getenv("TSAN_OPTIONS");
		char opts[512];

		snprintf(opts, sizeof(opts), "%s%sdetect_deadlocks=0", tsan ? tsan : "", tsan && *tsan ? ":" : "");
		if (null < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(p[1], STDERR_FILENO) < 0 ||
		    setenv("TSAN_OPTIONS", opts, 1))
			_exit(120);
		execl(RUNNER, RUNNER, prog("abba"), (char *)NULL);
		_exit(121);
	}
	close(p[1]);
	assert_eq(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st), "expected exit 0, %s", describe(st));
	assert_eq(WEXITSTATUS(st), 0, "expected exit 0, %s", describe(st));
}

UIRQ_TEST(report, abba_real_deadlock_reported_before_blocking, .timeout = 20)
{
	struct run r = RUN(NULL, prog("abba_deadlock"));

	assert_one_report(r, CIRCULAR);
	assert_signal(r, SIGALRM);
	run_free(&r);
}

UIRQ_TEST(report, aa_real_deadlock_reported_before_blocking, .timeout = 20)
{
	struct run r = RUN(NULL, prog("aa_deadlock"));

	assert_one_report(r, RECURSIVE);
	assert_signal(r, SIGALRM);
	run_free(&r);
}

UIRQ_TEST(report, aa_timedlock_times_out_and_balances, .timeout = 20)
{
	struct run r = RUN(NULL, prog("aa_timed"));

	assert_one_report(r, RECURSIVE);
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(report, double_unlock, .timeout = 20)
{
	struct run r = RUN(NULL, prog("bad_unlock"));

	assert_one_report(r, BAD_UNLOCK);
	assert_exit(r, 0);
	run_free(&r);
}

/* A lock with no class yet is named as any other: its address and where it was initialised. */
UIRQ_TEST(report, unlock_of_a_mutex_never_taken_names_it, .timeout = 20)
{
	struct run r = RUN(NULL, prog("bad_unlock"), "never-taken");

	assert_one_report(r, BAD_UNLOCK);
	check(r, strstr(r.err, "trying to release lock (mutex@0x") != NULL, "the lock's address is not named");
	check(r, strstr(r.err, "initialised at bad_unlock.c:") != NULL, "the lock's init site is not named");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(report, destroy_of_held_mutex, .timeout = 20)
{
	struct run r = RUN(NULL, prog("held_freed"));

	assert_one_report(r, HELD_FREED);
	assert_exit(r, 0);
	run_free(&r);
}

/*
 * A thread holds a mutex whose memory is unmapped, mapped again and made
 * into a new mutex at the same address, which gets the dead mutex's class
 * object: the thread's held lock is gone, and must neither be named after
 * the new mutex nor count as it when the thread then waits on a semaphore
 * that the main thread posts after taking the new mutex (a false circular
 * dependency through a wait, or recursive locking, before).
 */
static void assert_gone_lock(const char *mode)
{
	struct run r = RUN(NULL, prog("thread_exit_held"), mode);
	const char *held = strstr(r.err, HELD_AT_EXIT);

	check(r, strstr(r.out, "same block") != NULL, "the new mutex is not where the old one was: nothing tested");
	check(r, count(r.err, HELD_FREED) == 1, "no held-lock-freed report");
	check(r, held != NULL, "no report of the thread ending with its lock");
	check(r, any_report(r.err) == 2, "other reports: the dead lock counted as the new one");
	check(r, held && strstr(held, "#0: (a lock destroyed or freed while held), at: leave_locked"),
	      "the held lock is not named as gone");
	/* no line number: no lock of the program may be named by where it was initialised there */
	check(r, held && !strstr(held, "initialised at thread_exit_held.c:"), "the held lock is named after the new mutex");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(report, lock_unmapped_under_its_holder_is_gone, .timeout = 20) { assert_gone_lock("unmapped"); }

/* ... and stays gone when a lock under it is released first (the stack below it changes). */
UIRQ_TEST(report, lock_unmapped_under_its_holder_stays_gone, .timeout = 20)
{
	assert_gone_lock("unmapped-reordered");
}

UIRQ_TEST(report, thread_exits_holding_a_lock, .timeout = 20)
{
	struct run r = RUN(NULL, prog("thread_exit_held"));

	assert_one_report(r, HELD_AT_EXIT);
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(report, rwlock_read_then_write_inversion, .timeout = 20)
{
	struct run r = RUN(NULL, prog("rwlock_inversion"));

	assert_one_report(r, CIRCULAR);
	check(r, strstr(r.err, "(&r){") && strstr(r.err, "(&m){"), "locks not named");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(report, site_classes_see_type_inversion, .timeout = 20)
{
	struct run site = RUN(NULL, "--classes", "site", prog("site_inversion"));

	assert_one_report(site, CIRCULAR);
	assert_exit(site, 0);
	run_free(&site);
	assert_clean("site_inversion", NULL);	/* per instance: no cycle */
}

UIRQ_TEST(report, locking_before_the_module_was_set_up, .timeout = 20)
{
	struct run r = RUN(NULL, prog("early_ctor"));

	assert_one_report(r, CIRCULAR);
	assert_exit(r, 0);
	run_free(&r);
}

/* ---- clean programs: no report ---- */

UIRQ_TEST(clean, consistent_order_across_threads, .timeout = 60) { assert_clean("consistent_order", NULL); }
UIRQ_TEST(clean, rwlock_read_read_abba, .timeout = 20) { assert_clean("rwlock_read_abba", NULL); }
UIRQ_TEST(clean, trylock_inversion, .timeout = 20) { assert_clean("trylock_inversion", NULL); }
UIRQ_TEST(clean, cond_wait, .timeout = 20) { assert_clean("cond_wait", NULL); }
UIRQ_TEST(clean, recursive_and_errorcheck_mutexes, .timeout = 20) { assert_clean("recursive", NULL); }
UIRQ_TEST(clean, hand_over_hand, .timeout = 20) { assert_clean("hand_over_hand", NULL); }
UIRQ_TEST(clean, destroy_then_reuse_opposite_order, .timeout = 20) { assert_clean("destroy_reuse", NULL); }

/* --stat keeps figures per lock where a wait object keeps its own fields: memory that is both in turn. */
UIRQ_TEST(stat, memory_reused_as_a_wait_object_and_a_lock, .timeout = 20)
{
	struct run r = RUN(NULL, "--stat", "--exit-code", "99", prog("destroy_reuse"));

	check(r, any_report(r.err) == 0, "reported");
	check(r, strstr(r.err, "uirq-lockdep: lock statistics") != NULL, "no statistics");
	assert_exit(r, 0);
	run_free(&r);
}
UIRQ_TEST(clean, fork_with_lock_held, .timeout = 20) { assert_clean("fork", NULL); }
UIRQ_TEST(clean, dlopen_library_that_locks, .timeout = 20) { assert_clean("dlopen", DLMOD); }
UIRQ_TEST(clean, signal_handler_that_locks, .timeout = 30) { assert_clean("signal_lock", NULL); }

/*
 * The lock fast path reads a mutex's record from a word of the mutex
 * (progs/mutex_record.c): a copy carries the original's, a program can
 * scribble over it, and a PP mutex's lock fails after the validation.
 */
/*
 * "mutex_record CASE": the program got to its last line and exited 0;
 * clean, no report (and --exit-code did not fire), else exactly one
 * circular dependency, which the caller checks further.  The caller frees r.
 */
static struct run record_case(const char *c, const char *last, bool clean)
{
	struct run r = clean ? RUN(NULL, "--exit-code", "99", prog("mutex_record"), c)
			     : RUN(NULL, prog("mutex_record"), c);

	if (clean)
		check(r, any_report(r.err) == 0, "mutex_record %s reported", c);
	else
		assert_one_report(r, CIRCULAR);
	check(r, strstr(r.out, last), "the program did not get through");
	assert_exit(r, 0);
	return r;
}

UIRQ_TEST(report, copied_mutex_is_a_lock_of_its_own, .timeout = 20)
{
	struct run r = record_case("copy", "the copy is its own lock", false);

	check(r, strstr(r.err, "(&copy_of_a){"), "the copy not named");
	check(r, strstr(r.err, "(&copy_b){"), "lock copy_b not named");
	check(r, !strstr(r.err, "(&copy_a){"), "the original blamed for its copy");
	run_free(&r);
}

UIRQ_TEST(report, mutex_moved_by_realloc_keeps_its_init_site, .timeout = 20)
{
	struct run r = record_case("moved", "mutex_record: moved", false);

	check(r, strstr(r.err, " (mutex@0x") && strstr(r.err, " initialised at mutex_record.c:") &&
	      strstr(r.err, " in make_moved)"), "the moved lock is not named by its init site");
	run_free(&r);
}

UIRQ_TEST(report, scribbled_mutex_still_validated, .timeout = 20)
{
	struct run r = record_case("scribbled", "scribbled over and taken", false);

	check(r, strstr(r.err, "(&scrib_a){") && strstr(r.err, "(&scrib_b){"), "locks not named");
	run_free(&r);
}

/* a failed lock leaves no hold: neither a cycle through it nor a thread ending with it */
UIRQ_TEST(clean, failed_pp_mutex_locks_leave_no_hold, .timeout = 20)
{
	struct run r = record_case("pp-fails", "6 failed locks", true);

	run_free(&r);
}

/* glibc keeps a PP mutex's ceiling in its lock word: that is no holder */
UIRQ_TEST(clean, pp_mutex_destroyed_unheld, .timeout = 20)
{
	struct run r = record_case("pp-destroyed", "mutex_record: destroyed", true);

	run_free(&r);
}

/* ---- no blind spot: limits grow with the program (issue 12, section 1) ---- */

/* "many_locks MODE N" ends with a real ABBA: reported, and --exit-code fires. */
static void assert_abba_seen(const char *mode, const char *n)
{
	struct run r = RUN(NULL, "--exit-code", "9", prog("many_locks"), mode, n);

	assert_one_report(r, CIRCULAR);
	assert_exit(r, 9);
	check(r, strstr(r.out, "done"), "did not finish");
	check(r, strstr(r.err, "1 report (1 circular)"), "summary");
	run_free(&r);
}

UIRQ_TEST(limits, more_live_mutexes_than_the_kernels_key_limit, .timeout = 60) { assert_abba_seen("live", "10000"); }
UIRQ_TEST(limits, mutexes_never_destroyed, .timeout = 60) { assert_abba_seen("leaked", "10000"); }
UIRQ_TEST(limits, mutexes_freed_without_destroy, .timeout = 60) { assert_abba_seen("freed", "10000"); }
UIRQ_TEST(limits, holding_128_mutexes_at_once, .timeout = 60) { assert_abba_seen("deep", "128"); }
UIRQ_TEST(limits, a_million_lock_addresses, .timeout = 300) { assert_abba_seen("live", "1000000"); }

#ifndef __SANITIZE_ADDRESS__
UIRQ_TEST(limits, out_of_memory_stops_loudly, .timeout = 60)
{
	struct run r;

	if (access(prog("oom"), X_OK) != 0)
		return;		/* not built in sanitizer builds: no shadow memory fits under a cap */
	r = RUN(NULL, "--exit-code", "9", prog("oom"));
	assert_one_report(r, OUT_OF_MEMORY);
	check(r, strstr(r.err, "turning off the locking correctness validator."), "no word of stopping");
	check(r, strstr(r.err, "the validator STOPPED: out of memory for "), "nothing said at exit");
	check(r, strstr(r.out, "oom: 1000000 locks taken"), "the program did not go on");
	assert_exit(r, 9);
	run_free(&r);
}
#endif

/* ---- no false alarm (section 2) ---- */

UIRQ_TEST(clean, heap_lock_freed_without_destroy_then_reused, .timeout = 20) { assert_clean("reuse_freed", "heap"); }
UIRQ_TEST(clean, lock_memory_zeroed_then_reused, .timeout = 20) { assert_clean("reuse_freed", "zeroed"); }
UIRQ_TEST(clean, lock_memory_reinitialised_by_initializer, .timeout = 20) { assert_clean("reuse_freed", "static"); }
UIRQ_TEST(clean, stack_lock_of_a_function_called_again, .timeout = 20) { assert_clean("reuse_freed", "stack"); }
UIRQ_TEST(clean, rwlock_memory_freed_then_a_mutex, .timeout = 20) { assert_clean("reuse_freed", "rwlock"); }
UIRQ_TEST(clean, pshared_mutex_held_by_parent_across_fork, .timeout = 20) { assert_clean("pshared_fork", "mutex"); }
UIRQ_TEST(clean, pshared_rwlock_held_by_parent_across_fork, .timeout = 20) { assert_clean("pshared_fork", "rwlock"); }
UIRQ_TEST(clean, default_rwlock_read_cycle, .timeout = 20) { assert_clean("rwlock_writer_first", "default"); }
UIRQ_TEST(clean, destroyed_then_initialised_again, .timeout = 20) { assert_clean("misuse", "destroyed-reinit"); }

UIRQ_TEST(report, aba_is_one_problem_one_report, .timeout = 20)
{
	struct run r = RUN(NULL, prog("aba"));

	assert_one_report(r, RECURSIVE);
	assert_exit(r, 0);
	run_free(&r);
}

/* ---- what the peers see (section 3) ---- */

UIRQ_TEST(report, writer_first_rwlock_read_cycle, .timeout = 20)
{
	struct run r = RUN(NULL, prog("rwlock_writer_first"), "writer-first");

	assert_one_report(r, CIRCULAR);
	assert_exit(r, 0);
	run_free(&r);
}

/* "misuse CASE": one report of this kind, and the program goes on. */
static void assert_misuse(const char *c, const char *headline)
{
	struct run r = RUN(NULL, prog("misuse"), c);

	assert_one_report(r, headline);
	check(r, strstr(r.out, "done"), "did not go on");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(misuse, lock_of_destroyed_mutex, .timeout = 20) { assert_misuse("lock-destroyed", DESTROYED); }
UIRQ_TEST(misuse, unlock_of_destroyed_mutex, .timeout = 20) { assert_misuse("unlock-destroyed", DESTROYED); }
UIRQ_TEST(misuse, read_lock_of_destroyed_rwlock, .timeout = 20) { assert_misuse("rwlock-destroyed", DESTROYED); }
UIRQ_TEST(misuse, recursive_mutex_unlocked_once_too_often, .timeout = 20) { assert_misuse("recursive-unlock", BAD_UNLOCK); }
UIRQ_TEST(misuse, errorcheck_mutex_unlocked_when_not_held, .timeout = 20) { assert_misuse("errorcheck-unlock", BAD_UNLOCK); }
UIRQ_TEST(misuse, free_of_a_lock_this_thread_holds, .timeout = 20) { assert_misuse("free-own", HELD_FREED); }
UIRQ_TEST(misuse, init_of_a_lock_this_thread_holds, .timeout = 20) { assert_misuse("init-own", HELD_FREED); }

UIRQ_TEST(misuse, unlock_of_a_mutex_another_thread_holds, .timeout = 20)
{
	struct run r = RUN(NULL, prog("misuse"), "foreign-unlock");

	assert_one_report(r, BAD_UNLOCK);
	check(r, strstr(r.err, "(the lock is held by thread "), "the holder is not named");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(misuse, free_of_a_lock_another_thread_holds, .timeout = 20)
{
	struct run r = RUN(NULL, prog("misuse"), "free-locked");

	/* the free, and then the holder ending with it held */
	check(r, count(r.err, HELD_FREED) == 1, "no held-lock-freed report");
	check(r, strstr(r.err, ", held by thread "), "the holder is not named");
	/* a heap lock: named by its address and where it was initialised */
	check(r, strstr(r.err, " (mutex@0x") && strstr(r.err, " initialised at misuse.c:") &&
	      strstr(r.err, " in main)"), "the lock is not named");
	check(r, count(r.err, HELD_AT_EXIT) == 1, "the holder's exit not reported");
	check(r, any_report(r.err) == 2, "other reports too");
	assert_exit(r, 0);
	run_free(&r);
}

/* A thread ends holding a lock, in each way a thread can end. */
static void assert_exit_held(const char *how)
{
	struct run r = RUN(NULL, prog("thread_exit_forms"), how);

	assert_one_report(r, HELD_AT_EXIT);
	check(r, strstr(r.out, "done"), "did not finish");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(thread_exit, by_return, .timeout = 20) { assert_exit_held("return"); }
UIRQ_TEST(thread_exit, by_pthread_exit, .timeout = 20) { assert_exit_held("pthread_exit"); }
UIRQ_TEST(thread_exit, by_cancellation, .timeout = 20) { assert_exit_held("cancel"); }
UIRQ_TEST(thread_exit, detached, .timeout = 20) { assert_exit_held("detached"); }
UIRQ_TEST(thread_exit, holding_a_read_lock, .timeout = 20) { assert_exit_held("rwlock"); }
UIRQ_TEST(thread_exit, main_thread_by_pthread_exit, .timeout = 20) { assert_exit_held("main"); }

/* ---- condition variables (section 6) ---- */

UIRQ_TEST(cond, wait_without_the_mutex_held, .timeout = 20)
{
	struct run r = RUN(NULL, prog("cond_misuse"), "unheld");

	assert_one_report(r, "WARNING: condition variable waited on without its mutex held!");
	check(r, strstr(r.err, " waits on &cond with mutex ") && strstr(r.err, "(&m1)"), "not named");
	check(r, strstr(r.err, "timed_wait+0x") && strstr(r.err, "(cond_misuse.c:"), "no site");
	check(r, strstr(r.out, "done"), "did not go on");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(cond, one_cond_two_mutexes, .timeout = 20)
{
	struct run r = RUN(NULL, prog("cond_misuse"), "two");

	assert_one_report(r, "WARNING: condition variable used with two different mutexes!");
	check(r, strstr(r.err, "(&m2) at:") && strstr(r.err, "(&m1), since:"), "mutexes not named");
	check(r, strstr(r.err, "wait_with_m1+0x"), "the other waiter's site");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(clean, one_cond_two_mutexes_one_after_the_other, .timeout = 20) { assert_clean("cond_misuse", "sequential"); }

/* ---- reports a person can act on (section 4) ---- */

/* A file for the test, deleted by read_and_unlink(). */
static char *temp_file(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/uirq-lockdep-test-XXXXXX");
	fd = mkstemp(path);
	assert_ge(fd, 0);
	if (text)
		assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static char *read_and_unlink(const char *path)
{
	static char text[1 << 17];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = 0;
	unlink(path);
	return text;
}

/* The JSON record of line i (0-based) of text, parsed, or a failed test. */
static struct jval *json_line(const char *text, int i)
{
	char line[1 << 16], err[128];
	const char *s = text;
	struct jval *v;
	size_t n;

	while (i-- > 0 && (s = strchr(s, '\n')))
		s++;
	assert_true(s && *s, "no JSON record %d in:\n%s", i, text);
	n = strcspn(s, "\n");
	assert_lt(n, sizeof(line));
	memcpy(line, s, n);
	line[n] = 0;
	v = json_parse(line, err, sizeof(err));
	assert_true(v, "not JSON (%s): %s", err, line);
	return v;
}

static const char *jstr(const struct jval *v, const char *path)
{
	const struct jval *m = json_path(v, path);

	return m && m->type == J_STR ? m->str : "(missing)";
}

UIRQ_TEST(json, one_record_per_report_and_a_summary, .timeout = 30)
{
	char *path = temp_file(NULL), *text;
	struct run r = RUN(NULL, "--json", path, prog("abba"));
	struct jval *rep, *sum;
	const struct jval *locks, *chain, *bt;

	assert_one_report(r, CIRCULAR);
	assert_exit(r, 0);
	text = read_and_unlink(path);
	assert_eq(count(text, "\n"), 2);
	rep = json_line(text, 0);
	assert_str_eq(jstr(rep, "kind"), "circular");
	assert_str_eq(jstr(rep, "headline"), CIRCULAR);
	locks = json_get(rep, "locks");
	assert_true(locks, "locks");
	assert_eq(locks->type, J_ARR, "locks");
	assert_eq(locks->n, 2, "locks");
	assert_str_eq(jstr(&locks->kids[0], "role"), "acquiring");
	assert_str_eq(jstr(&locks->kids[0], "name"), "&a");
	assert_str_eq(jstr(&locks->kids[0], "site.function"), "b_then_a");
	assert_true(strstr(jstr(&locks->kids[0], "site.file"), "abba.c"), "site.file: %s",
		      jstr(&locks->kids[0], "site.file"));
	assert_str_eq(jstr(&locks->kids[1], "role"), "holding");
	assert_str_eq(jstr(&locks->kids[1], "name"), "&b");
	chain = json_get(rep, "chain");
	assert_true(chain, "chain");
	assert_eq(chain->type, J_ARR, "chain");
	assert_eq(chain->n, 1, "chain");
	assert_str_eq(jstr(&chain->kids[0], "lock"), "&b");
	assert_str_eq(jstr(&chain->kids[0], "while_holding"), "&a");
	assert_str_eq(jstr(&chain->kids[0], "site.function"), "a_then_b");
	bt = json_get(rep, "backtrace");
	assert_true(bt, "backtrace");
	assert_eq(bt->type, J_ARR, "backtrace");
	assert_ge(bt->n, 1, "backtrace");
	assert_str_eq(jstr(&bt->kids[0], "function"), "b_then_a");
	assert_true(strstr(jstr(rep, "text"), "*** DEADLOCK ***"), "text");
	sum = json_line(text, 1);
	assert_str_eq(jstr(sum, "kind"), "summary");
	assert_eq((int)json_get(sum, "reports")->num, 1);
	assert_eq((int)json_path(sum, "by_kind.circular")->num, 1);
	json_free(rep);
	json_free(sum);
	run_free(&r);
}

/*
 * 16 processes reporting into one --json file at once (a make -j tree):
 * every line one whole record.  Before, a record and its newline were two
 * writes, and records of different processes came out glued on one line.
 */
UIRQ_TEST(json, many_processes_one_record_a_line, .timeout = 120)
{
	char *path = temp_file(NULL), *text;
	struct run r = RUN(NULL, "--json", path, prog("json_procs"));
	unsigned int lines = 0, circular = 0, summaries = 0;

	assert_exit(r, 0);
	/* Some 2 MB: more than read_and_unlink() holds. */
	FILE *f = fopen(path, "r");
	size_t len = 0;

	assert_not_null(f);
	text = NULL;
	assert_gt(getdelim(&text, &len, 0, f), 0);
	fclose(f);
	unlink(path);
	for (char *line = text, *end; *line; line = end + 1) {
		char err[128];
		struct jval *v;

		end = strchr(line, '\n');
		assert_not_null(end, "the file ends inside a record: %.200s", line);
		*end = 0;
		lines++;
		v = json_parse(line, err, sizeof(err));
		assert_not_null(v, "line %u is no JSON record (%s): %.300s", lines, err, line);
		circular += !strcmp(jstr(v, "kind"), "circular");
		summaries += !strcmp(jstr(v, "kind"), "summary");
		json_free(v);
	}
	assert_eq(circular, 16u * 40u, "circular records");
	assert_eq(summaries, 16u, "one summary from each child (the parent took no lock)");
	assert_eq(lines, circular + summaries);
	free(text);
	run_free(&r);
}

/* abba under a suppression file: suppressed (silent, counted, no --exit-code) or not. */
static void run_suppressed(const char *rules, bool covered)
{
	char *path = temp_file(rules);
	struct run r = RUN(NULL, "--suppress", path, "--exit-code", "9", prog("abba"));

	unlink(path);
	if (covered) {
		check(r, any_report(r.err) == 0, "reported");
		check(r, strstr(r.err, "0 reports (1 suppressed)"), "not counted as suppressed");
		assert_exit(r, 0);
	} else {
		assert_one_report(r, CIRCULAR);
		assert_exit(r, 9);
	}
	run_free(&r);
}

UIRQ_TEST(suppress, by_lock_name, .timeout = 20) { run_suppressed("circular lock:&b\n", true); }
UIRQ_TEST(suppress, by_function, .timeout = 20) { run_suppressed("# judged\n* function:a_then_*\n", true); }
UIRQ_TEST(suppress, by_file, .timeout = 20) { run_suppressed("circular file:*/abba.c\n", true); }
UIRQ_TEST(suppress, every_condition_must_match, .timeout = 20) { run_suppressed("circular lock:&a function:main\n", false); }
UIRQ_TEST(suppress, other_kind_not_covered, .timeout = 20) { run_suppressed("bad_unlock lock:&a\n", false); }

UIRQ_TEST(suppress, bad_rule_stops_before_the_program, .timeout = 20)
{
	char *path = temp_file("circular lock:&a\ncircluar lock:&b\n");
	struct run r = RUN(NULL, "--suppress", path, prog("abba"));
	char expect[128];

	snprintf(expect, sizeof(expect), "%s:2: unknown report kind 'circluar'", path);
	unlink(path);
	assert_exit(r, 2);
	check(r, strstr(r.err, expect), "file:line and why");
	check(r, any_report(r.err) == 0, "the program ran");
	run_free(&r);
	r = RUN(NULL, "--suppress", "/nonexistent/rules", prog("abba"));
	assert_exit(r, 2);
	check(r, strstr(r.err, "--suppress /nonexistent/rules: No such file or directory"), "path and reason");
	run_free(&r);
}

UIRQ_TEST(annotate, names_from_the_program, .timeout = 20)
{
	struct run r = RUN(NULL, prog("annotate"), "name");

	assert_one_report(r, CIRCULAR);
	check(r, strstr(r.err, "(request queue lock){") && strstr(r.err, "(reply queue lock){"), "names not used");
	run_free(&r);
}

UIRQ_TEST(annotate, shared_class_nested_by_design, .timeout = 20)
{
	struct run r = RUN(NULL, prog("annotate"), "class");

	assert_one_report(r, RECURSIVE);
	check(r, count(r.err, "lock(node lock);") == 2, "not one class");
	run_free(&r);
	assert_clean("annotate", "nested");
}

UIRQ_TEST(annotate, assert_held, .timeout = 20)
{
	struct run r = RUN(NULL, prog("annotate"), "assert");

	assert_one_report(r, "WARNING: uirq_lock_assert_held(qa) failed at ");
	run_free(&r);
	assert_clean("annotate", "held");
}

UIRQ_TEST(annotate, nothing_without_the_runner, .timeout = 20)
{
	static const char *const cases[] = { "name", "class", "nested", "assert", "held" };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r = run_cmd((const char *const[]){ prog("annotate"), cases[i], NULL }, NULL);

		assert_exit(r, 0);
		check(r, r.err[0] == 0, "stderr without the runner");
		check(r, strstr(r.out, "done"), "did not run");
		run_free(&r);
	}
}

/* ---- lock statistics (section 5) ---- */

/* The lock_stat record of lock in JSON text (a failed test if none). */
static struct jval *stat_record(const char *text, const char *lock)
{
	for (int i = 0; i < 16; i++) {
		struct jval *v = json_line(text, i);

		if (!strcmp(jstr(v, "kind"), "lock_stat") && !strcmp(jstr(v, "lock"), lock))
			return v;
		json_free(v);
	}
	ck_abort_msg("no lock_stat record for %s in:\n%s", lock, text);
	return NULL;
}

static double jnum(const struct jval *v, const char *key)
{
	const struct jval *m = json_get(v, key);

	assert_true(m, "no number %s", key);
	assert_eq(m->type, J_NUM, "no number %s", key);
	return m->num;
}

UIRQ_TEST(stat, contention_waits_and_holds, .timeout = 30)
{
	char *path = temp_file(NULL), *text;
	struct run r = RUN(NULL, "--stat", "--json", path, prog("stat"));
	struct jval *busy, *quiet;
	const struct jval *sites;

	assert_exit(r, 0);
	check(r, any_report(r.err) == 0, "reported");
	check(r, strstr(r.err, "uirq-lockdep: lock statistics, 2 kinds of lock, by time waited"), "no table");
	check(r, strstr(r.err, "\n&busy ") && strstr(r.err, "\n&quiet "), "locks not named in the table");
	check(r, strstr(r.err, " at ask+0x") && strstr(r.err, "(stat.c:"), "no contending site");
	text = read_and_unlink(path);
	busy = stat_record(text, "&busy");
	quiet = stat_record(text, "&quiet");
	/* exact counts; contention as often as the other thread asked, at most */
	assert_eq((int)jnum(busy, "acquired"), 10);
	assert_eq((int)jnum(quiet, "acquired"), 1000);
	assert_eq((int)jnum(quiet, "contended"), 0);
	assert_ge((int)jnum(busy, "contended"), 1);
	assert_le((int)jnum(busy, "contended"), 5);
	assert_gt(jnum(busy, "wait_total_ns"), 0, "no wait");
	assert_gt(jnum(busy, "wait_max_ns"), 0, "no wait");
	/* the holder sleeps 20 ms with it held, five times: all its holds are timed */
	assert_ge(jnum(busy, "hold_max_ns"), 15e6, "hold max %.0f ns", jnum(busy, "hold_max_ns"));
	assert_ge(jnum(busy, "hold_total_ns"), 5 * 15e6, "hold total %.0f ns", jnum(busy, "hold_total_ns"));
	assert_eq((int)jnum(busy, "holds_timed"), 10);
	sites = json_get(busy, "contended_at");
	assert_true(sites, "contending sites");
	assert_eq(sites->type, J_ARR, "contending sites");
	assert_eq(sites->n, 1, "contending sites");
	assert_true(strstr(jstr(&sites->kids[0], "site"), "ask+0x"), "site %s", jstr(&sites->kids[0], "site"));
	json_free(busy);
	json_free(quiet);
	run_free(&r);
}

UIRQ_TEST(stat, nothing_without_the_option, .timeout = 20)
{
	struct run r = RUN(NULL, prog("stat"));

	assert_exit(r, 0);
	check(r, !strstr(r.err, "lock statistics"), "statistics without --stat");
	run_free(&r);
}

/* ---- the runner ---- */

UIRQ_TEST(runner, passes_the_exit_status_through, .timeout = 20)
{
	struct run r = RUN(NULL, prog("exit_status"), "42");

	assert_exit(r, 42);
	/* nothing but the summary of a clean run */
	check(r, count(r.err, "\n") == 1, "more than the summary on stderr");
	check(r, strstr(r.err, "uirq-lockdep: exit_status[") == r.err, "no summary first");
	check(r, strstr(r.err, "]: 0 reports, 1 classes, 0 dependencies\n"), "summary");
	run_free(&r);
}

UIRQ_TEST(runner, exit_code_when_reported, .timeout = 20)
{
	struct run r = RUN(NULL, "--exit-code", "7", prog("abba"));

	assert_one_report(r, CIRCULAR);
	assert_exit(r, 7);
	run_free(&r);
	r = RUN(NULL, "--exit-code", "7", prog("exit_status"), "3");
	assert_exit(r, 3);
	run_free(&r);
}

UIRQ_TEST(runner, exit_code_survives__exit, .timeout = 20)
{
	struct run r = RUN(NULL, "--exit-code", "9", prog("abba"), "_exit", "5");

	assert_exit(r, 9);
	run_free(&r);
	r = RUN(NULL, prog("abba"), "_exit", "5");
	assert_exit(r, 5);
	run_free(&r);
}

UIRQ_TEST(runner, fatal_aborts_at_the_first_report, .timeout = 20)
{
	struct run r = RUN(NULL, prog("two_reports"));

	check(r, count(r.err, CIRCULAR) == 1, "no inversion report");
	check(r, count(r.err, BAD_UNLOCK) == 1, "no bad unlock report");
	assert_exit(r, 0);
	run_free(&r);

	r = RUN(NULL, "--fatal", prog("two_reports"));
	assert_one_report(r, CIRCULAR);
	assert_signal(r, SIGABRT);
	check(r, !strstr(r.out, "still running"), "went on after the report");
	run_free(&r);
}

UIRQ_TEST(runner, validator_off_by_environment, .timeout = 20)
{
	const char *env[] = { "UIRQ_LOCKDEP=0", NULL };
	struct run r = RUN(env, "--exit-code", "7", prog("abba"));

	check(r, any_report(r.err) == 0, "reported");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(runner, log_file_instead_of_stderr, .timeout = 20)
{
	char path[] = "/tmp/uirq-lockdep-log-XXXXXX";
	int fd = mkstemp(path);
	char text[65536] = "";
	struct run r;
	ssize_t n;

	assert_ge(fd, 0);
	r = RUN(NULL, "--log", path, prog("abba"));
	assert_exit(r, 0);
	check(r, any_report(r.err) == 0, "report went to stderr");
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	unlink(path);
	assert_gt(n, 0, "log file empty");
	text[n] = '\0';
	assert_eq(count(text, CIRCULAR), 1, "log file without the report");
	run_free(&r);
}

UIRQ_TEST(runner, log_file_that_cannot_be_opened, .timeout = 20)
{
	struct run r = RUN(NULL, "--log", "/nonexistent/dir/log", prog("abba"));

	assert_exit(r, 2);
	check(r, strstr(r.err, "--log /nonexistent/dir/log: No such file or directory"), "path and reason");
	check(r, any_report(r.err) == 0, "the program ran");	/* abba reports when it runs */
	run_free(&r);
}

UIRQ_TEST(runner, log_write_error_is_not_silent, .timeout = 20)
{
	struct run r = RUN(NULL, "--log", "/dev/full", prog("abba"));

	assert_exit(r, 0);
	check(r, strstr(r.err, "cannot write to the log /dev/full: No space left on device"), "silent");
	/* and the report is not lost */
	assert_one_report(r, CIRCULAR);
	run_free(&r);
}

/* Programs that close stderr at exit (coreutils, xz) still get their summary. */
UIRQ_TEST(runner, summary_after_the_program_closed_stderr, .timeout = 20)
{
	struct run r = RUN(NULL, prog("exit_status"), "close_stderr");

	assert_exit(r, 0);
	check(r, strstr(r.err, "]: 0 reports, 1 classes, 0 dependencies\n"), "summary lost");
	run_free(&r);
}

/*
 * A file the program opened where stderr was, or on every descriptor ours
 * could be: never written by us; the summary goes to the real stderr while
 * it is there.
 */
UIRQ_TEST(runner, never_writes_into_the_programs_files, .timeout = 20)
{
	char *path = temp_file(NULL);
	struct run r = RUN(NULL, prog("exit_status"), "reuse_stderr", path);

	assert_exit(r, 0);
	check(r, strstr(r.err, "]: 0 reports, 1 classes, 0 dependencies\n"), "summary lost");
	assert_str_eq(read_and_unlink(path), "data\n");
	run_free(&r);
	/* with a log file, which a daemon closes too */
	path = temp_file(NULL);
	r = RUN(NULL, "--log", "/dev/null", prog("exit_status"), "close_all", path);
	assert_exit(r, 0);
	assert_str_eq(read_and_unlink(path), "data\n");
	run_free(&r);
}

UIRQ_TEST(runner, environment_for_the_program, .timeout = 20)
{
	char preload[4200], expect[8400];
#ifdef __SANITIZE_ADDRESS__
	/* the runner is instrumented too, and DLMOD is before its runtime */
	char asan[4200];
	const char *env[] = { preload, asan, NULL };

	snprintf(asan, sizeof(asan), "ASAN_OPTIONS=%s:verify_asan_link_order=0",
		 getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "");
#else
	const char *env[] = { preload, NULL };
#endif
	struct run r;

	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", DLMOD);
	r = RUN(env, "--fatal", "--exit-code", "4", "--classes", "site", "--log", "/dev/null",
		prog("exit_status"), "env", "--fatal", "x y");
	assert_exit(r, 0);
	/* a build tree with a blank in its path lists the module by name (preload_in_a_folder_with_a_blank) */
	snprintf(expect, sizeof(expect), "LD_PRELOAD=%s:%s\n", DLMOD,
		 strpbrk(PRELOAD, " \t") ? strrchr(PRELOAD, '/') + 1 : PRELOAD);
	check(r, strstr(r.out, expect), "LD_PRELOAD not appended");
	check(r, strstr(r.out, "UIRQ_LOCKDEP_FATAL=1\n"), "%s");
	check(r, strstr(r.out, "UIRQ_LOCKDEP_EXIT_CODE=4\n"), "%s");
	check(r, strstr(r.out, "UIRQ_LOCKDEP_CLASSES=site\n"), "%s");
	check(r, strstr(r.out, "UIRQ_LOCKDEP_LOG=/dev/null\n"), "%s");
	check(r, strstr(r.out, "arg=--fatal\narg=x y\n"), "program arguments mangled");
	/* an AddressSanitizer runtime must accept the module before it */
	check(r, strstr(r.out, "ASAN_OPTIONS=") && strstr(r.out, "verify_asan_link_order=0"), "%s", r.out);
	run_free(&r);
}

#ifdef ASAN_PROG
/* someone else's program, built with -fsanitize=address */
UIRQ_TEST(runner, program_built_with_asan, .timeout = 30)
{
	struct run r = RUN(NULL, prog("abba_asan"));

	check(r, !strstr(r.err, "ASan runtime does not come first"), "%s", r.err);
	assert_one_report(r, CIRCULAR);
	assert_exit(r, 0);
	run_free(&r);
}
#endif

UIRQ_TEST(runner, finds_the_program_in_path, .timeout = 20)
{
	char path[4200];
	const char *env[] = { path, NULL };
	struct run r;

	snprintf(path, sizeof(path), "PATH=/nonexistent:%s", PROGS_DIR);
	r = RUN(env, "exit_status", "3");
	assert_exit(r, 3);
	run_free(&r);
}

UIRQ_TEST(runner, missing_program, .timeout = 20)
{
	struct run r = RUN(NULL, "/nonexistent/program");

	assert_exit(r, 127);
	check(r, strstr(r.err, "/nonexistent/program: No such file or directory"), "missing in stderr");
	run_free(&r);
	r = RUN(NULL, "no-such-program-anywhere");
	assert_exit(r, 127);
	run_free(&r);
}

/*
 * A preload library in a folder whose path has a blank (a build tree or a
 * prefix under "/home/me/my projects"): LD_PRELOAD cannot list that path,
 * so the runner lists the file's name and adds its folder to
 * LD_LIBRARY_PATH; the program is validated as anywhere else.  A ':' fits
 * neither variable: refused, named, and the program does not run.
 */
UIRQ_TEST(runner, preload_in_a_folder_with_a_blank, .timeout = 20)
{
	char dir[] = "/tmp/uirq lockdep XXXXXX", lib[128], colon[128], cmd[4400], env_lib[192], env_colon[320];
	const char *name = strrchr(PRELOAD, '/') + 1;
	const char *env[] = { env_lib, NULL };
	struct run r;

	assert_not_null(mkdtemp(dir));
	snprintf(lib, sizeof(lib), "%s/%s", dir, name);
	snprintf(colon, sizeof(colon), "%s/a:b", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && mkdir '%s' && cp '%s' '%s/'", PRELOAD, lib, colon, PRELOAD, colon);
	assert_eq(system(cmd), 0);
	snprintf(env_lib, sizeof(env_lib), "UIRQ_LOCKDEP_PRELOAD=%s", lib);
	r = RUN(env, prog("abba"));
	assert_exit(r, 0);
	assert_one_report(r, CIRCULAR);
	run_free(&r);
	/* what the program was given */
	r = RUN(env, prog("exit_status"), "env");
	assert_exit(r, 0);
	snprintf(cmd, sizeof(cmd), "LD_PRELOAD=%s\n", name);
	check(r, strstr(r.out, cmd), "LD_PRELOAD is not the file's name");
	snprintf(cmd, sizeof(cmd), "%s\n", dir);
	check(r, strstr(r.out, "LD_LIBRARY_PATH=") && strstr(strstr(r.out, "LD_LIBRARY_PATH="), cmd),
	      "LD_LIBRARY_PATH does not end with the library's folder");
	run_free(&r);
	snprintf(env_colon, sizeof(env_colon), "UIRQ_LOCKDEP_PRELOAD=%s/%s", colon, name);
	env[0] = env_colon;
	r = RUN(env, prog("exit_status"), "env");
	assert_exit(r, 125);
	check(r, strstr(r.err, "which neither LD_PRELOAD nor LD_LIBRARY_PATH can express"), "not said");
	check(r, !*r.out, "the program ran");
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_eq(system(cmd), 0);
}

/* An unusable UIRQ_LOCKDEP_PRELOAD is named, with the reason; the program does not run unvalidated. */
UIRQ_TEST(runner, unusable_preload_variable_is_named, .timeout = 20)
{
	const char *env[] = { "UIRQ_LOCKDEP_PRELOAD=/nonexistent/libmine.so", NULL };
	struct run r = RUN(env, prog("exit_status"), "env");

	assert_exit(r, 125);
	check(r, strstr(r.err, "uirq-lockdep: UIRQ_LOCKDEP_PRELOAD=/nonexistent/libmine.so: No such file or directory"),
	      "the value is not named");
	check(r, !*r.out, "the program ran");
	run_free(&r);
}

UIRQ_TEST(runner, static_binary_refused, .timeout = 20)
{
	struct run r = RUN(NULL, prog("static_prog"));

	assert_exit(r, 126);
	check(r, strstr(r.err, "static_prog is statically linked; uirq-lockdep needs a "
			 "dynamically linked program"), "missing in stderr");
	assert_null(strstr(r.out, "static program ran"));
	run_free(&r);
}

UIRQ_TEST(runner, usage_errors, .timeout = 20)
{
	struct run r = run_cmd((const char *const[]){ RUNNER, NULL }, NULL);

	assert_exit(r, 2);
	check(r, strstr(r.err, "usage:"), "missing in stderr");
	run_free(&r);
	r = RUN(NULL, "--exit-code", "300", prog("exit_status"));
	assert_exit(r, 2);
	run_free(&r);
	r = RUN(NULL, "--classes", "bogus", prog("exit_status"));
	assert_exit(r, 2);
	run_free(&r);
	r = RUN(NULL, "--help");
	assert_exit(r, 0);
	check(r, strstr(r.out, "--exit-code N"), "%s");
	run_free(&r);
	r = RUN(NULL, "--version");
	assert_exit(r, 0);
	check(r, strstr(r.out, "uirq-lockdep "), "%s");
	run_free(&r);
}

#ifdef VALGRIND
/* Memcheck over the runner and the program under the preload library. */
#define under_valgrind(...)						\
	run_cmd((const char *const[]){ VALGRIND, "-q", "--error-exitcode=99",	\
		"--leak-check=full", "--trace-children=yes", RUNNER, __VA_ARGS__, NULL }, NULL)

UIRQ_TEST(valgrind, clean_program, .timeout = 300)
{
	struct run r = under_valgrind(prog("consistent_order"), "2", "2000");

	assert_exit(r, 0);
	check(r, any_report(r.err) == 0, "reported");
	run_free(&r);
}

UIRQ_TEST(valgrind, reporting_program, .timeout = 300)
{
	struct run r = under_valgrind(prog("abba"));

	assert_exit(r, 0);
	assert_one_report(r, CIRCULAR);
	run_free(&r);
}
#endif

/* ---- waits as dependencies (issue 24 section 1): progs/waits.c, one case each ---- */

#define WAIT_CYCLE	"WARNING: possible circular dependency through a wait detected"

/* A deadlock through a wait, predicted on a run that did not hang: one report that says what, --exit-code counts it. */
static void assert_wait_predicted(const char *which, const char *what, const char *what2)
{
	struct run r = RUN(NULL, "--exit-code", "7", prog("waits"), which);

	assert_one_report(r, WAIT_CYCLE);
	check(r, strstr(r.err, what), "%s: no '%s' in the report", which, what);
	check(r, !what2 || strstr(r.err, what2), "%s: no '%s' in the report", which, what2);
	check(r, strstr(r.err, "(waits.c:"), "%s: sites not symbolized", which);
	check(r, strstr(r.out, "done"), "%s did not finish", which);
	assert_exit(r, 7);
	run_free(&r);
}

UIRQ_TEST(waits, cond_waiter_holds_what_the_signaller_took, .timeout = 20)
{
	assert_wait_predicted("cond", "pthread_cond_signal on condition variable (&cv)",
			      "pthread_cond_wait on condition variable (&cv) at cond_waiter+0x");
}

UIRQ_TEST(waits, cond_timed_wait_is_a_dependency_too, .timeout = 20)
{
	assert_wait_predicted("cond_timed", "pthread_cond_timedwait on condition variable (&cv)",
			      "A timed wait is in the cycle");
}

UIRQ_TEST(waits, sem_waiter_holds_what_the_poster_took, .timeout = 20)
{
	assert_wait_predicted("sem", "is about to wait on semaphore", "before sem_post on semaphore (&sem) at poster_a+0x");
}

UIRQ_TEST(waits, sem_timed_wait_is_a_dependency_too, .timeout = 20)
{
	assert_wait_predicted("sem_timed", "sem_timedwait on semaphore (&sem)", ", a timed wait");
}

UIRQ_TEST(waits, join_while_holding_what_the_thread_took, .timeout = 20)
{
	assert_wait_predicted("join", "is about to wait on thread", "before exit on thread");
}

UIRQ_TEST(waits, barrier_while_holding_what_a_party_took, .timeout = 20)
{
	assert_wait_predicted("barrier", "pthread_barrier_wait on barrier (&barrier)", "lock(&a) at take_a+0x");
}

UIRQ_TEST(waits, pipe_read_while_holding_what_the_writer_took, .timeout = 20)
{
	assert_wait_predicted("pipe", "read on pipe (pipe fd ", "before write on pipe");
}

UIRQ_TEST(waits, poll_on_the_pipe_too, .timeout = 20)
{
	assert_wait_predicted("poll", "poll on pipe (pipe fd ", NULL);
}

UIRQ_TEST(waits, ppoll_on_the_pipe_too, .timeout = 20)
{
	assert_wait_predicted("ppoll", "ppoll on pipe (pipe fd ", ", a timed wait");
}

UIRQ_TEST(waits, eventfd_read_while_holding_what_the_writer_took, .timeout = 20)
{
	assert_wait_predicted("eventfd", "read on eventfd (eventfd fd ", "before write on eventfd");
}

UIRQ_TEST(waits, reader_waits_while_the_poster_writes_the_rwlock, .timeout = 20)
{
	assert_wait_predicted("rw_read_held_write_taken", "lock(&rw) at poster_wrlock+0x", "holding (&rw)");
}

UIRQ_TEST(waits, writer_waits_while_the_poster_reads_the_rwlock, .timeout = 20)
{
	assert_wait_predicted("rw_write_held_read_taken", "rlock(&rw) at poster_rdlock+0x", "holding (&rw)");
}

/* A held while waiting for the semaphore, whose poster holds B, while B's holder waits for A. */
UIRQ_TEST(waits, cycle_of_a_wait_and_two_locks_closed_by_the_wait, .timeout = 20)
{
	assert_wait_predicted("mixed", "Chain exists of:\n  &sem --> &b --> &a", "before sem_post on semaphore (&sem)");
}

UIRQ_TEST(waits, cycle_of_a_wait_and_two_locks_closed_by_a_lock, .timeout = 20)
{
	assert_wait_predicted("mixed_lock_last", "is trying to acquire lock:", "which lock already depends on the new lock, through a wait");
}

UIRQ_TEST(waits, cycle_closed_by_the_post, .timeout = 20)
{
	assert_wait_predicted("post_closes", "is producing an event (sem_post on semaphore)", "sem_wait on semaphore (&sem)");
}

/* Both halves by one thread are quiet (waits_clean); a second thread's half makes it a report. */
UIRQ_TEST(waits, one_threads_cycle_reported_once_another_thread_joins_in, .timeout = 20)
{
	assert_wait_predicted("one_thread_then_another", "before sem_post on semaphore (&sem) at poster_a+0x",
			      "sem_wait on semaphore (&sem) at one_thread+0x");
}

UIRQ_TEST(waits, json_names_the_wait_the_event_and_the_lock, .timeout = 30)
{
	char *path = temp_file(NULL), *text;
	struct run r = RUN(NULL, "--json", path, prog("waits"), "sem_timed");
	const struct jval *locks, *chain;
	struct jval *rep, *sum;

	assert_one_report(r, WAIT_CYCLE);
	assert_exit(r, 0);
	text = read_and_unlink(path);
	rep = json_line(text, 0);
	assert_str_eq(jstr(rep, "kind"), "wait");
	assert_str_eq(jstr(rep, "headline"), WAIT_CYCLE);
	locks = json_get(rep, "locks");
	assert_true(locks, "locks");
	assert_eq(locks->type, J_ARR, "locks");
	assert_eq(locks->n, 2, "locks");
	assert_str_eq(jstr(&locks->kids[0], "role"), "waiting on");
	assert_str_eq(jstr(&locks->kids[0], "name"), "&sem");
	assert_str_eq(jstr(&locks->kids[0], "site.function"), "sem_case");
	assert_str_eq(jstr(&locks->kids[1], "role"), "holding");
	assert_str_eq(jstr(&locks->kids[1], "name"), "&a");
	chain = json_get(rep, "chain");
	assert_true(chain, "chain");
	assert_eq(chain->type, J_ARR, "chain");
	assert_eq(chain->n, 2, "chain");
	/* #1: the event depends on the lock its producer took first */
	assert_str_eq(jstr(&chain->kids[0], "type"), "event");
	assert_str_eq(jstr(&chain->kids[0], "op"), "sem_post");
	assert_str_eq(jstr(&chain->kids[0], "event"), "&sem");
	assert_str_eq(jstr(&chain->kids[0], "lock"), "&a");
	assert_str_eq(jstr(&chain->kids[0], "site.function"), "take_a");
	assert_str_eq(jstr(&chain->kids[0], "produced_at.function"), "poster_a");
	/* #0: the wait, timed */
	assert_str_eq(jstr(&chain->kids[1], "type"), "wait");
	assert_str_eq(jstr(&chain->kids[1], "op"), "sem_timedwait");
	assert_str_eq(jstr(&chain->kids[1], "event"), "&sem");
	assert_str_eq(jstr(&chain->kids[1], "while_holding"), "&a");
	assert_true(json_get(&chain->kids[1], "timed") && json_get(&chain->kids[1], "timed")->type == J_BOOL &&
		    json_get(&chain->kids[1], "timed")->b, "timed");
	sum = json_line(text, 1);
	assert_true(json_path(sum, "by_kind.wait"), "no by_kind.wait in the summary");
	assert_eq((int)json_path(sum, "by_kind.wait")->num, 1);
	json_free(rep);
	json_free(sum);
	run_free(&r);
}

/* The standard patterns: silent, and --exit-code does not fire. */
UIRQ_TEST(waits_clean, producer_consumer_through_the_conditions_own_mutex, .timeout = 20) { assert_clean("waits", "cond_own_mutex"); }
UIRQ_TEST(waits_clean, signaller_under_an_unrelated_lock, .timeout = 20) { assert_clean("waits", "cond_unrelated"); }
UIRQ_TEST(waits_clean, lock_taken_only_after_the_signal, .timeout = 20) { assert_clean("waits", "cond_after"); }
UIRQ_TEST(waits_clean, join_with_no_lock_held, .timeout = 20) { assert_clean("waits", "join_unheld"); }
UIRQ_TEST(waits_clean, post_under_an_unrelated_lock, .timeout = 20) { assert_clean("waits", "sem_unrelated"); }
UIRQ_TEST(waits_clean, post_after_a_trylock, .timeout = 20) { assert_clean("waits", "sem_trylock"); }
UIRQ_TEST(waits_clean, phases_a_semaphore_orders, .timeout = 20) { assert_clean("waits", "sem_phases"); }
UIRQ_TEST(waits_clean, phases_a_barrier_orders, .timeout = 20) { assert_clean("waits", "barrier_phases"); }
UIRQ_TEST(waits_clean, reader_waits_while_the_poster_reads, .timeout = 20) { assert_clean("waits", "rw_read_both"); }
UIRQ_TEST(waits_clean, write_under_an_unrelated_lock, .timeout = 20) { assert_clean("waits", "pipe_unrelated"); }
UIRQ_TEST(waits_clean, lock_taken_only_after_the_write, .timeout = 20) { assert_clean("waits", "pipe_after"); }
UIRQ_TEST(waits_clean, non_blocking_read, .timeout = 20) { assert_clean("waits", "pipe_nonblock"); }
UIRQ_TEST(waits_clean, poll_on_the_pipe_and_a_socket, .timeout = 20) { assert_clean("waits", "poll_mixed"); }
UIRQ_TEST(waits_clean, pipe_closed_and_its_number_reused, .timeout = 20) { assert_clean("waits", "pipe_reused"); }
UIRQ_TEST(waits_clean, one_thread_posts_and_waits_holding_the_lock, .timeout = 20) { assert_clean("waits", "one_thread"); }
UIRQ_TEST(waits_clean, join_holding_the_lock_after_the_done_signal, .timeout = 20) { assert_clean("waits", "join_after_done_signal"); }
/* ---- unusual programs (issue 24) ---- */

#define FORK_HELD	"WARNING: lock held at fork() by a thread the child does not have!"

/* fork() while another thread holds a lock: the child's attempt is reported before it blocks for ever. */
UIRQ_TEST(unusual, fork_lock_held_by_another_thread, .timeout = 20)
{
	struct run r = RUN(NULL, prog("fork_cases"), "held");

	assert_one_report(r, FORK_HELD);
	check(r, strstr(r.err, "(&held), at: child+0x") || strstr(r.err, "(&held), at: main+0x"), "lock not named");
	check(r, strstr(r.err, "but thread fork_cases/"), "the holder thread not named");
	check(r, strstr(r.err, "of the parent (pid "), "the parent not named");
	check(r, strstr(r.err, "when fork() was called at:\nmain+0x"), "no fork site");
	check(r, strstr(r.out, "child killed by signal 14"), "the child did not block (or ended otherwise)");
	assert_exit(r, 0);
	run_free(&r);
}

UIRQ_TEST(unusual, fork_rwlock_written_by_another_thread, .timeout = 20)
{
	struct run r = RUN(NULL, prog("fork_cases"), "rwlock");

	assert_one_report(r, FORK_HELD);
	check(r, strstr(r.err, "(&rw), at: "), "lock not named");
	run_free(&r);
}

/* Readers do not wait for readers; atfork handlers make the lock consistent: silent. */
UIRQ_TEST(unusual, fork_read_held_rwlock_read_again, .timeout = 20) { assert_clean("fork_cases", "reader"); }
UIRQ_TEST(unusual, fork_made_consistent_by_atfork_handlers, .timeout = 20) { assert_clean("fork_cases", "atfork"); }

/* A forked child that reported nothing says 0 reports, not its parent's count; --exit-code agrees. */
UIRQ_TEST(unusual, forked_child_counts_its_own_reports, .timeout = 20)
{
	char *path = temp_file(NULL), *text;
	struct run r = RUN(NULL, "--json", path, prog("fork_cases"), "count");
	int summaries = 0, reports[2] = { -1, -1 };

	assert_one_report(r, BAD_UNLOCK);
	assert_eq(count(r.err, ": 1 report (1 bad_unlock)"), 1, "the parent's summary");
	assert_eq(count(r.err, ": 0 reports, "), 1, "the child's summary");
	text = read_and_unlink(path);
	for (int i = 0; i < 3; i++) {
		struct jval *v = json_line(text, i);

		if (!strcmp(jstr(v, "kind"), "summary") && summaries < 2)
			reports[summaries++] = (int)json_get(v, "reports")->num;
		json_free(v);
	}
	assert_eq(summaries, 2);
	/* the child ends first */
	assert_eq(reports[0], 0, "the child's JSON summary");
	assert_eq(reports[1], 1, "the parent's JSON summary");
	run_free(&r);
}

/*
 * A daemon closes every descriptor from 3 up and opens its own files there:
 * the report and the summary still reach stderr, or the log (opened again by
 * its path), and never the program's file.
 */
UIRQ_TEST(unusual, daemon_closing_every_descriptor_keeps_its_reports, .timeout = 20)
{
	char data[64], log[64];
	struct run r;
	char *text;

	snprintf(data, sizeof(data), "%s", temp_file(NULL));
	r = RUN(NULL, prog("abba"), "daemon", data);
	assert_exit(r, 0);
	assert_one_report(r, CIRCULAR);
	check(r, strstr(r.err, "]: 1 report (1 circular), "), "no summary");
	assert_str_eq(read_and_unlink(data), "data\n");
	run_free(&r);

	snprintf(data, sizeof(data), "%s", temp_file(NULL));
	snprintf(log, sizeof(log), "%s", temp_file(NULL));
	r = RUN(NULL, "--log", log, prog("abba"), "daemon", data);
	assert_exit(r, 0);
	check(r, any_report(r.err) == 0 && !strstr(r.err, "cannot write"), "not to the log");
	assert_str_eq(read_and_unlink(data), "data\n");
	text = read_and_unlink(log);
	assert_eq(count(text, CIRCULAR), 1, "the log: %s", text);
	assert_eq(count(text, "]: 1 report (1 circular), "), 1, "no summary in the log: %s", text);
	run_free(&r);
}

/* munmap() and mremap() end the locks in what they take away, as free() does. */
UIRQ_TEST(unusual, pshared_mutex_unmapped_then_another_at_its_address, .timeout = 20)
{
	assert_clean("pshared_remap", "munmap");
}

UIRQ_TEST(unusual, pshared_mutex_shrunk_away_then_another_at_its_address, .timeout = 20)
{
	assert_clean("pshared_remap", "mremap");
}

/* A directory or binary data given as the suppression file: refused, named, before the program runs. */
UIRQ_TEST(unusual, suppress_refuses_a_directory_and_binary_data, .timeout = 20)
{
	static const char garbage[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, '\n', 3, 0, 0x3e };
	char path[64];
	struct run r = RUN(NULL, "--suppress", "/tmp", prog("abba"));
	int fd;

	assert_exit(r, 2);
	check(r, strstr(r.err, "uirq-lockdep: --suppress /tmp: Is a directory"), "the directory not named");
	check(r, any_report(r.err) == 0, "the program ran");	/* abba reports when it runs */
	run_free(&r);

	snprintf(path, sizeof(path), "%s", temp_file(NULL));
	fd = open(path, O_WRONLY);
	assert_ge(fd, 0);
	assert_eq(write(fd, garbage, sizeof(garbage)), (ssize_t)sizeof(garbage));
	close(fd);
	r = RUN(NULL, "--suppress", path, prog("abba"));
	unlink(path);
	assert_exit(r, 2);
	check(r, strstr(r.err, path) && strstr(r.err, ": binary data, not a suppression file"), "not named");
	check(r, any_report(r.err) == 0, "the program ran");
	run_free(&r);

	/* the module itself, given the variable by hand, refuses too */
	{
		char env[80];
		const char *envp[] = { env, NULL };

		snprintf(env, sizeof(env), "UIRQ_LOCKDEP_SUPPRESS=/tmp");
		r = RUN(envp, prog("abba"));
		assert_exit(r, 2);
		check(r, strstr(r.err, "--suppress /tmp: Is a directory"), "the module took it");
		run_free(&r);
	}
}

/* A program stopped by SIGTERM (a server) still gets its summary and --stat table, and dies of SIGTERM. */
UIRQ_TEST(unusual, stopped_by_sigterm_prints_summary_and_statistics, .timeout = 20)
{
	struct run r = RUN(NULL, "--stat", prog("abba"), "sigterm");

	assert_signal(r, SIGTERM);
	assert_one_report(r, CIRCULAR);
	check(r, strstr(r.err, "]: 1 report (1 circular), "), "no summary");
	check(r, strstr(r.err, "uirq-lockdep: lock statistics, 2 kinds of lock"), "no statistics");
	run_free(&r);
}

/*
 * A set-user-ID program run by another user: the dynamic loader ignores
 * LD_PRELOAD.  The runner says that it runs unchecked, and --exit-code fails
 * the run.  Made here: a copy of abba, set-user-ID root, run as nobody
 * (setpriv drops the test's root); without root or setpriv, skipped, said.
 * What the user nobody runs or reads - the runner, and the suppressions
 * file a TSan build of the runner reads at start - is copied into the
 * test's own directory, which that user can enter: the tree may sit where
 * only root can (a clone in /root, or in mktemp -d's directory), and there
 * the runner's TSan runtime could not read the file and ended it with 66.
 */
UIRQ_TEST(unusual, setuid_program_runs_unchecked_and_says_so, .timeout = 20)
{
	const char *setpriv = access("/usr/bin/setpriv", X_OK) == 0 ? "/usr/bin/setpriv" :
			      access("/bin/setpriv", X_OK) == 0 ? "/bin/setpriv" : NULL;
	char dir[] = "/tmp/uirq-setuid-XXXXXX", copy[64], runner[64], supp[64], cmd[4400];
	struct run r;

	if (geteuid() != 0 || !setpriv) {
		printf("# SKIP setuid test: %s\n", geteuid() ? "needs root to make a set-user-ID program of another user"
							     : "no setpriv to run as an unprivileged user");
		return;
	}
	assert_not_null(mkdtemp(dir));
	assert_eq(chmod(dir, 0755), 0);
	snprintf(copy, sizeof(copy), "%s/abba", dir);
	snprintf(runner, sizeof(runner), "%s/uirq-lockdep", dir);
	snprintf(supp, sizeof(supp), "%s/tsan.supp", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && chown 0:0 '%s' && chmod 4755 '%s' && cp '%s' '%s' && chmod 0755 '%s'",
		 prog("abba"), copy, copy, copy, RUNNER, runner, runner);
	assert_eq(system(cmd), 0);
	if (run_tsan_suppressions) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && chmod 0644 '%s'", run_tsan_suppressions, supp, supp);
		assert_eq(system(cmd), 0);
		run_tsan_suppressions = supp;
	}
	r = run_cmd((const char *const[]){ setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", runner,
					    copy, NULL }, NULL);
	assert_exit(r, 0);
	check(r, strstr(r.err, "/abba is set-user-ID: the dynamic loader ignores LD_PRELOAD for it, so it runs "
			 "UNCHECKED"), "not said");
	check(r, any_report(r.err) == 0, "validated after all?");
	run_free(&r);
	r = run_cmd((const char *const[]){ setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", runner,
					    "--exit-code", "9", copy, NULL }, NULL);
	assert_exit(r, 9);
	check(r, strstr(r.err, "UNCHECKED") && strstr(r.err, "--exit-code fails the run"), "not said");
	run_free(&r);
	unlink(copy);
	unlink(runner);
	unlink(supp);
	rmdir(dir);
}

#define FREED_USE	"WARNING: heap-use-after-free: freed lock used!"

/* A lock used after pthread_mutex_destroy() and free(), or free() alone: reported, where it was freed. */
/*
 * The program really uses freed memory: in a TSan build of it TSan's
 * interceptor of the rwlock calls reports that too, which is TSan doing its
 * job; the test is about uirq-lockdep's report, so TSan's is off there.
 */
#ifdef __SANITIZE_THREAD__
static const char *const freed_use_env[] = { "TSAN_OPTIONS=report_bugs=0", NULL };
#else
static const char *const *const freed_use_env = NULL;
#endif

/*
 * After the report the program goes on - except in an ASan build, where the
 * preload library is instrumented too: its next look at the freed lock (to
 * give the address a new record) is ASan's heap-use-after-free, reported
 * after ours, and ASan ends the run.
 */
static void assert_went_on_after_freed_use(struct run r)
{
#ifdef __SANITIZE_ADDRESS__
	const char *ours = strstr(r.err, FREED_USE), *asan = strstr(r.err, "ERROR: AddressSanitizer: heap-use-after-free");

	check(r, ours && asan && ours < asan, "uirq-lockdep's report, then ASan's");
	check(r, !WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0, "ASan ended the run: %s", describe(r.status));
#else
	check(r, strstr(r.out, "done"), "did not go on");
	assert_exit(r, 0);
#endif
}

UIRQ_TEST(unusual, lock_used_after_destroy_and_free, .timeout = 20)
{
	struct run r = RUN(freed_use_env, prog("misuse"), "freed-use");

	assert_one_report(r, FREED_USE);
	check(r, strstr(r.err, "but its memory was freed at:\nmain+0x") && strstr(r.err, "after it was destroyed at:"),
	      "where it was freed and destroyed");
	check(r, strstr(r.err, " initialised at misuse.c:"), "the lock not named");
	assert_went_on_after_freed_use(r);
	run_free(&r);
}

UIRQ_TEST(unusual, rwlock_used_after_free, .timeout = 20)
{
	struct run r = RUN(freed_use_env, prog("misuse"), "freed-use-rwlock");

	assert_one_report(r, FREED_USE);
	assert_went_on_after_freed_use(r);
	run_free(&r);
}

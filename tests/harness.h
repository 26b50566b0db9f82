/* SPDX-License-Identifier: MIT */
/*
 * The test harness: Check (libcheck) runs every test in its own forked
 * process with its own timeout.  Tests are written in Criterion's spelling -
 * Test(suite, name, .timeout = N) and cr_assert*() - and registered at load
 * time, because Criterion itself cannot run under ThreadSanitizer (its
 * inheritable arena fails to map: Criterion issue #274) and the suite must.
 */
#ifndef UIRQ_TESTS_HARNESS_H
#define UIRQ_TESTS_HARNESS_H

#include <check.h>
#include <stdbool.h>
#include <string.h>

/* Options of a test, as designated initializers in Test(). */
struct uirq_test_opts {
	double timeout;		/* seconds; 0: 10 (scaled by CK_TIMEOUT_MULTIPLIER) */
	void (*init)(void);	/* runs in the test's process before it */
	void (*fini)(void);	/* runs in the test's process after it */
	int signal;		/* the test passes only if killed by this signal */
	int exit_code;		/* the test passes only if it exits with this code */
	const char *description;
};

struct uirq_test {
	const char *suite;
	const TTest *ttest;
	const struct uirq_test_opts *opts;
	struct uirq_test *next;
};

/* Format an assertion's optional message (printf-style) into a static buffer. */
const char *uirq_test_message(const char *fmt, ...);

/* Add a test to the run (Test() does it from a constructor). */
void uirq_test_register(struct uirq_test *t);

#define Test(suite, name, ...)							\
	static void suite##__##name(int _i CK_ATTRIBUTE_UNUSED);		\
	static const TTest suite##__##name##_tt = { #name, suite##__##name, __FILE__, __LINE__ }; \
	static const struct uirq_test_opts suite##__##name##_opts = { __VA_ARGS__ }; \
	static struct uirq_test suite##__##name##_t = { #suite, &suite##__##name##_tt, &suite##__##name##_opts, NULL }; \
	__attribute__((constructor)) static void suite##__##name##_reg(void)	\
	{									\
		uirq_test_register(&suite##__##name##_t);			\
	}									\
	static void suite##__##name(int _i CK_ATTRIBUTE_UNUSED)

/* A failed check names the expression; the optional message is a printf format literal. */
#define uirq__check(cond, ...)						\
	((cond) ? _mark_point(__FILE__, __LINE__)				\
		: _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #cond "' failed", "%s %s", \
				    "'" #cond "' failed:", uirq_test_message("" __VA_ARGS__)))

#define cr_assert(cond, ...)		uirq__check((cond), ##__VA_ARGS__)
#define cr_assert_not(cond, ...)	uirq__check(!(cond), ##__VA_ARGS__)
#define cr_assert_eq(a, b, ...)		uirq__check((a) == (b), ##__VA_ARGS__)
#define cr_assert_neq(a, b, ...)	uirq__check((a) != (b), ##__VA_ARGS__)
#define cr_assert_lt(a, b, ...)		uirq__check((a) < (b), ##__VA_ARGS__)
#define cr_assert_leq(a, b, ...)	uirq__check((a) <= (b), ##__VA_ARGS__)
#define cr_assert_gt(a, b, ...)		uirq__check((a) > (b), ##__VA_ARGS__)
#define cr_assert_geq(a, b, ...)	uirq__check((a) >= (b), ##__VA_ARGS__)
#define cr_assert_null(p, ...)		uirq__check((p) == NULL, ##__VA_ARGS__)
#define cr_assert_not_null(p, ...)	uirq__check((p) != NULL, ##__VA_ARGS__)
#define cr_assert_str_eq(a, b, ...)	ck_assert_str_eq((a), (b))
#define cr_assert_str_neq(a, b, ...)	ck_assert_str_ne((a), (b))
#define cr_assert_fail(...)		ck_abort_msg("failed: " __VA_ARGS__)
#define cr_expect			cr_assert
#define cr_expect_not			cr_assert_not
#define cr_expect_eq			cr_assert_eq
#define cr_expect_neq			cr_assert_neq
#define cr_log_info(...)		((void)0)

#include <stdbool.h>
#include <sys/types.h>

/* The tid of a thread of this process whose name is comm (or, with prefix, starts with it); -1 if none. */
pid_t harness_find_task(const char *comm, bool prefix);

/* How many of this process's file descriptors are open on path. */
int harness_fds_on(const char *path);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The test harness: Check (libcheck) runs every test in its own forked
 * process with its own timeout.  A test is UIRQ_TEST(suite, name, .timeout =
 * N, ...), registered at load time (no list to keep), and asserts with the
 * assert_*() below, which print the values they compared.
 */
#ifndef UIRQ_TESTS_HARNESS_H
#define UIRQ_TESTS_HARNESS_H

#include <check.h>
#include <stdbool.h>
#include <string.h>

/* Options of a test, as designated initializers in UIRQ_TEST(). */
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

/* Add a test to the run (UIRQ_TEST() does it from a constructor). */
void uirq_test_register(struct uirq_test *t);

#define UIRQ_TEST(suite, name, ...)							\
	static void suite##__##name(int _i CK_ATTRIBUTE_UNUSED);		\
	static const TTest suite##__##name##_tt = { #name, suite##__##name, __FILE__, __LINE__ }; \
	static const struct uirq_test_opts suite##__##name##_opts = { __VA_ARGS__ }; \
	static struct uirq_test suite##__##name##_t = { #suite, &suite##__##name##_tt, &suite##__##name##_opts, NULL }; \
	__attribute__((constructor)) static void suite##__##name##_reg(void)	\
	{									\
		uirq_test_register(&suite##__##name##_t);			\
	}									\
	static void suite##__##name(int _i CK_ATTRIBUTE_UNUSED)

/*
 * Assertions, in the project's own names, on Check's public ck_abort_msg().
 * A failure names the expression and prints the values compared (integers
 * in decimal, unsigned ones in hex too, pointers as addresses, floating
 * point with %Lg); the optional last arguments are a printf format literal
 * and its values, added after.  Each operand is evaluated once.
 */
void uirq_test_fmt_s(char *buf, size_t len, long long v);
void uirq_test_fmt_u(char *buf, size_t len, unsigned long long v);
void uirq_test_fmt_f(char *buf, size_t len, long double v);
void uirq_test_fmt_p(char *buf, size_t len, const volatile void *v);

#define uirq__fmt(buf, v)							\
	_Generic((v),								\
		_Bool: uirq_test_fmt_s, char: uirq_test_fmt_s, signed char: uirq_test_fmt_s, \
		short: uirq_test_fmt_s, int: uirq_test_fmt_s, long: uirq_test_fmt_s, \
		long long: uirq_test_fmt_s,					\
		unsigned char: uirq_test_fmt_u, unsigned short: uirq_test_fmt_u,	\
		unsigned int: uirq_test_fmt_u, unsigned long: uirq_test_fmt_u,	\
		unsigned long long: uirq_test_fmt_u,				\
		float: uirq_test_fmt_f, double: uirq_test_fmt_f, long double: uirq_test_fmt_f, \
		default: uirq_test_fmt_p)(buf, sizeof(buf), (v))

/* The user's message after the values, if there is one. */
#define uirq__msg(...)	uirq_test_message("" __VA_ARGS__)

/*
 * Operands are copied (evaluated once), which makes an integer constant a
 * variable: the signedness warning the comparison itself would not raise
 * is silenced here.  The public macros stringify their operands themselves
 * (sa, sb) and pass the text down: an argument is macro-expanded before it
 * reaches an inner macro, so an inner #a would print atomic_load(&x) as
 * the library's expansion instead of as written.
 */
#define uirq__cmp(a, op, b, sa, sb, ...)					\
	do {									\
		_Pragma("GCC diagnostic push")					\
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")		\
		__auto_type uirq__a = (a);					\
		__auto_type uirq__b = (b);					\
		if (!(uirq__a op uirq__b)) {					\
			char uirq__va[64], uirq__vb[64];			\
			const char *uirq__m = uirq__msg(__VA_ARGS__);		\
										\
			uirq__fmt(uirq__va, uirq__a);				\
			uirq__fmt(uirq__vb, uirq__b);				\
			ck_abort_msg("'%s' failed: %s is %s, %s is %s%s%s",	\
				     sa " " #op " " sb, sa, uirq__va, sb, uirq__vb, \
				     *uirq__m ? "; " : "", uirq__m);		\
		}								\
		_Pragma("GCC diagnostic pop")					\
	} while (0)

#define uirq__true(cond, scond, ...)						\
	do {									\
		if (!(cond)) {							\
			const char *uirq__m = uirq__msg(__VA_ARGS__);		\
										\
			ck_abort_msg("'%s' failed%s%s", scond, *uirq__m ? ": " : "", uirq__m); \
		}								\
	} while (0)
#define assert_true(cond, ...)		uirq__true(cond, #cond, ##__VA_ARGS__)
#define assert_false(cond, ...)		uirq__true(!(cond), "!(" #cond ")", ##__VA_ARGS__)
#define assert_eq(a, b, ...)		uirq__cmp(a, ==, b, #a, #b, ##__VA_ARGS__)
#define assert_ne(a, b, ...)		uirq__cmp(a, !=, b, #a, #b, ##__VA_ARGS__)
#define assert_lt(a, b, ...)		uirq__cmp(a, <, b, #a, #b, ##__VA_ARGS__)
#define assert_le(a, b, ...)		uirq__cmp(a, <=, b, #a, #b, ##__VA_ARGS__)
#define assert_gt(a, b, ...)		uirq__cmp(a, >, b, #a, #b, ##__VA_ARGS__)
#define assert_ge(a, b, ...)		uirq__cmp(a, >=, b, #a, #b, ##__VA_ARGS__)
#define uirq__null(p, sp, want_null, ...)					\
	do {									\
		const volatile void *uirq__p = (p);				\
										\
		if ((uirq__p == NULL) != (want_null)) {				\
			const char *uirq__m = uirq__msg(__VA_ARGS__);		\
										\
			ck_abort_msg("'%s' is %p, expected %s%s%s", sp, (const void *)uirq__p, \
				     (want_null) ? "NULL" : "not NULL", *uirq__m ? "; " : "", uirq__m); \
		}								\
	} while (0)
#define assert_null(p, ...)		uirq__null(p, #p, true, ##__VA_ARGS__)
#define assert_not_null(p, ...)		uirq__null(p, #p, false, ##__VA_ARGS__)

/* Strings compared with strcmp(); NULL equals only NULL.  Both are printed. */
bool uirq_test_str_eq(const char *a, const char *b);
#define uirq__str(a, sa, want, b, sb, ...)					\
	do {									\
		const char *uirq__a = (a), *uirq__b = (b);			\
										\
		if (uirq_test_str_eq(uirq__a, uirq__b) != (want)) {		\
			const char *uirq__m = uirq__msg(__VA_ARGS__);		\
										\
			ck_abort_msg("'%s %s %s' failed: \"%s\" and \"%s\"%s%s", sa, (want) ? "==" : "!=", \
				     sb, uirq__a ? uirq__a : "(null)", uirq__b ? uirq__b : "(null)", \
				     *uirq__m ? "; " : "", uirq__m);		\
		}								\
	} while (0)
#define assert_str_eq(a, b, ...)	uirq__str(a, #a, true, b, #b, ##__VA_ARGS__)
#define assert_str_ne(a, b, ...)	uirq__str(a, #a, false, b, #b, ##__VA_ARGS__)
#define assert_fail(...)		ck_abort_msg("failed: %s", uirq__msg(__VA_ARGS__))

#include <stdbool.h>
#include <sys/types.h>

/*
 * The tid of a thread of this process whose name is comm (or, with prefix,
 * starts with it); -1 if none.  While the deterministic mode runs, its
 * tasks are coroutines on one thread, not threads: a task that has not
 * ended, by its name cut to the 15 characters of a thread's, and its task
 * id + 1 (uirq/sim.h).
 */
pid_t harness_find_task(const char *comm, bool prefix);
/*
 * Whether the threads named comm are gone, waiting up to 10 s for it: a
 * joined thread's task stays listed in /proc/self/task for a moment after
 * pthread_join() returns (the kernel wakes the joiner when the exiting
 * thread clears its tid, before it reaps the task).  At once in the
 * deterministic mode.
 */
bool harness_task_gone(const char *comm);
/* The calling thread's name (pthread_getname_np()), or a task's of the deterministic mode, as above. */
void harness_thread_name(char buf[16]);

/* How many of this process's file descriptors are open on path. */
int harness_fds_on(const char *path);

#endif

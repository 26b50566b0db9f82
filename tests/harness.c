// SPDX-License-Identifier: MIT
/* main() of every test executable: one Check suite per UIRQ_TEST() suite, one case per test. */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct uirq_test *tests;

void uirq_test_register(struct uirq_test *t)
{
	t->next = tests;
	tests = t;
}

const char *uirq_test_message(const char *fmt, ...)
{
	static char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

void uirq_test_fmt_s(char *buf, size_t len, long long v)
{
	snprintf(buf, len, "%lld", v);
}

void uirq_test_fmt_u(char *buf, size_t len, unsigned long long v)
{
	snprintf(buf, len, v < 10 ? "%llu" : "%llu (0x%llx)", v, v);
}

void uirq_test_fmt_f(char *buf, size_t len, long double v)
{
	snprintf(buf, len, "%Lg", v);
}

void uirq_test_fmt_p(char *buf, size_t len, const volatile void *v)
{
	snprintf(buf, len, "%p", (const void *)v);
}

bool uirq_test_str_eq(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static Suite *suite_for(SRunner **sr, Suite **made, const char **names, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return made[i];
	Suite *s = suite_create(name);

	names[*n] = name;
	made[(*n)++] = s;
	if (!*sr)
		*sr = srunner_create(s);
	else
		srunner_add_suite(*sr, s);
	return s;
}

int main(void)
{
	enum { MAX_SUITES = 256 };
	static Suite *made[MAX_SUITES];
	static const char *names[MAX_SUITES];
	struct uirq_test *order = NULL, *t, *next;
	SRunner *sr = NULL;
	int n = 0;

	/* Constructors ran bottom-up; restore file order. */
	for (t = tests; t; t = next) {
		next = t->next;
		t->next = order;
		order = t;
	}
	for (t = order; t; t = t->next) {
		if (n == MAX_SUITES) {
			fprintf(stderr, "harness: more than %d suites\n", MAX_SUITES);
			return 2;
		}
		Suite *s = suite_for(&sr, made, names, &n, t->suite);
		TCase *tc = tcase_create(t->suite);

		tcase_set_timeout(tc, t->opts->timeout > 0 ? t->opts->timeout : 10);
		if (t->opts->init || t->opts->fini)
			tcase_add_checked_fixture(tc, t->opts->init, t->opts->fini);
		_tcase_add_test(tc, t->ttest, t->opts->signal, t->opts->exit_code, 0, 1);
		suite_add_tcase(s, tc);
	}
	if (!sr) {
		fprintf(stderr, "harness: no tests registered\n");
		return 2;
	}
	/* TAP on stdout lets meson count every test; Check's summary goes last. */
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	int failed = srunner_ntests_failed(sr), run = srunner_ntests_run(sr);

	fprintf(stderr, "%d%%: Checks: %d, Failures: %d\n", run ? 100 * (run - failed) / run : 0, run, failed);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The deterministic mode's calls, weak: not every test links uirq. */
extern bool uirq_sim_running(void) __attribute__((weak));
extern int uirq_sim_task_id(void) __attribute__((weak));
extern const char *uirq_sim_task_name(unsigned int id) __attribute__((weak));
extern bool uirq_sim_task_alive(unsigned int id) __attribute__((weak));

static bool comm_matches(const char *name, const char *comm, bool prefix)
{
	return prefix ? !strncmp(name, comm, strlen(comm)) : !strcmp(name, comm);
}

pid_t harness_find_task(const char *comm, bool prefix)
{
	DIR *d;
	struct dirent *e;
	pid_t found = -1;

	if (uirq_sim_running && uirq_sim_running()) {
		const char *name;

		for (unsigned int id = 0; (name = uirq_sim_task_name(id)); id++) {
			char cut[16];

			snprintf(cut, sizeof(cut), "%s", name);
			if (uirq_sim_task_alive(id) && comm_matches(cut, comm, prefix))
				return (pid_t)id + 1;
		}
		return -1;
	}
	d = opendir("/proc/self/task");
	if (!d)
		return -1;
	while (found < 0 && (e = readdir(d))) {
		char path[300], buf[64] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			if (comm_matches(buf, comm, prefix))
				found = atoi(e->d_name);
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

bool harness_task_gone(const char *comm)
{
	for (int i = 0; i < 100000 && harness_find_task(comm, false) >= 0; i++)
		usleep(100);
	return harness_find_task(comm, false) < 0;
}

void harness_thread_name(char buf[16])
{
	int id = uirq_sim_task_id ? uirq_sim_task_id() : -1;

	if (id >= 0)
		snprintf(buf, 16, "%s", uirq_sim_task_name((unsigned int)id));
	else if (pthread_getname_np(pthread_self(), buf, 16))
		snprintf(buf, 16, "?");
}

int harness_fds_on(const char *path)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char link[300], target[PATH_MAX];
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (!strcmp(target, path))
			n++;
	}
	closedir(d);
	return n;
}

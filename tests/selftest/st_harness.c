// SPDX-License-Identifier: MIT
/* Harness for the locking-selftest families: lock slots and report recorder. */
#include "selftest.h"

#include "harness.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct st_lock st_A = { .role = "A", .cls = "A" };
struct st_lock st_B = { .role = "B", .cls = "B" };
struct st_lock st_C = { .role = "C", .cls = "C" };
struct st_lock st_D = { .role = "D", .cls = "D" };
struct st_lock st_X1 = { .role = "X1", .cls = "X" };
struct st_lock st_X2 = { .role = "X2", .cls = "X" };
struct st_lock st_Y1 = { .role = "Y1", .cls = "Y" };
struct st_lock st_Y2 = { .role = "Y2", .cls = "Y" };
struct st_lock st_Z1 = { .role = "Z1", .cls = "Z" };
struct st_lock st_Z2 = { .role = "Z2", .cls = "Z" };

static struct st_lock *const all_slots[] = {
	&st_A, &st_B, &st_C, &st_D, &st_X1, &st_X2, &st_Y1, &st_Y2, &st_Z1, &st_Z2,
};

/* One class key per (primitive, class role), like the kernel's per-site keys. */
enum { K_SPIN, K_RW, K_MUTEX, K_NR };
static const char *const class_roles = "ABCDXYZ";
static struct uirq_lock_class_key keys[K_NR][7];
static char names[K_NR][7][16];

static enum st_type cur_type = ST_SPIN;

static int class_index(const char *cls)
{
	const char *p = strchr(class_roles, cls[0]);

	assert_true(p && cls[0], "unknown class role %s", cls);
	return (int)(p - class_roles);
}

static const char *name_of(int prim, const char *cls)
{
	static const char *const prefix[K_NR] = { "lock_", "rwlock_", "mutex_" };
	int i = class_index(cls);

	if (!names[prim][i][0]) {
		strcpy(names[prim][i], prefix[prim]);
		strcat(names[prim][i], cls);
	}
	return names[prim][i];
}

const char *st_class_name(enum st_type type, const char *cls)
{
	switch (type) {
	case ST_SPIN:
		return name_of(K_SPIN, cls);
	case ST_WLOCK:
	case ST_RLOCK:
		return name_of(K_RW, cls);
	case ST_MUTEX:
		return name_of(K_MUTEX, cls);
	}
	return "?";
}

static void init_slot(struct st_lock *l)
{
	int i = class_index(l->cls);

	uirq__spin_lock_init(&l->spin, name_of(K_SPIN, l->cls), &keys[K_SPIN][i]);
	uirq__rwlock_init(&l->rw, name_of(K_RW, l->cls), &keys[K_RW][i]);
	uirq__mutex_init(&l->mutex, name_of(K_MUTEX, l->cls), &keys[K_MUTEX][i]);
}

void st_use(enum st_type type)
{
	cur_type = type;
}

void st_lock(struct st_lock *l, const char *file, int line)
{
	switch (cur_type) {
	case ST_SPIN:
		uirq__spin_lock(&l->spin, 0, file, line);
		break;
	case ST_WLOCK:
		uirq__write_lock(&l->rw, file, line);
		break;
	case ST_RLOCK:
		uirq__read_lock(&l->rw, file, line);
		break;
	case ST_MUTEX:
		uirq__mutex_lock(&l->mutex, 0, file, line);
		break;
	}
}

void st_unlock(struct st_lock *l, const char *file, int line)
{
	switch (cur_type) {
	case ST_SPIN:
		uirq__spin_unlock(&l->spin, file, line);
		break;
	case ST_WLOCK:
		uirq__write_unlock(&l->rw, file, line);
		break;
	case ST_RLOCK:
		uirq__read_unlock(&l->rw, file, line);
		break;
	case ST_MUTEX:
		uirq__mutex_unlock(&l->mutex, file, line);
		break;
	}
}

void st_reinit(struct st_lock *l)
{
	int i = class_index(l->cls);

	switch (cur_type) {
	case ST_SPIN:
		uirq__spin_lock_init(&l->spin, name_of(K_SPIN, l->cls), &keys[K_SPIN][i]);
		break;
	case ST_WLOCK:
	case ST_RLOCK:
		uirq__rwlock_init(&l->rw, name_of(K_RW, l->cls), &keys[K_RW][i]);
		break;
	case ST_MUTEX:
		uirq__mutex_init(&l->mutex, name_of(K_MUTEX, l->cls), &keys[K_MUTEX][i]);
		break;
	}
}

/* ---- reports ---------------------------------------------------------- */

struct st_record st_reports[ST_MAX_REPORTS];
int st_nreports;
static int st_overflow;
static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const kind_names[UIRQ_REPORT_NR_KINDS] = {
	[UIRQ_REPORT_CIRCULAR] = "CIRCULAR",
	[UIRQ_REPORT_RECURSIVE] = "RECURSIVE",
	[UIRQ_REPORT_INCONSISTENT] = "INCONSISTENT",
	[UIRQ_REPORT_SAFE_TO_UNSAFE] = "SAFE_TO_UNSAFE",
	[UIRQ_REPORT_IRQ_INVERSION] = "IRQ_INVERSION",
	[UIRQ_REPORT_BAD_UNLOCK] = "BAD_UNLOCK",
	[UIRQ_REPORT_HELD_FREED] = "HELD_FREED",
	[UIRQ_REPORT_HELD_AT_EXIT] = "HELD_AT_EXIT",
	[UIRQ_REPORT_ASSERT] = "ASSERT",
	[UIRQ_REPORT_SLEEP_INVALID] = "SLEEP_INVALID",
	[UIRQ_REPORT_RESOURCES] = "RESOURCES",
	[UIRQ_REPORT_DESTROYED] = "DESTROYED",
	[UIRQ_REPORT_COND] = "COND",
	[UIRQ_REPORT_WAIT] = "WAIT",
};

const char *st_kind_name(int kind)
{
	if (kind < 0 || kind >= UIRQ_REPORT_NR_KINDS || !kind_names[kind])
		return "?";
	return kind_names[kind];
}

static void recorder(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&rec_lock);
	if (st_nreports < ST_MAX_REPORTS) {
		struct st_record *rec = &st_reports[st_nreports++];

		rec->kind = r->kind;
		rec->headline = r->headline ? strdup(r->headline) : NULL;
		rec->text = r->text ? strdup(r->text) : NULL;
	} else {
		st_overflow++;
	}
	pthread_mutex_unlock(&rec_lock);
}

void st_setup(void)
{
	assert_true(uirq_lockdep_enabled(), "lockdep must be running (is UIRQ_LOCKDEP=0 set?)");
	uirq_lockdep_set_report_handler(recorder, NULL);
	st_nreports = 0;
	st_overflow = 0;
	cur_type = ST_SPIN;
	for (size_t i = 0; i < sizeof(all_slots) / sizeof(all_slots[0]); i++)
		init_slot(all_slots[i]);
}

void st_teardown(void)
{
	uirq_lockdep_set_report_handler(NULL, NULL);
	for (int i = 0; i < st_nreports; i++) {
		free(st_reports[i].headline);
		free(st_reports[i].text);
	}
	st_nreports = 0;
}

static void describe(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < st_nreports && off + 20 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					st_kind_name(st_reports[i].kind));
	if (!st_nreports)
		snprintf(buf, len, "none");
}

/* The counters must agree with what the handler saw. */
static void check_counters(void)
{
	struct uirq_lockdep_stats s;
	unsigned long by_kind[UIRQ_REPORT_NR_KINDS] = { 0 };

	memset(&s, 0, sizeof(s));
	uirq_lockdep_get_stats(&s);
	assert_eq(st_overflow, 0, "more than %d reports", ST_MAX_REPORTS);
	assert_eq(s.reports, (unsigned long)st_nreports,
		     "stats.reports=%lu but the handler saw %d report(s)", s.reports, st_nreports);
	for (int i = 0; i < st_nreports; i++)
		by_kind[st_reports[i].kind]++;
	for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++)
		assert_eq(s.reports_by_kind[k], by_kind[k],
			     "stats.reports_by_kind[%s]=%lu, handler saw %lu",
			     st_kind_name(k), s.reports_by_kind[k], by_kind[k]);
}

void st_expect_success(void)
{
	char seen[256];

	describe(seen, sizeof(seen));
	assert_eq(st_nreports, 0, "kernel verdict SUCCESS (no report), got: %s%s%s", seen,
		     st_nreports ? "\n--- first report ---\n" : "",
		     st_nreports && st_reports[0].text ? st_reports[0].text : "");
	check_counters();
}

void st_expect_failure(enum uirq_lockdep_report_kind kind)
{
	char seen[256];

	describe(seen, sizeof(seen));
	assert_eq(st_nreports, 1, "kernel verdict FAILURE: exactly one %s report, got: %s",
		     st_kind_name(kind), seen);
	assert_eq(st_reports[0].kind, kind, "expected one %s report, got: %s\n%s",
		     st_kind_name(kind), seen, st_reports[0].text ? st_reports[0].text : "");
	assert_true(st_reports[0].headline && st_reports[0].text, "report without headline/text");
	check_counters();
}

void st_expect_first(enum uirq_lockdep_report_kind first, unsigned int also)
{
	char seen[256];
	unsigned int once = 0;

	describe(seen, sizeof(seen));
	assert_ge(st_nreports, 1, "kernel verdict FAILURE (first report %s), got: none",
		      st_kind_name(first));
	assert_eq(st_reports[0].kind, first, "first report must be %s, got: %s",
		     st_kind_name(first), seen);
	for (int i = 0; i < st_nreports; i++) {
		unsigned int bit = ST_BIT(st_reports[i].kind);

		assert_true(i == 0 || (also & bit), "unexpected report kind after %s: %s",
			  st_kind_name(first), seen);
		assert_true(!(once & bit), "%s reported twice (each problem once): %s",
			  st_kind_name(st_reports[i].kind), seen);
		once |= bit;
	}
	check_counters();
}

const struct st_record *st_find(enum uirq_lockdep_report_kind kind)
{
	for (int i = 0; i < st_nreports; i++)
		if (st_reports[i].kind == kind)
			return &st_reports[i];
	return NULL;
}

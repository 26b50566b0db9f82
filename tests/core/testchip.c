// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "testchip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "uirq/context.h"
#include "uirq/sim.h"

struct tchip tc;
atomic_int lockdep_reports;

static unsigned int hw_of(struct uirq_irq_data *d)
{
	return (unsigned int)d->hwirq;
}

static void tc_mask(struct uirq_irq_data *d)
{
	atomic_fetch_add(&tc.line[hw_of(d)].mask, 1);
	atomic_store(&tc.line[hw_of(d)].masked, 1);
}

static void tc_unmask(struct uirq_irq_data *d)
{
	struct tc_line *l = &tc.line[hw_of(d)];

	atomic_fetch_add(&l->unmask, 1);
	atomic_store(&l->masked, 0);
	if (atomic_load(&l->asserted))
		uirq_irq_raise(d->irq);
}

static void tc_ack(struct uirq_irq_data *d)
{
	atomic_fetch_add(&tc.line[hw_of(d)].ack, 1);
}

static void tc_eoi(struct uirq_irq_data *d)
{
	atomic_fetch_add(&tc.line[hw_of(d)].eoi, 1);
}

static int tc_set_type(struct uirq_irq_data *d, unsigned int type)
{
	atomic_fetch_add(&tc.line[hw_of(d)].set_type, 1);
	if (type == UIRQ_TYPE_EDGE_BOTH + 100)
		return -EINVAL;
	atomic_store(&tc.line[hw_of(d)].type, type);
	return UIRQ_IRQ_SET_MASK_OK;
}

static int tc_retrigger(struct uirq_irq_data *d)
{
	atomic_fetch_add(&tc.line[hw_of(d)].retrigger, 1);
	if (!tc.retrigger)
		return 0;
	uirq_irq_raise(d->irq);
	return 1;
}

static void tc_bus_lock(struct uirq_irq_data *d)
{
	(void)d;
	if (uirq_in_interrupt())
		atomic_fetch_add(&tc.bus_in_irq, 1);
	uirq_mutex_lock(&tc.bus);
	atomic_fetch_add(&tc.bus_lock, 1);
}

static void tc_bus_sync_unlock(struct uirq_irq_data *d)
{
	(void)d;
	atomic_fetch_add(&tc.bus_unlock, 1);
	uirq_mutex_unlock(&tc.bus);
}

static void count_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	atomic_fetch_add(&lockdep_reports, 1);
	fputs(r->text, stderr);
}

void tc_count_reports(void)
{
	uirq_lockdep_set_report_handler(count_report, NULL);
}

void tc_setup(unsigned int ncpus, bool pinned, bool threadirqs, uirq_irq_flow_handler_t flow)
{
	struct uirq_cpu_config cfg = { .nr_cpus = ncpus, .threadirqs = threadirqs, .pinned = pinned };

	uirq_lockdep_set_report_handler(count_report, NULL);
	for (unsigned int i = 0; pinned && i < ncpus; i++)
		cfg.pin[i] = (int)(i % (unsigned int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_eq(uirq_cpus_start(&cfg), 0);
	memset(&tc, 0, sizeof(tc));
	tc.chip = (struct uirq_irq_chip){
		.name = "TESTCHIP",
		.irq_mask = tc_mask,
		.irq_unmask = tc_unmask,
		.irq_ack = tc_ack,
		.irq_eoi = flow == uirq_handle_fasteoi_irq ? tc_eoi : NULL,
		.irq_set_type = tc_set_type,
		.irq_retrigger = tc_retrigger,
		.irq_bus_lock = tc_bus_lock,
		.irq_bus_sync_unlock = tc_bus_sync_unlock,
	};
	uirq_mutex_init(&tc.bus);
	assert_eq(uirq_irq_domain_add_linear("tc", TC_LINES, &tc.chip, &tc, flow, &tc.domain), 0);
	for (unsigned int hw = 0; hw < TC_LINES; hw++) {
		atomic_store(&tc.line[hw].masked, 1);
		assert_ne(uirq_irq_create_mapping(tc.domain, hw), 0u);
	}
}

void tc_teardown(void)
{
	uirq_irq_domain_remove(tc.domain);
	uirq_cpus_stop();
	assert_eq(atomic_load(&tc.bus_in_irq), 0, "bus lock taken in interrupt context");
	assert_eq(atomic_load(&tc.bus_lock), atomic_load(&tc.bus_unlock));
	assert_eq(atomic_load(&lockdep_reports), 0, "lockdep reported");
}

unsigned int tc_irq(unsigned int hw)
{
	return uirq_irq_find_mapping(tc.domain, hw);
}

struct tc_line *tc_line_of(unsigned int irq)
{
	return &tc.line[uirq_irq_get_irq_data(irq)->hwirq];
}

void tc_set_level(unsigned int irq, bool high)
{
	struct tc_line *l = tc_line_of(irq);

	atomic_store(&l->asserted, high);
	if (high && !atomic_load(&l->masked))
		uirq_irq_raise(irq);
}

void tc_edge(unsigned int irq)
{
	uirq_irq_raise(irq);
}

/* In the deterministic mode virtual time (free, exact); elsewhere a real sleep. */
void tc_msleep(int ms)
{
	uirq_sim_sleep_ns((uint64_t)ms * 1000000u);
}

/*
 * In the mode: poll on the virtual clock for ms, exact (handlers cost no
 * virtual time, so what is due has happened).  On real threads: wait for
 * the event however long it takes - no deadline of its own, Check's
 * per-test timeout bounds a hang - so load makes it slower, never false.
 */
bool tc_wait(bool (*cond)(void *), void *arg, int ms)
{
	if (uirq_sim_running() && uirq_sim_task_id() >= 0) {
		for (int i = 0; i < ms * 10 && !cond(arg); i++)
			uirq_sim_sleep_ns(100000);
		return cond(arg);
	}
	while (!cond(arg))
		usleep(100);
	return true;
}

static bool atomic_ge(void *arg)
{
	const struct { atomic_int *v; int val; } *w = arg;

	return atomic_load(w->v) >= w->val;
}

bool tc_wait_atomic_ge(atomic_int *v, int val, int ms)
{
	struct { atomic_int *v; int val; } w = { v, val };

	return tc_wait(atomic_ge, &w, ms);
}

long tc_voluntary_switches(pid_t tid)
{
	char path[64], line[128];
	long v = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	FILE *f = fopen(path, "r");

	assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int saved_fd = -1;
static FILE *cap;
static char *cap_text;

void tc_capture_begin(void)
{
	fflush(stderr);
	cap = tmpfile();
	assert_not_null(cap);
	saved_fd = dup(2);
	dup2(fileno(cap), 2);
}

const char *tc_capture_end(void)
{
	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	long n = ftell(cap);

	free(cap_text);
	cap_text = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(cap);
	if (n > 0 && fread(cap_text, 1, (size_t)n, cap) != (size_t)n)
		cap_text[0] = '\0';
	fclose(cap);
	/* Show it in the test's log too. */
	fputs(cap_text, stderr);
	return cap_text;
}


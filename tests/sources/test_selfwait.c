// SPDX-License-Identifier: MIT
/*
 * A handler that waits for its own line: disable_irq(), synchronize_irq()
 * or free_irq() from the line's handler thread or primary handler.  The
 * kernel deadlocks; uirq reports it (the call, the irq, who called, a
 * backtrace), waits for everybody but the caller, and the line stays
 * usable: enable_irq() or a new request serves again.
 *
 * In the deterministic mode (tests/sim_runs.h): the call has returned,
 * or not, once the flow has run to its end, which a loaded host cannot
 * delay; under several seeds on one CPU and two.
 */
#include "common.h"

#include <pthread.h>
#include <string.h>

#include "sim_runs.h"
#include "uirq/printk.h"

static struct uirq_fd_line *line;
static unsigned int irq;
static atomic_int primaries, threads, calls_done;
static const char *freed_name;

/* What the handler under test does to its own line. */
enum self_call { CALL_DISABLE, CALL_SYNCHRONIZE, CALL_FREE };
static enum self_call what;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_text[16384];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&log_lock);
	strncat(log_text, msg, sizeof(log_text) - strlen(log_text) - 1);
	pthread_mutex_unlock(&log_lock);
	fputs(msg, stderr);
}

static bool logged(const char *s)
{
	pthread_mutex_lock(&log_lock);
	bool found = strstr(log_text, s) != NULL;

	pthread_mutex_unlock(&log_lock);
	return found;
}

static void call_on_own_line(void)
{
	switch (what) {
	case CALL_DISABLE:
		uirq_disable_irq(irq);
		break;
	case CALL_SYNCHRONIZE:
		uirq_synchronize_irq(irq);
		break;
	case CALL_FREE:
		freed_name = uirq_free_irq(irq, &line);
		break;
	}
	atomic_fetch_add(&calls_done, 1);
}

static uirq_irqreturn_t thread_calls(int i, void *dev)
{
	(void)i;
	(void)dev;
	if (atomic_fetch_add(&threads, 1) == 0)
		call_on_own_line();
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t primary_calls(int i, void *dev)
{
	(void)i;
	(void)dev;
	if (atomic_fetch_add(&primaries, 1) == 0)
		call_on_own_line();
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t plain_thread(int i, void *dev)
{
	(void)i;
	(void)dev;
	atomic_fetch_add(&threads, 1);
	return UIRQ_IRQ_HANDLED;
}

static void setup(unsigned int cpus)
{
	log_text[0] = '\0';
	freed_name = NULL;
	atomic_store(&primaries, 0);
	atomic_store(&threads, 0);
	atomic_store(&calls_done, 0);
	uirq_log_set_sink(sink, NULL);
	start_cpus(cpus);
	int ret = uirq_eventfd_line_create(-1, UIRQ_TYPE_EDGE_RISING, &line);

	assert_gt(ret, 0);
	irq = (unsigned int)ret;
}

static void fini(void)
{
	assert_eq(uirq_fd_line_destroy(line), 0);
	teardown();
	uirq_log_set_sink(NULL, NULL);
}

/* Longer than any flow here takes: virtual, so free; handlers take no virtual time. */
static void settle(void)
{
	uirq_sim_sleep_ns(SIM_MS);
}

/* The report names the call, the line and the handler, and carries a trace. */
static void assert_reported_on(unsigned int on, const char *call, const char *kind)
{
	char want[128];

	snprintf(want, sizeof(want), "genirq: %s(%u) called by ", call, on);
	assert_true(logged(want), "no \"%s\" in:\n%s", want, log_text);
	snprintf(want, sizeof(want), "a %s of irq %u: it would wait for itself", kind, on);
	assert_true(logged(want), "no \"%s\" in:\n%s", want, log_text);
	assert_true(logged("Call Trace:"));
}

static void assert_reported(const char *call, const char *kind)
{
	assert_reported_on(irq, call, kind);
}

/* A second request of the line is served: the line is usable after all. */
static void assert_line_serves_again(void)
{
	int before = atomic_load(&threads);

	assert_eq(uirq_request_threaded_irq(irq, NULL, plain_thread, UIRQF_ONESHOT, "again", &irq), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&threads), before + 1);
	assert_str_eq(uirq_free_irq(irq, &irq), "again");
}

SIM_TEST(selfwait, thread_disables_its_own_line, setup, fini, .timeout = 20)
{
	what = CALL_DISABLE;
	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_calls, UIRQF_ONESHOT, "self", &line), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&calls_done), 1, "disable_irq() from the thread did not return");
	assert_reported("disable_irq", "handler thread");
	assert_false(uirq_irq_is_enabled(irq), "the disable itself is done");
	uirq_enable_irq(irq);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&threads), 2, "the line serves after enable_irq");
	assert_str_eq(uirq_free_irq(irq, &line), "self");
}

SIM_TEST(selfwait, thread_synchronizes_its_own_line, setup, fini, .timeout = 20)
{
	what = CALL_SYNCHRONIZE;
	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_calls, UIRQF_ONESHOT, "self", &line), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&calls_done), 1, "synchronize_irq() from the thread did not return");
	assert_reported("synchronize_irq", "handler thread");
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&threads), 2);
	assert_str_eq(uirq_free_irq(irq, &line), "self");
}

SIM_TEST(selfwait, thread_frees_its_own_line, setup, fini, .timeout = 20)
{
	what = CALL_FREE;
	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_calls, UIRQF_ONESHOT, "self", &line), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&calls_done), 1, "free_irq() from the thread did not return");
	assert_reported("free_irq", "handler thread");
	assert_str_eq(freed_name, "self");
	assert_false(uirq_irq_has_action(irq));
	assert_line_serves_again();
	assert_eq(atomic_load(&threads), 2, "the freed handler never ran again");
}

/*
 * From the primary handler: sleeping in hard-irq context is a BUG report of
 * its own (might_sleep); then the same report, and no wait for itself.
 * might_sleep reports a call site once in a process, as the kernel's: the
 * test's first seeded run reports it, the later runs (same process) not.
 */
static bool sleep_site_reported;

static void forget_sleep_report(void)
{
	if (!sleep_site_reported)
		assert_ge(atomic_load(&lockdep_reports), 1, "might_sleep in hard-irq context");
	else
		assert_eq(atomic_load(&lockdep_reports), 0, "might_sleep reported the same site twice");
	sleep_site_reported = true;
	atomic_store(&lockdep_reports, 0);
}

SIM_TEST(selfwait, primary_disables_its_own_line, setup, fini, .timeout = 20)
{
	what = CALL_DISABLE;
	assert_eq(uirq_request_irq(irq, primary_calls, 0, "self", &line), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&calls_done), 1, "disable_irq() from the primary did not return");
	assert_reported("disable_irq", "hard-irq handler");
	forget_sleep_report();
	assert_false(uirq_irq_is_enabled(irq));
	uirq_enable_irq(irq);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&primaries), 2, "the line serves after enable_irq");
	assert_str_eq(uirq_free_irq(irq, &line), "self");
}

SIM_TEST(selfwait, primary_frees_its_own_line, setup, fini, .timeout = 20)
{
	what = CALL_FREE;
	assert_eq(uirq_request_threaded_irq(irq, primary_calls, plain_thread, UIRQF_ONESHOT, "self", &line), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&calls_done), 1, "free_irq() from the primary did not return");
	assert_reported("free_irq", "hard-irq handler");
	forget_sleep_report();
	assert_str_eq(freed_name, "self");
	assert_line_serves_again();
	assert_eq(atomic_load(&primaries), 1, "the freed primary never ran again");
}

/*
 * A nested child (run in its parent's thread by handle_nested_irq) that
 * frees itself: the parent's thread walks the child's action list, so the
 * free is finished once that nested run is over.
 */
static unsigned int child;

static uirq_irqreturn_t demux_thread(int i, void *dev)
{
	(void)i;
	(void)dev;
	uirq_handle_nested_irq(child);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t child_frees_itself(int i, void *dev)
{
	(void)i;
	(void)dev;
	if (atomic_fetch_add(&threads, 1) == 0) {
		freed_name = uirq_free_irq(child, &child);
		atomic_fetch_add(&calls_done, 1);
	}
	return UIRQ_IRQ_HANDLED;
}

SIM_TEST(selfwait, nested_child_frees_itself, setup, fini, .timeout = 20)
{
	static struct uirq_irq_chip nest_chip = { .name = "NEST" };

	child = (unsigned int)uirq_irq_alloc_descs(-1, 1, 1);
	assert_gt(child, 0u);
	uirq_irq_set_chip_and_handler_name(child, &nest_chip, NULL, "nested");
	uirq_irq_set_nested_thread(child, true);
	assert_eq(uirq_irq_set_parent(child, (int)irq), 0);
	assert_eq(uirq_request_threaded_irq(irq, NULL, demux_thread, UIRQF_ONESHOT, "demux", &line), 0);
	assert_eq(uirq_request_threaded_irq(child, NULL, child_frees_itself, 0, "child", &child), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&calls_done), 1, "free_irq() from the nested run did not return");
	assert_reported_on(child, "free_irq", "handler thread");
	assert_str_eq(freed_name, "child");
	assert_false(uirq_irq_has_action(child));
	assert_eq(uirq_request_threaded_irq(child, NULL, plain_thread, 0, "again", &irq), 0);
	assert_eq(uirq_eventfd_line_raise(line), 0);
	settle();
	assert_eq(atomic_load(&threads), 2, "the child serves a new request");
	assert_str_eq(uirq_free_irq(child, &irq), "again");
	assert_str_eq(uirq_free_irq(irq, &line), "demux");
	uirq_irq_free_descs(child, 1);
}

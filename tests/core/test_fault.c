// SPDX-License-Identifier: MIT
/*
 * Faulting and hung handlers (core/fault.c, core/hung.c): a thread_fn that
 * faults is contained - its action dead, its line disabled or, shared, left
 * to the other actions, an oops report in the log - and the rest goes on; a
 * fault in hard-irq context is reported and kills the process with its
 * signal; a thread_fn that overruns the deadline is reported once a run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "testchip.h"
#include "uirq/mutex.h"
#include "uirq/printk.h"
#include "uirq/sim.h"
#include "uirq/sources.h"

static int dev_a, dev_b, dev_c;

/* ---- the log ---- */

static struct {
	pthread_mutex_t lock;
	size_t len;
	char text[1 << 16];
} lg = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void on_log(const char *msg, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lg.lock);
	size_t n = strlen(msg);

	if (lg.len + n < sizeof(lg.text)) {
		memcpy(lg.text + lg.len, msg, n + 1);
		lg.len += n;
	}
	pthread_mutex_unlock(&lg.lock);
	fputs(msg, stderr);	/* in the test's output too */
}

static void log_start(void)
{
	uirq_log_set_sink(on_log, NULL);
}

static int log_count(const char *s)
{
	int n = 0;

	pthread_mutex_lock(&lg.lock);
	for (const char *p = lg.text; (p = strstr(p, s)); p += strlen(s))
		n++;
	pthread_mutex_unlock(&lg.lock);
	return n;
}

static bool logged(const char *s)
{
	return log_count(s) > 0;
}

static bool logged_cond(void *s)
{
	return logged(s);
}

/* ---- faults ---- */

enum fault { F_NULL, F_DIV, F_TRAP, F_BUS, F_RAISE_BUS, F_RAISE_ILL, F_OVERFLOW };

static volatile char *past_eof;	/* F_BUS: a mapping's second page, beyond its file's end */

static void setup_bus(void)
{
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = tmpfile();

	assert_not_null(f);
	assert_eq(ftruncate(fileno(f), page), 0);
	void *p = mmap(NULL, (size_t)page * 2, PROT_READ, MAP_SHARED, fileno(f), 0);

	assert_ne(p, MAP_FAILED);
	past_eof = (volatile char *)p + page;
}

volatile int fault_sink;	/* results the compiler may not drop */
static volatile int stop_depth = 1 << 30;	/* never reached: the stack ends first */

/* Big frames: the thread's stack ends long before any sanitizer's shadow stack does. */
__attribute__((noinline)) static int recurse(int n)
{
	volatile char pad[4096];

	pad[0] = (char)n;
	pad[sizeof(pad) - 1] = (char)n;
	if (n >= stop_depth)
		return n;
	return recurse(n + 1) + pad[0] + pad[sizeof(pad) - 1];
}

/* The sanitizer's checks are not what is tested here: the fault is. */
__attribute__((noinline, no_sanitize("undefined"))) static void do_fault(enum fault f)
{
	switch (f) {
	case F_NULL: {
		volatile int *volatile p = NULL;

		fault_sink = *p;
		break;
	}
	case F_DIV: {
		volatile int one = 1, zero = 0;

		fault_sink = one / zero;
		break;
	}
	case F_TRAP:
		__builtin_trap();
	case F_BUS:
		fault_sink = past_eof[0];
		break;
	case F_RAISE_BUS:
		raise(SIGBUS);
		break;
	case F_RAISE_ILL:
		raise(SIGILL);
		break;
	case F_OVERFLOW:
		fault_sink = recurse(0);
		break;
	}
}

static atomic_int which = F_NULL;
static atomic_int bad_runs, good_runs, prim_a, prim_b;

static uirq_irqreturn_t bad_thread(int irq, void *dev)
{
	(void)dev;
	tc_set_level((unsigned int)irq, false);	/* the device is quiet: no storm either way */
	atomic_fetch_add(&bad_runs, 1);
	do_fault(atomic_load(&which));
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t good_thread(int irq, void *dev)
{
	(void)dev;
	tc_set_level((unsigned int)irq, false);
	atomic_fetch_add(&good_runs, 1);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t primary_a(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&prim_a, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t primary_b(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&prim_b, 1);
	return UIRQ_IRQ_WAKE_THREAD;
}

struct dead { unsigned int irq; void *dev; };
static bool dead_cond(void *arg)
{
	struct dead *d = arg;

	return uirq_irq_action_is_dead(d->irq, d->dev);
}

static bool masked_cond(void *arg)
{
	return atomic_load(&tc_line_of(*(unsigned int *)arg)->masked);
}

static bool unmasked_cond(void *arg)
{
	return !masked_cond(arg);
}

/* Wait for the fault's whole handling: the last line of its report. */
static void wait_killed(unsigned int irq, const char *name)
{
	char line[128];

	snprintf(line, sizeof(line), "genirq: irq %u: action \"%s\" killed by a fault in its thread_fn", irq,
		 name);
	assert_true(tc_wait(logged_cond, line, 5000), "no report of the fault");
}

/* Another line, served by a healthy threaded handler, still delivers. */
static void other_line_works(unsigned int other, int times)
{
	int base = atomic_load(&good_runs);

	for (int i = 1; i <= times; i++) {
		tc_set_level(other, true);
		assert_true(tc_wait_atomic_ge(&good_runs, base + i, 5000), "other line stopped delivering");
	}
}

/*
 * A level ONESHOT line whose thread_fn faults: dead action, line disabled
 * and still masked (the oneshot finalize after the fault did not unmask),
 * the report names everything, threads and synchronize_irq() are fine.
 */
static void thread_fault_variant(enum fault f, const char *oops, const char *what)
{
	char buf[256];

	atomic_store(&which, f);
	if (f == F_BUS)
		setup_bus();
	log_start();
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(0), other = tc_irq(1);
	struct dead d = { irq, &dev_a };

	assert_true(uirq_irq_fault_containment());
	assert_eq(uirq_request_threaded_irq(irq, NULL, bad_thread, UIRQF_ONESHOT, "faulty", &dev_a), 0);
	assert_eq(uirq_request_threaded_irq(other, NULL, good_thread, UIRQF_ONESHOT, "healthy", &dev_b), 0);
	other_line_works(other, 1);
	assert_true(uirq_irq_is_enabled(irq));
	assert_false(uirq_irq_action_is_dead(irq, &dev_a));

	int unmasks = atomic_load(&tc_line_of(irq)->unmask);

	tc_set_level(irq, true);
	assert_true(tc_wait(dead_cond, &d, 5000), "action not dead");
	wait_killed(irq, "faulty");
	assert_eq(atomic_load(&bad_runs), 1);
	assert_false(uirq_irq_is_enabled(irq), "line disabled");
	assert_eq(uirq_irq_get_depth(irq), 1u);
	uirq_synchronize_irq(irq);	/* the thread's run ended: accounted, no hang */
	assert_true(masked_cond(&irq), "oneshot finalize unmasked a disabled line");
	assert_eq(atomic_load(&tc_line_of(irq)->unmask), unmasks);
	assert_false(uirq_irq_action_is_dead(other, &dev_b));

	snprintf(buf, sizeof(buf), "BUG: unable to handle %s", what);
	assert_true(logged(buf), "headline: %s", buf);
	assert_true(logged(" in irq thread context\n"));
	assert_true(logged(oops), "%s", oops);
	snprintf(buf, sizeof(buf), "irq %u, action \"faulty\": thread_fn ", irq);
	assert_true(logged(buf));
	snprintf(buf, sizeof(buf), "Comm: irq/%u-faulty\n", irq);
	assert_true(logged(buf));
	assert_true(logged("Call Trace:\n <TASK>\n"));
	if (f != F_OVERFLOW)	/* its trace is all recursion */
		assert_true(logged("libuirq"), "the trace reaches the handler thread's loop");
	assert_true(logged(" </TASK>\n---[ end trace ]---\n"));
	snprintf(buf, sizeof(buf), "genirq: irq %u: action \"faulty\" killed by a fault in its thread_fn; line disabled\n",
		 irq);
	assert_true(logged(buf));

	other_line_works(other, 3);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "faulty");
	assert_false(uirq_irq_has_action(irq));
	/* The line is fresh for a new driver. */
	assert_eq(uirq_request_threaded_irq(irq, NULL, good_thread, UIRQF_ONESHOT, "again", &dev_c), 0);
	int base = atomic_load(&good_runs);

	tc_set_level(irq, true);
	assert_true(tc_wait_atomic_ge(&good_runs, base + 1, 5000));
	assert_eq(atomic_load(&bad_runs), 1);
	uirq_free_irq(irq, &dev_c);
	uirq_free_irq(other, &dev_b);
	tc_teardown();
	uirq_log_set_sink(NULL, NULL);
}

UIRQ_TEST(core_fault, null_deref_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_NULL, "Oops: SIGSEGV (SEGV_MAPERR) [#1]",
			     "kernel NULL pointer dereference at 0000000000000000");
}

UIRQ_TEST(core_fault, divide_error_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_DIV, "Oops: SIGFPE (FPE_INTDIV) [#1]", "divide error");
}

UIRQ_TEST(core_fault, trap_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_TRAP, "Oops: SIGILL (ILL_ILLOPN) [#1]", "invalid opcode at ");
}

UIRQ_TEST(core_fault, bus_error_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_BUS, "Oops: SIGBUS (BUS_ADRERR) [#1]", "bus error at ");
}

UIRQ_TEST(core_fault, raised_sigbus_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_RAISE_BUS, "Oops: SIGBUS (SI_TKILL) [#1]", "SIGBUS sent by pid ");
}

UIRQ_TEST(core_fault, raised_sigill_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_RAISE_ILL, "Oops: SIGILL (SI_TKILL) [#1]", "SIGILL sent by pid ");
}

/* The handler runs on the thread's alternate stack, so running out of stack is contained too. */
UIRQ_TEST(core_fault, stack_overflow_in_thread_fn, .timeout = 30)
{
	thread_fault_variant(F_OVERFLOW, "Oops: SIGSEGV (", "page fault for address ");
}

/* Dead means dead: the line enabled again, the action's handlers still never run. */
UIRQ_TEST(core_fault, dead_action_never_runs_again, .timeout = 30)
{
	log_start();
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(2);
	struct dead d = { irq, &dev_a };

	assert_eq(uirq_request_threaded_irq(irq, primary_a, bad_thread, 0, "faulty", &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait(dead_cond, &d, 5000));
	wait_killed(irq, "faulty");
	assert_eq(atomic_load(&prim_a), 1);
	uirq_enable_irq(irq);
	assert_true(uirq_irq_is_enabled(irq));
	unsigned long taken = uirq_kstat_irqs(irq);

	for (int i = 0; i < 5; i++) {
		tc_edge(irq);
		while (uirq_kstat_irqs(irq) < taken + (unsigned long)i + 1)
			tc_msleep(1);
	}
	uirq_synchronize_irq(irq);
	assert_eq(atomic_load(&prim_a), 1, "dead action's primary ran");
	assert_eq(atomic_load(&bad_runs), 1, "dead action's thread_fn ran");
	assert_str_eq(uirq_free_irq(irq, &dev_a), "faulty");
	tc_teardown();
	uirq_log_set_sink(NULL, NULL);
}

/* Shared level line: the faulting sharer is dropped, the other keeps the line. */
UIRQ_TEST(core_fault, shared_line_drops_only_the_faulting_action, .timeout = 30)
{
	char buf[256];

	log_start();
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(3);
	struct dead d = { irq, &dev_a };
	unsigned long fl = UIRQF_SHARED | UIRQF_ONESHOT;

	assert_eq(uirq_request_threaded_irq(irq, primary_a, bad_thread, fl, "faulty", &dev_a), 0);
	assert_eq(uirq_request_threaded_irq(irq, primary_b, good_thread, fl, "sharer", &dev_b), 0);
	tc_set_level(irq, true);
	assert_true(tc_wait(dead_cond, &d, 5000));
	wait_killed(irq, "faulty");
	snprintf(buf, sizeof(buf),
		 "genirq: irq %u: action \"faulty\" killed by a fault in its thread_fn; the line keeps serving its other actions\n",
		 irq);
	assert_true(logged(buf));
	assert_true(tc_wait_atomic_ge(&good_runs, 1, 5000));
	assert_true(uirq_irq_is_enabled(irq), "a shared line stays enabled");
	assert_false(uirq_irq_action_is_dead(irq, &dev_b));
	/* Both threads' oneshot bits were dropped: unmasked for the sharer. */
	assert_true(tc_wait(unmasked_cond, &irq, 5000), "shared line left masked");
	for (int i = 2; i <= 5; i++) {
		tc_set_level(irq, true);
		assert_true(tc_wait_atomic_ge(&good_runs, i, 5000), "the sharer lost its interrupts");
		assert_true(tc_wait(unmasked_cond, &irq, 5000));
	}
	uirq_synchronize_irq(irq);
	assert_eq(atomic_load(&prim_a), 1);
	assert_eq(atomic_load(&prim_b), 5);
	assert_eq(atomic_load(&bad_runs), 1);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "faulty");
	tc_set_level(irq, true);
	assert_true(tc_wait_atomic_ge(&good_runs, 6, 5000));
	assert_str_eq(uirq_free_irq(irq, &dev_b), "sharer");
	tc_teardown();
	uirq_log_set_sink(NULL, NULL);
}

/* A shared line whose only action died gets the line back for a new sharer. */
UIRQ_TEST(core_fault, new_sharer_revives_fault_disabled_line, .timeout = 30)
{
	log_start();
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(4);
	struct dead d = { irq, &dev_a };

	assert_eq(uirq_request_threaded_irq(irq, NULL, bad_thread, UIRQF_SHARED | UIRQF_ONESHOT, "faulty",
					       &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait(dead_cond, &d, 5000));
	wait_killed(irq, "faulty");
	assert_false(uirq_irq_is_enabled(irq));
	assert_eq(uirq_request_threaded_irq(irq, NULL, good_thread, UIRQF_SHARED | UIRQF_ONESHOT, "sharer",
					       &dev_b), 0);
	assert_true(uirq_irq_is_enabled(irq));
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&good_runs, 1, 5000));
	assert_eq(atomic_load(&bad_runs), 1);
	uirq_free_irq(irq, &dev_a);
	uirq_free_irq(irq, &dev_b);
	tc_teardown();
	uirq_log_set_sink(NULL, NULL);
}

/* Forced threading: the primary runs in a thread with interrupts off; its fault is contained too. */
static atomic_int forced_runs;
static uirq_irqreturn_t bad_forced_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&forced_runs, 1);
	do_fault(F_NULL);
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_fault, forced_threaded_primary, .timeout = 30)
{
	log_start();
	tc_setup(1, false, true, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(5), other = tc_irq(6);
	struct dead d = { irq, &dev_a };

	assert_eq(uirq_request_irq(irq, bad_forced_primary, 0, "forced", &dev_a), 0);
	assert_eq(uirq_request_threaded_irq(other, NULL, good_thread, UIRQF_ONESHOT, "healthy", &dev_b), 0);
	tc_edge(irq);
	assert_true(tc_wait(dead_cond, &d, 5000));
	wait_killed(irq, "forced");
	assert_false(uirq_irq_is_enabled(irq));
	other_line_works(other, 2);
	uirq_enable_irq(irq);
	tc_edge(irq);
	tc_edge(other);
	assert_true(tc_wait_atomic_ge(&good_runs, 3, 5000));
	uirq_synchronize_irq(irq);
	assert_eq(atomic_load(&forced_runs), 1);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "forced");
	uirq_free_irq(other, &dev_b);
	tc_teardown();	/* and no lockdep report: the thread's context was put back */
	uirq_log_set_sink(NULL, NULL);
}

/* A nested child's thread_fn faults in its parent's thread: the child dies, the parent goes on. */
static atomic_int parent_runs;
static unsigned int child_irq;

static uirq_irqreturn_t parent_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	uirq_handle_nested_irq(child_irq);
	atomic_fetch_add(&parent_runs, 1);
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_fault, nested_child_fault, .timeout = 30)
{
	char buf[128];

	log_start();
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int parent = tc_irq(7);
	struct dead d;

	child_irq = tc_irq(8);
	d = (struct dead){ child_irq, &dev_b };
	uirq_irq_set_nested_thread(child_irq, true);
	assert_eq(uirq_request_threaded_irq(child_irq, NULL, bad_thread, UIRQF_ONESHOT, "child", &dev_b), 0);
	assert_eq(uirq_request_threaded_irq(parent, NULL, parent_thread, UIRQF_ONESHOT, "parent", &dev_a), 0);
	tc_edge(parent);
	assert_true(tc_wait_atomic_ge(&parent_runs, 1, 5000), "the parent's run went on after the child's fault");
	assert_true(tc_wait(dead_cond, &d, 5000));
	wait_killed(child_irq, "child");
	snprintf(buf, sizeof(buf), "irq %u, action \"child\": nested thread_fn ", child_irq);
	assert_true(logged(buf));
	assert_false(uirq_irq_action_is_dead(parent, &dev_a));
	assert_false(uirq_irq_is_enabled(child_irq));
	assert_true(uirq_irq_is_enabled(parent));
	tc_edge(parent);
	assert_true(tc_wait_atomic_ge(&parent_runs, 2, 5000));
	assert_eq(atomic_load(&bad_runs), 1);
	uirq_synchronize_irq(child_irq);
	assert_str_eq(uirq_free_irq(child_irq, &dev_b), "child");
	uirq_free_irq(parent, &dev_a);
	tc_teardown();
	uirq_log_set_sink(NULL, NULL);
}

/* ---- fatal faults ---- */

__attribute__((noinline, no_sanitize("undefined"))) static uirq_irqreturn_t bad_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	do_fault(atomic_load(&which));
	return UIRQ_IRQ_HANDLED;
}

static void no_core(void)
{
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_CORE, &rl);
}

/* In the test's own process: its end must be the fault's signal, after the whole report. */
static struct {
	pthread_mutex_t lock;
	char text[1 << 15];
} fatal = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void fatal_sink(const char *msg, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&fatal.lock);
	strncat(fatal.text, msg, sizeof(fatal.text) - strlen(fatal.text) - 1);
	fputs(msg, stderr);
	if (strstr(fatal.text, "Kernel panic - not syncing: Fatal exception in interrupt") &&
	    !(strstr(fatal.text, "BUG: unable to handle kernel NULL pointer dereference at 0000000000000000 in hard-irq context") &&
	      strstr(fatal.text, "Call Trace:\n <IRQ>\n")))
		_exit(3);	/* a report, but not the right one: not the expected signal */
	pthread_mutex_unlock(&fatal.lock);
}

UIRQ_TEST(core_fault, primary_fault_kills_the_process, .timeout = 30, .signal = SIGSEGV)
{
	no_core();
	atomic_store(&which, F_NULL);
	uirq_log_set_sink(fatal_sink, NULL);
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(0);

	assert_eq(uirq_request_irq(irq, bad_primary, 0, "badprimary", &dev_a), 0);
	tc_edge(irq);
	tc_msleep(10000);	/* dead long before */
}

/* A child's whole story: its stderr (the default log) and how it ended. */
struct child {
	int status;
	char out[1 << 15];
};

static void run_child(void (*fn)(void), struct child *c)
{
	int p[2];
	size_t len = 0;

	assert_eq(pipe(p), 0);
	fflush(NULL);
	pid_t pid = fork();

	assert_ge(pid, 0);
	if (!pid) {
		no_core();
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		fn();
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], c->out + len, sizeof(c->out) - 1 - len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	c->out[len] = '\0';
	close(p[0]);
	assert_eq(waitpid(pid, &c->status, 0), pid);
	fputs(c->out, stderr);
}

static unsigned int fatal_irq;

static void child_primary_fault(void)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	fatal_irq = tc_irq(9);
	if (uirq_request_irq(fatal_irq, bad_primary, 0, "badprimary", &dev_a))
		_exit(2);
	tc_edge(fatal_irq);
	tc_msleep(10000);
	_exit(1);
}

static void check_hardirq_death(enum fault f, int sig, const char *what)
{
	static struct child c;
	char buf[160];

	atomic_store(&which, f);
	run_child(child_primary_fault, &c);
	assert_true(WIFSIGNALED(c.status), "status %#x", c.status);
	assert_eq(WTERMSIG(c.status), sig);
	snprintf(buf, sizeof(buf), "BUG: unable to handle %s", what);
	assert_true(strstr(c.out, buf), "%s", buf);
	assert_true(strstr(c.out, " in hard-irq context\n"));
	assert_true(strstr(c.out, "CPU: 0 PID: "));
	assert_true(strstr(c.out, "Comm: uirq/cpu0\n"));
	assert_true(strstr(c.out, "in its flow or primary handler\n"));
	assert_true(strstr(c.out, "Call Trace:\n <IRQ>\n"));
	assert_true(strstr(c.out, "libuirq"), "the trace reaches the CPU's flow");
	assert_true(strstr(c.out, "Kernel panic - not syncing: Fatal exception in interrupt\n"));
}

UIRQ_TEST(core_fault, primary_null_deref_report_and_signal, .timeout = 30)
{
	check_hardirq_death(F_NULL, SIGSEGV, "kernel NULL pointer dereference at 0000000000000000");
}

UIRQ_TEST(core_fault, primary_divide_error_report_and_signal, .timeout = 30)
{
	check_hardirq_death(F_DIV, SIGFPE, "divide error");
}

UIRQ_TEST(core_fault, primary_trap_report_and_signal, .timeout = 30)
{
	check_hardirq_death(F_TRAP, SIGILL, "invalid opcode at ");
}

static void child_task_fault(void)
{
	assert_true(uirq_irq_fault_containment());
	do_fault(F_NULL);
	_exit(1);
}

/*
 * A thread of the program: reported and fatal, unless a handler was there
 * before uirq's - a sanitizer's (ASan's, TSan's) is, and it gets the fault
 * (its report, then its own exit) as it would without uirq.
 */
UIRQ_TEST(core_fault, program_thread_fault, .timeout = 30)
{
	static struct child c;
	bool sanitizer = dlsym(RTLD_DEFAULT, "__asan_init") || dlsym(RTLD_DEFAULT, "__tsan_init");

	run_child(child_task_fault, &c);
	if (sanitizer) {
		assert_true(strstr(c.out, "Sanitizer: SEGV on unknown address"), "chained to the sanitizer's handler");
		assert_false(strstr(c.out, "BUG: unable to handle"), "the sanitizer's fault, not uirq's");
		assert_false(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
		return;
	}
	assert_true(WIFSIGNALED(c.status), "status %#x", c.status);
	assert_eq(WTERMSIG(c.status), SIGSEGV);
	assert_true(strstr(c.out, "BUG: unable to handle kernel NULL pointer dereference at 0000000000000000 in process context\n"));
	assert_true(strstr(c.out, "Call Trace:\n <TASK>\n"));
	assert_true(strstr(c.out, "Kernel panic - not syncing: Fatal exception\n"));
}

/* ---- hung handler threads ---- */

static atomic_int slow_gate = 1, slow_in, slow_done;

static uirq_irqreturn_t slow_thread(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&slow_in, 1);
	while (!atomic_load(&slow_gate))
		tc_msleep(1);
	atomic_fetch_add(&slow_done, 1);
	return UIRQ_IRQ_HANDLED;
}

/* One run held until released: returns how many hung reports came meanwhile. */
static int hung_episode(unsigned int irq, const char *line, bool expect, int hold_ms)
{
	int before = log_count(line), done = atomic_load(&slow_done);

	atomic_store(&slow_gate, 0);
	tc_edge(irq);
	for (int i = 0; expect && i < 500 && log_count(line) == before; i++)
		tc_msleep(10);
	tc_msleep(hold_ms);	/* several deadlines more of the same run */
	atomic_store(&slow_gate, 1);
	assert_true(tc_wait_atomic_ge(&slow_done, done + 1, 5000));
	return log_count(line) - before;
}

UIRQ_TEST(core_fault, hung_thread_reported_once_per_run, .timeout = 60)
{
	char line[128];

	log_start();
	assert_eq(uirq_irq_get_thread_deadline_ms(), 0u);
	tc_setup(1, false, false, uirq_handle_edge_irq);
	assert_eq(harness_find_task("uirq/hungtaskd", false), -1, "off by default");
	assert_eq(uirq_irq_set_thread_deadline_ms(100), 0);
	assert_eq(uirq_irq_get_thread_deadline_ms(), 100u);
	assert_gt(harness_find_task("uirq/hungtaskd", false), 0);
	unsigned int irq = tc_irq(10);

	assert_eq(uirq_request_threaded_irq(irq, NULL, slow_thread, UIRQF_ONESHOT, "slow", &dev_a), 0);
	snprintf(line, sizeof(line), "INFO: task irq/%u-slow:", irq);

	/* Many quick runs, together far longer than the deadline: nothing to say. */
	for (int i = 1; i <= 30; i++) {
		tc_edge(irq);
		assert_true(tc_wait_atomic_ge(&slow_done, i, 5000));
		tc_msleep(10);
	}
	assert_eq(log_count(line), 0);

	assert_eq(hung_episode(irq, line, true, 500), 1, "once for the first hung run");
	snprintf(line, sizeof(line), "irq/%u-slow", irq);
	pid_t tid = harness_find_task(line, false);

	snprintf(line, sizeof(line), "INFO: task irq/%u-slow:%d blocked for more than 0.1 seconds.\n", irq, (int)tid);
	assert_true(logged(line), "%s", line);
	snprintf(line, sizeof(line), "      irq %u, action \"slow\", thread_fn ", irq);
	assert_true(logged(line));
	assert_eq(hung_episode(irq, "blocked for more than 0.1 seconds", true, 500), 1,
		     "once again for the next");

	/* Off: the watchdog goes, and a hung run goes unreported. */
	assert_eq(uirq_irq_set_thread_deadline_ms(0), 0);
	assert_true(harness_task_gone("uirq/hungtaskd"), "the watchdog stayed");
	assert_eq(hung_episode(irq, "blocked for more than", false, 600), 0);

	/* On again, and a longer deadline reads in seconds. */
	assert_eq(uirq_irq_set_thread_deadline_ms(1500), 0);
	assert_eq(hung_episode(irq, "blocked for more than 1.5 seconds.\n", true, 100), 1);
	assert_eq(log_count("blocked for more than"), 3);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
	assert_true(harness_task_gone("uirq/hungtaskd"), "uirq_cpus_stop() stopped it");
	uirq_log_set_sink(NULL, NULL);
}

/* The deadline outlives the CPUs: set before they start, the watchdog comes with them. */
UIRQ_TEST(core_fault, hung_watchdog_follows_the_cpus, .timeout = 30)
{
	assert_eq(uirq_irq_set_thread_deadline_ms(250), 0);
	assert_eq(harness_find_task("uirq/hungtaskd", false), -1, "no CPUs yet");
	tc_setup(1, false, false, uirq_handle_edge_irq);
	assert_gt(harness_find_task("uirq/hungtaskd", false), 0);
	tc_teardown();
	assert_true(harness_task_gone("uirq/hungtaskd"));
	assert_eq(uirq_irq_get_thread_deadline_ms(), 250u);
	tc_setup(1, false, false, uirq_handle_edge_irq);
	assert_gt(harness_find_task("uirq/hungtaskd", false), 0);
	assert_eq(uirq_irq_set_thread_deadline_ms(0), 0);
	assert_true(harness_task_gone("uirq/hungtaskd"));
	tc_teardown();
}

/* ---- the watchdog in the deterministic mode ---- */

static UIRQ_DEFINE_MUTEX(held_by_main);

static uirq_irqreturn_t takes_mains_lock(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	uirq_mutex_lock(&held_by_main);
	uirq_mutex_unlock(&held_by_main);
	return UIRQ_IRQ_HANDLED;
}

/*
 * A seeded run's deadlock with the watchdog on: the handler thread waits
 * for a mutex the main task holds while it waits for every task to end.
 * The watchdog's period is no pending work (it only reports): the stop
 * returns the deadlock at once, naming the thread and the watchdog.
 * Before, its wake-ups moved virtual time on forever and the stop never
 * returned.
 */
UIRQ_TEST(core_fault, hung_watchdog_does_not_hide_a_seeded_deadlock, .timeout = 30)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 1 };
	struct uirq_fd_line *l;
	char want[64];
	int irq;

	assert_eq(uirq_sim_start(1, UIRQ_SIM_PCT, 3), 0);
	assert_eq(uirq_cpus_start(&cfg), 0);
	assert_eq(uirq_irq_set_thread_deadline_ms(100), 0);
	irq = uirq_eventfd_line_create(-1, 0, &l);
	assert_gt(irq, 0);
	assert_eq(uirq_request_threaded_irq((unsigned int)irq, NULL, takes_mains_lock, UIRQF_ONESHOT, "locker", &dev_a),
		  0);
	uirq_mutex_lock(&held_by_main);
	assert_eq(uirq_eventfd_line_raise(l), 0);
	assert_eq(uirq_sim_stop(), UIRQ_SIM_DEADLOCK);

	const char *r = uirq_sim_report();

	fputs(r, stderr);
	assert_true(strstr(r, "'uirq/hungtaskd' (daemon): waits on futex"), "%s", r);
	snprintf(want, sizeof(want), "'irq/%d-locker': waits on futex", irq);
	assert_true(strstr(r, want), "%s", r);
	assert_true(strstr(r, "'main': waits for every task to end"), "%s", r);
}

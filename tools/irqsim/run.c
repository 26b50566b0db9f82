// SPDX-License-Identifier: MIT
/*
 * Running a scenario on the default board: CPUs, the board, the drivers
 * probed as a kernel would probe them, an input client reading like evtest,
 * the scenario's actions, then a settle, the snapshot the report needs, and
 * teardown.  Extra lines (storm, shared) have their own file, lines.c.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <linux/input-event-codes.h>

#include "drivers.h"
#include "explore.h"
#include "schedule.h"
#include "irqsim.h"
#include "lines.h"
#include "uirq/board.h"
#include "uirq/printk.h"
#include "uirq/twl4030-drivers.h"
#include "uirq/twl4030.h"
#include "watchdog.h"

struct ctx {
	struct irqsim_run *r;
	struct uirq_board *board;
	void *drivers;			/* the probed driver set's (r->opts->drivers) */
	struct uirq_input_client *client;
	struct uirq_i2c_sim *sim;
	struct uirq_i2c_adapter *adap;
	pthread_t reader;
	bool reader_started;
	bool bound[SC_NR_DRIVERS];	/* scenario unbind/bind */
	/* Injected faults still to come; under the adapter's bus lock. */
	int fault_err;
	unsigned int fault_left;
	uint64_t fault_seen;
	/* Transfers the trace hook saw end; the adapter's count is of those that began. */
	atomic_uint_fast64_t xfers_done;
	struct lines lines;
};

static bool human(const struct irqsim_run *r)
{
	return !r->opts->json;
}

/* A line for the log, with irqsim's own notes in the same stream as the drivers'. */
static void note(struct irqsim_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct irqsim_run *r, const char *fmt, ...)
{
	struct sim_log l = { .t_ns = now_ns() };
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	l.msg = xstrdup(buf);
	if (!vec_push(&r->logs, &l))
		free(l.msg);
	if (human(r))
		report_log_line(r, l.t_ns, buf);
}

/* ---- hooks the subsystems call ---- */

static void on_report(const struct uirq_lockdep_report *rep, void *arg)
{
	struct irqsim_run *r = arg;
	struct sim_report s = { .kind = rep->kind, .headline = xstrdup(rep->headline), .text = xstrdup(rep->text) };

	/* The report still goes where lockdep would have put it. */
	out_printf(stderr, "%s", rep->text);
	if (!vec_push(&r->reports, &s)) {
		free(s.headline);
		free(s.text);
	}
}

static void on_log(const char *msg, void *arg)
{
	struct irqsim_run *r = arg;
	struct sim_log l = { .t_ns = now_ns(), .msg = xstrdup(msg) };
	size_t n = strlen(l.msg);

	if (n && l.msg[n - 1] == '\n')
		l.msg[n - 1] = '\0';
	/*
	 * A thread_fn that faulted (core/fault.c): its oops, then the run goes
	 * on without that action, as the kernel's does; the run failed.
	 */
	if (!strncmp(l.msg, "Oops: ", 6) || strstr(l.msg, "\nOops: "))
		__atomic_fetch_add(&r->oopses, 1, __ATOMIC_RELAXED);
	if (human(r))
		report_log_line(r, l.t_ns, l.msg);
	if (!vec_push(&r->logs, &l))
		free(l.msg);
}

static const char *errname(int err)
{
	switch (err) {
	case -ENXIO: return "ENXIO";
	case -EIO: return "EIO";
	case -ETIMEDOUT: return "ETIMEDOUT";
	case -EAGAIN: return "EAGAIN";
	default: return "error";
	}
}

/* Runs after every transfer, bus lock held. */
static void on_xfer(const struct uirq_i2c_trace *t, void *arg)
{
	struct ctx *c = arg;
	struct sim_xfer x = { .start_ns = t->start_ns, .end_ns = t->end_ns, .wire_ns = t->wire_ns, .ret = t->ret,
			      .tid = gettid_int(), .reg = -1, .edges_seen = -1 };
	uint64_t injected;

	for (int i = 0; i < t->num; i++) {
		const struct uirq_i2c_msg *m = &t->msgs[i];

		if (i == 0)
			x.addr = m->addr;
		if (m->flags & UIRQ_I2C_M_RD)
			x.read = true;
		else if (x.reg < 0 && m->len)
			x.reg = m->buf[0];
		x.len = (uint16_t)(x.len + m->len);
	}
	/*
	 * The bus is still ours, so the chip's last status read is this one:
	 * which edge its level came from is recorded here, where it is known,
	 * for latency.c to pair the event it produces with (each scenario edge
	 * changes PWRON, so the chip's Nth change is edge N - 1).
	 */
	if (t->ret >= 0 && x.read && x.addr == TWL4030_ADDR_POWER && x.reg == TWL4030_STS_HW_CONDITIONS)
		x.edges_seen = (long)twl4030_pwron_seen(uirq_board_twl(c->board));
	injected = uirq_i2c_sim_faults_injected(c->sim);
	bool ours = t->ret < 0 && injected != c->fault_seen;

	c->fault_seen = injected;
	x.injected = ours;
	vec_push(&c->r->xfers, &x);
	trace_xfer(&x);
	atomic_fetch_add(&c->xfers_done, 1);
	if (t->ret >= 0)
		return;
	if (x.reg >= 0)
		note(c->r, "i2c-%d: transfer to 0x%02x (register 0x%02x) failed: %d (%s)%s", c->adap->nr, x.addr,
		     (unsigned int)x.reg, t->ret, errname(t->ret), ours ? ", injected" : "");
	else
		note(c->r, "i2c-%d: transfer to 0x%02x failed: %d (%s)%s", c->adap->nr, x.addr, t->ret,
		     errname(t->ret), ours ? ", injected" : "");
	/* fail_nth fails one transfer: re-arm it for the rest of the count. */
	if (ours && c->fault_left && --c->fault_left)
		uirq_i2c_sim_fail_nth(c->sim, 1, c->fault_err);
}

/* ---- the input client ---- */

/* Reads, blocking, until the device goes (-ENODEV): teardown removes the button first. */
static void *reader_main(void *arg)
{
	struct ctx *c = arg;
	struct uirq_input_event evs[64];

	/* A task of a --seed run is a coroutine on the main thread, named at its creation. */
	if (uirq_sim_task_id() < 0)
		pthread_setname_np(pthread_self(), "evtest");
	for (;;) {
		int n = uirq_input_read(c->client, evs, 64, 0);

		if (n < 0)
			break;
		uint64_t rx = now_ns();

		for (int i = 0; i < n; i++) {
			struct sim_event ev = {
				.t_ns = (uint64_t)evs[i].time.tv_sec * 1000000000u + (uint64_t)evs[i].time.tv_usec * 1000u,
				.rx_ns = rx, .type = evs[i].type, .code = evs[i].code, .value = evs[i].value,
			};

			vec_push(&c->r->events, &ev);
			if (ev.type != EV_SYN)
				trace_instant("input", uirq_input_code_name(ev.type, ev.code), ev.t_ns, ev.value);
			if (human(c->r))
				report_event_line(c->r, &ev);
		}
	}
	return NULL;
}

/* ---- actions ---- */

static void edge(struct ctx *c, bool pressed, bool bounce, const struct sc_action *a)
{
	struct sim_edge e = { .t_ns = now_ns(), .pressed = pressed, .bounce = bounce, .src_line = a->src_line,
			      .hold_ns = pressed ? a->hold_ns : 0 };

	vec_push(&c->r->edges, &e);
	trace_instant("scenario", pressed ? "press" : "release", e.t_ns, pressed);
	twl4030_set_pwron(uirq_board_twl(c->board), pressed);
}

static void fault(struct ctx *c, const struct sc_action *a)
{
	/* Under the bus lock: a transfer in flight must not see half a fault. */
	uirq_i2c_lock_bus(c->adap);
	c->fault_seen = uirq_i2c_sim_faults_injected(c->sim);
	switch (a->fault) {
	case SC_FAULT_NAK:
	case SC_FAULT_ERROR:
	case SC_FAULT_TIMEOUT:
		c->fault_err = a->fault == SC_FAULT_NAK ? -ENXIO : a->fault == SC_FAULT_ERROR ? -EIO : -ETIMEDOUT;
		c->fault_left = a->count;
		uirq_i2c_sim_fail_nth(c->sim, 1, c->fault_err);
		break;
	case SC_FAULT_DELAY:
		uirq_i2c_sim_set_delay(c->sim, a->duration_ns);
		break;
	case SC_FAULT_CLEAR:
		c->fault_left = 0;
		uirq_i2c_sim_clear_faults(c->sim);
		break;
	}
	uirq_i2c_unlock_bus(c->adap);
}

static const char *const verb_names[] = {
	[SC_PRESS] = "press", [SC_RELEASE] = "release", [SC_BOUNCE] = "bounce", [SC_STORM] = "storm",
	[SC_SHARED] = "shared", [SC_I2C_FAULT] = "i2c-fault", [SC_WAIT] = "wait",
	[SC_UNBIND] = "unbind", [SC_BIND] = "bind",
};

static void describe(const struct sc_action *a, char *buf, size_t len)
{
	static const char *const faults[] = { "nak", "error", "timeout", "delay", "clear" };

	switch (a->verb) {
	case SC_PRESS:
		if (a->hold_ns)
			snprintf(buf, len, "hold %.3f ms", (double)a->hold_ns / 1e6);
		else
			snprintf(buf, len, "press");
		break;
	case SC_BOUNCE:
		snprintf(buf, len, "bounce %u edges %.0f us apart", a->count, (double)a->interval_ns / 1e3);
		break;
	case SC_STORM:
	case SC_SHARED:
		snprintf(buf, len, "%s on INTC line %u: %u %s", verb_names[a->verb], a->line, a->count,
			 a->verb == SC_STORM ? "edges" : "events per device");
		break;
	case SC_I2C_FAULT:
		if (a->fault == SC_FAULT_DELAY)
			snprintf(buf, len, "i2c-fault delay %.0f us", (double)a->duration_ns / 1e3);
		else if (a->fault == SC_FAULT_CLEAR)
			snprintf(buf, len, "i2c-fault clear");
		else
			snprintf(buf, len, "i2c-fault %s x%u", faults[a->fault], a->count);
		break;
	case SC_UNBIND:
	case SC_BIND:
		snprintf(buf, len, "%s %s", verb_names[a->verb], sc_driver_names[a->driver]);
		break;
	default:
		snprintf(buf, len, "%s", verb_names[a->verb]);
	}
}

/* ---- unbind and bind ---- */

/* Open the button's input device and start the client reading it. */
static int client_start(struct ctx *c)
{
	struct uirq_input_dev *dev = c->r->opts->drivers->input(c->drivers);
	int err = uirq_input_open(dev, &c->client);

	if (err) {
		fprintf(stderr, "irqsim: cannot open the input device: %s\n", strerror(-err));
		return -1;
	}
	uirq_input_client_set_clock(c->client, CLOCK_MONOTONIC);
	if (uirq_sim_thread_create(&c->reader, NULL, reader_main, c, "evtest")) {
		fprintf(stderr, "irqsim: cannot start the input reader\n");
		return -1;
	}
	c->reader_started = true;
	return 0;
}

/* After the button's removal: its reader has woken with -ENODEV; join it and close. */
static void client_stop(struct ctx *c)
{
	if (c->reader_started)
		uirq_sim_thread_join(c->reader, NULL);
	c->reader_started = false;
	if (c->client)
		uirq_input_close(c->client);
	c->client = NULL;
}

/*
 * The kernel's unbind through sysfs runs the driver's remove, a bind its
 * probe; unbinding twl4030 removes its child, the button, first.  While
 * the button is unbound nobody reports the key: the judge excuses the
 * edges of that time (r->unbound).
 */
static void unbind(struct ctx *c, enum sc_driver drv)
{
	const struct irqsim_drivers *d = c->r->opts->drivers;

	if (c->bound[SC_DRV_PWRBUTTON]) {
		struct sim_unbound u = { .from_ns = now_ns(), .to_ns = UINT64_MAX };

		d->unbind(c->drivers, 0);
		c->bound[SC_DRV_PWRBUTTON] = false;
		client_stop(c);
		vec_push(&c->r->unbound, &u);
	}
	if (drv == SC_DRV_TWL4030 && c->bound[SC_DRV_TWL4030]) {
		d->unbind(c->drivers, 1);
		c->bound[SC_DRV_TWL4030] = false;
	}
}

static void bind(struct ctx *c, enum sc_driver drv)
{
	const struct irqsim_drivers *d = c->r->opts->drivers;
	int err = d->bind(c->drivers, drv == SC_DRV_TWL4030);

	if (err) {
		note(c->r, "irqsim: bind %s failed: %d", sc_driver_names[drv], err);
		c->r->setup_failed = true;
		return;
	}
	c->bound[drv] = true;
	if (drv == SC_DRV_TWL4030) {
		c->r->twl_base = d->irq_base(c->drivers);
		c->r->pwron_irq = c->r->twl_base + TWL4030_PWR_IRQ_PWRON;
		return;
	}
	pthread_mutex_lock(&c->r->unbound.lock);
	VEC_AT(&c->r->unbound, struct sim_unbound, c->r->unbound.n - 1)->to_ns = now_ns();
	pthread_mutex_unlock(&c->r->unbound.lock);
	if (client_start(c))
		c->r->setup_failed = true;
}

static void run_action(struct ctx *c, const struct sc_action *a)
{
	char what[96];

	if (a->verb != SC_WAIT) {
		describe(a, what, sizeof(what));
		note(c->r, "irqsim: %s (%s:%u)", what, c->r->sc.name, a->src_line);
	}
	switch (a->verb) {
	case SC_PRESS:
		edge(c, true, false, a);
		if (a->hold_ns) {
			uint64_t t = VEC_AT(&c->r->edges, struct sim_edge, c->r->edges.n - 1)->t_ns;

			sleep_until_ns(t + a->hold_ns);
			edge(c, false, false, a);
		}
		break;
	case SC_RELEASE:
		edge(c, false, false, a);
		break;
	case SC_BOUNCE: {
		bool down = twl4030_peek(uirq_board_twl(c->board), TWL4030_ADDR_POWER, TWL4030_STS_HW_CONDITIONS) &
			    TWL4030_STS_PWON;

		for (unsigned int i = 0; i < a->count && !atomic_load(&irqsim_stop_signal); i++) {
			sleep_until_ns(now_ns() + a->interval_ns);
			down = !down;
			edge(c, down, true, a);
		}
		break;
	}
	case SC_STORM:
		lines_storm(&c->lines, a);
		break;
	case SC_SHARED:
		lines_shared(&c->lines, a);
		break;
	case SC_I2C_FAULT:
		fault(c, a);
		break;
	case SC_WAIT:
		sleep_until_ns(now_ns() + a->duration_ns);
		break;
	case SC_UNBIND:
		unbind(c, a->driver);
		break;
	case SC_BIND:
		bind(c, a->driver);
		break;
	}
}

/*
 * Whether a transfer is on the bus: begun (the adapter counts it as it
 * starts) and not yet ended (the trace hook counts it as it ends).  The
 * ended count is read first, so a transfer that ends in between reads as
 * on the bus, never the other way round.
 */
static bool bus_busy(struct ctx *c)
{
	uint64_t done = atomic_load(&c->xfers_done);
	struct uirq_i2c_stats st;

	uirq_i2c_get_stats(c->adap, &st);
	return st.transfers > done;
}

/*
 * Until the board is quiet: INT1 down, no transfer on the bus, none begun
 * and no event for 20 ms (at most 3 s).  A transfer on the bus is activity
 * however long it lasts (an injected delay of 30 ms, a stuck bus's 1 s): the
 * event it reads for is still to come.  The times are uirq's clock, the
 * run's virtual time in a --seed run (this is task 0): the host's speed
 * cannot end a seeded settle early or late.
 */
static void settle(struct ctx *c)
{
	struct twl4030 *twl = uirq_board_twl(c->board);
	uint64_t deadline = now_ns() + 3000000000ull, quiet_since = now_ns();
	struct uirq_i2c_stats st;
	uint64_t last_xfers = UINT64_MAX;
	size_t last_events = SIZE_MAX;

	while (now_ns() < deadline) {
		bool busy = bus_busy(c);

		uirq_i2c_get_stats(c->adap, &st);
		pthread_mutex_lock(&c->r->events.lock);
		size_t events = c->r->events.n;

		pthread_mutex_unlock(&c->r->events.lock);
		if (busy || twl4030_int1_asserted(twl) || st.transfers != last_xfers || events != last_events ||
		    !lines_quiet(&c->lines))
			quiet_since = now_ns();
		else if (now_ns() - quiet_since >= 20000000u)
			return;
		last_xfers = st.transfers;
		last_events = events;
		sleep_until_ns(now_ns() + 2000000u);
	}
}

/* ---- the snapshot taken before teardown ---- */

static void snapshot(struct ctx *c)
{
	struct irqsim_run *r = c->r;
	size_t len = 0;
	FILE *f = open_memstream(&r->proc_interrupts, &len);
	DIR *d;

	if (f) {
		uirq_show_interrupts(f);
		fclose(f);
	}
	for (unsigned int irq = 1; irq < 4096; irq++) {
		struct sim_irqcount ic = { .irq = irq };

		if (!uirq_irq_to_desc(irq) || !(ic.count = uirq_kstat_irqs(irq)))
			continue;
		vec_push(&r->irqcounts, &ic);
	}
	/* A --seed run names its tasks, in creation order: kernel thread ids would not replay. */
	for (unsigned int id = 0; r->opts->seeded && uirq_sim_task_name(id); id++) {
		struct sim_thread t = { .tid = (int)id + 1 };

		snprintf(t.name, sizeof(t.name), "%s", uirq_sim_task_name(id));
		vec_push(&r->threads, &t);
	}
	d = r->opts->seeded ? NULL : opendir("/proc/self/task");
	for (struct dirent *de; d && (de = readdir(d));) {
		struct sim_thread t = { .tid = atoi(de->d_name) };
		char path[64];
		FILE *cf;

		if (t.tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t.tid);
		cf = fopen(path, "r");
		if (!cf)
			continue;
		if (fgets(t.name, sizeof(t.name), cf)) {
			t.name[strcspn(t.name, "\n")] = '\0';
			vec_push(&r->threads, &t);
		}
		fclose(cf);
	}
	if (d)
		closedir(d);
	lines_snapshot(&c->lines, &r->lines);
	uirq_i2c_get_stats(c->adap, &r->i2c);
	r->faults_injected = uirq_i2c_sim_faults_injected(c->sim);
}

/* ---- setup and teardown ---- */

static int setup(struct ctx *c)
{
	const struct irqsim_opts *o = c->r->opts;
	struct uirq_cpu_config cpus = { .nr_cpus = o->cpus, .threadirqs = o->threadirqs };
	struct uirq_board_config bc = { .bus_hz = o->bus_hz };
	struct uirq_input_dev *dev;
	int err;

	for (size_t i = 0; i < c->r->sc.n; i++) {
		if ((c->r->sc.actions[i].verb == SC_UNBIND || c->r->sc.actions[i].verb == SC_BIND) &&
		    (!o->drivers->unbind || !o->drivers->bind)) {
			fprintf(stderr, "irqsim: the %s drivers cannot be unbound and bound (%s:%u)\n", o->drivers->name,
				c->r->sc.name, c->r->sc.actions[i].src_line);
			return -1;
		}
	}

	err = uirq_cpus_start(&cpus);
	if (err) {
		fprintf(stderr, "irqsim: cannot start %u CPUs: %s\n", o->cpus, strerror(-err));
		return -1;
	}
	c->r->t0_ns = now_ns();
	err = uirq_board_create(&bc, &c->board);
	if (err) {
		fprintf(stderr, "irqsim: cannot build the board: %s\n", strerror(-err));
		return -1;
	}
	c->sim = uirq_board_i2c_sim(c->board);
	c->adap = uirq_board_i2c(c->board);
	c->r->bus_hz = uirq_i2c_sim_bus_speed(c->sim);
	uirq_i2c_set_trace(c->adap, on_xfer, c);
	c->r->twl_irq = uirq_board_twl_irq(c->board);
	err = o->drivers->probe(c->adap, c->r->twl_irq, o->legacy, &c->drivers);
	if (err) {
		fprintf(stderr, "irqsim: probing the %s drivers failed: %s\n", o->drivers->name, strerror(-err));
		return -1;
	}
	/* Every line has its descriptor now, the drivers' threads included. */
	err = tool_wait_apply(&o->wait);
	if (err) {
		fprintf(stderr, "irqsim: --wait: %s\n", strerror(-err));
		return -1;
	}
	c->r->twl_base = o->drivers->irq_base(c->drivers);
	c->r->pwron_irq = c->r->twl_base + TWL4030_PWR_IRQ_PWRON;
	c->bound[SC_DRV_PWRBUTTON] = c->bound[SC_DRV_TWL4030] = true;
	dev = o->drivers->input(c->drivers);
	snprintf(c->r->input_name, sizeof(c->r->input_name), "%s", dev->name ? dev->name : "");
	c->r->input_nr = uirq_input_device_nr(dev);
	if (human(c->r)) {
		out_printf(stdout, "Input device name: \"%s\"\n", c->r->input_name);
		out_printf(stdout, "Supported events:\n  Event type 0 (EV_SYN)\n  Event type 1 (EV_KEY)\n"
			   "    Event code 116 (KEY_POWER)\nTesting ... (scenario %s)\n", c->r->sc.name);
	}
	if (client_start(c))
		return -1;
	lines_init(&c->lines, uirq_board_intc(c->board), c->r);
	return 0;
}

static void teardown(struct ctx *c)
{
	/* The button's input device goes first: its reader wakes with -ENODEV and ends. */
	if (c->drivers && c->bound[SC_DRV_PWRBUTTON])
		c->r->opts->drivers->remove_button(c->drivers);
	client_stop(c);
	if (c->board)
		lines_free(&c->lines);
	if (c->drivers)
		c->r->opts->drivers->remove(c->drivers);
	if (c->board) {
		uirq_i2c_set_trace(c->adap, NULL, NULL);
		uirq_board_destroy(c->board);
	}
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
}

/* A deadlock or a stall: the run cannot go on.  Say so with the seed and its replay, and end it. */
static void on_sim_failure(const char *report, void *arg)
{
	struct irqsim_run *r = arg;

	out_release();	/* the run's held output first: the failure report follows it */
	irqsim_sim_failed(r, report);	/* its schedule and outcome; a --replay run ends there */
	out_flush();
	fputs(report, stderr);
	fprintf(stderr, "irqsim: seed %" PRIu64 " failed; ", r->opts->seed);
	irqsim_print_replay(stderr, r->opts);
	fflush(NULL);
	_exit(IRQSIM_EXIT_PROBLEMS);
}

/*
 * A seeded run that dies on a fatal signal - a use after free read through
 * a pointer freed memory now holds (see seeded_memory()), or a sanitizer's
 * report ending in abort() - is a failing seed like any other: it says so
 * with its replay line and exits 1.  The text is made before the run, as a
 * signal handler may only write.
 */
static char fatal_text[2048];
static size_t fatal_len;

static void on_fatal(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, fatal_text, fatal_len) < 0) {
		/* Nothing left to tell it to. */
	}
	_exit(IRQSIM_EXIT_PROBLEMS);
}

static void seeded_memory(const struct irqsim_run *r)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	/*
	 * glibc fills freed memory with 0xa5 bytes (and fresh malloc()ed
	 * memory with 0x5a): a use after free reads the pattern, not the old
	 * values that would let it pass unseen in a build without
	 * AddressSanitizer, and the pattern is the same on every replay.  Only
	 * with glibc's per-thread cache off, which main() sees to
	 * (seeded_malloc()): a chunk freed to the cache is never filled.
	 * (ASan's allocator ignores it and reports the access itself.)
	 */
	mallopt(M_PERTURB, 0xa5);
	if (f) {
		fprintf(f, "irqsim: seed %" PRIu64 " failed on a fatal signal (a use after free, a bad pointer or a "
			"sanitizer's report); ", r->opts->seed);
		irqsim_print_replay(f, r->opts);
		fclose(f);
	}
	if (buf) {
		fatal_len = len < sizeof(fatal_text) ? len : sizeof(fatal_text);
		memcpy(fatal_text, buf, fatal_len);
		free(buf);
	}
	/* Where a sanitizer already handles a signal (its SEGV report), it keeps it. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa = { .sa_handler = on_fatal };

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
			sigaction(sigs[i], &sa, NULL);
	}
}

int irqsim_run(struct irqsim_run *r)
{
	struct ctx c = { .r = r };
	struct watchdog *wd = r->wd;
	int ret = 0;

	if (r->opts->seeded) {
		int err;

		out_hold();
		seeded_memory(r);
		uirq_sim_set_failure_handler(on_sim_failure, r);
		uirq_sim_set_pct_horizon(IRQSIM_PCT_HORIZON);
		err = uirq_sim_start(r->opts->seed, r->opts->strategy, r->opts->pct_depth);
		if (err) {
			fprintf(stderr, "irqsim: cannot start the deterministic mode: %s\n", strerror(-err));
			r->setup_failed = true;
			return -1;
		}
	}

	/* Like a SCHED_FIFO irq thread, whose timer slack is 0: wire-time sleeps end on time. */
	prctl(PR_SET_TIMERSLACK, 1ul, 0, 0, 0);
	uirq_lockdep_set_report_handler(on_report, r);
	uirq_log_set_sink(on_log, r);
	watchdog_phase(wd, "setting up the board", 0, 5000000000ull);
	if (setup(&c)) {
		r->setup_failed = true;
		ret = -1;
		goto out;
	}
	if (r->opts->trace_file && trace_start(r->t0_ns))
		fprintf(stderr, "irqsim: no memory for the trace; running without it\n");
	for (size_t i = 0; i < r->sc.n; i++) {
		const struct sc_action *a = &r->sc.actions[i];
		/* What the action plans, and room for a stuck bus in the way of a fault's bus lock. */
		uint64_t budget = a->hold_ns + a->duration_ns + (uint64_t)a->count * (a->interval_ns + 20000u) +
				  3000000000ull;

		if (atomic_load(&irqsim_stop_signal)) {
			r->stopped_line = a->src_line;
			break;
		}
		watchdog_phase(wd, verb_names[a->verb], a->src_line, budget);
		run_action(&c, a);
	}
	/* A stop inside the last action (a hold cut short) still counts as a stop. */
	if (!r->stopped_line && atomic_load(&irqsim_stop_signal) && r->sc.n)
		r->stopped_line = r->sc.actions[r->sc.n - 1].src_line;
	watchdog_phase(wd, "settling", 0, 5000000000ull);
	settle(&c);
	r->end_ns = now_ns();
	snapshot(&c);
out:
	watchdog_phase(wd, "tearing down", 0, 10000000000ull);
	teardown(&c);
	if (r->opts->seeded) {
		uirq_sim_stop();
		r->sim_steps = uirq_sim_trace_len();
		r->sim_hash = uirq_sim_trace_hash();
	}
	uirq_lockdep_set_report_handler(NULL, NULL);
	uirq_lockdep_get_stats(&r->lockdep);
	r->lockdep_on = uirq_lockdep_enabled();
	latency_match(r);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * The soak: edges on many lines from several device threads while other
 * threads request, free, disable, enable and re-route those lines, over
 * several CPUs - and at the end every edge is accounted for.
 *
 * One source, two programs (tests/soak/meson.build):
 *   test_soak  the suite's short form (Check, TAP): UIRQ_SOAK_EDGES edges
 *              (default 80,000; 60,000 under ASan, 40,000 under TSan)
 *              paced over UIRQ_SOAK_SECONDS (3), UIRQ_SOAK_ROUNDS (3);
 *              UIRQ_SOAK_SEED picks another random sequence;
 *   uirq-soak  the long form, `uirq-soak [EDGES [SECONDS]] [-r ROUNDS]
 *              [-d DEVICE_THREADS] [-c CONTROL_THREADS] [-s SEED]` (default
 *              1,000,000 edges paced over 180 s, a round per 25,000 edges,
 *              3 device and 2 control threads), run by scripts/soak.sh;
 *              prints the figures and exits 1 on any failure.
 *              `--seed N [--strategy random|pct[:D]]` runs it all in uirq's
 *              deterministic mode (uirq/sim.h): the CPUs, handler threads,
 *              device and control threads and the drains are tasks of one
 *              seeded scheduler, the pacing and every wait are virtual time
 *              (SECONDS cost no wall time), and the output ends with the
 *              interleaving's decision count and hash - one seed, one run,
 *              byte for byte (tests/soak/seeded.sh checks it).  The eventfd
 *              lines are made in the mode, so they are virtual (their CPU
 *              polls them).  (-s SEED is the soak's own random sequence, in both.)
 *
 * THE LINES (soak_specs[] below): two software controllers - level/edge
 * flows and a GIC-like fasteoi one - and eventfd lines; edge (rising),
 * edge (both, by toggling the level) and level inputs; one or two devices
 * a line (shared lines); each device's driver is a primary-only handler
 * ("hard"), a primary that checks the device and wakes a thread ("peek"),
 * or handler NULL with a thread ("thread", IRQF_ONESHOT where the chip
 * needs it).  Fifteen lines run.  Every round starts 2, 3 or 4 CPUs (every
 * fourth round with forced threading), binds every driver, then runs D
 * device threads and C control threads together:
 *   - a device thread raises events on its devices: the device counts the
 *     event in its status register, then signals the line - a pulse on an
 *     edge input, a toggle on a both-edges input, an eventfd write; a level
 *     device drives its input asserted while its status is non-zero;
 *   - a control thread, at random: unbinds a driver (free_irq) or binds it
 *     again (request_threaded_irq), disables a line (disable_irq,
 *     disable_irq_nosync or disable_hardirq) and enables it again while
 *     its driver holds it, moves a line to another CPU (irq_set_affinity;
 *     fd lines move their watch), synchronizes a line.
 * Now and then (one event in 32) a device thread stops at a checkpoint: it
 * holds the device (no unbind, no disable through it) and raises nothing
 * until the device's events have been served - a lost interrupt shows
 * there, instead of being rescued by the next edge.  At the end of a round
 * every driver is bound again, every line must be enabled (depth 0) and
 * every device's status must drain to zero without a new edge: an event
 * left there is an interrupt the core lost.  Then the drivers are freed and
 * the CPUs stopped.  (Checked: with the core's edge replay on enable_irq()
 * broken on purpose, the short form failed in 4 runs of 4.)
 *
 * THE RULE (checked exactly, per device, per line and in total, at the end):
 *
 *   raised = handled + merged + unbound + freed
 *
 * (unbound + freed are the edges that met no handler: "no handler" in the
 * printed figures), where
 *
 *   raised   events a device produced (each is one edge on the line, or one
 *            assertion-worth of a level);
 *   handled  handler invocations that found events in their device's
 *            status register (one per interrupt that did work; the
 *            invocation is the primary for "hard", the thread for the
 *            others);
 *   merged   the events beyond the first found by one invocation: edges
 *            that arrived while an earlier one was still pending (in the
 *            controller's latch, the eventfd counter, the core's
 *            IRQS_PENDING replay, a level still asserted) and were served
 *            by the same handler run - the documented merge of edge
 *            interrupts;
 *   unbound  events raised while the device had no handler installed (the
 *            device does not latch them: its driver is not there to enable
 *            it) - the edge still reaches the line;
 *   freed    events latched while the handler was installed but still
 *            pending when free_irq() removed it (the driver's remove
 *            resets the device: the kernel's free_irq drops them too).
 *   At a round's end nothing may be left: stranded = 0.
 *
 *   Not edges, counted beside them: spurious = handler invocations that
 *   found nothing and returned IRQ_NONE (the other device of a shared
 *   line, an interrupt whose event an earlier run already took, an edge
 *   raised while unbound delivered when the driver came back); peek
 *   primaries that found nothing (IRQ_NONE, no thread woken).
 *
 *   And at the source, exactly, per line:
 *     swirq edge inputs:  edges put on the wire = latched + merged
 *                         (uirq_swirq_get_stats: an edge either set the
 *                         latch or found it set);
 *     eventfd lines:      writes = events read by the acks + residue left
 *                         in the counter at the end, and
 *                         events = acks + merged (uirq_fd_line_stats);
 *     level inputs:       deasserted after every round's drain.
 *   Plus: no lockdep report, no line left disabled (a "nobody cared" would
 *   show here), every request and free_irq succeeds.
 *
 * Timing never decides a verdict: the drain and the checkpoints wait up to
 * a bound (UIRQ_SOAK_DRAIN_S, default 30 s, scaled by
 * CK_TIMEOUT_MULTIPLIER) only so that a lost interrupt fails instead of
 * hanging.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uirq/config.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/mutex.h"
#include "uirq/sim.h"
#include "uirq/sources.h"

#include "../../tools/sim-strategy.h"

#if defined(__SANITIZE_THREAD__)
#define SOAK_SANITIZER "tsan"
#define SOAK_SHORT_EDGES 40000ul
#elif defined(__SANITIZE_ADDRESS__)
#define SOAK_SANITIZER "asan"
#define SOAK_SHORT_EDGES 60000ul
#else
#define SOAK_SANITIZER "plain"
#define SOAK_SHORT_EDGES 80000ul
#endif

/* ------------------------------------------------------------------ */
/* configuration                                                      */
/* ------------------------------------------------------------------ */

enum src_kind { SRC_SWIRQ, SRC_SWIRQ_EOI, SRC_EVENTFD };
enum drv_kind { DRV_HARD, DRV_PEEK, DRV_THREAD };

struct line_spec {
	const char *name;
	enum src_kind src;
	unsigned int type;	/* UIRQ_TYPE_* */
	bool oneshot;		/* IRQF_ONESHOT for every driver of the line */
	unsigned int ndev;	/* 2: shared */
	enum drv_kind drv[2];
};

static const struct line_spec soak_specs[] = {
	{ "edge-hard", SRC_SWIRQ, UIRQ_TYPE_EDGE_RISING, false, 1, { DRV_HARD } },
	{ "edge-peek", SRC_SWIRQ, UIRQ_TYPE_EDGE_RISING, false, 1, { DRV_PEEK } },
	{ "edge-thread", SRC_SWIRQ, UIRQ_TYPE_EDGE_RISING, true, 1, { DRV_THREAD } },
	{ "edge-shared", SRC_SWIRQ, UIRQ_TYPE_EDGE_RISING, true, 2, { DRV_HARD, DRV_PEEK } },
	{ "both-hard", SRC_SWIRQ, UIRQ_TYPE_EDGE_BOTH, false, 1, { DRV_HARD } },
	{ "both-thread", SRC_SWIRQ, UIRQ_TYPE_EDGE_BOTH, true, 1, { DRV_THREAD } },
	{ "level-hard", SRC_SWIRQ, UIRQ_TYPE_LEVEL_HIGH, false, 1, { DRV_HARD } },
	{ "level-thread", SRC_SWIRQ, UIRQ_TYPE_LEVEL_HIGH, true, 1, { DRV_THREAD } },
	{ "level-shared", SRC_SWIRQ, UIRQ_TYPE_LEVEL_HIGH, true, 2, { DRV_HARD, DRV_THREAD } },
	{ "eoi-edge-shr", SRC_SWIRQ_EOI, UIRQ_TYPE_EDGE_RISING, true, 2, { DRV_HARD, DRV_PEEK } },
	{ "eoi-level", SRC_SWIRQ_EOI, UIRQ_TYPE_LEVEL_HIGH, true, 1, { DRV_THREAD } },
	{ "fd-hard", SRC_EVENTFD, UIRQ_TYPE_EDGE_RISING, false, 1, { DRV_HARD } },
	{ "fd-thread", SRC_EVENTFD, UIRQ_TYPE_EDGE_RISING, false, 1, { DRV_THREAD } },
	{ "fd-shared", SRC_EVENTFD, UIRQ_TYPE_EDGE_RISING, false, 2, { DRV_HARD, DRV_PEEK } },
	/* It lost the events that came while it was disabled until fdline.c left them unread. */
	{ "fd-level", SRC_EVENTFD, UIRQ_TYPE_LEVEL_HIGH, false, 1, { DRV_PEEK } },
};
#define NR_SPECS (sizeof(soak_specs) / sizeof(soak_specs[0]))
#define MAX_DEVS (2 * NR_SPECS)

struct soak_config {
	unsigned long edges;	/* events raised in all */
	double seconds;		/* pace them over this long; 0: as fast as they go */
	unsigned int rounds;	/* 0: one per 25,000 edges, at least 3 */
	unsigned int dev_threads, ctl_threads;
	unsigned int seed;
	bool progress;		/* a line every 10 s (the long form) */
	/* --seed: the whole run in uirq's deterministic mode (uirq/sim.h) */
	bool sim;
	uint64_t sim_seed;
	enum uirq_sim_strategy strategy;
	unsigned int pct_depth;
};

/* ------------------------------------------------------------------ */
/* state                                                              */
/* ------------------------------------------------------------------ */

#define ST_BOUND	(1ull << 63)
#define ST_COUNT	(ST_BOUND - 1)

struct soak_line;

struct soak_dev {
	struct soak_line *line;
	enum drv_kind drv;
	char name[24];
	_Atomic uint64_t status;	/* ST_BOUND | events not yet taken by a handler */
	/*
	 * Control threads: bind state, disable/enable.  A uirq mutex, not a
	 * pthread one: it is held across request/free_irq and disable_irq, which
	 * wait, and under --seed a task may only block in uirq's primitives.
	 */
	uirq_mutex_t mu;
	bool bound;			/* under mu */
	bool toggle;			/* both-edges: the level this device drives (its device thread's) */
	atomic_ulong raised, unbound, handled, merged, freed, stranded, spurious, peek_none;
	atomic_ulong binds, unbinds, wrong_irq;
};

struct soak_line {
	const struct line_spec *spec;
	unsigned int irq, hw;
	struct uirq_swirq *ctl;
	struct uirq_fd_line *fdl;
	struct soak_dev *dev[2];
	atomic_ulong wire;	/* edges put on the wire: pulses, toggles, eventfd writes */
	unsigned long residue;	/* eventfd: left in the counter at the end */
};

static struct soak_line lines[NR_SPECS];
static unsigned int nlines;
static struct soak_dev devs[MAX_DEVS];
static unsigned int ndevs;
static struct uirq_swirq *ctl_plain, *ctl_eoi;

static atomic_int devices_done;
static atomic_ulong op_bind, op_unbind, op_disable, op_affinity, op_sync, op_bind_fail;
static atomic_int lockdep_reports;
static unsigned int cur_cpus;

/* Failures: counted, the first few kept for the report. */
static atomic_int nfail;
static char fail_text[4096];
/* Held for a snprintf only, never across a scheduling point: fine under --seed too. */
static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "soak: FAIL: %s\n", buf);
	pthread_mutex_lock(&fail_mu);
	if (atomic_fetch_add(&nfail, 1) < 8) {
		size_t n = strlen(fail_text);

		snprintf(fail_text + n, sizeof(fail_text) - n, "%s%s", n ? "; " : "", buf);
	}
	pthread_mutex_unlock(&fail_mu);
}

static inline unsigned long ld(atomic_ulong *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static inline void add(atomic_ulong *c, unsigned long v)
{
	atomic_fetch_add_explicit(c, v, memory_order_relaxed);
}

/*
 * uirq's clock and sleep: CLOCK_MONOTONIC and nanosleep() in the free-running
 * soak, the virtual clock under --seed (a task's pacing and drain waits cost
 * no wall time there) - one code path for both.
 */
static inline uint64_t now_ns(void)
{
	return uirq_sim_clock_ns();
}

static void sleep_ns(uint64_t ns)
{
	uirq_sim_sleep_ns(ns);
}

static inline uint32_t rnd(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (uint32_t)((*s * 2685821657736338717ull) >> 32);
}

static double timeout_scale(void)
{
	const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
	double v = m ? atof(m) : 1.0;

	return v > 0 ? v : 1.0;
}

/* ------------------------------------------------------------------ */
/* devices and handlers                                               */
/* ------------------------------------------------------------------ */

static inline bool is_level(const struct soak_line *l)
{
	return l->spec->type & UIRQ_TYPE_LEVEL_MASK;
}

static inline bool is_swirq(const struct soak_line *l)
{
	return l->spec->src != SRC_EVENTFD;
}

static bool line_wants(struct soak_line *l)
{
	for (unsigned int i = 0; i < l->spec->ndev; i++)
		if (atomic_load(&l->dev[i]->status) & ST_COUNT)
			return true;
	return false;
}

/*
 * A level input is the wired OR of its devices' "status non-zero".  Whoever
 * changes a status syncs the level after: set it to what the statuses say,
 * then look again.  The last writer saw the statuses after the last change,
 * so the level ends right (set_level is one atomic step).  Lock-free: fine
 * in hard-irq context.
 */
static void line_level_sync(struct soak_line *l)
{
	bool want;

	do {
		want = line_wants(l);
		uirq_swirq_set_level(l->ctl, l->hw, want);
	} while (line_wants(l) != want);
}

/* Take every pending event of d (keep ST_BOUND); 0 if there is none. */
static uint64_t dev_take(struct soak_dev *d)
{
	uint64_t v = atomic_load(&d->status);

	do {
		if (!(v & ST_COUNT))
			return 0;
	} while (!atomic_compare_exchange_weak(&d->status, &v, v & ST_BOUND));
	return v & ST_COUNT;
}

static uirq_irqreturn_t dev_service(int irq, struct soak_dev *d)
{
	if ((unsigned int)irq != d->line->irq)
		add(&d->wrong_irq, 1);
	uint64_t n = dev_take(d);

	if (!n) {
		add(&d->spurious, 1);
		return UIRQ_IRQ_NONE;
	}
	add(&d->handled, 1);
	add(&d->merged, (unsigned long)(n - 1));
	if (is_level(d->line) && is_swirq(d->line))
		line_level_sync(d->line);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t hard_handler(int irq, void *dev_id)
{
	return dev_service(irq, dev_id);
}

static uirq_irqreturn_t thread_handler(int irq, void *dev_id)
{
	return dev_service(irq, dev_id);
}

/* A primary that checks its device and leaves the work to the thread. */
static uirq_irqreturn_t peek_handler(int irq, void *dev_id)
{
	struct soak_dev *d = dev_id;

	(void)irq;
	if (atomic_load(&d->status) & ST_COUNT)
		return UIRQ_IRQ_WAKE_THREAD;
	add(&d->peek_none, 1);
	return UIRQ_IRQ_NONE;
}

/* One event of device d: counted in its status (if its driver is there), then signalled. */
static void dev_event(struct soak_dev *d)
{
	struct soak_line *l = d->line;
	uint64_t v = atomic_load(&d->status);
	bool latched = true;
	int ret = 0;

	do {
		if (!(v & ST_BOUND)) {
			latched = false;
			break;
		}
	} while (!atomic_compare_exchange_weak(&d->status, &v, v + 1));
	add(&d->raised, 1);
	if (!latched)
		add(&d->unbound, 1);
	if (l->spec->src == SRC_EVENTFD) {
		ret = uirq_eventfd_line_raise(l->fdl);
		add(&l->wire, 1);
	} else if (is_level(l)) {
		if (latched)
			line_level_sync(l);	/* an unbound device keeps its level low */
	} else if (l->spec->type == UIRQ_TYPE_EDGE_BOTH) {
		d->toggle = !d->toggle;
		ret = uirq_swirq_set_level(l->ctl, l->hw, d->toggle);
		add(&l->wire, 1);
	} else {
		ret = uirq_swirq_pulse(l->ctl, l->hw);
		add(&l->wire, 1);
	}
	if (ret)
		fail("%s: signalling the line: %d", d->name, ret);
}

/* ------------------------------------------------------------------ */
/* binding drivers (control threads; d->mu held)                      */
/* ------------------------------------------------------------------ */

static int dev_bind(struct soak_dev *d)
{
	struct soak_line *l = d->line;
	unsigned long flags = l->spec->type;	/* UIRQF_TRIGGER_* has the same values */
	int ret;

	if (l->spec->ndev > 1)
		flags |= UIRQF_SHARED;
	if (l->spec->oneshot)
		flags |= UIRQF_ONESHOT;
	switch (d->drv) {
	case DRV_HARD:
		ret = uirq_request_irq(l->irq, hard_handler, flags, d->name, d);
		break;
	case DRV_PEEK:
		ret = uirq_request_threaded_irq(l->irq, peek_handler, thread_handler, flags, d->name, d);
		break;
	default:
		ret = uirq_request_threaded_irq(l->irq, NULL, thread_handler, flags, d->name, d);
	}
	if (ret)
		return ret;
	/* Installed first, then the device may latch: it never holds an event nobody can take. */
	atomic_fetch_or(&d->status, ST_BOUND);
	d->bound = true;
	add(&d->binds, 1);
	return 0;
}

static void dev_unbind(struct soak_dev *d, bool at_drain)
{
	struct soak_line *l = d->line;

	/* The driver's remove: the device stops latching and drops what it holds, then free_irq. */
	uint64_t v = atomic_exchange(&d->status, 0);

	add(at_drain ? &d->stranded : &d->freed, (unsigned long)(v & ST_COUNT));
	if (is_level(l) && is_swirq(l))
		line_level_sync(l);
	const char *name = uirq_free_irq(l->irq, d);

	if (!name || strcmp(name, d->name))
		fail("%s: free_irq(%u) returned %s", d->name, l->irq, name ? name : "NULL");
	d->bound = false;
	add(&d->unbinds, 1);
}

static void dump_line(FILE *out, struct soak_line *l);
static double drain_limit_s = 30;
static atomic_ulong op_checkpoints;

/* ------------------------------------------------------------------ */
/* threads                                                            */
/* ------------------------------------------------------------------ */

struct dthread {
	pthread_t thread;
	unsigned int index;
	struct soak_dev *devs[MAX_DEVS];
	unsigned int ndevs;
	unsigned long quota;
	double rate;		/* events per second; 0: unpaced */
	uint64_t seed;
};

/*
 * A checkpoint: the device raises nothing more until what it holds has been
 * served by its handler.  Holding the device's mutex keeps the control
 * threads from unbinding it (which would drop the events and hide a loss)
 * or disabling the line through it meanwhile.  Only its own thread raises
 * on a line with one device, so an edge lost by the core shows here instead
 * of being rescued by a later edge.  Bounded so that a loss fails instead
 * of hanging.
 */
static void dev_checkpoint(struct soak_dev *d)
{
	uint64_t t0 = 0;
	unsigned int spins = 0;

	uirq_mutex_lock(&d->mu);
	add(&op_checkpoints, 1);
	while (atomic_load(&d->status) & ST_COUNT) {
		if (++spins < 64) {
			uirq_sim_yield();
			continue;
		}
		uint64_t now = now_ns();

		if (!t0) {
			t0 = now;
		} else if ((double)(now - t0) > drain_limit_s * 1e9) {
			fail("%s: an event waited %.0f s for its interrupt (lost interrupt)", d->name, drain_limit_s);
			dump_line(stderr, d->line);
			break;
		}
		sleep_ns(50000);
	}
	uirq_mutex_unlock(&d->mu);
}

static void *device_thread(void *arg)
{
	struct dthread *t = arg;
	uint64_t start = now_ns();

	for (unsigned long i = 0; i < t->quota; i++) {
		uint32_t r = rnd(&t->seed);
		struct soak_dev *d = t->devs[r % t->ndevs];

		dev_event(d);
		if ((r >> 20) % 32 == 0)
			dev_checkpoint(d);
		if (t->rate > 0) {
			if ((i & 15) == 15) {
				uint64_t due = start + (uint64_t)((double)(i + 1) / t->rate * 1e9), now = now_ns();

				if (due > now)
					sleep_ns(due - now);
			}
		} else if ((r >> 16) % 512 == 0) {
			sleep_ns(20000 + (r >> 8) % 200000);	/* let the CPUs go idle now and then */
		} else if ((r >> 16) % 32 == 1) {
			uirq_sim_yield();
		}
	}
	return NULL;
}

static void control_op(uint64_t *seed)
{
	uint32_t r = rnd(seed);
	struct soak_dev *d = &devs[r % ndevs];
	struct soak_line *l = d->line;
	unsigned int op = (r >> 8) % 20;

	if (op < 7) {
		/* Unbind (one time in four: drivers stay bound most of the time), or bind again. */
		uirq_mutex_lock(&d->mu);
		if (d->bound && (r >> 16) % 4 != 0) {
			/* left bound */
		} else if (d->bound) {
			dev_unbind(d, false);
			add(&op_unbind, 1);
		} else {
			int ret = dev_bind(d);

			if (ret) {
				add(&op_bind_fail, 1);
				fail("%s: request on irq %u: %d", d->name, l->irq, ret);
			} else {
				add(&op_bind, 1);
			}
		}
		uirq_mutex_unlock(&d->mu);
	} else if (op < 13) {
		/* Disable and enable again, as the driver holding the line does. */
		uirq_mutex_lock(&d->mu);
		if (d->bound) {
			uint32_t how = rnd(seed);

			switch (how % 3) {
			case 0:
				uirq_disable_irq(l->irq);
				break;
			case 1:
				uirq_disable_irq_nosync(l->irq);
				break;
			default:
				uirq_disable_hardirq(l->irq);
			}
			switch ((how >> 4) % 3) {
			case 0:
				break;
			case 1:
				uirq_sim_yield();
				break;
			default:
				sleep_ns(1000 + (how >> 8) % 200000);
			}
			uirq_enable_irq(l->irq);
			add(&op_disable, 1);
		}
		uirq_mutex_unlock(&d->mu);
	} else if (op < 18) {
		unsigned int cpu = rnd(seed) % cur_cpus;
		int ret = uirq_irq_set_affinity(l->irq, 1ull << cpu);

		if (ret)
			fail("irq_set_affinity(%u, cpu%u): %d", l->irq, cpu, ret);
		add(&op_affinity, 1);
	} else {
		uirq_synchronize_irq(l->irq);
		add(&op_sync, 1);
	}
}

struct cthread {
	pthread_t thread;
	uint64_t seed;
};

static void *control_thread(void *arg)
{
	struct cthread *t = arg;

	while (!atomic_load(&devices_done)) {
		control_op(&t->seed);
		uint32_t r = rnd(&t->seed);

		if (r % 4)
			sleep_ns(5000 + r % 300000);
		else
			uirq_sim_yield();
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* setup and teardown of the lines                                    */
/* ------------------------------------------------------------------ */

static void count_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	atomic_fetch_add(&lockdep_reports, 1);
	fprintf(stderr, "lockdep report: %s\n%s\n", r->headline, r->text);
}

static int lines_create(void)
{
	unsigned int n_plain = 0, n_eoi = 0;
	int ret;

	nlines = 0;
	for (unsigned int i = 0; i < NR_SPECS; i++) {
		lines[nlines++].spec = &soak_specs[i];
		if (soak_specs[i].src == SRC_SWIRQ)
			n_plain++;
		else if (soak_specs[i].src == SRC_SWIRQ_EOI)
			n_eoi++;
	}
	struct uirq_swirq_config c1 = { .name = "soak", .nr_inputs = n_plain };
	struct uirq_swirq_config c2 = { .name = "soak-eoi", .nr_inputs = n_eoi, .flags = UIRQ_SWIRQ_FASTEOI };

	ret = uirq_swirq_create(&c1, &ctl_plain);
	if (ret)
		return ret;
	ret = uirq_swirq_create(&c2, &ctl_eoi);
	if (ret)
		return ret;
	n_plain = n_eoi = 0;
	ndevs = 0;
	for (unsigned int i = 0; i < nlines; i++) {
		struct soak_line *l = &lines[i];
		const struct line_spec *s = l->spec;

		memset(l, 0, sizeof(*l));
		l->spec = s;
		if (s->src == SRC_EVENTFD) {
			ret = uirq_eventfd_line_create(-1, s->type, &l->fdl);
			if (ret <= 0)
				return ret ? ret : -EINVAL;
			l->irq = (unsigned int)ret;
		} else {
			l->ctl = s->src == SRC_SWIRQ ? ctl_plain : ctl_eoi;
			l->hw = s->src == SRC_SWIRQ ? n_plain++ : n_eoi++;
			ret = uirq_swirq_set_type(l->ctl, l->hw, s->type);
			if (ret)
				return ret;
			ret = uirq_swirq_map(l->ctl, l->hw);
			if (ret <= 0)
				return ret ? ret : -EINVAL;
			l->irq = (unsigned int)ret;
		}
		for (unsigned int k = 0; k < s->ndev; k++) {
			struct soak_dev *d = &devs[ndevs++];

			memset(d, 0, sizeof(*d));
			d->line = l;
			d->drv = s->drv[k];
			snprintf(d->name, sizeof(d->name), "%s%s", s->name, s->ndev > 1 ? (k ? "/b" : "/a") : "");
			uirq_mutex_init(&d->mu);
			l->dev[k] = d;
		}
	}
	return 0;
}

static void lines_destroy(void)
{
	for (unsigned int i = 0; i < nlines; i++) {
		struct soak_line *l = &lines[i];

		if (l->fdl) {
			int ret = uirq_fd_line_destroy(l->fdl);

			if (ret)
				fail("%s: fd line destroy: %d", l->spec->name, ret);
			l->fdl = NULL;
		}
	}
	if (ctl_plain && uirq_swirq_destroy(ctl_plain))
		fail("swirq destroy refused");
	if (ctl_eoi && uirq_swirq_destroy(ctl_eoi))
		fail("swirq (fasteoi) destroy refused");
	ctl_plain = ctl_eoi = NULL;
	for (unsigned int i = 0; i < ndevs; i++)
		uirq_mutex_destroy(&devs[i].mu);
}

static void dump_line(FILE *out, struct soak_line *l)
{
	fprintf(out, "  %s irq %u: depth %u enabled %d action %d kstat %lu", l->spec->name, l->irq,
		uirq_irq_get_depth(l->irq), uirq_irq_is_enabled(l->irq), uirq_irq_has_action(l->irq),
		uirq_kstat_irqs(l->irq));
	if (l->ctl) {
		struct uirq_swirq_stats st;

		uirq_swirq_get_stats(l->ctl, l->hw, &st);
		fprintf(out, "; swirq asserted %d pending %d masked %d in_service %d started %d, raises %lu acks %lu "
			"masks %lu unmasks %lu eois %lu retriggers %lu vanished %lu", st.asserted, st.pending,
			st.masked, st.in_service, st.started, st.raises, st.acks, st.masks, st.unmasks, st.eois,
			st.retriggers, st.vanished);
	} else {
		struct uirq_fd_line_stats st;

		uirq_fd_line_get_stats(l->fdl, &st);
		struct pollfd pfd = { .fd = uirq_fd_line_fd(l->fdl), .events = POLLIN };

		fprintf(out, "; fd masked %d started %d acks %lu empty %lu events %lu rearms %lu, %s", st.masked,
			st.started, st.acks, st.empty, st.events, st.rearms,
			poll(&pfd, 1, 0) == 1 ? "readable" : "not readable");
	}
	for (unsigned int k = 0; k < l->spec->ndev; k++)
		fprintf(out, "; %s status %llu%s", l->dev[k]->name,
			(unsigned long long)(atomic_load(&l->dev[k]->status) & ST_COUNT),
			atomic_load(&l->dev[k]->status) & ST_BOUND ? " bound" : "");
	fprintf(out, "\n");
	uirq_show_spurious(out, l->irq);
}

/* ------------------------------------------------------------------ */
/* a round                                                            */
/* ------------------------------------------------------------------ */

static bool all_drained(void)
{
	for (unsigned int i = 0; i < ndevs; i++)
		if (atomic_load(&devs[i].status) & ST_COUNT)
			return false;
	return true;
}

/* A task under --seed, a plain thread otherwise (uirq_sim_thread_create is pthread_create there). */
static int spawn(pthread_t *thread, void *(*fn)(void *), void *arg, const char *kind, unsigned int t,
		 unsigned int round)
{
	char name[32];	/* room for any t; the scheduler keeps 31 characters, the kernel 15 */
	int ret;

	snprintf(name, sizeof(name), "soak-%s%u", kind, t);
	ret = uirq_sim_thread_create(thread, NULL, fn, arg, name);
	if (ret)
		fail("round %u: creating thread %s: %d", round, name, ret);
	return ret;
}

static void run_round(const struct soak_config *cfg, unsigned int round, unsigned long quota, uint64_t *seed,
		      FILE *out)
{
	struct uirq_cpu_config cc = { .nr_cpus = 2 + round % 3, .threadirqs = round % 4 == 3 };
	struct dthread dt[16];
	struct cthread ct[16];
	unsigned int nd = cfg->dev_threads, nc = cfg->ctl_threads;
	int ret;

	cur_cpus = cc.nr_cpus;
	ret = uirq_cpus_start(&cc);
	if (ret) {
		fail("round %u: uirq_cpus_start(%u): %d", round, cc.nr_cpus, ret);
		return;
	}
	for (unsigned int i = 0; i < ndevs; i++) {
		struct soak_dev *d = &devs[i];

		uirq_mutex_lock(&d->mu);
		ret = dev_bind(d);
		uirq_mutex_unlock(&d->mu);
		if (ret)
			fail("round %u: %s: request on irq %u: %d", round, d->name, d->line->irq, ret);
	}
	for (unsigned int i = 0; i < nlines; i++)
		uirq_irq_set_affinity(lines[i].irq, 1ull << (rnd(seed) % cc.nr_cpus));

	atomic_store(&devices_done, 0);
	memset(dt, 0, sizeof(dt));
	for (unsigned int t = 0; t < nd; t++) {
		dt[t].index = t;
		dt[t].seed = *seed ^ (0x9e3779b97f4a7c15ull * (t + 1)) ^ round;
		dt[t].quota = quota / nd + (t == 0 ? quota % nd : 0);
		dt[t].rate = cfg->seconds > 0 ? (double)cfg->edges / cfg->seconds / nd : 0;
	}
	/* Device k belongs to thread k mod D: the two devices of a shared line to different threads. */
	for (unsigned int i = 0; i < ndevs; i++)
		dt[i % nd].devs[dt[i % nd].ndevs++] = &devs[i];
	for (unsigned int t = 0; t < nc; t++)
		ct[t].seed = *seed ^ (0xbf58476d1ce4e5b9ull * (t + 1)) ^ ((uint64_t)round << 32);
	for (unsigned int t = 0; t < nc; t++)
		if (spawn(&ct[t].thread, control_thread, &ct[t], "ctl", t, round)) {
			nc = t;
			break;
		}
	for (unsigned int t = 0; t < nd; t++)
		if (spawn(&dt[t].thread, device_thread, &dt[t], "dev", t, round)) {
			nd = t;
			break;
		}
	for (unsigned int t = 0; t < nd; t++)
		uirq_sim_thread_join(dt[t].thread, NULL);
	atomic_store(&devices_done, 1);
	for (unsigned int t = 0; t < nc; t++)
		uirq_sim_thread_join(ct[t].thread, NULL);
	rnd(seed);

	/* The drain: every driver back, every line enabled, and every event must be served. */
	for (unsigned int i = 0; i < ndevs; i++) {
		struct soak_dev *d = &devs[i];

		uirq_mutex_lock(&d->mu);
		if (!d->bound) {
			ret = dev_bind(d);
			if (ret)
				fail("round %u: %s: request on irq %u: %d", round, d->name, d->line->irq, ret);
		}
		uirq_mutex_unlock(&d->mu);
	}
	for (unsigned int i = 0; i < nlines; i++) {
		struct soak_line *l = &lines[i];

		if (uirq_irq_get_depth(l->irq) != 0 || !uirq_irq_is_enabled(l->irq)) {
			fail("round %u: %s (irq %u) left disabled, depth %u", round, l->spec->name, l->irq,
			     uirq_irq_get_depth(l->irq));
			dump_line(stderr, l);
		}
	}
	double limit_s = drain_limit_s;
	uint64_t t0 = now_ns();

	while (!all_drained() && (double)(now_ns() - t0) < limit_s * 1e9)
		sleep_ns(1000000);
	if (!all_drained()) {
		fail("round %u: events left undelivered after %.0f s (lost interrupts)", round, limit_s);
		for (unsigned int i = 0; i < nlines; i++)
			if (line_wants(&lines[i]))
				dump_line(stderr, &lines[i]);
	}
	for (unsigned int i = 0; i < nlines; i++) {
		struct soak_line *l = &lines[i];

		if (is_level(l) && is_swirq(l) && uirq_swirq_get_level(l->ctl, l->hw) != 0)
			fail("round %u: %s: level still asserted after the drain", round, l->spec->name);
	}
	for (unsigned int i = 0; i < ndevs; i++) {
		struct soak_dev *d = &devs[i];

		uirq_mutex_lock(&d->mu);
		dev_unbind(d, true);
		uirq_mutex_unlock(&d->mu);
	}
	for (unsigned int i = 0; i < nlines; i++)
		if (uirq_irq_has_action(lines[i].irq))
			fail("round %u: %s: an action is left after every driver was freed", round,
			     lines[i].spec->name);
	uirq_cpus_stop();
	(void)out;
}

/* ------------------------------------------------------------------ */
/* the run and its figures                                            */
/* ------------------------------------------------------------------ */

struct soak_totals {
	unsigned long raised, handled, merged, unbound, freed, stranded, spurious, peek_none;
	unsigned long wire, src_latched, src_merged, fd_events, fd_acks, fd_merged, fd_residue;
	unsigned long interrupts, binds, threaded_binds;
	double seconds;
	unsigned int rounds;
};

static const char *drv_name(enum drv_kind k)
{
	return k == DRV_HARD ? "hard" : k == DRV_PEEK ? "peek" : "thread";
}

static const char *type_name(unsigned int t)
{
	switch (t) {
	case UIRQ_TYPE_EDGE_RISING:
		return "edge";
	case UIRQ_TYPE_EDGE_BOTH:
		return "both";
	default:
		return "level";
	}
}

/* The rule, per device, per line and in total; the source's own equations per line. */
static void check_and_print(FILE *out, struct soak_totals *T)
{
	fprintf(out, "%-15s %-6s %-5s %-12s %9s %9s %9s %8s %7s %8s %9s  %s\n", "line/device", "src", "type",
		"drivers", "raised", "handled", "merged", "unbound", "freed", "stranded", "spurious", "source");
	for (unsigned int i = 0; i < nlines; i++) {
		struct soak_line *l = &lines[i];
		unsigned long r = 0, h = 0, m = 0, u = 0, f = 0, s = 0, sp = 0;
		char drivers[32] = "", src[160] = "";

		for (unsigned int k = 0; k < l->spec->ndev; k++) {
			struct soak_dev *d = l->dev[k];
			unsigned long dr = ld(&d->raised), dh = ld(&d->handled), dm = ld(&d->merged),
				      du = ld(&d->unbound), df = ld(&d->freed), ds = ld(&d->stranded);

			if (dr != dh + dm + du + df + ds)
				fail("%s: raised %lu != handled %lu + merged %lu + unbound %lu + freed %lu + stranded %lu",
				     d->name, dr, dh, dm, du, df, ds);
			if (ds)
				fail("%s: %lu events stranded", d->name, ds);
			if (ld(&d->wrong_irq))
				fail("%s: handler called with another irq %lu times", d->name, ld(&d->wrong_irq));
			r += dr, h += dh, m += dm, u += du, f += df, s += ds;
			sp += ld(&d->spurious) + ld(&d->peek_none);
			T->peek_none += ld(&d->peek_none);
			T->spurious += ld(&d->spurious);
			T->binds += ld(&d->binds);
			if (d->drv != DRV_HARD)
				T->threaded_binds += ld(&d->binds);
			snprintf(drivers + strlen(drivers), sizeof(drivers) - strlen(drivers), "%s%s", k ? "+" : "",
				 drv_name(d->drv));
		}
		if (r != h + m + u + f + s)
			fail("%s: raised %lu != handled + merged + unbound + freed + stranded = %lu", l->spec->name, r,
			     h + m + u + f + s);
		unsigned long wire = ld(&l->wire);

		if (l->ctl && !is_level(l)) {
			struct uirq_swirq_stats st;

			uirq_swirq_get_stats(l->ctl, l->hw, &st);
			if (wire != st.latched + st.merged)
				fail("%s: wire edges %lu != swirq latched %lu + merged %lu", l->spec->name, wire,
				     st.latched, st.merged);
			snprintf(src, sizeof(src), "wire %lu = latched %lu + merged %lu", wire, st.latched, st.merged);
			T->wire += wire;
			T->src_latched += st.latched;
			T->src_merged += st.merged;
		} else if (l->ctl) {
			struct uirq_swirq_stats st;

			uirq_swirq_get_stats(l->ctl, l->hw, &st);
			if (st.asserted)
				fail("%s: level asserted at the end", l->spec->name);
			snprintf(src, sizeof(src), "asserts %lu, vanished %lu", st.asserts, st.vanished);
		} else {
			struct uirq_fd_line_stats st;

			uirq_fd_line_get_stats(l->fdl, &st);
			if (wire != st.events + l->residue)
				fail("%s: eventfd writes %lu != events read %lu + residue %lu", l->spec->name, wire,
				     st.events, l->residue);
			if (st.events != st.acks + st.merged)
				fail("%s: fd events %lu != acks %lu + merged %lu", l->spec->name, st.events, st.acks,
				     st.merged);
			snprintf(src, sizeof(src), "writes %lu = read %lu (acks %lu + merged %lu) + residue %lu", wire,
				 st.events, st.acks, st.merged, l->residue);
			T->fd_events += st.events;
			T->fd_acks += st.acks;
			T->fd_merged += st.merged;
			T->fd_residue += l->residue;
		}
		unsigned long k = uirq_kstat_irqs(l->irq);

		T->interrupts += k;
		fprintf(out, "%-15s %-6s %-5s %-12s %9lu %9lu %9lu %8lu %7lu %8lu %9lu  %s\n", l->spec->name,
			l->spec->src == SRC_EVENTFD ? "fd" : l->spec->src == SRC_SWIRQ ? "swirq" : "eoi",
			type_name(l->spec->type), drivers, r, h, m, u, f, s, sp, src);
		T->raised += r, T->handled += h, T->merged += m, T->unbound += u, T->freed += f, T->stranded += s;
	}
	fprintf(out, "%-15s %-6s %-5s %-12s %9lu %9lu %9lu %8lu %7lu %8lu %9lu\n", "total", "", "", "", T->raised,
		T->handled, T->merged, T->unbound, T->freed, T->stranded, T->spurious + T->peek_none);
	if (T->raised != T->handled + T->merged + T->unbound + T->freed + T->stranded)
		fail("total: raised %lu != %lu", T->raised, T->handled + T->merged + T->unbound + T->freed + T->stranded);
}

static FILE *sim_out;
static const struct soak_config *sim_cfg;

/* A deadlock or a task stalled outside uirq's primitives: the run cannot go on; say what and how to replay it. */
static void on_sim_failure(const char *report, void *arg)
{
	char st[16];

	(void)arg;
	fflush(sim_out);
	fputs(report, stderr);
	fprintf(stderr, "soak: FAIL: the deterministic mode cannot go on (seed %llu, strategy %s, soak seed %u)\n",
		(unsigned long long)sim_cfg->sim_seed,
		sim_strategy_word(sim_cfg->strategy, sim_cfg->pct_depth, st, sizeof(st)), sim_cfg->seed);
	fflush(NULL);
	_exit(1);
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Run the whole soak; prints the figures on out; returns the number of failures. */
static int soak_run(const struct soak_config *cfg, FILE *out)
{
	struct soak_totals T;
	uint64_t wall0 = wall_ns(), sim_steps = 0, sim_hash = 0;
	uint64_t seed = cfg->seed ? cfg->seed : 0x5eed;
	unsigned int rounds = cfg->rounds;
	int ret;

	memset(&T, 0, sizeof(T));
	drain_limit_s = (getenv("UIRQ_SOAK_DRAIN_S") ? atof(getenv("UIRQ_SOAK_DRAIN_S")) : 30.0) * timeout_scale();
	atomic_store(&nfail, 0);
	fail_text[0] = '\0';
	if (!rounds) {
		rounds = (unsigned int)(cfg->edges / 25000);
		if (rounds < 3)
			rounds = 3;
	}
	uirq_lockdep_set_report_handler(count_report, NULL);
	if (cfg->sim) {
		char st[16];

		fprintf(out, "deterministic mode: seed %llu, strategy %s; the eventfd lines are virtual (their CPU "
			"polls them)\n", (unsigned long long)cfg->sim_seed,
			sim_strategy_word(cfg->strategy, cfg->pct_depth, st, sizeof(st)));
		/*
		 * The mode from here to the end of the last round, the lines' creation
		 * included (an eventfd line made in the mode is virtual: no epoll, which
		 * the scheduler could not see): the CPUs, the
		 * handler threads, the device and control threads and this thread's
		 * drains are its tasks, one at a time, on the virtual clock.  PCT's
		 * change points spread over about the run's first edges' worth of
		 * steps rather than the default 1000 (setup only).
		 */
		sim_out = out;
		sim_cfg = cfg;
		uirq_sim_set_failure_handler(on_sim_failure, NULL);
		uirq_sim_set_pct_horizon(cfg->edges);
		ret = uirq_sim_start(cfg->sim_seed, cfg->strategy, cfg->pct_depth);
		if (ret) {
			fail("cannot start the deterministic mode: %d", ret);
			return atomic_load(&nfail);
		}
	}
	ret = lines_create();
	if (ret) {
		fail("creating the lines: %d", ret);
		if (cfg->sim)
			uirq_sim_stop();
		return atomic_load(&nfail);
	}
	fprintf(out, "soak (%s build): %lu edges%s, %u rounds, %u device threads, %u control threads, "
		"2-4 CPUs a round, %u lines, %u devices, lockdep %s\n", SOAK_SANITIZER, cfg->edges,
		cfg->seconds > 0 ? "" : " unpaced", rounds, cfg->dev_threads, cfg->ctl_threads, nlines, ndevs,
		uirq_lockdep_enabled() ? "on" : "off");
	if (cfg->seconds > 0)
		fprintf(out, "paced at %.0f edges/s over %.0f s%s\n", (double)cfg->edges / cfg->seconds, cfg->seconds,
			cfg->sim ? " of virtual time" : "");
	fflush(out);

	uint64_t t0 = now_ns(), last_progress = t0;

	for (unsigned int r = 0; r < rounds; r++) {
		unsigned long quota = cfg->edges / rounds + (r == rounds - 1 ? cfg->edges % rounds : 0);

		run_round(cfg, r, quota, &seed, out);
		if (cfg->progress && (now_ns() - last_progress > 10000000000ull || r == rounds - 1)) {
			unsigned long raised = 0, handled = 0;

			for (unsigned int i = 0; i < ndevs; i++) {
				raised += ld(&devs[i].raised);
				handled += ld(&devs[i].handled);
			}
			last_progress = now_ns();
			fprintf(out, "  round %u/%u  %7.1f s  raised %lu  handled %lu  failures %d\n", r + 1, rounds,
				(double)(last_progress - t0) / 1e9, raised, handled, atomic_load(&nfail));
			fflush(out);
		}
		if (atomic_load(&nfail))
			break;
	}
	T.seconds = (double)(now_ns() - t0) / 1e9;
	if (cfg->sim) {
		/* Every task has ended with the last round's uirq_cpus_stop(): the stop only joins them. */
		if (uirq_sim_stop() != UIRQ_SIM_OK)
			fail("the deterministic mode deadlocked: %s", uirq_sim_report());
		sim_steps = uirq_sim_trace_len();
		sim_hash = uirq_sim_trace_hash();
	}

	/* What the eventfds still hold (edges after the last ack): read it, CPUs stopped. */
	for (unsigned int i = 0; i < nlines; i++) {
		struct soak_line *l = &lines[i];
		uint64_t v = 0;

		if (l->fdl && read(uirq_fd_line_fd(l->fdl), &v, sizeof(v)) == (ssize_t)sizeof(v))
			l->residue = (unsigned long)v;
	}
	check_and_print(out, &T);
	unsigned int n_threaded = 0;

	for (unsigned int i = 0; i < ndevs; i++)
		n_threaded += devs[i].drv != DRV_HARD;
	fprintf(out, "conservation: raised %lu = handled %lu + merged %lu + no handler %lu (unbound %lu + freed "
		"pending %lu) + stranded %lu: %s\n", T.raised, T.handled, T.merged, T.unbound + T.freed, T.unbound,
		T.freed, T.stranded,
		T.raised == T.handled + T.merged + T.unbound + T.freed + T.stranded && !T.stranded ? "exact" : "BROKEN");
	fprintf(out, "spurious: %lu handler runs found nothing (IRQ_NONE), %lu peek primaries found nothing\n",
		T.spurious, T.peek_none);
	fprintf(out, "source: swirq edges on the wire %lu = latched %lu + merged %lu; eventfd: read %lu = acks %lu "
		"+ merged %lu, residue %lu; interrupts taken (kstat) %lu\n", T.wire, T.src_latched, T.src_merged,
		T.fd_events, T.fd_acks, T.fd_merged, T.fd_residue, T.interrupts);
	fprintf(out, "control: %lu binds (%lu threaded: a handler thread each), %lu unbinds mid-round, %lu binds "
		"mid-round, %lu disable/enable, %lu affinity moves, %lu synchronize_irq; %u CPU starts; %lu checkpoints "
		"(a device waits until its events are served)\n", T.binds, T.threaded_binds, ld(&op_unbind), ld(&op_bind),
		ld(&op_disable), ld(&op_affinity), ld(&op_sync), rounds, ld(&op_checkpoints));
	fprintf(out, "%stime: %.1f s (%.2f min); threads: %u device + %u control + 2-4 CPUs + a handler thread per "
		"threaded driver (%u of %u drivers; with forced threading every driver, two for peek ones)\n",
		cfg->sim ? "virtual " : "", T.seconds,
		T.seconds / 60, cfg->dev_threads, cfg->ctl_threads, n_threaded, ndevs);
	lines_destroy();
	if (atomic_load(&lockdep_reports))
		fail("lockdep reported %d problem(s)", atomic_load(&lockdep_reports));
	if (cfg->sim) {
		char st[16];

		/* The interleaving's identity: one seed, one hash (checked by tests/soak/seeded.sh). */
		fprintf(out, "deterministic: seed %llu, strategy %s, %llu decisions (hash %016llx)\n",
			(unsigned long long)cfg->sim_seed, sim_strategy_word(cfg->strategy, cfg->pct_depth, st, sizeof(st)),
			(unsigned long long)sim_steps, (unsigned long long)sim_hash);
		/* Not on out: the wall time differs between two runs of one seed, the figures above may not. */
		fflush(out);
		fprintf(stderr, "soak: wall time %.1f s\n", (double)(wall_ns() - wall0) / 1e9);
	}
	fprintf(out, "soak: %s (%d failure%s)\n", atomic_load(&nfail) ? "FAIL" : "PASS", atomic_load(&nfail),
		atomic_load(&nfail) == 1 ? "" : "s");
	fflush(out);
	return atomic_load(&nfail);
}

#ifdef SOAK_STANDALONE

static void usage(FILE *f)
{
	fprintf(f, "usage: uirq-soak [EDGES [SECONDS]] [-r ROUNDS] [-d DEVICE_THREADS] [-c CONTROL_THREADS] "
		   "[-s SEED] [--seed N [--strategy S]]\n"
		   "  EDGES    events raised in all (default 1000000)\n"
		   "  SECONDS  pace them over this long (default 180; 0: as fast as they go)\n"
		   "  -s SEED  the soak's own random sequence (devices, control operations; default 1)\n"
		   "  --seed N the deterministic mode: every thread a task of uirq's seeded scheduler, time\n"
		   "           virtual (SECONDS cost no wall time), eventfd lines virtual; one N, one run\n"
		   "  --strategy S  its scheduler: random, pct or pct:D (D 1..64; default pct:3)\n");
}

int main(int argc, char **argv)
{
	struct soak_config cfg = { .edges = 1000000, .seconds = 180, .dev_threads = 3, .ctl_threads = 2,
				   .seed = 1, .progress = true, .strategy = UIRQ_SIM_PCT, .pct_depth = 3 };
	int pos = 0;
	bool strategy_given = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--seed") && i + 1 < argc) {
			const char *v = argv[++i];

			errno = 0;
			cfg.sim_seed = strtoull(v, &end, 0);
			if (!*v || *v == '-' || *end || errno) {
				usage(stderr);
				return 2;
			}
			cfg.sim = true;
			continue;
		}
		if (!strcmp(a, "--strategy") && i + 1 < argc) {
			if (sim_strategy_parse(argv[++i], &cfg.strategy, &cfg.pct_depth)) {
				usage(stderr);
				return 2;
			}
			strategy_given = true;
			continue;
		}
		if (a[0] == '-' && a[1] && strchr("rdcs", a[1]) && !a[2] && i + 1 < argc) {
			unsigned long v = strtoul(argv[++i], &end, 10);

			if (*end || (a[1] != 's' && !v) || ((a[1] == 'd' || a[1] == 'c') && v > 16)) {
				usage(stderr);
				return 2;
			}
			if (a[1] == 'r')
				cfg.rounds = (unsigned int)v;
			else if (a[1] == 'd')
				cfg.dev_threads = (unsigned int)v;
			else if (a[1] == 'c')
				cfg.ctl_threads = (unsigned int)v;
			else
				cfg.seed = (unsigned int)v;
			continue;
		}
		if (pos == 0) {
			cfg.edges = strtoul(a, &end, 10);
			if (*end || !cfg.edges) {
				usage(stderr);
				return 2;
			}
		} else if (pos == 1) {
			cfg.seconds = strtod(a, &end);
			if (*end || cfg.seconds < 0) {
				usage(stderr);
				return 2;
			}
		} else {
			usage(stderr);
			return 2;
		}
		pos++;
	}
	if (strategy_given && !cfg.sim) {
		fprintf(stderr, "uirq-soak: --strategy needs --seed\n");
		return 2;
	}
	/*
	 * A reader that goes away (| head) fails a write instead of killing
	 * the soak half-way, its threads and lines with it: the soak runs to
	 * its end, its verdict is the exit status, and a lost output is exit 1.
	 */
	signal(SIGPIPE, SIG_IGN);
	int failures = soak_run(&cfg, stdout);
	bool lost = fflush(stdout) == EOF || ferror(stdout);

	if (failures)
		fprintf(stderr, "uirq-soak: %d failure(s): %s\n", failures, fail_text);
	if (lost)
		fprintf(stderr, "uirq-soak: writing the output failed (standard output closed or full); %s\n",
			failures ? "the soak failed" : "the soak passed");
	return failures || lost ? 1 : 0;
}

#else /* the suite's short form */

#include "harness.h"

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *v = getenv(name);
	char *end;

	if (!v || !*v)
		return def;
	unsigned long n = strtoul(v, &end, 10);

	return *end || !n ? def : n;
}

UIRQ_TEST(soak, conservation_under_churn, .timeout = 150)
{
	struct soak_config cfg = {
		.edges = env_ulong("UIRQ_SOAK_EDGES", SOAK_SHORT_EDGES),
		.seconds = (double)env_ulong("UIRQ_SOAK_SECONDS", 3),
		.rounds = (unsigned int)env_ulong("UIRQ_SOAK_ROUNDS", 3),
		.dev_threads = 3,
		.ctl_threads = 2,
		.seed = (unsigned int)env_ulong("UIRQ_SOAK_SEED", 1),
	};
	int failures = soak_run(&cfg, stderr);

	assert_eq(failures, 0, "%d failure(s): %s", failures, fail_text);
}

#endif

// SPDX-License-Identifier: MIT
/*
 * --trace: Chrome trace-event JSON (opens in Perfetto and chrome://tracing).
 * Spans are recorded as "X" complete events, so a span cut short by the
 * end of the run cannot leave a B without its E.  Recording runs in
 * hard-irq context, so it takes no lock: a slot is claimed with one atomic
 * add in a buffer sized up front, and a full buffer drops (and counts)
 * records rather than block an interrupt.
 */
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irqsim.h"
#include "uirq/sim.h"
#include "uirq/irq.h"

#define TRACE_CAP	(1u << 18)
#define STACK_DEPTH	8

enum rec_kind { REC_HARDIRQ, REC_THREAD, REC_NESTED, REC_I2C, REC_INSTANT };

struct rec {
	uint64_t ts, dur;
	int tid, cpu;
	unsigned int irq;
	int value;
	uint8_t kind;
	char name[48];
	const char *cat;
};

static struct {
	struct rec *recs;
	atomic_uint n;
	atomic_ulong dropped;
	atomic_bool on;
	uint64_t t0;
	FILE *f;
} tr;

static __thread struct {
	unsigned int depth;
	int tid;
	uint64_t start[STACK_DEPTH];
} ts_stack;

/* A switch of the deterministic mode's tasks copies the used part only. */
static size_t ts_stack_live(const void *value)
{
	unsigned int depth = ((const __typeof__(ts_stack) *)value)->depth;

	return offsetof(__typeof__(ts_stack), start) + (depth < STACK_DEPTH ? depth : STACK_DEPTH) * sizeof(uint64_t);
}
UIRQ_SIM_TASK_LOCAL_EXT(ts_stack, ts_stack_live, NULL)

static int my_tid(void)
{
	if (!ts_stack.tid)
		ts_stack.tid = gettid_int();
	return ts_stack.tid;
}

static struct rec *claim(void)
{
	unsigned int i;

	if (!atomic_load_explicit(&tr.on, memory_order_acquire))
		return NULL;
	i = atomic_fetch_add_explicit(&tr.n, 1, memory_order_relaxed);
	if (i >= TRACE_CAP) {
		atomic_fetch_add_explicit(&tr.dropped, 1, memory_order_relaxed);
		return NULL;
	}
	return &tr.recs[i];
}

static void on_point(enum uirq_irq_trace_point point, unsigned int irq, int cpu, const char *name, void *arg)
{
	uint64_t t = now_ns();
	struct rec *r;

	(void)arg;
	switch (point) {
	case UIRQ_TRACE_HARDIRQ_ENTRY:
	case UIRQ_TRACE_THREAD_ENTRY:
	case UIRQ_TRACE_NESTED_ENTRY:
		if (ts_stack.depth < STACK_DEPTH)
			ts_stack.start[ts_stack.depth] = t;
		ts_stack.depth++;
		return;
	default:
		break;
	}
	/* An exit without its entry (tracing switched on mid-span) is dropped. */
	if (!ts_stack.depth)
		return;
	if (--ts_stack.depth >= STACK_DEPTH || !(r = claim()))
		return;
	r->ts = ts_stack.start[ts_stack.depth];
	r->dur = t - r->ts;
	r->tid = my_tid();
	r->cpu = cpu;
	r->irq = irq;
	r->value = 0;
	switch (point) {
	case UIRQ_TRACE_HARDIRQ_EXIT:
		r->kind = REC_HARDIRQ;
		r->cat = "hardirq";
		snprintf(r->name, sizeof(r->name), "hardirq %u", irq);
		break;
	case UIRQ_TRACE_THREAD_EXIT:
		r->kind = REC_THREAD;
		r->cat = "irq_thread";
		snprintf(r->name, sizeof(r->name), "thread_fn irq %u %s", irq, name ? name : "");
		break;
	default:
		r->kind = REC_NESTED;
		r->cat = "nested_irq";
		snprintf(r->name, sizeof(r->name), "nested irq %u %s", irq, name ? name : "");
		break;
	}
}

int trace_open(const char *path)
{
	tr.f = fopen(path, "w");
	return tr.f ? 0 : -errno;
}

int trace_start(uint64_t t0_ns)
{
	tr.recs = calloc(TRACE_CAP, sizeof(*tr.recs));
	if (!tr.recs)
		return -ENOMEM;
	tr.t0 = t0_ns;
	atomic_store(&tr.on, true);
	uirq_irq_set_trace(on_point, NULL);
	return 0;
}

void trace_instant(const char *cat, const char *name, uint64_t t_ns, int value)
{
	struct rec *r = claim();

	if (!r)
		return;
	*r = (struct rec){ .ts = t_ns, .tid = my_tid(), .cpu = -1, .value = value, .kind = REC_INSTANT, .cat = cat };
	snprintf(r->name, sizeof(r->name), "%s", name);
}

void trace_xfer(const struct sim_xfer *x)
{
	struct rec *r = claim();

	if (!r)
		return;
	*r = (struct rec){ .ts = x->start_ns, .dur = x->end_ns - x->start_ns, .tid = x->tid, .cpu = -1,
			   .value = x->ret, .kind = REC_I2C, .cat = "i2c" };
	if (x->reg >= 0)
		snprintf(r->name, sizeof(r->name), "i2c %s 0x%02x:0x%02x", x->read ? "read" : "write",
			 x->addr, (unsigned int)x->reg);
	else
		snprintf(r->name, sizeof(r->name), "i2c %s 0x%02x", x->read ? "read" : "write", x->addr);
	/* The modelled wire time rides in irq (ns): no other use for it on an i2c record. */
	r->irq = (unsigned int)(x->wire_ns > 0xffffffffu ? 0xffffffffu : x->wire_ns);
}

static double us(uint64_t t_ns, uint64_t t0)
{
	return t_ns >= t0 ? (double)(t_ns - t0) / 1000.0 : -(double)(t0 - t_ns) / 1000.0;
}

static const char *thread_name(const struct irqsim_run *run, int tid)
{
	for (size_t i = 0; i < run->threads.n; i++) {
		const struct sim_thread *t = VEC_AT(&run->threads, struct sim_thread, i);

		if (t->tid == tid)
			return t->name;
	}
	return NULL;
}

static void write_rec(FILE *f, const struct rec *r, int pid, uint64_t t0)
{
	fprintf(f, "{\"name\":");
	json_string(f, r->name);
	fprintf(f, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f", r->cat, pid, r->tid, us(r->ts, t0));
	switch (r->kind) {
	case REC_INSTANT:
		fprintf(f, ",\"ph\":\"i\",\"s\":\"t\",\"args\":{\"value\":%d}}", r->value);
		return;
	case REC_I2C:
		fprintf(f, ",\"ph\":\"X\",\"dur\":%.3f,\"args\":{\"ret\":%d,\"wire_us\":%.3f}}",
			(double)r->dur / 1000.0, r->value, (double)r->irq / 1000.0);
		return;
	case REC_HARDIRQ:
		fprintf(f, ",\"ph\":\"X\",\"dur\":%.3f,\"args\":{\"irq\":%u,\"cpu\":%d}}",
			(double)r->dur / 1000.0, r->irq, r->cpu);
		return;
	default:
		fprintf(f, ",\"ph\":\"X\",\"dur\":%.3f,\"args\":{\"irq\":%u}}", (double)r->dur / 1000.0, r->irq);
		return;
	}
}

int trace_finish(const struct irqsim_run *run)
{
	unsigned int n;
	int pid = run->opts->seeded ? 1 : (int)getpid();	/* a --seed run's trace replays byte for byte */
	FILE *f = tr.f;
	int ret = 0;

	if (!f)
		return 0;
	tr.f = NULL;
	uirq_irq_set_trace(NULL, NULL);
	atomic_store(&tr.on, false);
	/* A run whose board could not be built recorded nothing: the file still gets a valid, empty trace. */
	n = tr.recs ? atomic_load(&tr.n) : 0;
	if (n > TRACE_CAP)
		n = TRACE_CAP;
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"irqsim\",\"dropped\":%lu},\n\"traceEvents\":[\n",
		atomic_load(&tr.dropped));
	fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"irqsim\"}}",
		pid, pid);
	/* One thread_name per thread that appears, named as the kernel names its tasks. */
	for (size_t i = 0; i < run->threads.n; i++) {
		const struct sim_thread *t = VEC_AT(&run->threads, struct sim_thread, i);

		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", pid, t->tid);
		json_string(f, t->name);
		fprintf(f, "}}");
	}
	for (unsigned int i = 0; i < n; i++) {
		/* A thread that left before the end has no name in run->threads: give it its tid. */
		if (!thread_name(run, tr.recs[i].tid)) {
			bool seen = false;

			for (unsigned int j = 0; j < i && !seen; j++)
				seen = tr.recs[j].tid == tr.recs[i].tid;
			if (!seen)
				fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
					"\"args\":{\"name\":\"thread %d\"}}", pid, tr.recs[i].tid, tr.recs[i].tid);
		}
		fputs(",\n", f);
		write_rec(f, &tr.recs[i], pid, tr.t0);
	}
	fputs("\n]}\n", f);
	/* A write that failed on the way (a full disk) leaves the error flag; the close flushes the rest. */
	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		ret = -(errno ? errno : EIO);
	if (fclose(f) && !ret)
		ret = -errno;
	free(tr.recs);
	tr.recs = NULL;
	return ret;
}

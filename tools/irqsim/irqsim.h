/* SPDX-License-Identifier: MIT */
/*
 * irqsim's shared model: the options, and what a run records (edges it
 * made, events the input client got, i2c transfers, reports, log lines).
 * run.c fills a struct irqsim_run; report.c, json.c and trace.c only read it
 * after the run, when no other thread touches it.
 */
#ifndef IRQSIM_H
#define IRQSIM_H

#include "../wait-mode.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "uirq/i2c.h"
#include "uirq/lockdep.h"
#include "uirq/sim.h"

/* Exit statuses (docs/irqsim.1, EXIT STATUS). */
enum { IRQSIM_EXIT_CLEAN = 0, IRQSIM_EXIT_PROBLEMS = 1, IRQSIM_EXIT_USAGE = 2 };

struct watchdog;

struct irqsim_opts {
	const char *scenario_file;	/* --scenario */
	const char *builtin;		/* the built-in run when no file is given */
	bool legacy;			/* the seed patch's pwrbutton */
	const struct irqsim_drivers *drivers;	/* --drivers: own (default) or upstream (drivers.h) */
	bool threadirqs;		/* forced threading */
	struct tool_wait wait;		/* --wait: every CPU's and handler thread's wait mode */
	bool json;			/* summary on stdout, no human output */
	unsigned long bus_hz;
	unsigned int cpus;
	const char *trace_file;
	double timeout_s;		/* whole run, watchdog */
	bool seeded;			/* --seed or --explore: the deterministic mode */
	uint64_t seed;			/* --seed N (--explore: the first seed) */
	enum uirq_sim_strategy strategy;	/* --strategy (default pct, depth 3) */
	unsigned int pct_depth;
	unsigned long explore;		/* --explore N: seeds to run (0: a single run) */
	bool shrink;			/* --shrink SEED: o->seed is the seed to shrink */
	const char *replay_file;	/* --replay FILE: strategy UIRQ_SIM_REPLAY (schedule.c) */
	struct irqsim_schedule *replay;	/* ... as read */
	const char *schedule_out;	/* --schedule-out FILE: write the run's schedule (--shrink: the result) */
	bool schedule_stacks;		/* ... with where each preemption happened (not for --shrink's trials) */
	int result_fd;			/* --result-fd N: the outcome line for --explore and --shrink (-1: none) */
	char **argv;			/* the command line, for the replay command */
	int argc;
};

/* A growable array whose appends may come from any thread. */
struct vec {
	pthread_mutex_t lock;
	void *items;
	size_t n, cap, size;
};
void vec_init(struct vec *v, size_t item_size);
/* Append a copy of item; false (and the item dropped) when memory runs out. */
bool vec_push(struct vec *v, const void *item);
void vec_free(struct vec *v);
#define VEC_AT(v, type, i) (&((type *)(v)->items)[i])

/* One edge the scenario made on PWRON. */
struct sim_edge {
	uint64_t t_ns;			/* CLOCK_MONOTONIC, just before the model saw it */
	bool pressed;
	bool bounce;			/* chatter: not judged for delivery */
	unsigned int src_line;
	uint64_t hold_ns;		/* presses of a hold: the planned hold */
	/* filled by the matcher (latency.c) */
	unsigned int events;		/* KEY_POWER events with this edge's value attributed to it */
	uint64_t event_ns;		/* the first one's stamp */
	uint64_t last_ns;		/* the last one's stamp */
	uint64_t rx_ns;			/* when the client read it */
	uint64_t wire_ns;		/* modelled bus time between the edge and the event */
};

/* One event the input client read. */
struct sim_event {
	uint64_t t_ns;			/* the event's stamp (CLOCK_MONOTONIC) */
	uint64_t rx_ns;			/* when the read returned */
	uint16_t type, code;
	int32_t value;
};

/* One i2c transfer (from the adapter's trace hook). */
struct sim_xfer {
	uint64_t start_ns, end_ns, wire_ns;
	int ret;
	int tid;
	uint16_t addr;
	int reg;			/* first byte written, -1 if none */
	bool read;
	uint16_t len;			/* payload bytes */
	/*
	 * A read of the button's level (STS_HW_CONDITIONS) that succeeded: how
	 * many edges had reached the chip when it read, so its level is edge
	 * edges_seen - 1's (latency.c); -1 for every other transfer.
	 */
	long edges_seen;
	bool injected;			/* failed by a fault the scenario injected */
};

/* One lockdep or might_sleep report. */
struct sim_report {
	int kind;
	char *headline;
	char *text;
};

/* One line of the drivers' log (or irqsim's own notes), in time order. */
struct sim_log {
	uint64_t t_ns;
	char *msg;
};

/* What the storm and shared verbs left behind, per INTC line. */
struct sim_line_result {
	unsigned int line, irq;
	bool storm;
	unsigned long edges;		/* storm: edges pulsed */
	unsigned long handled;		/* storm: the handler's invocations */
	bool threaded;			/* storm: its handler forced into a thread (--threadirqs) */
	unsigned long raised[2];	/* shared: events raised on dummy-primary, dummy-threaded */
	unsigned long served[2];
	unsigned long irqs;		/* interrupts taken */
	bool disabled;			/* the core disabled it ("nobody cared") */
	char *spurious;			/* /proc/irq/N/spurious */
};

/* An irq's count, taken before teardown frees the descriptors. */
struct sim_irqcount {
	unsigned int irq;
	unsigned long count;
};

/* A time the button's driver was unbound (scenario unbind ... bind): nobody reported the key. */
struct sim_unbound {
	uint64_t from_ns;		/* its remove began */
	uint64_t to_ns;			/* its probe ended; UINT64_MAX: not bound again */
};

/* One thread of the process seen at the end of the run. */
struct sim_thread {
	int tid;
	char name[20];
};

struct irqsim_run {
	const struct irqsim_opts *opts;
	struct scenario sc;
	uint64_t t0_ns;			/* "boot": times are shown relative to it */
	uint64_t end_ns;
	unsigned long bus_hz;
	unsigned int twl_irq, twl_base, pwron_irq;
	char input_name[64];
	int input_nr;

	struct vec edges, events, xfers, reports, logs;
	struct vec lines;		/* struct sim_line_result */
	struct vec threads;		/* struct sim_thread */
	struct vec irqcounts;		/* struct sim_irqcount, non-zero ones */
	struct vec unbound;		/* struct sim_unbound, in time order */
	char *proc_interrupts;
	struct uirq_i2c_stats i2c;
	uint64_t faults_injected;
	struct uirq_lockdep_stats lockdep;
	bool lockdep_on;
	bool watchdog_fired;
	unsigned long oopses;		/* handler threads killed by a fault (an "Oops:" in the log) */
	bool setup_failed;
	bool output_failed;		/* the trace file could not be written */
	unsigned int stopped_line;	/* the scenario line a signal stopped the run at (0: none) */
	struct watchdog *wd;		/* started by main.c, before the scenario is read */
	size_t sim_steps;		/* a --seed run: its scheduling decisions */
	uint64_t sim_hash;		/* ... and their hash */
};

/*
 * PCT draws its change points among the first k steps: about the steps of
 * the default scenario's run, so they fall across it - some 690 with one
 * CPU, of which 420 are the drivers' shared-memory accesses (sim/access.c)
 * and 270 uirq's synchronisation points.
 */
#define IRQSIM_PCT_HORIZON	700u


/* run.c: everything from CPUs up to teardown; 0, or -1 when the board could not be built. */
int irqsim_run(struct irqsim_run *r);
/* judge.c: the exit status the run earned. */
int irqsim_verdict(const struct irqsim_run *r);

/* latency.c: attribute events to edges; summaries over delivered edges. */
struct lat_summary {
	size_t n;
	double min_us, median_us, p99_us, max_us;
};
void latency_match(struct irqsim_run *r);
/* minus_bus: subtract each edge's modelled wire time; to_client: up to the read, not the stamp. */
void latency_summary(const struct irqsim_run *r, bool minus_bus, bool to_client, struct lat_summary *s);
/*
 * How the scenario's edges were delivered (judge.c says how each is
 * decided).  The judged ones are ok, lost, duplicated, wrong, or excused:
 * unread, no_change or faulted.  Apart from the edges: events no status
 * read explains (unexplained).
 */
struct delivery {
	size_t judged;		/* edges with the button still for 2 ms on both sides */
	size_t ok;		/* ... answered by exactly one event (bounced: ending at the final level) */
	size_t lost, duplicated, wrong;
	size_t unread;		/* ... no event: the bus was busy the whole time the level lasted */
	size_t no_change;	/* ... no event: every read of it found the key already at its level */
	size_t faulted;		/* ... not delivered, beside a transfer that failed by an injected fault */
	size_t unbound;		/* ... not delivered, the button's driver unbound at or near its time */
	size_t short_edges;	/* edges of presses or gaps under 2 ms: not judged */
	size_t short_seen;	/* ... that got an event anyway */
	size_t unexplained;	/* KEY_POWER events at a level the driver's last status read did not return */
};
void latency_delivery(const struct irqsim_run *r, struct delivery *d);
/* judge.c: whether a storm or shared line kept its promise (why not into why, when it did not). */
bool line_kept_promise(const struct sim_line_result *l, char *why, size_t len);

/* report.c: the human report at the end. */
void report_print(FILE *f, const struct irqsim_run *r);
/* The live lines while running (events, log, notes). */
void report_event_line(const struct irqsim_run *r, const struct sim_event *ev);
void report_log_line(const struct irqsim_run *r, uint64_t t_ns, const char *msg);

/* json.c */
void json_string(FILE *f, const char *s);
/* The run as JSON; exit_status is the verdict the caller had from irqsim_verdict(). */
void json_print(FILE *f, const struct irqsim_run *r, int exit_status);

/* trace.c: Chrome trace-event recording (hooks) and output. */
/* Open (create, truncate) the file before the run, so a bad path fails at once; 0 or -errno. */
int trace_open(const char *path);
/* Start recording into the opened file; 0 or -ENOMEM. */
int trace_start(uint64_t t0_ns);
/* An instant event on the calling thread (scenario actions, input events). */
void trace_instant(const char *cat, const char *name, uint64_t t_ns, int value);
/* A finished i2c transfer. */
void trace_xfer(const struct sim_xfer *x);
/* Stop recording; write and close the file (thread names from r); 0 or -errno. */
int trace_finish(const struct irqsim_run *r);

/* util */
/* uirq's clock (virtual for the tasks of a --seed run); wall_ns(): CLOCK_MONOTONIC always. */
uint64_t now_ns(void);
uint64_t wall_ns(void);
/* Sleeps end early once irqsim_stop_signal is set. */
void sleep_until_ns(uint64_t t);
/*
 * Why the run stops at its next action: SIGINT or SIGTERM (main.c's signal
 * thread), or IRQSIM_STOP_OUTPUT when a write to standard output failed
 * (out_flush(): a closed pipe, as under "| head", or a full disk).  0 while
 * it goes on.
 */
extern _Atomic int irqsim_stop_signal;
#define IRQSIM_STOP_OUTPUT	SIGPIPE
/* The cause, for messages: "SIGINT", "SIGTERM" or "a failed write to standard output". */
const char *irqsim_stop_cause(void);
int gettid_int(void);
/*
 * Flush stdout (the live lines); the first failure stops the run
 * (IRQSIM_STOP_OUTPUT): nobody reads what follows.  out_error(): 0, or why
 * a write to stdout failed (the first failure).
 */
void out_flush(void);
int out_error(void);
/*
 * What is written while the scenario runs - the evtest and log lines,
 * lockdep's report texts - goes through out_printf().  In a --seed run
 * (out_hold(), before the first task starts) it waits in memory until the
 * run has ended and the watchdog has stopped (out_release()): written as it
 * comes, a reader of the pipe that does not keep up (or a terminal stopped
 * with Ctrl-S) would block the task writing it while that task holds the
 * scheduler's token, and the wall time that costs would reach the verdict
 * - the scheduler's stall check after 10 s, --timeout.  Same bytes, later.
 * A free run writes (and flushes) at once.
 */
void out_hold(void);
void out_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_release(void);
char *xstrdup(const char *s);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The generic IRQ layer (genirq): descriptors, chips, flow handlers and the
 * request/free/enable/disable API with threaded handlers, as mainline Linux
 * has them.  Kernel names are in include/compat/linux/{irq,interrupt}.h.
 *
 * Execution model (see docs/design.md): CPUs are uirq threads that take
 * interrupts and run flow handlers and primary handlers in hard-irq context;
 * every threaded action gets its own handler thread "irq/N-name".
 *
 * Where user space forces a difference from the kernel it is said next to
 * the function.
 *
 * Errors, for every installed uirq header, stated here once: a
 * function returning int returns 0 on success and a negative errno value
 * (-EINVAL, -ENOMEM, ...) on failure, as the kernel's do; it never sets
 * errno and never returns -1 for "see errno".  What a call creates comes
 * back through its last argument (a pointer to the caller's pointer), never
 * as the return value.  The exceptions say so next to the function: calls
 * that return a number (an irq, a count, a file descriptor) return it as a
 * value >= 0 or a negative errno; trylocks return 1 when they took the lock
 * and 0 otherwise; functions returning bool answer a question.  A function
 * returning a pointer is a lookup: it creates nothing and returns NULL when
 * there is nothing to find.  Each int-returning function's comment names
 * its errors.
 */
#ifndef UIRQ_IRQ_H
#define UIRQ_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uirq/mutex.h"
#include "uirq/spinlock.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- return values of handlers ---- */
typedef enum uirq_irqreturn {
	UIRQ_IRQ_NONE = 0,
	UIRQ_IRQ_HANDLED = 1 << 0,
	UIRQ_IRQ_WAKE_THREAD = 1 << 1,
} uirq_irqreturn_t;

typedef uirq_irqreturn_t (*uirq_irq_handler_t)(int irq, void *dev_id);

/* ---- request flags: the kernel's values ---- */
#define UIRQF_TRIGGER_NONE	0x00000000u
#define UIRQF_TRIGGER_RISING	0x00000001u
#define UIRQF_TRIGGER_FALLING	0x00000002u
#define UIRQF_TRIGGER_HIGH	0x00000004u
#define UIRQF_TRIGGER_LOW	0x00000008u
#define UIRQF_TRIGGER_MASK	0x0000000fu
#define UIRQF_SHARED		0x00000080u
#define UIRQF_PROBE_SHARED	0x00000100u
#define UIRQF_PERCPU		0x00000400u
#define UIRQF_NOBALANCING	0x00000800u
#define UIRQF_IRQPOLL		0x00001000u
#define UIRQF_ONESHOT		0x00002000u
#define UIRQF_NO_SUSPEND	0x00004000u
#define UIRQF_NO_THREAD		0x00010000u
#define UIRQF_NO_AUTOEN		0x00080000u
#define UIRQF_NO_DEBUG		0x00100000u
#define UIRQF_COND_ONESHOT	0x00200000u

/* ---- line types (irq_set_irq_type) ---- */
#define UIRQ_TYPE_NONE		0x0u
#define UIRQ_TYPE_EDGE_RISING	0x1u
#define UIRQ_TYPE_EDGE_FALLING	0x2u
#define UIRQ_TYPE_EDGE_BOTH	0x3u
#define UIRQ_TYPE_LEVEL_HIGH	0x4u
#define UIRQ_TYPE_LEVEL_LOW	0x8u
#define UIRQ_TYPE_LEVEL_MASK	0xcu
#define UIRQ_TYPE_SENSE_MASK	0xfu

/* irq_set_type() results of a chip (the kernel's IRQ_SET_MASK_OK*); negative: -errno */
enum { UIRQ_IRQ_SET_MASK_OK = 0, UIRQ_IRQ_SET_MASK_OK_NOCOPY = 1, UIRQ_IRQ_SET_MASK_OK_DONE = 2 };

/* request_any_context_irq() results */
enum { UIRQC_IS_HARDIRQ = 0, UIRQC_IS_NESTED = 1 };

/*
 * A line a board wires to nothing: the request calls refuse it with
 * -ENOTCONN (not -EINVAL), so a driver can tell "no interrupt here" from a
 * mistake, as the kernel's IRQ_NOTCONNECTED.
 */
#define UIRQ_IRQ_NOTCONNECTED	(1u << 31)

/* ---- per-line status settings (irq_set_status_flags / irq_modify_status) ---- */
#define UIRQ_NOREQUEST		(1u << 11)
#define UIRQ_NOAUTOEN		(1u << 12)
#define UIRQ_NOTHREAD		(1u << 16)
#define UIRQ_NESTED_THREAD	(1u << 15)

/* ---- chip flags ---- */
#define UIRQCHIP_ONESHOT_SAFE	(1u << 5)
#define UIRQCHIP_EOI_THREADED	(1u << 6)

#define UIRQ_MAX_CPUS		64

struct uirq_irq_desc;
struct uirq_irq_domain;

/* What a chip callback is given: the line as its controller sees it. */
struct uirq_irq_data {
	unsigned int irq;
	unsigned long hwirq;
	struct uirq_irq_chip *chip;
	void *chip_data;
	struct uirq_irq_domain *domain;
};

/*
 * An interrupt controller.  Every callback is optional.  mask/unmask/ack/eoi
 * run in hard-irq context with the descriptor lock held and must not sleep;
 * irq_bus_lock/irq_bus_sync_unlock bracket every process-context change
 * (request, free, enable, disable, set_type) so a chip behind a slow bus can
 * keep shadows in the fast callbacks and write them out in sync_unlock.
 */
struct uirq_irq_chip {
	const char *name;
	unsigned int (*irq_startup)(struct uirq_irq_data *d);
	void (*irq_shutdown)(struct uirq_irq_data *d);
	void (*irq_enable)(struct uirq_irq_data *d);
	void (*irq_disable)(struct uirq_irq_data *d);
	void (*irq_ack)(struct uirq_irq_data *d);
	void (*irq_mask)(struct uirq_irq_data *d);
	void (*irq_mask_ack)(struct uirq_irq_data *d);
	void (*irq_unmask)(struct uirq_irq_data *d);
	void (*irq_eoi)(struct uirq_irq_data *d);
	int (*irq_set_type)(struct uirq_irq_data *d, unsigned int type);
	int (*irq_retrigger)(struct uirq_irq_data *d);
	void (*irq_bus_lock)(struct uirq_irq_data *d);
	void (*irq_bus_sync_unlock)(struct uirq_irq_data *d);
	/*
	 * Called (bus-locked, may sleep) when the line's first handler is
	 * requested - an error refuses the request - and after its last one
	 * is freed: a GPIO controller marks the pin as used for an interrupt.
	 */
	int (*irq_request_resources)(struct uirq_irq_data *d);
	void (*irq_release_resources)(struct uirq_irq_data *d);
	/* Wake-up settings: a process has no system suspend, so the core never calls it (kept for drivers that set it). */
	int (*irq_set_wake)(struct uirq_irq_data *d, unsigned int on);
	unsigned long flags;
};

typedef void (*uirq_irq_flow_handler_t)(struct uirq_irq_desc *desc);

/* ---- descriptors and domains ---- */

/* Allocate cnt consecutive descriptors (irq numbers from 1 up); returns the first or -errno. */
int uirq_irq_alloc_descs(int irq, unsigned int from, unsigned int cnt);
/* Free descriptors allocated with uirq_irq_alloc_descs(); lines must be free. */
void uirq_irq_free_descs(unsigned int from, unsigned int cnt);
/* The descriptor of an irq number, or NULL. */
struct uirq_irq_desc *uirq_irq_to_desc(unsigned int irq);
/* One more than the highest irq number ever given a descriptor (the kernel's irq_get_nr_irqs()). */
unsigned int uirq_irq_get_nr_irqs(void);
/* The chip data of a line (irq_data.chip_data). */
struct uirq_irq_data *uirq_irq_get_irq_data(unsigned int irq);

/* Set a line's chip and flow handler (handle NULL leaves the line unusable). */
void uirq_irq_set_chip_and_handler_name(unsigned int irq, struct uirq_irq_chip *chip,
					uirq_irq_flow_handler_t handle, const char *name);
/* Set a line's chip only: 0, or -EINVAL for no such irq. */
int uirq_irq_set_chip(unsigned int irq, struct uirq_irq_chip *chip);
/* Set a line's chip data: 0, or -EINVAL for no such irq. */
int uirq_irq_set_chip_data(unsigned int irq, void *data);
/* Set a line's flow handler. */
void uirq_irq_set_handler(unsigned int irq, uirq_irq_flow_handler_t handle);
/* Install a chained (demultiplexing) flow handler: line NOREQUEST|NOTHREAD, started at once. */
void uirq_irq_set_chained_handler_and_data(unsigned int irq, uirq_irq_flow_handler_t handle,
					   void *data);
/* The handler data of a chained line. */
void *uirq_irq_desc_get_handler_data(struct uirq_irq_desc *desc);
/* Set a line's handler data (the kernel's irq_set_handler_data()): 0, or -EINVAL for no such irq. */
int uirq_irq_set_handler_data(unsigned int irq, void *data);
/* A line's handler data, or NULL. */
void *uirq_irq_get_handler_data(unsigned int irq);
/* Mark a line's handlers as nested: their thread_fn runs in the parent's thread. */
void uirq_irq_set_nested_thread(unsigned int irq, bool nest);
/* Record the parent line, through which a nested line is resent: 0, or -EINVAL for no such irq. */
int uirq_irq_set_parent(unsigned int irq, int parent_irq);
/* Clear then set UIRQ_NOREQUEST/NOAUTOEN/NOTHREAD/NESTED_THREAD settings. */
void uirq_irq_modify_status(unsigned int irq, unsigned int clr, unsigned int set);

/*
 * A linear hwirq -> irq map for one controller (like a linear irq domain)
 * into *out; -EINVAL (size 0), -ENOMEM.
 */
int uirq_irq_domain_add_linear(const char *name, unsigned int size, struct uirq_irq_chip *chip,
			       void *chip_data, uirq_irq_flow_handler_t handle,
			       struct uirq_irq_domain **out);
/* A controller's own setup per mapping, as the kernel's irq_domain_ops. */
struct uirq_irq_domain_ops {
	/* Set up the new line virq for hw (chip, handler, data); non-zero refuses the mapping. */
	int (*map)(struct uirq_irq_domain *d, unsigned int virq, unsigned long hw);
	/* Undo map() before the line's descriptor is freed. */
	void (*unmap)(struct uirq_irq_domain *d, unsigned int virq);
};
/*
 * A linear domain whose mappings ops->map() sets up (irq_domain_add_linear)
 * into *out: 0, or -EINVAL (size 0), -ENOMEM.
 */
int uirq_irq_domain_create_linear(const char *name, unsigned int size,
				  const struct uirq_irq_domain_ops *ops, void *host_data,
				  struct uirq_irq_domain **out);
/*
 * A legacy domain (irq_domain_add_legacy): size lines the caller allocated
 * already, first_irq.., mapped now to hwirqs first_hwirq.., ops->map() (if
 * any) called for each.  Removing the domain leaves the descriptors to the
 * caller.  -EINVAL (size 0 or a line missing), -ENOMEM, or map()'s error.
 */
int uirq_irq_domain_create_legacy(const char *name, unsigned int size, unsigned int first_irq,
				  unsigned long first_hwirq, const struct uirq_irq_domain_ops *ops,
				  void *host_data, struct uirq_irq_domain **out);
/* The host_data given at creation (the kernel's d->host_data). */
void *uirq_irq_domain_get_host_data(struct uirq_irq_domain *d);
/* Undo one mapping made by uirq_irq_create_mapping(); the line must be free. */
void uirq_irq_dispose_mapping(unsigned int virq);

/* Map hwirq to a new descriptor (or return the existing mapping); 0 on failure. */
unsigned int uirq_irq_create_mapping(struct uirq_irq_domain *d, unsigned long hwirq);
/* The irq mapped to hwirq, or 0. */
unsigned int uirq_irq_find_mapping(struct uirq_irq_domain *d, unsigned long hwirq);
/* Dispose of every mapping and the domain. */
void uirq_irq_domain_remove(struct uirq_irq_domain *d);

/* ---- flow handlers ---- */
void uirq_handle_level_irq(struct uirq_irq_desc *desc);
void uirq_handle_edge_irq(struct uirq_irq_desc *desc);
void uirq_handle_fasteoi_irq(struct uirq_irq_desc *desc);
void uirq_handle_simple_irq(struct uirq_irq_desc *desc);
/* Run a nested line's thread functions in the calling (parent handler) thread; may sleep. */
void uirq_handle_nested_irq(unsigned int irq);
/* Run a line's flow handler from hard-irq context (a demultiplexer's child); -EINVAL if unknown. */
int uirq_generic_handle_irq(unsigned int irq);
/* Chained handlers call these around their demultiplexing. */
void uirq_chained_irq_enter(struct uirq_irq_chip *chip, struct uirq_irq_desc *desc);
void uirq_chained_irq_exit(struct uirq_irq_chip *chip, struct uirq_irq_desc *desc);
/* The chip and irq_data of a descriptor (for chained handlers). */
struct uirq_irq_chip *uirq_irq_desc_get_chip(struct uirq_irq_desc *desc);
struct uirq_irq_data *uirq_irq_desc_get_irq_data(struct uirq_irq_desc *desc);
/*
 * For a controller's flow wrapper that drops a raise whose input is quiet
 * (deasserted, masked): true when this run is a software resend (enable_irq
 * of a nested child, resent through its parent), which the kernel delivers
 * by calling the flow handler directly, whatever the input says.  Call it
 * on the dropping path only.
 */
bool uirq_irq_desc_in_resend(struct uirq_irq_desc *desc);

/* ---- request and free ---- */

/*
 * Install a handler; handler NULL installs the default primary (needs
 * ONESHOT).  0, or -ENOTCONN (UIRQ_IRQ_NOTCONNECTED), -EINVAL (no such irq,
 * a NOREQUEST line, bad flags, no handler at all, a nested line without
 * thread_fn, handler NULL without ONESHOT), -EBUSY (the line is taken and
 * the two do not both share it with matching flags, or its ONESHOT bits
 * are used up), -ENOSYS (no chip), -ENOMEM, or the error creating the
 * handler thread.
 */
int uirq_request_threaded_irq(unsigned int irq, uirq_irq_handler_t handler,
			      uirq_irq_handler_t thread_fn, unsigned long flags,
			      const char *name, void *dev_id);
/* Install a primary-only handler: uirq_request_threaded_irq() with thread_fn NULL, its errors. */
int uirq_request_irq(unsigned int irq, uirq_irq_handler_t handler, unsigned long flags,
		     const char *name, void *dev_id);
/* Threaded on nested lines (returns UIRQC_IS_NESTED), else hard-irq (UIRQC_IS_HARDIRQ); or -errno. */
int uirq_request_any_context_irq(unsigned int irq, uirq_irq_handler_t handler,
				 unsigned long flags, const char *name, void *dev_id);
/* Remove the action of dev_id, waiting for its handlers; returns its name (NULL if none). */
const char *uirq_free_irq(unsigned int irq, void *dev_id);

/* ---- enable, disable, synchronize ---- */

/* Disable (depth++) without waiting for running handlers. */
void uirq_disable_irq_nosync(unsigned int irq);
/* Disable and wait for running handlers, threads included (may sleep). */
void uirq_disable_irq(unsigned int irq);
/* Disable and wait for hard-irq handlers only; false if a thread is still active. */
bool uirq_disable_hardirq(unsigned int irq);
/* depth--; at 0 the line runs again and a missed edge is replayed. */
void uirq_enable_irq(unsigned int irq);
/* Wait until no hard-irq handler of the line runs. */
bool uirq_synchronize_hardirq(unsigned int irq);
/* Wait until no handler of the line runs, threads included (may sleep). */
void uirq_synchronize_irq(unsigned int irq);
/* Set the trigger type through the chip; -EINVAL if the chip refuses. */
int uirq_irq_set_irq_type(unsigned int irq, unsigned int type);
/* Move the line (and its handler threads) to the first CPU in mask; -EINVAL if none. */
int uirq_irq_set_affinity(unsigned int irq, uint64_t cpumask);
/* Wake the thread of dev_id's action as a primary handler returning IRQ_WAKE_THREAD would. */
void uirq_irq_wake_thread(unsigned int irq, void *dev_id);
/*
 * Set the SCHED_FIFO priority of dev_id's handler thread (the kernel's
 * default is 50; 0 is SCHED_OTHER).  0, or -EINVAL (no such irq, prio not
 * in 0..99, no action of dev_id or it has no thread), -EPERM (no right to
 * real-time scheduling) or pthread_setschedparam()'s other errors.
 */
int uirq_irq_set_thread_priority(unsigned int irq, void *dev_id, int prio);

/* Line state queries; in a chip callback (desc->lock held) they cannot change under the caller. */
/* Whether a handler is installed on the line (the kernel's irq_has_action()). */
bool uirq_irq_has_action(unsigned int irq);
/* Whether the line is enabled (not IRQD_IRQ_DISABLED). */
bool uirq_irq_is_enabled(unsigned int irq);
/* Whether a flow is handling the line right now (the kernel's irqd_irq_inprogress()). */
bool uirq_irq_in_progress(unsigned int irq);
unsigned int uirq_irq_get_depth(unsigned int irq);
unsigned int uirq_irq_get_trigger_type(unsigned int irq);

/* ---- raising interrupts (used by interrupt sources) ---- */

/*
 * Deliver the line to its CPU: the CPU runs the flow handler in hard-irq
 * context.  0 (also when the line was pending already: the raises
 * coalesce), or -EINVAL for no such irq.
 */
int uirq_irq_raise(unsigned int irq);

/* ---- CPUs ---- */

/*
 * Real file descriptors as lines: the CPU serving irq watches fd and, when
 * it becomes readable, runs the line's flow handler right there (hard-irq
 * context, no queue hop).  The watch is one-shot: after each delivery the
 * fd is not delivered again until uirq_cpu_rearm_fd(), which the fd's chip
 * calls from its ack/unmask callbacks (descriptor lock held).  Readiness
 * that arrives while the watch is disarmed is remembered and delivered
 * after the rearm if the fd is still readable then: nothing is lost, nothing
 * is delivered empty.  Rearming is lock-free and makes no system call (one
 * epoll_ctl() when readiness was remembered), so it is fine in hard-irq
 * context.  Moving the line's affinity moves the watch.  watch/unwatch are
 * process context only.  0, or -EINVAL (no such irq), -EBADF (fd < 0),
 * -EBUSY (the line has a watch already), -ENOMEM, or epoll's error.
 */
int uirq_cpu_watch_fd(unsigned int irq, int fd);
/*
 * The process itself made the line's fd readable (an eventfd line's raise).
 * In the deterministic mode (uirq/sim.h), where no epoll watches the fd -
 * the scheduler could not see it - this tells the line's CPU to look, and
 * is a scheduling point, like raising a line; a write the CPU is not told
 * of is seen only when it next goes idle.  Outside the mode epoll sees the
 * write and this does nothing.  0, or -EINVAL for an irq without a watch.
 */
int uirq_cpu_fd_written(unsigned int irq);
/*
 * Watch the line's fd again (after a delivery); any context, lock-free.
 * unread: the chip left the delivered readiness unread (a level nobody
 * served), so the fd is looked at again and delivered if still readable.
 */
void uirq_cpu_rearm_fd(unsigned int irq, bool unread);
/* Stop watching the line's fd (the fd is not closed); waits for a delivery in progress. */
void uirq_cpu_unwatch_fd(unsigned int irq);

/*
 * CPU configuration.  A zero-initialised config is one CPU, nothing pinned,
 * no forced threading.  Pinning is explicit: pin[] is read only when pinned
 * is true; then CPU i runs on host core pin[i], or anywhere when pin[i] is
 * -1.  A pinned core must be online and usable by the process (its cpuset);
 * the affinity of the thread calling uirq_cpus_start() does not matter (a
 * caller pinned to core 0 may start a CPU on core 1).  Otherwise -EINVAL.
 */
struct uirq_cpu_config {
	unsigned int nr_cpus;		/* 0: 1 CPU */
	bool pinned;			/* false: no CPU is pinned, pin[] is ignored */
	int pin[UIRQ_MAX_CPUS];		/* with pinned: host core of CPU i; -1: that CPU not pinned */
	bool threadirqs;		/* forced threading (the threadirqs boot option) */
};

/*
 * Start the CPUs (NULL: one CPU, no pinning, no forced threading).
 * A CPU whose pending queue runs empty busy-polls it for a short, adaptive
 * time (0 to UIRQ_CPU_POLL_MAX_NS, grown only while software raises keep
 * arriving within that time of the CPU going idle, shrunk otherwise) before
 * it sleeps; a raise to a polling CPU costs no system call.  An idle CPU does
 * not poll.  Readiness of fds is not polled: it wakes the sleeping CPU.
 * 0, or -EINVAL (nr_cpus above UIRQ_MAX_CPUS, a pinned core not usable),
 * -EBUSY (the CPUs run already), or the error creating an epoll instance,
 * eventfd or thread (then no CPU runs).
 */
int uirq_cpus_start(const struct uirq_cpu_config *cfg);
#define UIRQ_CPU_POLL_MAX_NS	8000u
/*
 * How a CPU waits for its next interrupt once it has none to run, and how
 * a handler thread waits for IRQ_WAKE_THREAD - latency against CPU time:
 *   UIRQ_WAIT_BLOCKING  (the default) sleep: no CPU time while idle; an
 *       interrupt then costs the kernel's wake-up (epoll or futex: about
 *       1 us on bare metal, tens of us in a VM).  A CPU first polls its
 *       pending queue for the short self-tuned window uirq_cpus_start()
 *       describes, which software raises alone grow.
 *   UIRQ_WAIT_ADAPTIVE  poll for up to poll_ns before sleeping - a CPU its
 *       pending queue and its fds (a system call a look), a thread its
 *       wake flag - so an interrupt within that time of the last costs no
 *       wake-up; at most poll_ns of CPU time per idle period.
 *   UIRQ_WAIT_POLL  never sleep: the lowest latency, a host core 100 %
 *       busy for good (pin the CPU, uirq_cpu_config.pin, and leave it a core).
 *       A handler thread runs SCHED_FIFO when permitted: polling, it keeps
 *       anything of normal priority off its core - uirq's CPU included -
 *       but for the kernel's real-time throttling share.
 * In the deterministic mode (uirq/sim.h) a poll is a scheduling point at
 * which other tasks may run before the waiter sleeps, not a spin.
 */
enum uirq_wait_mode { UIRQ_WAIT_BLOCKING, UIRQ_WAIT_ADAPTIVE, UIRQ_WAIT_POLL };
#define UIRQ_WAIT_ADAPTIVE_NS	50000u	/* adaptive's bound when poll_ns is 0 (bench/README.md says why) */
/*
 * Set CPU cpu's mode, at any time (it applies at the CPU's next idle; a
 * sleeping CPU is woken to take it up) and before uirq_cpus_start(); kept
 * across uirq_cpus_stop() and start.  poll_ns: adaptive's bound (0: the
 * default); 0 for the other modes.  0, or -EINVAL (cpu at or above
 * UIRQ_MAX_CPUS, an unknown mode, poll_ns with a mode other than adaptive).
 */
int uirq_cpu_set_wait(unsigned int cpu, enum uirq_wait_mode mode, unsigned int poll_ns);
/* CPU cpu's mode and adaptive bound (0 for the other modes): 0, or -EINVAL (cpu out of range). */
int uirq_cpu_get_wait(unsigned int cpu, enum uirq_wait_mode *mode, unsigned int *poll_ns);
/*
 * Set how the handler threads of line irq wait for IRQ_WAKE_THREAD, those
 * running and those requested later, until the line's descriptor is freed.
 * The same modes and errors as uirq_cpu_set_wait(), and -EINVAL for an irq
 * without a descriptor.
 */
int uirq_irq_set_thread_wait(unsigned int irq, enum uirq_wait_mode mode, unsigned int poll_ns);
/* Stop the CPUs after the lines they are running; lines must be freed first. */
void uirq_cpus_stop(void);
/* Number of CPUs running. */
unsigned int uirq_num_cpus(void);
/* Whether forced threading is on. */
bool uirq_force_irqthreads(void);
/* Switch forced threading at run time; it applies to handlers requested afterwards. */
void uirq_set_force_irqthreads(bool on);

/* ---- statistics and /proc views ---- */

/*
 * Interrupt counts.  Lock-free relaxed reads: callable from any context
 * (hard-irq handlers, threads, with locks held); the value may lag
 * interrupts being taken on other CPUs at that moment.  0 for an unknown irq.
 */
/* Total interrupts the line took on cpu. */
unsigned long uirq_kstat_irqs_cpu(unsigned int irq, unsigned int cpu);
/* Total interrupts the line took on every CPU. */
unsigned long uirq_kstat_irqs(unsigned int irq);
/* Print the /proc/interrupts layout of every line with an action. */
void uirq_show_interrupts(FILE *f);
/* Print /proc/irq/N/spurious for one line: 0, or -EINVAL for no such irq. */
int uirq_show_spurious(FILE *f, unsigned int irq);
/* Bytes one line costs without actions (descriptor + per-CPU counters at the running CPU count). */
size_t uirq_irq_line_footprint(void);
/* Bytes one action costs (its handler thread's stack not counted). */
size_t uirq_irq_action_footprint(void);

/* ---- faults and hung handler threads (core/fault.c, core/hung.c) ---- */

/*
 * Containment lives in core/fault.c.  A thread_fn that faults (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL) on its handler thread is stopped there: its action
 * is dead (never run again, primary included), its line disabled - or, on a
 * shared line with live actions left, left to them - and the kernel's oops
 * report, with a backtrace, goes to the log (uirq/printk.h).  free_irq()
 * frees a dead action as any other.  Locks the thread_fn held stay held, as
 * in the kernel (lockdep reports them).  A fault in hard-irq context (primary
 * handlers, flows) or in uirq's own code is reported and the process dies
 * of that signal: there is no run to go back to.  uirq installs its handlers
 * for those four signals at the first threaded request or uirq_cpus_start();
 * faults of the program's own threads go to the handler found before (a
 * sanitizer's), else they are reported and fatal as well.
 */
/* Install the fault handlers if not yet; true while they are (a program or a sanitizer can replace them). */
bool uirq_irq_fault_containment(void);
/* Whether the action of dev_id on irq was killed by a fault in its thread_fn. */
bool uirq_irq_action_is_dead(unsigned int irq, void *dev_id);

/*
 * The hung-task check for handler threads (core/hung.c): one run of a
 * thread_fn lasting longer than ms is reported once ("INFO: task irq/N-name
 * blocked for more than S seconds"), and again for each later run that does.
 * 0 (the default) turns it off.  The watchdog runs while the CPUs do.
 * Returns 0, or -errno if the watchdog thread cannot start.
 */
int uirq_irq_set_thread_deadline_ms(unsigned int ms);
/* The deadline in force, 0 when off. */
unsigned int uirq_irq_get_thread_deadline_ms(void);

/* ---- trace points (core/trace.c), for tools such as irqsim --trace ---- */

enum uirq_irq_trace_point {
	UIRQ_TRACE_HARDIRQ_ENTRY,	/* a CPU takes irq: before its flow handler (name NULL) */
	UIRQ_TRACE_HARDIRQ_EXIT,	/* ... after it */
	UIRQ_TRACE_THREAD_ENTRY,	/* a handler thread runs the thread_fn of action name */
	UIRQ_TRACE_THREAD_EXIT,
	UIRQ_TRACE_NESTED_ENTRY,	/* handle_nested_irq(irq) runs the thread_fn of action name in the caller */
	UIRQ_TRACE_NESTED_EXIT,
};

/*
 * Called on the thread concerned; cpu is the uirq CPU for hard-irq points
 * (-1 on other threads).  Runs in hard-irq context for HARDIRQ points: it
 * must not sleep or take uirq locks.
 */
typedef void (*uirq_irq_trace_fn)(enum uirq_irq_trace_point point, unsigned int irq, int cpu,
				  const char *name, void *arg);
/* Install (NULL: remove) the trace function; set it before interrupts flow, clear it after. */
void uirq_irq_set_trace(uirq_irq_trace_fn fn, void *arg);

#ifdef __cplusplus
}
#endif
#endif

// SPDX-License-Identifier: MIT
/*
 * The driver API (kernel/irq/manage.c): request/free, enable/disable,
 * synchronize, trigger type, affinity, and the handler threads with their
 * oneshot finalize and forced threading.  A thread_fn's faults are
 * contained around its call (fault.c); a dead action's thread only keeps
 * the bookkeeping of wakes that raced with its death.
 *
 * Lock order: desc->request_mutex -> chip bus lock -> desc->lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uirq/might_sleep.h"

#include "internals.h"

#define IRQ_THREAD_PRIO 50	/* MAX_RT_PRIO / 2, as sched_set_fifo() */

/* ---- disable, enable, synchronize ---- */


static void __synchronize_hardirq(struct uirq_irq_desc *desc)
{
	unsigned int round = 0;
	bool inprogress;
	unsigned long flags;

	do {
		while (irqd_irq_inprogress(desc))
			uirq_backoff(&round);
		uirq_spin_lock_irqsave(&desc->lock, flags);
		inprogress = irqd_irq_inprogress(desc);
		uirq_spin_unlock_irqrestore(&desc->lock, flags);
	} while (inprogress);
}

/* Until no thread runs but the caller's own runs (own: selfwait.c). */
static void wait_for_threads(struct uirq_irq_desc *desc, int own)
{
	atomic_fetch_add(&desc->threads_active, THREADS_WAITER);
	for (;;) {
		int v = atomic_load(&desc->threads_active);

		if ((v & THREADS_RUNNING_MASK) <= own)
			break;
		uirq_futex_wait(&desc->threads_active, (unsigned int)v);
	}
	atomic_fetch_sub(&desc->threads_active, THREADS_WAITER);
}

/* A CPU's wakes of this line's threads, held until its hard irq was over, are done (but the caller's). */
static void wait_for_kicks(struct uirq_irq_desc *desc)
{
	int own = irq_kicks_held(desc);
	unsigned int round = 0;

	while (atomic_load_explicit(&desc->kicks_deferred, memory_order_acquire) > own)
		uirq_backoff(&round);
}

/* The caller is a handler of the line: a plain wait would wait for itself (selfwait.c). */
static bool self_wait(struct uirq_irq_desc *desc)
{
	return irq_self_hard(desc) || irq_self_runs(desc) > 0;
}

/*
 * Everybody else's handlers of the line are done.  From the line's own hard
 * handler the threads are not waited for either: a ONESHOT thread's finalize
 * waits for that very hard irq to end.
 */
static void __synchronize_irq(struct uirq_irq_desc *desc)
{
	bool hard = irq_self_hard(desc);

	if (!hard)
		__synchronize_hardirq(desc);
	wait_for_kicks(desc);
	if (!hard)
		wait_for_threads(desc, irq_self_runs(desc));
}

bool uirq_synchronize_hardirq(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return true;
	if (irq_self_hard(desc))
		irq_self_wait_report("synchronize_hardirq", desc);
	else
		__synchronize_hardirq(desc);
	return !(atomic_load(&desc->threads_active) & THREADS_RUNNING_MASK);
}

static void synchronize_irq_as(const char *call, struct uirq_irq_desc *desc)
{
	if (self_wait(desc))
		irq_self_wait_report(call, desc);
	__synchronize_irq(desc);
}

void uirq_synchronize_irq(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	uirq_might_sleep();
	if (desc)
		synchronize_irq_as("synchronize_irq", desc);
}

void __disable_irq(struct uirq_irq_desc *desc)
{
	if (desc->depth == USHRT_MAX) {
		UIRQ_WARN("irq %u: disable depth overflow\n", desc->irq_data.irq);
		return;
	}
	if (!desc->depth++)
		irq_disable(desc);
}

void uirq_disable_irq_nosync(unsigned int irq)
{
	unsigned long flags;
	struct uirq_irq_desc *desc = irq_get_desc_buslock(irq, &flags);

	if (!desc)
		return;
	__disable_irq(desc);
	irq_put_desc_busunlock(desc, flags);
}

void uirq_disable_irq(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	uirq_might_sleep();
	if (!desc)
		return;
	uirq_disable_irq_nosync(irq);
	synchronize_irq_as("disable_irq", desc);
}

bool uirq_disable_hardirq(unsigned int irq)
{
	if (!irq_to_desc(irq))
		return false;
	uirq_disable_irq_nosync(irq);
	return uirq_synchronize_hardirq(irq);
}

void __enable_irq(struct uirq_irq_desc *desc)
{
	switch (desc->depth) {
	case 0:
		UIRQ_WARN("Unbalanced enable for IRQ %u\n", desc->irq_data.irq);
		break;
	case 1:
		desc->settings |= IRQ_SETTINGS_NOPROBE;
		irq_startup(desc, true);	/* depth 0, replays a missed edge */
		break;
	default:
		desc->depth--;
	}
}

void uirq_enable_irq(unsigned int irq)
{
	unsigned long flags;
	struct uirq_irq_desc *desc = irq_get_desc_buslock(irq, &flags);

	if (!desc)
		return;
	if (!desc->irq_data.chip)
		UIRQ_WARN("enable_irq before setup/request_irq: irq %u\n", irq);
	else
		__enable_irq(desc);
	irq_put_desc_busunlock(desc, flags);
}

bool irq_wait_for_poll(struct uirq_irq_desc *desc)
{
	unsigned int round = 0;

	if (desc->istate & IRQS_POLL_INPROGRESS && uirq_this_cpu() == 0 &&
	    irqd_irq_inprogress(desc))
		return false;	/* the poll runs on this very CPU */
	do {
		uirq_spin_unlock(&desc->lock);
		while (irqd_irq_inprogress(desc))
			uirq_backoff(&round);
		uirq_spin_lock(&desc->lock);
	} while (irqd_irq_inprogress(desc));
	return !irqd_irq_disabled(desc) && desc_action(desc);
}

/* ---- the chip's resources of a line (bus lock held) ---- */

static int irq_request_resources(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *c = desc->irq_data.chip;

	return c && c->irq_request_resources ? c->irq_request_resources(&desc->irq_data) : 0;
}

static void irq_release_resources(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *c = desc->irq_data.chip;

	if (c && c->irq_release_resources)
		c->irq_release_resources(&desc->irq_data);
}

/* ---- trigger type ---- */

int __irq_set_trigger(struct uirq_irq_desc *desc, unsigned int type)
{
	struct uirq_irq_chip *chip = desc->irq_data.chip;
	int ret;

	if (!chip || !chip->irq_set_type)
		return 0;	/* the kernel: "No set_type function" is not an error */
	ret = chip->irq_set_type(&desc->irq_data, type);
	switch (ret) {
	case UIRQ_IRQ_SET_MASK_OK:
	case UIRQ_IRQ_SET_MASK_OK_DONE:
		irqd_set_trigger_type(desc, type);
		/* fall through */
	case UIRQ_IRQ_SET_MASK_OK_NOCOPY:
		irqd_clear(desc, IRQD_LEVEL);
		desc->settings &= ~IRQ_SETTINGS_LEVEL;
		if (irqd_get_trigger_type(desc) & UIRQ_TYPE_LEVEL_MASK) {
			desc->settings |= IRQ_SETTINGS_LEVEL;
			irqd_set(desc, IRQD_LEVEL);
		}
		ret = 0;
		break;
	default: {
		char sym[128];

		/* The kernel's %pS: the symbol, else (no symbol table, no libdw) the chip's name. */
		if (!uirq_symbol_name((const void *)chip->irq_set_type, sym, sizeof(sym)))
			snprintf(sym, sizeof(sym), "%s irq_set_type", chip->name ? chip->name : "unnamed chip");
		uirq_printk("genirq: Setting trigger mode %u for irq %u failed (%s)\n", type,
			    desc->irq_data.irq, sym);
	}
	}
	return ret;
}

int uirq_irq_set_irq_type(unsigned int irq, unsigned int type)
{
	unsigned long flags;
	struct uirq_irq_desc *desc = irq_get_desc_buslock(irq, &flags);
	int ret;

	if (!desc)
		return -EINVAL;
	ret = __irq_set_trigger(desc, type & UIRQ_TYPE_SENSE_MASK);
	irq_put_desc_busunlock(desc, flags);
	return ret;
}

/* ---- handler threads ---- */

static uirq_irqreturn_t irq_forced_secondary_handler(int irq, void *dev_id)
{
	(void)dev_id;
	UIRQ_WARN("Secondary action handler called for irq %d\n", irq);
	return UIRQ_IRQ_NONE;
}

static uirq_irqreturn_t irq_nested_primary_handler(int irq, void *dev_id)
{
	(void)dev_id;
	UIRQ_WARN("Primary handler called for nested irq %d\n", irq);
	return UIRQ_IRQ_NONE;
}

static void irq_set_thread_affinity(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	if (!action || !action->has_thread)
		return;
	if (atomic_fetch_or(&action->thread_flags, IRQTF_AFFINITY) & IRQTF_SLEEPING)
		irq_thread_kick(desc, action);
}

/* The thread follows its line's CPU: the host core that CPU is pinned to, else anywhere. */
static void irq_thread_check_affinity(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	cpu_set_t set;
	int core;

	if (!(atomic_fetch_and(&action->thread_flags, ~IRQTF_AFFINITY) & IRQTF_AFFINITY))
		return;
	/* A task of the deterministic mode is a coroutine: pinning would move every task's one thread. */
	if (uirq_sim_current)
		return;
	if (uirq_cpu_host_pin(atomic_load_explicit(&desc->cpu, memory_order_relaxed), &core)) {
		CPU_ZERO(&set);
		CPU_SET(core, &set);
	} else {
		uirq_process_cpus(&set);	/* not the requesting thread's pinning */
	}
	sched_setaffinity(0, sizeof(set), &set);
}

/* "irq/N-name", or "irq/N-s-name" for a forced secondary's thread, cut to TASK_COMM_LEN. */
static void thread_comm(const struct uirq_irqaction *action, char name[static 16])
{
	char buf[64];

	snprintf(buf, sizeof(buf), action->handler == irq_forced_secondary_handler ? "irq/%u-s-%s" : "irq/%u-%s",
		 action->irq, action->name ? action->name : "");
	memcpy(name, buf, 15);
	name[15] = '\0';	/* TASK_COMM_LEN */
}

static void set_thread_name(struct uirq_irqaction *action)
{
	char name[16];

	thread_comm(action, name);
	uirq_task_set_comm(name);
}

static void set_thread_fifo(struct uirq_irqaction *action)
{
	static atomic_bool noticed;
	struct sched_param sp = { .sched_priority = IRQ_THREAD_PRIO };
	int err;

	/* The deterministic mode's scheduler orders its tasks, coroutines on one thread: no priority to set. */
	if (uirq_sim_current)
		return;
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

	if (err && !atomic_exchange(&noticed, true))
		uirq_printk("uirq: irq/%u-%s: SCHED_FIFO priority %d not permitted (%s); "
			    "irq threads run at normal priority\n", action->irq, action->name,
			    IRQ_THREAD_PRIO, strerror(err));
}

int uirq_irq_set_thread_wait(unsigned int irq, enum uirq_wait_mode mode, unsigned int poll_ns)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	long bound = wait_mode_bound(mode, poll_ns);

	if (!desc || bound < 0)
		return -EINVAL;
	atomic_store(&desc->thread_wait, (uint64_t)bound << 8 | mode);
	/* A thread asleep takes the new mode up after its next wake: waking it now would cost a run. */
	return 0;
}

/*
 * The adaptive and poll modes' wait for a wake: spin on the thread's flags
 * until one of the bits the loop below acts on is set, for up to the mode's
 * bound (the poll mode's is a round: its mode is read again after each).
 * True if one was, without sleeping; the waker then makes no system call
 * either, since the thread never said it was sleeping.
 */
#define THREAD_POLL_ROUND_NS	1000000u

static bool irq_thread_poll(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	uint64_t wait = atomic_load_explicit(&desc->thread_wait, memory_order_relaxed), start, bound;
	unsigned int mode = (unsigned int)(wait & 0xff);

	if (mode == UIRQ_WAIT_BLOCKING)
		return false;
	/* The deterministic mode: a scheduling point where the waker may run before the sleep. */
	if (uirq_sim_current) {
		uirq_sim_preempt();
		return (atomic_load(&action->thread_flags) & (IRQTF_RUNTHREAD | IRQTF_STOP | IRQTF_AFFINITY)) != 0;
	}
	bound = mode == UIRQ_WAIT_POLL ? THREAD_POLL_ROUND_NS : wait >> 8;
	start = uirq_sim_clock_ns();
	for (unsigned int i = 1;; i++) {
		if (atomic_load_explicit(&action->thread_flags, memory_order_relaxed) &
		    (IRQTF_RUNTHREAD | IRQTF_STOP | IRQTF_AFFINITY))
			return true;
		uirq_pause();
		if (!(i & 15) && uirq_sim_clock_ns() - start >= bound)
			return mode == UIRQ_WAIT_POLL &&
			       (atomic_load_explicit(&desc->thread_wait, memory_order_relaxed) & 0xff) == UIRQ_WAIT_POLL;
	}
}

static int irq_wait_for_interrupt(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	for (;;) {
		unsigned int v = atomic_load(&action->thread_flags);

		if (v & IRQTF_AFFINITY) {
			irq_thread_check_affinity(desc, action);
			continue;
		}
		if (v & IRQTF_STOP) {
			/* Stopped while a run is pending: run one last time. */
			if (atomic_fetch_and(&action->thread_flags, ~IRQTF_RUNTHREAD) & IRQTF_RUNTHREAD)
				return 0;
			return -1;
		}
		if (v & IRQTF_RUNTHREAD) {
			atomic_fetch_and(&action->thread_flags, ~IRQTF_RUNTHREAD);
			return 0;
		}
		if (irq_thread_poll(desc, action))
			continue;
		if (!atomic_compare_exchange_weak(&action->thread_flags, &v, v | IRQTF_SLEEPING))
			continue;
		uirq_futex_wait(&action->thread_flags, v | IRQTF_SLEEPING);
		atomic_fetch_and(&action->thread_flags, ~IRQTF_SLEEPING);
	}
}

/*
 * A ONESHOT action's thread has finished its run: give up its bit, and
 * unmask the line if it was the last, the kernel's irq_finalize_oneshot().
 *
 * The line was masked by the flow when it woke the threads, because the
 * device keeps the level asserted until a thread has talked to it over a
 * slow bus.  Unmasking is only right when every thread that the flow woke
 * has done so, hence one bit per action; and only if nobody has disabled
 * the line meanwhile (disable_irq() wins: the line stays masked until
 * enable_irq()).  Under desc->lock, because the flow sets the bits and
 * masks under it; with the bus lock too, because unmasking a chip on a
 * slow bus is written at chip_bus_sync_unlock().
 */
void irq_finalize_oneshot(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	unsigned int round = 0;
	unsigned long flags;

	/* Sharers agree on ONESHOT, so the action's flag is the line's IRQS_ONESHOT. */
	if (!(action->flags & UIRQF_ONESHOT) || action->handler == irq_forced_secondary_handler)
		return;
again:
	chip_bus_lock(desc);
	uirq_spin_lock_irqsave(&desc->lock, flags);
	/*
	 * The thread may finish before the hard irq that woke it has left
	 * its flow handler; unmasking now would leave the line masked for
	 * good.  Wait, sleeping (a real-time thread must not spin on its CPU).
	 */
	if (irqd_irq_inprogress(desc)) {
		uirq_spin_unlock_irqrestore(&desc->lock, flags);
		chip_bus_sync_unlock(desc);
		uirq_backoff(&round);
		goto again;
	}
	/* Woken again meanwhile: keep our bit, the next run finalizes. */
	if (atomic_load(&action->thread_flags) & IRQTF_RUNTHREAD)
		goto out_unlock;
	atomic_fetch_and(&desc->threads_oneshot, ~action->thread_mask);
	if (!atomic_load(&desc->threads_oneshot) && !irqd_irq_disabled(desc) && irqd_irq_masked(desc))
		unmask_threaded_irq(desc);
out_unlock:
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	chip_bus_sync_unlock(desc);
}

/* The thread_fn, unless the action is dead; true if it faulted (f filled, ret untouched). */
static bool irq_thread_call(struct uirq_irqaction *action, struct irq_fault *f, uirq_irqreturn_t *ret)
{
	if (irq_action_dead(action))
		return false;
	return irq_fault_call(f, action->thread_fn, (int)action->irq, action->dev_id, ret);
}

/* The finalize runs after a fault too: the line is disabled first, so it stays masked. */
static uirq_irqreturn_t irq_thread_fn(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	uirq_irqreturn_t ret = UIRQ_IRQ_NONE;
	struct irq_fault fault;

	if (irq_thread_call(action, &fault, &ret))
		irq_thread_faulted(desc, action, &fault, false);
	else if (ret == UIRQ_IRQ_HANDLED)
		atomic_fetch_add(&desc->threads_handled, 1);
	irq_finalize_oneshot(desc, action);
	return ret;
}

/* A forced-threaded primary runs as it would in hard-irq context: interrupts off. */
static uirq_irqreturn_t irq_forced_thread_fn(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	uirq_irqreturn_t ret = UIRQ_IRQ_NONE;
	struct irq_fault fault;
	bool faulted;

	uirq_local_irq_disable();
	faulted = irq_thread_call(action, &fault, &ret);
	if (!faulted && ret == UIRQ_IRQ_HANDLED)
		atomic_fetch_add(&desc->threads_handled, 1);
	uirq_local_irq_enable();
	if (faulted)
		irq_thread_faulted(desc, action, &fault, false);
	irq_finalize_oneshot(desc, action);
	return ret;
}

static void irq_wake_secondary(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	struct uirq_irqaction *secondary = action->secondary;
	unsigned long flags;

	if (!secondary)
		return;
	irq_kick_defer_begin();
	uirq_spin_lock_irqsave(&desc->lock, flags);
	__irq_wake_thread(desc, secondary);
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	irq_kick_flush();
}

/* The thread left through pthread_exit() or cancellation in its handler. */
static void irq_thread_dtor(void *arg)
{
	struct uirq_irqaction *action = arg;
	struct uirq_irq_desc *desc = irq_to_desc(action->irq);
	char comm[16] = "";

	uirq_task_comm(comm);
	uirq_printk("genirq: exiting task \"%s\" (%d) is an active IRQ thread (irq %u)\n", comm,
		    (int)action->tid, action->irq);
	irq_fault_thread_exit();
	unsigned int old = atomic_fetch_or(&action->thread_flags, IRQTF_DIED);

	if (!desc)
		return;
	old = atomic_fetch_and(&action->thread_flags, ~(IRQTF_RUNTHREAD | IRQTF_INRUN));
	if (old & (IRQTF_RUNTHREAD | IRQTF_INRUN))
		wake_threads_waitq(desc);
	irq_finalize_oneshot(desc, action);
}

static void irq_thread_loop(struct uirq_irq_desc *desc, struct uirq_irqaction *action,
			    uirq_irqreturn_t (*handler_fn)(struct uirq_irq_desc *, struct uirq_irqaction *))
{
	unsigned int seq = 0;

	while (!irq_wait_for_interrupt(desc, action)) {
		/* The hung-thread watchdog's whole cost: a run is its number and INRUN. */
		atomic_store_explicit(&action->run_seq, ++seq ? seq : ++seq, memory_order_relaxed);
		atomic_fetch_or(&action->thread_flags, IRQTF_INRUN);
		irq_trace(UIRQ_TRACE_THREAD_ENTRY, action->irq, action->name);
		uirq_irqreturn_t ret = handler_fn(desc, action);

		irq_trace(UIRQ_TRACE_THREAD_EXIT, action->irq, action->name);

		if (ret == UIRQ_IRQ_WAKE_THREAD)
			irq_wake_secondary(desc, action);
		atomic_fetch_and(&action->thread_flags, ~IRQTF_INRUN);
		wake_threads_waitq(desc);
	}
}

static void *irq_thread(void *arg)
{
	struct uirq_irqaction *action = arg;
	struct uirq_irq_desc *desc = irq_to_desc(action->irq);
	uirq_irqreturn_t (*handler_fn)(struct uirq_irq_desc *, struct uirq_irqaction *);

	handler_fn = (atomic_load(&action->thread_flags) & IRQTF_FORCED_THREAD) ? irq_forced_thread_fn
										 : irq_thread_fn;
	action->tid = (pid_t)uirq_task_pid();
	irq_self_thread(action);
	irq_fault_thread_init(IRQ_FAULT_THREAD);
	set_thread_name(action);
	set_thread_fifo(action);
	uirq_set_irq_thread(true);
	irq_thread_check_affinity(desc, action);
	atomic_fetch_or(&action->thread_flags, IRQTF_READY);
	uirq_futex_wake(&action->thread_flags, INT_MAX);

	/*
	 * A task of the deterministic mode is a coroutine on a thread it shares:
	 * no cancellation handler (glibc keeps one list per thread, which the
	 * tasks' pushes and pops would interleave), and a pthread_exit() there
	 * would end every task (uirq/sim.h).
	 */
	if (uirq_sim_current) {
		irq_thread_loop(desc, action, handler_fn);
	} else {
		pthread_cleanup_push(irq_thread_dtor, action);
		irq_thread_loop(desc, action, handler_fn);
		pthread_cleanup_pop(0);
	}
	irq_fault_thread_exit();
	return NULL;
}

static int setup_irq_thread(struct uirq_irqaction *action)
{
	int err;

	char name[16];

	atomic_store(&action->thread_flags, atomic_load(&action->thread_flags) | IRQTF_AFFINITY);
	thread_comm(action, name);
	err = uirq_sim_thread_create(&action->thread, NULL, irq_thread, action, name);
	if (err)
		return err == EAGAIN ? -EAGAIN : -ENOMEM;
	action->has_thread = true;
	return 0;
}

static void wait_for_irq_thread_ready(struct uirq_irqaction *action)
{
	if (!action || !action->has_thread)
		return;
	for (;;) {
		unsigned int v = atomic_load(&action->thread_flags);

		if (v & IRQTF_READY)
			return;
		uirq_futex_wait(&action->thread_flags, v);
	}
}

/* kthread_stop(): the thread finishes an in-flight (or pending) run first. */
static void stop_irq_thread(struct uirq_irqaction *action)
{
	if (!action || !action->has_thread)
		return;
	atomic_fetch_or(&action->thread_flags, IRQTF_STOP);
	uirq_futex_wake(&action->thread_flags, INT_MAX);
	uirq_sim_thread_join(action->thread, NULL);
	action->has_thread = false;
}

static bool force_irqthreads_on(void)
{
	return uirq_force_irqthreads();
}

static int irq_setup_forced_threading(struct uirq_irqaction *new)
{
	if (!force_irqthreads_on())
		return 0;
	if (new->flags & (UIRQF_NO_THREAD | UIRQF_PERCPU | UIRQF_ONESHOT))
		return 0;
	if (new->handler == irq_default_primary_handler)
		return 0;
	new->flags |= UIRQF_ONESHOT;
	if (new->handler && new->thread_fn) {
		struct uirq_irqaction *s = calloc(1, sizeof(*s));

		if (!s)
			return -ENOMEM;
		s->handler = irq_forced_secondary_handler;
		s->thread_fn = new->thread_fn;
		s->dev_id = new->dev_id;
		s->irq = new->irq;
		s->name = new->name;
		new->secondary = s;
	}
	atomic_fetch_or(&new->thread_flags, IRQTF_FORCED_THREAD);
	new->thread_fn = new->handler;
	new->handler = irq_default_primary_handler;
	return 0;
}

static unsigned long action_masks(const struct uirq_irqaction *action)
{
	return action->thread_mask | (action->secondary ? action->secondary->thread_mask : 0);
}

/* No hard handler may still run the action, nor a thread of the line; its threads end. */
static void free_irq_wait(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	__synchronize_irq(desc);
	stop_irq_thread(action);
	stop_irq_thread(action->secondary);
}

/* Frees a handler made of its own line, still finishing: rare, so one list for all lines. */
struct deferred_free {
	struct uirq_irq_desc *desc;
	struct uirq_irqaction *action;
	struct deferred_free *next;
};
static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;
static struct deferred_free *deferred_frees;

/* The oneshot bits of desc's actions still finishing a deferred free. */
static unsigned long deferred_free_masks(struct uirq_irq_desc *desc)
{
	unsigned long mask = 0;

	if (!atomic_load(&desc->frees_deferred))
		return 0;
	pthread_mutex_lock(&deferred_lock);
	for (struct deferred_free *w = deferred_frees; w; w = w->next)
		if (w->desc == desc)
			mask |= action_masks(w->action);
	pthread_mutex_unlock(&deferred_lock);
	return mask;
}

/* Off the list, and off desc's count (waking irq_wait_deferred_frees()); w is freed. */
static void deferred_free_done(struct deferred_free *w)
{
	struct uirq_irq_desc *desc = w->desc;
	struct deferred_free **pp;

	pthread_mutex_lock(&deferred_lock);
	for (pp = &deferred_frees; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	pthread_mutex_unlock(&deferred_lock);
	free(w);
	if (atomic_fetch_sub(&desc->frees_deferred, 1) == 1)
		uirq_futex_wake(&desc->frees_deferred, INT_MAX);
}

static void *deferred_free_fn(void *arg)
{
	struct deferred_free *w = arg;
	struct uirq_irqaction *action = w->action;

	free_irq_wait(w->desc, action);
	deferred_free_done(w);
	free(action->secondary);
	free(action);
	return NULL;
}

/*
 * free_irq() by a handler of the line: the action may be the one running
 * (its thread cannot join itself, a flow still walks the action list), so a
 * helper thread finishes the free once the caller's run is over.  The
 * action's oneshot bits stay taken until then, so a new request of the line
 * cannot share them with a thread still finishing.  0, or -errno and the
 * caller leaks the action (the line is usable either way).
 */
static int free_irq_deferred(struct uirq_irq_desc *desc, struct uirq_irqaction *action)
{
	struct deferred_free *w = malloc(sizeof(*w));
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (!w)
		return -ENOMEM;
	w->desc = desc;
	w->action = action;
	atomic_fetch_add(&desc->frees_deferred, 1);
	pthread_mutex_lock(&deferred_lock);
	w->next = deferred_frees;
	deferred_frees = w;
	pthread_mutex_unlock(&deferred_lock);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = uirq_sim_thread_create(&t, &attr, deferred_free_fn, w, "irq/free");
	pthread_attr_destroy(&attr);
	if (err)
		deferred_free_done(w);
	return -err;
}

void irq_wait_deferred_frees(struct uirq_irq_desc *desc)
{
	for (;;) {
		int v = atomic_load(&desc->frees_deferred);

		if (!v)
			return;
		uirq_futex_wait(&desc->frees_deferred, (unsigned int)v);
	}
}

/*
 * Install an action on a line: the kernel's __setup_irq().
 *
 * Locking rules, outermost first:
 *   desc->request_mutex  serialises request and free of the line: whoever
 *                        holds it sees the action list and the line's
 *                        startup state stable;
 *     chip_bus_lock()    the chip's slow-bus lock (an i2c expander), so the
 *                        chip callbacks below may only record what to write
 *                        and chip_bus_sync_unlock() writes it, sleeping;
 *       desc->lock       the raw spinlock the flow handlers take from
 *                        hard-irq context: the list is changed and the line
 *                        started under it, so a flow never sees half of it.
 * Nothing that sleeps happens under desc->lock, and nothing that sleeps
 * for long (thread creation) under the request mutex: the handler threads
 * are made before any lock is taken and stopped again if the request
 * fails, so a failed request leaves no trace on the line.
 */
static int __setup_irq(unsigned int irq, struct uirq_irq_desc *desc, struct uirq_irqaction *new)
{
	struct uirq_irqaction *old;
	_Atomic(struct uirq_irqaction *) *old_ptr;
	unsigned long flags, thread_mask = 0;
	bool shared = false, nested;
	int ret;

	if (!desc->irq_data.chip)
		return -ENOSYS;
	new->irq = irq;
	/* No trigger asked for: take the line's, so sharers compare like with like. */
	if (!(new->flags & UIRQF_TRIGGER_MASK))
		new->flags |= irqd_get_trigger_type(desc);

	/*
	 * Nested or threaded.  A nested line (a demultiplexer's child whose
	 * parent handler runs in a thread and reads the device over a sleeping
	 * bus) is never taken in hard-irq context: its parent's thread calls
	 * the child's thread_fn directly.  So a thread_fn is what the line
	 * needs, and a primary handler would never run; the placeholder
	 * primary only warns if something raises the line the other way.  No
	 * thread of its own either: it would just wait for the parent's.
	 */
	nested = irq_settings_is_nested_thread(desc);
	if (nested) {
		if (!new->thread_fn)
			return -EINVAL;
		new->handler = irq_nested_primary_handler;
	} else if (irq_settings_can_thread(desc)) {
		/* threadirqs: the primary becomes a thread too (and ONESHOT, see there). */
		ret = irq_setup_forced_threading(new);
		if (ret)
			return ret;
	}

	if (new->thread_fn)
		irq_fault_init();
	/*
	 * Thread creation comes first, with no lock held: making a thread
	 * sleeps (and in the deterministic mode is a scheduling point), which
	 * desc->lock forbids and the request mutex should not be held across.
	 * Created before the action is visible, the thread exists by the time
	 * a flow can wake it; if the request fails further on, out_thread
	 * stops it again.  The forced-threading secondary gets its own.
	 */
	if (new->thread_fn && !nested) {
		ret = setup_irq_thread(new);
		if (ret)
			return ret;
		if (new->secondary) {
			ret = setup_irq_thread(new->secondary);
			if (ret)
				goto out_thread;
		}
	}

	/* A chip that masks by itself until the thread is done needs no ONESHOT masking of ours. */
	if (desc->irq_data.chip->flags & UIRQCHIP_ONESHOT_SAFE)
		new->flags &= ~UIRQF_ONESHOT;

	uirq_mutex_lock(&desc->request_mutex);
	chip_bus_lock(desc);
	/* The first handler asks the chip for the line's resources (a GPIO pin locked as an interrupt). */
	if (!desc_action(desc)) {
		ret = irq_request_resources(desc);
		if (ret) {
			uirq_printk("genirq: Failed to request resources for %s (irq %u) on irqchip %s\n", new->name,
				    irq, desc->irq_data.chip->name ? desc->irq_data.chip->name : "");
			chip_bus_sync_unlock(desc);
			uirq_mutex_unlock(&desc->request_mutex);
			goto out_thread;
		}
	}
	uirq_spin_lock_irqsave(&desc->lock, flags);

	old_ptr = &desc->action;
	old = atomic_load(old_ptr);
	if (old) {
		unsigned int oldtype;

		if (irqd_has(desc, IRQD_DEFAULT_TRIGGER_SET)) {
			oldtype = irqd_get_trigger_type(desc);
		} else {
			oldtype = new->flags & UIRQF_TRIGGER_MASK;
			irqd_set_trigger_type(desc, oldtype);
		}
		/*
		 * Shared compatibility.  A second action on the line is only
		 * allowed when both sides asked for sharing: a driver that did
		 * not expects the line to be its own (it may keep it masked,
		 * or never check whether its device raised it).  They must
		 * also want the same trigger, since the line has one; the
		 * first request set it, so the newcomer is compared against
		 * that.  A refusal is quiet when the newcomer only probed
		 * (UIRQF_PROBE_SHARED), since it expected one.
		 */
		if (!((old->flags & new->flags) & UIRQF_SHARED) ||
		    oldtype != (new->flags & UIRQF_TRIGGER_MASK))
			goto mismatch;
		/*
		 * Oneshot consistency.  ONESHOT is a property of the line, not
		 * of one action: the flow masks the line until the threads are
		 * done.  If one sharer relied on that and another did not, the
		 * second's device would see its line masked behind a thread it
		 * knows nothing of, or the first's level line would be unmasked
		 * while its thread has not yet quieted the device and storm.
		 * So all sharers agree; a COND_ONESHOT sharer (one that does
		 * not care) follows the others.  Per-CPU likewise cannot mix.
		 */
		if ((old->flags & UIRQF_ONESHOT) && (new->flags & UIRQF_COND_ONESHOT))
			new->flags |= UIRQF_ONESHOT;
		else if ((old->flags ^ new->flags) & UIRQF_ONESHOT)
			goto mismatch;
		if ((old->flags & UIRQF_PERCPU) != (new->flags & UIRQF_PERCPU))
			goto mismatch;
		do {
			thread_mask |= old->thread_mask;
			old_ptr = &old->next;
			old = atomic_load(old_ptr);
		} while (old);
		shared = true;
	}

	/*
	 * Each ONESHOT action gets a bit of its own in the line's mask: the
	 * flow sets every bit when it wakes the threads, each thread clears
	 * its own when done, and the line is unmasked when the last one is
	 * gone (irq_finalize_oneshot()).  One word of bits, so a full word is
	 * a refusal rather than a shared bit that would unmask too early.
	 */
	if (new->flags & UIRQF_ONESHOT) {
		/* Bits of actions freed by their own handler stay taken until those have finished. */
		thread_mask |= deferred_free_masks(desc);
		if (thread_mask == ~0ul) {
			ret = -EBUSY;
			goto out_unlock;
		}
		new->thread_mask = 1ul << __builtin_ctzl(~thread_mask);
	} else if (new->handler == irq_default_primary_handler &&
		   !(desc->irq_data.chip->flags & UIRQCHIP_ONESHOT_SAFE)) {
		/*
		 * handler NULL means the default primary, which does nothing
		 * to the device; it only wakes the thread.  Without ONESHOT
		 * the line would be unmasked at once with the level still
		 * asserted and come straight back, forever, before the thread
		 * ever ran.  Refused unless the chip itself keeps it masked.
		 */
		uirq_printk("genirq: Threaded irq requested with handler=NULL and !ONESHOT for %s (irq %u)\n",
			    new->name, irq);
		ret = -EINVAL;
		goto out_unlock;
	}

	/*
	 * The first action owns the line's setup: its trigger is programmed
	 * into the chip, the line's leftover state from an earlier owner
	 * (spurious or fault disabled, in progress) is cleared, and it is
	 * started unless the driver asked to enable it itself.  A sharer joins
	 * a line already set up and only gets a warning if it wanted another
	 * trigger.
	 */
	if (!shared) {
		if (new->flags & UIRQF_TRIGGER_MASK) {
			ret = __irq_set_trigger(desc, new->flags & UIRQF_TRIGGER_MASK);
			if (ret)
				goto out_unlock;
		}
		if (desc->istate & IRQS_SPURIOUS_DISABLED)
			atomic_fetch_sub(&uirq_spurious_disabled_lines, 1);
		desc->istate &= ~(IRQS_SPURIOUS_DISABLED | IRQS_ONESHOT | IRQS_WAITING | IRQS_DEAD_ACTIONS |
				  IRQS_FAULT_DISABLED);
		irqd_clear(desc, IRQD_IRQ_INPROGRESS);
		if (new->flags & UIRQF_ONESHOT)
			desc->istate |= IRQS_ONESHOT;
		if (!(new->flags & UIRQF_NO_AUTOEN) && irq_settings_can_autoenable(desc)) {
			irq_startup(desc, true);
		} else {
			/* Undo nested disables: */
			desc->depth = 1;
		}
	} else if (new->flags & UIRQF_TRIGGER_MASK) {
		unsigned int nmsk = new->flags & UIRQF_TRIGGER_MASK;
		unsigned int omsk = irqd_get_trigger_type(desc);

		if (nmsk != omsk)
			uirq_printk("genirq: irq %u uses trigger mode %u; requested %u\n", irq, omsk, nmsk);
	}

	/* Published last, with release: a flow that finds the action finds it whole. */
	atomic_store_explicit(old_ptr, new, memory_order_release);

	/* Reset broken irq detection when installing new handler */
	atomic_store(&desc->irq_count, 0);
	atomic_store(&desc->irqs_unhandled, 0);
	if (shared && (desc->istate & IRQS_SPURIOUS_DISABLED)) {
		desc->istate &= ~IRQS_SPURIOUS_DISABLED;
		atomic_fetch_sub(&uirq_spurious_disabled_lines, 1);
		__enable_irq(desc);
	}
	/* Its actions died of faults: a new sharer is live, give it the line. */
	if (shared && (desc->istate & IRQS_FAULT_DISABLED)) {
		desc->istate &= ~IRQS_FAULT_DISABLED;
		if (desc->depth)
			__enable_irq(desc);
	}

	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	chip_bus_sync_unlock(desc);
	uirq_mutex_unlock(&desc->request_mutex);

	wait_for_irq_thread_ready(new);
	wait_for_irq_thread_ready(new->secondary);
	return 0;

mismatch:
	if (!(new->flags & UIRQF_PROBE_SHARED))
		uirq_printk("genirq: Flags mismatch irq %u. %08x (%s) vs. %08x (%s)\n", irq, new->flags,
			    new->name, old->flags, old->name);
	ret = -EBUSY;
out_unlock:
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	if (!desc_action(desc))
		irq_release_resources(desc);
	chip_bus_sync_unlock(desc);
	uirq_mutex_unlock(&desc->request_mutex);
out_thread:
	stop_irq_thread(new);
	stop_irq_thread(new->secondary);
	return ret;
}

/* Requests the kernel refuses before looking at the line. */
static bool bad_request_flags(unsigned long irqflags, void *dev_id)
{
	return ((irqflags & UIRQF_SHARED) && !dev_id) ||
	       ((irqflags & UIRQF_SHARED) && (irqflags & UIRQF_NO_AUTOEN));
}

int uirq_request_threaded_irq(unsigned int irq, uirq_irq_handler_t handler,
			      uirq_irq_handler_t thread_fn, unsigned long irqflags,
			      const char *name, void *dev_id)
{
	struct uirq_irq_desc *desc;
	struct uirq_irqaction *action;
	int ret;

	if (irq == UIRQ_IRQ_NOTCONNECTED)
		return -ENOTCONN;
	if (bad_request_flags(irqflags, dev_id))
		return -EINVAL;
	desc = irq_to_desc(irq);
	if (!desc)
		return -EINVAL;
	if (!irq_settings_can_request(desc))
		return -EINVAL;
	if (!handler) {
		if (!thread_fn)
			return -EINVAL;
		handler = irq_default_primary_handler;
	}
	action = calloc(1, sizeof(*action));
	if (!action)
		return -ENOMEM;
	action->handler = handler;
	action->thread_fn = thread_fn;
	action->flags = (unsigned int)irqflags;
	action->name = name;
	action->dev_id = dev_id;

	ret = __setup_irq(irq, desc, action);
	if (ret) {
		free(action->secondary);
		free(action);
	}
	return ret;
}

int uirq_request_irq(unsigned int irq, uirq_irq_handler_t handler, unsigned long flags,
		     const char *name, void *dev_id)
{
	return uirq_request_threaded_irq(irq, handler, NULL, flags, name, dev_id);
}

int uirq_request_any_context_irq(unsigned int irq, uirq_irq_handler_t handler,
				 unsigned long flags, const char *name, void *dev_id)
{
	struct uirq_irq_desc *desc;
	int ret;

	if (irq == UIRQ_IRQ_NOTCONNECTED)
		return -ENOTCONN;
	desc = irq_to_desc(irq);
	if (!desc)
		return -EINVAL;
	if (irq_settings_is_nested_thread(desc)) {
		ret = uirq_request_threaded_irq(irq, NULL, handler, flags, name, dev_id);
		return !ret ? UIRQC_IS_NESTED : ret;
	}
	ret = uirq_request_irq(irq, handler, flags, name, dev_id);
	return !ret ? UIRQC_IS_HARDIRQ : ret;
}

/*
 * Remove dev_id's action from the line: the kernel's __free_irq().
 *
 * Two halves.  Under the same three locks as __setup_irq() (request
 * mutex, bus lock, desc->lock) the action is unlinked, and if it was the
 * last one the line is shut down: from then on no new flow can find it.
 * But a flow that found it a moment earlier may still be running its
 * primary handler on a CPU, and its thread may be running or about to
 * run.  So the second half, with desc->lock and the bus lock dropped
 * (the thread's oneshot finalize takes both, and would wait on us
 * forever), waits: first for the hard-irq side to leave the line, then
 * for the thread to finish its run and exit.  Only then may the memory
 * go, and only then does the chip get the line's resources back, so the
 * next request cannot reuse them while the old handler still runs.  The
 * request mutex is held throughout, so a new request of the line is
 * ordered after all of it.
 *
 * The exception is a free from a handler of the line itself: it would
 * wait for its own run to end.  Then the waiting moves to a helper thread
 * (free_irq_deferred()) and the caller returns at once.
 */
static struct uirq_irqaction *__free_irq(struct uirq_irq_desc *desc, void *dev_id, bool *deferred)
{
	unsigned int irq = desc->irq_data.irq;
	struct uirq_irqaction *action;
	_Atomic(struct uirq_irqaction *) *action_ptr;
	unsigned long flags;

	uirq_mutex_lock(&desc->request_mutex);
	chip_bus_lock(desc);
	uirq_spin_lock_irqsave(&desc->lock, flags);

	action_ptr = &desc->action;
	for (;;) {
		action = atomic_load(action_ptr);
		if (!action) {
			UIRQ_WARN("Trying to free already-free IRQ %u\n", irq);
			uirq_spin_unlock_irqrestore(&desc->lock, flags);
			chip_bus_sync_unlock(desc);
			uirq_mutex_unlock(&desc->request_mutex);
			return NULL;
		}
		if (action->dev_id == dev_id)
			break;
		action_ptr = &action->next;
	}
	atomic_store_explicit(action_ptr, action_next(action), memory_order_release);
	if (!desc_action(desc)) {
		irq_shutdown(desc);
		desc->istate &= ~IRQS_FAULT_DISABLED;
	}
	if (desc->istate & IRQS_DEAD_ACTIONS) {
		struct uirq_irqaction *a;
		bool dead = false;

		for_each_action_of_desc(desc, a)
			dead |= irq_action_dead(a);
		if (!dead)
			desc->istate &= ~IRQS_DEAD_ACTIONS;
	}

	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	/* Drop the bus lock before waiting: the threads' finalize takes it. */
	chip_bus_sync_unlock(desc);

	*deferred = self_wait(desc);
	if (*deferred) {
		irq_self_wait_report("free_irq", desc);
		/* Released now, while the request mutex still orders it before any new request's. */
		if (!desc_action(desc)) {
			chip_bus_lock(desc);
			irq_release_resources(desc);
			chip_bus_sync_unlock(desc);
		}
		uirq_mutex_unlock(&desc->request_mutex);
		int err = free_irq_deferred(desc, action);

		if (err)
			uirq_printk("genirq: irq %u: cannot finish free_irq of %s later (%s): its action is leaked\n",
				    irq, action->name, strerror(-err));
		return action;
	}
	free_irq_wait(desc, action);
	/* The last handler gone and its threads done: the chip takes the line's resources back. */
	if (!desc_action(desc)) {
		chip_bus_lock(desc);
		irq_release_resources(desc);
		chip_bus_sync_unlock(desc);
	}
	uirq_mutex_unlock(&desc->request_mutex);
	free(action->secondary);
	return action;
}

const char *uirq_free_irq(unsigned int irq, void *dev_id)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_irqaction *action;
	const char *devname;
	bool deferred;

	if (!desc)
		return NULL;
	uirq_might_sleep();
	action = __free_irq(desc, dev_id, &deferred);
	if (!action)
		return NULL;
	devname = action->name;
	if (!deferred)
		free(action);
	return devname;
}

/* ---- affinity, thread wake, thread priority ---- */

/* Recompute the line's CPU from its affinity; threads and fd watch follow. */
static void set_affinity_locked(struct uirq_irq_desc *desc, bool set, uint64_t cpumask)
{
	struct uirq_irqaction *action;
	unsigned long flags;
	unsigned int cpu, old;

	/* The request mutex keeps the actions (and their threads) alive for the kicks. */
	uirq_mutex_lock(&desc->request_mutex);
	irq_kick_defer_begin();
	uirq_spin_lock_irqsave(&desc->lock, flags);
	if (set)
		desc->affinity = cpumask;
	cpu = uirq_effective_cpu(desc->affinity);
	old = atomic_load(&desc->cpu);
	atomic_store(&desc->cpu, (unsigned short)cpu);
	for_each_action_of_desc(desc, action) {
		irq_set_thread_affinity(desc, action);
		irq_set_thread_affinity(desc, action->secondary);
	}
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	irq_kick_flush();
	if (cpu != old)
		uirq_cpu_move_watch(desc);
	uirq_mutex_unlock(&desc->request_mutex);
}

void irq_update_effective_affinity(struct uirq_irq_desc *desc)
{
	set_affinity_locked(desc, false, 0);
}

int uirq_irq_set_affinity(unsigned int irq, uint64_t cpumask)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -EINVAL;
	if (!(cpumask & uirq_online_mask()))
		return -EINVAL;
	set_affinity_locked(desc, true, cpumask);
	return 0;
}

void uirq_irq_wake_thread(unsigned int irq, void *dev_id)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_irqaction *action;
	unsigned long flags;

	if (!desc)
		return;
	irq_kick_defer_begin();
	uirq_spin_lock_irqsave(&desc->lock, flags);
	for_each_action_of_desc(desc, action) {
		if (action->dev_id == dev_id) {
			if (action->has_thread)
				__irq_wake_thread(desc, action);
			break;
		}
	}
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	irq_kick_flush();
}

int uirq_irq_set_thread_priority(unsigned int irq, void *dev_id, int prio)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_irqaction *action;
	int ret = -EINVAL;

	if (!desc || prio < 0 || prio > 99)
		return -EINVAL;
	uirq_mutex_lock(&desc->request_mutex);
	for_each_action_of_desc(desc, action) {
		if (action->dev_id != dev_id)
			continue;
		if (action->has_thread) {
			struct sched_param sp = { .sched_priority = prio };

			/* A task of the deterministic mode: its scheduler orders it, there is no thread to set. */
			ret = uirq_sim_is_task_thread(action->thread) ? 0 :
			      -pthread_setschedparam(action->thread, prio ? SCHED_FIFO : SCHED_OTHER, &sp);
		}
		break;
	}
	uirq_mutex_unlock(&desc->request_mutex);
	return ret;
}

/* ---- queries ---- */

bool uirq_irq_has_action(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	return desc && desc_action(desc);
}

bool uirq_irq_is_enabled(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	return desc && !irqd_irq_disabled(desc);
}

bool uirq_irq_in_progress(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	return desc && irqd_irq_inprogress(desc);
}

unsigned int uirq_irq_get_depth(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;
	unsigned int depth;

	if (!desc)
		return 0;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	depth = desc->depth;
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	return depth;
}

unsigned int uirq_irq_get_trigger_type(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	return desc ? irqd_get_trigger_type(desc) : 0;
}

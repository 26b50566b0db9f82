// SPDX-License-Identifier: MIT
/*
 * The CPUs: threads that take interrupts.  Each has a pending queue of
 * raised lines (a lock-free stack; a raise of a line already queued
 * coalesces, as a latch does), an epoll set for the fds of fd-backed lines
 * and an eventfd doorbell.
 *
 * A CPU whose queue runs empty busy-polls it for a short, adaptive time
 * before it sleeps (like KVM's halt polling): the window grows while raises
 * keep arriving soon after the CPU went idle and shrinks when they do not,
 * so an idle CPU does not poll at all.  A raiser rings the doorbell only when
 * the CPU announced it is going to sleep, so a raise to a busy or polling
 * CPU costs no system call.
 *
 * An fd's readiness runs the line's flow handler directly on the CPU that
 * saw it (no queue hop).  Fds are registered edge-triggered once; the
 * one-shot "armed" state lives in an atomic word of the watch, so rearming
 * from a chip's ack/unmask (hard-irq context, descriptor lock held) is
 * lock-free and makes no system call.
 *
 * Every line runs its flow handler in hard-irq context with interrupts
 * disabled; the futex wakes of handler threads are done after the
 * interrupt, as the kernel's woken threads run after the hard irq returns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "internals.h"

#define DOORBELL_TAG	UINT64_MAX

/* Adaptive polling of the pending queue (ns). */
#define POLL_START_NS	1000u
#define POLL_MAX_NS	UIRQ_CPU_POLL_MAX_NS
#define FD_LOOK_NS	10000u		/* longest a busy CPU goes without looking at its fds */
#define POLL_ROUND_NS	1000000u	/* the poll mode's round between looks at the spurious poll's timer */

struct uirq_cpu {
	/* Written by raisers: one cache line. */
	_Atomic(struct uirq_irq_desc *) head;	/* pending lines */
	atomic_int sleeping;			/* about to wait: ring the doorbell */
	atomic_bool stop;
	_Atomic uint64_t rung_at;		/* when a raiser last rang the doorbell (ns) */
	atomic_int rung_core;			/* and on which host core */
	/* The CPU's own. */
	_Atomic(struct uirq_irq_desc *) current __attribute__((aligned(64)));	/* being handled */
	unsigned int poll_ns;			/* the current polling window (blocking mode) */
	/* uirq_cpu_set_wait(): written by the setter, read at each idle; kept across stop and start */
	_Atomic unsigned int wait_mode;		/* enum uirq_wait_mode */
	_Atomic unsigned int wait_ns;		/* adaptive: how long to poll before sleeping */
	atomic_uint nr_watches;			/* fds in epfd besides the doorbell (watch_mutex) */
	atomic_uint nr_virt;			/* the deterministic mode's polled watches (watch_mutex) */
	int epfd;
	int doorbell;
	unsigned int index;
	pthread_t thread;
} __attribute__((aligned(64)));

static struct uirq_cpu cpus[UIRQ_MAX_CPUS];
static pthread_mutex_t cpus_lock = PTHREAD_MUTEX_INITIALIZER;	/* start/stop, slot setup */
/* Setting up, moving and dropping fd watches: process context only. */
static UIRQ_DEFINE_MUTEX(watch_mutex);
static atomic_uint watch_gen;	/* tells a stale epoll event of a dropped watch from its successor */
static atomic_uint nr_running;	/* 0 while stopped */
static unsigned int nr_configured;
static int pins[UIRQ_MAX_CPUS];
static atomic_bool force_irqthreads;
static __thread int this_cpu = -1;
/* The line whose flow this CPU runs for a software resend (resend.c), or NULL. */
static __thread struct uirq_irq_desc *resending;
UIRQ_SIM_TASK_LOCAL(this_cpu)
UIRQ_SIM_TASK_LOCAL(resending)

/* uirq's clock: virtual for the deterministic mode's tasks (lib/clock.c). */
static inline uint64_t now_ns(void)
{
	return uirq_sim_clock_ns();
}

int uirq_this_cpu(void)
{
	return this_cpu;
}

unsigned int uirq_num_cpus(void)
{
	return atomic_load(&nr_running);
}

bool uirq_force_irqthreads(void)
{
	return atomic_load_explicit(&force_irqthreads, memory_order_relaxed);
}

void uirq_set_force_irqthreads(bool on)
{
	atomic_store(&force_irqthreads, on);
}

uint64_t uirq_online_mask(void)
{
	unsigned int n = atomic_load(&nr_running);

	if (!n)
		n = 1;
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

unsigned int uirq_effective_cpu(uint64_t mask)
{
	uint64_t m = mask & uirq_online_mask();

	if (!m)
		m = mask;
	return m ? (unsigned int)__builtin_ctzll(m) : 0;
}

bool uirq_cpu_host_pin(unsigned int cpu, int *core)
{
	bool pinned = false;

	pthread_mutex_lock(&cpus_lock);
	if (cpu < nr_configured && pins[cpu] >= 0) {
		*core = pins[cpu];
		pinned = true;
	}
	pthread_mutex_unlock(&cpus_lock);
	return pinned;
}

/* The epoll set and doorbell of a CPU slot, made once; cpus_lock held. */
static int slot_init_locked(unsigned int i)
{
	struct uirq_cpu *c = &cpus[i];

	if (c->epfd > 0)
		return 0;
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0)
		return -errno;
	int db = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	if (db < 0) {
		int err = -errno;

		close(ep);
		return err;
	}
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = DOORBELL_TAG };

	if (epoll_ctl(ep, EPOLL_CTL_ADD, db, &ev)) {
		int err = -errno;

		close(ep);
		close(db);
		return err;
	}
	c->index = i;
	c->doorbell = db;
	c->epfd = ep;
	return 0;
}

static int slot_init(unsigned int i)
{
	pthread_mutex_lock(&cpus_lock);
	int ret = slot_init_locked(i);

	pthread_mutex_unlock(&cpus_lock);
	return ret;
}

static void ring(struct uirq_cpu *c)
{
	uint64_t one = 1;

	if (write(c->doorbell, &one, sizeof(one)) < 0 && errno != EAGAIN)
		uirq_printk("uirq: cpu%u doorbell: %s\n", c->index, strerror(errno));
}

/*
 * In the deterministic mode a CPU is a task that sleeps in the scheduler's
 * futex table on its sleeping word instead of in epoll_wait(): the
 * scheduler cannot see a system call.  Ring it there.
 */
static void ring_sim(struct uirq_cpu *c)
{
	atomic_store(&c->sleeping, 0);
	uirq_futex_wake(&c->sleeping, 1);
}

/* Wake the CPU if (and only if) it announced it is going to sleep. */
static inline void kick_cpu(struct uirq_cpu *c)
{
	if (atomic_load(&c->sleeping) && atomic_exchange(&c->sleeping, 0)) {
		if (uirq_sim_current) {
			ring_sim(c);
			return;
		}
		atomic_store_explicit(&c->rung_at, now_ns(), memory_order_relaxed);
		atomic_store_explicit(&c->rung_core, sched_getcpu(), memory_order_relaxed);
		ring(c);
	}
}

int uirq_cpu_set_wait(unsigned int cpu, enum uirq_wait_mode mode, unsigned int poll_ns)
{
	long bound = wait_mode_bound(mode, poll_ns);

	if (cpu >= UIRQ_MAX_CPUS || bound < 0)
		return -EINVAL;
	struct uirq_cpu *c = &cpus[cpu];

	atomic_store(&c->wait_ns, (unsigned int)bound);
	atomic_store(&c->wait_mode, (unsigned int)mode);
	/* A sleeping CPU takes up its new mode now, not at its next interrupt. */
	kick_cpu(c);
	return 0;
}

int uirq_cpu_get_wait(unsigned int cpu, enum uirq_wait_mode *mode, unsigned int *poll_ns)
{
	if (cpu >= UIRQ_MAX_CPUS)
		return -EINVAL;
	*mode = (enum uirq_wait_mode)atomic_load(&cpus[cpu].wait_mode);
	*poll_ns = *mode == UIRQ_WAIT_ADAPTIVE ? atomic_load(&cpus[cpu].wait_ns) : 0;
	return 0;
}

int uirq_irq_raise(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -EINVAL;
	if (__builtin_expect(uirq_sim_on, 0) && !uirq_sim_current)
		uirq_sim_foreign("raises irq", irq);
	struct uirq_cpu *c = &cpus[atomic_load_explicit(&desc->cpu, memory_order_relaxed)];

	/* Both lines the CPU wrote last: fetch them for writing at once, not one after the other. */
	__builtin_prefetch(&desc->next_pending, 1);
	__builtin_prefetch(&c->head, 1);
	if (atomic_exchange(&desc->raised, 1))
		return 0;	/* already pending: coalesced */
	/*
	 * Guess an empty queue (a CPU keeping up empties it): the first CAS
	 * then takes the line once, without a read of it beforehand.
	 */
	struct uirq_irq_desc *old = NULL;

	do {
		atomic_store_explicit(&desc->next_pending, old, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak(&c->head, &old, desc));
	/* A running or polling CPU finds it without a system call. */
	kick_cpu(c);
	/* Raising a line is a scheduling point of the deterministic mode: the CPU may take it now. */
	if (__builtin_expect(uirq_sim_current != NULL, 0))
		uirq_sim_preempt();
	return 0;
}

bool uirq_irq_desc_in_resend(struct uirq_irq_desc *desc)
{
	if (resending == desc)
		return true;
	/*
	 * The resend's raise may have merged into this run after handle_one()
	 * looked (the raise found the line still queued).  Look again past a
	 * full fence, which pairs with the raise's exchange: either this load
	 * sees the mark or that raise queued the line anew.
	 */
	atomic_thread_fence(memory_order_seq_cst);
	return atomic_load_explicit(&desc->resend, memory_order_relaxed) &&
	       atomic_exchange_explicit(&desc->resend, 0, memory_order_relaxed);
}

void uirq_cpu_poke(unsigned int cpu)
{
	kick_cpu(&cpus[cpu]);
}

unsigned int uirq_cpu_current_irq(void)
{
	struct uirq_irq_desc *desc;

	if (this_cpu < 0)
		return 0;
	desc = atomic_load_explicit(&cpus[this_cpu].current, memory_order_relaxed);
	return desc ? desc->irq_data.irq : 0;
}

/* One interrupt: the flow handler in hard-irq context, interrupts off. */
static void handle_one(struct uirq_irq_desc *desc)
{
	uirq_irq_flow_handler_t handle = __atomic_load_n(&desc->handle_irq, __ATOMIC_ACQUIRE);

	uirq_local_irq_disable();
	uirq_hardirq_enter();
	irq_trace(UIRQ_TRACE_HARDIRQ_ENTRY, desc->irq_data.irq, NULL);
	irq_kick_defer_begin();
	/* A plain load first: a resend is rare, the exchange is not free. */
	if (atomic_load_explicit(&desc->resend, memory_order_relaxed) &&
	    atomic_exchange_explicit(&desc->resend, 0, memory_order_relaxed))
		resending = desc;
	if (handle)
		handle(desc);
	else
		uirq_generic_handle_irq(desc->irq_data.irq);
	resending = NULL;
	irq_trace(UIRQ_TRACE_HARDIRQ_EXIT, desc->irq_data.irq, NULL);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
	irq_kick_flush();
}

static void run_pending(struct uirq_cpu *c, struct uirq_irq_desc *list)
{
	struct uirq_irq_desc *rev = NULL;

	/* The stack is last-in first-out: reverse it to serve in raise order. */
	while (list) {
		/* Written by the raiser: take the line for writing (raised, the link) in one go. */
		__builtin_prefetch(&list->next_pending, 1);
		struct uirq_irq_desc *next = atomic_load_explicit(&list->next_pending, memory_order_relaxed);

		atomic_store_explicit(&list->next_pending, rev, memory_order_relaxed);
		rev = list;
		list = next;
	}
	while (rev) {
		struct uirq_irq_desc *desc = rev;

		rev = atomic_load_explicit(&desc->next_pending, memory_order_relaxed);
		atomic_store(&c->current, desc);
		bool valid = irq_to_desc(desc->irq_data.irq) == desc;

		atomic_store_explicit(&desc->raised, 0, memory_order_release);
		if (valid)
			handle_one(desc);
		atomic_store_explicit(&c->current, NULL, memory_order_release);
	}
}

/* ---- fd watches ---- */

static inline uint64_t watch_tag(unsigned int irq, unsigned int gen)
{
	return (uint64_t)irq | (uint64_t)gen << 32;
}

/*
 * A watched fd became readable (epoll, edge-triggered).  Armed: disarm and
 * run the flow right here.  Disarmed (masked, or its interrupt still being
 * handled): remember it for the rearm.
 */
static void fd_event(struct uirq_cpu *c, uint64_t tag)
{
	unsigned int irq = (unsigned int)tag, gen = (unsigned int)(tag >> 32);
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	/* Seen by unwatch (which clears desc->watch, then waits while current == desc). */
	atomic_store(&c->current, desc);
	struct uirq_fd_watch *w = atomic_load(&desc->watch);

	if (w && w->gen == gen) {
		unsigned int old = atomic_load_explicit(&w->state, memory_order_relaxed), new;

		do {
			new = (old & WATCH_ARMED) ? old & ~WATCH_ARMED : old | WATCH_FIRED;
		} while (!atomic_compare_exchange_weak_explicit(&w->state, &old, new, memory_order_acq_rel,
								memory_order_relaxed));
		if (old & WATCH_ARMED)
			handle_one(desc);
	}
	atomic_store_explicit(&c->current, NULL, memory_order_release);
}

int uirq_cpu_watch_fd(unsigned int irq, int fd)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_fd_watch *w;
	int ret;

	if (!desc)
		return -EINVAL;
	if (fd < 0)
		return -EBADF;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->gen = atomic_fetch_add(&watch_gen, 1);
	atomic_init(&w->state, WATCH_ARMED);
	/* The deterministic mode cannot see epoll: a task's fd is polled by its CPU instead. */
	w->virt = uirq_sim_on;
	uirq_mutex_lock(&watch_mutex);
	unsigned int cpu = atomic_load(&desc->cpu);

	ret = slot_init(cpu);
	if (!ret && atomic_load(&desc->watch))
		ret = -EBUSY;
	if (!ret && w->virt) {
		/* No epoll: the CPU polls it when told (uirq_cpu_fd_written) and before it idles. */
		atomic_store(&w->cpu, (int)cpu);
		atomic_store(&desc->watch, w);
		atomic_fetch_add(&cpus[cpu].nr_virt, 1);
		w = NULL;
	} else if (!ret) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = watch_tag(irq, w->gen) };

		atomic_store(&w->cpu, (int)cpu);
		/* Published first: the CPU may see the fd ready as soon as it is added. */
		atomic_store(&desc->watch, w);
		if (epoll_ctl(cpus[cpu].epfd, EPOLL_CTL_ADD, fd, &ev)) {
			ret = -errno;
			atomic_store(&desc->watch, NULL);
		} else {
			atomic_fetch_add(&cpus[cpu].nr_watches, 1);
			w = NULL;
		}
	}
	uirq_mutex_unlock(&watch_mutex);
	free(w);	/* never seen by a CPU or a rearm: no epoll registration */
	return ret;
}

/*
 * Lock-free and, unless a readiness arrived while disarmed, without a
 * system call.  Called by the chip's callbacks with the descriptor lock held
 * (unwatch relies on that to know no rearm still uses the watch).
 */
void uirq_cpu_rearm_fd(unsigned int irq, bool unread)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	struct uirq_fd_watch *w = atomic_load_explicit(&desc->watch, memory_order_acquire);

	if (!w)
		return;
	unsigned int old = atomic_load_explicit(&w->state, memory_order_relaxed);

	do {
		if (old & WATCH_ARMED)
			return;
	} while (!atomic_compare_exchange_weak_explicit(&w->state, &old, WATCH_ARMED, memory_order_acq_rel,
							memory_order_relaxed));
	if (!(old & WATCH_FIRED) && !unread)
		return;
	/*
	 * It became readable while disarmed, or stayed readable since its
	 * delivery, and edge-triggered epoll will not say so again by itself.  Modifying the registration makes epoll look
	 * at the fd again: still readable (nobody read it since), the CPU gets
	 * an event and, armed now, delivers it; read meanwhile, nothing.  The
	 * only system call of the rearm, and only on this path.
	 */
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = watch_tag(irq, w->gen) };
	int cpu = atomic_load(&w->cpu);

	if (w->virt) {
		kick_cpu(&cpus[cpu]);	/* it polls the fd before it idles */
		return;
	}
	/* Moved meanwhile (ENOENT): adding it to the new CPU's set looked at it already. */
	epoll_ctl(cpus[cpu].epfd, EPOLL_CTL_MOD, w->fd, &ev);
}

int uirq_cpu_fd_written(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_fd_watch *w = desc ? atomic_load_explicit(&desc->watch, memory_order_acquire) : NULL;

	if (!w)
		return -EINVAL;
	if (!w->virt)
		return 0;
	if (!uirq_sim_current)
		uirq_sim_foreign("writes the fd of irq", irq);
	kick_cpu(&cpus[atomic_load(&w->cpu)]);
	uirq_sim_preempt();
	return 0;
}

/*
 * The deterministic mode's epoll: the fds of this CPU's polled watches that
 * are readable now, each delivered as an epoll event would be.  True if any
 * was.  Only tasks write these fds, so what poll() says is the run's own.
 */
static bool poll_virtual(struct uirq_cpu *c)
{
	unsigned int n = irq_get_nr_irqs();
	bool any = false;

	for (unsigned int irq = 1; irq < n; irq++) {
		struct uirq_irq_desc *desc = irq_to_desc(irq);
		struct uirq_fd_watch *w = desc ? atomic_load(&desc->watch) : NULL;
		struct pollfd p;

		if (!w || !w->virt || atomic_load(&w->cpu) != (int)c->index)
			continue;
		p = (struct pollfd){ .fd = w->fd, .events = POLLIN };
		if (poll(&p, 1, 0) != 1 || !(p.revents & POLLIN))
			continue;
		/* Disarmed, fd_event() remembers it for the rearm (which kicks us); only a delivery counts. */
		any |= (atomic_load(&w->state) & WATCH_ARMED) != 0;
		fd_event(c, watch_tag(irq, w->gen));
	}
	return any;
}

/* Wait until no CPU but the caller's is handling desc. */
static void wait_cpus_not_on(struct uirq_irq_desc *desc)
{
	for (unsigned int i = 0; i < UIRQ_MAX_CPUS; i++) {
		unsigned int round = 0;

		if ((int)i == this_cpu)
			continue;
		while (atomic_load(&cpus[i].current) == desc)
			uirq_backoff(&round);
	}
}

/* watch_mutex held. */
static void unwatch_locked(struct uirq_irq_desc *desc)
{
	struct uirq_fd_watch *w = atomic_load(&desc->watch);
	unsigned long flags;

	if (!w)
		return;
	atomic_store(&desc->watch, NULL);
	if (w->virt)
		atomic_fetch_sub(&cpus[w->cpu].nr_virt, 1);
	else if (!epoll_ctl(cpus[w->cpu].epfd, EPOLL_CTL_DEL, w->fd, NULL))
		atomic_fetch_sub(&cpus[w->cpu].nr_watches, 1);
	/* Rearms run under the descriptor lock: after this one, none uses w. */
	uirq_spin_lock_irqsave(&desc->lock, flags);
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	/* A CPU in fd_event() for desc may still hold w. */
	wait_cpus_not_on(desc);
	free(w);
}

void uirq_cpu_unwatch_fd(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	uirq_mutex_lock(&watch_mutex);
	unwatch_locked(desc);
	uirq_mutex_unlock(&watch_mutex);
}

void uirq_cpu_move_watch(struct uirq_irq_desc *desc)
{
	unsigned int cpu = atomic_load(&desc->cpu);

	uirq_mutex_lock(&watch_mutex);
	struct uirq_fd_watch *w = atomic_load(&desc->watch);

	if (w && w->virt && w->cpu != (int)cpu) {
		atomic_fetch_sub(&cpus[w->cpu].nr_virt, 1);
		atomic_store(&w->cpu, (int)cpu);
		atomic_fetch_add(&cpus[cpu].nr_virt, 1);
		kick_cpu(&cpus[cpu]);	/* readable meanwhile: the new CPU looks */
	} else if (w && w->cpu != (int)cpu && !slot_init(cpu)) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET,
					  .data.u64 = watch_tag(desc->irq_data.irq, w->gen) };

		if (!epoll_ctl(cpus[w->cpu].epfd, EPOLL_CTL_DEL, w->fd, NULL))
			atomic_fetch_sub(&cpus[w->cpu].nr_watches, 1);
		atomic_store(&w->cpu, (int)cpu);
		/*
		 * Adding reports the fd at once if it is readable: armed, the new
		 * CPU delivers it; disarmed, it is remembered for the rearm.
		 */
		if (!epoll_ctl(cpus[cpu].epfd, EPOLL_CTL_ADD, w->fd, &ev))
			atomic_fetch_add(&cpus[cpu].nr_watches, 1);
		else
			uirq_printk("uirq: irq %u: moving the fd watch to cpu%u: %s\n",
				    desc->irq_data.irq, cpu, strerror(errno));
	}
	uirq_mutex_unlock(&watch_mutex);
}

void uirq_cpu_forget_desc(struct uirq_irq_desc *desc)
{
	uirq_mutex_lock(&watch_mutex);
	unwatch_locked(desc);
	uirq_mutex_unlock(&watch_mutex);
	wait_cpus_not_on(desc);
}

static void poll_spurious_irqs(struct uirq_cpu *c)
{
	unsigned int n = irq_get_nr_irqs();

	for (unsigned int irq = 1; irq < n; irq++) {
		struct uirq_irq_desc *desc = irq_to_desc(irq);

		if (!desc)
			continue;
		atomic_store(&c->current, desc);
		if (irq_to_desc(irq) == desc)
			poll_spurious_irq_one(desc);
		atomic_store_explicit(&c->current, NULL, memory_order_release);
	}
}

/*
 * Busy-poll the pending queue for up to c->poll_ns; true if work (or a stop)
 * turned up.  *spent: how long it polled.
 */
static bool poll_pending(struct uirq_cpu *c, uint64_t *spent)
{
	uint64_t start = now_ns(), t = start;

	for (unsigned int i = 1;; i++) {
		if (atomic_load_explicit(&c->head, memory_order_relaxed) ||
		    atomic_load_explicit(&c->stop, memory_order_relaxed)) {
			*spent = t - start;
			return true;
		}
		uirq_pause();
		if (!(i & 15)) {
			t = now_ns();
			if (t - start >= c->poll_ns) {
				*spent = t - start;
				return false;
			}
		}
	}
}

static inline void poll_grow(struct uirq_cpu *c)
{
	c->poll_ns = c->poll_ns ? c->poll_ns * 2 : POLL_START_NS;
	if (c->poll_ns > POLL_MAX_NS)
		c->poll_ns = POLL_MAX_NS;
}

static inline void poll_shrink(struct uirq_cpu *c)
{
	c->poll_ns /= 2;
	if (c->poll_ns < POLL_START_NS)
		c->poll_ns = 0;
}

static bool serve_events(struct uirq_cpu *c, const struct epoll_event *evs, int n);

/*
 * The adaptive and poll modes' idle: poll the pending queue and the fds
 * for up to bound_ns; true if work turned up (an fd's interrupt already
 * taken), the CPU was stopped or its mode changed.  The fds cost a system
 * call a look (epoll_wait() with no timeout), which is the poll's latency
 * for them; the queue costs a load.
 */
static bool poll_all(struct uirq_cpu *c, unsigned int mode, uint64_t bound_ns, struct epoll_event *evs)
{
	uint64_t start = now_ns();

	for (unsigned int i = 1;; i++) {
		if (atomic_load_explicit(&c->head, memory_order_relaxed) ||
		    atomic_load_explicit(&c->stop, memory_order_relaxed) ||
		    atomic_load_explicit(&c->wait_mode, memory_order_relaxed) != mode)
			return true;
		if (atomic_load_explicit(&c->nr_watches, memory_order_relaxed)) {
			int n = epoll_wait(c->epfd, evs, 32, 0);

			if (n > 0) {
				serve_events(c, evs, n);
				return true;
			}
		} else {
			uirq_pause();
			if (i & 15)
				continue;
		}
		if (now_ns() - start >= bound_ns)
			return false;
	}
}

/* The n events epoll_wait() returned: fds become interrupts, the doorbell is drained.  True if it rang. */
static bool serve_events(struct uirq_cpu *c, const struct epoll_event *evs, int n)
{
	bool rung = false;

	for (int i = 0; i < n; i++) {
		if (evs[i].data.u64 == DOORBELL_TAG) {
			uint64_t v;

			rung = true;
			if (read(c->doorbell, &v, sizeof(v)) < 0 && errno != EAGAIN)
				uirq_printk("uirq: cpu%u doorbell: %s\n", c->index, strerror(errno));
		} else {
			fd_event(c, evs[i].data.u64);
		}
	}
	return rung;
}

static void *cpu_thread(void *arg)
{
	struct uirq_cpu *c = arg;
	struct epoll_event evs[32];
	unsigned long next_poll = 0;
	uint64_t looked = now_ns();	/* when the fds were last looked at */
	char name[16];

	this_cpu = (int)c->index;
	c->poll_ns = 0;
	snprintf(name, sizeof(name), "uirq/cpu%u", c->index);
	uirq_task_set_comm(name);
	irq_fault_thread_init(IRQ_FAULT_CPU);	/* a fault here is fatal, reported first */
	for (;;) {
		struct uirq_irq_desc *list = atomic_exchange(&c->head, NULL);

		if (list) {
			run_pending(c, list);
			/*
			 * fds are sources too: a queue that never stays empty
			 * long enough to sleep (a screaming line) must not hide
			 * them.  Look without blocking once per FD_LOOK_NS; a
			 * CPU without fds does not even read the clock.
			 */
			if (atomic_load_explicit(&c->nr_watches, memory_order_relaxed)) {
				uint64_t t = now_ns();

				if (t - looked >= FD_LOOK_NS) {
					serve_events(c, evs, epoll_wait(c->epfd, evs, 32, 0));
					looked = t;
				}
			}
			continue;
		}
		if (atomic_load(&c->stop))
			break;
		uint64_t polled = 0;
		unsigned int mode = atomic_load_explicit(&c->wait_mode, memory_order_relaxed);

		if (mode == UIRQ_WAIT_BLOCKING) {
			if (c->poll_ns && poll_pending(c, &polled))
				continue;	/* caught without sleeping: keep the window */
		} else if (uirq_sim_current) {
			/*
			 * The deterministic mode's tasks share one thread: a spin
			 * would only spin.  The poll is a scheduling point instead:
			 * another task may raise before this CPU sleeps.
			 */
			uirq_sim_preempt();
			if (atomic_load(&c->head))
				continue;
		} else if (poll_all(c, mode, mode == UIRQ_WAIT_POLL ? POLL_ROUND_NS :
				    atomic_load_explicit(&c->wait_ns, memory_order_relaxed), evs)) {
			looked = now_ns();
			continue;
		}
		int timeout = -1;

		if (c->index == 0 && atomic_load(&uirq_spurious_disabled_lines) > 0) {
			unsigned long now = uirq_jiffies();

			if (!next_poll)
				next_poll = now + 100;
			if (now >= next_poll) {
				poll_spurious_irqs(c);
				next_poll = now + 100;
				continue;
			}
			timeout = (int)(next_poll - now);
		} else {
			next_poll = 0;
		}
		/* The poll mode never sleeps (its rounds end only for the spurious poll above). */
		if (mode == UIRQ_WAIT_POLL && !uirq_sim_current)
			continue;
		atomic_store(&c->sleeping, 1);
		if (atomic_load(&c->head) || atomic_load(&c->stop)) {
			atomic_store(&c->sleeping, 0);
			continue;
		}
		if (uirq_sim_current) {
			/* The deterministic mode's idle: its fds polled first, then ring_sim() or a kick wakes it. */
			if (atomic_load_explicit(&c->nr_virt, memory_order_relaxed) && poll_virtual(c)) {
				atomic_store(&c->sleeping, 0);
				continue;
			}
			if (timeout < 0)
				uirq_futex_wait(&c->sleeping, 1);
			else
				uirq_futex_wait_timeout(&c->sleeping, 1, (uint64_t)timeout * 1000000u);
			atomic_store(&c->sleeping, 0);
			continue;
		}
		uint64_t slept = now_ns();
		int n = epoll_wait(c->epfd, evs, 32, timeout);

		looked = now_ns();
		atomic_store(&c->sleeping, 0);
		bool rung = serve_events(c, evs, n);
		/*
		 * Adapt the window.  A raise that came within POLL_MAX_NS of the
		 * queue running empty would have been caught by a longer poll:
		 * grow.  A later raise, or an fd or a timeout: shrink (fds are
		 * not polled, so polling does not help them).  A raiser on the
		 * core we woke up on (where we would poll next) could not run
		 * while we poll: stop polling.
		 */
		uint64_t rung_at = atomic_load_explicit(&c->rung_at, memory_order_relaxed);

		if (rung && atomic_load_explicit(&c->rung_core, memory_order_relaxed) == sched_getcpu())
			c->poll_ns = 0;
		else if (rung && rung_at >= slept && polled + (rung_at - slept) <= POLL_MAX_NS)
			poll_grow(c);
		else
			poll_shrink(c);
	}
	irq_fault_thread_exit();
	return NULL;
}

/* ---- start and stop ---- */

static void wake_to_stop(struct uirq_cpu *c)
{
	if (uirq_sim_current)
		ring_sim(c);
	else
		ring(c);
}


static void rehome(struct uirq_irq_desc *desc, void *arg)
{
	(void)arg;
	irq_update_effective_affinity(desc);
}

/*
 * The cores the process may use: its affinity when the library was loaded
 * (a `taskset` of the whole program), before any thread pinned itself.
 * Unpinned CPUs and handler threads get this mask rather than inheriting the
 * affinity of whichever thread started them.
 */
static cpu_set_t process_cpus;
static bool process_cpus_known;

__attribute__((constructor)) static void capture_process_cpus(void)
{
	process_cpus_known = !sched_getaffinity(0, sizeof(process_cpus), &process_cpus);
}

void uirq_process_cpus(cpu_set_t *set)
{
	if (process_cpus_known) {
		*set = process_cpus;
		return;
	}
	CPU_ZERO(set);
	for (int i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, set);	/* the kernel keeps what the cpuset allows */
}

/* Is core online?  /sys/devices/system/cpu/online ("0-3,6"), else below the configured count. */
static bool core_online(int core)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	bool on = false;

	if (!f)
		return core < sysconf(_SC_NPROCESSORS_CONF);
	int a, b;
	char sep;

	while (fscanf(f, "%d", &a) == 1) {
		b = a;
		sep = (char)fgetc(f);
		if (sep == '-') {
			if (fscanf(f, "%d", &b) != 1)
				break;
			sep = (char)fgetc(f);
		}
		if (core >= a && core <= b)
			on = true;
		if (sep != ',')
			break;
	}
	fclose(f);
	return on;
}

/*
 * A pin is checked against the cores that exist and are online, not the
 * calling thread's affinity (often pinned itself); whether the process's
 * cpuset allows the core is the kernel's say when the CPU thread is created.
 */
static bool pin_valid(int core)
{
	cpu_set_t set;

	if (core == -1)
		return true;
	if (core < 0 || core >= CPU_SETSIZE)
		return false;
	uirq_process_cpus(&set);
	if (process_cpus_known && CPU_ISSET(core, &set))
		return true;
	/* Not in the mask the process started with: it may have widened it since. */
	if (!sched_getaffinity(getpid(), sizeof(set), &set) && CPU_ISSET(core, &set))
		return true;
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_ISSET(core, &set))
		return true;
	return !process_cpus_known && core_online(core);
}

int uirq_cpus_start(const struct uirq_cpu_config *cfg)
{
	unsigned int n = cfg && cfg->nr_cpus ? cfg->nr_cpus : 1;
	bool pinned = cfg && cfg->pinned;
	int ret = 0;

	if (n > UIRQ_MAX_CPUS)
		return -EINVAL;
	for (unsigned int i = 0; pinned && i < n; i++)
		if (!pin_valid(cfg->pin[i]))
			return -EINVAL;
	irq_fault_init();

	pthread_mutex_lock(&cpus_lock);
	if (atomic_load(&nr_running)) {
		pthread_mutex_unlock(&cpus_lock);
		return -EBUSY;
	}
	for (unsigned int i = 0; i < n; i++) {
		ret = slot_init_locked(i);
		if (ret) {
			pthread_mutex_unlock(&cpus_lock);
			return ret;
		}
		pins[i] = pinned ? cfg->pin[i] : -1;
	}
	nr_configured = n;
	atomic_store(&force_irqthreads, cfg && cfg->threadirqs);
	pthread_mutex_unlock(&cpus_lock);

	irq_resize_kstats(n);

	pthread_mutex_lock(&cpus_lock);
	unsigned int started = 0;

	for (; started < n; started++) {
		struct uirq_cpu *c = &cpus[started];
		pthread_attr_t attr;

		atomic_store(&c->stop, false);
		pthread_attr_init(&attr);
		cpu_set_t set;

		/* Unpinned: wherever the process may run, not where the caller is pinned. */
		if (pins[started] >= 0) {
			CPU_ZERO(&set);
			CPU_SET(pins[started], &set);
		} else {
			uirq_process_cpus(&set);
		}
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		char name[16];

		snprintf(name, sizeof(name), "uirq/cpu%u", started);
		int err = uirq_sim_thread_create(&c->thread, &attr, cpu_thread, c, name);

		pthread_attr_destroy(&attr);
		if (err) {
			ret = -err;
			break;
		}
	}
	if (ret) {
		for (unsigned int i = 0; i < started; i++) {
			atomic_store(&cpus[i].stop, true);
			wake_to_stop(&cpus[i]);
			uirq_sim_thread_join(cpus[i].thread, NULL);
		}
		nr_configured = 0;
		pthread_mutex_unlock(&cpus_lock);
		return ret;
	}
	atomic_store(&nr_running, n);
	pthread_mutex_unlock(&cpus_lock);

	/* Lines follow their affinity onto the CPUs now online. */
	irq_for_each_desc(rehome, NULL);
	irq_hung_cpus_started();
	return 0;
}

void uirq_cpus_stop(void)
{
	irq_hung_cpus_stopped();
	pthread_mutex_lock(&cpus_lock);
	unsigned int n = atomic_load(&nr_running);

	for (unsigned int i = 0; i < n; i++) {
		atomic_store(&cpus[i].stop, true);
		wake_to_stop(&cpus[i]);
	}
	for (unsigned int i = 0; i < n; i++)
		uirq_sim_thread_join(cpus[i].thread, NULL);
	atomic_store(&nr_running, 0);
	pthread_mutex_unlock(&cpus_lock);
}

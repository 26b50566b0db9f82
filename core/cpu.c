// SPDX-License-Identifier: MIT
/*
 * The CPUs: threads that take interrupts.  Each has a pending queue of
 * raised lines (a lock-free stack; a raise of a line already queued
 * coalesces, as a latch does), an epoll set for the fds of fd-backed lines
 * and an eventfd doorbell.  A raiser rings the doorbell only when the CPU
 * announced it is going to sleep, so a busy CPU costs no system call.
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
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "internals.h"

#define DOORBELL_TAG	UINT64_MAX

struct uirq_cpu {
	_Atomic(struct uirq_irq_desc *) head;	/* pending lines */
	atomic_int sleeping;			/* about to wait: ring the doorbell */
	atomic_bool stop;
	_Atomic(struct uirq_irq_desc *) current;	/* being handled */
	int epfd;
	int doorbell;
	int pin;
	unsigned int index;
	pthread_t thread;
};

static struct uirq_cpu cpus[UIRQ_MAX_CPUS];
static pthread_mutex_t cpus_lock = PTHREAD_MUTEX_INITIALIZER;	/* start/stop, slot setup */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;	/* fd watches */
static atomic_uint nr_running;	/* 0 while stopped */
static unsigned int nr_configured;
static int pins[UIRQ_MAX_CPUS];
static atomic_bool force_irqthreads;
static __thread int this_cpu = -1;

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

int uirq_irq_raise(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -EINVAL;
	if (atomic_exchange(&desc->raised, 1))
		return 0;	/* already pending: coalesced */
	struct uirq_cpu *c = &cpus[atomic_load_explicit(&desc->cpu, memory_order_relaxed)];
	struct uirq_irq_desc *old = atomic_load_explicit(&c->head, memory_order_relaxed);

	do {
		atomic_store_explicit(&desc->next_pending, old, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak(&c->head, &old, desc));
	if (atomic_load(&c->sleeping) && atomic_exchange(&c->sleeping, 0))
		ring(c);
	return 0;
}

void uirq_cpu_poke(unsigned int cpu)
{
	struct uirq_cpu *c = &cpus[cpu];

	if (atomic_load(&c->sleeping) && atomic_exchange(&c->sleeping, 0))
		ring(c);
}

/* One interrupt: the flow handler in hard-irq context, interrupts off. */
static void handle_one(struct uirq_irq_desc *desc)
{
	uirq_irq_flow_handler_t handle = __atomic_load_n(&desc->handle_irq, __ATOMIC_ACQUIRE);

	uirq_local_irq_disable();
	uirq_hardirq_enter();
	irq_kick_defer_begin();
	if (handle)
		handle(desc);
	else
		uirq_generic_handle_irq(desc->irq_data.irq);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
	irq_kick_flush();
}

static void run_pending(struct uirq_cpu *c, struct uirq_irq_desc *list)
{
	struct uirq_irq_desc *rev = NULL;

	/* The stack is last-in first-out: reverse it to serve in raise order. */
	while (list) {
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

static void fd_event(uint64_t irq)
{
	struct uirq_irq_desc *desc = irq_to_desc((unsigned int)irq);
	bool ours = false;

	if (!desc)
		return;
	pthread_mutex_lock(&watch_lock);
	if (desc->watch && desc->watch->cpu == this_cpu) {
		desc->watch->armed = false;	/* EPOLLONESHOT disabled it */
		ours = true;
	}
	pthread_mutex_unlock(&watch_lock);
	if (ours)
		uirq_irq_raise((unsigned int)irq);
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

static void *cpu_thread(void *arg)
{
	struct uirq_cpu *c = arg;
	struct epoll_event evs[32];
	unsigned long next_poll = 0;
	char name[16];

	this_cpu = (int)c->index;
	snprintf(name, sizeof(name), "uirq/cpu%u", c->index);
	pthread_setname_np(pthread_self(), name);
	for (;;) {
		struct uirq_irq_desc *list = atomic_exchange(&c->head, NULL);

		if (list) {
			run_pending(c, list);
			continue;
		}
		if (atomic_load(&c->stop))
			break;
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
		atomic_store(&c->sleeping, 1);
		if (atomic_load(&c->head) || atomic_load(&c->stop)) {
			atomic_store(&c->sleeping, 0);
			continue;
		}
		int n = epoll_wait(c->epfd, evs, 32, timeout);

		atomic_store(&c->sleeping, 0);
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u64 == DOORBELL_TAG) {
				uint64_t v;

				if (read(c->doorbell, &v, sizeof(v)) < 0 && errno != EAGAIN)
					uirq_printk("uirq: cpu%u doorbell: %s\n", c->index, strerror(errno));
			} else {
				fd_event(evs[i].data.u64);
			}
		}
	}
	return NULL;
}

/* ---- fd watches ---- */

static int watch_register(struct uirq_fd_watch *w, unsigned int irq, int op)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLONESHOT, .data.u64 = irq };

	return epoll_ctl(cpus[w->cpu].epfd, op, w->fd, &ev) ? -errno : 0;
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
	unsigned int cpu = atomic_load(&desc->cpu);

	ret = slot_init(cpu);
	if (ret)
		return ret;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->cpu = (int)cpu;
	pthread_mutex_lock(&watch_lock);
	if (desc->watch) {
		ret = -EBUSY;
	} else {
		ret = watch_register(w, irq, EPOLL_CTL_ADD);
		if (!ret) {
			w->armed = true;
			desc->watch = w;
			w = NULL;
		}
	}
	pthread_mutex_unlock(&watch_lock);
	free(w);
	return ret;
}

void uirq_cpu_rearm_fd(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	pthread_mutex_lock(&watch_lock);
	struct uirq_fd_watch *w = desc->watch;

	if (w && !w->armed) {
		/* Still registered (disabled by EPOLLONESHOT): MOD; else it was moved: ADD. */
		if (watch_register(w, irq, EPOLL_CTL_MOD) == -ENOENT)
			watch_register(w, irq, EPOLL_CTL_ADD);
		w->armed = true;
	}
	pthread_mutex_unlock(&watch_lock);
}

static void unwatch_locked(struct uirq_irq_desc *desc)
{
	struct uirq_fd_watch *w = desc->watch;

	if (!w)
		return;
	epoll_ctl(cpus[w->cpu].epfd, EPOLL_CTL_DEL, w->fd, NULL);
	desc->watch = NULL;
	free(w);
}

void uirq_cpu_unwatch_fd(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	pthread_mutex_lock(&watch_lock);
	unwatch_locked(desc);
	pthread_mutex_unlock(&watch_lock);
}

void uirq_cpu_move_watch(struct uirq_irq_desc *desc)
{
	unsigned int cpu = atomic_load(&desc->cpu);

	if (slot_init(cpu))
		return;
	pthread_mutex_lock(&watch_lock);
	struct uirq_fd_watch *w = desc->watch;

	if (w && w->cpu != (int)cpu) {
		epoll_ctl(cpus[w->cpu].epfd, EPOLL_CTL_DEL, w->fd, NULL);
		w->cpu = (int)cpu;
		/* A disarmed watch is added back by the next rearm. */
		if (w->armed && watch_register(w, desc->irq_data.irq, EPOLL_CTL_ADD))
			w->armed = false;
	}
	pthread_mutex_unlock(&watch_lock);
}

void uirq_cpu_forget_desc(struct uirq_irq_desc *desc)
{
	pthread_mutex_lock(&watch_lock);
	unwatch_locked(desc);
	pthread_mutex_unlock(&watch_lock);
	for (unsigned int i = 0; i < UIRQ_MAX_CPUS; i++) {
		unsigned int round = 0;

		while (atomic_load(&cpus[i].current) == desc)
			uirq_backoff(&round);
	}
}

/* ---- start and stop ---- */


static void rehome(struct uirq_irq_desc *desc, void *arg)
{
	(void)arg;
	irq_update_effective_affinity(desc);
}

int uirq_cpus_start(const struct uirq_cpu_config *cfg)
{
	unsigned int n = cfg && cfg->nr_cpus ? cfg->nr_cpus : 1;
	cpu_set_t allowed;
	int ret = 0;

	if (n > UIRQ_MAX_CPUS)
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (unsigned int i = 0; cfg && i < n; i++)
		if (cfg->pin[i] >= 0 && (cfg->pin[i] >= CPU_SETSIZE || !CPU_ISSET(cfg->pin[i], &allowed)))
			return -EINVAL;

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
		pins[i] = cfg ? cfg->pin[i] : -1;
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
		if (pins[started] >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(pins[started], &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		int err = pthread_create(&c->thread, &attr, cpu_thread, c);

		pthread_attr_destroy(&attr);
		if (err) {
			ret = -err;
			break;
		}
	}
	if (ret) {
		for (unsigned int i = 0; i < started; i++) {
			atomic_store(&cpus[i].stop, true);
			ring(&cpus[i]);
			pthread_join(cpus[i].thread, NULL);
		}
		nr_configured = 0;
		pthread_mutex_unlock(&cpus_lock);
		return ret;
	}
	atomic_store(&nr_running, n);
	pthread_mutex_unlock(&cpus_lock);

	/* Lines follow their affinity onto the CPUs now online. */
	irq_for_each_desc(rehome, NULL);
	return 0;
}

void uirq_cpus_stop(void)
{
	pthread_mutex_lock(&cpus_lock);
	unsigned int n = atomic_load(&nr_running);

	for (unsigned int i = 0; i < n; i++) {
		atomic_store(&cpus[i].stop, true);
		ring(&cpus[i]);
	}
	for (unsigned int i = 0; i < n; i++)
		pthread_join(cpus[i].thread, NULL);
	atomic_store(&nr_running, 0);
	pthread_mutex_unlock(&cpus_lock);
}

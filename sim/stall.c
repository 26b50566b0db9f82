// SPDX-License-Identifier: MIT
/*
 * A task that blocks where the scheduler cannot see it - a raw pthread
 * lock held by a task that is not running, a blocking system call - or
 * spins without a scheduling point holds the token forever: every other
 * task waits for it, and the run would hang in silence.  A watcher thread
 * (not a task: it must run while the token is stuck) samples the decision
 * count; when it has not moved for the stall time it names the task that
 * holds the token, what the kernel says it is doing, and ends the run
 * through the failure handler (or abort()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/lib.h"
#include "internal.h"

static uint64_t stall_ms = 10000;
/*
 * One watcher per process, made at the first start and idle between runs
 * (a fuzzer starts and stops the mode for every input: a thread made and
 * joined each time cost more than the run).  watch_on is 1 during a run
 * and the word it waits on; watch_gen tells a new run from the last.
 */
static atomic_uint watch_on, watch_gen;
static atomic_uint watch_busy;	/* 1 while the watcher reads a task: the stop waits it out before freeing them */
static pid_t watcher_pid;	/* the process that made it: a forked child has none */

void uirq_sim_set_stall_ms(uint64_t ms)
{
	__atomic_store_n(&stall_ms, ms ? ms : 1, __ATOMIC_RELAXED);
}

/* The first line of /proc/self/task/TID/<what>, or "?" */
static void task_file(int tid, const char *what, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, what);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void stalled(struct uirq_sim_task *t, uint64_t steps)
{
	static char report[1024];	/* once: the handler ends the run */
	char stat[512], sys[128], wchan[64];
	const char *st;
	char state = '?';
	int tid = atomic_load(&t->tid);

	task_file(tid, "stat", stat, sizeof(stat));
	task_file(tid, "syscall", sys, sizeof(sys));
	task_file(tid, "wchan", wchan, sizeof(wchan));
	/* stat: "tid (comm) S ...": the state follows the last ')'. */
	st = strrchr(stat, ')');
	if (st && st[1] == ' ')
		state = st[2];
	snprintf(report, sizeof(report),
		 "uirq sim: task %u '%s' (tid %d) has held the token for %llu ms without a scheduling point "
		 "(decision %llu): it %s where the scheduler cannot see it - a raw pthread call or a blocking "
		 "system call (move it onto uirq's locks and waits, or make the thread no task)\n"
		 "  kernel state %c, system call %s, wchan %s\n",
		 t->id, t->name, tid, (unsigned long long)stall_ms, (unsigned long long)steps,
		 state == 'R' ? "spins" : "blocks", state, sys, wchan[0] && wchan[0] != '0' ? wchan : "-");
	uirq_sim_fail(report);
}

static void *watch_fn(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "uirq/simwatch");
	for (;;) {
		while (!atomic_load(&watch_on))
			uirq_futex_wait_kernel(&watch_on, 0, NULL);

		unsigned int gen = atomic_load(&watch_gen);
		uint64_t last = UINT64_MAX, still_ms = 0, ms = __atomic_load_n(&stall_ms, __ATOMIC_RELAXED);
		uint64_t tick = ms < 100 ? ms : 100;
		struct timespec ts = { .tv_sec = (time_t)(tick / 1000), .tv_nsec = (long)(tick % 1000) * 1000000 };

		while (atomic_load(&watch_on) && atomic_load(&watch_gen) == gen) {
			uirq_futex_wait_kernel(&watch_on, 1, &ts);
			uint64_t now = atomic_load(&uirq_sim_progress);

			still_ms = now == last ? still_ms + tick : 0;
			last = now;
			if (still_ms >= ms) {
				/* Busy first, then the run's flag: the stop clears the flag, then waits for busy. */
				atomic_store(&watch_busy, 1);
				if (atomic_load(&watch_on) && atomic_load(&watch_gen) == gen) {
					struct uirq_sim_task *t = atomic_load(&uirq_sim_holder);

					if (t)
						stalled(t, now);
				}
				atomic_store(&watch_busy, 0);
				uirq_futex_wake_kernel(&watch_busy, 1);
				still_ms = 0;
			}
		}
	}
	return NULL;
}

void uirq_sim_watch_start(void)
{
	atomic_fetch_add(&watch_gen, 1);
	atomic_store(&watch_on, 1);
	if (watcher_pid != getpid()) {
		pthread_attr_t attr;
		pthread_t t;
		int err;

		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		err = pthread_create(&t, &attr, watch_fn, NULL);
		pthread_attr_destroy(&attr);
		if (err) {
			uirq_log_write("uirq sim: no watcher thread: a task blocking outside the scheduler would hang unnamed\n");
			return;
		}
		watcher_pid = getpid();
	}
	uirq_futex_wake_kernel(&watch_on, 1);
}

void uirq_sim_watch_stop(void)
{
	atomic_store(&watch_on, 0);
	uirq_futex_wake_kernel(&watch_on, 1);
	while (atomic_load(&watch_busy))
		uirq_futex_wait_kernel(&watch_busy, 1, NULL);
}

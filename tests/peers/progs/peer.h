/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the ported peer tests: plain pthread code, no uirq
 * headers, so that every program also runs under TSan and Helgrind.
 */
#ifndef PEER_H
#define PEER_H

/* expect(), ok(), deadline_ms() and run_thread(), as the project's own test programs have them */
#include "../../preload/progs/prog.h"

#include <stdatomic.h>
#include <sys/syscall.h>

static inline void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Start n threads, one per function, then wait for all of them. */
static inline void run_together(void *(*const fn[])(void *), int n, void *arg)
{
	pthread_t t[16];

	for (int i = 0; i < n; i++)
		ok(pthread_create(&t[i], NULL, fn[i], arg));
	for (int i = 0; i < n; i++)
		ok(pthread_join(t[i], NULL));
}

/* Argument n as a count, or fallback when absent. */
static inline long arg_or(int argc, char **argv, int n, long fallback)
{
	return argc > n ? atol(argv[n]) : fallback;
}

/*
 * Programs whose peer test really deadlocks run the deadlocking steps in
 * threads and let main return once those threads sleep in the kernel: the
 * validator has spoken before the blocking call, and exit() takes the stuck
 * threads down with the process.  A thread calls publish_tid() right
 * before its last, blocking lock; main calls wait_stuck() on all of them.
 */
static inline void publish_tid(atomic_int *tid)
{
	atomic_store(tid, (int)syscall(SYS_gettid));
}

/* True when thread tid sits in a futex wait. */
static inline bool in_futex_wait(int tid)
{
	char path[64], buf[64];
	FILE *f;
	long nr = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		nr = strtol(buf, NULL, 10);
	fclose(f);
	return nr == SYS_futex;
}

/*
 * Wait (5 s at most) until each of the n threads has announced itself and
 * all of them have sat in a futex wait for 100 ms on end.
 */
static inline void wait_stuck(atomic_int *tids, int n)
{
	int calm = 0;

	for (int waited = 0; waited < 5000 && calm < 10; waited += 10) {
		bool all = true;

		for (int i = 0; i < n && all; i++) {
			int t = atomic_load(&tids[i]);

			all = t && in_futex_wait(t);
		}
		calm = all ? calm + 1 : 0;
		sleep_ms(10);
	}
}

/* Wait (5 s at most) until thread tid is gone from the process, without joining it. */
static inline void wait_gone(atomic_int *tid)
{
	char path[64];

	for (int waited = 0; waited < 5000; waited += 1) {
		int t = atomic_load(tid);

		snprintf(path, sizeof(path), "/proc/self/task/%d", t);
		if (t && access(path, F_OK) != 0)
			return;
		sleep_ms(1);
	}
}

#endif

// SPDX-License-Identifier: MIT
/* The futex calls behind every sleeping lock and wait of uirq. */
#include <errno.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib.h"
#include "uirq/sim.h"

int uirq_futex_wait_kernel(void *addr, unsigned int val, const struct timespec *timeout)
{
	return syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, timeout, NULL, 0) ? -errno : 0;
}

int uirq_futex_wake_kernel(void *addr, int nr)
{
	long r = syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);

	return r < 0 ? -errno : (int)r;
}

__thread const struct uirq_sched_ops *uirq_sched __attribute__((tls_model("initial-exec")));
bool uirq_sched_replays;

/* A task of another scheduler (the deterministic mode's) goes to its futex table; everybody else to the kernel's. */
void uirq_futex_wait(void *addr, unsigned int val)
{
	if (__builtin_expect(uirq_sched != NULL, 0)) {
		uirq_sched->wait(addr, val, UINT64_MAX);
		return;
	}
	uirq_futex_wait_kernel(addr, val, NULL);
}

void uirq_futex_wake(void *addr, int nr)
{
	if (__builtin_expect(uirq_sched != NULL, 0)) {
		uirq_sched->wake(addr, nr);
		return;
	}
	uirq_futex_wake_kernel(addr, nr);
}

int uirq_futex_wait_timeout(void *addr, unsigned int val, uint64_t ns)
{
	/* Even the longest timeout is a timer there: it keeps the run from being called a deadlock. */
	if (__builtin_expect(uirq_sched != NULL, 0))
		return uirq_sched->wait(addr, val, ns == UINT64_MAX ? UINT64_MAX - 1 : ns) == -ETIMEDOUT ? -ETIMEDOUT : 0;
	struct timespec ts = uirq_ns_to_timespec(ns);

	return uirq_futex_wait_kernel(addr, val, &ts) == -ETIMEDOUT ? -ETIMEDOUT : 0;
}

/* The public face of the two calls above (uirq/sim.h), for code outside the library. */
int uirq_sim_wait_word(uint32_t *word, uint32_t val, uint64_t timeout_ns)
{
	if (timeout_ns == UIRQ_SIM_WAIT_FOREVER) {
		uirq_futex_wait(word, val);
		return 0;
	}
	return uirq_futex_wait_timeout(word, val, timeout_ns);
}

void uirq_sim_wake_word(uint32_t *word, int nr)
{
	uirq_futex_wake(word, nr);
}

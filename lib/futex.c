// SPDX-License-Identifier: MIT
/* The futex calls behind every sleeping lock and wait of uirq. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib.h"
#include "sim.h"

/* A deterministic-mode task goes to the scheduler's futex table; everybody else to the kernel's. */
void uirq_futex_wait(void *addr, unsigned int val)
{
	if (__builtin_expect(uirq_sim_current != NULL, 0)) {
		uirq_sim_futex_wait(addr, val);
		return;
	}
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void uirq_futex_wake(void *addr, int nr)
{
	if (__builtin_expect(uirq_sim_current != NULL, 0)) {
		uirq_sim_futex_wake(addr, nr);
		return;
	}
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

// SPDX-License-Identifier: MIT
/* The futex calls behind every sleeping lock and wait of uirq. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib.h"

void uirq_futex_wait(void *addr, unsigned int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void uirq_futex_wake(void *addr, int nr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

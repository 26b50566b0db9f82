// SPDX-License-Identifier: MIT
/* jiffies at HZ=1000: the kernel's coarse clock, for the spurious and hung-task timings. */
#include <time.h>

#include "lib.h"

unsigned long uirq_jiffies(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000ul + (unsigned long)ts.tv_nsec / 1000000ul;
}

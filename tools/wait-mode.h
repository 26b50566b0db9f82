/* SPDX-License-Identifier: MIT */
/* --wait MODE of the tools: uirq's wait modes (uirq/irq.h) for every CPU and every line's handler threads. */
#ifndef UIRQ_TOOLS_WAIT_MODE_H
#define UIRQ_TOOLS_WAIT_MODE_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/irq.h"

struct tool_wait {
	enum uirq_wait_mode mode;
	unsigned int ns;	/* adaptive's bound, 0: the default */
};

#define TOOL_WAIT_HELP "blocking (the default), adaptive[:NS] (poll up to NS ns before sleeping), or poll"

/* "blocking", "adaptive", "adaptive:NS" (1 to 10^9) or "poll" into w; 0 or -1. */
static inline int tool_wait_parse(const char *s, struct tool_wait *w)
{
	char *end;

	*w = (struct tool_wait){ UIRQ_WAIT_BLOCKING, 0 };
	if (!strcmp(s, "blocking"))
		return 0;
	if (!strcmp(s, "poll")) {
		w->mode = UIRQ_WAIT_POLL;
		return 0;
	}
	if (strncmp(s, "adaptive", 8) || (s[8] && s[8] != ':'))
		return -1;
	w->mode = UIRQ_WAIT_ADAPTIVE;
	if (!s[8])
		return 0;
	errno = 0;
	unsigned long ns = strtoul(s + 9, &end, 10);

	if (!s[9] || s[9] == '-' || *end || errno || !ns || ns > 1000000000ul)
		return -1;
	w->ns = (unsigned int)ns;
	return 0;
}

/* Every running CPU and the handler threads of every line that has a descriptor now: 0 or -errno. */
static inline int tool_wait_apply(const struct tool_wait *w)
{
	unsigned int n = uirq_irq_get_nr_irqs();
	int err = 0;

	for (unsigned int cpu = 0; cpu < uirq_num_cpus() && !err; cpu++)
		err = uirq_cpu_set_wait(cpu, w->mode, w->ns);
	for (unsigned int irq = 1; irq < n && !err; irq++)
		if (uirq_irq_to_desc(irq))
			err = uirq_irq_set_thread_wait(irq, w->mode, w->ns);
	return err;
}

#endif

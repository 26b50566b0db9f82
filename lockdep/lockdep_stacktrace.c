// SPDX-License-Identifier: MIT
/* Stack traces for reports: captured with backtrace(), symbolised at print time. */
#define _GNU_SOURCE
#include "lockdep_internal.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

static void *self_base;

void lockdep_stacktrace_init(void)
{
	void *buf[2];
	Dl_info info;

	/* The first backtrace() loads the unwinder and allocates: do it before any lock is held. */
	backtrace(buf, 2);
	if (dladdr((void *)lockdep_save_trace, &info))
		self_base = info.dli_fbase;
}

static bool in_self(void *ip)
{
	Dl_info info;

	return self_base && dladdr(ip, &info) && info.dli_fbase == self_base;
}

void lockdep_save_trace(struct lockdep_trace *trace, int skip)
{
	void *buf[LOCKDEP_TRACE_FRAMES + 16];
	int n, first;

	n = backtrace(buf, (int)(sizeof(buf) / sizeof(buf[0])));
	/* Frames inside the engine's own object say nothing to the user: drop them. */
	first = 1 + skip;
	while (first < n && in_self(buf[first]))
		first++;
	if (first >= n)
		first = n > 1 + skip ? 1 + skip : n;	/* statically linked: keep everything */
	trace->nr = 0;
	for (int i = first; i < n && trace->nr < LOCKDEP_TRACE_FRAMES; i++)
		trace->frames[trace->nr++] = (unsigned long)buf[i];
}

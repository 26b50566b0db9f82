// SPDX-License-Identifier: MIT
/* Stack traces for reports: captured with backtrace(), symbolised at print time. */
#define _GNU_SOURCE
#include "lockdep_internal.h"

#include <execinfo.h>
#include <link.h>
#include <string.h>

/* The address range of the object this engine is in: its frames are dropped from traces. */
static uintptr_t self_lo, self_hi;

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t me = (uintptr_t)data, lo = UINTPTR_MAX, hi = 0;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (me < lo || me >= hi)
		return 0;
	self_lo = lo;
	self_hi = hi;
	return 1;
}

void lockdep_stacktrace_init(void)
{
	void *buf[2];

	/* The first backtrace() loads the unwinder and allocates: do it before any lock is held. */
	backtrace(buf, 2);
	dl_iterate_phdr(find_self, (void *)(uintptr_t)lockdep_save_trace);
}

/* A compare, not a dladdr() a frame: traces are taken for every new dependency. */
static bool in_self(void *ip)
{
	return (uintptr_t)ip >= self_lo && (uintptr_t)ip < self_hi;
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

// SPDX-License-Identifier: MIT
/* Function names for messages (the kernel's %ps), from the report symbolizer (symbolize.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib.h"
#include "symbolize.h"

/* The symbolizer reads .symtab (libdw): static functions have names too; without libdw, exported ones only. */
const char *uirq_symbol_name(const void *fn, char *buf, size_t len)
{
	struct uirq_sym s;

	if (fn && uirq_sym_code((unsigned long)fn, true, &s) && s.func) {
		snprintf(buf, len, "%s+0x%lx", s.func, s.func_off);
		return buf;
	}
	return NULL;
}

const char *uirq_symbol(const void *fn, char *buf, size_t len)
{
	struct uirq_sym s;

	if (fn && uirq_sym_code((unsigned long)fn, true, &s)) {
		if (s.func)
			snprintf(buf, len, "%s+0x%lx", s.func, s.func_off);
		else	/* where it lies in its object, which does not move with ASLR */
			snprintf(buf, len, "%s+0x%lx", s.module, s.module_off);
		return buf;
	}
	snprintf(buf, len, "%p", fn);
	return buf;
}

/*
 * The deterministic mode's stand-in for an address that ASLR moves: code
 * and static data by their offset in their object; anything else (the
 * heap, stacks) by the order it was first shown in, tagged in the top bits
 * - a replayed run shows the same pointers in the same order.
 */
#define SHOWN_MAX	1024
#define SHOWN_TAG	0xa110c00000000000ul

unsigned long uirq_ptr_shown(const void *p)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static const void *seen[SHOWN_MAX];
	static unsigned int nseen;
	unsigned long id = (unsigned long)p;
	Dl_info info;

	if (!uirq_sched_replays || !p)
		return id;
	if (dladdr(p, &info) && info.dli_fbase && info.dli_sname)
		return (unsigned long)((const char *)p - (const char *)info.dli_fbase);
	pthread_mutex_lock(&lock);
	unsigned int i = 0;

	while (i < nseen && seen[i] != p)
		i++;
	if (i == nseen && nseen < SHOWN_MAX)
		seen[nseen++] = p;
	pthread_mutex_unlock(&lock);
	return SHOWN_TAG | (i + 1);
}

long uirq_task_pid(void)
{
	return uirq_sched ? uirq_sched->task_pid() : (long)gettid();
}

void uirq_task_comm(char buf[16])
{
	if (uirq_sched) {
		uirq_sched->comm(buf);
		return;
	}
	buf[0] = '\0';
	if (prctl(PR_GET_NAME, buf, 0, 0, 0))
		snprintf(buf, 16, "?");
	buf[15] = '\0';
}

void uirq_task_set_comm(const char *name)
{
	if (uirq_sched)
		uirq_sched->set_comm(name);
	else
		pthread_setname_np(pthread_self(), name);
}

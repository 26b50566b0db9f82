// SPDX-License-Identifier: MIT
/* An alternate signal stack for a thread (lib.h): fault containment's threads, the deterministic mode's. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib.h"

void uirq_altstack_install(struct uirq_altstack *a, size_t size, size_t min)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	stack_t cur, ss;
	void *p;

	a->mem = NULL;
	/* A sanitizer gives every thread one, and unmaps whatever is installed at exit: keep it. */
	if (!sigaltstack(NULL, &cur) && !(cur.ss_flags & SS_DISABLE) && cur.ss_size >= min)
		return;
	p = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (p == MAP_FAILED)
		return;	/* faults still reach the handler, only an overflow does not */
	mprotect(p, page, PROT_NONE);	/* the handler's own overflow faults, not scribbles */
	ss = (stack_t){ .ss_sp = (char *)p + page, .ss_size = size };
	if (sigaltstack(&ss, &a->old)) {
		munmap(p, size + page);
		return;
	}
	a->mem = p;
	a->len = size + page;
}

void uirq_altstack_remove(struct uirq_altstack *a)
{
	if (!a->mem)
		return;
	if (a->old.ss_flags & SS_DISABLE)
		a->old = (stack_t){ .ss_flags = SS_DISABLE };
	sigaltstack(&a->old, NULL);
	munmap(a->mem, a->len);
	a->mem = NULL;
}

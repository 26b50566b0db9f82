// SPDX-License-Identifier: MIT
/* Function names for messages (the kernel's %ps), from the dynamic symbol table. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "lib.h"

const char *uirq_symbol_name(const void *fn, char *buf, size_t len)
{
	Dl_info info;

	/* dladdr() knows exported symbols only: static functions have no name here. */
	if (fn && dladdr(fn, &info) && info.dli_sname && info.dli_saddr) {
		snprintf(buf, len, "%s+0x%lx", info.dli_sname,
			 (unsigned long)((const char *)fn - (const char *)info.dli_saddr));
		return buf;
	}
	return NULL;
}

const char *uirq_symbol(const void *fn, char *buf, size_t len)
{
	if (!uirq_symbol_name(fn, buf, len))
		snprintf(buf, len, "%p", fn);
	return buf;
}

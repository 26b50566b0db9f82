/* SPDX-License-Identifier: MIT */
/*
 * Symbols for reports: code addresses as "func+0x1c (file.c:42) [module]"
 * and lock addresses as "stats_lock" or "pool+16", from the ELF symbol
 * tables and DWARF line tables of the objects mapped in this process
 * (elfutils libdwfl, loaded at the first use; see symbolize.c).
 *
 * Meant for report time: the calls may allocate and read files, and take a
 * spin lock of their own (never a pthread lock), so they work inside the
 * preload module with the graph lock held.  A bad address never crashes.
 */
#ifndef UIRQ_LIB_SYMBOLIZE_H
#define UIRQ_LIB_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>

#pragma GCC visibility push(hidden)

struct uirq_sym {
	const char *func;		/* function name, NULL if unknown */
	unsigned long func_off;		/* ip - function start */
	const char *file;		/* source file from DWARF line info, NULL if none */
	int line;			/* 0 if none */
	const char *module;		/* basename of the ELF object ("abba", "libc.so.6") */
	unsigned long module_off;	/* ip - object's load bias */
	/* storage for the strings above (each truncated to fit) */
	char store[512];
};

/*
 * Set by a thread reporting from inside a fatal signal handler (core/fault.c):
 * its calls answer at dladdr() quality, without loading libdw or reading
 * files on a small signal stack in a process whose state is unknown.
 */
extern __thread bool uirq_sym_dladdr_only;

/* Symbolize a code address; ip is a return address unless exact is true (then no -1 adjustment). */
bool uirq_sym_code(unsigned long ip, bool exact, struct uirq_sym *out);
/* Name the global or static variable that contains addr ("stats_lock", or "pool+16" inside a larger object); false if none. */
bool uirq_sym_data(unsigned long addr, char *buf, size_t len);
/* Format "func+0x1c (file.c:42) [module]" / "module+0x1234" as reports print a frame. */
int uirq_sym_format(unsigned long ip, bool exact, char *buf, size_t len);

#pragma GCC visibility pop

#endif

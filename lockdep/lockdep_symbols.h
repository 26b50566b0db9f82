/* SPDX-License-Identifier: MIT */
/*
 * Symbols for reports: code addresses as "func+0x1c (file.c:42) [module]"
 * and lock addresses as "stats_lock" or "pool+16", from the ELF symbol
 * tables and DWARF line tables of the objects mapped in this process
 * (elfutils libdwfl, loaded at the first use; see lockdep_symbols.c).
 *
 * Meant for report time: the calls may allocate and read files, and take a
 * spin lock of their own (never a pthread lock), so they work inside the
 * preload module with the graph lock held.  A bad address never crashes.
 */
#ifndef UIRQ_LOCKDEP_SYMBOLS_H
#define UIRQ_LOCKDEP_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

#pragma GCC visibility push(hidden)

struct lockdep_sym {
	const char *func;		/* function name, NULL if unknown */
	unsigned long func_off;		/* ip - function start */
	const char *file;		/* source file from DWARF line info, NULL if none */
	int line;			/* 0 if none */
	const char *module;		/* basename of the ELF object ("abba", "libc.so.6") */
	unsigned long module_off;	/* ip - object's load bias */
	/* storage for the strings above (each truncated to fit) */
	char store[512];
};

/* Symbolize a code address; ip is a return address unless exact is true (then no -1 adjustment). */
bool lockdep_sym_code(unsigned long ip, bool exact, struct lockdep_sym *out);
/* Name the global or static variable that contains addr ("stats_lock", or "pool+16" inside a larger object); false if none. */
bool lockdep_sym_data(unsigned long addr, char *buf, size_t len);
/* Format "func+0x1c (file.c:42) [module]" / "module+0x1234" as reports print a frame. */
int lockdep_sym_format(unsigned long ip, bool exact, char *buf, size_t len);

#pragma GCC visibility pop

#endif

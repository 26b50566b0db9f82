/* SPDX-License-Identifier: MIT */
/*
 * The fuzz harnesses' check: on a false condition print
 * "<harness>: file:line: check 'cond' failed: " and the message, then
 * abort() (libFuzzer keeps the input that got there).  The harness is
 * named after the file the check is in (fuzz_genirq.c: "fuzz_genirq").
 */
#ifndef UIRQ_FUZZ_CHECK_H
#define UIRQ_FUZZ_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where failed checks go; NULL: stderr (fuzz_genirq points it at its copy of stderr, which libFuzzer may close). */
static FILE *fuzz_check_out;

__attribute__((format(printf, 4, 5), noreturn, unused))
static void fuzz_check_failed(const char *file, int line, const char *cond, const char *fmt, ...)
{
	FILE *f = fuzz_check_out ? fuzz_check_out : stderr;
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	const char *dot = strrchr(base, '.');
	va_list ap;

	fprintf(f, "%.*s: %s:%d: check '%s' failed: ", (int)(dot ? dot - base : (long)strlen(base)), base, file,
		line, cond);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
	abort();
}

#define fuzz_check(cond, ...) ((cond) ? (void)0 : fuzz_check_failed(__FILE__, __LINE__, #cond, __VA_ARGS__))

#endif

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the irqsim scenario parser (tools/irqsim/scenario.c).
 *
 * Any text either parses into actions that respect every documented limit
 * (docs/irqsim.1, SCENARIO FORMAT), or is refused with "NAME:LINE:COL:
 * expected ..." naming a line and column that exist in the text, and an
 * empty scenario.  Never a crash, a leak (LSan) or a hang (-timeout).
 * Inputs with a NUL byte also go through scenario_load(), which must refuse
 * them with a position.
 *
 * A parser on one thread, no lines raised and no clock read: it needs no
 * deterministic mode (uirq/sim.h) to replay an input.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "scenario.h"

static int memfd = -1;

/* Lines in text and the length of line n (1-based). */
static size_t line_len(const char *text, unsigned int n, unsigned int *nlines)
{
	unsigned int ln = 1;
	size_t len = 0, found = (size_t)-1;

	for (const char *p = text;; p++) {
		if (*p == '\n' || !*p) {
			if (ln == n)
				found = len;
			if (!*p)
				break;
			ln++;
			len = 0;
		} else {
			len++;
		}
	}
	*nlines = ln;
	return found;
}

/*
 * "NAME:LINE:COL: expected ..." with LINE and COL inside the text (COL may be
 * one past the end); the parser never looks past column SC_MAX_LINE + 1, a
 * NUL found by scenario_load() may be anywhere on its line.
 */
static void check_error(const char *name, const char *text, const char *err, unsigned int max_col)
{
	size_t nl = strlen(name);
	unsigned int line, col, nlines;
	int used = 0;
	size_t len;

	if (!strcmp(err + (strncmp(err, name, nl) ? 0 : nl), ": out of memory"))
		return;
	fuzz_check(!strncmp(err, name, nl) && err[nl] == ':', "no file name: \"%s\"", err);
	fuzz_check(sscanf(err + nl, ":%u:%u: %n", &line, &col, &used) == 2 && used > 0,
		   "no line:column: \"%s\"", err);
	fuzz_check(!strncmp(err + nl + used, "expected ", 9), "no \"expected\": \"%s\"", err);
	len = line_len(text, line, &nlines);
	fuzz_check(line >= 1 && line <= nlines, "line %u of %u: \"%s\"", line, nlines, err);
	fuzz_check(col >= 1 && col <= len + 1 && col <= max_col,
		   "column %u of a %zu-character line: \"%s\"", col, len, err);
}

/* Every documented limit holds for an accepted scenario. */
static void check_scenario(const struct scenario *sc, const char *text)
{
	uint64_t total = 0;
	unsigned int nlines, timeouts = 0, prev_line = 0;

	line_len(text, 1, &nlines);
	fuzz_check(sc->n <= SC_MAX_ACTIONS, "%zu actions", sc->n);
	fuzz_check(sc->n == 0 || sc->actions, "actions missing");
	for (size_t i = 0; i < sc->n; i++) {
		const struct sc_action *a = &sc->actions[i];

		fuzz_check(a->src_line >= 1 && a->src_line <= nlines && a->src_line > prev_line,
			   "action %zu on line %u", i, a->src_line);
		prev_line = a->src_line;
		switch (a->verb) {
		case SC_PRESS:
			fuzz_check(a->hold_ns <= SC_MAX_DURATION_NS, "hold %llu", (unsigned long long)a->hold_ns);
			total += a->hold_ns;
			break;
		case SC_RELEASE:
			break;
		case SC_BOUNCE:
			fuzz_check(a->count >= 1 && a->count <= SC_MAX_BOUNCE, "bounce %u", a->count);
			fuzz_check(a->interval_ns <= SC_MAX_INTERVAL_NS, "bounce interval");
			total += (uint64_t)a->count * a->interval_ns;
			break;
		case SC_STORM:
		case SC_SHARED:
			fuzz_check(a->line < SC_INTC_LINES && a->line != SC_TWL_LINE, "line %u", a->line);
			fuzz_check(a->count >= 1 &&
				   a->count <= (a->verb == SC_STORM ? SC_MAX_STORM : SC_MAX_SHARED),
				   "count %u", a->count);
			fuzz_check(a->interval_ns <= SC_MAX_INTERVAL_NS, "interval");
			for (size_t j = 0; j < i; j++) {
				const struct sc_action *b = &sc->actions[j];

				if ((b->verb == SC_STORM || b->verb == SC_SHARED) && b->line == a->line)
					fuzz_check(b->verb == a->verb, "line %u used by storm and shared", a->line);
			}
			total += (uint64_t)a->count * a->interval_ns;
			break;
		case SC_I2C_FAULT:
			if (a->fault == SC_FAULT_DELAY) {
				fuzz_check(a->duration_ns <= SC_MAX_DELAY_NS, "delay");
			} else if (a->fault != SC_FAULT_CLEAR) {
				fuzz_check(a->fault <= SC_FAULT_TIMEOUT, "fault %d", (int)a->fault);
				fuzz_check(a->count >= 1 && a->count <= SC_MAX_FAULTS, "fault count %u", a->count);
			}
			if (a->fault == SC_FAULT_TIMEOUT) {
				timeouts += a->count;
				total += (uint64_t)a->count * 1000000000u;
			}
			break;
		case SC_WAIT:
			fuzz_check(a->duration_ns <= SC_MAX_DURATION_NS, "wait");
			total += a->duration_ns;
			break;
		default:
			fuzz_check(0, "verb %d", (int)a->verb);
		}
	}
	fuzz_check(timeouts <= SC_MAX_TIMEOUTS, "%u timeouts", timeouts);
	fuzz_check(total == sc->planned_ns, "planned %llu, actions sum to %llu",
		   (unsigned long long)sc->planned_ns, (unsigned long long)total);
	fuzz_check(sc->planned_ns <= SC_MAX_TOTAL_NS, "planned %llu", (unsigned long long)sc->planned_ns);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz-scenario", 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char err[512];
	struct scenario sc;
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	/* The parser sees C strings: the text up to the first NUL. */
	memset(err, 0, sizeof(err));
	ret = scenario_parse("fuzz.sc", text, &sc, err, sizeof(err));
	fuzz_check(ret == 0 || ret == -1, "returned %d", ret);
	if (ret == 0) {
		check_scenario(&sc, text);
		/* The same text parses the same way again. */
		struct scenario again;

		fuzz_check(scenario_parse("fuzz.sc", text, &again, err, sizeof(err)) == 0, "not repeatable");
		fuzz_check(again.n == sc.n && again.planned_ns == sc.planned_ns, "second parse differs");
		for (size_t i = 0; i < sc.n; i++) {
			const struct sc_action *a = &sc.actions[i], *b = &again.actions[i];

			fuzz_check(a->verb == b->verb && a->src_line == b->src_line && a->hold_ns == b->hold_ns &&
				   a->interval_ns == b->interval_ns && a->duration_ns == b->duration_ns &&
				   a->count == b->count && a->line == b->line && a->fault == b->fault,
				   "action %zu differs on a second parse", i);
		}
		scenario_free(&again);
		scenario_free(&sc);
	} else {
		check_error("fuzz.sc", text, err, SC_MAX_LINE + 1);
		fuzz_check(sc.actions == NULL && sc.n == 0, "refused but not empty");
	}

	/* A file with a NUL byte is refused by scenario_load() with a position. */
	if (memfd >= 0 && memchr(data, '\0', size) && size <= 65536) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
		if (ftruncate(memfd, 0) == 0 && pwrite(memfd, data, size, 0) == (ssize_t)size) {
			ret = scenario_load(path, &sc, err, sizeof(err));
			fuzz_check(ret == -1, "a NUL byte accepted");
			fuzz_check(strstr(err, "expected text, got a NUL byte") || strstr(err, "out of memory"),
				   "NUL refused as \"%s\"", err);
			check_error(path, (const char *)data, err, UINT_MAX);
			fuzz_check(sc.actions == NULL, "refused but not empty");
		}
	}
	free(text);
	return 0;
}

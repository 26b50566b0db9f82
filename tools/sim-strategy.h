/* SPDX-License-Identifier: MIT */
/*
 * The --seed and --strategy arguments of the programs with a deterministic
 * mode (irqsim, uirq-soak), read and written one way for both: a strategy
 * is "random", "pct" or "pct:D", D in uirq_sim_start()'s range 1..64
 * (default 3).
 */
#ifndef UIRQ_TOOLS_SIM_STRATEGY_H
#define UIRQ_TOOLS_SIM_STRATEGY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "uirq/sim.h"

/*
 * A whole unsigned 64-bit number in decimal or 0x-hex: strtoull() would
 * also take " 12", "-1" (as 2^64-1) and "12x" (as 12).
 */
static inline int tool_parse_u64(const char *s, uint64_t *v)
{
	unsigned int base = 10, d;
	uint64_t x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return -1;
		if (x > (UINT64_MAX - d) / base)
			return -1;
		x = x * base + d;
	}
	*v = x;
	return 0;
}

/* 0 and the strategy (and, for PCT, its depth) set, or -1 with nothing changed. */
static inline int sim_strategy_parse(const char *s, enum uirq_sim_strategy *strategy, unsigned int *depth)
{
	uint64_t d = 3;

	if (!strcmp(s, "random")) {
		*strategy = UIRQ_SIM_RANDOM;
		return 0;
	}
	if (strncmp(s, "pct", 3) || (s[3] && (s[3] != ':' || tool_parse_u64(s + 4, &d))) || d < 1 || d > 64)
		return -1;
	*strategy = UIRQ_SIM_PCT;
	*depth = (unsigned int)d;
	return 0;
}

/* The strategy as sim_strategy_parse() reads it ("random" or "pct:D"; buf holds the latter), or "replay" (a schedule's). */
static inline const char *sim_strategy_word(enum uirq_sim_strategy strategy, unsigned int depth, char *buf,
					    size_t len)
{
	if (strategy == UIRQ_SIM_RANDOM)
		return "random";
	if (strategy == UIRQ_SIM_REPLAY)
		return "replay";
	snprintf(buf, len, "pct:%u", depth);
	return buf;
}

#endif

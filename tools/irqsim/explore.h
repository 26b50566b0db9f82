/* SPDX-License-Identifier: MIT */
/*
 * --explore: many seeds of the deterministic mode, each run by a child
 * irqsim, and the command that replays any seed that failed.
 */
#ifndef IRQSIM_EXPLORE_H
#define IRQSIM_EXPLORE_H

#include <stdio.h>

#include "irqsim.h"

/*
 * Run seeds o->seed .. o->seed + o->explore - 1 with o's other options,
 * as many at once as the process has CPUs; print each failing seed with
 * its replay command, then "explored N seeds: F failing".  The exit
 * status: 0 when none failed, 1 when some did (or a child could not be
 * started), 128 + the signal when SIGINT or SIGTERM stopped it.
 * Called before irqsim starts any thread: it blocks signals of its own.
 */
int explore_run(const struct irqsim_opts *o);

/*
 * "replay: irqsim ARGS --seed N --strategy S\n" for o's seeded run (a
 * --replay run: "--replay FILE"): o->argv less the seed options,
 * shell-quoted where a shell would change them.
 */
void irqsim_print_replay(FILE *f, const struct irqsim_opts *o);
/* o->argv, each word shell-quoted where a shell would change it; one such word. */
void irqsim_print_args(FILE *f, const struct irqsim_opts *o);
void irqsim_print_word(FILE *f, const char *s);

#endif

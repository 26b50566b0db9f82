/* SPDX-License-Identifier: MIT */
/* Run a program through uirq-lockdep and capture what it printed (tests only). */
#ifndef PRELOAD_TEST_RUN_H
#define PRELOAD_TEST_RUN_H

#include <stdbool.h>

struct run {
	int status;	/* as from waitpid() */
	char *out;	/* stdout, NUL-terminated */
	char *err;	/* stderr, NUL-terminated */
};

/* Run argv[0] with argv and env (NAME=VALUE strings added to ours, NULL-terminated or NULL). */
struct run run_cmd(const char *const argv[], const char *const env[]);
/* The path of a test program built next to the test. */
const char *prog(const char *name);
/* How often needle occurs in haystack. */
int count(const char *haystack, const char *needle);
/* "exited 3" / "killed by signal 14", for assertion messages. */
const char *describe(int status);
void run_free(struct run *r);
/* Print what r printed and how it ended, on stderr (for a failing assertion). */
void run_dump(const struct run *r);
/*
 * ThreadSanitizer's suppressions file for the children run_cmd() starts: the
 * source tree's unless a test points it elsewhere - a test whose child runs
 * as another user, who may not be able to enter the tree, at a copy that
 * user can read (TSan's runtime ends a program whose file it cannot read).
 */
extern const char *run_tsan_suppressions;

#endif

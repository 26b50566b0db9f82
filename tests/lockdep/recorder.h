/* SPDX-License-Identifier: MIT */
/*
 * Shared by the engine tests: a report handler that records every report's
 * kind and text, and one-line helpers to take and drop plain lockdep maps
 * (each map with a NULL key is its own class, named as it is printed).
 */
#ifndef UIRQ_TESTS_LOCKDEP_RECORDER_H
#define UIRQ_TESTS_LOCKDEP_RECORDER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "uirq/context.h"
#include "uirq/lockdep.h"

static struct {
	int n;
	int by_kind[UIRQ_REPORT_NR_KINDS];
	char text[1 << 18];
	size_t len;
	char last_headline[256];
} rec;

static void rec_handler(const struct uirq_lockdep_report *r, void *arg)
{
	size_t n = strlen(r->text);

	(void)arg;
	rec.n++;
	rec.by_kind[r->kind]++;
	snprintf(rec.last_headline, sizeof(rec.last_headline), "%s", r->headline);
	if (rec.len + n + 1 < sizeof(rec.text)) {
		memcpy(rec.text + rec.len, r->text, n + 1);
		rec.len += n;
	}
	if (getenv("RECORDER_ECHO"))
		fputs(r->text, stderr);
}

/* Install the recorder (call first in every test). */
static inline void rec_start(void)
{
	memset(&rec, 0, sizeof(rec));
	uirq_lockdep_set_report_handler(rec_handler, NULL);
}

static inline bool rec_has(const char *s)
{
	return strstr(rec.text, s) != NULL;
}

static inline int rec_count(const char *s)
{
	int n = 0;

	for (const char *p = rec.text; (p = strstr(p, s)); p += strlen(s))
		n++;
	return n;
}

#define MAP(x) struct uirq_lockdep_map x = UIRQ_LOCKDEP_MAP_INIT(#x)

#define LOCK(m)		uirq_lock_acquire(&(m), 0, 0, UIRQ_LOCK_WRITE, 0, __FILE__, __LINE__)
#define LOCK_NESTED(m, s) uirq_lock_acquire(&(m), (s), 0, UIRQ_LOCK_WRITE, 0, __FILE__, __LINE__)
#define TRYLOCK(m)	uirq_lock_acquire(&(m), 0, 1, UIRQ_LOCK_WRITE, 0, __FILE__, __LINE__)
#define RLOCK(m)	uirq_lock_acquire(&(m), 0, 0, UIRQ_LOCK_READ_RECURSIVE, 0, __FILE__, __LINE__)
#define RLOCK1(m)	uirq_lock_acquire(&(m), 0, 0, UIRQ_LOCK_READ, 0, __FILE__, __LINE__)
#define UNLOCK(m)	uirq_lock_release(&(m), 0, __FILE__, __LINE__)

/* Run fn as if in a hard-irq handler on this thread. */
#define IN_HARDIRQ(body)				\
	do {						\
		unsigned long f__ = uirq_local_irq_save();	\
		uirq_hardirq_enter();			\
		body;					\
		uirq_hardirq_exit();			\
		uirq_local_irq_restore(f__);		\
	} while (0)

#endif

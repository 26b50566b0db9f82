// SPDX-License-Identifier: MIT
/*
 * The module's set-up from the environment (the runner's flags arrive this
 * way):
 *   UIRQ_LOCKDEP=0             validator off: every call passes straight through
 *   UIRQ_LOCKDEP_FATAL=1       abort after the first report
 *   UIRQ_LOCKDEP_EXIT_CODE=N   exit with N if anything was reported
 *   UIRQ_LOCKDEP_CLASSES=site  one class per pthread_*_init call site
 *   UIRQ_LOCKDEP_LOG=FILE      append reports to FILE instead of stderr
 *   UIRQ_LOCKDEP_JSON=FILE     append reports to FILE as JSON records too
 *   UIRQ_LOCKDEP_SUPPRESS=FILE drop the reports its rules cover (lockdep_suppress.c)
 *   UIRQ_LOCKDEP_STAT=1        lock statistics at exit (stat.c)
 * and what a forked child must know.
 */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum class_mode preload_classes = CLASSES_INSTANCE;
PRELOAD_TLS char preload_self;
int preload_exit_code = -1;
/* Reports emitted before this process began (a forked child inherits the parent's count). */
unsigned long preload_reports_before;

/*
 * A suppression file that cannot be read or has a bad line stops the
 * program before it starts (exit 2, as for a usage error): rules meant to
 * hide a judged report must not quietly hide nothing, nor everything.
 */
static void load_suppressions(const char *path)
{
	char *text = NULL, why[160];
	size_t size = 0;
	int line, fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;
	const char *bad = NULL;

	if (fd >= 0) {
		text = calloc(1, 65536);
		while (text && (n = read(fd, text + size, 65535 - size)) > 0)
			size += (size_t)n;
		if (text && n < 0)
			bad = strerror(errno);	/* a directory: EISDIR */
		close(fd);
	}
	/* text: a NUL byte is binary data, which would read as no rules at all */
	if (!bad && text && memchr(text, 0, size))
		bad = "binary data, not a suppression file";
	if (fd < 0 || !text || size >= 65535 || bad) {
		fprintf(stderr, "uirq-lockdep: --suppress %s: %s\n", path,
			fd < 0 ? strerror(errno) : bad ? bad : "larger than 64 KiB");
		_exit(2);
	}
	if (lockdep_suppress_parse(text, &line, why, sizeof(why)) != 0) {
		fprintf(stderr, "uirq-lockdep: %s:%d: %s\n", path, line, why);
		_exit(2);
	}
	free(text);
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

unsigned long preload_fork_site;
long preload_fork_parent;

/* Only for the call site: the atfork handlers do the work. */
PRELOAD_EXPORT pid_t fork(void)
{
	preload_fork_site = CALLER_IP;
	return REAL(fork_)();
}

/*
 * A lock another thread held at fork() stays held in the child, by a thread
 * the child does not have: marked, so that the child's first acquisition
 * that would block on it is reported (preload_fork_held_check) instead of
 * blocking for ever in silence.  A process-shared lock is the parent's
 * thread's to release, and it can.
 */
static void mark_orphan_locks(const struct lockdep_task *t, void *arg)
{
	(void)arg;
	for (unsigned int i = 0; i < t->depth; i++) {
		const struct held_lock *h = held_lock_at(t, i);
		struct lock_rec *r = hlock_rec(h);
		bool read;

		if (atomic_load_explicit(&r->state, memory_order_relaxed) != REC_LIVE ||
		    !atomic_load_explicit(&r->addr, memory_order_relaxed) || (r->flags & REC_PSHARED) ||
		    r->kind == REC_COND)
			continue;
		/* a lock held for writing somewhere is held for writing */
		read = h->read && !((r->flags & REC_FORK_HELD) && !(r->flags & REC_FORK_READ));
		atomic_store_explicit(&r->owner, (uintptr_t)t->tid, memory_order_relaxed);
		__atomic_and_fetch(&r->flags, (uint8_t)~REC_FORK_READ, __ATOMIC_RELAXED);
		__atomic_or_fetch(&r->flags, (uint8_t)(REC_FORK_HELD | (read ? REC_FORK_READ : 0u)),
				  __ATOMIC_RELEASE);
	}
}

/* The names of the threads that hold locks, for the child's reports: they may be gone by then. */
static void note_lock_holder(const struct lockdep_task *t, void *arg)
{
	(void)arg;
	if (t != &lockdep_current && preload_peek_depth(&t->depth))
		preload_fork_note_thread(t->tid);
}

static void fork_prepare(void)
{
	preload_fork_note_thread(0);
	lockdep_for_each_task(note_lock_holder, NULL);
	rec_table_fork_prepare();
}

/*
 * The child is a copy of the forking thread: it holds a copy of every
 * process-private lock that thread held (and may unlock it), but a
 * process-shared lock is one lock in both processes, and the parent holds
 * it: the child waiting for it waits for the parent, which is no deadlock.
 * What the other threads held, nobody will release (mark_orphan_locks).
 */
static void forked_child(void)
{
	struct lockdep_task *t = &lockdep_current;

	rec_table_fork_child();
	preload_fork_parent = (long)getppid();
	preload_child_stats_base();
	lockdep_fork_orphans(mark_orphan_locks, NULL);
	for (unsigned int i = t->depth; i-- > 0;)
		if (hlock_rec(held_lock_at(t, i))->flags & REC_PSHARED)
			lockdep_drop_held(t, i);
}

__attribute__((constructor)) static void preload_setup(void)
{
	const char *v = getenv("UIRQ_LOCKDEP");

	preload_stderr_setup();
	/* The engine reads it too; nothing of ours to set up when it is off. */
	if (v && (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no"))) {
		uirq_lockdep_off();
		return;
	}
	v = getenv("UIRQ_LOCKDEP_CLASSES");
	if (v && strcmp(v, "site") == 0)
		preload_classes = CLASSES_SITE;
	else if (v && *v && strcmp(v, "instance") != 0)
		preload_msg("uirq-lockdep: UIRQ_LOCKDEP_CLASSES is \"instance\" or \"site\"; using instance\n");
	if (env_on("UIRQ_LOCKDEP_STAT"))
		preload_stat_setup();
	if (env_on("UIRQ_LOCKDEP_FATAL"))
		uirq_lockdep_set_fatal(true);
	v = getenv("UIRQ_LOCKDEP_EXIT_CODE");
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);

		if (*end || n < 0 || n > 255)
			preload_msg("uirq-lockdep: UIRQ_LOCKDEP_EXIT_CODE must be 0..255; ignored\n");
		else
			preload_exit_code = (int)n;
	}
	v = getenv("UIRQ_LOCKDEP_SUPPRESS");
	if (v && *v)
		load_suppressions(v);
	preload_output_setup(getenv("UIRQ_LOCKDEP_LOG"), getenv("UIRQ_LOCKDEP_JSON"));
	/*
	 * After lockdep's own handlers: prepare handlers run last-registered
	 * first, so the table lock is taken before the graph lock, its order.
	 */
	lockdep_init_once();
	pthread_atfork(fork_prepare, rec_table_fork_parent, forked_child);
}

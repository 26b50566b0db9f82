// SPDX-License-Identifier: MIT
/*
 * Reports: the graph lock that serialises them, a buffer each report is
 * formatted into before delivery, de-duplication (each distinct problem is
 * reported once) and the pieces every report prints.
 */
#define _GNU_SOURCE
#include "lockdep_internal.h"
#include "../lib/symbolize.h"
#include "../lib/lib.h"
#include "uirq/sim.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- lockdep's own locks: a three-state futex lock (0 free, 1 taken, 2 contended) ---- */

void raw_futex_lock(struct raw_futex *l)
{
	int c = 0;

	if (atomic_compare_exchange_strong_explicit(&l->word, &c, 1,
						    memory_order_acquire, memory_order_relaxed))
		return;
	if (c != 2)
		c = atomic_exchange_explicit(&l->word, 2, memory_order_acquire);
	while (c != 0) {
		uirq_futex_wait(&l->word, 2);
		c = atomic_exchange_explicit(&l->word, 2, memory_order_acquire);
	}
}

bool raw_futex_trylock(struct raw_futex *l)
{
	int c = 0;

	return atomic_compare_exchange_strong_explicit(&l->word, &c, 1, memory_order_acquire,
						       memory_order_relaxed);
}

void raw_futex_unlock(struct raw_futex *l)
{
	if (atomic_exchange_explicit(&l->word, 0, memory_order_release) == 2)
		uirq_futex_wake(&l->word, 1);
}

static struct raw_futex graph_lock_word;

void graph_lock(void)
{
	raw_futex_lock(&graph_lock_word);
#if UIRQ_CONFIG_LOCKDEP
	drain_zombie_classes();
#endif
}

bool graph_trylock(void)
{
	if (!raw_futex_trylock(&graph_lock_word))
		return false;
#if UIRQ_CONFIG_LOCKDEP
	drain_zombie_classes();
#endif
	return true;
}

void graph_unlock(void)
{
	raw_futex_unlock(&graph_lock_word);
}

void graph_lock_atfork_child(void)
{
	/* Only the forking thread survives, and it took the lock in prepare. */
	atomic_store_explicit(&graph_lock_word.word, 0, memory_order_release);
}

/* What the preload library tells reports about its locks (NULL in libuirq). */
const struct lockdep_lock_info *lockdep_lock_info;

/* ---- report kinds ---- */

static const char *const kind_names[UIRQ_REPORT_NR_KINDS] = {
	[UIRQ_REPORT_CIRCULAR] = "circular",
	[UIRQ_REPORT_RECURSIVE] = "recursive",
	[UIRQ_REPORT_INCONSISTENT] = "inconsistent",
	[UIRQ_REPORT_SAFE_TO_UNSAFE] = "safe_to_unsafe",
	[UIRQ_REPORT_IRQ_INVERSION] = "irq_inversion",
	[UIRQ_REPORT_BAD_UNLOCK] = "bad_unlock",
	[UIRQ_REPORT_HELD_FREED] = "held_freed",
	[UIRQ_REPORT_HELD_AT_EXIT] = "held_at_exit",
	[UIRQ_REPORT_ASSERT] = "assert",
	[UIRQ_REPORT_SLEEP_INVALID] = "sleep_invalid",
	[UIRQ_REPORT_RESOURCES] = "out_of_memory",
	[UIRQ_REPORT_DESTROYED] = "destroyed",
	[UIRQ_REPORT_COND] = "cond",
	[UIRQ_REPORT_WAIT] = "wait",
	[UIRQ_REPORT_FORK_HELD] = "fork_held",
	[UIRQ_REPORT_FREED_USE] = "use_after_free",
};

const char *uirq_lockdep_kind_name(int kind)
{
	if (kind < 0 || kind >= UIRQ_REPORT_NR_KINDS || !kind_names[kind])
		return "unknown";
	return kind_names[kind];
}

/* ---- delivery state ---- */

static _Atomic(uirq_lockdep_report_fn) report_fn;
static _Atomic(void *) report_arg;
static atomic_bool report_fatal;
static _Atomic unsigned long nr_reports, nr_suppressed;
static _Atomic unsigned long nr_reports_by_kind[UIRQ_REPORT_NR_KINDS];

void report_set_handler(uirq_lockdep_report_fn fn, void *arg)
{
	graph_lock();
	atomic_store(&report_arg, arg);
	atomic_store(&report_fn, fn);
	graph_unlock();
}

void report_set_fatal(bool on)
{
	atomic_store(&report_fatal, on);
}

void report_stats(struct uirq_lockdep_stats *stats)
{
	stats->reports = atomic_load(&nr_reports);
	stats->suppressed = atomic_load(&nr_suppressed);
	for (int i = 0; i < UIRQ_REPORT_NR_KINDS; i++)
		stats->reports_by_kind[i] = atomic_load(&nr_reports_by_kind[i]);
}

static LOCKDEP_TLS int report_nesting;
UIRQ_SIM_TASK_LOCAL(report_nesting)

bool report_enter(void)
{
	if (report_nesting)
		return false;
	report_nesting++;
	atomic_signal_fence(memory_order_seq_cst);
	return true;
}

void report_exit(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	report_nesting--;
}

/* ---- de-duplication: a set of 64-bit signatures ---- */

#define SIG_TABLE_SIZE 16384
static uint64_t sig_table[SIG_TABLE_SIZE];
static unsigned int nr_sigs;

uint64_t report_sig(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t h = 0x243f6a8885a308d3ull;
	uint64_t v[4] = { a, b, c, d };

	for (int i = 0; i < 4; i++) {
		h ^= v[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 33;
	}
	return h ? h : 1;
}

uint64_t report_sig_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static bool sig_seen(uint64_t sig)
{
	for (unsigned int i = (unsigned int)(sig % SIG_TABLE_SIZE); sig_table[i]; i = (i + 1) % SIG_TABLE_SIZE)
		if (sig_table[i] == sig)
			return true;
	return false;
}

static void sig_insert(uint64_t sig)
{
	unsigned int i = (unsigned int)(sig % SIG_TABLE_SIZE);

	if (nr_sigs >= SIG_TABLE_SIZE * 3 / 4)
		return;		/* table full: report rather than stay silent */
	while (sig_table[i]) {
		if (sig_table[i] == sig)
			return;
		i = (i + 1) % SIG_TABLE_SIZE;
	}
	sig_table[i] = sig;
	nr_sigs++;
}

/* ---- the report buffer ---- */


static struct {
	enum uirq_lockdep_report_kind kind;
	size_t len;
	char headline[256];
	char text[REPORT_TEXT_MAX];
} rep;

/*
 * The code path of the report: for the preload library's one-lock classes,
 * the same problem met through other code is another report (as TSan's and
 * Helgrind's reports differ by stack), the same code on other objects is not.
 */
static uint64_t stack_sig(void)
{
	struct lockdep_trace trace;
	uint64_t sig = 0;

	if (!lockdep_lock_info)
		return 0;
	lockdep_save_trace(&trace, 2);
	for (unsigned int i = 0; i < trace.nr; i++)
		sig = report_sig(sig, trace.frames[i], 0, 0);
	return sig;
}

uint64_t lockdep_code_sig(unsigned long ip)
{
	struct uirq_sym sym;

	/* by source line: the compiler may have copied the code (an unrolled loop) */
	if (uirq_sym_code(ip, false, &sym) && sym.file)
		return report_sig(report_sig_str(sym.file), (uint64_t)sym.line, 0, 0);
	return ip;
}

bool report_begin2(enum uirq_lockdep_report_kind kind, uint64_t sig, uint64_t type_sig)
{
	uint64_t by_instance = report_sig(kind, sig, 0, 0);
	uint64_t by_code = report_sig(kind, type_sig, stack_sig(), 1);
	bool fresh = !sig_seen(by_instance) && !sig_seen(by_code);

	sig_insert(by_instance);
	sig_insert(by_code);
	if (!fresh)
		return false;
	rep.kind = kind;
	rep.len = 0;
	rep.text[0] = 0;
	rep.headline[0] = 0;
	rj_reset();
	return true;
}

void report_begin_plain(void)
{
	rep.len = 0;
	rep.text[0] = 0;
	rep.headline[0] = 0;
}

void report_write_log(void)
{
	if (rep.len)
		uirq_log_write(rep.text);
}

static void vrpt(const char *fmt, va_list ap)
{
	int n;

	if (rep.len >= REPORT_TEXT_MAX - 1)
		return;
	n = vsnprintf(rep.text + rep.len, REPORT_TEXT_MAX - rep.len, fmt, ap);
	if (n > 0)
		rep.len += (size_t)n;
	if (rep.len > REPORT_TEXT_MAX - 1)
		rep.len = REPORT_TEXT_MAX - 1;
}

void rpt(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrpt(fmt, ap);
	va_end(ap);
}

void report_headline(bool framed, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	char line[256];

	va_start(ap, fmt);
	vsnprintf(rep.headline, sizeof(rep.headline), fmt, ap);
	va_end(ap);
	if (!framed) {
		rpt("%s\n", rep.headline);
		return;
	}
	n = strlen(rep.headline);
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memset(line, '=', n);
	line[n] = 0;
	rpt("\n%s\n%s\n", line, rep.headline);
	memset(line, '-', n);
	rpt("%s\n", line);
}

void report_end(void)
{
	uirq_lockdep_report_fn fn = atomic_load(&report_fn);
	struct uirq_lockdep_report r = {
		.kind = rep.kind, .headline = rep.headline, .text = rep.text,
	};

	if (lockdep_suppressed(rep.kind, rj_facts())) {
		atomic_fetch_add(&nr_suppressed, 1);
		return;
	}
	r.json = rj_finish(uirq_lockdep_kind_name(rep.kind), rep.headline, rep.text);
	atomic_fetch_add(&nr_reports, 1);
	atomic_fetch_add(&nr_reports_by_kind[rep.kind], 1);
	if (fn)
		fn(&r, atomic_load(&report_arg));
	else
		report_write_log();
	if (atomic_load(&report_fatal))
		abort();
}

/* ---- common pieces ---- */

void task_name(char *buf, size_t len)
{
	char name[17] = "?";

	uirq_task_comm(name);
	name[16] = 0;
	snprintf(buf, len, "%s/%ld", name, uirq_task_pid());
}

void rpt_task(void)
{
	char name[64];

	task_name(name, sizeof(name));
	rpt("%s", name);
	rj_thread(name);
}

/* "func+0x1c (file.c:42) [module]", as much of it as is known */
static void rpt_ip(unsigned long ip)
{
	char frame[512];

	uirq_sym_format(ip, false, frame, sizeof(frame));
	rpt("%s", frame);
}

void rpt_site(const struct lockdep_site *site)
{
	if (site->file)
		rpt("%s:%d", site->file, site->line);
	else if (site->ip)
		rpt_ip(site->ip);
	else
		rpt("?");
}

void rpt_trace(const struct lockdep_trace *trace, const char *indent, unsigned long site_ip)
{
	/* the site itself was just printed: the trace goes on from its caller */
	for (unsigned int i = trace->nr && trace->frames[0] == site_ip; i < trace->nr; i++) {
		rpt("%s", indent);
		rpt_ip(trace->frames[i]);
		rpt("\n");
	}
}

void rpt_stack_backtrace(const char *title)
{
	struct lockdep_trace trace;

	lockdep_save_trace(&trace, 1);
	rpt("%s\n", title);
	rpt_trace(&trace, " ", 0);
	for (unsigned int i = 0; i < trace.nr; i++)
		rj_frame(trace.frames[i]);
}

#if UIRQ_CONFIG_LOCKDEP

uint64_t lockdep_class_sig(const struct lock_class *class, bool instance)
{
	uint64_t sig = lockdep_lock_info ? lockdep_lock_info->class_sig(class, instance) : 0;

	return report_sig(sig ? sig : atomic_load(&class->id), class->subclass, 0, 0);
}

void lockdep_class_name(const struct lock_class *class, char *buf, size_t len)
{
	int n = 0;

	if (!lockdep_lock_info || !lockdep_lock_info->class_name ||
	    !lockdep_lock_info->class_name(class, buf, len))
		n = snprintf(buf, len, "%s", class->name);
	else
		n = (int)strlen(buf);
	if (class->subclass && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "/%u", class->subclass);
}

void rpt_lock_name_bare(const struct lock_class *class)
{
	char name[LOCKDEP_NAME_MAX];

	lockdep_class_name(class, name, sizeof(name));
	rpt("%s", name);
}

void rpt_lock_name(const struct lock_class *class)
{
	rpt("(");
	rpt_lock_name_bare(class);
	rpt(")");
}

void rpt_class(const struct lock_class *class)
{
	char usage[3];

	get_usage_chars(class, usage);
	rpt_lock_name(class);
	rpt("{%s}", usage);
}

/*
 * gone: hlock's lock died under the holder (held_lock_live()).  Then
 * nothing of it is left to name it by: its class, and the preload
 * library's record of it, may serve another lock by now, at another
 * address or the same.
 */
static void rpt_held_lock_as(const struct held_lock *hlock, const char *role, bool gone)
{
	const struct uirq_lockdep_map *map = hlock_map(hlock);
	uintptr_t instance = lockdep_lock_info ? lockdep_lock_info->instance(map) : (uintptr_t)map;
	char name[LOCKDEP_NAME_MAX];

	if (gone || atomic_load(&hlock->class->key) != map_class_key(map, hlock->class->subclass)) {
		snprintf(name, sizeof(name), "a lock destroyed or freed while held");
		instance = 0;
		rpt("(%s)", name);
	} else {
		instance = uirq_ptr_shown((const void *)instance);
		lockdep_class_name(hlock->class, name, sizeof(name));
		rpt("0x%lx ", (unsigned long)instance);
		rpt_class(hlock->class);
	}
	rpt(", at: ");
	rpt_site(&hlock->site);
	rpt("\n");
	rj_lock(role, name, instance, &hlock->site);
}

void rpt_held_lock(const struct held_lock *hlock, const char *role)
{
	rpt_held_lock_as(hlock, role, false);
}

void rpt_held_locks(const struct lockdep_task *t)
{
	if (!t->depth) {
		rpt("no locks held by ");
		rpt_task();
		rpt(".\n");
		return;
	}
	rpt("%u lock%s held by ", t->depth, t->depth > 1 ? "s" : "");
	rpt_task();
	rpt(":\n");
	for (unsigned int i = 0; i < t->depth; i++) {
		rpt(" #%u: ", i);
		rpt_held_lock_as(held_lock_at(t, i), "held", !held_lock_live(t, i));
	}
}

#endif

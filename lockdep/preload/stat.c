// SPDX-License-Identifier: MIT
/*
 * Lock statistics (uirq-lockdep --stat), after the kernel's /proc/lock_stat
 * and mutrace: per kind of lock - a lock in static storage is its own kind,
 * any other is where it was initialised or first taken, as for reports -
 * acquisitions, contentions, time waited and held, and the call sites that
 * waited most, printed at exit sorted by total wait.
 *
 * Costs, measured on bench/lock_heavy (bench/README.md): an acquisition
 * first tries the lock; only when that fails is it contended, and only then
 * is the clock read around the wait (the wait is a futex sleep: the clock
 * is noise next to it).  Hold times need a clock read at both ends of every
 * hold, more than a whole uncontended lock and unlock: after a lock's first
 * HOLD_FIRST holds by a thread they are sampled, one hold in HOLD_SAMPLE,
 * and the total scaled from the sample (the table says so).  Acquisitions
 * and holds are counted per thread (struct tslot) and added to the lock's
 * figures now and then: a counter every acquirer writes would move between
 * CPUs as often as the lock itself does, doubling the cost of a lock that
 * several threads take.
 */
#include "preload.h"
#include "../../lib/symbolize.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOLD_SAMPLE	64		/* one hold timed in so many, per thread */
#define HOLD_FIRST	16		/* after each thread's first so many of a lock */
#define STAT_SITES	4		/* contending call sites kept per kind of lock */
#define STAT_PRINT	20		/* kinds of lock in the table (all in the JSON) */
#define TSLOTS		64		/* locks a thread counts at once (struct tstats) */

bool preload_stat;

struct stat_site {
	unsigned long ip;
	_Atomic uint64_t count;
	_Atomic uint64_t wait;
};

struct lock_stat {
	uint64_t key;			/* what makes two locks one kind (stat_key) */
	uint64_t gen;			/* which lock it counts now: threads' counts say whose they are */
	unsigned int slot;		/* its slot in each thread's table (struct tstats) */
	uintptr_t addr;			/* a lock of this kind, for its name */
	unsigned long site;
	uint8_t kind;
	bool site_is_init;
	_Atomic uint64_t acquired, contended;
	_Atomic uint64_t wait_total, wait_max;	/* clock ticks */
	_Atomic uint64_t hold_total, hold_max, held_sampled;
	struct stat_site sites[STAT_SITES];
	struct lock_stat *next;		/* in the table of dead locks' figures; the free list */
};

static struct lockdep_slab stat_slab = LOCKDEP_SLAB(struct lock_stat, next);
static uint64_t next_gen = 1;		/* table lock */
/* The figures of locks that died, merged by kind: a small chained hash, table lock. */
#define DEAD_BUCKETS	1024
static struct lock_stat *dead[DEAD_BUCKETS];

/* ---- the clock: the TSC where there is one, calibrated against CLOCK_MONOTONIC at exit ---- */

static uint64_t t0_ticks, t0_ns;

static inline uint64_t now_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#endif
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}


/* ---- per lock ---- */

static void atomic_max(_Atomic uint64_t *m, uint64_t v)
{
	uint64_t cur = atomic_load_explicit(m, memory_order_relaxed);

	while (v > cur && !atomic_compare_exchange_weak_explicit(m, &cur, v, memory_order_relaxed,
								 memory_order_relaxed))
		;
}

static uint64_t stat_key(const struct lock_rec *r, uintptr_t addr, bool *is_static)
{
	Dl_info info;

	*is_static = dladdr((void *)addr, &info) && info.dli_fname;
	return *is_static ? addr : preload_hash(r->site) ^ r->kind;
}

void preload_stat_attach(struct lock_rec *r)
{
	uintptr_t a = atomic_load_explicit(&r->addr, memory_order_relaxed);
	struct lock_stat *s = r->stat ? r->stat : slab_alloc(&stat_slab);
	bool is_static;

	if (!s)
		return;
	memset(s, 0, sizeof(*s));
	s->gen = next_gen++;
	s->slot = (unsigned int)(s->gen % TSLOTS);
	s->key = stat_key(r, a, &is_static);
	s->addr = a;
	s->site = r->site;
	s->site_is_init = r->site_is_init;
	s->kind = r->kind;
	r->stat = s;
}

static void merge(struct lock_stat *into, const struct lock_stat *s)
{
	atomic_fetch_add_explicit(&into->acquired, atomic_load(&s->acquired), memory_order_relaxed);
	atomic_fetch_add_explicit(&into->contended, atomic_load(&s->contended), memory_order_relaxed);
	atomic_fetch_add_explicit(&into->wait_total, atomic_load(&s->wait_total), memory_order_relaxed);
	atomic_max(&into->wait_max, atomic_load(&s->wait_max));
	atomic_fetch_add_explicit(&into->hold_total, atomic_load(&s->hold_total), memory_order_relaxed);
	atomic_max(&into->hold_max, atomic_load(&s->hold_max));
	atomic_fetch_add_explicit(&into->held_sampled, atomic_load(&s->held_sampled), memory_order_relaxed);
	for (int i = 0; i < STAT_SITES && s->sites[i].ip; i++) {
		int j;

		for (j = 0; j < STAT_SITES && into->sites[j].ip && into->sites[j].ip != s->sites[i].ip; j++)
			;
		if (j == STAT_SITES)
			continue;
		into->sites[j].ip = s->sites[i].ip;
		atomic_fetch_add(&into->sites[j].count, atomic_load(&s->sites[i].count));
		atomic_fetch_add(&into->sites[j].wait, atomic_load(&s->sites[i].wait));
	}
}

/* The dead-lock figures of kind key, made like like if need be (table lock). */
static struct lock_stat *dead_of(uint64_t key, const struct lock_stat *like)
{
	unsigned int b = (unsigned int)(key % DEAD_BUCKETS);
	struct lock_stat *d;

	for (d = dead[b]; d && d->key != key; d = d->next)
		;
	if (!d && like && (d = slab_alloc(&stat_slab))) {
		*d = (struct lock_stat){ .key = key, .addr = like->addr, .site = like->site,
					 .site_is_init = like->site_is_init, .kind = like->kind, .next = dead[b] };
		dead[b] = d;
	}
	return d;
}

/* r's lock is gone (destroyed, freed, initialised again): its figures join its kind's (table lock). */
void preload_stat_detach(struct lock_rec *r)
{
	struct lock_stat *s, *d;

	if (rec_kind_is_wait(r->kind))
		return;		/* no figures: a wait object's fields are where they would be */
	s = r->stat;
	if (!s || !s->gen)
		return;
	d = dead_of(s->key, s);
	if (d)
		merge(d, s);
	memset(s, 0, sizeof(*s));	/* gen 0: threads' counts of it go to its kind (flush()) */
}

/*
 * r stops being a lock (its record released, or made a wait object, whose
 * fields share the place of a lock's): its figures go to its kind, the
 * object back to the slab (table lock).
 */
void preload_stat_free(struct lock_rec *r)
{
	if (rec_kind_is_wait(r->kind) || !r->stat)
		return;
	preload_stat_detach(r);
	slab_free(&stat_slab, r->stat);
	r->stat = NULL;
}

/* A contended acquisition waited ticks at ip. */
static void note_wait(struct lock_stat *s, uint64_t ticks, unsigned long ip)
{
	int i;

	atomic_fetch_add_explicit(&s->contended, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->wait_total, ticks, memory_order_relaxed);
	atomic_max(&s->wait_max, ticks);
	for (i = 0; i < STAT_SITES; i++) {
		unsigned long cur = __atomic_load_n(&s->sites[i].ip, __ATOMIC_RELAXED), zero = 0;

		if (cur == ip || (!cur && __atomic_compare_exchange_n(&s->sites[i].ip, &zero, ip, false,
								       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) ||
		    zero == ip)
			break;
	}
	if (i < STAT_SITES) {
		atomic_fetch_add_explicit(&s->sites[i].count, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->sites[i].wait, ticks, memory_order_relaxed);
	}
}

/* ---- this thread's counts ---- */

/*
 * This thread's acquisitions and timed holds of one lock (s, while it
 * counts the lock it counted when gen was taken); added to the lock's
 * figures when the slot goes to another lock, at thread exit and at the end.
 */
struct tslot {
	struct lock_stat *s;	/* NULL: free */
	uint64_t gen, key;
	uint64_t acquired, hold_total, hold_max, held_sampled;
};

#define TIMED_MAX	8	/* sampled holds a thread has going at once */

struct tstats {
	struct tslot slot[TSLOTS];
	unsigned int countdown;		/* to the next sampled hold */
	struct {
		void *lock;
		struct tslot *slot;
		uint64_t t0;
	} timed[TIMED_MAX];		/* holds being timed */
	struct tstats *next, **prevp;	/* every thread's (table lock) */
};

static PRELOAD_TLS struct tstats *tstats;
/* ts->timed[] in use: the unlock wrappers look at it inline */
PRELOAD_TLS unsigned int preload_stat_timing;
static struct tstats *all_tstats;
static pthread_key_t tstats_key;

/* The slot's counts into the lock's figures, or its kind's if the lock is gone (table lock). */
static void flush(struct tslot *sl)
{
	struct lock_stat *into = sl->s && sl->s->gen == sl->gen ? sl->s : dead_of(sl->key, NULL);

	if (into && sl->acquired) {
		atomic_fetch_add_explicit(&into->acquired, sl->acquired, memory_order_relaxed);
		atomic_fetch_add_explicit(&into->hold_total, sl->hold_total, memory_order_relaxed);
		atomic_fetch_add_explicit(&into->held_sampled, sl->held_sampled, memory_order_relaxed);
		atomic_max(&into->hold_max, sl->hold_max);
	}
	memset(sl, 0, sizeof(*sl));
}

static void flush_all(struct tstats *ts)
{
	for (int i = 0; i < TSLOTS; i++)
		if (ts->slot[i].s)
			flush(&ts->slot[i]);
}

static void tstats_exit(void *arg)
{
	struct tstats *ts = arg;

	if (!rec_table_enter())
		return;
	flush_all(ts);
	*ts->prevp = ts->next;
	if (ts->next)
		ts->next->prevp = ts->prevp;
	rec_table_exit();
	lockdep_free(ts, sizeof(*ts));
	tstats = NULL;
	preload_stat_timing = 0;
}

static struct tstats *tstats_new(void)
{
	struct tstats *ts;

	if (!rec_table_enter())
		return NULL;
	ts = lockdep_alloc(sizeof(*ts));
	if (ts) {
		ts->next = all_tstats;
		ts->prevp = &all_tstats;
		if (all_tstats)
			all_tstats->prevp = &ts->next;
		all_tstats = ts;
		pthread_setspecific(tstats_key, ts);
	}
	rec_table_exit();
	return tstats = ts;
}

static struct tslot *slot_of(struct lock_stat *s)
{
	struct tstats *ts = tstats ? tstats : tstats_new();
	struct tslot *sl;

	if (!ts)
		return NULL;
	sl = &ts->slot[s->slot];
	if (likely(sl->s == s && sl->gen == s->gen))
		return sl;
	if (sl->s) {
		if (!rec_table_enter())
			return NULL;
		flush(sl);
		rec_table_exit();
	}
	sl->s = s;
	sl->gen = s->gen;
	sl->key = s->key;
	return sl;
}

/*
 * lock was acquired (exclusive: one holder, whose hold may be timed).  A
 * thread's first HOLD_FIRST holds of a lock are all timed, so that a lock
 * taken a few times has figures too; then one in HOLD_SAMPLE.
 */
static void note_acquired(struct lock_stat *s, void *lock, bool exclusive)
{
	struct tslot *sl = slot_of(s);
	struct tstats *ts = tstats;

	if (!sl) {
		atomic_fetch_add_explicit(&s->acquired, 1, memory_order_relaxed);
		return;
	}
	sl->acquired++;
	if (!exclusive || preload_stat_timing == TIMED_MAX)
		return;
	if (sl->acquired <= HOLD_FIRST || !(++ts->countdown % HOLD_SAMPLE)) {
		ts->timed[preload_stat_timing].lock = lock;
		ts->timed[preload_stat_timing].slot = sl;
		ts->timed[preload_stat_timing++].t0 = now_ticks();
	}
}

int preload_stat_lock(struct lock_rec *r, void *lock, int (*try_fn)(void *), int (*lock_fn)(void *),
		      bool exclusive, unsigned long ip)
{
	struct lock_stat *s = r ? r->stat : NULL;
	uint64_t t;
	int ret;

	if (!s)
		return lock_fn(lock);
	ret = try_fn(lock);
	if (ret == 0) {
		note_acquired(s, lock, exclusive);
		return 0;
	}
	t = now_ticks();
	ret = lock_fn(lock);
	if (ret == 0) {
		note_wait(s, now_ticks() - t, ip);
		note_acquired(s, lock, exclusive);
	}
	return ret;
}

void preload_stat_acquired(struct lock_rec *r, void *lock, bool exclusive)
{
	if (r && r->stat)
		note_acquired(r->stat, lock, exclusive);
}

void preload_stat_unlock(void *lock)
{
	struct tstats *ts = tstats;

	if (!ts)
		return;
	for (unsigned int i = preload_stat_timing; i-- > 0;) {
		struct tslot *sl = ts->timed[i].slot;
		uint64_t held;

		if (ts->timed[i].lock != lock)
			continue;
		held = now_ticks() - ts->timed[i].t0;
		/* the slot may have gone to another lock meanwhile: then this hold is not counted */
		if (sl->s) {
			sl->hold_total += held;
			sl->held_sampled++;
			if (held > sl->hold_max)
				sl->hold_max = held;
		}
		ts->timed[i] = ts->timed[--preload_stat_timing];
		return;
	}
}

void preload_stat_setup(void)
{
	if (pthread_key_create(&tstats_key, tstats_exit) != 0)
		return;
	preload_stat = true;
	t0_ticks = now_ticks();
	t0_ns = now_ns();
}

/* ---- the table at exit ---- */

static double tick_ns;

static double ns(uint64_t ticks)
{
	return (double)ticks * tick_ns;
}

/* "12.3 ms" */
static const char *duration(char *buf, size_t len, double t)
{
	if (t < 1e3)
		snprintf(buf, len, "%.0f ns", t);
	else if (t < 1e6)
		snprintf(buf, len, "%.1f us", t / 1e3);
	else if (t < 1e9)
		snprintf(buf, len, "%.1f ms", t / 1e6);
	else
		snprintf(buf, len, "%.2f s", t / 1e9);
	return buf;
}

static int by_wait(const void *a, const void *b)
{
	uint64_t wa = atomic_load(&(*(struct lock_stat *const *)a)->wait_total);
	uint64_t wb = atomic_load(&(*(struct lock_stat *const *)b)->wait_total);

	if (wa != wb)
		return wa < wb ? 1 : -1;
	return atomic_load(&(*(struct lock_stat *const *)a)->acquired) <
	       atomic_load(&(*(struct lock_stat *const *)b)->acquired) ? 1 : -1;
}

static void stat_name(const struct lock_stat *s, char *buf, size_t len)
{
	static const char *const kinds[] = { [REC_MUTEX] = "mutex", [REC_RWLOCK] = "rwlock",
					     [REC_SPIN] = "spinlock", [REC_COND] = "cond" };
	char var[128], frame[128];

	if (uirq_sym_data(s->addr, var, sizeof(var))) {
		snprintf(buf, len, "&%s", var);
		return;
	}
	uirq_sym_format(s->site, false, frame, sizeof(frame));
	snprintf(buf, len, "%s %s at %s", s->kind < 5 ? kinds[s->kind] : "lock",
		 s->site_is_init ? "initialised" : "first taken", frame);
}

/* Every kind of lock, live and dead, merged into the dead table (table lock held). */
static unsigned int gather(struct lock_stat ***out)
{
	const struct rec_index *ix = atomic_load_explicit(&rec_index, memory_order_acquire);
	unsigned int n = 0, cap = 256;
	struct lock_stat **all;

	/* threads still running at the end: their counts so far */
	for (struct tstats *ts = all_tstats; ts; ts = ts->next)
		flush_all(ts);
	for (uint64_t i = 0; i <= ix->mask; i++) {
		uintptr_t v = atomic_load_explicit(&ix->slots[i], memory_order_relaxed);

		if (v > REC_SLOT_GONE)
			preload_stat_detach(rec_slot_rec(v));
	}
	all = malloc(cap * sizeof(*all));
	for (unsigned int b = 0; all && b < DEAD_BUCKETS; b++) {
		for (struct lock_stat *d = dead[b]; d; d = d->next) {
			if (n == cap) {
				struct lock_stat **grown = realloc(all, 2 * cap * sizeof(*all));

				if (!grown)
					break;
				all = grown;
				cap *= 2;
			}
			all[n++] = d;
		}
	}
	if (all)
		qsort(all, n, sizeof(*all), by_wait);
	*out = all;
	return all ? n : 0;
}

/* The table (and its JSON record) into buf: writes the caller's. */
void preload_stat_print(void (*text)(const char *), void (*json)(const char *))
{
	struct lock_stat **all;
	unsigned int n;
	char line[2048], name[LOCKDEP_NAME_MAX], d[6][24];
	uint64_t ticks;

	if (!preload_stat || !rec_table_enter())
		return;
	ticks = now_ticks() - t0_ticks;
	tick_ns = ticks ? (double)(now_ns() - t0_ns) / (double)ticks : 1.0;
	n = gather(&all);
	snprintf(line, sizeof(line), "uirq-lockdep: lock statistics, %u kind%s of lock, by time waited "
		 "(hold times: one hold in %d timed after a thread's first %d, totals scaled):\n"
		 "%-52s %10s %9s %10s %10s %10s %10s\n", n, n == 1 ? "" : "s", HOLD_SAMPLE, HOLD_FIRST,
		 "lock", "acquired", "contended", "wait total", "wait max", "hold total", "hold max");
	text(line);
	for (unsigned int i = 0; i < n && i < STAT_PRINT; i++) {
		struct lock_stat *s = all[i];
		uint64_t acq = atomic_load(&s->acquired), sampled = atomic_load(&s->held_sampled);
		double hold = sampled ? ns(atomic_load(&s->hold_total)) * (double)acq / (double)sampled : 0;

		stat_name(s, name, sizeof(name));
		snprintf(line, sizeof(line), "%-52.52s %10lu %9lu %10s %10s %10s %10s\n", name,
			 (unsigned long)acq, (unsigned long)atomic_load(&s->contended),
			 duration(d[0], 24, ns(atomic_load(&s->wait_total))),
			 duration(d[1], 24, ns(atomic_load(&s->wait_max))), duration(d[2], 24, hold),
			 duration(d[3], 24, ns(atomic_load(&s->hold_max))));
		text(line);
		for (int k = 0; k < STAT_SITES && s->sites[k].ip; k++) {
			char frame[256];

			uirq_sym_format(s->sites[k].ip, false, frame, sizeof(frame));
			snprintf(line, sizeof(line), "    waited %lu times, %s, at %s\n",
				 (unsigned long)atomic_load(&s->sites[k].count),
				 duration(d[4], 24, ns(atomic_load(&s->sites[k].wait))), frame);
			text(line);
		}
	}
	if (n > STAT_PRINT) {
		snprintf(line, sizeof(line), "    ... %u more (all of them in the JSON file)\n", n - STAT_PRINT);
		text(line);
	}
	for (unsigned int i = 0; json && i < n; i++) {
		struct lock_stat *s = all[i];
		uint64_t acq = atomic_load(&s->acquired), sampled = atomic_load(&s->held_sampled);
		size_t len;

		stat_name(s, name, sizeof(name));
		len = (size_t)snprintf(line, sizeof(line), "{\"kind\":\"lock_stat\",\"lock\":");
		len += json_quote(line + len, sizeof(line) - len, name);
		len += (size_t)snprintf(line + len, sizeof(line) - len,
			 ",\"acquired\":%lu,\"contended\":%lu,\"wait_total_ns\":%.0f,\"wait_max_ns\":%.0f,"
			 "\"hold_total_ns\":%.0f,\"hold_max_ns\":%.0f,\"holds_timed\":%lu,\"contended_at\":[",
			 (unsigned long)acq, (unsigned long)atomic_load(&s->contended),
			 ns(atomic_load(&s->wait_total)), ns(atomic_load(&s->wait_max)),
			 sampled ? ns(atomic_load(&s->hold_total)) * (double)acq / (double)sampled : 0.0,
			 ns(atomic_load(&s->hold_max)), (unsigned long)sampled);
		for (int k = 0; k < STAT_SITES && s->sites[k].ip && len < sizeof(line); k++) {
			char frame[256];

			uirq_sym_format(s->sites[k].ip, false, frame, sizeof(frame));
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s{\"site\":", k ? "," : "");
			len += json_quote(line + len, sizeof(line) - len, frame);
			len += (size_t)snprintf(line + len, sizeof(line) - len, ",\"count\":%lu,\"wait_ns\":%.0f}",
						(unsigned long)atomic_load(&s->sites[k].count),
						ns(atomic_load(&s->sites[k].wait)));
		}
		if (len < sizeof(line) - 3) {
			strcpy(line + len, "]}");
			json(line);
		}
	}
	free(all);
	rec_table_exit();
}

// SPDX-License-Identifier: MIT
/*
 * Waits as dependencies (issue 24 section 1): deadlocks with one lock and an
 * event, predicted the first time both halves have been seen.
 *
 * Every wait object - a condition variable, a semaphore, a thread (for
 * pthread_join), a barrier, a pipe or eventfd the program made - is a
 * pseudo-lock class in lockdep's own dependency graph, with a record in the
 * lock table like a lock's (so that freeing, destroying or initialising its
 * memory again ends it, and its class and dependencies die with it):
 *
 *  - waiting on E while holding A adds A -> E, as if E were acquired under
 *    A (the engine's ordinary acquisition, chain cache and all: free when
 *    the same locks wait there again);
 *  - producing E (signal, broadcast, post, write, a thread's exit, a
 *    barrier arrival) adds E -> L for every lock L the producer took since
 *    its own last wait: E cannot happen before the producer got through L.
 *    That is DEPT's event context: it starts where the producer could last
 *    have been woken, since what happened before that wait may be exactly
 *    what the waiter's side ordered before taking A (phases a semaphore or
 *    a barrier separates).  A lock taken by trylock never blocks: left out.
 *
 * A cycle through such a class is a deadlock that needs no second lock: it
 * is found by the engine's search, read and write holds judged as for
 * locks (a reader waiting while the producer takes a read lock of a
 * reader-preferring rwlock is no deadlock), and reported here under its own
 * headline.  The locks a thread took since its last wait are logged by the
 * engine's acquisition (three stores, lockdep_wlog_fill()); a production reads
 * the log only when it is not empty, and only its new entries when the
 * same event was produced before with the same log.
 */
#include "preload.h"
#include "../../lib/symbolize.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_text[REC_NR_KINDS] = {
	[REC_COND] = "condition variable", [REC_SEM] = "semaphore", [REC_THREAD] = "thread",
	[REC_BARRIER] = "barrier", [REC_PIPE] = "pipe", [REC_EVENTFD] = "eventfd",
};

/* ---- records ---- */

struct lock_rec *wait_rec_get(uintptr_t addr, enum rec_kind kind, unsigned long ip)
{
	struct lock_rec *r = rec_index_find(addr);

	if (likely(r && atomic_load_explicit(&r->state, memory_order_acquire) == REC_LIVE && r->kind == kind))
		return r;
	if (!rec_table_enter())
		return NULL;
	r = wait_rec_build(addr, kind, ip);
	rec_table_exit();
	return r;
}

/* "&done_sem", "semaphore@0x55.. first waited on at main+0x1c (prog.c:20)" */
bool wait_rec_name(const struct lock_rec *r, char *buf, size_t len)
{
	uintptr_t a = atomic_load_explicit(&r->addr, memory_order_relaxed);
	char var[128], where[200] = "";
	struct uirq_sym sym;

	if (!a)
		return false;
	if (r->kind != REC_THREAD && r->kind != REC_PIPE && r->kind != REC_EVENTFD &&
	    uirq_sym_data(a, var, sizeof(var))) {
		snprintf(buf, len, "&%s", var);
		return true;
	}
	if (r->site && uirq_sym_code(r->site, false, &sym) && sym.func) {
		if (sym.file)
			snprintf(where, sizeof(where), " %s in %s (%s:%d)",
				 r->kind == REC_PIPE || r->kind == REC_EVENTFD ? "made" : "first used",
				 sym.func, strrchr(sym.file, '/') ? strrchr(sym.file, '/') + 1 : sym.file, sym.line);
		else
			snprintf(where, sizeof(where), " %s in %s+%#lx",
				 r->kind == REC_PIPE || r->kind == REC_EVENTFD ? "made" : "first used",
				 sym.func, sym.func_off);
	}
	if (r->kind == REC_PIPE || r->kind == REC_EVENTFD)
		snprintf(buf, len, "%s fd %u%s", r->kind == REC_PIPE ? "pipe" : "eventfd", r->depth >> 16, where);
	else
		snprintf(buf, len, "%s@%#lx%s", r->kind == REC_THREAD ? "thread" :
			 r->kind == REC_SEM ? "sem" : r->kind == REC_BARRIER ? "barrier" : "cond",
			 (unsigned long)a, where);
	return true;
}

/* ---- the wait's side: held locks -> the event ---- */

/*
 * Which threads made each wait dependency (L -> E) and each produced one
 * (E -> L), for the two-party cycles L -> E -> L: when one thread alone
 * made both - it took L, produced E, and waits on E holding L, like a
 * bounded queue's producer that also waits for room on the one condition
 * variable - nobody else needs L to produce E, and there is no deadlock.
 * Such a cycle is kept quiet until a second thread makes one of its two
 * halves; then it is checked again and reported.  Graph lock held.
 */
#define PAIRS	8192
enum { PAIR_WAIT, PAIR_PRODUCE };
static struct pair {
	uint64_t a, b;			/* class ids (from -> to); 0: free */
	uint64_t thread;		/* the first thread's serial */
	uint8_t kind;
	bool multi;			/* made by more than one thread */
	bool quiet;			/* a cycle through it was kept quiet */
} pairs[PAIRS];
static unsigned int nr_pairs;

static PRELOAD_TLS uint64_t my_serial, serial_as;
static _Atomic uint64_t next_serial = 1;

/* This thread's serial (never reused), or, while a joiner adds a thread's exit, that thread's. */
static uint64_t serial(void)
{
	if (serial_as)
		return serial_as;
	if (!my_serial)
		my_serial = atomic_fetch_add_explicit(&next_serial, 1, memory_order_relaxed);
	return my_serial;
}

/* The pair from -> to of this kind, made if asked to (NULL: none, or the table is full). */
static struct pair *pair_get(int kind, const struct lock_class *from, const struct lock_class *to, bool make)
{
	uint64_t a = atomic_load_explicit(&from->id, memory_order_relaxed);
	uint64_t b = atomic_load_explicit(&to->id, memory_order_relaxed);

	for (uint64_t i = report_sig(a, b, (uint64_t)kind, 0) % PAIRS, n = 0; n < PAIRS; i = (i + 1) % PAIRS, n++) {
		struct pair *p = &pairs[i];

		if (p->a == a && p->b == b && p->kind == kind)
			return p;
		if (!p->a) {
			if (!make || nr_pairs >= PAIRS * 3 / 4)
				return NULL;
			nr_pairs++;
			*p = (struct pair){ .a = a, .b = b, .kind = (uint8_t)kind, .thread = serial() };
			return p;
		}
	}
	return NULL;
}

/* This thread made pair p: true if that made it a second thread's (p was one thread's before). */
static bool pair_note(struct pair *p)
{
	if (!p || p->multi || p->thread == serial())
		return false;
	p->multi = true;
	return true;
}

/* One thread, this one, made both halves of the two-party cycle wait (L -> E) + produce (E -> L). */
static bool one_thread_cycle(const struct lock_class *l, const struct lock_class *e)
{
	struct pair *w = pair_get(PAIR_WAIT, l, e, false), *p = pair_get(PAIR_PRODUCE, e, l, false);

	if (!w || !p || w->multi || p->multi || w->thread != p->thread)
		return false;
	w->quiet = p->quiet = true;
	return true;
}

static bool match_class(struct lock_class *c, bool only_xr, void *data)
{
	(void)only_xr;
	return c == data;
}

static bool forced;

/*
 * A cycle kept quiet has a second thread in it now: check it again from
 * next (the new dependency prev -> next exists already) and report it.
 */
static void recheck(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next)
{
	struct bfs_path path;

	if (lockdep_bfs(next->class, next->read == 2, BFS_FORWARDS, match_class, prev->class, &path)) {
		forced = true;
		wait_circular(t, prev, next, &path);
		forced = false;
	}
}

/* What the report says about the wait being made now (this thread). */
static PRELOAD_TLS struct {
	const struct lock_rec *w;
	const char *op;
	bool timed;
} cur_wait;

/* This thread's wait pairs noted already (top held class, event class), direct-mapped. */
static PRELOAD_TLS struct { const struct lock_class *l, *e; } noted[16];

/* The pair top-held -> w of this wait, by this thread (a second thread's: a quiet cycle is checked again). */
static void note_wait(struct lock_rec *w, unsigned long ip)
{
	struct lockdep_task *t = &lockdep_current;
	struct held_lock *top = held_lock_at(t, t->depth - 1), next = { 0 };
	struct lock_class *e;
	unsigned int slot;
	struct pair *p;

	if (!lockdep_recursion_enter(t))
		return;
	e = lockdep_map_class(&w->map);
	slot = (unsigned int)(((uintptr_t)top->class ^ (uintptr_t)e) >> 6) % 16;
	if (e && !(noted[slot].l == top->class && noted[slot].e == e)) {
		graph_lock();
		/* a lock gone under this thread (held_lock_live()) is nothing to wait with */
		if (!held_lock_live(t, t->depth - 1)) {
			graph_unlock();
			lockdep_recursion_exit(t);
			return;
		}
		p = pair_get(PAIR_WAIT, top->class, e, true);
		if (p && p->thread == serial())
			noted[slot].l = top->class, noted[slot].e = e;
		if (pair_note(p) && p->quiet) {
			next.class = e;
			next.instance = lockdep_hide_ptr(&w->map);
			next.site.ip = ip;
			recheck(t, top, &next);
		}
		graph_unlock();
	}
	lockdep_recursion_exit(t);
}

void wait_edge(struct lock_rec *w, const char *op, bool timed, unsigned long ip)
{
	__atomic_or_fetch(&w->waits, (uint8_t)(timed ? WAITS_TIMED : WAITS_UNTIMED), __ATOMIC_RELAXED);
	/* First caller names it; threads race to it with the same kind of name: atomics (TSan). */
	if (!__atomic_load_n(&w->wait_op, __ATOMIC_RELAXED))
		__atomic_store_n(&w->wait_op, op, __ATOMIC_RELAXED);
	if (!lockdep_current.depth)
		return;
	cur_wait.w = w;
	cur_wait.op = op;
	cur_wait.timed = timed;
	note_wait(w, ip);
	/* as if w were acquired and released at once: the engine adds (and checks) top -> w */
	uirq_lock_acquire(&w->map, 0, 0, UIRQ_LOCK_WRITE, ip, NULL, 0);
	uirq_lock_release(&w->map, ip, NULL, 0);
	cur_wait.w = NULL;
}

/* ---- the producer's side: the event -> the locks taken since the producer's last wait ---- */

/* Keys of produced dependencies in the chain cache: apart from every chain of held locks. */
#define PRODUCE_SEED	0xa4093822299f31d0ull	/* more digits of pi */

static PRELOAD_TLS struct {
	const struct lock_rec *w;
	const char *op;
} cur_produce;

/* What this thread produced last, so that producing it again reads only the log's new entries. */
#define RECENT	4
static PRELOAD_TLS struct recent {
	uint64_t ident;
	unsigned int start, n;
} recent[RECENT];
static PRELOAD_TLS unsigned int recent_next;

/* One dependency w -> e's lock (graph and chain cache), made inside lockdep. */
static void produce_one(struct lockdep_task *t, struct lock_rec *w, struct lock_class *wc,
			const struct wlog_entry *e, unsigned long ip)
{
	unsigned int read = (unsigned int)((e->chain ^ CHAIN_ID_SEED) & HL_READ_MASK);
	uint64_t chain_id = e->chain ^ read;
	/* one key per thread: each thread's first production of the pair is noted (pair_note) */
	uint64_t key = iterate_chain_key(iterate_chain_key(iterate_chain_key(PRODUCE_SEED,
							  lock_class_chain_id(wc),
							  0),
					 chain_id, read), class_chain_id(serial()), 0);
	struct held_lock prev = { 0 }, next = { 0 };
	struct pair *p;

	if (lookup_chain_cache(key))
		return;
	/* the class died (its lock freed) since it was taken: its slot may be another's now */
	if (lock_class_chain_id(e->class) != chain_id ||
	    !atomic_load_explicit(&e->class->key, memory_order_relaxed))
		return;
	prev.class = wc;
	prev.instance = lockdep_hide_ptr(&w->map);
	prev.site.ip = ip;
	next.class = e->class;
	next.instance = 0;
	next.site.ip = e->ip;
	next.read = read & 3;
	graph_lock();
	p = pair_get(PAIR_PRODUCE, wc, e->class, true);
	if (pair_note(p) && p->quiet)
		recheck(t, &prev, &next);
	else
		lockdep_add_dep(t, &prev, &next);
	if (debug_locks_on())
		add_chain_cache(key);
	graph_unlock();
}

static bool held_by(const struct lockdep_task *t, const struct lock_class *c)
{
	for (unsigned int i = 0; i < t->depth; i++)
		if (held_lock_at(t, i)->class == c && held_lock_live(t, i))
			return true;
	return false;
}

static void produce_entries(struct lockdep_task *t, struct lock_rec *w, const char *op,
			    const struct wlog_entry *log, unsigned int from, unsigned int to, unsigned int mask,
			    bool skip_held, unsigned long ip)
{
	struct lock_class *wc;

	if (!lockdep_recursion_enter(t))
		return;
	wc = lockdep_map_class(&w->map);
	if (wc) {
		cur_produce.w = w;
		cur_produce.op = op;
		for (unsigned int i = from; i != to && debug_locks_on(); i++)
			if (!skip_held || !held_by(t, log[i & mask].class))
				produce_one(t, w, wc, &log[i & mask], ip);
		cur_produce.w = NULL;
	}
	lockdep_recursion_exit(t);
}

void wait_produce(struct lock_rec *w, const char *op, bool skip_held, unsigned long ip)
{
	struct lockdep_task *t = &lockdep_current;
	unsigned int n = t->wlog_n, start = t->wlog_start, from;
	struct recent *rc = NULL;

	if (!__atomic_load_n(&w->produce_op, __ATOMIC_RELAXED))
		__atomic_store_n(&w->produce_op, op, __ATOMIC_RELAXED);
	if (n == start || t->recursion)
		return;
	from = n - start > WLOG_SIZE ? n - WLOG_SIZE : start;
	for (unsigned int i = 0; i < RECENT; i++) {
		if (recent[i].ident == w->ident) {
			rc = &recent[i];
			break;
		}
	}
	if (rc && rc->start == start) {
		if (rc->n == n)
			return;
		/* the entries up to rc->n were produced already (unless the ring has lapped them) */
		if (n - rc->n <= WLOG_SIZE && rc->n - from < WLOG_SIZE)
			from = rc->n > from ? rc->n : from;
	}
	if (!rc) {
		rc = &recent[recent_next++ % RECENT];
		rc->ident = w->ident;
	}
	rc->start = start;
	rc->n = n;
	produce_entries(t, w, op, t->wlog, from, n, WLOG_SIZE - 1, skip_held, ip);
	/*
	 * A production ends the context too: whoever consumed it may have
	 * waited for it before taking the lock (a thread that takes the
	 * pool's lock to say it is done, signals, and exits; the joiner waits
	 * for the signal, then joins holding that lock - pigz's yarn).
	 */
	t->wlog_start = t->wlog_n;
}

/* ---- threads: what a thread took since its last wait, kept from its exit to its join ---- */

#define EXITS		256
#define EXIT_LOCKS	16
static struct exit_snap {
	uintptr_t th;			/* 0: free */
	uint64_t serial;		/* the thread's serial() */
	unsigned int n;
	struct wlog_entry e[EXIT_LOCKS];
} exits[EXITS];
static struct raw_futex exits_lock;

static struct exit_snap *exit_slot(uintptr_t th, bool make)
{
	struct exit_snap *free_slot = NULL;

	for (unsigned int i = 0; i < EXITS; i++) {
		if (exits[i].th == th)
			return &exits[i];
		if (!exits[i].th && !free_slot)
			free_slot = &exits[i];
	}
	return make ? free_slot : NULL;
}

void wait_thread_exit(struct lockdep_task *t)
{
	unsigned int n = t->wlog_n, start = t->wlog_start;
	uintptr_t self = (uintptr_t)pthread_self();
	struct exit_snap *s;
	pthread_attr_t attr;
	int detached = 0;

	/* a detached thread is never joined: nothing to keep */
	if (n != start && pthread_getattr_np(pthread_self(), &attr) == 0) {
		pthread_attr_getdetachstate(&attr, &detached);
		pthread_attr_destroy(&attr);
		detached = detached == PTHREAD_CREATE_DETACHED;
	}
	raw_futex_lock(&exits_lock);
	s = exit_slot(self, n != start && !detached);
	if (s) {
		s->th = 0;
		if (n != start && !detached) {
			unsigned int from = n - start > WLOG_SIZE ? n - WLOG_SIZE : start;

			s->n = 0;
			/* newest first, each class once */
			for (unsigned int i = n; i-- != from && s->n < EXIT_LOCKS;) {
				const struct wlog_entry *e = &t->wlog[i % WLOG_SIZE];
				bool seen = false;

				for (unsigned int k = 0; k < s->n && !seen; k++)
					seen = s->e[k].class == e->class && s->e[k].chain == e->chain;
				if (!seen)
					s->e[s->n++] = *e;
			}
			s->th = self;
			s->serial = serial();
		}
	}
	raw_futex_unlock(&exits_lock);
}

/* Take th's exit snapshot out of the table (joined or detached): true and *out if there was one. */
static bool exit_take(uintptr_t th, struct exit_snap *out)
{
	struct exit_snap *s;
	bool found = false;

	raw_futex_lock(&exits_lock);
	s = exit_slot(th, false);
	if (s) {
		*out = *s;
		s->th = 0;
		found = true;
	}
	raw_futex_unlock(&exits_lock);
	return found;
}

void wait_forget_thread(pthread_t th)
{
	struct exit_snap s;

	exit_take((uintptr_t)th, &s);
}

/*
 * pthread_join & co returned th's end: its exit depends on the locks it took
 * since its last wait, and the joiner's held locks lead to its exit.  The
 * thread's class lives only for this: a pthread_t is reused.
 */
void wait_joined(pthread_t th, const char *op, bool timed, unsigned long ip)
{
	struct lockdep_task *t = &lockdep_current;
	struct exit_snap s;
	struct lock_rec *w;
	bool snap = exit_take((uintptr_t)th, &s);

	if (!t->depth || t->recursion)
		return;
	if (!(w = wait_rec_get((uintptr_t)th, REC_THREAD, ip)))
		return;
	__atomic_store_n(&w->produce_op, "exit", __ATOMIC_RELAXED);
	if (snap) {
		serial_as = s.serial;
		produce_entries(t, w, "exit", s.e, 0, s.n, EXIT_LOCKS - 1, false, 0);
		serial_as = 0;
	}
	wait_edge(w, op, timed, ip);
	if (rec_table_enter()) {
		wait_rec_end((uintptr_t)th, REC_THREAD);
		rec_table_exit();
	}
}

/*
 * fork(): the table is held across it (a leaf lock: its holders take no
 * other), so that no exiting thread is half-way through it, and what every
 * thread did to it comes before the child's reset - which ThreadSanitizer
 * otherwise reports as the child racing a thread it never had.
 */
void wait_fork_prepare(void)
{
	raw_futex_lock(&exits_lock);
}

void wait_fork_parent(void)
{
	raw_futex_unlock(&exits_lock);
}

void wait_fork_child(void)
{
	/* only the forking thread is left: no other thread's exit is to come */
	memset(exits, 0, sizeof(exits));
	atomic_store_explicit(&exits_lock.word, 0, memory_order_release);
}

/* ---- the report ---- */

static const struct lock_rec *wait_of(const struct lock_class *c)
{
	const struct lock_rec *r = preload_class_rec(c);

	return r && rec_kind_is_wait(r->kind) ? r : NULL;
}

static const char *wait_op_of(const struct lock_rec *w)
{
	static const char *const ops[REC_NR_KINDS] = {
		[REC_COND] = "pthread_cond_wait", [REC_SEM] = "sem_wait", [REC_THREAD] = "pthread_join",
		[REC_BARRIER] = "pthread_barrier_wait", [REC_PIPE] = "read", [REC_EVENTFD] = "read",
	};

	const char *op = __atomic_load_n(&w->wait_op, __ATOMIC_RELAXED);

	return op ? op : ops[w->kind];
}

static const char *produce_op_of(const struct lock_rec *w)
{
	static const char *const ops[REC_NR_KINDS] = {
		[REC_COND] = "pthread_cond_signal", [REC_SEM] = "sem_post", [REC_THREAD] = "exit",
		[REC_BARRIER] = "pthread_barrier_wait", [REC_PIPE] = "write", [REC_EVENTFD] = "write",
	};

	const char *op = __atomic_load_n(&w->produce_op, __ATOMIC_RELAXED);

	return op ? op : ops[w->kind];
}

/* Only timed waits there so far: the deadlock would stall for the timeout, not hang. */
static bool only_timed(const struct lock_rec *w)
{
	return __atomic_load_n(&w->waits, __ATOMIC_RELAXED) == WAITS_TIMED;
}

static void name_of(const struct lock_class *c, char *buf, size_t len)
{
	lockdep_class_name(c, buf, len);
}

/* One dependency from -> to of the cycle, by what its ends are. */
static void rpt_edge(const struct lock_class *from, const struct lockdep_site *from_site,
		     const struct lock_class *to, const struct lockdep_site *to_site, bool to_read,
		     const struct lockdep_trace *trace, bool *timed)
{
	const struct lock_rec *wf = wait_of(from), *wt = wait_of(to);
	char f[LOCKDEP_NAME_MAX], n[LOCKDEP_NAME_MAX];

	name_of(from, f, sizeof(f));
	name_of(to, n, sizeof(n));
	if (wt) {
		bool tm = only_timed(wt) || (cur_wait.w == wt && cur_wait.timed);
		const char *op = cur_wait.w == wt ? cur_wait.op : wait_op_of(wt);

		*timed |= tm;
		rpt("       %s on %s (%s) at ", op, kind_text[wt->kind], n);
		rpt_site(to_site);
		rpt("%s\n", tm ? ", a timed wait" : "");
		if (trace)
			rpt_trace(trace, "         ", to_site->ip);
		rpt("       while holding (%s) taken at ", f);
		rpt_site(from_site);
		rpt("\n");
		rj_dep_typed("wait", op, "event", n, to_site, "while_holding", f, "holding_site", from_site, tm);
	} else if (wf) {
		const char *op = cur_produce.w == wf ? cur_produce.op : produce_op_of(wf);

		rpt("       %s(%s) at ", to_read ? "rlock" : "lock", n);
		rpt_site(to_site);
		rpt("\n       before %s on %s (%s)", op, kind_text[wf->kind], f);
		if (from_site->ip) {
			rpt(" at ");
			rpt_site(from_site);
		}
		rpt("\n");
		rj_dep_typed("event", op, "lock", n, to_site, "event", f, "produced_at", from_site, -1);
	} else {
		rpt("       %s(%s) at ", to_read ? "rlock" : "lock", n);
		rpt_site(to_site);
		rpt("\n");
		if (trace)
			rpt_trace(trace, "         ", to_site->ip);
		rpt("       while holding (%s) taken at ", f);
		rpt_site(from_site);
		rpt("\n");
		rj_dep_typed("lock", NULL, "lock", n, to_site, "while_holding", f, "holding_site", from_site, -1);
	}
}

/* An operation of the scenario: lock(A), rlock(A), sem_wait(&s), sem_post(&s). */
static void rpt_op(const char *indent, const struct lock_class *c, bool read, bool produce)
{
	const struct lock_rec *w = wait_of(c);
	char n[LOCKDEP_NAME_MAX];

	name_of(c, n, sizeof(n));
	if (!w)
		rpt("%s%s(%s);\n", indent, read ? "rlock" : "lock", n);
	else if (produce)
		rpt("%s%s(%s);\n", indent, cur_produce.w == w ? cur_produce.op : produce_op_of(w), n);
	else
		rpt("%s%s(%s);\n", indent, cur_wait.w == w ? cur_wait.op : wait_op_of(w), n);
}

static const struct lock_class *path_node(const struct lock_class *root, const struct bfs_path *p, unsigned int i)
{
	return i == 0 ? root : p->deps[i - 1]->to;
}

/* The instance of a held lock or event, as reports show it (a pipe's or thread's: none). */
static uintptr_t shown_instance(const struct held_lock *h)
{
	const struct lock_rec *r;

	if (!h->instance)
		return 0;
	r = container_of(hlock_map(h), struct lock_rec, map);
	if (r->kind == REC_PIPE || r->kind == REC_EVENTFD || r->kind == REC_THREAD)
		return 0;
	return uirq_ptr_shown((const void *)atomic_load_explicit(&r->addr, memory_order_relaxed));
}

static void rpt_end(const struct held_lock *h, const char *role)
{
	char n[LOCKDEP_NAME_MAX];
	uintptr_t inst = shown_instance(h);

	name_of(h->class, n, sizeof(n));
	if (inst)
		rpt("0x%lx ", (unsigned long)inst);
	rpt_class(h->class);
	rpt(", at: ");
	rpt_site(&h->site);
	rpt("\n");
	rj_lock(role, n, inst, &h->site);
}

bool wait_circular(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next,
		   const struct bfs_path *path)
{
	const struct lock_rec *pw = wait_of(prev->class), *nw = wait_of(next->class);
	static const char cpu1[] = "                               ";
	unsigned int n = path->len;
	bool any = pw || nw, timed = false;
	char pn[LOCKDEP_NAME_MAX];

	for (unsigned int i = 0; i < n && !any; i++)
		any = wait_of(path->deps[i]->to) != NULL;
	if (!any)
		return false;
	/* two parties that are one thread: no deadlock (kept quiet until a second thread joins in) */
	if (n == 1 && !forced && (nw ? one_thread_cycle(prev->class, next->class) :
				   pw ? one_thread_cycle(next->class, prev->class) : false))
		return true;
	if (!report_begin2(UIRQ_REPORT_WAIT,
			   report_sig(lockdep_class_sig(prev->class, true), lockdep_class_sig(next->class, true), 24, 0),
			   report_sig(lockdep_class_sig(prev->class, false), lockdep_class_sig(next->class, false), 24, 0)))
		return true;
	name_of(prev->class, pn, sizeof(pn));
	report_headline(true, "WARNING: possible circular dependency through a wait detected");
	rpt_task();
	if (nw) {
		rpt(" is about to wait on %s:\n", kind_text[nw->kind]);
		rpt_end(next, "waiting on");
		rpt("\nbut task is already holding lock:\n");
		rpt_end(prev, "holding");
		rpt("\nand the event it waits for needs that lock first: its producer takes it before producing it.\n");
	} else if (pw) {
		rpt(" is producing an event (%s on %s):\n", cur_produce.w == pw ? cur_produce.op : produce_op_of(pw),
		    kind_text[pw->kind]);
		rpt_end(prev, "producing");
		rpt("\nafter taking lock:\n");
		rpt_end(next, "after taking");
		rpt("\nand a waiter for that event holds that lock while it waits.\n");
	} else {
		rpt(" is trying to acquire lock:\n");
		rpt_end(next, "acquiring");
		rpt("\nbut task is already holding lock:\n");
		rpt_end(prev, "holding");
		rpt("\nwhich lock already depends on the new lock, through a wait.\n");
	}
	rpt("\nthe existing dependency chain (in reverse order) is:\n");
	for (unsigned int i = n; i > 0; i--) {
		const struct lock_dep *d = path->deps[i - 1];

		rpt("\n-> #%u ", i);
		rpt_class(d->to);
		rpt(":\n");
		/* only a dependency to a lock says how it was taken: read if never exclusively */
		rpt_edge(d->from, &d->prev_site, d->to, &d->site, !(d->dep & (DEP_SN_MASK | DEP_EN_MASK)),
			 d->trace, &timed);
	}
	rpt("\n-> #0 ");
	rpt_class(next->class);
	rpt(":\n");
	rpt_edge(prev->class, &prev->site, next->class, &next->site, next->read != 0, NULL, &timed);

	rpt("\nother info that might help us debug this:\n\n");
	if (n > 1) {
		rpt("Chain exists of:\n  ");
		for (unsigned int i = 0; i < n; i++) {
			char c[LOCKDEP_NAME_MAX];

			name_of(path_node(next->class, path, i), c, sizeof(c));
			rpt("%s --> ", c);
		}
		rpt("%s\n\n", pn);
	}
	/* two parties: the scenario; more: the chain above says it */
	if (n == 1) {
		rpt(" Possible unsafe scenario:\n\n");
		rpt("       CPU0                    CPU1\n");
		rpt("       ----                    ----\n");
		if (nw) {
			/* CPU0 holds prev and waits on next; CPU1 takes prev before producing next */
			rpt_op("  ", prev->class, prev->read != 0, false);
			rpt_op(cpu1, prev->class, false, false);
			rpt_op("  ", next->class, false, false);
			rpt_op(cpu1, next->class, false, true);
		} else {
			/* CPU1 holds next while it waits for prev; CPU0 takes next before producing prev */
			rpt_op(cpu1, next->class, false, false);
			rpt_op("  ", next->class, next->read != 0, false);
			rpt_op(cpu1, prev->class, false, false);
			rpt_op("  ", prev->class, false, true);
		}
		rpt("\n");
	}
	rpt(" *** DEADLOCK ***\n\n");
	if (timed)
		rpt("A timed wait is in the cycle: there the program would not hang, it would stall\n"
		    "until the timeout every time the two sides meet - still the same dependency.\n\n");
	rpt_held_locks(t);
	rpt("\n");
	rpt_stack_backtrace("stack backtrace:");
	report_end();
	return true;
}

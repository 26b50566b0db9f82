// SPDX-License-Identifier: MIT
/*
 * lockdep: per-thread held-lock stacks, acquire and release.
 *
 * The fast path (a chain seen before, usage bits already set) takes no lock,
 * allocates nothing and makes no system call: class from the map's cache,
 * chain key, a lock-free chain-cache hit, push.  It lives in
 * lockdep_internal.h (lockdep_acquire_fast, lockdep_release_top), inlined
 * here and in the preload library's wrappers; this file has the rest.
 *
 * The held-lock stack: stack[1..depth], each entry with the chain key of
 * itself and everything below it; the sentinel stack[0] has key 0 (an empty
 * stack).  So pushing and popping are each one store to depth, and a signal
 * handler sees a stack that is consistent.  It has no fixed limit: past
 * LOCKDEP_INLINE_DEPTH it moves to memory of its own, doubled as needed.
 */
#define _GNU_SOURCE
#include "lockdep_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uirq/context.h"
#include "uirq/sim.h"

/* Own cache lines: read on every acquisition, never next to a counter that is written. */
int uirq_debug_locks __attribute__((aligned(64))) = 1;
#ifdef UIRQ_LOCKDEP_PRELOAD
extern int lockdep_debug_locks __attribute__((alias("uirq_debug_locks")));
#endif
LOCKDEP_TLS struct lockdep_task lockdep_current;
struct lockdep_counters lockdep_counters __attribute__((aligned(64)));

static pthread_key_t exit_key;
static bool exit_key_ok;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void thread_exit_destructor(void *arg);

/* Every registered thread's task (a forked child must know who held what); the lock is a leaf. */
static struct raw_futex tasks_lock;
static struct lockdep_task *tasks, *fork_orphans;

static void task_unlink(struct lockdep_task *t)
{
	/* task_prevp under the lock too: the next thread to register writes it (TSan found the race). */
	raw_futex_lock(&tasks_lock);
	if (t->task_prevp) {
		*t->task_prevp = t->task_next;
		if (t->task_next)
			t->task_next->task_prevp = t->task_prevp;
		t->task_prevp = NULL;
	}
	raw_futex_unlock(&tasks_lock);
}

/*
 * fork() with lockdep's locks held by another thread would leave them held
 * for ever in the child: they are taken across it, in their order (graph,
 * then class), and the child's are free.
 */
static void fork_prepare(void)
{
	graph_lock();
	classes_fork_prepare();
	raw_futex_lock(&tasks_lock);
}

static void fork_parent(void)
{
	raw_futex_unlock(&tasks_lock);
	classes_fork_parent();
	graph_unlock();
}

/* The other threads' tasks become orphans (lockdep_fork_orphans); the forking thread is the only one left. */
static void fork_child(void)
{
	struct lockdep_task *self = &lockdep_current;

	fork_orphans = tasks;
	tasks = NULL;
	if (self->task_prevp) {
		*self->task_prevp = self->task_next;
		if (self->task_next)
			self->task_next->task_prevp = self->task_prevp;
		self->task_next = NULL;
		self->task_prevp = &tasks;
		tasks = self;
		self->tid = (int)gettid();
	}
	atomic_store_explicit(&tasks_lock.word, 0, memory_order_release);
	classes_fork_child();
	graph_lock_atfork_child();
}

void lockdep_for_each_task(void (*fn)(const struct lockdep_task *t, void *arg), void *arg)
{
	raw_futex_lock(&tasks_lock);
	for (struct lockdep_task *t = tasks; t; t = t->task_next)
		fn(t, arg);
	raw_futex_unlock(&tasks_lock);
}

void lockdep_fork_orphans(void (*fn)(const struct lockdep_task *t, void *arg), void *arg)
{
	struct lockdep_task *t = fork_orphans;

	fork_orphans = NULL;
	for (; t; t = t->task_next)
		fn(t, arg);
}

static void lockdep_init(void)
{
	const char *env = getenv("UIRQ_LOCKDEP");

	if (env && (!strcmp(env, "0") || !strcmp(env, "off") || !strcmp(env, "no")))
		__atomic_store_n(&LOCKDEP_DEBUG_LOCKS, 0, __ATOMIC_RELAXED);
	lockdep_stacktrace_init();
	exit_key_ok = pthread_key_create(&exit_key, thread_exit_destructor) == 0;
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	lockdep_irq_init();
}

void lockdep_init_once(void)
{
	pthread_once(&init_once, lockdep_init);
}

__attribute__((constructor)) static void lockdep_constructor(void)
{
	lockdep_init_once();
}

bool debug_locks_off(void)
{
	return __atomic_exchange_n(&LOCKDEP_DEBUG_LOCKS, 0, __ATOMIC_RELAXED) != 0;
}

bool uirq_lockdep_off(void)
{
	return debug_locks_off();
}

bool uirq_lockdep_enabled(void)
{
	return debug_locks_on();
}

void uirq_lockdep_set_fatal(bool on)
{
	report_set_fatal(on);
}

void uirq_lockdep_set_report_handler(uirq_lockdep_report_fn fn, void *arg)
{
	lockdep_init_once();
	report_set_handler(fn, arg);
}

/* Chain hits this thread counted that the global counter does not have yet. */
static unsigned long pending_hits(const struct lockdep_task *t)
{
	return (unsigned long)(t->hits_base - t->hits_left);
}

static void flush_chain_hits(struct lockdep_task *t)
{
	atomic_fetch_add_explicit(&lockdep_counters.chain_hits, pending_hits(t), memory_order_relaxed);
	t->hits_left = t->hits_base = CHAIN_HITS_BATCH;
}

void uirq_lockdep_get_stats(struct uirq_lockdep_stats *stats)
{
	/*
	 * Zapped classes are counted until the graph lock's next holder frees
	 * them: be that holder if nobody holds it (never wait: this may be
	 * asked from inside a report, under the graph lock).
	 */
	if (graph_trylock())
		graph_unlock();
	memset(stats, 0, sizeof(*stats));
	stats->classes = nr_lock_classes();
	stats->dependencies = nr_lock_deps();
	stats->classes_made = nr_lock_classes_made();
	stats->dependencies_made = nr_lock_deps_made();
	stats->chains = nr_lock_chains();
	stats->chain_hits = atomic_load(&lockdep_counters.chain_hits) + pending_hits(&lockdep_current);
	stats->bfs_searches = atomic_load(&lockdep_counters.bfs_searches);
	stats->max_depth_seen = atomic_load(&lockdep_counters.max_depth_seen);
	report_stats(stats);
}

/* ---- reports about the held-lock stack itself ---- */

static void print_unlock_imbalance_bug(struct lockdep_task *t, struct uirq_lockdep_map *map,
				       const struct lockdep_site *site)
{
	uint64_t where = report_sig(site->file ? report_sig_str(site->file) : site->ip, (uint64_t)site->line, 0, 0);

	graph_lock();
	if (report_begin2(UIRQ_REPORT_BAD_UNLOCK, report_sig(map_class_key(map, 0), where, 0, 0), where)) {
		const struct lock_class *class = __atomic_load_n(&map->class_cache, __ATOMIC_ACQUIRE);
		char name[LOCKDEP_NAME_MAX];

		if (class)
			lockdep_class_name(class, name, sizeof(name));
		else if (!lockdep_lock_info || !lockdep_lock_info->map_name ||
			 !lockdep_lock_info->map_name(map, name, sizeof(name)))
			snprintf(name, sizeof(name), "%s", map->name ? map->name : "<unnamed>");
		report_headline(true, "WARNING: bad unlock balance detected!");
		rpt_task();
		rpt(" is trying to release lock (%s) at:\n", name);
		rpt_site(site);
		rj_lock("releasing", name, lockdep_lock_info ? lockdep_lock_info->instance(map) : (uintptr_t)map,
			site);
		rpt("\nbut there are no more locks to release!\n");
		if (lockdep_lock_info) {
			long holder = lockdep_lock_info->holder(map);

			if (holder > 0)
				rpt("(the lock is held by thread %ld)\n", holder);
			else if (holder < 0)
				rpt("(the lock is held by another thread)\n");
		}
		rpt("\nother info that might help us debug this:\n");
		rpt_held_locks(t);
		rpt("\n");
		rpt_stack_backtrace("stack backtrace:");
		report_end();
	}
	graph_unlock();
}

static void print_freed_lock_bug(struct lockdep_task *t, const void *from, const void *to,
				 const struct held_lock *hlock)
{
	graph_lock();
	if (report_begin2(UIRQ_REPORT_HELD_FREED, lockdep_class_sig(hlock->class, true),
			  lockdep_class_sig(hlock->class, false))) {
		report_headline(true, "WARNING: held lock freed!");
		rpt_task();
		rpt(" is freeing memory 0x%lx-0x%lx, with a lock still held there!\n", uirq_ptr_shown(from),
		    uirq_ptr_shown(from) + (unsigned long)((const char *)to - (const char *)from));
		rpt_held_lock(hlock, "freed");
		rpt_held_locks(t);
		rpt("\n");
		rpt_stack_backtrace("stack backtrace:");
		report_end();
	}
	graph_unlock();
}

/* ---- validation of a new top of stack ---- */

/*
 * The chain cache, the kernel's lookup_chain_cache()/add_chain(): the
 * reason lockdep can run all the time.  The sequence of classes a thread
 * holds, hashed into a chain key, names every dependency the new lock
 * adds: if that exact sequence was validated before, by any thread, every
 * edge is already in the graph and every search was already done, so the
 * answer can only be the same.  The common case - a code path that takes
 * its locks in the order it always does - is then a hash and one lock-free
 * probe, with no graph lock.  A miss takes the graph lock, looks again
 * (another thread may have validated it meanwhile), runs the full checks,
 * and adds the key only if lockdep is still on: after a report the graph
 * may be incomplete, and caching would vouch for chains never checked.
 * A chain head (the first lock, or the first in a new irq context) has no
 * predecessor to order against, so it only needs the recursion check.
 */
static __attribute__((noinline)) void validate_chain_slow(struct lockdep_task *t, struct held_lock *hlock,
							    uint64_t chain_key, bool first_use)
{
	bool chain_head = !t->depth || held_lock_at(t, t->depth - 1)->irq_context != hlock->irq_context;

	graph_lock();
	if (!first_use && lookup_chain_cache(chain_key)) {
		lockdep_count_hit(t);	/* another thread validated it meanwhile */
	} else if (!check_deadlock(t, hlock)) {
		/* a recursive deadlock is the one problem: no dependency is added on top */
		if (!chain_head)
			check_prevs_add(t, hlock);
		if (debug_locks_on() && !first_use)
			add_chain_cache(chain_key);
	}
	graph_unlock();
}

/*
 * first_use: the class was never taken before.  No chain with it on top
 * can be in the cache, and it may never be taken again: a program that
 * makes and destroys locks all the time takes most of its locks once.
 * Neither looked up nor added then (each is a cache miss in a table of
 * megabytes); the chain is cached the next time, if there is one.
 */
static inline void validate_chain(struct lockdep_task *t, struct held_lock *hlock, uint64_t chain_key,
				  bool first_use)
{
	/* a trylock cannot block: it adds no dependency and is not checked */
	if (hlock->trylock)
		return;
	if (likely(!first_use && lookup_chain_cache(chain_key))) {
		lockdep_count_hit(t);
		return;
	}
	validate_chain_slow(t, hlock, chain_key, first_use);
}

static inline uint64_t hlock_chain_key(const struct held_lock *h, uint64_t prev)
{
	return iterate_chain_key(prev, lock_class_chain_id(h->class),
				 h->flags & HL_CHAIN_MASK);
}

static __attribute__((noinline)) void register_thread(struct lockdep_task *t)
{
	lockdep_init_once();
	t->stack = t->inline_stack;
	t->cap = LOCKDEP_INLINE_DEPTH;
	t->registered = true;
	t->tid = (int)gettid();
	raw_futex_lock(&tasks_lock);
	t->task_next = tasks;
	if (tasks)
		tasks->task_prevp = &t->task_next;
	t->task_prevp = &tasks;
	tasks = t;
	raw_futex_unlock(&tasks_lock);
	if (exit_key_ok)
		pthread_setspecific(exit_key, t);
}

static size_t stack_bytes(unsigned int cap)
{
	return (cap + 1) * sizeof(struct held_lock);
}

/*
 * Twice the room.  Recursion is set, so a signal handler leaves the stack
 * alone while it moves; only this thread ever reads it.
 */
static bool grow_stack(struct lockdep_task *t)
{
	unsigned int cap = t->cap * 2;
	struct held_lock *stack = lockdep_alloc(stack_bytes(cap));

	if (!stack) {
		graph_lock();
		lockdep_out_of_memory("held-lock stacks");
		graph_unlock();
		return false;
	}
	memcpy(stack, t->stack, stack_bytes(t->depth));
	atomic_signal_fence(memory_order_seq_cst);
	if (t->stack != t->inline_stack)
		lockdep_free(t->stack, stack_bytes(t->cap));
	t->stack = stack;
	t->cap = cap;
	return true;
}

static void free_stack(struct lockdep_task *t)
{
	if (t->stack != t->inline_stack && !t->depth) {
		lockdep_free(t->stack, stack_bytes(t->cap));
		t->stack = t->inline_stack;
		t->cap = LOCKDEP_INLINE_DEPTH;
		if (t->max_depth > t->cap)
			t->max_depth = t->cap;
	}
}

static __attribute__((noinline)) void note_depth(struct lockdep_task *t)
{
	unsigned long seen = atomic_load_explicit(&lockdep_counters.max_depth_seen, memory_order_relaxed);

	t->max_depth = t->depth;
	while (t->depth > seen &&
	       !atomic_compare_exchange_weak_explicit(&lockdep_counters.max_depth_seen, &seen, t->depth,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

static void bad_subclass(unsigned int subclass)
{
	if (!debug_locks_off())
		return;
	graph_lock();
	if (report_begin(UIRQ_REPORT_RESOURCES, 3)) {
		report_headline(false, "BUG: looking up invalid subclass: %u", subclass);
		rpt("turning off the locking correctness validator.\n");
		rpt_stack_backtrace("stack backtrace:");
		report_end();
	}
	graph_unlock();
}

static __attribute__((noinline)) struct lock_class *map_class_slow(struct uirq_lockdep_map *map,
								   unsigned int subclass)
{
	struct lock_class *c;

	if (subclass >= UIRQ_MAX_LOCKDEP_SUBCLASSES) {
		bad_subclass(subclass);
		return NULL;
	}
	c = look_up_lock_class(map_class_key(map, subclass));
	if (!c)
		c = register_lock_class(map, subclass);
	if (c && subclass == 0)
		__atomic_store_n(&map->class_cache, c, __ATOMIC_RELEASE);
	return c;
}

static inline struct lock_class *map_class(struct uirq_lockdep_map *map, unsigned int subclass)
{
	if (likely(subclass == 0)) {
		struct lock_class *c = __atomic_load_n(&map->class_cache, __ATOMIC_ACQUIRE);

		/* a class zapped with its key may have been recycled: check it is still ours */
		if (likely(c && atomic_load_explicit(&c->key, memory_order_relaxed) == map_class_key(map, 0)))
			return c;
	}
	return map_class_slow(map, subclass);
}

struct lock_class *lockdep_map_class(struct uirq_lockdep_map *map)
{
	return map_class(map, 0);
}

/* The complete acquisition (recursion held): the fast path in lockdep_internal.h does the common case. */
static inline void __lock_acquire(struct lockdep_task *t, struct uirq_lockdep_map *map,
				  unsigned int subclass, int trylock, int read,
				  unsigned long ip, const char *file, int line)
{
	struct lock_class *class = map_class(map, subclass);
	struct held_lock *hlock;
	uint64_t chain_key;
	unsigned int depth = t->depth, flags;
	bool first_use;

	if (unlikely(!class))
		return;
	if (unlikely(!t->registered))
		register_thread(t);
	if (unlikely(depth >= t->cap) && !grow_stack(t))
		return;
	if (unlikely((unsigned int)read > 2))
		read = read < 0 ? 0 : 2;

	flags = (unsigned int)read | (trylock ? HL_TRYLOCK : 0u);
	flags |= lockdep_context_flags();
	chain_key = iterate_chain_key(t->stack[depth].chain_key,
				      lock_class_chain_id(class),
				      flags & HL_CHAIN_MASK);
	/* written above the top: reports list the locks held before this one, as the kernel's do */
	hlock = &t->stack[depth + 1];
	hlock->chain_key = chain_key;
	hlock->class = class;
	hlock->instance = lockdep_hide_ptr(map);
	hlock->site.file = file;
	hlock->site.line = line;
	hlock->site.ip = ip;
	hlock->flags = (uint8_t)flags;

	first_use = !(atomic_load_explicit(&class->usage_mask, memory_order_relaxed) & LOCKF(LOCK_USED));
	mark_usage(t, hlock);
	validate_chain(t, hlock, chain_key, first_use);
	if (!trylock) {
		lockdep_wlog_fill(t, class, lock_class_chain_id(class), flags, ip);
		lockdep_wlog_commit(t);
	}

	/* pushed only now */
	t->depth = depth + 1;
	if (unlikely(t->depth > t->max_depth))
		note_depth(t);
}

__attribute__((noinline)) void lock_acquire_slow(struct uirq_lockdep_map *map, unsigned int subclass,
						 int trylock, int read, unsigned long ip,
						 const char *file, int line)
{
	struct lockdep_task *t = &lockdep_current;

	__lock_acquire(t, map, subclass, trylock, read, ip, file, line);
	lockdep_recursion_exit(t);
}

void uirq_lock_acquire(struct uirq_lockdep_map *map, unsigned int subclass, int trylock,
		       int read, unsigned long ip, const char *file, int line)
{
	if (unlikely(!debug_locks_on()))
		return;
	lockdep_acquire(map, subclass, trylock, read, ip, file, line);
}

/*
 * Take entry i out of the stack; the locks above it move down, with the
 * chain keys of the stack they are in now.  They are not validated again,
 * as the kernel's reacquire does: that would only add dependencies from the
 * locks below i to those above, which an in-order release never adds
 * either (each acquisition adds one from the lock just below it), and in a
 * program that unlocks in random order it cost a validation per held lock
 * per unlock.
 */
static void remove_held_lock(struct lockdep_task *t, unsigned int i)
{
	unsigned int depth = t->depth;

	t->depth = i;
	for (unsigned int j = i + 1; j < depth; j++) {
		struct held_lock *h = held_lock_at(t, t->depth);
		/* read before the move: held_lock_live() looks at the key below j, which the move overwrites */
		bool live = held_lock_live(t, j);

		*h = *held_lock_at(t, j);
		h->chain_key = hlock_chain_key(h, curr_chain_key(t));
		/* a lock gone under its holder stays gone: a key its class's id does not make */
		if (!live)
			h->chain_key = ~h->chain_key;
		t->depth++;
	}
}

static void __lock_release(struct lockdep_task *t, struct uirq_lockdep_map *map,
			   unsigned long ip, const char *file, int line)
{
	uintptr_t hidden = lockdep_hide_ptr(map);
	unsigned int i = t->depth;

	while (i > 0 && held_lock_at(t, i - 1)->instance != hidden)
		i--;
	if (unlikely(i == 0)) {
		struct lockdep_site site = { .file = file, .line = line, .ip = ip };

		print_unlock_imbalance_bug(t, map, &site);
		return;
	}
	i--;
	if (likely(i == t->depth - 1)) {
		t->depth--;
		return;
	}
	remove_held_lock(t, i);
}

__attribute__((noinline)) void lock_release_slow(struct lockdep_task *t, struct uirq_lockdep_map *map,
						 unsigned long ip, const char *file, int line)
{
	if (!lockdep_recursion_enter(t))
		return;
	__lock_release(t, map, ip, file, line);
	lockdep_recursion_exit(t);
}

void uirq_lock_release(struct uirq_lockdep_map *map, unsigned long ip, const char *file, int line)
{
	struct lockdep_task *t = &lockdep_current;

	if (unlikely(!debug_locks_on()))
		return;
	/* the common case: the top of the stack */
	if (likely(lockdep_release_top(t, map)))
		return;
	lock_release_slow(t, map, ip, file, line);
}

bool uirq_lockdep_is_held_type(const struct uirq_lockdep_map *map, int read)
{
	const struct lockdep_task *t = &lockdep_current;

	if (!debug_locks_on() || t->recursion)
		return true;	/* unknown: never make an assertion fire */
	for (unsigned int i = 0; i < t->depth; i++) {
		const struct held_lock *h = held_lock_at(t, i);

		if (h->instance == lockdep_hide_ptr(map) && (read < 0 || (read == 0) == (h->read == 0)))
			return true;
	}
	return false;
}

/*
 * Report and forget every held lock whose map lies in [from, to): the
 * memory [mem, mem + len) that holds it is being freed.  Returns how the last
 * one was held (its read value), or -1 if none was.
 */
static int forget_freed_locks(struct lockdep_task *t, uintptr_t from, uintptr_t to,
			      const void *mem, size_t len)
{
	int held = -1;

	for (unsigned int i = t->depth; i-- > 0;) {
		uintptr_t m = (uintptr_t)hlock_map(held_lock_at(t, i));

		if (m + sizeof(struct uirq_lockdep_map) <= from || m >= to)
			continue;
		held = held_lock_at(t, i)->read;
		print_freed_lock_bug(t, mem, (const char *)mem + len, held_lock_at(t, i));
		/* the memory is gone: validation goes on without it */
		remove_held_lock(t, i);
	}
	return held;
}

void uirq_lockdep_check_no_locks_freed(const void *mem, size_t len)
{
	struct lockdep_task *t = &lockdep_current;

	if (!t->depth || !debug_locks_on() || !lockdep_recursion_enter(t))
		return;
	forget_freed_locks(t, (uintptr_t)mem, (uintptr_t)mem + len, mem, len);
	lockdep_recursion_exit(t);
}

int lockdep_map_freed(const struct uirq_lockdep_map *map, const void *mem, size_t len)
{
	struct lockdep_task *t = &lockdep_current;
	int held;

	if (!t->depth || !debug_locks_on() || !lockdep_recursion_enter(t))
		return -1;
	held = forget_freed_locks(t, (uintptr_t)map, (uintptr_t)map + sizeof(*map), mem, len);
	lockdep_recursion_exit(t);
	return held;
}

void lockdep_drop_held(struct lockdep_task *t, unsigned int i)
{
	if (!lockdep_recursion_enter(t))
		return;
	remove_held_lock(t, i);
	lockdep_recursion_exit(t);
}

void uirq_lockdep_init_map(struct uirq_lockdep_map *map, const char *name,
			   const struct uirq_lock_class_key *key, int subclass)
{
	struct lockdep_task *t = &lockdep_current;

	(void)subclass;	/* classes are created lazily, at first acquisition */
	/* re-initialising a lock this thread holds frees it, as far as lockdep knows */
	if (t->depth && debug_locks_on() && lockdep_recursion_enter(t)) {
		forget_freed_locks(t, (uintptr_t)map, (uintptr_t)map + sizeof(*map), map, sizeof(*map));
		lockdep_recursion_exit(t);
	}
	map->key = key;
	map->name = name;
	__atomic_store_n(&map->class_cache, NULL, __ATOMIC_RELEASE);
}

/* ---- thread exit ---- */

static void check_no_locks_held(struct lockdep_task *t)
{
	uint64_t sig = 0, type_sig = 0;

	flush_chain_hits(t);
	if (!t->depth || !debug_locks_on() || !lockdep_recursion_enter(t))
		return;
	graph_lock();
	for (unsigned int i = 0; i < t->depth; i++) {
		sig = report_sig(sig, lockdep_class_sig(held_lock_at(t, i)->class, true), 0, 0);
		type_sig = report_sig(type_sig, lockdep_class_sig(held_lock_at(t, i)->class, false), 0, 0);
	}
	if (report_begin2(UIRQ_REPORT_HELD_AT_EXIT, sig, type_sig)) {
		char name[64];

		task_name(name, sizeof(name));
		report_headline(true, "WARNING: %s still has locks held!", name);
		rpt_held_locks(t);
		rpt("\n");
		rpt_stack_backtrace("stack backtrace:");
		report_end();
	}
	graph_unlock();
	t->depth = 0;
	lockdep_recursion_exit(t);
}

static void thread_exit_destructor(void *arg)
{
	task_unlink(arg);
	check_no_locks_held(arg);
	if (lockdep_lock_info && lockdep_lock_info->thread_exit)
		lockdep_lock_info->thread_exit(arg);
	free_stack(arg);
}

/*
 * A task of the deterministic mode (a coroutine sharing its thread) has
 * its own held-lock stack: saved and restored at each switch, only the
 * part in use (the header, and the inline entries up to the depth; a
 * stack moved to the heap is its pointer), and checked and freed at the
 * task's end as at a thread's.
 */
static size_t task_live(const void *value)
{
	const struct lockdep_task *t = value;

	/*
	 * The saved copy's pointer is into the thread's variable, where it is
	 * put back.  The sentinel stack[0] is never written (its key stays 0
	 * in every task's): an empty stack is the header alone.
	 */
	if (t->stack == lockdep_current.inline_stack && t->depth)
		return offsetof(struct lockdep_task, inline_stack) + (size_t)(t->depth + 1) * sizeof(struct held_lock);
	return offsetof(struct lockdep_task, stack) + sizeof(t->stack);
}

static void task_exit(void *var)
{
	struct lockdep_task *t = var;

	if (t->registered)
		thread_exit_destructor(t);
}
UIRQ_SIM_TASK_LOCAL_EXT(lockdep_current, task_live, task_exit)

void uirq_lockdep_thread_exit(void)
{
	check_no_locks_held(&lockdep_current);
}

void uirq_lockdep_print_held_locks(void)
{
	struct lockdep_task *t = &lockdep_current;

	if (!lockdep_recursion_enter(t))
		return;
	graph_lock();
	report_begin_plain();
	rpt_held_locks(t);
	report_write_log();
	graph_unlock();
	lockdep_recursion_exit(t);
}

void uirq_lockdep_assert_failed(const char *cond, const char *file, int line)
{
	struct lockdep_task *t = &lockdep_current;

	if (!debug_locks_on() || !lockdep_recursion_enter(t))
		return;
	graph_lock();
	if (report_begin(UIRQ_REPORT_ASSERT, report_sig(report_sig_str(file), (uint64_t)line, 0, 0))) {
		report_headline(false, "WARNING: %s failed at %s:%d", cond, file, line);
		rpt_held_locks(t);
		rpt("\n");
		rpt_stack_backtrace("stack backtrace:");
		report_end();
	}
	graph_unlock();
	lockdep_recursion_exit(t);
}

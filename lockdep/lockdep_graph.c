// SPDX-License-Identifier: MIT
/*
 * The dependency graph: one entry per "A was held while B was taken", kept
 * in A's after list and B's before list so it can be searched both ways
 * and unlinked in O(1) when a class dies.  Searches are breadth-first, so a
 * cycle found is a shortest one, and follow strong paths only: a path that
 * enters a lock as a recursive reader (-(*R)->) and leaves it as a reader
 * (-(S*)->) proves nothing (Documentation/locking/lockdep-design.rst).
 */
#include "lockdep_internal.h"

#include <string.h>

static struct lockdep_slab dep_slab = LOCKDEP_SLAB(struct lock_dep, from);
static _Atomic unsigned long nr_deps, nr_deps_made;

unsigned long nr_lock_deps(void)
{
	return atomic_load_explicit(&nr_deps, memory_order_relaxed);
}

unsigned long nr_lock_deps_made(void)
{
	return atomic_load_explicit(&nr_deps_made, memory_order_relaxed);
}

/* ---- the (from, to) -> dependency hash: open addressing, graph lock held ---- */

#define DEP_TOMBSTONE	((struct lock_dep *)1)

static struct {
	struct lock_dep **slots;
	uint64_t mask;		/* slots - 1; slots is NULL while 0 */
	uint64_t used;		/* live entries and tombstones */
	struct lock_dep **spare;	/* the table before the last rebuild, when of the same size */
} dep_hash;

static uint64_t dep_hash_of(const struct lock_class *from, const struct lock_class *to)
{
	uint64_t h = ((uint64_t)(uintptr_t)from * 0x9e3779b97f4a7c15ull) ^ (uint64_t)(uintptr_t)to;

	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

static struct lock_dep **dep_slot(const struct lock_class *from, const struct lock_class *to)
{
	struct lock_dep **tomb = NULL;

	for (uint64_t i = dep_hash_of(from, to) & dep_hash.mask; ; i = (i + 1) & dep_hash.mask) {
		struct lock_dep *d = dep_hash.slots[i];

		if (!d)
			return tomb ? tomb : &dep_hash.slots[i];
		if (d == DEP_TOMBSTONE) {
			if (!tomb)
				tomb = &dep_hash.slots[i];
		} else if (d->from == from && d->to == to) {
			return &dep_hash.slots[i];
		}
	}
}

static struct lock_dep *find_dep(const struct lock_class *from, const struct lock_class *to)
{
	struct lock_dep *d;

	if (!dep_hash.slots)
		return NULL;
	d = *dep_slot(from, to);
	return d == DEP_TOMBSTONE ? NULL : d;
}

/* Room for one more entry (live ones at most a quarter full after a rebuild); false when out of memory. */
static bool dep_hash_make_room(void)
{
	uint64_t size = dep_hash.slots ? dep_hash.mask + 1 : 0, nsize = 1024;
	struct lock_dep **old = dep_hash.slots;

	if (old && (dep_hash.used + 1) * 2 <= size)
		return true;
	while (nsize < (nr_lock_deps() + 1) * 4)
		nsize *= 2;
	/*
	 * Dependencies made and zapped all the time (locks created and
	 * destroyed in a loop) fill the table with tombstones and rebuild it
	 * at one size again and again: the old table is kept for the next
	 * rebuild, since unmapping it costs every CPU a TLB shootdown.
	 */
	if (dep_hash.spare && nsize == size) {
		dep_hash.slots = dep_hash.spare;
		memset(dep_hash.slots, 0, nsize * sizeof(*old));
	} else {
		lockdep_free(dep_hash.spare, size * sizeof(*old));
		dep_hash.slots = lockdep_alloc(nsize * sizeof(*old));
	}
	dep_hash.spare = NULL;
	if (!dep_hash.slots) {
		dep_hash.slots = old;
		return false;
	}
	dep_hash.mask = nsize - 1;
	dep_hash.used = 0;
	for (uint64_t i = 0; i < size; i++) {
		if (old[i] && old[i] != DEP_TOMBSTONE) {
			*dep_slot(old[i]->from, old[i]->to) = old[i];
			dep_hash.used++;
		}
	}
	if (nsize == size)
		dep_hash.spare = old;
	else
		lockdep_free(old, size * sizeof(*old));
	return true;
}

/* ---- storage ---- */

static void link_dep(struct lock_dep *d)
{
	struct lock_class *from = d->from, *to = d->to;

	struct lock_dep **slot = dep_slot(from, to);

	/* a tombstone taken over was counted already */
	if (!*slot)
		dep_hash.used++;
	*slot = d;

	d->after_prev = NULL;
	d->after_next = from->after_head;
	if (from->after_head)
		from->after_head->after_prev = d;
	from->after_head = d;

	d->before_prev = NULL;
	d->before_next = to->before_head;
	if (to->before_head)
		to->before_head->before_prev = d;
	to->before_head = d;
	atomic_fetch_add_explicit(&nr_deps, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&nr_deps_made, 1, memory_order_relaxed);
}

static void unlink_and_free_dep(struct lock_dep *d)
{
	struct lock_class *from = d->from, *to = d->to;

	lockdep_order_remove(d);
	*dep_slot(from, to) = DEP_TOMBSTONE;

	if (d->after_prev)
		d->after_prev->after_next = d->after_next;
	else
		from->after_head = d->after_next;
	if (d->after_next)
		d->after_next->after_prev = d->after_prev;

	if (d->before_prev)
		d->before_prev->before_next = d->before_next;
	else
		to->before_head = d->before_next;
	if (d->before_next)
		d->before_next->before_prev = d->before_prev;

	slab_free(&dep_slab, d);
	atomic_fetch_sub_explicit(&nr_deps, 1, memory_order_relaxed);
}

void zap_class_deps(struct lock_class *c)
{
	while (c->after_head)
		unlink_and_free_dep(c->after_head);
	while (c->before_head)
		unlink_and_free_dep(c->before_head);
}

/* The type of prev -> next: bit0 "prev exclusive", bit1 "next non-recursive". */
static unsigned int calc_dep(const struct held_lock *prev, const struct held_lock *next)
{
	return 1u << ((prev->read == 0) + ((next->read != 2) << 1));
}

/* Walking an edge backwards swaps the roles of its ends: ER <-> SN. */
static unsigned int backward_dep(unsigned int m)
{
	return (m & (DEP_SR_MASK | DEP_EN_MASK)) | ((m & DEP_ER_MASK) << 1) | ((m & DEP_SN_MASK) >> 1);
}

/* ---- breadth-first search ---- */

/*
 * The search's state is in its queue, not in the classes (their memory is
 * per lock in the preload library): each entry knows the dependency it was
 * reached by and the entry it was reached from, so the path is read back
 * from the queue.  A class keeps only its mark: this search's number and
 * which of its two visits it had.
 */
#define BFS_MARK_STRONG	1u	/* reached by a strong path */
#define BFS_MARK_XR	2u	/* reached through *R only */
static uint64_t bfs_gen, search_gen;
static struct bfs_entry {
	struct lock_class *class;
	struct lock_dep *dep;	/* how class was reached; NULL at the root */
	uint32_t parent;	/* the entry dep leaves from */
	bool xr;
} *bfs_queue;
static size_t bfs_queue_size;

uint64_t lockdep_new_search(void)
{
	return ++search_gen;
}

/* A class is visited at most twice: once reached through *R only, once strongly. */
static bool bfs_visit(struct lock_class *c, bool xr)
{
	uint64_t m = c->mark;
	unsigned int seen = m >> 2 == bfs_gen ? (unsigned int)m & 3u : 0u;

	if ((seen & BFS_MARK_STRONG) || (xr && (seen & BFS_MARK_XR)))
		return false;
	c->mark = bfs_gen << 2 | seen | (xr ? BFS_MARK_XR : BFS_MARK_STRONG);
	return true;
}

static struct lock_class *dep_far_end(const struct lock_dep *d, enum bfs_dir dir)
{
	return dir == BFS_FORWARDS ? d->to : d->from;
}

/* The path from the root to entry e, keeping the root end if it is absurdly long. */
static void bfs_build_path(size_t e, struct bfs_path *path)
{
	unsigned int n = 0;

	path->match = bfs_queue[e].class;
	path->match_xr = bfs_queue[e].xr;
	for (size_t i = e; bfs_queue[i].dep; i = bfs_queue[i].parent)
		n++;
	path->len = n < MAX_BFS_PATH ? n : MAX_BFS_PATH;
	for (size_t i = e, k = n; bfs_queue[i].dep; i = bfs_queue[i].parent, k--)
		if (k - 1 < MAX_BFS_PATH)
			path->deps[k - 1] = bfs_queue[i].dep;
}

/* Room for one more entry; false when out of memory.  Grows with what a search visits. */
static bool bfs_make_room(size_t tail)
{
	struct bfs_entry *q;

	if (tail < bfs_queue_size)
		return true;
	/* an entry's parent is 32 bits: a search that visits 2^32 classes is out of memory */
	if (tail >= UINT32_MAX)
		return false;
	q = lockdep_grow_array(bfs_queue, &bfs_queue_size, tail, sizeof(*q), 1024);
	if (!q)
		return false;
	bfs_queue = q;
	return true;
}

bool lockdep_bfs(struct lock_class *root, bool root_xr, enum bfs_dir dir,
		 bfs_match_fn match, void *data, struct bfs_path *path)
{
	size_t head = 0, tail = 0;

	atomic_fetch_add_explicit(&lockdep_counters.bfs_searches, 1, memory_order_relaxed);
	if (!bfs_make_room(0)) {
		lockdep_out_of_memory("the dependency search");
		return false;
	}
	bfs_gen = lockdep_new_search();
	bfs_visit(root, root_xr);
	bfs_queue[tail++] = (struct bfs_entry){ .class = root, .xr = root_xr };
	if (match(root, root_xr, data)) {
		bfs_build_path(0, path);
		return true;
	}

	while (head < tail) {
		size_t from = head++;
		struct lock_class *c = bfs_queue[from].class;
		bool xr = bfs_queue[from].xr;
		struct lock_dep *d = dir == BFS_FORWARDS ? c->after_head : c->before_head;

		for (; d; d = dir == BFS_FORWARDS ? d->after_next : d->before_next) {
			unsigned int mask = dir == BFS_FORWARDS ? d->dep : backward_dep(d->dep);
			struct lock_class *next;
			bool nxr;

			/* -(*R)-> then -(S*)-> is no strong path */
			if (xr)
				mask &= ~(DEP_SR_MASK | DEP_SN_MASK);
			if (!mask)
				continue;
			nxr = !(mask & (DEP_SN_MASK | DEP_EN_MASK));
			next = dep_far_end(d, dir);
			if (!bfs_visit(next, nxr))
				continue;
			if (!bfs_make_room(tail)) {
				lockdep_out_of_memory("the dependency search");
				return false;
			}
			bfs_queue[tail++] = (struct bfs_entry){ next, d, (uint32_t)from, nxr };
			if (match(next, nxr, data)) {
				bfs_build_path(tail - 1, path);
				return true;
			}
		}
	}
	return false;
}

/* ---- printing ---- */

void rpt_dep_site(const struct lock_dep *d)
{
	char to[LOCKDEP_NAME_MAX], from[LOCKDEP_NAME_MAX];

	lockdep_class_name(d->to, to, sizeof(to));
	lockdep_class_name(d->from, from, sizeof(from));
	rpt("       lock(%s) at ", to);
	rpt_site(&d->site);
	rpt("\n");
	if (d->trace)
		rpt_trace(d->trace, "         ", d->site.ip);
	rpt("       while holding (%s) taken at ", from);
	rpt_site(&d->prev_site);
	rpt("\n");
	rj_dep(to, &d->site, from, &d->prev_site);
}

/* The i-th node of a path, 0 being the root. */
static const struct lock_class *path_node(const struct lock_class *root, const struct bfs_path *p,
					  enum bfs_dir dir, unsigned int i)
{
	return i == 0 ? root : dep_far_end(p->deps[i - 1], dir);
}

void rpt_dep_path(const struct lock_class *root, const struct bfs_path *path, enum bfs_dir dir)
{
	for (unsigned int i = path->len; i > 0; i--) {
		rpt(" -> ");
		rpt_class(path_node(root, path, dir, i));
		rpt(" {\n");
		rpt_dep_site(path->deps[i - 1]);
		rpt(" }\n");
	}
	rpt(" ... ");
	rpt_class(root);
	rpt("\n\n");
}

static void rpt_lock_op(const char *indent, const struct held_lock *h, const struct lock_class *c)
{
	rpt("%s%s(", indent, h && h->read ? "rlock" : "lock");
	rpt_lock_name_bare(c);
	rpt(");\n");
}

static void print_circular_bug(struct lockdep_task *t, struct held_lock *prev,
			       struct held_lock *next, const struct bfs_path *path)
{
	const char *cpu1 = "                               ";
	const struct lock_class *parent;
	unsigned int n = path->len;

	/* a cycle through a wait: the preload library's own report */
	if (lockdep_lock_info && lockdep_lock_info->circular && lockdep_lock_info->circular(t, prev, next, path))
		return;
	if (!report_begin2(UIRQ_REPORT_CIRCULAR,
			   report_sig(lockdep_class_sig(prev->class, true), lockdep_class_sig(next->class, true), 0, 0),
			   report_sig(lockdep_class_sig(prev->class, false), lockdep_class_sig(next->class, false), 0, 0)))
		return;
	report_headline(true, "WARNING: possible circular locking dependency detected");
	rpt_task();
	rpt(" is trying to acquire lock:\n");
	rpt_held_lock(next, "acquiring");
	rpt("\nbut task is already holding lock:\n");
	rpt_held_lock(prev, "holding");
	rpt("\nwhich lock already depends on the new lock.\n\n");
	rpt("\nthe existing dependency chain (in reverse order) is:\n");
	for (unsigned int i = n; i > 0; i--) {
		rpt("\n-> #%u ", i);
		rpt_class(path_node(next->class, path, BFS_FORWARDS, i));
		rpt(":\n");
		rpt_dep_site(path->deps[i - 1]);
	}
	rpt("\n-> #0 ");
	rpt_class(next->class);
	rpt(":\n       lock(");
	rpt_lock_name_bare(next->class);
	rpt(") at ");
	rpt_site(&next->site);
	rpt("\n       while holding (");
	rpt_lock_name_bare(prev->class);
	rpt(") taken at ");
	rpt_site(&prev->site);
	rpt("\n\nother info that might help us debug this:\n\n");

	parent = path_node(next->class, path, BFS_FORWARDS, n ? n - 1 : 0);
	if (parent != next->class) {
		rpt("Chain exists of:\n  ");
		rpt_lock_name_bare(next->class);
		rpt(" --> ");
		rpt_lock_name_bare(parent);
		rpt(" --> ");
		rpt_lock_name_bare(prev->class);
		rpt("\n\n");
	}
	rpt(" Possible unsafe locking scenario:\n\n");
	rpt("       CPU0                    CPU1\n");
	rpt("       ----                    ----\n");
	rpt_lock_op("  ", prev, prev->class);
	rpt_lock_op(cpu1, NULL, parent);
	rpt_lock_op(cpu1, NULL, prev->class);
	rpt_lock_op("  ", next, next->class);
	rpt("\n *** DEADLOCK ***\n\n");
	rpt_held_locks(t);
	rpt("\n");
	rpt_stack_backtrace("stack backtrace:");
	report_end();
}

static void print_deadlock_bug(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next)
{
	if (!report_begin2(UIRQ_REPORT_RECURSIVE, lockdep_class_sig(next->class, true),
			   lockdep_class_sig(next->class, false)))
		return;
	report_headline(true, "WARNING: possible recursive locking detected");
	rpt_task();
	rpt(" is trying to acquire lock:\n");
	rpt_held_lock(next, "acquiring");
	rpt("\nbut task is already holding lock:\n");
	rpt_held_lock(prev, "holding");
	rpt("\nother info that might help us debug this:\n");
	rpt(" Possible unsafe locking scenario:\n\n");
	rpt("       CPU0\n");
	rpt("       ----\n");
	rpt_lock_op("  ", prev, prev->class);
	rpt_lock_op("  ", next, next->class);
	rpt("\n *** DEADLOCK ***\n\n");
	rpt(" May be due to missing lock nesting notation\n\n");
	rpt_held_locks(t);
	rpt("\n");
	rpt_stack_backtrace("stack backtrace:");
	report_end();
}

/* ---- the checks ---- */

bool check_deadlock(struct lockdep_task *t, struct held_lock *next)
{
	for (unsigned int i = 0; i < t->depth; i++) {
		struct held_lock *prev = held_lock_at(t, i);

		if (prev->class != next->class || !held_lock_live(t, i))
			continue;
		/* read_lock(A) + read_lock(A) is fine for recursive readers */
		if (next->read == 2 && prev->read)
			continue;
		print_deadlock_bug(t, prev, next);
		return true;
	}
	return false;
}

/* Reaching prev closes a cycle if the new edge prev -> next is -(E*)-> or we arrived via -(*N)->. */
static bool hlock_conflict(struct lock_class *c, bool only_xr, void *data)
{
	const struct held_lock *prev = data;

	return c == prev->class && (prev->read == 0 || !only_xr);
}

/*
 * A stack for a dependency made at site, while holding a lock taken at
 * prev_site (graph lock held): one per pair of sites, kept for ever.
 * Unwinding a stack costs more than all the rest of adding a dependency,
 * and a program makes its dependencies at few places; a report shows the
 * stack of the first dependency made there, which the sites themselves
 * identify.  NULL when out of memory: the report then shows the sites only.
 */
struct site_trace {
	unsigned long site, prev_site;
	struct lockdep_trace trace;
	struct site_trace *free_next;	/* the slab's; never freed */
};

static struct lockdep_slab trace_slab = LOCKDEP_SLAB(struct site_trace, free_next);
/* Open addressing over the entries, which stay where they are (dependencies point at them). */
static struct {
	struct site_trace **slots;
	uint64_t mask, used;
} traces;

static struct site_trace **trace_slot(struct site_trace **slots, uint64_t mask, unsigned long site,
				      unsigned long prev_site)
{
	uint64_t i = report_sig(site, prev_site, 0, 0) & mask;

	while (slots[i] && (slots[i]->site != site || slots[i]->prev_site != prev_site))
		i = (i + 1) & mask;
	return &slots[i];
}

static bool traces_make_room(void)
{
	uint64_t size = traces.slots ? traces.mask + 1 : 0, nsize = size ? size * 2 : 256;
	struct site_trace **grown;

	if ((traces.used + 1) * 2 <= size)
		return true;
	grown = lockdep_alloc(nsize * sizeof(*grown));
	if (!grown)
		return false;
	for (uint64_t i = 0; i < size; i++)
		if (traces.slots[i])
			*trace_slot(grown, nsize - 1, traces.slots[i]->site, traces.slots[i]->prev_site) =
				traces.slots[i];
	lockdep_free(traces.slots, size * sizeof(*grown));
	traces.slots = grown;
	traces.mask = nsize - 1;
	return true;
}

static const struct lockdep_trace *site_trace(unsigned long site, unsigned long prev_site)
{
	struct site_trace **slot, *e;

	if (!traces_make_room())
		return NULL;
	slot = trace_slot(traces.slots, traces.mask, site, prev_site);
	if (*slot)
		return &(*slot)->trace;
	if (!(e = slab_alloc(&trace_slab)))
		return NULL;
	e->site = site;
	e->prev_site = prev_site;
	lockdep_save_trace(&e->trace, 0);
	*slot = e;
	traces.used++;
	return &e->trace;
}

/*
 * The thread holds prev and is about to take next: record "prev before
 * next" in the graph, the kernel's check_prev_add().
 *
 * The graph is between classes, not lock instances: two different
 * locks of one class taken in opposite orders by two code paths are the
 * same hazard whether or not those two instances ever meet, and that is
 * what lets lockdep predict a deadlock from runs that never hung.
 *
 * The question before adding the edge is whether the graph already has
 * a path from next back to prev.  If so, some thread has taken them the
 * other way round (maybe through a third lock), and the two orders
 * together can deadlock: that is the circular report, made now, before
 * the caller blocks.  The search is the expensive part, so everything
 * that can prove it pointless comes first: a same-class pair is the
 * recursion check's case, not an ordering one; an edge already known
 * with this read/write type was searched when it was added; and with no
 * edge out of next, no edge into prev, or a topological order under which
 * next cannot reach prev, no cycle can close.  The irq-safety check (a lock taken in hard-irq
 * context must never be held with interrupts on across another) rides on
 * the same new edge.  Only then is the edge stored, remembering where both
 * locks were taken, which the report of a later inversion will print.
 */
static void check_prev_add(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next)
{
	unsigned int dep = calc_dep(prev, next);
	struct lock_dep *d;
	struct bfs_path path;

	if (prev->class == next->class)
		return;		/* same class: check_deadlock's business */
	d = find_dep(prev->class, next->class);
	/* Seen with this type: every check below already ran when it was added. */
	if (d && (d->dep & dep) == dep)
		return;
	/*
	 * A path next -> ... -> prev needs an edge out of next and one into
	 * prev, and the topological order not to rule it out: else no search.
	 */
	if (next->class->after_head && prev->class->before_head &&
	    lockdep_order_may_reach(next->class, prev->class) &&
	    lockdep_bfs(next->class, next->read == 2, BFS_FORWARDS, hlock_conflict, prev, &path))
		print_circular_bug(t, prev, next, &path);
	check_irq_usage(t, prev, next);
	if (d) {
		d->dep |= dep;
		return;
	}
	if (!dep_hash_make_room() || !(d = slab_alloc(&dep_slab))) {
		lockdep_out_of_memory("lock dependencies");
		return;
	}
	d->from = prev->class;
	d->to = next->class;
	d->dep = dep;
	d->site = next->site;
	d->prev_site = prev->site;
	d->trace = d->site.file ? NULL : site_trace(d->site.ip, d->prev_site.ip);
	link_dep(d);
	lockdep_order_add(d);
}

void lockdep_add_dep(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next)
{
	check_prev_add(t, prev, next);
}

void check_prevs_add(struct lockdep_task *t, struct held_lock *next)
{
	/*
	 * Each held lock down to and including the first non-trylock, within
	 * one irq context; one whose lock is gone is as if not held.
	 */
	for (unsigned int i = t->depth; i-- > 0;) {
		struct held_lock *prev = held_lock_at(t, i);

		if (prev->irq_context != next->irq_context)
			break;
		if (!held_lock_live(t, i))
			continue;
		check_prev_add(t, prev, next);
		if (!debug_locks_on())
			return;
		if (!prev->trylock)
			break;
	}
}

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

struct lock_dep lock_deps[MAX_LOCKDEP_ENTRIES];

static uint32_t free_deps;	/* index + 1 */
static uint32_t nr_used_deps;	/* entries ever handed out */
static _Atomic unsigned long nr_deps;

unsigned long nr_lock_deps(void)
{
	return atomic_load_explicit(&nr_deps, memory_order_relaxed);
}

/* ---- storage ---- */

static struct lock_dep *alloc_dep(void)
{
	struct lock_dep *d;

	if (free_deps != LIST_END) {
		d = &lock_deps[free_deps - 1];
		free_deps = d->free_next;
	} else if (nr_used_deps < MAX_LOCKDEP_ENTRIES) {
		d = &lock_deps[nr_used_deps++];
	} else {
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	atomic_fetch_add_explicit(&nr_deps, 1, memory_order_relaxed);
	return d;
}

static uint32_t dep_idx(const struct lock_dep *d)
{
	return (uint32_t)(d - lock_deps) + 1;
}

static struct lock_dep *dep_at(uint32_t i)
{
	return i == LIST_END ? NULL : &lock_deps[i - 1];
}

static void link_dep(struct lock_dep *d)
{
	struct lock_class *from = &lock_classes[d->from], *to = &lock_classes[d->to];
	uint32_t me = dep_idx(d);

	d->after_prev = LIST_END;
	d->after_next = from->after_head;
	if (from->after_head != LIST_END)
		dep_at(from->after_head)->after_prev = me;
	from->after_head = me;

	d->before_prev = LIST_END;
	d->before_next = to->before_head;
	if (to->before_head != LIST_END)
		dep_at(to->before_head)->before_prev = me;
	to->before_head = me;
}

static void unlink_and_free_dep(struct lock_dep *d)
{
	struct lock_class *from = &lock_classes[d->from], *to = &lock_classes[d->to];

	if (d->after_prev != LIST_END)
		dep_at(d->after_prev)->after_next = d->after_next;
	else
		from->after_head = d->after_next;
	if (d->after_next != LIST_END)
		dep_at(d->after_next)->after_prev = d->after_prev;

	if (d->before_prev != LIST_END)
		dep_at(d->before_prev)->before_next = d->before_next;
	else
		to->before_head = d->before_next;
	if (d->before_next != LIST_END)
		dep_at(d->before_next)->before_prev = d->before_prev;

	d->free_next = free_deps;
	free_deps = dep_idx(d);
	atomic_fetch_sub_explicit(&nr_deps, 1, memory_order_relaxed);
}

void zap_class_deps(struct lock_class *c)
{
	while (c->after_head != LIST_END)
		unlink_and_free_dep(dep_at(c->after_head));
	while (c->before_head != LIST_END)
		unlink_and_free_dep(dep_at(c->before_head));
}

static struct lock_dep *find_dep(const struct lock_class *from, const struct lock_class *to)
{
	uint32_t want = class_idx(to);

	for (struct lock_dep *d = dep_at(from->after_head); d; d = dep_at(d->after_next))
		if (d->to == want)
			return d;
	return NULL;
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

static uint32_t bfs_gen;
static struct { uint32_t class; uint8_t xr; } bfs_queue[2 * MAX_LOCKDEP_KEYS];
static uint32_t bfs_tmp[2 * MAX_LOCKDEP_KEYS];

/* A class is visited at most twice: once reached through *R only, once strongly. */
static bool bfs_visit(struct lock_class *c, bool xr)
{
	if (c->bfs_gen[0] == bfs_gen)
		return false;
	if (xr && c->bfs_gen[1] == bfs_gen)
		return false;
	c->bfs_gen[xr] = bfs_gen;
	return true;
}

static void bfs_build_path(struct lock_class *c, bool xr, enum bfs_dir dir, struct bfs_path *path)
{
	unsigned int n = 0;

	path->match = c;
	path->match_xr = xr;
	while (c->bfs_parent[xr] != LIST_END) {
		const struct lock_dep *d = dep_at(c->bfs_parent[xr]);
		bool pxr = c->bfs_parent_xr[xr];

		bfs_tmp[n++] = c->bfs_parent[xr];
		c = &lock_classes[dir == BFS_FORWARDS ? d->from : d->to];
		xr = pxr;
	}
	/* keep the root end if the path is absurdly long */
	path->len = n < MAX_BFS_PATH ? n : MAX_BFS_PATH;
	for (unsigned int i = 0; i < path->len; i++)
		path->deps[i] = bfs_tmp[n - 1 - i];
}

bool lockdep_bfs(struct lock_class *root, bool root_xr, enum bfs_dir dir,
		 bfs_match_fn match, void *data, struct bfs_path *path)
{
	unsigned int head = 0, tail = 0;

	atomic_fetch_add_explicit(&lockdep_counters.bfs_searches, 1, memory_order_relaxed);
	if (++bfs_gen == 0) {
		for (unsigned int i = 0; i < MAX_LOCKDEP_KEYS; i++)
			lock_classes[i].bfs_gen[0] = lock_classes[i].bfs_gen[1] = 0;
		bfs_gen = 1;
	}
	bfs_visit(root, root_xr);
	root->bfs_parent[root_xr] = LIST_END;
	if (match(root, root_xr, data)) {
		bfs_build_path(root, root_xr, dir, path);
		return true;
	}
	bfs_queue[tail].class = class_idx(root);
	bfs_queue[tail++].xr = root_xr;

	while (head < tail) {
		struct lock_class *c = &lock_classes[bfs_queue[head].class];
		bool xr = bfs_queue[head++].xr;
		uint32_t i = dir == BFS_FORWARDS ? c->after_head : c->before_head;

		while (i != LIST_END) {
			struct lock_dep *d = dep_at(i);
			unsigned int mask = dir == BFS_FORWARDS ? d->dep : backward_dep(d->dep);
			struct lock_class *next;
			bool nxr;

			i = dir == BFS_FORWARDS ? d->after_next : d->before_next;
			/* -(*R)-> then -(S*)-> is no strong path */
			if (xr)
				mask &= ~(DEP_SR_MASK | DEP_SN_MASK);
			if (!mask)
				continue;
			nxr = !(mask & (DEP_SN_MASK | DEP_EN_MASK));
			next = &lock_classes[dir == BFS_FORWARDS ? d->to : d->from];
			if (!bfs_visit(next, nxr))
				continue;
			next->bfs_parent[nxr] = dep_idx(d);
			next->bfs_parent_xr[nxr] = xr;
			if (match(next, nxr, data)) {
				bfs_build_path(next, nxr, dir, path);
				return true;
			}
			bfs_queue[tail].class = class_idx(next);
			bfs_queue[tail++].xr = nxr;
		}
	}
	return false;
}

/* ---- printing ---- */

void rpt_dep_site(const struct lock_dep *d)
{
	rpt("       lock(%s) at ", lock_classes[d->to].name);
	rpt_site(&d->site);
	rpt("\n");
	if (!d->site.file)
		rpt_trace(&d->trace, "         ");
	rpt("       while holding (%s) taken at ", lock_classes[d->from].name);
	rpt_site(&d->prev_site);
	rpt("\n");
}

/* The i-th node of a path, 0 being the root. */
static const struct lock_class *path_node(const struct lock_class *root, const struct bfs_path *p,
					  enum bfs_dir dir, unsigned int i)
{
	const struct lock_dep *d;

	if (i == 0)
		return root;
	d = dep_at(p->deps[i - 1]);
	return &lock_classes[dir == BFS_FORWARDS ? d->to : d->from];
}

void rpt_dep_path(const struct lock_class *root, const struct bfs_path *path, enum bfs_dir dir)
{
	for (unsigned int i = path->len; i > 0; i--) {
		rpt(" -> ");
		rpt_class(path_node(root, path, dir, i));
		rpt(" {\n");
		rpt_dep_site(dep_at(path->deps[i - 1]));
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

	if (!report_begin(UIRQ_REPORT_CIRCULAR,
			  report_sig(atomic_load(&prev->class->id), atomic_load(&next->class->id), 0, 0)))
		return;
	report_headline(true, "WARNING: possible circular locking dependency detected");
	rpt_task();
	rpt(" is trying to acquire lock:\n");
	rpt_held_lock(next);
	rpt("\nbut task is already holding lock:\n");
	rpt_held_lock(prev);
	rpt("\nwhich lock already depends on the new lock.\n\n");
	rpt("\nthe existing dependency chain (in reverse order) is:\n");
	for (unsigned int i = n; i > 0; i--) {
		rpt("\n-> #%u ", i);
		rpt_class(path_node(next->class, path, BFS_FORWARDS, i));
		rpt(":\n");
		rpt_dep_site(dep_at(path->deps[i - 1]));
	}
	rpt("\n-> #0 ");
	rpt_class(next->class);
	rpt(":\n       lock(%s) at ", next->class->name);
	rpt_site(&next->site);
	rpt("\n       while holding (%s) taken at ", prev->class->name);
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
	if (!report_begin(UIRQ_REPORT_RECURSIVE, report_sig(atomic_load(&next->class->id), 0, 0, 0)))
		return;
	report_headline(true, "WARNING: possible recursive locking detected");
	rpt_task();
	rpt(" is trying to acquire lock:\n");
	rpt_held_lock(next);
	rpt("\nbut task is already holding lock:\n");
	rpt_held_lock(prev);
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

void check_deadlock(struct lockdep_task *t, struct held_lock *next)
{
	for (unsigned int i = 0; i < t->depth; i++) {
		struct held_lock *prev = &t->held_locks[i];

		if (prev->class != next->class)
			continue;
		/* read_lock(A) + read_lock(A) is fine for recursive readers */
		if (next->read == 2 && prev->read)
			continue;
		print_deadlock_bug(t, prev, next);
		return;
	}
}

/* Reaching prev closes a cycle if the new edge prev -> next is -(E*)-> or we arrived via -(*N)->. */
static bool hlock_conflict(struct lock_class *c, bool only_xr, void *data)
{
	const struct held_lock *prev = data;

	return c == prev->class && (prev->read == 0 || !only_xr);
}

static void out_of_deps(void)
{
	if (!debug_locks_off())
		return;
	if (report_begin(UIRQ_REPORT_RESOURCES, 2)) {
		report_headline(false, "BUG: MAX_LOCKDEP_ENTRIES too low!");
		rpt("turning off the locking correctness validator.\n");
		report_end();
	}
}

struct site_trace {
	bool valid;
	struct lockdep_trace trace;
};

static void check_prev_add(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next,
			   struct site_trace *st)
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
	if (lockdep_bfs(next->class, next->read == 2, BFS_FORWARDS, hlock_conflict, prev, &path))
		print_circular_bug(t, prev, next, &path);
	check_irq_usage(t, prev, next);
	if (d) {
		d->dep |= dep;
		return;
	}
	d = alloc_dep();
	if (!d) {
		out_of_deps();
		return;
	}
	d->from = class_idx(prev->class);
	d->to = class_idx(next->class);
	d->dep = dep;
	d->site = next->site;
	d->prev_site = prev->site;
	if (!d->site.file) {
		if (!st->valid) {
			lockdep_save_trace(&st->trace, 0);
			st->valid = true;
		}
		d->trace = st->trace;
	}
	link_dep(d);
}

void check_prevs_add(struct lockdep_task *t, struct held_lock *next)
{
	struct site_trace st = { .valid = false };

	/* Each held lock down to and including the first non-trylock, within one irq context. */
	for (unsigned int i = t->depth; i-- > 0;) {
		struct held_lock *prev = &t->held_locks[i];

		if (prev->irq_context != next->irq_context)
			break;
		check_prev_add(t, prev, next, &st);
		if (!debug_locks_on())
			return;
		if (!prev->trylock)
			break;
	}
}

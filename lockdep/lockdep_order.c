// SPDX-License-Identifier: MIT
/*
 * A topological order of the lock classes, kept as dependencies are added,
 * so that most new dependencies need no search and the others a short one.
 *
 * The kernel searches the graph breadth-first for every new dependency:
 * its classes are static and few.  A pthread program's classes are its lock
 * instances, made and destroyed by the thousand, and there that search was
 * more than half of all the time (TSan's real_deadlock_detector stress
 * test: 16K rwlocks taken in random orders).  Here every class has a rank,
 * and every dependency goes from a lower rank to a higher one, so
 * prev -> next with rank(prev) < rank(next) cannot close a cycle: next
 * reaches only higher ranks.  Otherwise a path next -> ... -> prev can only
 * run through ranks between the two; two searches confined there, forwards
 * from next and backwards from prev, go one class at a time each, and the
 * first to run out proves there is no path (then the typed search of
 * lockdep_graph.c is skipped).  The classes it visited then move past the
 * other end - the ones behind prev to just below next, or the ones after
 * next to just above prev - so the new dependency goes upwards too and no
 * other class moves.  That is the two-way search of incremental cycle
 * detection (Haeupler et al.); meeting means a path, and the typed search
 * judges it.
 *
 * A rank is a 64-bit number, ties broken by the class id, so no two
 * classes ever rank the same.  New classes are spaced 2^20 apart (by id),
 * which leaves room to move classes between two others; when there is no
 * room left the ranks of all classes in the graph are handed out again.
 *
 * Dependencies that close a cycle all the same (read-recursive ones, which
 * are no deadlock, and reported ones, which stay in the graph) cannot be
 * ranked: they are marked "back" and left out.  While any exists the order
 * proves nothing about the whole graph, and every new dependency is
 * searched as before; the order is kept for the others, and counts again
 * once the last back dependency is gone with its class.
 *
 * All of it runs under the graph lock, but for the first rank of a new
 * class, given with its id under the class lock (a class with no
 * dependency can rank anywhere).
 */
#include "lockdep_internal.h"

#define ORDER_SPACING	(UINT64_C(1) << 20)

static unsigned long nr_back_deps;

struct order_buf {
	struct lock_class **v;
	size_t n, size;
};

/* One side of the search: what it visited, what is left to expand, and where it stopped. */
static struct side {
	struct order_buf seen, stack;
	struct lock_class *edge;	/* the nearest class beyond the window, or NULL */
	bool forwards;
} fwd = { .forwards = true }, bwd;

/* The last search, reused when its dependency is added next. */
static struct {
	const struct lock_class *next, *prev;
	struct side *done;	/* the side that ran out, or NULL */
	bool valid;
} last;

uint64_t lockdep_order_first(uint64_t class_id)
{
	return class_id * ORDER_SPACING;
}

static bool ranks_below(const struct lock_class *a, const struct lock_class *b)
{
	return a->order < b->order ||
	       (a->order == b->order && atomic_load_explicit(&a->id, memory_order_relaxed) <
					 atomic_load_explicit(&b->id, memory_order_relaxed));
}

static bool buf_push(struct order_buf *b, struct lock_class *c)
{
	if (b->n == b->size) {
		struct lock_class **v = lockdep_grow_array(b->v, &b->size, b->n, sizeof(*v), 256);

		if (!v)
			return false;
		b->v = v;
	}
	b->v[b->n++] = c;
	return true;
}

static bool side_start(struct side *s, struct lock_class *root, uint64_t mark)
{
	s->seen.n = s->stack.n = 0;
	s->edge = NULL;
	root->mark = mark;
	return buf_push(&s->seen, root) && buf_push(&s->stack, root);
}

enum reach { NO_PATH, PATH, NO_MEMORY };

/*
 * Expand one class of side s, whose own marks are mine and the other
 * side's theirs; limit is the far end of the window (the other root).
 */
static enum reach side_step(struct side *s, const struct lock_class *limit, uint64_t mine, uint64_t theirs)
{
	struct lock_class *c = s->stack.v[--s->stack.n];
	struct lock_dep *d = s->forwards ? c->after_head : c->before_head;

	for (; d; d = s->forwards ? d->after_next : d->before_next) {
		struct lock_class *n = s->forwards ? d->to : d->from;

		if (d->back)
			continue;
		if (n->mark == theirs)
			return PATH;
		if (n->mark == mine)
			continue;
		if (s->forwards ? !ranks_below(n, limit) : !ranks_below(limit, n)) {
			/* beyond the window: cannot lead to the other root, but bounds a move */
			if (!s->edge || (s->forwards ? ranks_below(n, s->edge) : ranks_below(s->edge, n)))
				s->edge = n;
			continue;
		}
		n->mark = mine;
		if (!buf_push(&s->seen, n) || !buf_push(&s->stack, n))
			return NO_MEMORY;
	}
	return NO_PATH;
}

/* Is there a path next -> ... -> prev, given rank(next) < rank(prev)? */
static enum reach search(struct lock_class *next, struct lock_class *prev)
{
	/* the two sides' marks: this search's number, and which side */
	uint64_t f = lockdep_new_search() << 2 | 1u, b = f + 1;
	enum reach r = NO_PATH;

	last.valid = false;
	if (!side_start(&fwd, next, f) || !side_start(&bwd, prev, b))
		return NO_MEMORY;
	for (;;) {
		if (!fwd.stack.n) {
			last.done = &fwd;
			break;
		}
		if (!bwd.stack.n) {
			last.done = &bwd;
			break;
		}
		if ((r = side_step(&fwd, prev, f, b)) != NO_PATH || (r = side_step(&bwd, next, b, f)) != NO_PATH)
			return r;
	}
	last.next = next;
	last.prev = prev;
	last.valid = true;
	return NO_PATH;
}

bool lockdep_order_may_reach(struct lock_class *from, struct lock_class *to)
{
	last.valid = false;
	if (nr_back_deps)
		return true;
	if (ranks_below(to, from))
		return false;
	return search(from, to) != NO_PATH;
}

/* Heapsort by rank: in place, and no allocation under the graph lock. */
static void sift_down(struct lock_class **v, size_t i, size_t n)
{
	for (size_t child; (child = 2 * i + 1) < n; i = child) {
		struct lock_class *t;

		if (child + 1 < n && ranks_below(v[child], v[child + 1]))
			child++;
		if (!ranks_below(v[i], v[child]))
			return;
		t = v[i];
		v[i] = v[child];
		v[child] = t;
	}
}

static void sort_by_rank(struct lock_class **v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (size_t end = n; end > 1; end--) {
		struct lock_class *t = v[0];

		v[0] = v[end - 1];
		v[end - 1] = t;
		sift_down(v, 0, end - 1);
	}
}

static struct order_buf all;

static bool collect(struct lock_class *c, void *data)
{
	(void)data;
	return !(c->after_head || c->before_head) || buf_push(&all, c);
}

/* No room between two ranks: rank every class in the graph afresh, 2^20 apart, in the same order. */
static bool renumber(void)
{
	all.n = 0;
	if (!for_each_lock_class(collect, NULL))
		return false;
	sort_by_rank(all.v, all.n);
	for (size_t i = 0; i < all.n; i++)
		all.v[i]->order = (i + 1) * ORDER_SPACING;
	return true;
}

/*
 * Give the classes side s visited ranks past the other root, in their own
 * order: below next (everything behind prev) or above prev (everything
 * after next), and on the near side of the edge the search stopped at.
 */
static bool move(struct side *s, struct lock_class *next, struct lock_class *prev)
{
	size_t k = s->seen.n;
	uint64_t lo, hi, step;

	sort_by_rank(s->seen.v, k);
	for (int tries = 0;; tries++) {
		if (s->forwards) {
			lo = prev->order;
			hi = s->edge ? s->edge->order : lo + (k + 1) * ORDER_SPACING;
		} else {
			hi = next->order;
			lo = s->edge ? s->edge->order : 0;
		}
		if (hi > lo && (step = (hi - lo) / (k + 1)))
			break;
		if (tries || !renumber())
			return false;
	}
	for (size_t i = 0; i < k; i++)
		s->seen.v[i]->order = lo + step * (i + 1);
	return true;
}

void lockdep_order_add(struct lock_dep *d)
{
	struct lock_class *prev = d->from, *next = d->to;
	enum reach r = NO_PATH;

	d->back = false;
	if (ranks_below(prev, next)) {
		last.valid = false;
		return;		/* already upwards */
	}
	if (!(last.valid && last.next == next && last.prev == prev))
		r = search(next, prev);
	last.valid = false;
	/* A cycle, or no memory to re-rank: leave it out of the order (only speed is lost, until it goes). */
	if (r != NO_PATH || !move(last.done, next, prev)) {
		d->back = true;
		nr_back_deps++;
	}
}

void lockdep_order_remove(const struct lock_dep *d)
{
	last.valid = false;
	if (d->back)
		nr_back_deps--;
}

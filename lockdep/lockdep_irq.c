// SPDX-License-Identifier: MIT
/*
 * Hard-irq usage states.  A class taken in hard-irq context is irq-safe
 * (USED_IN_HARDIRQ), one taken or held with interrupts enabled is irq-unsafe
 * (ENABLED_HARDIRQ); the _READ variants say it was a read acquisition.  A
 * class must never be both, nor may an irq-safe class come to depend on an
 * irq-unsafe one: an interrupt could then deadlock against its own CPU.
 */
#include "lockdep_internal.h"

#include "uirq/context.h"

/* Some class was taken in hard-irq context, ever: only then can a dependency be irq-unsafe. */
static atomic_bool irq_safe_seen;

/*
 * The preload library's classes have no irq usage (LOCKDEP_NEEDED_IRQ),
 * and one class per lock: no room kept for the sites there.
 */
#ifdef UIRQ_LOCKDEP_PRELOAD
static const struct lockdep_site *usage_sites(const struct lock_class *c)
{
	(void)c;
	return NULL;
}

static bool save_usage_site(struct lock_class *c, unsigned int bit, const struct lockdep_site *site)
{
	(void)c;
	(void)bit;
	(void)site;
	return true;
}

void free_usage_sites(struct lock_class *c)
{
	(void)c;
}
#else
/* The sites of a class's irq usages, one slab object per class that has any. */
struct usage_sites {
	struct lockdep_site site[LOCK_USED];
	void *free_next;
};
static struct lockdep_slab usage_site_slab = LOCKDEP_SLAB(struct usage_sites, free_next);

static const struct lockdep_site *usage_sites(const struct lock_class *c)
{
	return c->usage_site;
}

static bool save_usage_site(struct lock_class *c, unsigned int bit, const struct lockdep_site *site)
{
	if (!c->usage_site && !(c->usage_site = slab_alloc(&usage_site_slab)))
		return false;
	c->usage_site[bit] = *site;
	return true;
}

void free_usage_sites(struct lock_class *c)
{
	if (c->usage_site)
		slab_free(&usage_site_slab, c->usage_site);
	c->usage_site = NULL;
}
#endif

static const char *const usage_names[LOCK_USAGE_STATES] = {
	[LOCK_USED_IN_HARDIRQ] = "IN-HARDIRQ-W",
	[LOCK_USED_IN_HARDIRQ_READ] = "IN-HARDIRQ-R",
	[LOCK_ENABLED_HARDIRQ] = "HARDIRQ-ON-W",
	[LOCK_ENABLED_HARDIRQ_READ] = "HARDIRQ-ON-R",
	[LOCK_USED] = "INITIAL USE",
	[LOCK_USED_READ] = "INITIAL READ USE",
};

const char *usage_str(unsigned int bit)
{
	return bit < LOCK_USAGE_STATES ? usage_names[bit] : "?";
}

static const char *state_name(unsigned int bit)
{
	return (bit & LOCK_USAGE_READ_MASK) ? "HARDIRQ-READ" : "HARDIRQ";
}

static char usage_char(unsigned int mask, unsigned int bit)
{
	bool in = mask & LOCKF(bit), on = mask & LOCKF(bit + LOCK_USAGE_DIR_MASK);

	return in ? (on ? '?' : '-') : (on ? '+' : '.');
}

void get_usage_chars(const struct lock_class *class, char out[3])
{
	unsigned int mask = atomic_load_explicit(&class->usage_mask, memory_order_relaxed);

	out[0] = usage_char(mask, LOCK_USED_IN_HARDIRQ);
	out[1] = usage_char(mask, LOCK_USED_IN_HARDIRQ_READ);
	out[2] = 0;
}

static void rpt_irq_state(void)
{
	unsigned int hc = (uirq_preempt_count() & UIRQ_HARDIRQ_MASK) >> UIRQ_HARDIRQ_SHIFT;

	rpt(" [HC%u[%u]:SC0[0]:HE%u:SE1]", hc ? 1u : 0u, hc, uirq_irqs_disabled() ? 0u : 1u);
}

/* The same usage with the direction flipped, read or not: what conflicts with it. */
static unsigned int exclusive_mask(unsigned int mask)
{
	unsigned int excl = ((mask & LOCKF_USED_IN_IRQ_ALL) << LOCK_USAGE_DIR_MASK) |
			    ((mask & LOCKF_ENABLED_IRQ_ALL) >> LOCK_USAGE_DIR_MASK);

	excl |= (excl & LOCKF_IRQ_READ) >> LOCK_USAGE_READ_MASK;
	excl |= (excl & LOCKF_IRQ) << LOCK_USAGE_READ_MASK;
	return excl;
}

/* On a path entered through -(*R)-> only, read usages cannot block anyone. */
static bool usage_match(struct lock_class *c, bool only_xr, void *data)
{
	unsigned int usage = atomic_load_explicit(&c->usage_mask, memory_order_relaxed);

	if (only_xr)
		usage &= LOCKF_IRQ;
	return usage & *(unsigned int *)data;
}

static bool usage_accumulate(struct lock_class *c, bool only_xr, void *data)
{
	unsigned int usage = atomic_load_explicit(&c->usage_mask, memory_order_relaxed);

	*(unsigned int *)data |= only_xr ? (usage & LOCKF_IRQ) : usage;
	return false;
}

static void rpt_usage_site(const struct lock_class *c, unsigned int bit)
{
	static const struct lockdep_site unknown;

	rpt("  ");
	rpt_site(usage_sites(c) && bit < LOCK_USED ? &usage_sites(c)[bit] : &unknown);
	rpt("\n");
}

static void rpt_irq_scenario(const struct lock_class *safe, const struct lock_class *unsafe,
			     const struct lock_class *middle, const struct lock_class *other)
{
	const char *cpu1 = "                               ";

	if (middle == safe)
		middle = other;
	if (middle != unsafe) {
		rpt("Chain exists of:\n  ");
		rpt_lock_name_bare(safe);
		rpt(" --> ");
		rpt_lock_name_bare(middle);
		rpt(" --> ");
		rpt_lock_name_bare(unsafe);
		rpt("\n\n");
	}
	rpt(" Possible interrupt unsafe locking scenario:\n\n");
	rpt("       CPU0                    CPU1\n");
	rpt("       ----                    ----\n");
	rpt("  lock(");
	rpt_lock_name_bare(unsafe);
	rpt(");\n%slocal_irq_disable();\n%slock(", cpu1, cpu1);
	rpt_lock_name_bare(safe);
	rpt(");\n%slock(", cpu1);
	rpt_lock_name_bare(middle);
	rpt(");\n  <Interrupt>\n    lock(");
	rpt_lock_name_bare(safe);
	rpt(");\n\n *** DEADLOCK ***\n\n");
}

/* ---- one class in two exclusive states ---- */

static void print_usage_bug(struct lockdep_task *t, struct held_lock *this,
			    unsigned int prev_bit, unsigned int new_bit)
{
	struct lock_class *c = this->class;

	if (!report_begin(UIRQ_REPORT_INCONSISTENT,
			  report_sig(atomic_load(&c->id), prev_bit, new_bit, 0)))
		return;
	report_headline(true, "WARNING: inconsistent lock state");
	rpt("inconsistent {%s} -> {%s} usage.\n", usage_str(prev_bit), usage_str(new_bit));
	rpt_task();
	rpt_irq_state();
	rpt(" takes:\n");
	rpt_held_lock(this, "changing");
	rpt("{%s} state was registered at:\n", usage_str(prev_bit));
	rpt_usage_site(c, prev_bit);
	rpt("\nother info that might help us debug this:\n");
	rpt(" Possible unsafe locking scenario:\n\n");
	rpt("       CPU0\n");
	rpt("       ----\n");
	rpt("  lock(");
	rpt_lock_name_bare(c);
	rpt(");\n  <Interrupt>\n    lock(");
	rpt_lock_name_bare(c);
	rpt(");\n\n *** DEADLOCK ***\n\n");
	rpt_held_locks(t);
	rpt("\n");
	rpt_stack_backtrace("stack backtrace:");
	report_end();
}

static bool valid_state(struct lockdep_task *t, struct held_lock *this,
			unsigned int new_bit, unsigned int bad_bit)
{
	if (!(atomic_load_explicit(&this->class->usage_mask, memory_order_relaxed) & LOCKF(bad_bit)))
		return true;
	print_usage_bug(t, this, bad_bit, new_bit);
	return false;
}

/* ---- a class changing state against the classes it is connected to ---- */

static void print_irq_inversion_bug(struct lockdep_task *t, struct held_lock *this,
				    const struct bfs_path *path, bool forwards, unsigned int bit)
{
	struct lock_class *root = this->class, *other = path->match;
	const struct lock_class *middle = root;
	const char *irqclass = state_name(bit);

	if (!report_begin(UIRQ_REPORT_IRQ_INVERSION,
			  report_sig(atomic_load(&root->id), atomic_load(&other->id), forwards, 0)))
		return;
	/* the lock next to the root on the path: the one the scenario takes in between */
	if (path->len) {
		const struct lock_dep *d = path->deps[0];

		middle = forwards ? d->to : d->from;
	}
	report_headline(true, "WARNING: possible irq lock inversion dependency detected");
	rpt_task();
	rpt_irq_state();
	rpt(" just changed the state of lock:\n");
	rpt_held_lock(this, "changing");
	if (forwards)
		rpt("but this lock took another, %s-unsafe lock in the past:\n", irqclass);
	else
		rpt("but this lock was taken by another, %s-safe lock in the past:\n", irqclass);
	rpt(" ");
	rpt_class(other);
	rpt("\n\n\nand interrupts could create inverse lock ordering between them.\n\n");
	rpt("\nother info that might help us debug this:\n");
	if (forwards)
		rpt_irq_scenario(root, other, middle, other);
	else
		rpt_irq_scenario(other, root, middle, root);
	rpt_held_locks(t);
	rpt("\nthe shortest dependencies between 2nd lock and 1st lock:\n");
	rpt_dep_path(root, path, forwards ? BFS_FORWARDS : BFS_BACKWARDS);
	rpt_stack_backtrace("stack backtrace:");
	report_end();
}

/* Marking irq-safe: nothing this class leads to may be irq-unsafe. */
static void check_usage_forwards(struct lockdep_task *t, struct held_lock *this, unsigned int bit)
{
	unsigned int mask = LOCKF(bit) | LOCKF(bit | LOCK_USAGE_READ_MASK);
	struct bfs_path path;
	unsigned int usage;

	if (!lockdep_bfs(this->class, this->read == 2, BFS_FORWARDS, usage_match, &mask, &path))
		return;
	usage = atomic_load_explicit(&path.match->usage_mask, memory_order_relaxed);
	print_irq_inversion_bug(t, this, &path, true,
				(usage & LOCKF(bit)) ? bit : (bit | LOCK_USAGE_READ_MASK));
}

/* Marking irq-unsafe: nothing leading to this class may be irq-safe. */
static void check_usage_backwards(struct lockdep_task *t, struct held_lock *this, unsigned int bit)
{
	unsigned int mask = LOCKF(bit) | LOCKF(bit | LOCK_USAGE_READ_MASK);
	struct bfs_path path;
	unsigned int usage;

	if (!lockdep_bfs(this->class, this->read != 0, BFS_BACKWARDS, usage_match, &mask, &path))
		return;
	usage = atomic_load_explicit(&path.match->usage_mask, memory_order_relaxed);
	print_irq_inversion_bug(t, this, &path, false,
				(usage & LOCKF(bit)) ? bit : (bit | LOCK_USAGE_READ_MASK));
}

static void mark_lock_irq(struct lockdep_task *t, struct held_lock *this, unsigned int new_bit)
{
	unsigned int excl_bit = (new_bit ^ LOCK_USAGE_DIR_MASK) & ~LOCK_USAGE_READ_MASK;
	bool read = new_bit & LOCK_USAGE_READ_MASK;

	if (!valid_state(t, this, new_bit, excl_bit))
		return;
	/* a write use conflicts with read uses too; read-in-irq vs read-enabled does not */
	if (!read && !valid_state(t, this, new_bit, excl_bit | LOCK_USAGE_READ_MASK))
		return;
	if (new_bit & LOCK_USAGE_DIR_MASK)
		check_usage_backwards(t, this, excl_bit);
	else
		check_usage_forwards(t, this, excl_bit);
}

/* Graph lock held. */
static void mark_lock(struct lockdep_task *t, struct held_lock *this, unsigned int bit,
		      const struct lockdep_site *site)
{
	struct lock_class *c = this->class;

	if (atomic_load_explicit(&c->usage_mask, memory_order_relaxed) & LOCKF(bit))
		return;
	/* only the irq usages' sites are ever printed */
	if (bit < LOCK_USED) {
		if (!save_usage_site(c, bit, site)) {
			lockdep_out_of_memory("irq usage sites");
			return;
		}
		if (bit == LOCK_USED_IN_HARDIRQ || bit == LOCK_USED_IN_HARDIRQ_READ)
			atomic_store_explicit(&irq_safe_seen, true, memory_order_relaxed);
	}
	atomic_fetch_or_explicit(&c->usage_mask, LOCKF(bit), memory_order_release);
	if (bit < LOCK_USED)
		mark_lock_irq(t, this, bit);
}

static const unsigned int mark_order[] = {
	LOCK_USED_IN_HARDIRQ, LOCK_USED_IN_HARDIRQ_READ,
	LOCK_ENABLED_HARDIRQ, LOCK_ENABLED_HARDIRQ_READ,
	LOCK_USED, LOCK_USED_READ,
};

void mark_usage_slow(struct lockdep_task *t, struct held_lock *hlock, unsigned int needed)
{
	/* no irq usage among them: nothing to check, no site kept - no graph lock either */
	if (!(needed & (LOCKF_USED_IN_IRQ_ALL | LOCKF_ENABLED_IRQ_ALL))) {
		atomic_fetch_or_explicit(&hlock->class->usage_mask, needed, memory_order_release);
		return;
	}
	graph_lock();
	for (unsigned int i = 0; i < sizeof(mark_order) / sizeof(mark_order[0]); i++)
		if (needed & LOCKF(mark_order[i]))
			mark_lock(t, hlock, mark_order[i], &hlock->site);
	graph_unlock();
}

/* ---- a new dependency connecting an irq-safe class to an irq-unsafe one ---- */

static void print_bad_irq_dependency(struct lockdep_task *t, struct held_lock *prev,
				     struct held_lock *next,
				     const struct bfs_path *bpath, const struct bfs_path *fpath,
				     unsigned int bit1, unsigned int bit2)
{
	struct lock_class *safe = bpath->match, *unsafe = fpath->match;
	const char *irqclass = state_name(bit1);

	if (!report_begin(UIRQ_REPORT_SAFE_TO_UNSAFE,
			  report_sig(atomic_load(&safe->id), atomic_load(&unsafe->id), 0, 0)))
		return;
	report_headline(true, "WARNING: %s-safe -> %s-unsafe lock order detected", irqclass, irqclass);
	rpt_task();
	rpt_irq_state();
	rpt(" is trying to acquire:\n");
	rpt_held_lock(next, "acquiring");
	rpt("\nand this task is already holding:\n");
	rpt_held_lock(prev, "holding");
	rpt("which would create a new lock dependency:\n ");
	rpt_class(prev->class);
	rpt(" -> ");
	rpt_class(next->class);
	rpt("\n\nbut this new dependency connects a %s-irq-safe lock:\n ", irqclass);
	rpt_class(safe);
	rpt("\n\n... which became %s-irq-safe at:\n", irqclass);
	rpt_usage_site(safe, bit1);
	rpt("\nto a %s-irq-unsafe lock:\n ", irqclass);
	rpt_class(unsafe);
	rpt("\n\n... which became %s-irq-unsafe at:\n...\n", irqclass);
	rpt_usage_site(unsafe, bit2);
	rpt("\nother info that might help us debug this:\n\n");
	rpt_irq_scenario(safe, unsafe, prev->class, next->class);
	rpt_held_locks(t);
	rpt("\nthe dependencies between %s-irq-safe lock and the holding lock:\n", irqclass);
	rpt_dep_path(prev->class, bpath, BFS_BACKWARDS);
	rpt("\nthe dependencies between the lock to be acquired and %s-irq-unsafe lock:\n", irqclass);
	rpt_dep_path(next->class, fpath, BFS_FORWARDS);
	rpt_stack_backtrace("stack backtrace:");
	report_end();
}

void check_irq_usage(struct lockdep_task *t, struct held_lock *prev, struct held_lock *next)
{
	unsigned int usage = 0, fmask, bmask, busage, fusage;
	struct bfs_path bpath, fpath;
	unsigned int bit1 = 0, bit2 = 0;
	bool found = false;

	/* no lock was ever taken in hard-irq context: nothing can be irq-safe (saves a search) */
	if (!atomic_load_explicit(&irq_safe_seen, memory_order_relaxed))
		return;
	/* 1: every irq-safe usage that reaches prev */
	lockdep_bfs(prev->class, prev->read != 0, BFS_BACKWARDS, usage_accumulate, &usage, &bpath);
	usage &= LOCKF_USED_IN_IRQ_ALL;
	if (!usage)
		return;
	/* 2: an irq-unsafe class that next reaches */
	fmask = exclusive_mask(usage);
	if (!lockdep_bfs(next->class, next->read == 2, BFS_FORWARDS, usage_match, &fmask, &fpath))
		return;
	/* 3: the irq-safe class behind prev that conflicts with what we found */
	fusage = atomic_load_explicit(&fpath.match->usage_mask, memory_order_relaxed) & LOCKF_ENABLED_IRQ_ALL;
	bmask = exclusive_mask(fusage);
	if (!lockdep_bfs(prev->class, prev->read != 0, BFS_BACKWARDS, usage_match, &bmask, &bpath))
		return;
	/* 4: name the pair of usages */
	busage = atomic_load_explicit(&bpath.match->usage_mask, memory_order_relaxed) & LOCKF_USED_IN_IRQ_ALL;
	for (unsigned int b = 0; b < LOCK_USED && !found; b++) {
		unsigned int excl = (b ^ LOCK_USAGE_DIR_MASK) & ~LOCK_USAGE_READ_MASK;

		if (!(busage & LOCKF(b)))
			continue;
		if (fusage & LOCKF(excl)) {
			bit1 = b, bit2 = excl, found = true;
		} else if (fusage & LOCKF(excl | LOCK_USAGE_READ_MASK)) {
			bit1 = b, bit2 = excl | LOCK_USAGE_READ_MASK, found = true;
		}
	}
	if (found)
		print_bad_irq_dependency(t, prev, next, &bpath, &fpath, bit1, bit2);
}

/* ---- interrupts being enabled with locks held: they all become irq-unsafe ---- */

static void lockdep_hardirqs_on(unsigned long ip)
{
	struct lockdep_task *t = &lockdep_current;
	struct lockdep_site site = { .file = NULL, .line = 0, .ip = ip };
	bool locked = false;

	if (!t->depth || !debug_locks_on() || uirq_in_hardirq())
		return;
	if (!lockdep_recursion_enter(t))
		return;
	for (unsigned int i = 0; i < t->depth; i++) {
		struct held_lock *h = held_lock_at(t, i);
		unsigned int bit = h->read ? LOCK_ENABLED_HARDIRQ_READ : LOCK_ENABLED_HARDIRQ;

		if (atomic_load_explicit(&h->class->usage_mask, memory_order_acquire) & LOCKF(bit))
			continue;
		if (!locked) {
			graph_lock();
			locked = true;
		}
		mark_lock(t, h, bit, &site);
	}
	if (locked)
		graph_unlock();
	lockdep_recursion_exit(t);
}

static const struct uirq_context_hooks lockdep_hooks = {
	.hardirqs_on = lockdep_hardirqs_on,
	.hardirqs_off = NULL,
};

void lockdep_irq_init(void)
{
	uirq_context_set_hooks(&lockdep_hooks);
}

// SPDX-License-Identifier: MIT
/*
 * Descriptors: an allocator for ranges of irq numbers and a sparse,
 * lock-free lookup (a two-level table of atomic pointers, so a CPU finds a
 * descriptor without a lock).  Freed descriptors are kept on a free list and
 * reused (type-stable memory): a raise racing with a free can never touch
 * freed memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internals.h"

#define IRQ_CHUNK_BITS	8
#define IRQ_CHUNK	(1u << IRQ_CHUNK_BITS)
#define IRQ_CHUNKS	256u
#define IRQ_MAX		(IRQ_CHUNK * IRQ_CHUNKS)	/* 65536 irq numbers */

static _Atomic(struct uirq_irq_desc *) *chunks[IRQ_CHUNKS];
static unsigned long allocated[IRQ_MAX / (8 * sizeof(unsigned long))];
static UIRQ_DEFINE_MUTEX(sparse_irq_lock);
static struct uirq_irq_desc *free_list[IRQ_MAX];
static unsigned int nr_free;
static atomic_uint nr_irqs_seen;
static unsigned int kstat_cpus = 1;	/* per-CPU counters each new descriptor gets */
/* Counter arrays replaced by a resize: kept (reachable) so late writers stay safe. */
struct retired { struct retired *next; _Atomic unsigned int *kstat; };
static struct retired *retired_kstats;

static struct uirq_lock_class_key irq_desc_lock_class;
static struct uirq_lock_class_key irq_desc_mutex_class;

struct uirq_irq_desc *irq_to_desc(unsigned int irq)
{
	if (irq >= IRQ_MAX)
		return NULL;
	_Atomic(struct uirq_irq_desc *) *c = __atomic_load_n(&chunks[irq >> IRQ_CHUNK_BITS], __ATOMIC_ACQUIRE);

	if (!c)
		return NULL;
	return atomic_load_explicit(&c[irq & (IRQ_CHUNK - 1)], memory_order_acquire);
}

struct uirq_irq_desc *uirq_irq_to_desc(unsigned int irq)
{
	return irq_to_desc(irq);
}

unsigned int irq_desc_get_irq(struct uirq_irq_desc *desc)
{
	return desc->irq_data.irq;
}

unsigned int irq_get_nr_irqs(void)
{
	return atomic_load_explicit(&nr_irqs_seen, memory_order_relaxed);
}

unsigned int uirq_irq_get_nr_irqs(void)
{
	return irq_get_nr_irqs();
}

static bool test_bit(unsigned int n)
{
	return allocated[n / (8 * sizeof(long))] & (1ul << (n % (8 * sizeof(long))));
}

static void assign_bit(unsigned int n, bool on)
{
	unsigned long m = 1ul << (n % (8 * sizeof(long)));

	if (on)
		allocated[n / (8 * sizeof(long))] |= m;
	else
		allocated[n / (8 * sizeof(long))] &= ~m;
}

static void table_set(unsigned int irq, struct uirq_irq_desc *desc)
{
	unsigned int ci = irq >> IRQ_CHUNK_BITS;

	if (!chunks[ci]) {
		_Atomic(struct uirq_irq_desc *) *c = calloc(IRQ_CHUNK, sizeof(*c));

		if (!c)
			abort();
		__atomic_store_n(&chunks[ci], c, __ATOMIC_RELEASE);
	}
	atomic_store_explicit(&chunks[ci][irq & (IRQ_CHUNK - 1)], desc, memory_order_seq_cst);
}

/* A descriptor: from the free list unless a CPU still holds a stale raise of it. */
static struct uirq_irq_desc *desc_get(void)
{
	for (unsigned int i = nr_free; i-- > 0;) {
		struct uirq_irq_desc *d = free_list[i];

		if (atomic_load_explicit(&d->raised, memory_order_acquire))
			continue;
		free_list[i] = free_list[--nr_free];
		return d;
	}
	/* The per-CPU counters live right behind the descriptor: one allocation. */
	struct uirq_irq_desc *d = calloc(1, sizeof(*d) + kstat_cpus * sizeof(d->kstat[0]));

	if (!d)
		return NULL;
	atomic_init(&d->kstat, (_Atomic unsigned int *)(d + 1));
	atomic_init(&d->kstat_n, (unsigned short)kstat_cpus);
	return d;
}

static void desc_init(struct uirq_irq_desc *desc, unsigned int irq)
{
	unsigned int n;
	_Atomic unsigned int *kstat = desc_kstat(desc, &n);

	for (unsigned int i = 0; i < n; i++)
		atomic_store_explicit(&kstat[i], 0, memory_order_relaxed);
	desc->irq_data = (struct uirq_irq_data){ .irq = irq };
	desc->handle_irq = NULL;
	atomic_store_explicit(&desc->action, NULL, memory_order_relaxed);
	desc->handler_data = NULL;
	desc->name = NULL;
	atomic_store_explicit(&desc->watch, NULL, memory_order_relaxed);
	atomic_store_explicit(&desc->threads_oneshot, 0, memory_order_relaxed);
	atomic_store_explicit(&desc->last_unhandled, 0, memory_order_relaxed);
	desc->affinity = ~0ull;
	uirq__spin_lock_init(&desc->lock, "&desc->lock", &irq_desc_lock_class);
	uirq__mutex_init(&desc->request_mutex, "&desc->request_mutex", &irq_desc_mutex_class);
	atomic_store_explicit(&desc->state, IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED, memory_order_relaxed);
	desc->istate = 0;
	desc->settings = IRQ_SETTINGS_NOPROBE;
	desc->depth = 1;
	atomic_store_explicit(&desc->irq_count, 0, memory_order_relaxed);
	atomic_store_explicit(&desc->irqs_unhandled, 0, memory_order_relaxed);
	atomic_store_explicit(&desc->threads_handled, 0, memory_order_relaxed);
	desc->threads_handled_last = 0;
	atomic_store_explicit(&desc->threads_active, 0, memory_order_relaxed);
	desc->parent_irq = 0;
	atomic_store_explicit(&desc->cpu, (unsigned short)uirq_effective_cpu(desc->affinity),
			      memory_order_relaxed);
}

int uirq_irq_alloc_descs(int irq, unsigned int from, unsigned int cnt)
{
	if (!cnt)
		return -EINVAL;
	if (irq >= 0) {
		if (from > (unsigned int)irq)
			return -EINVAL;
		from = (unsigned int)irq;
	}
	if (from == 0)
		from = 1;	/* irq 0 is never handed out */

	uirq_mutex_lock(&sparse_irq_lock);
	unsigned int start = from, run = 0;

	for (unsigned int n = from; n < IRQ_MAX && run < cnt; n++) {
		if (test_bit(n)) {
			run = 0;
			start = n + 1;
		} else {
			run++;
		}
	}
	int ret;

	if (run < cnt) {
		ret = -ENOMEM;
		goto out;
	}
	if (irq >= 0 && start != (unsigned int)irq) {
		ret = -EEXIST;
		goto out;
	}
	for (unsigned int i = 0; i < cnt; i++) {
		struct uirq_irq_desc *d = desc_get();

		if (!d) {
			for (unsigned int j = 0; j < i; j++) {
				struct uirq_irq_desc *o = irq_to_desc(start + j);

				table_set(start + j, NULL);
				assign_bit(start + j, false);
				free_list[nr_free++] = o;
			}
			ret = -ENOMEM;
			goto out;
		}
		desc_init(d, start + i);
		assign_bit(start + i, true);
		table_set(start + i, d);
	}
	if (start + cnt > atomic_load_explicit(&nr_irqs_seen, memory_order_relaxed))
		atomic_store_explicit(&nr_irqs_seen, start + cnt, memory_order_relaxed);
	ret = (int)start;
out:
	uirq_mutex_unlock(&sparse_irq_lock);
	return ret;
}

void uirq_irq_free_descs(unsigned int from, unsigned int cnt)
{
	/* A helper may still be finishing a free_irq() a handler made of its own line. */
	for (unsigned int irq = from; irq < from + cnt && irq < IRQ_MAX; irq++) {
		struct uirq_irq_desc *desc = irq_to_desc(irq);

		if (desc)
			irq_wait_deferred_frees(desc);
	}
	uirq_mutex_lock(&sparse_irq_lock);
	for (unsigned int irq = from; irq < from + cnt && irq < IRQ_MAX; irq++) {
		struct uirq_irq_desc *desc = irq_to_desc(irq);

		if (!desc)
			continue;
		if (desc_action(desc))
			UIRQ_WARN("irq %u freed while it still has actions\n", irq);
		table_set(irq, NULL);
		assign_bit(irq, false);
		uirq_cpu_forget_desc(desc);
		uirq_lockdep_check_no_locks_freed(&desc->lock, sizeof(desc->lock));
		free_list[nr_free++] = desc;
	}
	uirq_mutex_unlock(&sparse_irq_lock);
}

void irq_for_each_desc(void (*fn)(struct uirq_irq_desc *desc, void *arg), void *arg)
{
	const unsigned int bits = 8 * sizeof(long);

	uirq_mutex_lock(&sparse_irq_lock);
	unsigned int n = irq_get_nr_irqs();

	/*
	 * The allocation bitmap, not every slot: a program that once used irq
	 * 60000 does not pay for it at each walk (two per uirq_cpus_start():
	 * fuzz_genirq, which pushes nr_irqs to its limit, ran 3.4x slower).
	 */
	for (unsigned int w = 0; w * bits < n; w++) {
		for (unsigned long set = allocated[w]; set; set &= set - 1) {
			struct uirq_irq_desc *desc = irq_to_desc(w * bits + (unsigned int)__builtin_ctzl(set));

			if (desc)
				fn(desc, arg);
		}
	}
	uirq_mutex_unlock(&sparse_irq_lock);
}

static void resize_one(struct uirq_irq_desc *desc, void *arg)
{
	unsigned int n = *(unsigned int *)arg, old_n;
	_Atomic unsigned int *old = desc_kstat(desc, &old_n);

	if (old_n >= n)
		return;
	_Atomic unsigned int *k = calloc(n, sizeof(*k));
	struct retired *r = malloc(sizeof(*r));

	if (!k || !r) {
		free(k);
		free(r);
		return;
	}
	unsigned long flags;

	/*
	 * The CPUs are stopped, but nested and demultiplexed flows still count
	 * from other threads, always under desc->lock: hold it so no count
	 * lands in the old array after the copy.
	 */
	uirq_spin_lock_irqsave(&desc->lock, flags);
	for (unsigned int i = 0; i < old_n; i++)
		atomic_store_explicit(&k[i], atomic_load_explicit(&old[i], memory_order_relaxed),
				      memory_order_relaxed);
	if (old != (_Atomic unsigned int *)(desc + 1)) {
		r->kstat = old;
		r->next = retired_kstats;
		retired_kstats = r;
	} else {
		free(r);
	}
	/* Lock-free readers (uirq_kstat_irqs*) read the count first: publish the array before it. */
	atomic_store_explicit(&desc->kstat, k, memory_order_release);
	atomic_store_explicit(&desc->kstat_n, (unsigned short)n, memory_order_release);
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
}

void irq_resize_kstats(unsigned int n)
{
	irq_for_each_desc(resize_one, &n);
	uirq_mutex_lock(&sparse_irq_lock);
	if (n > kstat_cpus)
		kstat_cpus = n;
	/* Free-list descriptors grow when reused: resize them here too. */
	for (unsigned int i = 0; i < nr_free; i++)
		resize_one(free_list[i], &n);
	uirq_mutex_unlock(&sparse_irq_lock);
}

void kstat_incr_irqs_this_cpu(struct uirq_irq_desc *desc)
{
	int cpu = uirq_this_cpu();
	unsigned int c = cpu >= 0 ? (unsigned int)cpu : atomic_load_explicit(&desc->cpu, memory_order_relaxed);
	unsigned int n;
	_Atomic unsigned int *kstat = desc_kstat(desc, &n);

	if (c >= n)
		c = 0;
	atomic_fetch_add_explicit(&kstat[c], 1, memory_order_relaxed);
}

/*
 * Lock-free: descriptors are type-stable (never freed) and counter arrays
 * are never freed either, so a reader racing with free_descs or a resize
 * reads a stale or zero count, never freed memory.  Any context.
 */
unsigned long uirq_kstat_irqs_cpu(unsigned int irq, unsigned int cpu)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned int n;

	if (!desc)
		return 0;
	_Atomic unsigned int *kstat = desc_kstat(desc, &n);

	return cpu < n ? atomic_load_explicit(&kstat[cpu], memory_order_relaxed) : 0;
}

unsigned long uirq_kstat_irqs(unsigned int irq)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	unsigned long v = 0;
	unsigned int n;

	if (!desc)
		return 0;
	_Atomic unsigned int *kstat = desc_kstat(desc, &n);

	for (unsigned int i = 0; i < n; i++)
		v += atomic_load_explicit(&kstat[i], memory_order_relaxed);
	return v;
}

/* ---- the bus lock, for process-context paths only ---- */

void chip_bus_lock(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = desc->irq_data.chip;

	if (chip && chip->irq_bus_lock)
		chip->irq_bus_lock(&desc->irq_data);
}

void chip_bus_sync_unlock(struct uirq_irq_desc *desc)
{
	struct uirq_irq_chip *chip = desc->irq_data.chip;

	if (chip && chip->irq_bus_sync_unlock)
		chip->irq_bus_sync_unlock(&desc->irq_data);
}

/*
 * The kernel's irq_get_desc_buslock() always takes the bus lock; a slow-bus
 * chip's bus lock sleeps, so here it is taken only outside interrupt context
 * (enable_irq/disable_irq_nosync from a hard-irq handler skip it).
 */
struct uirq_irq_desc *irq_get_desc_buslock(unsigned int irq, unsigned long *flags)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);

	if (!desc)
		return NULL;
	if (!uirq_in_interrupt())
		chip_bus_lock(desc);
	uirq_spin_lock_irqsave(&desc->lock, *flags);
	return desc;
}

void irq_put_desc_busunlock(struct uirq_irq_desc *desc, unsigned long flags)
{
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	if (!uirq_in_interrupt())
		chip_bus_sync_unlock(desc);
}

// SPDX-License-Identifier: MIT
/*
 * swirq: a software interrupt controller on software lines, the way an
 * OMAP INTC (or, with UIRQ_SWIRQ_FASTEOI, a GIC) behaves, for hardware models.
 *
 * Every input is one 32-bit atomic state word: the type, the level the
 * device drives, the edge latch, the mask bit, the in-service bit (fasteoi)
 * and "started".  Every change is a compare-and-swap of that word, and the
 * caller whose change makes the input deliverable (unmasked, not in service,
 * and asserted or latched) raises the line - exactly one raise per
 * transition, from whichever thread or CPU made it.  No locks, so every
 * entry point is safe from process context, with interrupts disabled and
 * from the chip callbacks (hard-irq context, descriptor lock held).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/irq.h"
#include "uirq/sources.h"

#define ST_TYPE		UIRQ_TYPE_SENSE_MASK	/* bits 0-3 */
#define ST_ASSERTED	(1u << 4)
#define ST_PENDING	(1u << 5)
#define ST_MASKED	(1u << 6)
#define ST_INSERVICE	(1u << 7)
#define ST_STARTED	(1u << 8)

/*
 * One input: the state word and the CPU's counters on one cache line, the
 * device's counters on the next, so a device counting (merged) edges never
 * takes the line the CPU's acknowledge needs.  edges = latched + merged.
 */
struct swirq_input {
	_Atomic uint32_t state;
	_Atomic unsigned int irq;	/* 0 until mapped */
	atomic_ulong vanished, acks, masks, unmasks, eois, retriggers;
	atomic_ulong latched __attribute__((aligned(64))), merged, asserts, raises;
} __attribute__((aligned(64)));

struct uirq_swirq {
	struct uirq_irq_chip chip;
	struct uirq_irq_domain *domain;
	unsigned int nr;
	unsigned int flags;
	char *name;
	struct swirq_input in[];
};

static inline void inc(atomic_ulong *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

static bool valid_type(unsigned int type)
{
	switch (type) {
	case UIRQ_TYPE_EDGE_RISING:
	case UIRQ_TYPE_EDGE_FALLING:
	case UIRQ_TYPE_EDGE_BOTH:
	case UIRQ_TYPE_LEVEL_HIGH:
	case UIRQ_TYPE_LEVEL_LOW:
		return true;
	default:
		return false;
	}
}

static inline bool is_level(uint32_t s)
{
	return (s & UIRQ_TYPE_LEVEL_MASK) != 0;
}

/* Would the controller signal the CPU for this input now? */
static inline bool deliverable(uint32_t s)
{
	if (s & (ST_MASKED | ST_INSERVICE))
		return false;
	return is_level(s) ? (s & ST_ASSERTED) != 0 : (s & ST_PENDING) != 0;
}

static void raise_input(struct swirq_input *in)
{
	unsigned int irq = atomic_load_explicit(&in->irq, memory_order_acquire);

	if (!irq)
		return;	/* nothing mapped: a controller input with no line yet; mapping + startup delivers it */
	inc(&in->raises);
	uirq_irq_raise(irq);
}

/* new = (old & ~clr) | set, atomically; raise on the deliverable transition; returns old. */
static uint32_t modify(struct swirq_input *in, uint32_t clr, uint32_t set)
{
	uint32_t old = atomic_load_explicit(&in->state, memory_order_relaxed), new;

	do {
		new = (old & ~clr) | set;
	} while (!atomic_compare_exchange_weak_explicit(&in->state, &old, new, memory_order_acq_rel,
							memory_order_relaxed));
	if (!deliverable(old) && deliverable(new))
		raise_input(in);
	return old;
}

static struct swirq_input *input_of(struct uirq_irq_data *d)
{
	struct uirq_swirq *c = d->chip_data;

	if (!c || d->hwirq >= c->nr)
		return NULL;
	return &c->in[d->hwirq];
}

/* ---- chip callbacks: hard-irq context (or process context for set_type/startup), desc lock held ---- */

static unsigned int swirq_startup(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->unmasks);
		modify(in, ST_MASKED | ST_INSERVICE, ST_STARTED);
	}
	return 0;
}

static void swirq_shutdown(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->masks);
		modify(in, ST_STARTED | ST_INSERVICE, ST_MASKED);
	}
}

static void swirq_mask(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->masks);
		modify(in, 0, ST_MASKED);
	}
}

static void swirq_unmask(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->unmasks);
		modify(in, ST_MASKED, 0);
	}
}

/* Ack clears an edge's latch; a level cannot be acked away (the device must deassert). */
static void swirq_ack(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->acks);
		modify(in, ST_PENDING, 0);
	}
}

static void swirq_mask_ack(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->masks);
		inc(&in->acks);
		modify(in, ST_PENDING, ST_MASKED);
	}
}

/* End of service: an input still asserted or latched (and unmasked) signals again. */
static void swirq_eoi(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (in) {
		inc(&in->eois);
		modify(in, ST_INSERVICE, 0);
	}
}

static int swirq_set_type(struct uirq_irq_data *d, unsigned int type)
{
	struct swirq_input *in = input_of(d);

	if (!in)
		return -EINVAL;
	type &= UIRQ_TYPE_SENSE_MASK;
	if (type == UIRQ_TYPE_NONE)
		return 0;	/* keep the current type */
	if (!valid_type(type))
		return -EINVAL;
	/* A level input has no latch; an edge input starts with an empty one. */
	modify(in, ST_TYPE | ST_PENDING, type);
	return 0;
}

/* Resend of an edge: set the latch again, as a controller's software-set register does. */
static int swirq_retrigger(struct uirq_irq_data *d)
{
	struct swirq_input *in = input_of(d);

	if (!in)
		return 0;
	if (is_level(atomic_load_explicit(&in->state, memory_order_relaxed)))
		return 0;	/* the level is still there: nothing to resend */
	inc(&in->retriggers);
	modify(in, 0, ST_PENDING);
	return 1;
}

/*
 * The flow handler: the CPU "takes" the interrupt from the controller, then
 * the core's level, edge or fasteoi flow runs.  A level input that was
 * deasserted or masked before the CPU took it has vanished, as on hardware
 * (the controller reports a spurious source and nothing runs) - unless the
 * run is a software resend, which never asked the controller.
 */
static void swirq_flow(struct uirq_irq_desc *desc)
{
	struct uirq_irq_data *d = uirq_irq_desc_get_irq_data(desc);
	struct uirq_swirq *c = d ? d->chip_data : NULL;
	struct swirq_input *in = d ? input_of(d) : NULL;

	if (!in) {
		uirq_handle_level_irq(desc);
		return;
	}
	/* The acknowledge writes the state the device wrote last: fetch it for writing. */
	__builtin_prefetch(&in->state, 1);
	uint32_t s = atomic_load_explicit(&in->state, memory_order_acquire);

	if (c->flags & UIRQ_SWIRQ_FASTEOI) {
		/* A GIC delivers nothing masked or already in service. */
		if (((s & (ST_MASKED | ST_INSERVICE)) || (is_level(s) && !(s & ST_ASSERTED))) &&
		    !uirq_irq_desc_in_resend(desc)) {
			inc(&in->vanished);
			return;
		}
		/* The acknowledge: the input goes in service, an edge's latch is taken. */
		modify(in, is_level(s) ? 0 : ST_PENDING, ST_INSERVICE);
		uirq_handle_fasteoi_irq(desc);
		return;
	}
	if (is_level(s)) {
		if ((!(s & ST_ASSERTED) || (s & ST_MASKED)) && !uirq_irq_desc_in_resend(desc)) {
			inc(&in->vanished);
			return;
		}
		uirq_handle_level_irq(desc);
	} else {
		uirq_handle_edge_irq(desc);
	}
}

/* ---- the API ---- */

int uirq_swirq_create(const struct uirq_swirq_config *cfg, struct uirq_swirq **out)
{
	if (!cfg || !out || cfg->nr_inputs == 0 || cfg->nr_inputs > UIRQ_SWIRQ_MAX_INPUTS)
		return -EINVAL;
	if (cfg->flags & ~(UIRQ_SWIRQ_FASTEOI | UIRQ_SWIRQ_ONESHOT_SAFE))
		return -EINVAL;
	unsigned int type = cfg->default_type ? cfg->default_type : UIRQ_TYPE_LEVEL_HIGH;

	if (!valid_type(type))
		return -EINVAL;

	size_t size = sizeof(struct uirq_swirq) + (size_t)cfg->nr_inputs * sizeof(struct swirq_input);
	struct uirq_swirq *c = aligned_alloc(_Alignof(struct uirq_swirq), size);	/* size: a multiple of 64 */

	if (!c)
		return -ENOMEM;
	memset(c, 0, size);
	c->name = strdup(cfg->name ? cfg->name : "swirq");
	if (!c->name) {
		free(c);
		return -ENOMEM;
	}
	c->nr = cfg->nr_inputs;
	c->flags = cfg->flags;
	for (unsigned int i = 0; i < c->nr; i++)
		atomic_init(&c->in[i].state, type | ST_MASKED);	/* out of reset: masked */

	c->chip.name = c->name;
	c->chip.irq_startup = swirq_startup;
	c->chip.irq_shutdown = swirq_shutdown;
	c->chip.irq_mask = swirq_mask;
	c->chip.irq_unmask = swirq_unmask;
	c->chip.irq_ack = swirq_ack;
	c->chip.irq_mask_ack = swirq_mask_ack;
	c->chip.irq_eoi = swirq_eoi;
	c->chip.irq_set_type = swirq_set_type;
	c->chip.irq_retrigger = swirq_retrigger;
	c->chip.flags = (cfg->flags & UIRQ_SWIRQ_ONESHOT_SAFE) ? UIRQCHIP_ONESHOT_SAFE : 0;

	int ret = uirq_irq_domain_add_linear(c->name, c->nr, &c->chip, c, swirq_flow, &c->domain);

	if (ret) {
		free(c->name);
		free(c);
		return ret;
	}
	atomic_thread_fence(memory_order_release);
	*out = c;
	return 0;
}

int uirq_swirq_destroy(struct uirq_swirq *c)
{
	if (!c)
		return -EINVAL;
	/*
	 * A handler, not "started", is what keeps the controller: a line
	 * requested with IRQF_NO_AUTOEN has a handler and is not started, and
	 * a line enabled by hand is started with none.
	 */
	for (unsigned int i = 0; i < c->nr; i++) {
		unsigned int irq = atomic_load(&c->in[i].irq);

		if (irq && uirq_irq_has_action(irq))
			return -EBUSY;
	}
	/* No flow handler may still be running on a CPU when the controller goes away. */
	for (unsigned int i = 0; i < c->nr; i++) {
		unsigned int irq = atomic_exchange(&c->in[i].irq, 0);

		if (irq)
			uirq_synchronize_hardirq(irq);
	}
	uirq_irq_domain_remove(c->domain);
	free(c->name);
	free(c);
	return 0;
}

struct uirq_irq_domain *uirq_swirq_domain(struct uirq_swirq *c)
{
	return c ? c->domain : NULL;
}

unsigned int uirq_swirq_nr_inputs(const struct uirq_swirq *c)
{
	return c ? c->nr : 0;
}

int uirq_swirq_map(struct uirq_swirq *c, unsigned int hwirq)
{
	if (!c || hwirq >= c->nr)
		return -EINVAL;
	struct swirq_input *in = &c->in[hwirq];
	unsigned int irq = atomic_load_explicit(&in->irq, memory_order_acquire);

	if (irq)
		return (int)irq;
	irq = uirq_irq_create_mapping(c->domain, hwirq);
	if (!irq)
		return -ENOMEM;
	struct uirq_irq_data *d = uirq_irq_get_irq_data(irq);

	if (d && d->chip_data != c)
		uirq_irq_set_chip_data(irq, c);
	/* Tell the core the input's type, so its trigger type and ours agree. */
	uirq_irq_set_irq_type(irq, atomic_load(&in->state) & ST_TYPE);
	atomic_store_explicit(&in->irq, irq, memory_order_release);
	/* An input that became deliverable before it had a line raises now. */
	if (deliverable(atomic_load(&in->state)))
		raise_input(in);
	return (int)irq;
}

int uirq_swirq_set_type(struct uirq_swirq *c, unsigned int hwirq, unsigned int type)
{
	int irq = uirq_swirq_map(c, hwirq);

	if (irq < 0)
		return irq;
	return uirq_irq_set_irq_type((unsigned int)irq, type);
}

int uirq_swirq_set_level(struct uirq_swirq *c, unsigned int hwirq, bool asserted)
{
	if (!c || hwirq >= c->nr)
		return -EINVAL;
	struct swirq_input *in = &c->in[hwirq];
	uint32_t old = atomic_load_explicit(&in->state, memory_order_relaxed), new;
	bool edge;

	do {
		new = asserted ? (old | ST_ASSERTED) : (old & ~ST_ASSERTED);
		edge = false;
		if (!is_level(old)) {
			bool was = (old & ST_ASSERTED) != 0;

			if ((old & ST_TYPE) == UIRQ_TYPE_EDGE_BOTH)
				edge = was != asserted;
			else
				edge = asserted && !was;
			if (edge)
				new |= ST_PENDING;
		}
		if (new == old)
			return 0;
	} while (!atomic_compare_exchange_weak_explicit(&in->state, &old, new, memory_order_acq_rel,
							memory_order_relaxed));
	if (asserted && !(old & ST_ASSERTED))
		inc(&in->asserts);
	if (edge)
		inc((old & ST_PENDING) ? &in->merged : &in->latched);
	if (!deliverable(old) && deliverable(new))
		raise_input(in);
	return 0;
}

int uirq_swirq_pulse(struct uirq_swirq *c, unsigned int hwirq)
{
	if (!c || hwirq >= c->nr)
		return -EINVAL;
	struct swirq_input *in = &c->in[hwirq];
	uint32_t old = atomic_load_explicit(&in->state, memory_order_acquire), new;

	do {
		if (is_level(old))
			return -EINVAL;
		if (old & ST_PENDING) {
			/*
			 * Latched and not acknowledged when we looked: this edge
			 * merges into the pending one (the load is the moment it
			 * happened; an ack after it handles it).  No write to the
			 * state, so a device pulsing fast leaves the CPU's line alone.
			 */
			inc(&in->merged);
			return 0;
		}
		new = old | ST_PENDING;
	} while (!atomic_compare_exchange_weak_explicit(&in->state, &old, new, memory_order_acq_rel,
							memory_order_acquire));
	inc(&in->latched);
	if (!deliverable(old) && deliverable(new))
		raise_input(in);
	return 0;
}

int uirq_swirq_get_level(const struct uirq_swirq *c, unsigned int hwirq)
{
	if (!c || hwirq >= c->nr)
		return -EINVAL;
	return (atomic_load(&c->in[hwirq].state) & ST_ASSERTED) ? 1 : 0;
}

int uirq_swirq_get_stats(const struct uirq_swirq *c, unsigned int hwirq, struct uirq_swirq_stats *st)
{
	if (!c || !st || hwirq >= c->nr)
		return -EINVAL;
	/* The inputs' counters are atomics; a snapshot never writes. */
	struct swirq_input *in = (struct swirq_input *)&c->in[hwirq];
	uint32_t s = atomic_load(&in->state);

	memset(st, 0, sizeof(*st));
	st->latched = atomic_load(&in->latched);
	st->merged = atomic_load(&in->merged);
	st->edges = st->latched + st->merged;
	st->asserts = atomic_load(&in->asserts);
	st->raises = atomic_load(&in->raises);
	st->vanished = atomic_load(&in->vanished);
	st->acks = atomic_load(&in->acks);
	st->masks = atomic_load(&in->masks);
	st->unmasks = atomic_load(&in->unmasks);
	st->eois = atomic_load(&in->eois);
	st->retriggers = atomic_load(&in->retriggers);
	st->type = s & ST_TYPE;
	st->asserted = s & ST_ASSERTED;
	st->pending = s & ST_PENDING;
	st->masked = s & ST_MASKED;
	st->in_service = s & ST_INSERVICE;
	st->started = s & ST_STARTED;
	return 0;
}

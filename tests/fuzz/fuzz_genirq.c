// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: random sequences of the public genirq API
 * (uirq/irq.h, uirq/sources.h) with random arguments - swirq controllers
 * created, mapped, typed, raised and destroyed; descriptors allocated and
 * freed; request_threaded_irq/request_irq/request_any_context_irq/free_irq
 * with random flags, handlers and irq numbers; enable/disable/
 * disable_nosync/disable_hardirq, set_irq_type, set_affinity,
 * synchronize_irq, wake_thread, forced threading, status bits.
 *
 * Every call may only return what its header and the kernel document
 * (-EINVAL, -EBUSY, -ENOSYS, -ENOMEM, -EEXIST, -EPERM), exactly the error
 * the rules predict where they are simple, and the line state it reports
 * (depth, enabled, free_irq's name) must match a shadow of the calls made.
 * Calls whose documented outcome is a caller bug (freeing descriptors that
 * still have handlers, raising a nested line) are not made.  At the end
 * everything is freed (LSan checks nothing leaked) and lockdep must have
 * reported nothing.
 *
 * Each input runs in uirq's deterministic mode (uirq/sim.h), seeded by a
 * hash of its bytes: two CPUs, the handler threads and the deferred frees
 * are tasks run one at a time, so an input that crashes replays the same
 * interleaving when libFuzzer (or anyone) runs it again - without the mode
 * a crash that needs a rare race would not reproduce from its input.  The
 * CPUs start and stop with each input because only tasks made after the
 * start are scheduled; a deadlock of the tasks is a crash with the
 * scheduler's report.  tests/fuzz/replay.c checks the replay on the corpus.
 *
 * The core prints the kernel's warnings for misuse (an unbalanced enable,
 * a flags mismatch) on stderr: scripts/fuzz.sh runs this target with
 * -close_fd_mask=2; its own failures go to the saved stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/sim.h"
#include "uirq/sources.h"

#include "fuzz_check.h"
#include "fuzz_sim.h"

static FILE *out;	/* stderr as it was before libFuzzer closed it */

/* FUZZ_TRACE=1 in the environment: print each call, to replay a crashing input by hand. */
static bool tracing;
#define trace(...) (tracing ? (void)fprintf(out, __VA_ARGS__) : (void)0)

#define MAX_OPS		64
#define NR_SW		2	/* swirq controllers */
#define NR_RANGES	3	/* descriptor ranges allocated directly */
#define NR_DEVS		8	/* dev_id slots; slot NR_DEVS is dev_id NULL */
#define NR_KNOWN	64

struct in {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint32_t u32(struct in *in)
{
	uint32_t v = u8(in);

	v |= (uint32_t)u8(in) << 8;
	v |= (uint32_t)u8(in) << 16;
	v |= (uint32_t)u8(in) << 24;
	return v;
}

/* ---- the devices behind the lines: handlers silence them ---- */
struct dev {
	struct uirq_swirq *sw;	/* the controller of the line, or NULL */
	unsigned int hwirq;
	atomic_uint hard, thread;
};

static struct dev devs[NR_DEVS];

static void *dev_id(unsigned int slot)
{
	return slot < NR_DEVS ? &devs[slot] : NULL;
}

static void silence(void *id)
{
	struct dev *d = id;

	if (d && d->sw)
		uirq_swirq_set_level(d->sw, d->hwirq, false);
}

static uirq_irqreturn_t h_handled(int irq, void *id)
{
	(void)irq;
	silence(id);
	if (id)
		atomic_fetch_add(&((struct dev *)id)->hard, 1);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t h_none(int irq, void *id)
{
	(void)irq;
	silence(id);	/* "not mine", but the device must not storm the run */
	return UIRQ_IRQ_NONE;
}

static uirq_irqreturn_t h_wake(int irq, void *id)
{
	(void)irq;
	silence(id);
	return UIRQ_IRQ_WAKE_THREAD;
}

static uirq_irqreturn_t t_handled(int irq, void *id)
{
	(void)irq;
	silence(id);
	if (id)
		atomic_fetch_add(&((struct dev *)id)->thread, 1);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t t_none(int irq, void *id)
{
	(void)irq;
	silence(id);
	return UIRQ_IRQ_NONE;
}

/* ---- a plain chip for directly allocated descriptors ---- */
static void c_nop(struct uirq_irq_data *d)
{
	(void)d;
}

static int c_set_type(struct uirq_irq_data *d, unsigned int type)
{
	(void)d;
	return type == (UIRQ_TYPE_LEVEL_HIGH | UIRQ_TYPE_EDGE_RISING) ? -EINVAL : UIRQ_IRQ_SET_MASK_OK;
}

static struct uirq_irq_chip chip_full = {
	.name = "fuzz-full", .irq_ack = c_nop, .irq_mask = c_nop, .irq_unmask = c_nop,
	.irq_eoi = c_nop, .irq_set_type = c_set_type,
};
static struct uirq_irq_chip chip_bare = { .name = "fuzz-bare" };
static struct uirq_irq_chip chip_safe = {
	.name = "fuzz-oneshot-safe", .irq_mask = c_nop, .irq_unmask = c_nop,
	.flags = UIRQCHIP_ONESHOT_SAFE,
};
static const uirq_irq_flow_handler_t flows[] = {
	uirq_handle_level_irq, uirq_handle_edge_irq, uirq_handle_fasteoi_irq, uirq_handle_simple_irq,
};

/* ---- the shadow ---- */
struct line {
	unsigned int irq;		/* 0: slot free */
	bool has_chip, nested, noreq, noautoen, started;
	bool stale;			/* enabled at depth 1: see op_request */
	int sw, hwirq;			/* swirq line: controller slot and input; else -1 */
	unsigned int depth;
};

struct action {
	unsigned int irq;		/* 0: not installed */
	unsigned long flags;
	const char *name;
};

static struct uirq_swirq *sw[NR_SW];
static unsigned int sw_nr[NR_SW];
static struct { int first; unsigned int cnt; } ranges[NR_RANGES];
static struct line known[NR_KNOWN];
static struct action acts[NR_DEVS + 1];
static unsigned long reports;

static const char *const names[] = { "fuzz-a", "fuzz-b", "fuzz-c", "fuzz-d" };

static struct line *line_of(unsigned int irq)
{
	for (int i = 0; i < NR_KNOWN; i++)
		if (irq && known[i].irq == irq)
			return &known[i];
	return NULL;
}

static struct line *line_add(unsigned int irq)
{
	struct line *l = line_of(irq);

	if (l)
		return l;
	for (int i = 0; i < NR_KNOWN; i++)
		if (!known[i].irq) {
			known[i] = (struct line){ .irq = irq, .sw = -1, .hwirq = -1, .depth = 1 };
			return &known[i];
		}
	return NULL;
}

static int nr_actions(unsigned int irq)
{
	int n = 0;

	for (int i = 0; i <= NR_DEVS; i++)
		n += acts[i].irq == irq;
	return n;
}

/* An irq number: mostly one we know, sometimes anything at all. */
static unsigned int pick_irq(struct in *in)
{
	uint8_t b = u8(in);

	if (b < 0xe0) {
		for (int tries = 0; tries < NR_KNOWN; tries++) {
			struct line *l = &known[(b + tries) % NR_KNOWN];

			if (l->irq)
				return l->irq;
		}
		return 1;
	}
	switch (b & 7) {
	case 0:
		return 0;
	case 1:
		return 65535;
	case 2:
		return 65536;
	case 3:
		return ~0u;
	default:
		return u32(in) % 70000;
	}
}

static void check_line(const struct line *l)
{
	unsigned int depth = uirq_irq_get_depth(l->irq);

	fuzz_check(uirq_irq_to_desc(l->irq) != NULL, "irq %u lost its descriptor", l->irq);
	fuzz_check(depth == l->depth, "irq %u depth %u, want %u", l->irq, depth, l->depth);
	if (nr_actions(l->irq) && !l->stale)
		fuzz_check(uirq_irq_is_enabled(l->irq) == (l->depth == 0), "irq %u enabled %d at depth %u",
			   l->irq, uirq_irq_is_enabled(l->irq), l->depth);
}

static bool errno_ok(int ret)
{
	switch (ret) {
	case -EINVAL: case -EBUSY: case -ENOSYS: case -ENOMEM: case -EEXIST: case -EPERM:
		return true;
	default:
		return ret >= 0;
	}
}

/* ---- the calls ---- */

static void op_swirq_create(struct in *in)
{
	static const unsigned int types[] = { 0, UIRQ_TYPE_EDGE_RISING, UIRQ_TYPE_EDGE_FALLING,
					      UIRQ_TYPE_EDGE_BOTH, UIRQ_TYPE_LEVEL_HIGH, UIRQ_TYPE_LEVEL_LOW,
					      UIRQ_TYPE_LEVEL_HIGH | UIRQ_TYPE_LEVEL_LOW, 0x10 };
	unsigned int s = u8(in) % NR_SW;
	uint8_t nb = u8(in), tb = u8(in), fb = u8(in);
	struct uirq_swirq_config cfg = {
		.name = (nb & 0x80) ? NULL : "fuzz-swirq",
		.nr_inputs = (nb & 0x40) ? (nb & 1 ? 0u : UIRQ_SWIRQ_MAX_INPUTS + 1) : 1u + nb % 8u,
		.default_type = types[tb % 8],
		.flags = fb & 7,
	};
	bool bad = cfg.nr_inputs == 0 || cfg.nr_inputs > UIRQ_SWIRQ_MAX_INPUTS || (cfg.flags & 4) ||
		   tb % 8 >= 6;
	struct uirq_swirq *c = NULL;
	int ret;

	if (sw[s])
		return;
	ret = uirq_swirq_create(&cfg, &c);
	trace("swirq_create(%u: %u inputs, type %#x, flags %#x) = %d\n", s, cfg.nr_inputs, cfg.default_type,
	      cfg.flags, ret);
	fuzz_check(ret == (bad ? -EINVAL : 0) || ret == -ENOMEM, "swirq_create = %d, bad %d", ret, bad);
	if (!ret) {
		sw[s] = c;
		sw_nr[s] = cfg.nr_inputs;
		fuzz_check(uirq_swirq_nr_inputs(c) == cfg.nr_inputs, "nr_inputs");
	}
}

static void forget_sw(unsigned int s)
{
	for (int i = 0; i < NR_KNOWN; i++)
		if (known[i].irq && known[i].sw == (int)s)
			known[i].irq = 0;
	for (int i = 0; i < NR_DEVS; i++)
		if (devs[i].sw == sw[s] && !acts[i].irq)
			devs[i].sw = NULL;
	sw[s] = NULL;
}

static void op_swirq_destroy(struct in *in)
{
	unsigned int s = u8(in) % NR_SW;
	bool busy = false;
	int ret;

	if (!sw[s])
		return;
	for (int i = 0; i < NR_KNOWN; i++)
		if (known[i].irq && known[i].sw == (int)s && nr_actions(known[i].irq))
			busy = true;
	ret = uirq_swirq_destroy(sw[s]);
	trace("swirq_destroy(%u) = %d\n", s, ret);
	/* The header: -EBUSY, nothing done, while an input has a handler. */
	fuzz_check(ret == (busy ? -EBUSY : 0), "swirq_destroy = %d with handlers installed: %d", ret, busy);
	if (!ret)
		forget_sw(s);
}

/* Note a mapped swirq input in the shadow. */
static void track_sw_line(unsigned int s, unsigned int hw, int irq)
{
	struct line *l;

	if (irq <= 0)
		return;
	l = line_of((unsigned int)irq);
	if (!l) {
		l = line_add((unsigned int)irq);
		if (!l)
			return;	/* the shadow is full: not tracked */
		l->sw = (int)s;
		l->hwirq = (int)hw;
		l->has_chip = true;
	}
	fuzz_check(l->sw == (int)s && l->hwirq == (int)hw, "irq %d mapped twice", irq);
	fuzz_check(uirq_irq_find_mapping(uirq_swirq_domain(sw[s]), hw) == (unsigned int)irq, "find_mapping");
}

static void op_swirq_map(struct in *in)
{
	unsigned int s = u8(in) % NR_SW, hw = u8(in) % 10;
	int irq;

	if (!sw[s])
		return;
	irq = uirq_swirq_map(sw[s], hw);
	trace("swirq_map(%u, %u) = %d\n", s, hw, irq);
	if (hw >= sw_nr[s]) {
		fuzz_check(irq == -EINVAL, "map of input %u of %u = %d", hw, sw_nr[s], irq);
		return;
	}
	fuzz_check(irq > 0 || irq == -ENOMEM, "map = %d", irq);
	track_sw_line(s, hw, irq);
}

static void op_swirq_drive(struct in *in)
{
	unsigned int s = u8(in) % NR_SW, hw = u8(in) % 10, how = u8(in) % 4;
	struct uirq_swirq_stats st;
	int ret;

	if (!sw[s])
		return;
	trace("swirq drive %u (%u, %u)\n", how, s, hw);
	switch (how) {
	case 0:
	case 1:
		ret = uirq_swirq_set_level(sw[s], hw, how == 1);
		fuzz_check(ret == (hw < sw_nr[s] ? 0 : -EINVAL), "set_level = %d", ret);
		break;
	case 2:
		ret = uirq_swirq_pulse(sw[s], hw);
		fuzz_check(ret == 0 || ret == -EINVAL, "pulse = %d", ret);
		if (hw >= sw_nr[s])
			fuzz_check(ret == -EINVAL, "pulse of a missing input");
		break;
	default: {
		static const unsigned int types[] = { 0, 1, 2, 3, 4, 8, 12, 5 };
		unsigned int type = types[u8(in) % 8];

		ret = uirq_swirq_set_type(sw[s], hw, type);
		fuzz_check(ret == 0 || ret == -EINVAL || ret == -ENOMEM, "swirq_set_type = %d", ret);
		if (hw >= sw_nr[s] || type == 12 || type == 5)
			fuzz_check(ret == -EINVAL, "swirq_set_type %u on input %u = %d", type, hw, ret);
		if (hw < sw_nr[s])
			track_sw_line(s, hw, (int)uirq_irq_find_mapping(uirq_swirq_domain(sw[s]), hw));
		break;
	}
	}
	if (hw < sw_nr[s]) {
		fuzz_check(uirq_swirq_get_stats(sw[s], hw, &st) == 0, "get_stats");
		fuzz_check(st.edges == st.latched + st.merged, "edges %lu != latched %lu + merged %lu",
			   st.edges, st.latched, st.merged);
		/* A handler on a CPU may deassert it meanwhile: only the range is certain. */
		ret = uirq_swirq_get_level(sw[s], hw);
		fuzz_check(ret == 0 || ret == 1, "get_level = %d", ret);
	} else {
		fuzz_check(uirq_swirq_get_level(sw[s], hw) == -EINVAL, "get_level of a missing input");
	}
}

static void op_alloc(struct in *in)
{
	unsigned int r = u8(in) % NR_RANGES;
	uint8_t how = u8(in);
	unsigned int cnt = how & 0x80 ? (how & 0x40 ? 0 : 250 + u8(in) % 20) : 1 + how % 4;
	int irq = (how & 0x20) ? (int)(u32(in) % 70000) - 2 : -1;
	unsigned int from = (how & 0x10) ? u32(in) % 70000 : 1;
	int ret;

	if (ranges[r].cnt)
		return;
	ret = uirq_irq_alloc_descs(irq, from, cnt);
	trace("alloc_descs(%d, %u, %u) = %d\n", irq, from, cnt, ret);
	fuzz_check(ret > 0 || ret == -EINVAL || ret == -ENOMEM || ret == -EEXIST, "alloc_descs = %d", ret);
	if (!cnt || (irq >= 0 && from > (unsigned int)irq))
		fuzz_check(ret == -EINVAL, "alloc_descs(%d, %u, %u) = %d", irq, from, cnt, ret);
	if (ret <= 0)
		return;
	if (irq > 0)
		fuzz_check(ret == irq, "alloc_descs at %d gave %d", irq, ret);
	fuzz_check((unsigned int)ret >= (from ? from : 1), "alloc_descs from %u gave %d", from, ret);
	ranges[r].first = ret;
	ranges[r].cnt = cnt;
	for (unsigned int i = 0; i < cnt; i++) {
		fuzz_check(uirq_irq_to_desc((unsigned int)ret + i), "irq %u has no descriptor", ret + i);
		if (i < 4)
			line_add((unsigned int)ret + i);
	}
}

static void range_free(unsigned int r)
{
	uirq_irq_free_descs((unsigned int)ranges[r].first, ranges[r].cnt);
	for (unsigned int i = 0; i < ranges[r].cnt; i++) {
		unsigned int irq = (unsigned int)ranges[r].first + i;
		struct line *l = line_of(irq);

		fuzz_check(!uirq_irq_to_desc(irq), "irq %u still has a descriptor", irq);
		if (l)
			l->irq = 0;
	}
	ranges[r].cnt = 0;
}

static void op_free_descs(struct in *in)
{
	unsigned int r = u8(in) % NR_RANGES;

	if (!ranges[r].cnt)
		return;
	/* The header: lines must be free. */
	for (unsigned int i = 0; i < ranges[r].cnt; i++)
		if (nr_actions((unsigned int)ranges[r].first + i))
			return;
	range_free(r);
}

static void op_set_chip(struct in *in)
{
	unsigned int irq = pick_irq(in);
	uint8_t b = u8(in);
	struct line *l = line_of(irq);
	struct uirq_irq_chip *chip = (b & 3) == 0 ? &chip_bare : (b & 3) == 1 ? &chip_safe : &chip_full;

	/* Only the descriptors allocated here, and only while no handler runs on them. */
	if (!l || l->sw >= 0 || nr_actions(irq))
		return;
	trace("set_chip(%u, %s, flow %d)\n", irq, chip->name, (b >> 2) % 4);
	uirq_irq_set_chip_and_handler_name(irq, chip, flows[(b >> 2) % 4], NULL);
	l->has_chip = true;
}

static void op_status(struct in *in)
{
	unsigned int irq = pick_irq(in);
	uint8_t b = u8(in);
	struct line *l = line_of(irq);
	unsigned int bits = 0;

	if (!l || l->sw >= 0 || nr_actions(irq))
		return;
	if (b & 1)
		bits |= UIRQ_NOREQUEST;
	if (b & 2)
		bits |= UIRQ_NOAUTOEN;
	if (b & 4)
		bits |= UIRQ_NESTED_THREAD;
	trace("modify_status(%u, %s %#x)\n", irq, b & 8 ? "clear" : "set", bits);
	if (b & 8) {
		uirq_irq_modify_status(irq, bits, 0);
		l->noreq &= !(bits & UIRQ_NOREQUEST);
		l->noautoen &= !(bits & UIRQ_NOAUTOEN);
		l->nested &= !(bits & UIRQ_NESTED_THREAD);
	} else {
		uirq_irq_modify_status(irq, 0, bits);
		l->noreq |= !!(bits & UIRQ_NOREQUEST);
		l->noautoen |= !!(bits & UIRQ_NOAUTOEN);
		l->nested |= !!(bits & UIRQ_NESTED_THREAD);
	}
}

static void op_request(struct in *in, int kind)
{
	static const uirq_irq_handler_t hards[] = { NULL, h_handled, h_none, h_wake };
	static const uirq_irq_handler_t threads[] = { NULL, t_handled, t_none, t_handled };
	unsigned int irq = pick_irq(in), slot = u8(in) % (NR_DEVS + 1);
	uint8_t hb = u8(in);
	unsigned long flags = u32(in);
	uirq_irq_handler_t hard = hards[hb & 3], thread = threads[(hb >> 2) & 3];
	const char *name = names[(hb >> 4) & 3];
	struct line *l = line_of(irq);
	void *id = dev_id(slot);
	int ret, want = 1;	/* 1: any documented result */

	if (acts[slot].irq)
		return;		/* one action per dev_id here, so free_irq can name it */
	/* Handlers silence the device through dev_id: without one a level line would storm. */
	if (!id && l && l->sw >= 0)
		return;
	/* Mostly plausible flags: a trigger, SHARED, ONESHOT, NO_AUTOEN, NO_THREAD, COND_ONESHOT. */
	if (!(hb & 0x40))
		flags &= UIRQF_TRIGGER_MASK | UIRQF_SHARED | UIRQF_ONESHOT | UIRQF_NO_AUTOEN |
			 UIRQF_NO_THREAD | UIRQF_COND_ONESHOT | UIRQF_PROBE_SHARED;
	/* A primary that wakes a thread it does not have is a driver bug the core warns about. */
	if (hard == h_wake && !thread && kind != 2)
		hard = h_handled;
	if (kind == 1)
		thread = NULL;
	if (kind == 2) {
		hard = (hb & 0x80) ? t_handled : h_handled;
		thread = NULL;
	}
	if (id) {
		devs[slot].sw = l && l->sw >= 0 ? sw[l->sw] : NULL;
		devs[slot].hwirq = l && l->hwirq >= 0 ? (unsigned int)l->hwirq : 0;
	}

	if (((flags & UIRQF_SHARED) && !id) || ((flags & UIRQF_SHARED) && (flags & UIRQF_NO_AUTOEN)))
		want = -EINVAL;
	else if (!uirq_irq_to_desc(irq))
		want = -EINVAL;
	else if (l && l->noreq)
		want = -EINVAL;
	else if (kind != 2 && !hard && !thread)
		want = -EINVAL;
	else if (l && !l->has_chip)
		want = -ENOSYS;
	else if (l && l->nested && kind != 2 && !thread)
		want = -EINVAL;

	trace("request%s(%u, %s, %s, %#lx, dev %u)\n", kind == 2 ? "_any_context" : kind ? "" : "_threaded",
	      irq, hard ? "handler" : "NULL", thread ? "thread" : "NULL", flags, slot);
	if (kind == 2) {
		ret = uirq_request_any_context_irq(irq, hard, flags, name, id);
		if (ret == UIRQC_IS_NESTED || ret == UIRQC_IS_HARDIRQ) {
			fuzz_check(!l || (ret == UIRQC_IS_NESTED) == l->nested, "any_context = %d", ret);
			ret = 0;
		}
	} else if (kind == 1) {
		ret = uirq_request_irq(irq, hard, flags, name, id);
	} else {
		ret = uirq_request_threaded_irq(irq, hard, thread, flags, name, id);
	}
	trace("  = %d\n", ret);
	fuzz_check(ret <= 0 && errno_ok(ret), "request(%u, %#lx) = %d", irq, flags, ret);
	if (want != 1)
		fuzz_check(ret == want, "request(%u, flags %#lx, %s, %s) = %d, want %d", irq, flags,
			   hard ? "handler" : "NULL", thread ? "thread" : "NULL", ret, want);
	else
		fuzz_check(ret == 0 || ret == -EBUSY || ret == -EINVAL || ret == -ENOMEM ||
			   (!l && ret == -ENOSYS), "request = %d", ret);
	/* A line held without SHARED on either side takes no second action. */
	for (int i = 0; i <= NR_DEVS && !ret; i++)
		if (acts[i].irq == irq && (!(acts[i].flags & UIRQF_SHARED) || !(flags & UIRQF_SHARED)))
			fuzz_check(0, "irq %u shared by %#lx and %#lx", irq, acts[i].flags, flags);
	if (ret)
		return;
	if (l && !nr_actions(irq)) {
		/* The first action starts the line, unless told not to. */
		if (!(flags & UIRQF_NO_AUTOEN) && !l->noautoen) {
			l->depth = 0;
			l->started = true;
		} else {
			/*
			 * "Undo nested disables": depth 1, but a line enable_irq()
			 * started before the request stays unmasked - mainline's
			 * __setup_irq() does the same.
			 */
			l->depth = 1;
			l->stale = l->started;
		}
	}
	acts[slot].irq = irq;
	acts[slot].flags = flags;
	acts[slot].name = name;
	if (!l) {
		/* Not tracked (the shadow is full): give it back at once. */
		fuzz_check(uirq_free_irq(irq, id) == name, "free_irq");
		acts[slot].irq = 0;
	}
}

static void free_action(unsigned int slot)
{
	unsigned int irq = acts[slot].irq;
	const char *name = uirq_free_irq(irq, dev_id(slot));

	trace("free_irq(%u, dev %u) = %s\n", irq, slot, name ? name : "NULL");
	struct line *l = line_of(irq);

	fuzz_check(name == acts[slot].name, "free_irq(%u) = %s, want %s", irq, name ? name : "NULL",
		   acts[slot].name);
	acts[slot].irq = 0;
	if (l && !nr_actions(irq) && l->started) {
		l->started = false;
		l->stale = false;
		l->depth = 1;
	}
}

static void op_free_irq(struct in *in)
{
	unsigned int slot = u8(in) % (NR_DEVS + 1);

	if (acts[slot].irq)
		free_action(slot);
}

static void op_enable_disable(struct in *in)
{
	unsigned int irq = pick_irq(in), how = u8(in) % 5;
	struct line *l = line_of(irq);

	trace("%s(%u)\n", (const char *[]){ "enable", "disable", "disable_nosync", "disable_hardirq",
					     "synchronize" }[how], irq);
	switch (how) {
	case 0:
		/* An unbalanced enable only warns; do it now and then. */
		if (l && l->depth == 0 && (u8(in) & 0xf))
			return;
		uirq_enable_irq(irq);
		if (l && l->has_chip && l->depth) {
			if (l->depth == 1) {
				l->started = true;
				l->stale = false;
			}
			l->depth--;
		}
		break;
	case 1:
		uirq_disable_irq(irq);
		if (l)
			l->depth++;
		break;
	case 2:
		uirq_disable_irq_nosync(irq);
		if (l)
			l->depth++;
		break;
	case 3:
		(void)uirq_disable_hardirq(irq);
		if (l)
			l->depth++;
		break;
	default:
		if (l && l->depth > 1000)
			return;
		uirq_synchronize_irq(irq);
		(void)uirq_synchronize_hardirq(irq);
		break;
	}
}

static void op_misc(struct in *in)
{
	unsigned int irq = pick_irq(in), how = u8(in) % 8;
	struct line *l = line_of(irq);
	int ret;

	trace("misc %u (irq %u)\n", how, irq);
	switch (how) {
	case 0: {
		unsigned int type = u8(in) & 0x1f;

		ret = uirq_irq_set_irq_type(irq, type);
		fuzz_check(errno_ok(ret) && ret <= 0, "set_irq_type = %d", ret);
		if (!uirq_irq_to_desc(irq))
			fuzz_check(ret == -EINVAL, "set_irq_type without a descriptor = %d", ret);
		break;
	}
	case 1: {
		uint64_t mask = (uint64_t)u32(in) << 32 | u32(in);

		ret = uirq_irq_set_affinity(irq, mask);
		fuzz_check(ret == ((uirq_irq_to_desc(irq) && (mask & 3)) ? 0 : -EINVAL),
			   "set_affinity(%u, %#llx) = %d", irq, (unsigned long long)mask, ret);
		break;
	}
	case 2:
		/* Raising a nested line runs its primary, a caller bug the core warns about. */
		if (l && l->nested)
			return;
		ret = uirq_irq_raise(irq);
		fuzz_check(ret == (uirq_irq_to_desc(irq) ? 0 : -EINVAL), "raise = %d", ret);
		break;
	case 3:
		if (l && l->nested)
			uirq_handle_nested_irq(irq);	/* as a demultiplexer's thread does */
		break;
	case 4:
		uirq_irq_wake_thread(irq, dev_id(u8(in) % (NR_DEVS + 1)));
		break;
	case 5: {
		unsigned int prio = u8(in) % 101;

		ret = uirq_irq_set_thread_priority(irq, dev_id(u8(in) % (NR_DEVS + 1)), (int)prio);
		fuzz_check(ret == 0 || ret == -EINVAL || ret == -EPERM, "set_thread_priority = %d", ret);
		if (prio > 99)
			fuzz_check(ret == -EINVAL, "priority %u accepted", prio);
		break;
	}
	case 6:
		uirq_set_force_irqthreads(u8(in) & 1);
		break;
	default:
		(void)uirq_irq_get_trigger_type(irq);
		(void)uirq_kstat_irqs(irq);
		(void)uirq_kstat_irqs_cpu(irq, u8(in) % 4);
		if (u8(in) == 0x5a) {
			FILE *null = fopen("/dev/null", "w");

			if (null) {
				uirq_show_interrupts(null);
				uirq_show_spurious(null, irq);
				fclose(null);
			}
		}
		break;
	}
}

static void teardown(void)
{
	for (unsigned int i = 0; i <= NR_DEVS; i++)
		if (acts[i].irq)
			free_action(i);
	for (int i = 0; i < NR_KNOWN; i++)
		if (known[i].irq)
			check_line(&known[i]);
	for (unsigned int r = 0; r < NR_RANGES; r++)
		if (ranges[r].cnt)
			range_free(r);
	for (unsigned int s = 0; s < NR_SW; s++)
		if (sw[s]) {
			fuzz_check(uirq_swirq_destroy(sw[s]) == 0, "swirq_destroy with no handlers");
			forget_sw(s);
		}
	uirq_set_force_irqthreads(false);
	memset(known, 0, sizeof(known));
	memset(devs, 0, sizeof(devs));
}

static void lockdep_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	fprintf(out, "lockdep: %s\n%s\n", r->headline, r->text);
	reports++;
}

/* A deadlock or a task stalled outside the scheduler: a crash the fuzzer keeps, with the report. */
static void sim_failure(const char *report, void *arg)
{
	(void)arg;
	fprintf(out, "fuzz_genirq: the run cannot go on\n%s", report);
	fflush(out);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = dup(2);

	(void)argc;
	(void)argv;
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out)
		out = stderr;
	fuzz_check_out = out;
	tracing = getenv("FUZZ_TRACE") != NULL;
	uirq_lockdep_set_report_handler(lockdep_report, NULL);
	uirq_sim_set_failure_handler(sim_failure, NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uirq_cpu_config cfg = { .nr_cpus = 2 };
	struct in in = { data, size };
	int err;

	/* Uniform choices: each input is one schedule, and libFuzzer's inputs sample many. */
	err = uirq_sim_start(fuzz_sim_seed(data, size), UIRQ_SIM_RANDOM, 0);
	fuzz_check(err == 0, "uirq_sim_start = %d", err);
	err = uirq_cpus_start(&cfg);
	fuzz_check(err == 0, "uirq_cpus_start = %d", err);
	for (int n = 0; in.n && n < MAX_OPS; n++) {
		switch (u8(&in) % 16) {
		case 0: op_swirq_create(&in); break;
		case 1: op_swirq_destroy(&in); break;
		case 2: op_swirq_map(&in); break;
		case 3: case 4: op_swirq_drive(&in); break;
		case 5: op_alloc(&in); break;
		case 6: op_free_descs(&in); break;
		case 7: op_set_chip(&in); break;
		case 8: op_status(&in); break;
		case 9: op_request(&in, 0); break;
		case 10: op_request(&in, (int)(u8(&in) % 3)); break;
		case 11: op_free_irq(&in); break;
		case 12: case 13: op_enable_disable(&in); break;
		default: op_misc(&in); break;
		}
		for (int i = 0; i < NR_KNOWN; i++)
			if (known[i].irq)
				check_line(&known[i]);
	}
	teardown();
	uirq_cpus_stop();
	fuzz_check(uirq_sim_stop() == UIRQ_SIM_OK, "the deterministic mode ended in a deadlock");
	fuzz_check(reports == 0, "lockdep reported %lu", reports);
	return 0;
}

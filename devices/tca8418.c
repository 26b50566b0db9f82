// SPDX-License-Identifier: MIT
/*
 * The TI TCA8418 keypad scanner, from its datasheet's register map.
 *
 * A key event is a byte: bit 7 set for a press, the key's number in bits
 * 6:0 (row * 10 + column + 1).  Events queue in a 10-deep FIFO; KEY_LCK_EC
 * bits 3:0 count them; reading KEY_EVENT_A takes the oldest (0 when empty),
 * KEY_EVENT_B..J show the ones behind it.  Each event sets INT_STAT's K_INT;
 * a full FIFO sets OVR_FLOW_INT and drops the new event, or its oldest with
 * CFG's OVR_FLOW_M.  The interrupt output (active low) is asserted while
 * an INT_STAT bit whose CFG enable is set stands; writing 1s to INT_STAT
 * clears those bits.  With CFG's INT_CFG, clearing K_INT while events
 * remain sets it again (the chip deasserts for 50 us and reasserts: a
 * level host sees it stay, an edge host a new edge; this model reasserts at
 * once).  Only rows and columns that KP_GPIO1-3 make keypad lines scan.
 *
 * The state is under a uirq mutex: the driver's transfers (its irq thread,
 * under the bus lock) and the test's key presses meet here, and the
 * interrupt output is driven inside it so that its level always follows
 * the registers in order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/mutex.h"
#include "tca8418.h"

struct tca8418 {
	struct uirq_i2c_sim *sim;
	uint16_t addr;
	void (*irq_out)(void *arg, bool asserted);
	void *irq_arg;
	uirq_mutex_t lock;
	uint8_t regs[TCA8418_NR_REGS];
	uint8_t fifo[TCA8418_FIFO];	/* fifo[0] is the oldest */
	unsigned int count;
	bool asserted;
	unsigned long overflows;
};

/* INT follows the enabled status bits.  Lock held. */
static void update_int(struct tca8418 *t)
{
	uint8_t cfg = t->regs[TCA8418_CFG], stat = t->regs[TCA8418_INT_STAT];
	bool on = ((stat & TCA8418_INT_K) && (cfg & TCA8418_CFG_KE_IEN)) ||
		  ((stat & TCA8418_INT_OVR_FLOW) && (cfg & TCA8418_CFG_OVR_FLOW_IEN));

	if (on != t->asserted) {
		t->asserted = on;
		if (t->irq_out)
			t->irq_out(t->irq_arg, on);
	}
}

static void set_count(struct tca8418 *t)
{
	t->regs[TCA8418_KEY_LCK_EC] = (uint8_t)((t->regs[TCA8418_KEY_LCK_EC] & ~0x0f) | t->count);
}

static uint8_t pop(struct tca8418 *t)
{
	uint8_t ev;

	if (!t->count)
		return 0;
	ev = t->fifo[0];
	memmove(t->fifo, t->fifo + 1, --t->count);
	t->fifo[t->count] = 0;
	set_count(t);
	return ev;
}

static int tca_read(void *priv, uint8_t reg, uint8_t *val)
{
	struct tca8418 *t = priv;

	if (reg == 0 || reg >= TCA8418_NR_REGS)
		return -EIO;
	uirq_mutex_lock(&t->lock);
	if (reg == TCA8418_KEY_EVENT_A)
		*val = pop(t);
	else if (reg > TCA8418_KEY_EVENT_A && reg <= TCA8418_KEY_EVENT_J)
		*val = t->fifo[reg - TCA8418_KEY_EVENT_A];
	else
		*val = t->regs[reg];
	uirq_mutex_unlock(&t->lock);
	return 0;
}

static int tca_write(void *priv, uint8_t reg, uint8_t val)
{
	struct tca8418 *t = priv;

	if (reg == 0 || reg >= TCA8418_NR_REGS)
		return -EIO;
	uirq_mutex_lock(&t->lock);
	if (reg == TCA8418_INT_STAT) {
		t->regs[reg] &= (uint8_t)~val;
		/* INT_CFG: events left in the FIFO raise K_INT again. */
		if ((t->regs[TCA8418_CFG] & TCA8418_CFG_INT_CFG) && t->count)
			t->regs[reg] |= TCA8418_INT_K;
	} else if (reg == TCA8418_KEY_LCK_EC) {
		t->regs[reg] = (uint8_t)((val & 0x70) | t->count);	/* the count is read-only */
	} else if (reg < TCA8418_KEY_EVENT_A || reg > TCA8418_KEY_EVENT_J) {
		t->regs[reg] = val;
	}
	update_int(t);
	uirq_mutex_unlock(&t->lock);
	return 0;
}

static const struct uirq_i2c_sim_device_ops tca_ops = { .read = tca_read, .write = tca_write };

int tca8418_new(struct uirq_i2c_sim *sim, uint16_t addr, void (*irq_out)(void *arg, bool asserted), void *arg,
		struct tca8418 **out)
{
	struct tca8418 *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return -ENOMEM;
	t->sim = sim;
	t->addr = addr;
	t->irq_out = irq_out;
	t->irq_arg = arg;
	uirq_mutex_init(&t->lock);
	ret = uirq_i2c_sim_attach(sim, addr, &tca_ops, t);
	if (ret) {
		uirq_mutex_destroy(&t->lock);
		free(t);
		return ret;
	}
	*out = t;
	return 0;
}

void tca8418_free(struct tca8418 *t)
{
	if (!t)
		return;
	uirq_i2c_sim_detach(t->sim, t->addr);
	uirq_mutex_destroy(&t->lock);
	free(t);
}

static bool keypad_line(const struct tca8418 *t, unsigned int row, unsigned int col)
{
	uint32_t cols = t->regs[TCA8418_KP_GPIO2] | (uint32_t)(t->regs[TCA8418_KP_GPIO3] & 0x03) << 8;

	return row < TCA8418_ROWS && col < TCA8418_COLS && (t->regs[TCA8418_KP_GPIO1] & (1u << row)) &&
	       (cols & (1u << col));
}

void tca8418_key(struct tca8418 *t, unsigned int row, unsigned int col, bool down)
{
	uint8_t ev = (uint8_t)((down ? 0x80 : 0) | (row * TCA8418_COLS + col + 1));

	uirq_mutex_lock(&t->lock);
	if (keypad_line(t, row, col)) {
		if (t->count == TCA8418_FIFO) {
			t->overflows++;
			t->regs[TCA8418_INT_STAT] |= TCA8418_INT_OVR_FLOW;
			if (t->regs[TCA8418_CFG] & TCA8418_CFG_OVR_FLOW_M) {
				pop(t);
				t->fifo[t->count++] = ev;
			}
		} else {
			t->fifo[t->count++] = ev;
		}
		set_count(t);
		t->regs[TCA8418_INT_STAT] |= TCA8418_INT_K;
		update_int(t);
	}
	uirq_mutex_unlock(&t->lock);
}

uint8_t tca8418_peek(struct tca8418 *t, uint8_t reg)
{
	uint8_t v;

	uirq_mutex_lock(&t->lock);
	v = reg < TCA8418_NR_REGS ? t->regs[reg] : 0;
	uirq_mutex_unlock(&t->lock);
	return v;
}

unsigned long tca8418_overflows(struct tca8418 *t)
{
	unsigned long n;

	uirq_mutex_lock(&t->lock);
	n = t->overflows;
	uirq_mutex_unlock(&t->lock);
	return n;
}

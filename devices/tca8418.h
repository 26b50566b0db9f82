/* SPDX-License-Identifier: MIT */
/*
 * A TI TCA8418 keypad scanner on a simulated i2c bus (devices/tca8418.c):
 * an 8x10 key matrix whose presses and releases queue as events in a
 * 10-deep FIFO, read one by one from KEY_EVENT_A, and an active-low
 * interrupt output.  Internal to the devices layer and its users (tests).
 */
#ifndef UIRQ_DEVICES_TCA8418_H
#define UIRQ_DEVICES_TCA8418_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/i2c.h"

#define TCA8418_ROWS		8
#define TCA8418_COLS		10
#define TCA8418_FIFO		10

/* Registers (the datasheet's map, the ones this model implements). */
#define TCA8418_CFG		0x01
#define TCA8418_INT_STAT	0x02
#define TCA8418_KEY_LCK_EC	0x03
#define TCA8418_KEY_EVENT_A	0x04
#define TCA8418_KEY_EVENT_J	0x0d
#define TCA8418_KP_GPIO1	0x1d	/* rows 0-7 as keypad lines */
#define TCA8418_KP_GPIO2	0x1e	/* columns 0-7 */
#define TCA8418_KP_GPIO3	0x1f	/* columns 8-9 */
#define TCA8418_NR_REGS		0x2f

#define TCA8418_CFG_OVR_FLOW_M	0x20	/* a full FIFO drops its oldest event (0: the new one) */
#define TCA8418_CFG_INT_CFG	0x10	/* clearing with events left re-raises the interrupt */
#define TCA8418_CFG_OVR_FLOW_IEN 0x08
#define TCA8418_CFG_KE_IEN	0x01
#define TCA8418_INT_OVR_FLOW	0x08
#define TCA8418_INT_K		0x01

struct tca8418;

/*
 * A chip at addr on sim, reset; irq_out(arg, asserted) follows its
 * interrupt output (asserted: pulled low).  0 or -errno.
 */
int tca8418_new(struct uirq_i2c_sim *sim, uint16_t addr, void (*irq_out)(void *arg, bool asserted), void *arg,
		struct tca8418 **out);
/* Detach and free (no transfer may be in flight). */
void tca8418_free(struct tca8418 *t);
/* The key at (row, col) goes down or up: an event, if that row and column are keypad lines. */
void tca8418_key(struct tca8418 *t, unsigned int row, unsigned int col, bool down);
/* A register's value, without a read's side effects. */
uint8_t tca8418_peek(struct tca8418 *t, uint8_t reg);
/* Events the FIFO could not keep. */
unsigned long tca8418_overflows(struct tca8418 *t);

#endif

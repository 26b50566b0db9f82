/* SPDX-License-Identifier: MIT */
/*
 * The default board (devices layer): hardware only, no drivers.  A host
 * interrupt controller on software lines (like the OMAP INTC), a simulated
 * i2c bus (2.6 MHz HS by default) with a TWL4030 on it, the TWL4030's INT1
 * output (active-low level) wired to host line 7, and the power button on
 * the TWL4030's PWRON input.  Drivers are probed on it separately
 * (include/uirq/twl4030-drivers.h), as a kernel board file only registers
 * devices.
 */
#ifndef UIRQ_BOARD_H
#define UIRQ_BOARD_H

#include <stdbool.h>

#include "uirq/i2c.h"
#include "uirq/sources.h"
#include "uirq/twl4030.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UIRQ_BOARD_DEFAULT_BUS_HZ	2600000ul
#define UIRQ_BOARD_TWL_HOST_LINE	7u	/* INTC input (hwirq) of the TWL4030's INT1 */

struct uirq_board_config {
	unsigned long bus_hz;		/* 0: UIRQ_BOARD_DEFAULT_BUS_HZ */
	unsigned int intc_lines;	/* 0: 32 */
};

struct uirq_board;

/* Build the board's hardware (CPUs must already be started); 0 or -errno. */
int uirq_board_create(const struct uirq_board_config *cfg, struct uirq_board **out);
/* Tear the hardware down; drivers must have been removed first. */
void uirq_board_destroy(struct uirq_board *b);
/* The host interrupt controller. */
struct uirq_swirq *uirq_board_intc(struct uirq_board *b);
/* The irq number of the host line the TWL4030's INT1 is wired to. */
unsigned int uirq_board_twl_irq(struct uirq_board *b);
/* The simulated i2c bus (fault injection, speed, statistics). */
struct uirq_i2c_sim *uirq_board_i2c_sim(struct uirq_board *b);
/* The same bus as an adapter, for drivers. */
struct uirq_i2c_adapter *uirq_board_i2c(struct uirq_board *b);
/* The TWL4030 model (button, registers). */
struct twl4030 *uirq_board_twl(struct uirq_board *b);

#ifdef __cplusplus
}
#endif
#endif

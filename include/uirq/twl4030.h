/* SPDX-License-Identifier: MIT */
/*
 * The TWL4030 hardware model (devices layer): four i2c slaves (0x48-0x4B)
 * with the real register map and reset values, the PIH (derived from the
 * modules), the PWR_INT SIH (ISR/IMR per line, EDR, SIH_CTRL with COR and
 * PENDDIS), PM_MASTER STS_HW_CONDITIONS with STS_PWON, the INT1 output and
 * the PWRON input.  Facts: the TWL4030 TRM, Linux's drivers/mfd/twl4030-irq.c
 * and QEMU's TWL4030 model.
 */
#ifndef UIRQ_TWL4030_H
#define UIRQ_TWL4030_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/i2c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slave addresses and the registers the drivers use (absolute, per slave). */
#define TWL4030_ADDR_USB		0x48
#define TWL4030_ADDR_AUDIO		0x49
#define TWL4030_ADDR_AUX		0x4a
#define TWL4030_ADDR_POWER		0x4b
#define TWL4030_PIH_ISR_P1		0x81	/* on 0x49 */
#define TWL4030_PIH_ISR_P2		0x82
#define TWL4030_PWR_ISR1		0x2e	/* on 0x4b */
#define TWL4030_PWR_IMR1		0x2f
#define TWL4030_PWR_ISR2		0x30
#define TWL4030_PWR_IMR2		0x31
#define TWL4030_PWR_SIR			0x32
#define TWL4030_PWR_EDR1		0x33
#define TWL4030_PWR_EDR2		0x34
#define TWL4030_PWR_SIH_CTRL		0x35
#define TWL4030_STS_HW_CONDITIONS	0x45	/* PM_MASTER + 0x0f */
#define TWL4030_STS_PWON		0x01
#define TWL4030_SIH_CTRL_EXCLEN		0x01
#define TWL4030_SIH_CTRL_PENDDIS	0x02
#define TWL4030_SIH_CTRL_COR		0x04
#define TWL4030_PIH_PWR_INT		5	/* PIH bit of the PWR_INT module */

struct twl4030;

/* INT1 changes: asserted = the (active-low) pin is driven low. Called with no model lock held. */
typedef void (*twl4030_int_fn)(bool asserted, void *arg);

/* Create the model at its reset values and attach its four slaves to sim; 0 or -errno. */
int twl4030_create(struct uirq_i2c_sim *sim, struct twl4030 **out);
/* Detach and free the model. */
void twl4030_destroy(struct twl4030 *t);
/* Wire INT1 to fn (called at once with the current state). */
void twl4030_connect_int1(struct twl4030 *t, twl4030_int_fn fn, void *arg);
/* Drive the PWRON input: pressed true is the press edge, false the release edge. */
void twl4030_set_pwron(struct twl4030 *t, bool pressed);
/* Whether INT1 is asserted now. */
bool twl4030_int1_asserted(struct twl4030 *t);
/* Read a register without bus traffic or side effects (for tests and tools). */
uint8_t twl4030_peek(struct twl4030 *t, uint16_t addr, uint8_t reg);
/* The PWRON input's level now: true while the button is held. */
bool twl4030_get_pwron(struct twl4030 *t);
/*
 * How many PWRON changes the last read of STS_HW_CONDITIONS over the bus
 * had seen: the level it returned is the one the Nth twl4030_set_pwron()
 * that changed it left (0: the reset level, released).  Read it while that
 * transfer still holds the bus (the adapter's trace hook), and it names the
 * edge an event of the read answers - not a time, which a later edge can
 * share.
 */
unsigned long twl4030_pwron_seen(struct twl4030 *t);
/* The name of a register the model knows ("PWR_ISR1", "STS_HW_CONDITIONS", ...), or NULL. */
const char *twl4030_reg_name(uint16_t addr, uint8_t reg);

#ifdef __cplusplus
}
#endif
#endif

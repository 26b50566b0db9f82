// SPDX-License-Identifier: MIT
/*
 * The default board: an OMAP-INTC-like controller on software lines, the
 * TWL4030 on a simulated i2c bus, and its INT1 pin wired to INTC input 7
 * (SYS_NIRQ on OMAP3).  Hardware only: drivers are probed on it apart.
 *
 * INT1 is active low and level: the INTC input is configured LEVEL_LOW and
 * driven with the model's logical "asserted", as swirq levels are logical
 * and the type's polarity is the wire's business.
 */
#include <errno.h>
#include <stdlib.h>

#include "uirq/board.h"

struct uirq_board {
	struct uirq_swirq *intc;
	struct uirq_i2c_sim *sim;
	struct twl4030 *twl;
	unsigned int twl_irq;
};

/* The INT1 wire. */
static void board_twl_int1(bool asserted, void *arg)
{
	struct uirq_board *b = arg;

	uirq_swirq_set_level(b->intc, UIRQ_BOARD_TWL_HOST_LINE, asserted);
}

int uirq_board_create(const struct uirq_board_config *cfg, struct uirq_board **out)
{
	unsigned long bus_hz = cfg && cfg->bus_hz ? cfg->bus_hz : UIRQ_BOARD_DEFAULT_BUS_HZ;
	unsigned int lines = cfg && cfg->intc_lines ? cfg->intc_lines : 32;
	struct uirq_swirq_config icfg = { .name = "INTC", .nr_inputs = lines };
	struct uirq_board *b;
	int ret;

	if (!out || lines <= UIRQ_BOARD_TWL_HOST_LINE)
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	ret = uirq_swirq_create(&icfg, &b->intc);
	if (ret)
		goto err_free;
	ret = uirq_swirq_map(b->intc, UIRQ_BOARD_TWL_HOST_LINE);
	if (ret < 0)
		goto err_intc;
	b->twl_irq = (unsigned int)ret;
	ret = uirq_swirq_set_type(b->intc, UIRQ_BOARD_TWL_HOST_LINE, UIRQ_TYPE_LEVEL_LOW);
	if (ret)
		goto err_intc;
	ret = uirq_i2c_sim_new("OMAP I2C adapter", bus_hz, &b->sim);
	if (ret)
		goto err_intc;
	ret = twl4030_create(b->sim, &b->twl);
	if (ret)
		goto err_sim;
	/* Out of reset PWRON is pending and unmasked: INT1 is already low. */
	twl4030_connect_int1(b->twl, board_twl_int1, b);
	*out = b;
	return 0;

err_sim:
	uirq_i2c_sim_free(b->sim);
err_intc:
	uirq_swirq_destroy(b->intc);
err_free:
	free(b);
	return ret;
}

void uirq_board_destroy(struct uirq_board *b)
{
	if (!b)
		return;
	twl4030_destroy(b->twl);
	uirq_i2c_sim_free(b->sim);
	uirq_swirq_destroy(b->intc);
	free(b);
}

struct uirq_swirq *uirq_board_intc(struct uirq_board *b)
{
	return b->intc;
}

unsigned int uirq_board_twl_irq(struct uirq_board *b)
{
	return b->twl_irq;
}

struct uirq_i2c_sim *uirq_board_i2c_sim(struct uirq_board *b)
{
	return b->sim;
}

struct uirq_i2c_adapter *uirq_board_i2c(struct uirq_board *b)
{
	return uirq_i2c_sim_adapter(b->sim);
}

struct twl4030 *uirq_board_twl(struct uirq_board *b)
{
	return b->twl;
}

// SPDX-License-Identifier: MIT
/*
 * The board your driver runs on, in a program of your own: a model of the
 * chip (its registers on a simulated i2c bus, with the bus's wire time,
 * and its interrupt output on a software interrupt controller), a
 * device-tree node that binds the driver with its properties and
 * interrupt, then the kernel's boot (the modules' init), a user pressing
 * the button, and an evtest-style reader.
 *
 * Build it with the driver (see README.md, "Your driver on uirq"):
 *   cc -include compat/uirq-kernel.h $(pkg-config --cflags uirq-compat) -c acme-button.c
 *   cc board.c acme-button.o $(pkg-config --cflags --libs uirq-compat) -o board
 * Run it: ./board [SEED] - with a seed, in the deterministic mode (virtual
 * time, one schedule per seed, replayable).
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/i2c.h>
#include <linux/input.h>
#include <linux/of.h>

#include "uirq/irq.h"
#include "uirq/mutex.h"
#include "uirq/sim.h"
#include "uirq/sources.h"

#define ACME_ADDR	0x20

/* ---- the chip: STATUS at 0x00 (bit 0 the button); INT asserted on a change until STATUS is read ---- */

static struct {
	struct uirq_swirq *intc;	/* the host's interrupt controller; the chip's INT is its input 0 */
	uirq_mutex_t lock;
	bool pressed;
} chip;

static int chip_read(void *priv, uint8_t reg, uint8_t *val)
{
	(void)priv;
	if (reg != 0x00)
		return -EIO;
	uirq_mutex_lock(&chip.lock);
	*val = chip.pressed;
	uirq_swirq_set_level(chip.intc, 0, false);	/* read: INT released */
	uirq_mutex_unlock(&chip.lock);
	return 0;
}

static const struct uirq_i2c_sim_device_ops chip_ops = { .read = chip_read };

static void press(bool down)
{
	uirq_mutex_lock(&chip.lock);
	chip.pressed = down;
	uirq_swirq_set_level(chip.intc, 0, true);
	uirq_mutex_unlock(&chip.lock);
}

/* ---- the board ---- */

int main(int argc, char **argv)
{
	struct uirq_swirq_config icfg = { .name = "INTC", .nr_inputs = 1, .default_type = UIRQ_TYPE_LEVEL_LOW };
	struct i2c_board_info info = { I2C_BOARD_INFO("acme-button", ACME_ADDR) };
	struct uirq_input_client *reader;
	struct uirq_input_event ev[16];
	struct uirq_i2c_sim *bus;
	struct i2c_adapter *adap;
	struct i2c_client *client;
	struct device_node *np;
	struct input_dev *input;
	int n;

	if (argc > 1 && uirq_sim_start(strtoull(argv[1], NULL, 0), UIRQ_SIM_PCT, 3)) {
		fprintf(stderr, "board: cannot start the deterministic mode\n");
		return 1;
	}
	uirq_mutex_init(&chip.lock);
	if (uirq_cpus_start(NULL) || uirq_swirq_create(&icfg, &chip.intc) || uirq_i2c_sim_new("i2c", 400000, &bus) ||
	    uirq_i2c_sim_attach(bus, ACME_ADDR, &chip_ops, NULL)) {
		fprintf(stderr, "board: cannot build the hardware\n");
		return 1;
	}
	/* The device tree's node for the chip: its compatible binds the driver; the interrupt is the INTC's input 0. */
	np = uirq_of_node_new(NULL, "button@20");
	uirq_of_node_add_string(np, "compatible", "acme,button");
	info.of_node = np;
	info.irq = uirq_swirq_map(chip.intc, 0);
	adap = uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(bus));
	client = i2c_new_client_device(adap, &info);
	if (IS_ERR(client) || uirq_compat_modules_init() || !(input = uirq_compat_input_find(&client->dev))) {
		fprintf(stderr, "board: the driver did not bind\n");
		return 1;
	}
	uirq_input_open(uirq_compat_input_dev(input), &reader);

	/* A user: press, hold 5 ms, release. */
	press(true);
	uirq_sim_sleep_ns(5000000);
	press(false);
	uirq_sim_sleep_ns(5000000);
	while ((n = uirq_input_read(reader, ev, 16, UIRQ_INPUT_NONBLOCK)) > 0) {
		for (int i = 0; i < n; i++) {
			char line[160];

			uirq_input_format_event(&ev[i], line, sizeof(line));
			printf("%s\n", line);
		}
	}

	uirq_input_close(reader);
	i2c_unregister_device(client);
	uirq_compat_modules_exit();
	uirq_compat_i2c_adapter_del(adap);
	uirq_i2c_sim_free(bus);
	uirq_swirq_destroy(chip.intc);
	uirq_of_node_free(np);
	uirq_cpus_stop();
	if (argc > 1 && uirq_sim_stop() != UIRQ_SIM_OK) {
		fprintf(stderr, "board: %s\n", uirq_sim_report());
		return 1;
	}
	return 0;
}

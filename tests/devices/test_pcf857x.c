// SPDX-License-Identifier: MIT
/*
 * The PCF8574/PCF8575 model on its own (no CPUs, no driver): writes set
 * the latch, reads return the pins (a latch bit of 0 drives its pin low,
 * a 1 lets outside pull it low), the PCF8575's bytes low port first, and
 * INT asserted exactly while the port differs from what the last read or
 * write left: reset by a read, a write, or the port going back.
 */
#include <errno.h>

#include "harness.h"
#include "pcf857x.h"

#define ADDR	0x20

static struct uirq_i2c_sim *sim;
static struct uirq_swirq *intc;
static struct pcf857x *c;
static struct uirq_i2c_client *cl;

static void make(unsigned int ngpio)
{
	struct uirq_swirq_config cfg = { .name = "pio", .nr_inputs = 4, .default_type = UIRQ_TYPE_EDGE_FALLING };

	assert_eq(uirq_i2c_sim_new("i2c-gpio", 100000, &sim), 0);
	assert_eq(uirq_swirq_create(&cfg, &intc), 0);
	assert_eq(pcf857x_create(sim, ADDR, ngpio, intc, 1, &c), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(sim), "pcf857x", ADDR, &cl), 0);
}

static void setup8(void)
{
	make(8);
}

static void setup16(void)
{
	make(16);
}

static void teardown(void)
{
	uirq_i2c_unregister_device(cl);
	pcf857x_destroy(c);
	assert_eq(uirq_swirq_destroy(intc), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

static struct uirq_swirq_stats pin(void)
{
	struct uirq_swirq_stats st;

	assert_eq(uirq_swirq_get_stats(intc, 1, &st), 0);
	return st;
}

UIRQ_TEST(pcf857x, quasi_bidirectional_pins, .init = setup8, .fini = teardown)
{
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0xff, "power-on: all ones");
	assert_eq(uirq_i2c_smbus_write_byte(cl, 0xf0), 0);
	assert_eq(pcf857x_latch(c), 0xf0);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0xf0, "a latch bit of 0 drives its pin low");
	pcf857x_pull(c, 1, true);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0xf0, "pulling a pin driven low changes nothing");
	pcf857x_pull(c, 6, true);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0xb0, "an input pulled low reads low");
	assert_eq(pcf857x_pins(c), 0xb0);
	/* Each byte of a write is the latch: the last one stays. */
	uint8_t two[2] = { 0x0f, 0xfe };
	assert_eq(uirq_i2c_master_send(cl, two, 2), 2);
	assert_eq(pcf857x_latch(c), 0xfe);
	/* Each byte of a read is the port. */
	uint8_t r[3];
	assert_eq(uirq_i2c_master_recv(cl, r, 3), 3);
	assert_eq(r[0], 0xbc);
	assert_eq(r[2], 0xbc);
	assert_false(pin().asserted, "no input changed since the last transfer");
}

UIRQ_TEST(pcf857x, int_follows_the_port_since_the_last_transfer, .init = setup8, .fini = teardown)
{
	assert_false(pin().asserted);
	pcf857x_pull(c, 3, true);
	assert_true(pin().asserted, "an input changed");
	assert_true(pcf857x_int_asserted(c));
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0xf7);
	assert_false(pin().asserted, "a read resets it");
	pcf857x_pull(c, 3, false);
	assert_true(pin().asserted, "the release is a change too");
	assert_eq(uirq_i2c_smbus_write_byte(cl, 0xff), 0);
	assert_false(pin().asserted, "a write resets it");
	/* A pulse between two transfers: INT goes back with the port. */
	pcf857x_pull(c, 0, true);
	pcf857x_pull(c, 0, false);
	assert_false(pin().asserted, "back to the original setting");
	assert_eq(pin().asserts, 3ul);
	/* Driving an output low is no input change. */
	assert_eq(uirq_i2c_smbus_write_byte(cl, 0x7f), 0);
	assert_false(pin().asserted);
	/* An out-of-range pin is ignored. */
	pcf857x_pull(c, 8, true);
	assert_eq(pcf857x_pins(c), 0x7f);
}

UIRQ_TEST(pcf857x, pcf8575_bytes_low_port_first, .init = setup16, .fini = teardown)
{
	uint8_t w[2] = { 0xfe, 0x7f }, r[4];

	assert_eq(uirq_i2c_master_send(cl, w, 2), 2);
	assert_eq(pcf857x_latch(c), 0x7ffe);
	pcf857x_pull(c, 9, true);
	assert_true(pin().asserted);
	assert_eq(uirq_i2c_master_recv(cl, r, 4), 4);
	assert_eq(r[0], 0xfe);
	assert_eq(r[1], 0x7d);
	assert_eq(r[2], 0xfe, "then the low port again");
	assert_eq(r[3], 0x7d);
	assert_false(pin().asserted);
	/* One byte: the low half of the latch only. */
	w[0] = 0x00;
	assert_eq(uirq_i2c_master_send(cl, w, 1), 1);
	assert_eq(pcf857x_latch(c), 0x7f00);
}

UIRQ_TEST(pcf857x, refused)
{
	struct uirq_swirq_config cfg = { .name = "pio", .nr_inputs = 1 };
	struct pcf857x *x;

	assert_eq(uirq_i2c_sim_new("i2c-gpio", 100000, &sim), 0);
	assert_eq(uirq_swirq_create(&cfg, &intc), 0);
	assert_eq(pcf857x_create(sim, ADDR, 12, intc, 0, &x), -EINVAL, "8 or 16 lines");
	assert_eq(pcf857x_create(sim, ADDR, 8, intc, 1, &x), -EINVAL, "no such input");
	assert_eq(pcf857x_create(sim, ADDR, 8, intc, 0, &c), 0);
	assert_eq(pcf857x_create(sim, ADDR, 8, intc, 0, &x), -EBUSY, "the address is taken");
	pcf857x_destroy(c);
	assert_eq(uirq_swirq_destroy(intc), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

// SPDX-License-Identifier: MIT
/*
 * The ZET6223 model on its own (no CPUs, no driver): the info command,
 * the touch report's layout byte for byte, and INT low from a scan until
 * the host reads the report, strobed for a report replaced before it was
 * read.
 */
#include <errno.h>

#include "harness.h"
#include "zet6223.h"

static struct uirq_i2c_sim *sim;
static struct uirq_swirq *intc;
static struct zet6223 *z;
static struct uirq_i2c_client *cl;

static void setup(void)
{
	struct uirq_swirq_config cfg = { .name = "pio", .nr_inputs = 4, .default_type = UIRQ_TYPE_EDGE_FALLING };

	assert_eq(uirq_i2c_sim_new("i2c-touch", 400000, &sim), 0);
	assert_eq(uirq_swirq_create(&cfg, &intc), 0);
	assert_eq(zet6223_create(sim, ZET6223_ADDR, 5, 1023, 599, intc, 2, &z), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(sim), "zet6223", ZET6223_ADDR, &cl), 0);
}

static void teardown(void)
{
	uirq_i2c_unregister_device(cl);
	zet6223_destroy(z);
	assert_eq(uirq_swirq_destroy(intc), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

#define MODEL .init = setup, .fini = teardown

static struct uirq_swirq_stats pin(void)
{
	struct uirq_swirq_stats st;

	assert_eq(uirq_swirq_get_stats(intc, 2, &st), 0);
	return st;
}

UIRQ_TEST(zet6223, info_answers_the_command, MODEL)
{
	uint8_t cmd = ZET6223_CMD_INFO, info[ZET6223_INFO_LEN];

	assert_eq(uirq_i2c_master_send(cl, &cmd, 1), 1);
	assert_eq(uirq_i2c_master_recv(cl, info, sizeof(info)), (int)sizeof(info));
	assert_eq(info[8] | info[9] << 8, 1023, "X resolution, little endian");
	assert_eq(info[10] | info[11] << 8, 599);
	assert_eq(info[15] & 0x7f, 5, "fingers");
	/* Answered once: the next read is a touch report. */
	assert_eq(uirq_i2c_master_recv(cl, info, 3), 3);
	assert_eq(info[0], ZET6223_PACKET_ID);
	assert_eq(zet6223_reports_read(z), 1ul);
	assert_false(pin().asserted, "no scan: INT stays high");
}

UIRQ_TEST(zet6223, report_layout, MODEL)
{
	const struct zet6223_touch t[3] = {
		{ .down = true, .x = 0x123, .y = 0x2b4, .pressure = 9 },
		{ .down = false },
		{ .down = true, .x = 0x3ff, .y = 0x001, .pressure = 7 },
	};
	uint8_t r[ZET6223_REPORT_LEN(5)];

	zet6223_scan(z, t, 3);
	assert_eq(uirq_i2c_master_recv(cl, r, sizeof(r)), (int)sizeof(r));
	assert_eq(r[0], 0x3c);
	assert_eq(r[1] << 8 | r[2], 0x8000 | 0x2000, "fingers 0 and 2: bits 15 and 13");
	/* Finger i at 3 + 4 i: X and Y bits 11..8 in one byte, then their low bytes, then pressure. */
	assert_eq(r[3], 0x12);
	assert_eq(r[4], 0x23);
	assert_eq(r[5], 0xb4);
	assert_eq(r[6], 9);
	for (int i = 7; i < 11; i++)
		assert_eq(r[i], 0, "finger 1 is up: its bytes are 0");
	assert_eq(r[11], 0x30);
	assert_eq(r[12], 0xff);
	assert_eq(r[13], 0x01);
	assert_eq(r[14], 7);
	/* A longer read than the report is zero-filled. */
	uint8_t big[80];

	zet6223_scan(z, t, 1);
	assert_eq(uirq_i2c_master_recv(cl, big, sizeof(big)), (int)sizeof(big));
	assert_eq(big[1] << 8 | big[2], 0x8000);
	assert_eq(big[79], 0);
}

UIRQ_TEST(zet6223, int_low_until_the_report_is_read, MODEL)
{
	const struct zet6223_touch t = { .down = true, .x = 10, .y = 20 };
	uint8_t r[ZET6223_REPORT_LEN(5)];

	zet6223_scan(z, &t, 1);
	assert_true(zet6223_int_asserted(z));
	assert_true(pin().asserted);
	assert_eq(pin().edges, 1ul);
	/* Another scan before the host read: the newest report, INT strobed - an edge, still low. */
	zet6223_scan(z, &t, 1);
	assert_eq(pin().edges, 2ul);
	assert_true(pin().asserted);
	assert_eq(uirq_i2c_master_recv(cl, r, sizeof(r)), (int)sizeof(r));
	assert_false(pin().asserted, "read: INT high again");
	assert_false(zet6223_int_asserted(z));
	/* The lift: a report with no finger, its own edge. */
	zet6223_scan(z, NULL, 0);
	assert_eq(pin().edges, 3ul);
	assert_eq(uirq_i2c_master_recv(cl, r, sizeof(r)), (int)sizeof(r));
	assert_eq(r[1] | r[2], 0);
	assert_eq(zet6223_reports_read(z), 2ul);
}

UIRQ_TEST(zet6223, create_errors, .timeout = 10)
{
	struct uirq_i2c_sim *s;
	struct uirq_swirq *c;
	struct uirq_swirq_config cfg = { .nr_inputs = 1 };
	struct zet6223 *a, *b;

	assert_eq(uirq_i2c_sim_new("i2c", 400000, &s), 0);
	assert_eq(uirq_swirq_create(&cfg, &c), 0);
	assert_eq(zet6223_create(s, ZET6223_ADDR, 0, 1, 1, c, 0, &a), -EINVAL);
	assert_eq(zet6223_create(s, ZET6223_ADDR, ZET6223_MAX_FINGERS + 1, 1, 1, c, 0, &a), -EINVAL);
	assert_eq(zet6223_create(s, ZET6223_ADDR, 2, 1, 1, c, 0, &a), 0);
	assert_eq(zet6223_create(s, ZET6223_ADDR, 2, 1, 1, c, 0, &b), -EBUSY, "the address is taken");
	zet6223_destroy(a);
	assert_eq(uirq_swirq_destroy(c), 0);
	assert_eq(uirq_i2c_sim_free(s), 0);
}

// SPDX-License-Identifier: MIT
/*
 * The kernel's drivers/input/touchscreen/zet6223.c, unmodified, with
 * drivers/input/touchscreen.c, on a ZET6223 model (devices/zet6223.c):
 * probed from a device-tree node on the simulated i2c bus, its interrupt a
 * falling-edge swirq input, its threaded handler reading each report with
 * i2c_master_recv() and reporting contacts in multi-touch slots, which an
 * evdev-style reader gets with the pointer emulation of an INPUT_MT_DIRECT
 * device.  Every test runs over UP_SEEDS seeds; lockdep stays silent and
 * everything is freed.
 *
 * What the driver reports is asserted as the kernel's driver computes it,
 * including where that is not what the finger did (each such place names
 * the driver's line and why).
 */
#include <linux/regulator/consumer.h>

#include "board.h"
#include "zet6223.h"

#define LINE		3		/* the controller input INT is wired to */
#define FINGERS		5
#define MAX_X		1023
#define MAX_Y		599
#define OPTS		.timeout = 300

static struct zet6223 *chip;

static void destroy_chip(void)
{
	zet6223_destroy(chip);
}

/* The board up to the driver: the chip, its node (and the properties props adds), not yet probed. */
static void board(unsigned int cpus, void (*props)(struct device_node *np))
{
	up_begin(cpus);
	up_line(LINE, UIRQ_TYPE_EDGE_FALLING);	/* interrupts = <... IRQ_TYPE_EDGE_FALLING> */
	assert_eq(zet6223_create(ub.sim, ZET6223_ADDR, FINGERS, MAX_X, MAX_Y, ub.intc, LINE, &chip), 0);
	up_node("touchscreen@76", "zeitec,zet6223", ZET6223_ADDR);
	if (props)
		props(ub.np);
}

static void probe(void)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("zet6223", ZET6223_ADDR), .of_node = ub.np, .irq = (int)ub.irq };

	up_probe(&info);
}

/* The usual run: probed, and a reader has the device open (zet6223_start(): the interrupt enabled). */
static void begin(unsigned int cpus)
{
	board(cpus, NULL);
	probe();
	up_open();
}

static void end(void)
{
	up_end(destroy_chip);
}

/* A scan of fingers t[0 .. n - 1], then time for the driver's thread to read and report it. */
static void scan(const struct zet6223_touch *t, unsigned int n)
{
	zet6223_scan(chip, t, n);
	/* 3 + 4 * 5 bytes at 400 kHz are 0.6 ms of wire; the sleep is virtual: it ends once all is quiet. */
	up_sleep_ms(5);
}

static void touch(uint16_t x, uint16_t y)
{
	const struct zet6223_touch t = { .down = true, .x = x, .y = y, .pressure = 9 };

	scan(&t, 1);
}

static void lift_all(void)
{
	scan(NULL, 0);
}

static bool has(const unsigned long *map, unsigned int bit)
{
	return (map[bit / UIRQ_BITS_PER_LONG] >> (bit % UIRQ_BITS_PER_LONG)) & 1;
}

static struct uirq_input_absinfo absinfo(unsigned int axis)
{
	struct uirq_input_absinfo a;

	assert_eq(uirq_input_get_absinfo(up_input(), axis, &a), 0, "axis %u", axis);
	return a;
}

/*
 * Probe as the kernel's: supplies (the dummy, enabled), the panel's info
 * read, a direct multi-touch device with the chip's ranges and finger
 * count, the interrupt requested and disabled until a reader opens.
 */
static void probe_begin(unsigned int cpus)
{
	board(cpus, NULL);
	probe();
}

SIM_TEST_SEEDS(zet6223, probe_as_the_kernels, UP_SEEDS, probe_begin, end, OPTS)
{
	struct uirq_input_dev *in = up_input();
	const struct device *dev = &ub.client->dev;

	assert_str_eq(in->name, "zet6223", "input->name = client->name");
	assert_eq(in->id.bustype, BUS_I2C);
	assert_true(has(in->propbit, INPUT_PROP_DIRECT));
	assert_true(has(in->keybit, BTN_TOUCH));
	assert_eq(absinfo(ABS_MT_POSITION_X).maximum, MAX_X);
	assert_eq(absinfo(ABS_MT_POSITION_Y).maximum, MAX_Y);
	assert_eq(absinfo(ABS_X).maximum, MAX_X, "the emulated pointer's axis");
	assert_eq(absinfo(ABS_MT_SLOT).maximum, FINGERS - 1, "a slot per finger the chip reports");
	assert_true(up_logged("supply vio not found, using dummy regulator"));
	assert_true(up_logged("supply vcc not found, using dummy regulator"));
	assert_eq(uirq_regulator_enable_count(dev, "vio"), 1);
	assert_eq(uirq_regulator_enable_count(dev, "vcc"), 1);
	/* Closed: the interrupt is disabled, a scan waits, INT low. */
	touch(100, 200);
	assert_eq(zet6223_reports_read(chip), 0ul);
	assert_true(zet6223_int_asserted(chip));
	/* Opened: enable_irq() resends the edge that came while it was disabled. */
	up_open();
	up_sleep_ms(5);
	assert_eq(zet6223_reports_read(chip), 1ul);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 100), ABS(ABS_MT_POSITION_Y, 200),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 100), ABS(ABS_Y, 200), SYN);
	/* Unbound: the power-off action gave both supplies back, and they were put. */
	up_close();
	i2c_unregister_device(ub.client);
	ub.client = NULL;
	assert_eq(uirq_regulator_enable_count(dev, "vio"), -ENODEV);
}

/* One finger: down, moving, staying, lifted - protocol B with the pointer following it. */
SIM_TEST_SEEDS(zet6223, one_finger, UP_SEEDS, begin, end, OPTS)
{
	touch(100, 200);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 100), ABS(ABS_MT_POSITION_Y, 200),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 100), ABS(ABS_Y, 200), SYN);
	touch(140, 205);
	EXPECT(ub.reader, ABS(ABS_MT_POSITION_X, 140), ABS(ABS_MT_POSITION_Y, 205), ABS(ABS_X, 140),
	       ABS(ABS_Y, 205), SYN);
	touch(140, 205);	/* held still: the core drops what did not change, and the empty frame */
	EXPECT_NOTHING(ub.reader);
	lift_all();
	/* INPUT_MT_DROP_UNUSED: a report without the finger lifts its contact. */
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, -1), KEY(BTN_TOUCH, 0), SYN);
	touch(300, 30);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 1), ABS(ABS_MT_POSITION_X, 300), ABS(ABS_MT_POSITION_Y, 30),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 300), ABS(ABS_Y, 30), SYN);
	assert_eq(zet6223_reports_read(chip), 5ul);
}

/*
 * Two fingers - the driver's bug.  The report holds finger i at 3 + 4 * i
 * (the driver's own buffer size, 3 + 4 * fingernum, says so, and so does
 * Zeitec's driver), but zet6223_irq() decodes finger i from buf[i + 3],
 * buf[i + 4] and buf[i + 5]: right for finger 0, and for finger 1 the
 * bytes of finger 0 - its X low byte, Y low byte and pressure.  So with
 * finger 0 at (100, 200) pressure 9 and finger 1 at (300, 400), slot 1
 * reports X = (0x64 >> 4) << 8 | 0xc8 = 1736 (beyond the axis's 1023) and
 * Y = (0x64 & 0xf) << 8 | 9 = 1033; once finger 0 lifts, its bytes are
 * 0 and finger 1 "jumps" to (0, 0).  Kernel behaviour, byte for byte.
 */
SIM_TEST_SEEDS(zet6223, second_finger_reads_the_first_fingers_bytes, UP_SEEDS, begin, end, OPTS)
{
	struct zet6223_touch t[2] = {
		{ .down = true, .x = 100, .y = 200, .pressure = 9 },
		{ .down = true, .x = 300, .y = 400, .pressure = 7 },
	};

	scan(t, 2);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 100), ABS(ABS_MT_POSITION_Y, 200),
	       ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, 1), ABS(ABS_MT_POSITION_X, 1736),
	       ABS(ABS_MT_POSITION_Y, 1033), KEY(BTN_TOUCH, 1), ABS(ABS_X, 100), ABS(ABS_Y, 200), SYN);
	/* Finger 1 moves: nothing, its own bytes are never read. */
	t[1].x = 350;
	scan(t, 2);
	EXPECT_NOTHING(ub.reader);
	/* Finger 0 moves: "finger 1" moves with it. */
	t[0].x = 116;	/* 0x74 */
	scan(t, 2);
	EXPECT(ub.reader, ABS(ABS_MT_SLOT, 0), ABS(ABS_MT_POSITION_X, 116), ABS(ABS_MT_SLOT, 1),
	       ABS(ABS_MT_POSITION_X, 0x7c8), ABS(ABS_X, 116), SYN);	/* its Y, 0x409, is unchanged */
	/* Finger 0 lifts: slot 0 dropped, slot 1 at (0, 0), the pointer on it. */
	t[0].down = false;
	scan(t, 2);
	EXPECT(ub.reader, ABS(ABS_MT_POSITION_X, 0), ABS(ABS_MT_POSITION_Y, 0), ABS(ABS_MT_SLOT, 0),
	       ABS(ABS_MT_TRACKING_ID, -1), ABS(ABS_X, 0), ABS(ABS_Y, 0), SYN);
	lift_all();
	EXPECT(ub.reader, ABS(ABS_MT_SLOT, 1), ABS(ABS_MT_TRACKING_ID, -1), KEY(BTN_TOUCH, 0), SYN);
}

/* Closed, the driver hears nothing (disable_irq()); reopened, the edge is resent and the newest report read. */
SIM_TEST_SEEDS(zet6223, close_and_reopen, UP_SEEDS, begin, end, OPTS)
{
	touch(10, 20);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 10), ABS(ABS_MT_POSITION_Y, 20),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 10), ABS(ABS_Y, 20), SYN);
	up_close();
	touch(30, 40);
	touch(50, 60);
	assert_eq(zet6223_reports_read(chip), 1ul, "disabled: nothing read");
	up_open();
	up_sleep_ms(5);
	/* The resend of the disabled line's edge, and the controller's latch of the strobe: one read or two. */
	assert_ge(zet6223_reports_read(chip), 2ul, "the newest report read");
	EXPECT(ub.reader, ABS(ABS_MT_POSITION_X, 50), ABS(ABS_MT_POSITION_Y, 60), ABS(ABS_X, 50), ABS(ABS_Y, 60),
	       SYN);
}

/* A failed read: the driver's message, nothing reported; the next report's edge brings it back. */
SIM_TEST_SEEDS(zet6223, read_error_then_recovery, UP_SEEDS, begin, end, OPTS)
{
	assert_eq(uirq_i2c_sim_fail_nth(ub.sim, 1, -EIO), 0);
	touch(10, 20);
	EXPECT_NOTHING(ub.reader);
	assert_true(up_logged("Error reading input data: -5"), "%s", up_log);
	touch(11, 21);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 11), ABS(ABS_MT_POSITION_Y, 21),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 11), ABS(ABS_Y, 21), SYN);
}

/*
 * The binding's properties through touchscreen_parse_properties(): size,
 * fuzz, inversion and swap set the axes the driver advertises.  The
 * driver never applies inversion or swap to its coordinates (it reports
 * with input_event(), not touchscreen_report_pos()), so a panel described
 * as swapped reports X on the axis now advertised with Y's range - the
 * kernel's behaviour for this driver.
 */
static void panel_props(struct device_node *np)
{
	const u32 size_x = 800, size_y = 480, fuzz_x = 4;

	assert_eq(uirq_of_node_add_u32s(np, "touchscreen-size-x", &size_x, 1), 0);
	assert_eq(uirq_of_node_add_u32s(np, "touchscreen-size-y", &size_y, 1), 0);
	assert_eq(uirq_of_node_add_u32s(np, "touchscreen-fuzz-x", &fuzz_x, 1), 0);
	assert_eq(uirq_of_node_add_bool(np, "touchscreen-inverted-x"), 0);
	assert_eq(uirq_of_node_add_bool(np, "touchscreen-swapped-x-y"), 0);
}

static void props_begin(unsigned int cpus)
{
	board(cpus, panel_props);
	probe();
	up_open();
}

SIM_TEST_SEEDS(zet6223, touchscreen_properties, UP_SEEDS, props_begin, end, OPTS)
{
	/* size-x 800 -> X 0..799 fuzz 4, size-y 480 -> Y 0..479; swapped: X's range is Y's and Y's X's. */
	assert_eq(absinfo(ABS_MT_POSITION_X).maximum, 479);
	assert_eq(absinfo(ABS_MT_POSITION_X).fuzz, 0);
	assert_eq(absinfo(ABS_MT_POSITION_Y).maximum, 799);
	assert_eq(absinfo(ABS_MT_POSITION_Y).fuzz, 4);
	assert_eq(absinfo(ABS_X).maximum, 479, "copied after the swap");
	touch(700, 100);
	EXPECT(ub.reader, ABS(ABS_MT_TRACKING_ID, 0), ABS(ABS_MT_POSITION_X, 700), ABS(ABS_MT_POSITION_Y, 100),
	       KEY(BTN_TOUCH, 1), ABS(ABS_X, 700), ABS(ABS_Y, 100), SYN);
	/* Y carries the fuzz of 4 (touchscreen-fuzz-x, swapped): a move of 1 is noise. */
	touch(700, 101);
	EXPECT_NOTHING(ub.reader);
}

/* ---- the driver under a busy panel: the explorer's ground ---- */

#define BUSY_SCANS	20

/* A finger sliding right, a scan every 2 ms, then lifted: a task of the deterministic mode. */
static void *finger(void *arg)
{
	(void)arg;
	for (int i = 0; i < BUSY_SCANS; i++) {
		const struct zet6223_touch t = { .down = true, .x = (uint16_t)(100 + 10 * i), .y = 200 };

		zet6223_scan(chip, &t, 1);
		up_sleep_ms(2);
	}
	zet6223_scan(chip, NULL, 0);
	return NULL;
}

/*
 * The reader closes and opens while the finger moves: zet6223_stop()'s
 * disable_irq() waits out a handler mid-read, zet6223_start()'s
 * enable_irq() resends an edge that came meanwhile.  The last reader sees
 * whole frames with the finger never going back, and the lift: however
 * the steps fell, the newest report is the one read last.
 */
SIM_TEST_SEEDS(zet6223, reader_comes_and_goes_while_touching, UP_SEEDS, begin, end, OPTS)
{
	struct uirq_input_event ev[512];
	int32_t id;
	pthread_t t;
	int n, last_x = -1;

	assert_eq(uirq_sim_thread_create(&t, NULL, finger, NULL, "finger"), 0);
	for (int k = 0; k < 4; k++) {
		up_sleep_ms(7);
		up_close();
		up_sleep_ms(3);
		up_open();
	}
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	up_sleep_ms(10);
	n = frames_read_whole(ub.reader, ev, 512);
	for (int i = 0; i < n; i++) {
		if (ev[i].type == EV_ABS && ev[i].code == ABS_MT_POSITION_X) {
			assert_gt(ev[i].value, last_x, "event %d: the finger only slides right", i);
			last_x = ev[i].value;
		}
	}
	assert_false(uirq_input_key_pressed(up_input(), BTN_TOUCH), "lifted");
	assert_eq(uirq_input_mt_get_value(up_input(), 0, ABS_MT_TRACKING_ID, &id), 0);
	assert_eq(id, -1);
}

/* Unbound while the finger moves: the reader learns the device went, nothing reads the chip after. */
SIM_TEST_SEEDS(zet6223, unbind_while_touching, UP_SEEDS, begin, end, OPTS)
{
	struct uirq_input_event ev[512];
	unsigned long reads;
	pthread_t t;

	assert_eq(uirq_sim_thread_create(&t, NULL, finger, NULL, "finger"), 0);
	up_sleep_ms(15);
	i2c_unregister_device(ub.client);
	ub.client = NULL;
	reads = zet6223_reports_read(chip);
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	up_sleep_ms(10);
	assert_eq(zet6223_reports_read(chip), reads, "no handler after the unbind");
	assert_eq(uirq_input_read(ub.reader, ev, 512, UIRQ_INPUT_NONBLOCK), -ENODEV);
}

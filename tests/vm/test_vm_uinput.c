// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: the uinput bridge (input/uinput.c).  A registered
 * uirq input device mirrored with uirq_uinput_create() appears as a kernel
 * input device with the same identity and capabilities; every frame the
 * uirq core passes - reported from hard-irq context, as a driver's primary
 * handler would - is read back from its /dev/input/eventN with libevdev,
 * in order and each event once; a multi-touch device's axes, slots and
 * frames likewise.  Destroying the mirror removes the node;
 * bad arguments and unregistered devices give the documented errors.
 */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uirq/context.h"
#include "uirq/input.h"
#include "uirq/lockdep.h"

#define NAME "uirq vm pwrbutton"
#define PHYS "twl4030_pwrbutton/input0"
#define CYCLES 200

static struct uirq_input_dev *dev;
static struct uirq_uinput *ui;
static int opens, closes, open_err, reports;

static int on_open(struct uirq_input_dev *d)
{
	(void)d;
	opens++;
	return open_err;
}

static void on_close(struct uirq_input_dev *d)
{
	(void)d;
	closes++;
}

static void on_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)r, (void)arg;
	__atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED);
}

static struct uirq_input_dev *new_dev(const char *name)
{
	struct uirq_input_dev *d;
	assert_eq(uirq_input_allocate_device(&d), 0);

	assert_not_null(d);
	d->name = name;
	d->phys = PHYS;
	d->id.bustype = BUS_I2C;
	d->id.vendor = 0x0451;
	d->id.product = 0x4030;
	d->id.version = 0x0101;
	d->open = on_open;
	d->close = on_close;
	uirq_input_set_capability(d, EV_KEY, KEY_POWER);
	return d;
}

static void setup(void)
{
	int ret;

	uirq_lockdep_set_report_handler(on_report, NULL);
	dev = new_dev(NAME);
	assert_eq(uirq_input_register_device(dev), 0);
	ret = uirq_uinput_create(dev, &ui);
	assert_eq(ret, 0, "uirq_uinput_create: %d (%s)", ret, strerror(-ret));
}

#define OPTS .timeout = 120, .init = setup

/* The mirror's node, opened as evdev makes it (devtmpfs may lag under TCG). */
static int open_node(const char *node)
{
	int fd = -1;

	assert_not_null(node, "no evdev node for the mirror");
	assert_eq(strncmp(node, "/dev/input/event", 16), 0, "node %s", node);
	for (int i = 0; i < 100 && fd < 0; i++) {
		fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			usleep(50000);
	}
	assert_ge(fd, 0, "%s: %s", node, strerror(errno));
	return fd;
}

/* The next event, waiting up to 10 s; SYN_DROPPED (a resync) or a timeout fails. */
static void next_event(struct libevdev *ev, int fd, struct input_event *e)
{
	for (;;) {
		int rc = libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL, e);
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (rc == LIBEVDEV_READ_STATUS_SUCCESS)
			return;
		assert_eq(rc, -EAGAIN, "libevdev_next_event: %d (SYNC is %d)", rc, LIBEVDEV_READ_STATUS_SYNC);
		assert_eq(poll(&p, 1, 10000), 1, "no event within 10 s");
	}
}

/* Nothing more arrives within ms. */
static void assert_quiet(struct libevdev *ev, int fd, int ms)
{
	struct input_event e;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc = libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL, &e);

	assert_eq(rc, -EAGAIN, "unexpected event type %u code %u value %d", e.type, e.code, e.value);
	assert_eq(poll(&p, 1, ms), 0, "unexpected event pending");
}

static void expect(struct libevdev *ev, int fd, unsigned int type, unsigned int code, int value, int cycle)
{
	struct input_event e;

	next_event(ev, fd, &e);
	assert_eq(e.type, type, "cycle %d: type %u, want %u (code %u value %d)", cycle, e.type, type, e.code,
		     e.value);
	assert_eq(e.code, code, "cycle %d: code %u, want %u", cycle, e.code, code);
	assert_eq(e.value, value, "cycle %d: value %d, want %d", cycle, e.value, value);
}

/* Whether a kernel input device is called name (/sys/class/input/input*\/name). */
static bool kernel_has_input(const char *name)
{
	DIR *d = opendir("/sys/class/input");
	struct dirent *e;
	bool found = false;

	assert_not_null(d);
	while (!found && (e = readdir(d))) {
		char path[300], buf[128] = "";
		FILE *f;

		if (strncmp(e->d_name, "input", 5))
			continue;
		snprintf(path, sizeof(path), "/sys/class/input/%s/name", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		found = !strcmp(buf, name);
	}
	closedir(d);
	return found;
}

/* A test's second device d and its mirror u: nothing more came, all of it (and the setup's) goes. */
static void second_mirror_done(struct libevdev *ev, int fd, struct uirq_uinput *u, struct uirq_input_dev *d)
{
	assert_quiet(ev, fd, 200);
	assert_eq(uirq_uinput_write_errors(u), 0);
	libevdev_free(ev);
	close(fd);
	uirq_uinput_destroy(u);
	uirq_input_unregister_device(d);
	uirq_uinput_destroy(ui);
	uirq_input_unregister_device(dev);
}

/* A report as the TWL4030 primary handler makes it: hard-irq context, irqs off. */
static void report_hardirq(struct uirq_input_dev *d, int value)
{
	unsigned long flags = uirq_local_irq_save();

	uirq_hardirq_enter();
	uirq_input_report_key(d, KEY_POWER, value);
	uirq_input_sync(d);
	uirq_hardirq_exit();
	uirq_local_irq_restore(flags);
}

UIRQ_TEST(vm_uinput, node_and_identity, OPTS)
{
	const char *node = uirq_uinput_devnode(ui);
	struct libevdev *ev = NULL;
	struct stat st;
	int fd = open_node(node);

	assert_eq(stat(node, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	assert_str_eq(libevdev_get_name(ev), NAME);
	assert_not_null(libevdev_get_phys(ev));
	assert_str_eq(libevdev_get_phys(ev), PHYS);
	assert_eq(libevdev_get_id_bustype(ev), BUS_I2C);
	assert_eq(libevdev_get_id_vendor(ev), 0x0451);
	assert_eq(libevdev_get_id_product(ev), 0x4030);
	assert_eq(libevdev_get_id_version(ev), 0x0101);
	assert_true(libevdev_has_event_type(ev, EV_SYN));
	assert_true(libevdev_has_event_type(ev, EV_KEY));
	assert_true(libevdev_has_event_code(ev, EV_KEY, KEY_POWER));
	assert_false(libevdev_has_event_code(ev, EV_KEY, KEY_VOLUMEUP), "only the device's capabilities");
	assert_false(libevdev_has_event_type(ev, EV_REL));
	assert_eq(opens, 1, "the mirror is a user of the device");
	libevdev_free(ev);
	close(fd);
	uirq_uinput_destroy(ui);
	assert_eq(closes, 1);
	uirq_input_unregister_device(dev);
}

UIRQ_TEST(vm_uinput, press_release_cycles_in_order, OPTS)
{
	struct libevdev *ev = NULL;
	int fd = open_node(uirq_uinput_devnode(ui));
	struct uirq_input_client *c;
	struct uirq_input_event uev[4];

	assert_eq(uirq_input_open(dev, &c), 0);
	assert_not_null(c);
	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	for (int i = 0; i < CYCLES; i++) {
		report_hardirq(dev, 1);
		/* Reported again while down: the core drops it, so the kernel never sees it. */
		report_hardirq(dev, 1);
		report_hardirq(dev, 0);
		expect(ev, fd, EV_KEY, KEY_POWER, 1, i);
		expect(ev, fd, EV_SYN, SYN_REPORT, 0, i);
		expect(ev, fd, EV_KEY, KEY_POWER, 0, i);
		expect(ev, fd, EV_SYN, SYN_REPORT, 0, i);
		/* The uirq client got the same frames. */
		assert_eq(uirq_input_read(c, uev, 4, UIRQ_INPUT_NONBLOCK), 4);
		assert_eq(uev[0].value, 1);
		assert_eq(uev[2].value, 0);
		assert_eq(uirq_input_read(c, uev, 4, UIRQ_INPUT_NONBLOCK), -EAGAIN);
	}
	assert_quiet(ev, fd, 200);
	assert_eq(uirq_uinput_write_errors(ui), 0);
	assert_eq(__atomic_load_n(&reports, __ATOMIC_RELAXED), 0, "lockdep reports");
	libevdev_free(ev);
	close(fd);
	uirq_input_close(c);
	uirq_uinput_destroy(ui);
	uirq_input_unregister_device(dev);
}

/* Frames from process context, several events each, and a frame the core splits. */
UIRQ_TEST(vm_uinput, frames_from_process_context, OPTS)
{
	struct uirq_input_dev *d = new_dev("uirq vm keys");
	struct uirq_uinput *u;
	struct libevdev *ev = NULL;
	int fd;

	uirq_input_set_capability(d, EV_KEY, KEY_VOLUMEUP);
	uirq_input_set_capability(d, EV_SW, SW_LID);
	assert_eq(uirq_input_register_device(d), 0);
	assert_eq(uirq_uinput_create(d, &u), 0);
	fd = open_node(uirq_uinput_devnode(u));
	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	assert_true(libevdev_has_event_code(ev, EV_SW, SW_LID));
	assert_true(libevdev_has_event_code(ev, EV_KEY, KEY_VOLUMEUP));

	uirq_input_report_key(d, KEY_POWER, 1);
	uirq_input_report_key(d, KEY_VOLUMEUP, 1);
	uirq_input_report_switch(d, SW_LID, 1);
	uirq_input_sync(d);
	uirq_input_report_switch(d, SW_LID, 0);
	uirq_input_report_key(d, KEY_VOLUMEUP, 0);
	uirq_input_report_key(d, KEY_POWER, 0);
	uirq_input_sync(d);
	expect(ev, fd, EV_KEY, KEY_POWER, 1, 0);
	expect(ev, fd, EV_KEY, KEY_VOLUMEUP, 1, 0);
	expect(ev, fd, EV_SW, SW_LID, 1, 0);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 0);
	expect(ev, fd, EV_SW, SW_LID, 0, 1);
	expect(ev, fd, EV_KEY, KEY_VOLUMEUP, 0, 1);
	expect(ev, fd, EV_KEY, KEY_POWER, 0, 1);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 1);
	second_mirror_done(ev, fd, u, d);
}

/*
 * A touchscreen mirrored: its properties, axes (ranges, resolution, the
 * fuzz left 0: what is written was filtered already) and slots; protocol B
 * frames arrive as the uirq core passed them, and the kernel's own slot
 * state, which libevdev tracks, follows them.
 */
UIRQ_TEST(vm_uinput, multi_touch_mirrored, OPTS)
{
	struct uirq_input_dev *d;
	struct uirq_uinput *u;
	struct libevdev *ev = NULL;
	const struct input_absinfo *a;
	int fd;

	assert_eq(uirq_input_allocate_device(&d), 0);
	d->name = "uirq vm touch";
	d->id.bustype = BUS_I2C;
	assert_eq(uirq_input_set_abs_params(d, ABS_MT_POSITION_X, 0, 1023, 4, 0), 0);
	assert_eq(uirq_input_set_abs_params(d, ABS_MT_POSITION_Y, 0, 767, 4, 0), 0);
	d->absinfo[ABS_MT_POSITION_X].resolution = 10;
	assert_eq(uirq_input_mt_init_slots(d, 4, UIRQ_INPUT_MT_DIRECT | UIRQ_INPUT_MT_DROP_UNUSED), 0);
	assert_eq(uirq_input_register_device(d), 0);
	assert_eq(uirq_uinput_create(d, &u), 0);
	fd = open_node(uirq_uinput_devnode(u));
	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	assert_true(libevdev_has_property(ev, INPUT_PROP_DIRECT));
	assert_true(libevdev_has_event_code(ev, EV_KEY, BTN_TOUCH));
	assert_eq(libevdev_get_num_slots(ev), 4);
	a = libevdev_get_abs_info(ev, ABS_MT_POSITION_X);
	assert_not_null(a);
	assert_eq(a->maximum, 1023);
	assert_eq(a->resolution, 10);
	assert_eq(a->fuzz, 0);
	assert_not_null(libevdev_get_abs_info(ev, ABS_X), "the emulated pointer's axes");

	uirq_input_mt_slot(d, 1);
	uirq_input_mt_report_slot_state(d, MT_TOOL_FINGER, true);
	uirq_input_report_abs(d, ABS_MT_POSITION_X, 500);
	uirq_input_report_abs(d, ABS_MT_POSITION_Y, 300);
	uirq_input_mt_sync_frame(d);
	uirq_input_sync(d);
	expect(ev, fd, EV_ABS, ABS_MT_SLOT, 1, 0);
	expect(ev, fd, EV_ABS, ABS_MT_TRACKING_ID, 0, 0);
	expect(ev, fd, EV_ABS, ABS_MT_POSITION_X, 500, 0);
	expect(ev, fd, EV_ABS, ABS_MT_POSITION_Y, 300, 0);
	expect(ev, fd, EV_KEY, BTN_TOUCH, 1, 0);
	expect(ev, fd, EV_ABS, ABS_X, 500, 0);
	expect(ev, fd, EV_ABS, ABS_Y, 300, 0);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 0);
	assert_eq(libevdev_get_slot_value(ev, 1, ABS_MT_POSITION_X), 500);
	/*
	 * A move of 6, within twice uirq's fuzz of 4: the kernel's filter goes
	 * half the way (503), and the kernel passes that as it is (the mirror's
	 * fuzz is 0, as is the emulated pointer's: it copies the contact's).
	 */
	uirq_input_mt_slot(d, 1);
	uirq_input_mt_report_slot_state(d, MT_TOOL_FINGER, true);
	uirq_input_report_abs(d, ABS_MT_POSITION_X, 506);
	uirq_input_mt_sync_frame(d);
	uirq_input_sync(d);
	expect(ev, fd, EV_ABS, ABS_MT_POSITION_X, 503, 1);
	expect(ev, fd, EV_ABS, ABS_X, 503, 1);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 1);
	uirq_input_mt_sync_frame(d);
	uirq_input_sync(d);
	expect(ev, fd, EV_ABS, ABS_MT_TRACKING_ID, -1, 2);
	expect(ev, fd, EV_KEY, BTN_TOUCH, 0, 2);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 2);
	second_mirror_done(ev, fd, u, d);
}

UIRQ_TEST(vm_uinput, destroy_removes_the_node, OPTS)
{
	char *node = strdup(uirq_uinput_devnode(ui));
	struct libevdev *ev = NULL;
	struct input_event e;
	struct stat st;
	int fd = open_node(node), rc, gone = 0;

	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	assert_true(kernel_has_input(NAME));
	assert_eq(harness_fds_on("/dev/uinput"), 1);
	uirq_uinput_destroy(ui);
	assert_eq(harness_fds_on("/dev/uinput"), 0, "the mirror's file is closed");
	assert_eq(closes, 1, "the mirror's use of the device ends");
	for (int i = 0; i < 100 && !gone; i++) {
		gone = stat(node, &st) < 0 && errno == ENOENT;
		if (!gone)
			usleep(50000);
	}
	assert_true(gone, "%s still there", node);
	assert_false(kernel_has_input(NAME), "the kernel device is gone");
	/* A reader of the old node learns the device went. */
	rc = libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL, &e);
	assert_eq(rc, -ENODEV, "read after destroy: %d", rc);
	libevdev_free(ev);
	close(fd);

	/* The uirq device lives on without its mirror. */
	struct uirq_input_client *c;
	struct uirq_input_event uev[2];

	assert_eq(uirq_input_open(dev, &c), 0);
	assert_not_null(c);
	report_hardirq(dev, 1);
	assert_eq(uirq_input_read(c, uev, 2, UIRQ_INPUT_NONBLOCK), 2);
	report_hardirq(dev, 0);
	assert_eq(uirq_input_read(c, uev, 2, UIRQ_INPUT_NONBLOCK), 2);
	uirq_input_close(c);

	/* A new mirror of the same device works again. */
	assert_eq(uirq_uinput_create(dev, &ui), 0);
	fd = open_node(uirq_uinput_devnode(ui));
	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	report_hardirq(dev, 1);
	report_hardirq(dev, 0);
	expect(ev, fd, EV_KEY, KEY_POWER, 1, 0);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 0);
	expect(ev, fd, EV_KEY, KEY_POWER, 0, 0);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 0);
	assert_quiet(ev, fd, 200);
	libevdev_free(ev);
	close(fd);
	uirq_uinput_destroy(ui);
	uirq_input_unregister_device(dev);
	free(node);
}

UIRQ_TEST(vm_uinput, errors, .timeout = 120)
{
	struct uirq_uinput *sentinel = (struct uirq_uinput *)0x1, *u = sentinel;
	struct uirq_input_dev *d = new_dev("uirq vm errors");

	assert_eq(uirq_uinput_create(NULL, &u), -EINVAL);
	assert_eq(uirq_uinput_create(d, NULL), -EINVAL);
	assert_eq(uirq_uinput_create(d, &u), -ENODEV, "not registered yet");
	assert_eq(u, sentinel, "*out untouched on failure");
	assert_null(uirq_uinput_devnode(NULL));
	uirq_uinput_destroy(NULL);	/* ignored */
	assert_eq(opens, 0);

	assert_eq(uirq_input_register_device(d), 0);
	/* dev->open refuses: no mirror, and no kernel device left behind. */
	open_err = -EBUSY;
	assert_eq(uirq_uinput_create(d, &u), -EBUSY);
	assert_eq(u, sentinel);
	assert_false(kernel_has_input("uirq vm errors"), "a refused mirror leaves no kernel device");
	assert_eq(harness_fds_on("/dev/uinput"), 0, "nor an open /dev/uinput");
	open_err = 0;

	uirq_input_unregister_device(d);
	assert_eq(uirq_uinput_create(d, &u), -ENODEV, "unregistered");
	assert_eq(u, sentinel);
}

/* The uirq device unregistered under its mirror: the mirror goes quiet, destroy still works. */
UIRQ_TEST(vm_uinput, device_unregistered_under_the_mirror, OPTS)
{
	struct libevdev *ev = NULL;
	int fd = open_node(uirq_uinput_devnode(ui));

	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	report_hardirq(dev, 1);
	expect(ev, fd, EV_KEY, KEY_POWER, 1, 0);
	expect(ev, fd, EV_SYN, SYN_REPORT, 0, 0);
	uirq_input_unregister_device(dev);
	assert_eq(closes, 1, "closed as it goes");
	report_hardirq(dev, 0);	/* ignored: the device is gone, its memory held by the mirror */
	assert_quiet(ev, fd, 200);
	libevdev_free(ev);
	close(fd);
	uirq_uinput_destroy(ui);
	assert_eq(closes, 1, "not closed twice");
}

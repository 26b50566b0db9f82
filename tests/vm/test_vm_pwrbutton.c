// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: uirq-pwrbutton end to end on a real kernel.  This
 * program is the hardware: it sets or clears STS_PWON in i2c-stub's copy
 * of the TWL4030 PM_MASTER registers (0x4b, register 0x45, bit 0), raises
 * the interrupt of an edu device (the UIO one, or the one bound to
 * vfio-pci, whose MSI the daemon takes with --vfio), and reads what the daemon reports on its
 * /dev/input/eventN.  Every press and release must arrive exactly once and
 * in order, the daemon must stop cleanly on SIGTERM with lockdep silent,
 * and bad set-ups must fail with a clear message and a non-zero exit.
 */
#include "harness.h"
#include "vm-hw.h"

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <libevdev/libevdev.h>
#include <linux/vfio.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DAEMON "uirq-pwrbutton"
#define STUB VM_STUB_NAME
#define STUB_ADDR 0x4b
#define STS_HW_CONDITIONS 0x45
#define STS_PWON 0x01
#define CYCLES 200

struct daemon {
	pid_t pid;
	int out;		/* its stdout */
	int err;		/* its stderr */
	char text[8192];	/* what it printed on stdout so far */
	size_t len;
	char errtext[8192];
	size_t errlen;
};

static void drain(int fd, char *buf, size_t *len, size_t cap)
{
	ssize_t n;

	while (*len + 1 < cap && (n = read(fd, buf + *len, cap - 1 - *len)) > 0)
		*len += (size_t)n;
	buf[*len] = '\0';
}

/* Start the daemon as uid (0: as we are) with stdout on fd out, or on a pipe to d->out if out < 0. */
static void start(struct daemon *d, uid_t uid, int out_fd, char *const argv[])
{
	int out[2] = { -1, out_fd }, err[2];

	memset(d, 0, sizeof(*d));
	if (out_fd < 0)
		assert_eq(pipe(out), 0);
	assert_eq(pipe(err), 0);
	d->pid = fork();
	assert_ge(d->pid, 0);
	if (d->pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		if (out[0] >= 0)
			close(out[0]);
		close(err[0]);
		if (uid && setuid(uid))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (out_fd < 0)
		close(out[1]);
	close(err[1]);
	d->out = out[0] >= 0 ? out[0] : open("/dev/null", O_RDONLY);	/* finish() drains and closes it */
	d->err = err[0];
	fcntl(d->err, F_SETFL, O_NONBLOCK);
}

static void spawn(struct daemon *d, uid_t uid, char *const argv[])
{
	start(d, uid, -1, argv);
}

/* As spawn(), stdout on fd (the caller closes its copy). */
static void spawn_out(struct daemon *d, int fd, char *const argv[])
{
	start(d, 0, fd, argv);
}

/* Wait up to ms for text on the daemon's stdout (it prints whole lines and flushes). */
static bool await_text(struct daemon *d, const char *text, int ms)
{
	struct pollfd p = { .fd = d->out, .events = POLLIN };

	while (!strstr(d->text, text)) {
		ssize_t n;

		if (poll(&p, 1, ms) <= 0)
			return false;
		n = read(d->out, d->text + d->len, sizeof(d->text) - 1 - d->len);
		if (n <= 0)
			return false;
		d->len += (size_t)n;
		d->text[d->len] = '\0';
	}
	return true;
}

/* Wait for the daemon's exit; its status, with everything it printed collected. */
static int finish(struct daemon *d)
{
	int status;

	assert_eq(waitpid(d->pid, &status, 0), d->pid);
	fcntl(d->out, F_SETFL, O_NONBLOCK);
	drain(d->out, d->text, &d->len, sizeof(d->text));
	drain(d->err, d->errtext, &d->errlen, sizeof(d->errtext));
	close(d->out);
	close(d->err);
	return status;
}

/* Run the daemon with argv to its end; its exit code (the test fails on a signal). */
static int run_to_exit(struct daemon *d, uid_t uid, char *const argv[])
{
	int status;

	spawn(d, uid, argv);
	status = finish(d);
	assert_true(WIFEXITED(status), "killed by signal %d", WTERMSIG(status));
	return WEXITSTATUS(status);
}

static int stub_open(void)
{
	int fd = vm_i2c_open(STUB, STUB_ADDR);

	assert_ge(fd, 0, "i2c-stub: %s", strerror(-fd));
	return fd;
}

static volatile uint32_t *edu_bar(void)
{
	volatile uint32_t *bar = vm_edu_bar();

	assert_not_null(bar, "edu BAR 0: %s", strerror(errno));
	return bar;
}

/* The next key frame from evdev within ms: its KEY_POWER value, then SYN_REPORT; -1 if none. */
static int next_key(struct libevdev *ev, int ms)
{
	struct pollfd p = { .fd = libevdev_get_fd(ev), .events = POLLIN };
	struct input_event e;
	int value = -1;

	for (;;) {
		int rc = libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL, &e);

		if (rc == -EAGAIN) {
			if (poll(&p, 1, ms) <= 0)
				return -1;
			continue;
		}
		assert_eq(rc, LIBEVDEV_READ_STATUS_SUCCESS, "libevdev_next_event: %d", rc);
		if (e.type == EV_KEY) {
			assert_eq(e.code, KEY_POWER, "code %u", e.code);
			assert_eq(value, -1, "two key events in one frame");
			value = e.value;
		} else if (e.type == EV_SYN && e.code == SYN_REPORT) {
			assert_ne(value, -1, "an empty frame");
			return value;
		} else {
			assert_fail("unexpected event type %u code %u", e.type, e.code);
		}
	}
}

/* The evdev node from the ready line: "... output /dev/input/eventN". */
static struct libevdev *open_output(struct daemon *d, int *fd)
{
	const char *p = strstr(d->text, "output /dev/input/event");
	char node[64];
	struct libevdev *ev = NULL;

	assert_not_null(p, "ready line without an evdev node: %s", d->text);
	assert_eq(sscanf(p, "output %63s", node), 1);
	*fd = open(node, O_RDONLY | O_NONBLOCK);
	assert_ge(*fd, 0, "%s: %s", node, strerror(errno));
	assert_eq(libevdev_new_from_fd(*fd, &ev), 0);
	assert_str_eq(libevdev_get_name(ev), DAEMON);
	assert_true(libevdev_has_event_code(ev, EV_KEY, KEY_POWER));
	return ev;
}

/*
 * The daemon run with argv, driven through raise() (edu's raise register):
 * every press and release arrives exactly once, in order, and SIGTERM
 * stops it cleanly; its stop line must contain stopped.
 */
/*
 * CYCLES presses and releases, each made by set(down, arg): each must
 * arrive once and in order, and nothing more after them.
 */
static void expect_key_cycles(struct libevdev *ev, void (*set)(int down, void *arg), void *arg)
{
	for (int i = 0; i < CYCLES; i++) {
		for (int down = 1; down >= 0; down--) {
			set(down, arg);
			int value = next_key(ev, 20000);

			assert_eq(value, down, "cycle %d: got %d for a %s", i, value, down ? "press" : "release");
		}
	}
	assert_eq(next_key(ev, 500), -1, "an extra event");
}

struct edu_button {
	int i2c;
	struct daemon *d;
	void (*raise)(struct daemon *d);
};

/* STS_PWON in i2c-stub, then edu's interrupt. */
static void edu_set(int down, void *arg)
{
	struct edu_button *b = arg;

	assert_eq(i2c_smbus_write_byte_data(b->i2c, STS_HW_CONDITIONS, down ? STS_PWON : 0), 0);
	b->raise(b->d);
}

static void press_cycles(char *argv[], void (*raise)(struct daemon *d), const char *stopped)
{
	int i2c = stub_open(), evfd, status;
	struct libevdev *ev;
	struct daemon d;

	assert_eq(i2c_smbus_write_byte_data(i2c, STS_HW_CONDITIONS, 0), 0);
	spawn(&d, 0, argv);
	assert_true(await_text(&d, "ready:", 60000), "no ready line; stdout: %s; stderr: %s", d.text, d.errtext);
	ev = open_output(&d, &evfd);
	expect_key_cycles(ev, edu_set, &(struct edu_button){ .i2c = i2c, .d = &d, .raise = raise });

	assert_eq(kill(d.pid, SIGTERM), 0);
	status = finish(&d);
	assert_true(WIFEXITED(status), "status %#x; stderr: %s", status, d.errtext);
	assert_eq(WEXITSTATUS(status), 0, "status %#x; stderr: %s", status, d.errtext);
	assert_not_null(strstr(d.text, "stopped: 400 interrupts claimed, 0 refused"), "%s", d.text);
	assert_not_null(strstr(d.text, stopped), "%s", d.text);
	assert_not_null(strstr(d.text, "uinput write errors 0; lockdep reports 0"), "%s", d.text);
	assert_null(strstr(d.errtext, "WARNING"), "%s", d.errtext);
	assert_null(strstr(d.errtext, "BUG"), "%s", d.errtext);
	/* The uinput device went with the daemon. */
	struct input_event e;

	assert_eq(libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL, &e), -ENODEV);
	libevdev_free(ev);
	close(evfd);
	close(i2c);
}

static void raise_uio(struct daemon *d)
{
	static volatile uint32_t *bar;

	(void)d;
	if (!bar)
		bar = edu_bar();
	bar[EDU_IRQ_RAISE / 4] = 1;
}

UIRQ_TEST(vm_pwrbutton, presses_arrive_once_in_order_and_sigterm_is_clean, .timeout = 300)
{
	char *argv[] = { DAEMON, "--profile", "edu", "--i2c", STUB, NULL };

	press_cycles(argv, raise_uio, "UIO events");
}

/*
 * The same with uirq's CPU and the handler thread polling before they sleep
 * (--wait adaptive): every press once, in order, and a clean stop.  Not
 * --wait poll: the guest has one CPU, which a SCHED_FIFO thread that never
 * sleeps would keep from everything else.
 */
UIRQ_TEST(vm_pwrbutton, presses_arrive_once_in_order_with_adaptive_wait, .timeout = 300)
{
	char *argv[] = { DAEMON, "--profile", "edu", "--i2c", STUB, "--wait", "adaptive:20000", NULL };

	press_cycles(argv, raise_uio, "UIO events");
}

/*
 * The daemon's VFIO device fd, duplicated into this process (pidfd_getfd):
 * the group is one process's, and once vfio-pci has claimed the BAR for the
 * daemon, the kernel revokes sysfs mappings of it (IO_STRICT_DEVMEM).
 */
static int daemon_vfio_fd(pid_t pid)
{
	char path[64], target[64];
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), fd = -1;

	assert_ge(pidfd, 0, "pidfd_open: %s", strerror(errno));
	for (int n = 0; n < 256 && fd < 0; n++) {
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, n);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (!strcmp(target, "anon_inode:[vfio-device]"))
			fd = (int)syscall(SYS_pidfd_getfd, pidfd, n, 0);
	}
	close(pidfd);
	assert_ge(fd, 0, "no VFIO device fd in the daemon");
	return fd;
}

/* Write edu's raise register through BAR 0's region of the daemon's device fd. */
static void raise_vfio(struct daemon *d)
{
	static int fd = -1;
	static off_t bar0;
	const uint32_t one = 1;

	if (fd < 0) {
		struct vfio_region_info ri = { .argsz = sizeof(ri), .index = VFIO_PCI_BAR0_REGION_INDEX };

		fd = daemon_vfio_fd(d->pid);
		assert_eq(ioctl(fd, VFIO_DEVICE_GET_REGION_INFO, &ri), 0);
		bar0 = (off_t)ri.offset;
	}
	assert_eq(pwrite(fd, &one, sizeof(one), bar0 + EDU_IRQ_RAISE), (ssize_t)sizeof(one));
}

/* The same through the edu bound to vfio-pci: its MSI. */
UIRQ_TEST(vm_pwrbutton, vfio_presses_arrive_once_in_order, .timeout = 300)
{
	char addr[32];

	assert_eq(vm_edu_vfio(addr, sizeof(addr)), 0, "no edu bound to vfio-pci");
	char *argv[] = { DAEMON, "--profile", "edu", "--vfio", addr, "--i2c", STUB, NULL };

	press_cycles(argv, raise_vfio, "VFIO events");
}

/* SIGINT stops it the same way; --output stdout prints evtest's lines instead. */
UIRQ_TEST(vm_pwrbutton, stdout_output_and_sigint, .timeout = 120)
{
	char *argv[] = { DAEMON, "--i2c", STUB, "--output", "stdout", NULL };
	volatile uint32_t *bar = edu_bar();
	int i2c = stub_open(), status;
	struct daemon d;

	spawn(&d, 0, argv);
	assert_true(await_text(&d, "output stdout", 60000), "stdout: %s", d.text);
	assert_eq(i2c_smbus_write_byte_data(i2c, STS_HW_CONDITIONS, STS_PWON), 0);
	bar[EDU_IRQ_RAISE / 4] = 1;
	assert_true(await_text(&d, "code 116 (KEY_POWER), value 1", 20000), "stdout: %s", d.text);
	assert_true(await_text(&d, "SYN_REPORT", 20000), "stdout: %s", d.text);
	assert_eq(kill(d.pid, SIGINT), 0);
	status = finish(&d);
	assert_true(WIFEXITED(status), "status %#x; stderr: %s", status, d.errtext);
	assert_eq(WEXITSTATUS(status), 0, "status %#x; stderr: %s", status, d.errtext);
	assert_not_null(strstr(d.text, "Interrupt: stopped: 1 interrupts claimed"), "%s", d.text);
	close(i2c);
}

UIRQ_TEST(vm_pwrbutton, wrong_address_fails_clearly, .timeout = 60)
{
	char *argv[] = { DAEMON, "--i2c", STUB, "--addr", "0x50", NULL };
	struct daemon d;

	assert_eq(run_to_exit(&d, 0, argv), 1);
	assert_not_null(strstr(d.errtext, "probing the chip at 0x50"), "%s", d.errtext);
	assert_null(strstr(d.text, "ready:"));
}

UIRQ_TEST(vm_pwrbutton, missing_devices_fail_clearly, .timeout = 60)
{
	char *no_uio[] = { DAEMON, "--uio", "/dev/uio7", "--status", "0x24", "--ack", "0x64", "--i2c", STUB, NULL };
	char *no_bus[] = { DAEMON, "--i2c", "/dev/i2c-9", NULL };
	char *no_bar[] = { DAEMON, "--bar", "3", "--i2c", STUB, NULL };
	struct daemon d;

	assert_eq(run_to_exit(&d, 0, no_uio), 1);
	assert_not_null(strstr(d.errtext, "opening /dev/uio7: No such file or directory"), "%s", d.errtext);
	assert_eq(run_to_exit(&d, 0, no_bus), 1);
	assert_not_null(strstr(d.errtext, "opening i2c bus /dev/i2c-9: No such file or directory"), "%s",
			   d.errtext);
	assert_eq(run_to_exit(&d, 0, no_bar), 1);
	assert_not_null(strstr(d.errtext, "mapping region 3 of /dev/uio0"), "%s", d.errtext);
}

UIRQ_TEST(vm_pwrbutton, no_permission_fails_clearly, .timeout = 60)
{
	char *argv[] = { DAEMON, "--i2c", STUB, NULL };
	struct daemon d;

	/* nobody: /dev/uio0 is root's (0600). */
	assert_eq(run_to_exit(&d, 65534, argv), 1);
	assert_not_null(strstr(d.errtext, "Permission denied"), "%s", d.errtext);
	assert_not_null(strstr(d.errtext, "run as root"), "%s", d.errtext);
}

UIRQ_TEST(vm_pwrbutton, usage_errors_exit_2, .timeout = 60)
{
	char *no_i2c[] = { DAEMON, NULL };
	char *bad_bit[] = { DAEMON, "--i2c", STUB, "--bit", "8", NULL };
	char *bad_profile[] = { DAEMON, "--i2c", STUB, "--profile", "gpio", NULL };
	struct daemon d;

	assert_eq(run_to_exit(&d, 0, no_i2c), 2);
	assert_not_null(strstr(d.errtext, "--i2c BUS is required"), "%s", d.errtext);
	assert_eq(run_to_exit(&d, 0, bad_bit), 2);
	assert_eq(run_to_exit(&d, 0, bad_profile), 2);
}

/* Each message names the option at fault; a file that is no UIO device is not a permission problem. */
UIRQ_TEST(vm_pwrbutton, messages_name_the_option_at_fault, .timeout = 60)
{
	char *bad_status[] = { DAEMON, "--uio", "/dev/uio0", "--status", "1", "--ack", "0x64", "--i2c", STUB, NULL };
	char *bad_ack[] = { DAEMON, "--uio", "/dev/uio0", "--status", "0x24", "--ack", "0x66", "--i2c", STUB, NULL };
	char *not_uio[] = { DAEMON, "--uio", "/etc/passwd", "--status", "0x24", "--ack", "0x64", "--i2c", STUB, NULL };
	char *not_vfio[] = { DAEMON, "--profile", "edu", "--vfio", "/etc/passwd", "--i2c", STUB, NULL };
	char *no_vfio[] = { DAEMON, "--profile", "edu", "--vfio", "0000:00:1f.7", "--i2c", STUB, NULL };
	char *both[] = { DAEMON, "--uio", "uio0", "--vfio", "0000:00:1f.7", "--i2c", STUB, NULL };
	/* The bus as the file tried: "97" is /dev/i2c-97. */
	char *no_bus[] = { DAEMON, "--uio", "/dev/uio0", "--status", "0x24", "--ack", "0x64", "--i2c", "97", NULL };
	const struct {
		uid_t uid;
		char **argv;
		int status;
		const char *msg;
	} cases[] = {
		{ 0, bad_status, 2, "--status 1: not an aligned 32-bit register offset" },
		{ 0, bad_ack, 2, "--ack 0x66: not an aligned 32-bit register offset" },
		{ 65534, not_uio, 2, "--uio /etc/passwd: not a UIO device: expected /dev/uioN or uioN" },
		{ 0, not_vfio, 2, "--vfio /etc/passwd: not a PCI device address: expected DDDD:BB:DD.F" },
		{ 0, no_bus, 1, "opening i2c bus /dev/i2c-97: No such file or directory" },
		{ 0, no_vfio, 1, "opening 0000:00:1f.7: No such file or directory" },
		{ 0, both, 2, "--uio and --vfio" },
	};
	struct daemon d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_eq(run_to_exit(&d, cases[i].uid, cases[i].argv), cases[i].status, "%s", cases[i].msg);
		assert_not_null(strstr(d.errtext, cases[i].msg), "%s", d.errtext);
	}
	assert_null(strstr(d.errtext, "run as root"), "%s", d.errtext);
}

/* --gpio CHIP:LINE of gpio-sim's chip: "gpiochipN:line" into buf. */
static void gpio_arg(char *buf, size_t len, unsigned int line)
{
	char chip[64];

	assert_eq(vm_gpio_chip(chip, sizeof(chip)), 0, "no gpio-sim chip: is the module loaded?");
	snprintf(buf, len, "%s:%u", chip, line);
	assert_eq(vm_gpio_pull(line, 0), 0);	/* released */
}

/* gpio-sim's line 5 pulled up (pressed) or down. */
static void gpio5_set(int down, void *arg)
{
	(void)arg;
	assert_eq(vm_gpio_pull(5, down), 0);
}

/* A GPIO button: the line's edges are the interrupt and the key; every press and release once, in order. */
UIRQ_TEST(vm_pwrbutton, gpio_presses_arrive_once_in_order, .timeout = 300)
{
	char gpio[80];
	char *argv[] = { DAEMON, "--gpio", gpio, NULL };
	int evfd, status;
	struct libevdev *ev;
	struct daemon d;

	gpio_arg(gpio, sizeof(gpio), 5);
	spawn(&d, 0, argv);
	assert_true(await_text(&d, "ready:", 60000), "no ready line; stdout: %s", d.text);
	assert_not_null(strstr(d.text, "line 5 (both edges, active high"), "%s", d.text);
	ev = open_output(&d, &evfd);
	expect_key_cycles(ev, gpio5_set, NULL);

	assert_eq(kill(d.pid, SIGTERM), 0);
	status = finish(&d);
	assert_true(WIFEXITED(status), "status %#x; stderr: %s", status, d.errtext);
	assert_eq(WEXITSTATUS(status), 0, "status %#x; stderr: %s", status, d.errtext);
	/* Each edge one interrupt, one report: none lost by the kernel, none merged. */
	assert_not_null(strstr(d.text, "stopped: 400 edges reported, 0 without an event; "
				       "GPIO events 200 rising, 200 falling, 0 lost, 0 merged;"), "%s", d.text);
	assert_not_null(strstr(d.text, "uinput write errors 0; lockdep reports 0"), "%s", d.text);
	assert_null(strstr(d.errtext, "WARNING"), "%s", d.errtext);
	assert_null(strstr(d.errtext, "BUG"), "%s", d.errtext);
	libevdev_free(ev);
	close(evfd);
}

/* --active-low: a falling edge presses; --output stdout prints evtest's lines. */
UIRQ_TEST(vm_pwrbutton, gpio_active_low_on_stdout, .timeout = 120)
{
	char gpio[80];
	char *argv[] = { DAEMON, "--gpio", gpio, "--active-low", "--debounce", "500", "--output", "stdout", NULL };
	int status;
	struct daemon d;

	gpio_arg(gpio, sizeof(gpio), 6);
	assert_eq(vm_gpio_pull(6, 1), 0);	/* high: released, before the daemon starts */
	spawn(&d, 0, argv);
	assert_true(await_text(&d, "output stdout", 60000), "stdout: %s", d.text);
	assert_not_null(strstr(d.text, "active low, debounce 500 us"), "%s", d.text);
	assert_eq(vm_gpio_pull(6, 0), 0);
	assert_true(await_text(&d, "code 116 (KEY_POWER), value 1", 20000), "stdout: %s", d.text);
	assert_eq(vm_gpio_pull(6, 1), 0);
	assert_true(await_text(&d, "code 116 (KEY_POWER), value 0", 20000), "stdout: %s", d.text);
	assert_eq(kill(d.pid, SIGINT), 0);
	status = finish(&d);
	assert_true(WIFEXITED(status), "status %#x; stderr: %s", status, d.errtext);
	assert_eq(WEXITSTATUS(status), 0, "status %#x; stderr: %s", status, d.errtext);
	assert_not_null(strstr(d.text, "stopped: 2 edges reported"), "%s", d.text);
	assert_eq(vm_gpio_pull(6, 0), 0);
}

/*
 * A reader that goes away ends the daemon with a message and exit 1, not
 * a silent death by SIGPIPE: at the first event after it left, or at the
 * ready line when stdout never had a reader.
 */
UIRQ_TEST(vm_pwrbutton, gpio_stdout_reader_gone_exits_1, .timeout = 120)
{
	char gpio[80];
	char *argv[] = { DAEMON, "--gpio", gpio, "--output", "stdout", NULL };
	int status;
	struct daemon d;

	gpio_arg(gpio, sizeof(gpio), 5);
	assert_eq(vm_gpio_pull(5, 0), 0);
	spawn(&d, 0, argv);
	assert_true(await_text(&d, "output stdout", 60000), "stdout: %s", d.text);
	close(d.out);
	d.out = open("/dev/null", O_RDONLY);	/* finish() drains and closes it */
	assert_eq(vm_gpio_pull(5, 1), 0);
	status = finish(&d);
	assert_true(WIFEXITED(status), "status %#x; stderr: %s", status, d.errtext);
	assert_eq(WEXITSTATUS(status), 1, "status %#x; stderr: %s", status, d.errtext);
	assert_not_null(strstr(d.errtext, "writing to standard output failed: Broken pipe"), "%s", d.errtext);
	assert_eq(vm_gpio_pull(5, 0), 0);

	/* No reader from the start: the ready line fails. */
	int p[2];

	assert_eq(pipe(p), 0);
	close(p[0]);
	spawn_out(&d, p[1], argv);
	close(p[1]);
	status = finish(&d);
	assert_true(WIFEXITED(status), "status %#x; stderr: %s", status, d.errtext);
	assert_eq(WEXITSTATUS(status), 1, "status %#x; stderr: %s", status, d.errtext);
	assert_not_null(strstr(d.errtext, "writing to standard output failed: Broken pipe"), "%s", d.errtext);
}

/* Each message names the GPIO argument at fault. */
UIRQ_TEST(vm_pwrbutton, gpio_errors_fail_clearly, .timeout = 60)
{
	char gpio[80], chip[64];
	char *no_line[] = { DAEMON, "--gpio", gpio, NULL };
	char *not_chip[] = { DAEMON, "--gpio", "/dev/null:0", NULL };
	char *no_chip[] = { DAEMON, "--gpio", "/dev/gpiochip97:0", NULL };
	char *no_colon[] = { DAEMON, "--gpio", "gpiochip0", NULL };
	char *with_i2c[] = { DAEMON, "--gpio", "gpiochip0:1", "--i2c", STUB, NULL };
	struct daemon d;

	assert_eq(vm_gpio_chip(chip, sizeof(chip)), 0);
	snprintf(gpio, sizeof(gpio), "%s:%d", chip, VM_GPIO_LINES);
	assert_eq(run_to_exit(&d, 0, no_line), 1);
	assert_not_null(strstr(d.errtext, "no such line on that chip"), "%s", d.errtext);
	assert_eq(run_to_exit(&d, 0, not_chip), 1);
	assert_not_null(strstr(d.errtext, "--gpio /dev/null:0: not a GPIO chip"), "%s", d.errtext);
	assert_eq(run_to_exit(&d, 0, no_chip), 1);
	assert_not_null(strstr(d.errtext, "opening GPIO chip /dev/gpiochip97: No such file or directory"), "%s", d.errtext);
	assert_eq(run_to_exit(&d, 0, no_colon), 2);
	assert_not_null(strstr(d.errtext, "expected CHIP:LINE"), "%s", d.errtext);
	assert_eq(run_to_exit(&d, 0, with_i2c), 2);
	assert_null(strstr(d.text, "ready:"));
}

// SPDX-License-Identifier: MIT
/*
 * uirq-pwrbutton: the uio-pwrbutton driver as a daemon on a real kernel.
 * The uirq CPUs take the UIO or VFIO interrupt, the driver's thread reads the
 * button's level over i2c-dev, and KEY_POWER leaves through uinput (or as
 * evtest's lines on stdout).  With --gpio it runs gpio-pwrbutton instead:
 * the button is a GPIO line whose edges are the interrupt and the level.  SIGTERM/SIGINT tear it down in reverse
 * order: free_irq first, so no handler runs against a half-gone device.
 *
 * Exit status: 0 after a clean stop with lockdep silent, 1 when a device
 * cannot be set up (the message says which and why) or lockdep reported,
 * 2 for a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/input-event-codes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uirq/i2c.h"
#include "uirq/input.h"
#include "uirq/irq.h"
#include "uirq/lockdep.h"
#include "uirq/sources.h"
#include "uirq/uio-pwrbutton.h"
#include "uirq/gpio-pwrbutton.h"

#include "options.h"

#define PROG "uirq-pwrbutton"
#define BUS_I2C 0x18	/* <linux/input.h>'s bus type, which the kernel-compat headers shadow */

struct daemon {
	struct pwrbutton_opts o;
	struct uirq_fd_line *line;
	struct uirq_vfio_dev *vfio;	/* the line is its vector (or INTx) when set */
	const char *source;		/* the device, for messages */
	struct uirq_i2c_adapter *adap;
	struct uirq_input_dev *input;
	bool registered;
	struct uirq_uinput *uinput;
	struct uirq_input_handle printer;
	bool printing;
	struct uio_pwrbutton *pb;
	struct gpio_pwrbutton *gpb;	/* --gpio */
	volatile void *regs;
	size_t regs_size;
};

/* A failed step: what, on what, and the errno's words; a hint for the usual causes. */
static int fail(const char *what, const char *on, int err)
{
	fprintf(stderr, PROG ": %s %s: %s\n", what, on, strerror(-err));
	if (err == -EACCES || err == -EPERM)
		fprintf(stderr, PROG ": run as root, or give this user the device node\n");
	return 1;
}

/*
 * Every line on stdout goes out through here.  SIGPIPE is blocked, not
 * fatal (a reader that went away, as in `uirq-pwrbutton ... | head -1`): a
 * failed write is an error like any other.  It ends the run with a message
 * and exit 1; from a uirq thread it does so by sending the process the
 * SIGPIPE that main() waits for, among the stop signals.  Once: the first
 * failure is the one said.
 */
static atomic_int stdout_errno;

static bool stdout_flush(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	int expected = 0;

	if (atomic_compare_exchange_strong(&stdout_errno, &expected, errno ? errno : EIO))
		kill(getpid(), SIGPIPE);
	return false;
}

/* --output stdout: evtest's lines, one frame at a time, from the reporting context. */
static void print_events(struct uirq_input_handle *h, const struct uirq_input_value *vals, unsigned int count,
			 const struct timespec *time)
{
	(void)h;
	for (unsigned int i = 0; i < count; i++) {
		struct uirq_input_event ev = {
			.time = { .tv_sec = time->tv_sec, .tv_usec = time->tv_nsec / 1000 },
			.type = vals[i].type,
			.code = vals[i].code,
			.value = vals[i].value,
		};
		char line[160];

		uirq_input_format_event(&ev, line, sizeof(line));
		printf("%s\n", line);
	}
	stdout_flush();
}

static int setup_output(struct daemon *d)
{
	int ret;

	ret = uirq_input_allocate_device(&d->input);
	if (ret)
		return fail("allocating", "the input device", ret);
	d->input->name = d->o.name;
	d->input->phys = "uirq-pwrbutton/input0";
	d->input->id.bustype = BUS_I2C;
	uirq_input_set_capability(d->input, EV_KEY, KEY_POWER);
	ret = uirq_input_register_device(d->input);
	if (ret)
		return fail("registering", "the input device", ret);
	d->registered = true;
	if (d->o.output == OUTPUT_STDOUT) {
		d->printer.events = print_events;
		ret = uirq_input_register_handle(d->input, &d->printer);
		if (ret)
			return fail("attaching", "stdout", ret);
		d->printing = true;
		return 0;
	}
	ret = uirq_uinput_create(d->input, &d->uinput);
	if (ret == -ENOENT)
		fprintf(stderr, PROG ": /dev/uinput is missing: modprobe uinput\n");
	return ret ? fail("creating", "the uinput device", ret) : 0;
}

/* --gpio CHIP:LINE: the line's edges are the interrupt and the button's state. */
static int setup_gpio(struct daemon *d)
{
	struct gpio_pwrbutton_config cfg;
	char path[PATH_MAX];
	int ret;

	/* The file tried, in messages: "mychip" is /dev/mychip. */
	ret = uirq_gpio_chip_path(d->o.gpio_chip, path, sizeof(path));
	if (ret)
		return fail("naming GPIO chip", d->o.gpio_chip, ret);
	ret = uirq_gpio_line_create(path, d->o.gpio_line, UIRQ_TYPE_EDGE_BOTH, d->o.debounce_us, &d->line);
	if (ret == -ENOTTY || ret == -EINVAL) {
		/* the kernel's words would be "Inappropriate ioctl" or "Invalid argument" */
		fprintf(stderr, PROG ": --gpio %s:%u: %s\n", d->o.gpio_chip, d->o.gpio_line,
			ret == -ENOTTY ? "not a GPIO chip" : "no such line on that chip");
		return 1;
	}
	if (ret < 0)
		return fail("opening GPIO chip", path, ret);
	ret = setup_output(d);
	if (ret)
		return ret;
	cfg = (struct gpio_pwrbutton_config){ .line = d->line, .active_low = d->o.active_low, .input = d->input };
	ret = gpio_pwrbutton_probe(&cfg, &d->gpb);
	return ret ? fail("requesting the interrupt of", d->o.gpio_chip, ret) : 0;
}

static int map_failed(const struct daemon *d, int err)
{
	fprintf(stderr, PROG ": mapping region %u of %s: %s\n", d->o.bar, d->source, strerror(-err));
	return 1;
}

static int setup_uio(struct daemon *d)
{
	int ret;

	/* The node itself (options.c): "uio3" is /dev/uio3 in messages too. */
	d->source = d->o.uio;
	ret = uirq_uio_line_create(d->o.uio, 0, &d->line);
	if (ret < 0)
		return fail("opening", d->o.uio, ret);
	ret = uirq_uio_line_map(d->line, d->o.bar, &d->regs, &d->regs_size);
	return ret ? map_failed(d, ret) : 0;
}

/* MSI when the device has it (an edge line: nothing to re-enable), else INTx. */
static int setup_vfio(struct daemon *d)
{
	int ret;

	d->source = d->o.vfio;
	/* A malformed address is a usage error already (options.c). */
	ret = uirq_vfio_open(d->o.vfio, &d->vfio);
	if (ret)
		return fail("opening", d->o.vfio, ret);
	ret = uirq_vfio_map(d->vfio, d->o.bar, &d->regs, &d->regs_size);
	if (ret)
		return map_failed(d, ret);
	ret = uirq_vfio_nr_vectors(d->vfio, UIRQ_VFIO_MSI);
	if (ret > 0) {
		ret = uirq_vfio_msi_enable(d->vfio, UIRQ_VFIO_MSI, 1, NULL);
		if (!ret)
			ret = uirq_vfio_msi_line(d->vfio, 0, &d->line);
	} else if (ret == 0) {
		ret = uirq_vfio_intx_line(d->vfio, &d->line);
	}
	return ret < 0 ? fail("setting up the interrupt of", d->o.vfio, ret) : 0;
}

static int setup(struct daemon *d)
{
	struct uio_pwrbutton_config cfg;
	char path[PATH_MAX];
	int ret;

	ret = uirq_cpus_start(NULL);
	if (ret)
		return fail("starting", "the uirq CPUs", ret);
	if (d->o.gpio_chip[0])
		return setup_gpio(d);
	ret = d->o.vfio ? setup_vfio(d) : setup_uio(d);
	if (ret)
		return ret;
	/* The node tried, in messages: bus "1" is /dev/i2c-1. */
	ret = uirq_i2c_dev_path(d->o.i2c, path, sizeof(path));
	if (ret == -ENOENT) {
		fprintf(stderr, PROG ": --i2c %s: no i2c-dev adapter has that name (/sys/class/i2c-dev/i2c-N/name)\n",
			d->o.i2c);
		return 1;
	}
	if (ret)
		return fail("naming i2c bus", d->o.i2c, ret);
	ret = uirq_i2c_dev_open(path, &d->adap);
	if (ret)
		return fail("opening i2c bus", path, ret);
	ret = setup_output(d);
	if (ret)
		return ret;
	cfg = (struct uio_pwrbutton_config){
		.irq = uirq_fd_line_irq(d->line),
		.regs = d->regs,
		.regs_size = d->regs_size,
		.status_off = d->o.status_off,
		.ack_off = d->o.ack_off,
		.adap = d->adap,
		.addr = d->o.addr,
		.reg = d->o.reg,
		.bit = d->o.bit,
		.input = d->input,
	};
	ret = uio_pwrbutton_probe(&cfg, &d->pb);
	if (ret == -EINVAL) {
		fprintf(stderr, PROG ": status 0x%x or ack 0x%x is outside region %u (%zu bytes)\n",
			d->o.status_off, d->o.ack_off, d->o.bar, d->regs_size);
		return 1;
	}
	if (ret) {
		char where[32];

		snprintf(where, sizeof(where), "0x%02x", d->o.addr);
		return fail("probing the chip at", where, ret);
	}
	return 0;
}

/* Undo whatever setup() did, last step first. */
static void teardown(struct daemon *d)
{
	gpio_pwrbutton_remove(d->gpb);
	uio_pwrbutton_remove(d->pb);
	if (d->printing)
		uirq_input_unregister_handle(&d->printer);
	uirq_uinput_destroy(d->uinput);
	if (d->registered)
		uirq_input_unregister_device(d->input);
	else if (d->input)
		uirq_input_free_device(d->input);
	if (d->adap)
		uirq_i2c_dev_close(d->adap);
	if (d->vfio)
		uirq_vfio_close(d->vfio);	/* its line with it */
	else if (d->line)
		uirq_fd_line_destroy(d->line);
	uirq_cpus_stop();
}

static void report_ready(const struct daemon *d)
{
	const char *node = d->uinput ? uirq_uinput_devnode(d->uinput) : NULL;

	if (d->gpb) {
		printf(PROG ": ready: irq %u from GPIO %s line %u (both edges, active %s, debounce %u us), "
		       "output %s\n", uirq_fd_line_irq(d->line), d->o.gpio_chip, d->o.gpio_line,
		       d->o.active_low ? "low" : "high", d->o.debounce_us,
		       d->o.output == OUTPUT_STDOUT ? "stdout" : node ? node : "uinput (no evdev node)");
		stdout_flush();
		return;
	}
	/* One line a supervisor (or a test) can wait for: everything is in place. */
	printf(PROG ": ready: irq %u from %s (region %u, status 0x%x, ack 0x%x), chip 0x%02x on %s "
	       "(register 0x%02x bit %u), output %s\n",
	       uirq_fd_line_irq(d->line), d->source, d->o.bar, d->o.status_off, d->o.ack_off, d->o.addr,
	       d->adap->name, d->o.reg, d->o.bit,
	       d->o.output == OUTPUT_STDOUT ? "stdout" : node ? node : "uinput (no evdev node)");
	stdout_flush();
}

static void report_stop(const struct daemon *d, int sig)
{
	struct uirq_fd_line_stats st = { 0 };
	struct uirq_lockdep_stats ld;
	unsigned long claimed = 0, refused = 0;

	uirq_fd_line_get_stats(d->line, &st);
	uirq_lockdep_get_stats(&ld);
	if (d->gpb) {
		struct uirq_gpio_line_stats gs = { 0 };

		/* Edges the kernel dropped (lost) or merged into one interrupt are said, not hidden. */
		gpio_pwrbutton_counts(d->gpb, &claimed, &refused);
		uirq_gpio_line_get_stats(d->line, &gs);
		printf(PROG ": %s: stopped: %lu edges reported, %lu without an event; GPIO events %lu rising, "
		       "%lu falling, %lu lost, %lu merged; uinput write errors %lu; lockdep reports %lu\n",
		       strsignal(sig), claimed, refused, gs.rising, gs.falling, gs.lost, st.merged,
		       d->uinput ? uirq_uinput_write_errors(d->uinput) : 0ul, ld.reports);
		stdout_flush();
		return;
	}
	uio_pwrbutton_counts(d->pb, &claimed, &refused);
	printf(PROG ": %s: stopped: %lu interrupts claimed, %lu refused; %lu %s events, %lu merged; "
	       "uinput write errors %lu; lockdep reports %lu\n",
	       strsignal(sig), claimed, refused, st.events, d->vfio ? "VFIO" : "UIO", st.merged,
	       d->uinput ? uirq_uinput_write_errors(d->uinput) : 0ul, ld.reports);
	stdout_flush();
}

int main(int argc, char **argv)
{
	struct daemon d = { 0 };
	struct uirq_lockdep_stats ld;
	sigset_t stop;
	int ret, sig = 0;

	ret = pwrbutton_parse(argc, argv, &d.o);
	if (ret >= 0)
		return ret;
	/*
	 * Blocked before any uirq thread exists, so only sigwait() below takes
	 * them.  SIGPIPE too: a write to a reader that went away fails with
	 * EPIPE (stdout_flush() then sends the process-wide SIGPIPE that ends
	 * the wait) instead of killing the daemon without a word.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);

	ret = setup(&d);
	/* Every line has its descriptor now; their threads take up the mode at their next wake. */
	if (!ret && (ret = tool_wait_apply(&d.o.wait)))
		ret = fail("setting --wait on", "the uirq CPU and the line", ret);
	if (!ret) {
		report_ready(&d);
		while (sigwait(&stop, &sig))
			;
		if (sig != SIGPIPE)
			report_stop(&d, sig);
		if (atomic_load(&stdout_errno)) {
			fprintf(stderr, PROG ": writing to standard output failed: %s; stopped\n",
				strerror(atomic_load(&stdout_errno)));
			ret = 1;
		}
	}
	/* The pb pointer is gone after teardown: counts were taken above. */
	teardown(&d);
	uirq_lockdep_get_stats(&ld);
	if (!ret && ld.reports) {
		fprintf(stderr, PROG ": lockdep reported %lu problems\n", ld.reports);
		ret = 1;
	}
	return ret;
}

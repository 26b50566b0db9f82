// SPDX-License-Identifier: MIT
/*
 * gpio: a line of the kernel's GPIO simulator (gpio-sim), raised by pulling
 * it the other way through its sysfs "pull" attribute: an edge each time,
 * both kinds detected.  uirq's leg takes it as a GPIO line (the character
 * device's edge events); the baseline requests the line itself (GPIO v2
 * ioctl) and polls the request fd with epoll, reading one event a sample.
 * The raise is a sysfs write, so the figures include the simulator's path
 * from that write to the edge, the same for every leg.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/gpio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sources.h"
#include "uirq/irq.h"
#include "uirq/sources.h"

static int gpio_line(struct source *s, unsigned int *irq)
{
	return src_line_made(uirq_gpio_line_create(s->path, s->offset, UIRQ_TYPE_EDGE_BOTH, 0, &s->line), irq);
}

static int gpio_fd(struct source *s)
{
	char dev[300];
	struct gpio_v2_line_request req = {
		.offsets = { s->offset }, .num_lines = 1, .consumer = "uirq-latency",
		.config = { .flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING |
				     GPIO_V2_LINE_FLAG_EDGE_FALLING },
	};
	int chip, err = 0;

	snprintf(dev, sizeof(dev), "/dev/%s", s->path);
	chip = open(dev, O_RDWR | O_CLOEXEC);
	if (chip < 0)
		return -errno;
	if (ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req))
		err = -errno;
	close(chip);
	if (err)
		return err;
	s->fd = req.fd;
	fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
	return s->fd;
}

static void gpio_ack(struct source *s, bool baseline)
{
	struct gpio_v2_line_event ev;

	/* uirq's line reads its events itself */
	if (baseline && read(s->fd, &ev, sizeof(ev)) < 0 && errno != EAGAIN)
		abort();
}

static int gpio_raise(struct source *s, struct run *r, bool baseline)
{
	static const char *const pull[] = { "pull-down", "pull-up" };
	const char *v = pull[s->level = !s->level];

	(void)baseline;
	atomic_store(&r->t0, lat_now());
	return pwrite(s->pull_fd, v, strlen(v), 0) == (ssize_t)strlen(v) ? 0 : -errno;
}

static void gpio_close(struct source *s)
{
	close(s->pull_fd);
}

static const struct source_ops gpio_ops = {
	.line = gpio_line, .line_done = src_line_done, .fd = gpio_fd, .fd_done = src_fd_done,
	.ack = gpio_ack, .raise = gpio_raise, .close = gpio_close,
};

/* The first gpio-sim chip: the gpiochipN folder under a gpio-sim platform device; 0 or -ENODEV. */
static int first_sim_chip(char *out, size_t len)
{
	glob_t g;
	int ret = -ENODEV;

	if (glob("/sys/devices/platform/gpio-sim.*/gpiochip*", 0, NULL, &g))
		return ret;
	if (g.gl_pathc && strlen(strrchr(g.gl_pathv[0], '/') + 1) < len) {
		snprintf(out, len, "%s", strrchr(g.gl_pathv[0], '/') + 1);
		ret = 0;
	}
	globfree(&g);
	return ret;
}

int gpio_open(struct source *s, const char **why)
{
	const char *dev = s->o->device;
	char pull[400];
	glob_t g;

	s->ops = &gpio_ops;
	if (dev) {
		const char *colon = strrchr(dev, ':');
		char *end;

		errno = 0;
		unsigned long line = colon ? strtoul(colon + 1, &end, 10) : 0;

		if (!colon || colon == dev || !colon[1] || *end || errno || line > 0xffff ||
		    (size_t)(colon - dev) >= sizeof(s->path)) {
			*why = "--device: CHIP:LINE, e.g. gpiochip1:0";
			return -EINVAL;
		}
		memcpy(s->path, dev, (size_t)(colon - dev));
		s->path[colon - dev] = '\0';
		if (!strncmp(s->path, "/dev/", 5))
			memmove(s->path, s->path + 5, strlen(s->path + 5) + 1);
		s->offset = (unsigned int)line;
	} else if (first_sim_chip(s->path, sizeof(s->path))) {
		*why = "no gpio-sim chip (modprobe gpio-sim and make one through configfs); --device names one";
		return -ENODEV;
	}
	/* The simulator's attribute for the line's input, next to the chip under its platform device. */
	snprintf(pull, sizeof(pull), "/sys/devices/platform/gpio-sim.*/%s/sim_gpio%u/pull", s->path, s->offset);
	if (glob(pull, 0, NULL, &g) || g.gl_pathc != 1) {
		*why = "not a gpio-sim line (no sim_gpioN/pull attribute: the raise needs the simulator)";
		return -ENODEV;
	}
	s->pull_fd = open(g.gl_pathv[0], O_WRONLY | O_CLOEXEC);
	globfree(&g);
	if (s->pull_fd < 0) {
		*why = "its pull attribute does not open for writing";
		return -errno;
	}
	/* Low to begin with: the first raise is a rising edge. */
	if (pwrite(s->pull_fd, "pull-down", 9, 0) != 9) {
		int err = -errno;

		close(s->pull_fd);
		*why = "its pull attribute refused a write";
		return err;
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * GPIO lines on the host, which has no GPIO chip to spare: the argument
 * checks and the errors a user meets first.  Delivery on a real chip is
 * vm-40-gpio's (tests/vm), on gpio-sim in the VM.
 */
#include "common.h"

#include <sys/stat.h>

UIRQ_TEST(gpio, level_and_unknown_types_are_einval, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *l = NULL;
	const unsigned int bad[] = { UIRQ_TYPE_LEVEL_HIGH, UIRQ_TYPE_LEVEL_LOW, UIRQ_TYPE_LEVEL_MASK, 0x10, 0x5 };

	/* The type is checked before the chip is opened: /dev/null would be -ENOTTY. */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_eq(uirq_gpio_line_create("/dev/null", 0, bad[i], 0, &l), -EINVAL, "type %#x", bad[i]);
	assert_eq(uirq_gpio_line_create(NULL, 0, 0, 0, &l), -EINVAL);
	assert_eq(uirq_gpio_line_create("/dev/null", 0, 0, 0, NULL), -EINVAL);
	assert_eq(uirq_gpio_line_create("", 0, 0, 0, &l), -EINVAL);
	assert_null(l);
}

UIRQ_TEST(gpio, missing_chips_are_enoent_and_other_files_enotty, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *l = NULL;
	struct stat st;

	/* gpiochip97 as a name nobody uses: if a host has it, this test has nothing to say. */
	assert_ne(stat("/dev/gpiochip97", &st), 0);
	assert_eq(uirq_gpio_line_create("/dev/gpiochip97", 0, 0, 0, &l), -ENOENT);
	assert_eq(uirq_gpio_line_create("gpiochip97", 0, UIRQ_TYPE_EDGE_RISING, 0, &l), -ENOENT);
	assert_eq(uirq_gpio_line_create("97", 0, UIRQ_TYPE_EDGE_FALLING, 0, &l), -ENOENT);
	/* A file that is no GPIO chip: the line request ioctl is unknown to it. */
	assert_eq(uirq_gpio_line_create("/dev/null", 0, 0, 0, &l), -ENOTTY);
	assert_eq(uirq_gpio_line_create("/dev/zero", 0, UIRQ_TYPE_EDGE_BOTH, 1000, &l), -ENOTTY);
	assert_null(l);
}

/* The GPIO calls refuse other fd lines, and those lines keep refusing the types only GPIO has. */
UIRQ_TEST(gpio, other_lines_are_not_gpio_lines, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *ev = NULL;
	struct uirq_gpio_line_stats gs;
	struct uirq_gpio_event e;
	int irq;

	irq = uirq_eventfd_line_create(-1, 0, &ev);
	assert_gt(irq, 0);
	assert_eq(uirq_gpio_line_last_event(ev, &e), -EINVAL);
	assert_eq(uirq_gpio_line_last_event(NULL, &e), -EINVAL);
	assert_eq(uirq_gpio_line_get_stats(ev, &gs), -EINVAL);
	assert_eq(uirq_gpio_line_get_stats(NULL, &gs), -EINVAL);
	assert_eq(uirq_gpio_line_get_value(ev), -EINVAL);
	assert_eq(uirq_gpio_line_get_value(NULL), -EINVAL);
	/* EDGE_FALLING and EDGE_BOTH are a GPIO line's: an eventfd has one kind of edge. */
	assert_ne(uirq_irq_set_irq_type((unsigned int)irq, UIRQ_TYPE_EDGE_FALLING), 0);
	assert_ne(uirq_irq_set_irq_type((unsigned int)irq, UIRQ_TYPE_EDGE_BOTH), 0);
	assert_eq(uirq_fd_line_destroy(ev), 0);
	assert_eq(uirq_eventfd_line_create(-1, UIRQ_TYPE_EDGE_FALLING, &ev), -EINVAL);
	assert_eq(uirq_eventfd_line_create(-1, UIRQ_TYPE_EDGE_BOTH, &ev), -EINVAL);
	assert_eq(uirq_timerfd_line_create(UIRQ_TYPE_EDGE_BOTH, 0, 0, &ev), -EINVAL);
}

/* The device a chip name stands for, so that a message can name the file tried. */
UIRQ_TEST(gpio, chip_paths_name_the_device)
{
	static const char *const names[][2] = {
		{ "97", "/dev/gpiochip97" }, { "gpiochip97", "/dev/gpiochip97" }, { "mychip", "/dev/mychip" },
		{ "/dev/gpiochip3", "/dev/gpiochip3" }, { "/tmp/chip", "/tmp/chip" },
	};
	char path[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_eq(uirq_gpio_chip_path(names[i][0], path, sizeof(path)), 0, "%s", names[i][0]);
		assert_str_eq(path, names[i][1]);
	}
	assert_eq(uirq_gpio_chip_path("", path, sizeof(path)), -EINVAL);
	assert_eq(uirq_gpio_chip_path(NULL, path, sizeof(path)), -EINVAL);
	assert_eq(uirq_gpio_chip_path("gpiochip97", path, 8), -ENAMETOOLONG);
}

// SPDX-License-Identifier: MIT
/*
 * UIO lines on the host, which has no UIO device: the argument checks and
 * the errors a user meets first.  Delivery on a real UIO device is
 * vm-10-uio's (tests/vm), in the VM.
 */
#include "common.h"

#include <sys/stat.h>

UIRQ_TEST(uio, bad_names_are_einval, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *l = NULL;
	const char *bad[] = { "", "uio", "/dev/uio", "uio-1", "uio0x", "/dev/null", "/dev/uio99999999999", "eventfd" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_eq(uirq_uio_line_create(bad[i], 0, &l), -EINVAL, "\"%s\"", bad[i]);
	assert_eq(uirq_uio_line_create(NULL, 0, &l), -EINVAL);
	assert_eq(uirq_uio_line_create("uio0", 0, NULL), -EINVAL);
	assert_null(l);
}

/* Only a level line: the device is re-enabled after the handlers, which an edge flow would not wait for. */
UIRQ_TEST(uio, edge_types_are_einval, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *l = NULL;

	assert_eq(uirq_uio_line_create("uio0", UIRQ_TYPE_EDGE_RISING, &l), -EINVAL);
	assert_eq(uirq_uio_line_create("uio0", UIRQ_TYPE_EDGE_BOTH, &l), -EINVAL);
	assert_eq(uirq_uio_line_create("uio0", UIRQ_TYPE_LEVEL_LOW, &l), -EINVAL);
}

UIRQ_TEST(uio, a_missing_device_is_enoent, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *l = NULL;
	struct stat st;

	/* uio97 as a name nobody uses: if a host has it, this test has nothing to say. */
	assert_ne(stat("/dev/uio97", &st), 0);
	assert_eq(uirq_uio_line_create("/dev/uio97", 0, &l), -ENOENT);
	assert_eq(uirq_uio_line_create("uio97", UIRQ_TYPE_LEVEL_HIGH, &l), -ENOENT);
	assert_null(l);
}

/* The UIO calls refuse other fd lines, and the fd-line calls still work on those. */
UIRQ_TEST(uio, other_lines_are_not_uio_lines, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *ev = NULL;
	volatile void *p = NULL;
	size_t size = 0;

	assert_gt(uirq_eventfd_line_create(-1, 0, &ev), 0);
	assert_eq(uirq_uio_line_map(ev, 0, &p, &size), -EINVAL);
	assert_eq(uirq_uio_line_map(NULL, 0, &p, &size), -EINVAL);
	assert_eq(uirq_uio_line_index(ev), -EINVAL);
	assert_eq(uirq_uio_line_index(NULL), -EINVAL);
	assert_eq(uirq_uio_line_hw_errors(ev), 0ul);
	assert_null((const void *)p);
	assert_eq(uirq_fd_line_destroy(ev), 0);
}

/* The node a UIO name stands for, so that a message can name the file tried. */
UIRQ_TEST(uio, paths_name_the_node)
{
	const char *bad[] = { "", "uio", "/dev/uio", "uio-1", "uio0x", "/dev/null", "/dev/uio99999999999" };
	char path[64];

	assert_eq(uirq_uio_path("uio3", path, sizeof(path)), 0);
	assert_str_eq(path, "/dev/uio3");
	assert_eq(uirq_uio_path("/dev/uio12", path, sizeof(path)), 0);
	assert_str_eq(path, "/dev/uio12");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_eq(uirq_uio_path(bad[i], path, sizeof(path)), -EINVAL, "\"%s\"", bad[i]);
	assert_eq(uirq_uio_path(NULL, path, sizeof(path)), -EINVAL);
	assert_eq(uirq_uio_path("uio3", path, 9), -ENAMETOOLONG);
}

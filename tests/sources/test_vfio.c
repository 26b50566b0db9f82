// SPDX-License-Identifier: MIT
/*
 * VFIO lines on the host, which has no device bound to vfio-pci: the
 * argument checks, the errors a user meets first and their messages.
 * Delivery (MSI, INTx) is vm-11-vfio's (tests/vm), in the VM.
 */
#include "common.h"

#include <string.h>
#include <sys/stat.h>

#include "uirq/printk.h"

static char logged[512];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	snprintf(logged, sizeof(logged), "%s", msg);
}

UIRQ_TEST(vfio, bad_addresses_are_einval_and_logged, .init = setup1, .fini = teardown)
{
	struct uirq_vfio_dev *v = NULL;
	const char *bad[] = { "", "a/b", "/sys/bus/pci/devices/", "/sys/bus/pci/devices/x/y", "..",
			      "0000:00:03.0-and-a-name-far-too-long-for-a-pci-address" };

	uirq_log_set_sink(sink, NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		logged[0] = '\0';
		assert_eq(uirq_vfio_open(bad[i], &v), -EINVAL, "\"%s\"", bad[i]);
		assert_true(strstr(logged, "not a PCI address"), "\"%s\" logged: %s", bad[i], logged);
	}
	uirq_log_set_sink(NULL, NULL);
	assert_eq(uirq_vfio_open(NULL, &v), -EINVAL);
	assert_eq(uirq_vfio_open("0000:00:03.0", NULL), -EINVAL);
	assert_null(v);
}

UIRQ_TEST(vfio, a_missing_device_is_enoent_naming_it, .init = setup1, .fini = teardown)
{
	struct uirq_vfio_dev *v = NULL;
	struct stat st;

	/* A PCI address nobody uses: if a host has it, this test has nothing to say. */
	assert_ne(stat("/sys/bus/pci/devices/0000:fe:1f.7", &st), 0);
	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_vfio_open("0000:fe:1f.7", &v), -ENOENT);
	uirq_log_set_sink(NULL, NULL);
	assert_true(strstr(logged, "vfio 0000:fe:1f.7") && strstr(logged, "IOMMU group"), "logged: %s", logged);
	assert_eq(uirq_vfio_open("/sys/bus/pci/devices/0000:fe:1f.7", &v), -ENOENT);
	assert_null(v);
}

UIRQ_TEST(vfio, null_devices_are_einval, .init = setup1, .fini = teardown)
{
	struct uirq_fd_line *l = NULL;
	volatile void *p = NULL;

	assert_eq(uirq_vfio_close(NULL), -EINVAL);
	assert_eq(uirq_vfio_map(NULL, 0, &p, NULL), -EINVAL);
	assert_eq(uirq_vfio_nr_vectors(NULL, UIRQ_VFIO_MSI), -EINVAL);
	assert_eq(uirq_vfio_msi_enable(NULL, UIRQ_VFIO_MSI, 1, NULL), -EINVAL);
	assert_eq(uirq_vfio_msi_line(NULL, 0, &l), -EINVAL);
	assert_eq(uirq_vfio_intx_line(NULL, &l), -EINVAL);
	assert_eq(uirq_vfio_hw_errors(NULL), 0ul);
	assert_eq(uirq_vfio_device_fd(NULL), -EINVAL);
	assert_null(l);
	assert_null((const void *)p);
}

/* SPDX-License-Identifier: MIT */
/*
 * For programs that act as the hardware inside the test VM (tests/vm and
 * bench/vm): find i2c-stub's bus, open its chip, map the edu device's BAR,
 * find gpio-sim's chip and drive its lines, find the edu device bound to
 * vfio-pci.
 * Header-only: the programs link nothing else of the tests.
 */
#ifndef UIRQ_TESTS_VM_HW_H
#define UIRQ_TESTS_VM_HW_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define VM_STUB_NAME "SMBus stub driver"	/* i2c-stub's adapter name */
#define VM_EDU_RESOURCE0 "/sys/class/uio/uio0/device/resource0"
#define VM_VFIO_PCI "/sys/bus/pci/drivers/vfio-pci"

/* edu's registers in BAR 0 (QEMU's hw/misc/edu.c) */
#define EDU_ID		0x00	/* reads 0x010000ed */
#define EDU_IRQ_STATUS	0x24	/* the raised bits */
#define EDU_IRQ_RAISE	0x60	/* write: OR the value into the status and interrupt */
#define EDU_IRQ_ACK	0x64	/* write: clear those bits (INTx drops at 0) */

/* N of /dev/i2c-N whose adapter is named name, or -1. */
static inline int vm_i2c_bus(const char *name)
{
	for (int n = 0; n < 64; n++) {
		char path[64], buf[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/i2c-dev/i2c-%d/name", n);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		if (!strcmp(buf, name))
			return n;
	}
	return -1;
}

/* A raw i2c-dev fd on the adapter named name, talking to addr; -errno on failure. */
static inline int vm_i2c_open(const char *name, int addr)
{
	char path[32];
	int n = vm_i2c_bus(name), fd;

	if (n < 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "/dev/i2c-%d", n);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, I2C_SLAVE, addr) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* The first page of a PCI BAR through its sysfs resourceN file; NULL with errno on failure. */
static inline volatile uint32_t *vm_map_resource(const char *path)
{
	int fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	void *p;

	if (fd < 0)
		return NULL;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* The gpio-sim chip scripts/vm/init creates in configfs (8 lines, bank0). */
#define VM_GPIO_SIM "/sys/kernel/config/gpio-sim/uirq"
#define VM_GPIO_LINES 8

/* A one-line attribute into buf, newline dropped; 0 or -errno. */
static inline int vm_read_attr(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The gpio-sim chip's name, "gpiochipN" (its node is /dev/gpiochipN); 0 or -errno. */
static inline int vm_gpio_chip(char *buf, size_t len)
{
	return vm_read_attr(VM_GPIO_SIM "/bank0/chip_name", buf, len);
}

/* Drive a gpio-sim line's input through its pull attribute: up 1 (high) or 0 (low); 0 or -errno. */
static inline int vm_gpio_pull(unsigned int line, int up)
{
	char dev[64], chip[64], path[256];
	const char *v = up ? "pull-up" : "pull-down";
	int fd, ret;

	ret = vm_read_attr(VM_GPIO_SIM "/dev_name", dev, sizeof(dev));
	if (!ret)
		ret = vm_gpio_chip(chip, sizeof(chip));
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "/sys/devices/platform/%s/%s/sim_gpio%u/pull", dev, chip, line);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, v, strlen(v)) == (ssize_t)strlen(v) ? 0 : -errno;
	close(fd);
	return ret;
}

/* The edu device's BAR 0 (its first page) as /dev/uio0's device; NULL with errno on failure. */
static inline volatile uint32_t *vm_edu_bar(void)
{
	return vm_map_resource(VM_EDU_RESOURCE0);
}

/*
 * The PCI address of the edu device that /init bound to vfio-pci (the
 * second edu; the first is /dev/uio0) into buf; 0 or -ENODEV.
 */
static inline int vm_edu_vfio(char *buf, size_t len)
{
	DIR *d = opendir(VM_VFIO_PCI);
	struct dirent *e;
	int ret = -ENODEV;

	if (!d)
		return -ENODEV;
	while (ret && (e = readdir(d))) {
		char path[300], id[16] = "";
		FILE *f;

		if (!strchr(e->d_name, ':'))
			continue;	/* bind, new_id, module, ... */
		snprintf(path, sizeof(path), VM_VFIO_PCI "/%s/device", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(id, sizeof(id), f) && !strncmp(id, "0x11e8", 6) && strlen(e->d_name) < len) {
			snprintf(buf, len, "%s", e->d_name);
			ret = 0;
		}
		fclose(f);
	}
	closedir(d);
	return ret;
}

#endif

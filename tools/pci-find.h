/* SPDX-License-Identifier: MIT */
/* PCI devices of the tools' command lines: an address's form, a device found by its id under a driver. */
#ifndef UIRQ_TOOLS_PCI_FIND_H
#define UIRQ_TOOLS_PCI_FIND_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline unsigned int pci_read_hex(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return (unsigned int)strtoul(buf, NULL, 16);
}

/*
 * The first entry of dir (a class or driver folder of sysfs) named with
 * prefix whose PCI device has vendor:device, into out as fmt formats its
 * name ("/dev/%s" for a UIO class entry, "%s" for a PCI address); 0 or
 * -ENODEV.
 */
static inline int pci_find(const char *dir, const char *prefix, const char *device_sub, unsigned int vendor,
			   unsigned int device, const char *fmt, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = -ENODEV;

	if (!d)
		return ret;
	while (ret && (e = readdir(d))) {
		char path[600];

		if (strncmp(e->d_name, prefix, strlen(prefix)) || strlen(e->d_name) > 64)
			continue;
		snprintf(path, sizeof(path), "%s/%s%s/vendor", dir, e->d_name, device_sub);
		unsigned int v = pci_read_hex(path);

		snprintf(path, sizeof(path), "%s/%s%s/device", dir, e->d_name, device_sub);
		if (v == vendor && pci_read_hex(path) == device) {
			snprintf(out, len, fmt, e->d_name);
			ret = 0;
		}
	}
	closedir(d);
	return ret;
}

/* The first /dev/uioN whose PCI device is vendor:device; 0 or -ENODEV. */
static inline int pci_find_uio(unsigned int vendor, unsigned int device, char *out, size_t len)
{
	return pci_find("/sys/class/uio", "uio", "/device", vendor, device, "/dev/%s", out, len);
}

/* The address of the first device vendor:device bound to vfio-pci; 0 or -ENODEV. */
static inline int pci_find_vfio(unsigned int vendor, unsigned int device, char *out, size_t len)
{
	return pci_find("/sys/bus/pci/drivers/vfio-pci", "0", "", vendor, device, "%s", out, len);
}

/*
 * DDDD:BB:DD.F in hex (domain, bus, device up to 1f, function up to 7), as
 * lspci -D prints it, or its folder under /sys/bus/pci/devices.
 */
static inline bool pci_address(const char *s)
{
	static const char sysfs[] = "/sys/bus/pci/devices/", form[] = "xxxx:xx:xx.x";

	if (!strncmp(s, sysfs, sizeof(sysfs) - 1))
		s += sizeof(sysfs) - 1;
	if (strlen(s) != sizeof(form) - 1)
		return false;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != form[i])
			return false;
	return strtoul(s + 8, NULL, 16) <= 0x1f && s[11] <= '7';
}

#endif

/* SPDX-License-Identifier: MIT */
/* The match tables drivers declare: by device-tree compatible, by platform name, by i2c name. */
#ifndef UIRQ_COMPAT_LINUX_MOD_DEVICETABLE_H
#define UIRQ_COMPAT_LINUX_MOD_DEVICETABLE_H

#include <linux/types.h>

typedef unsigned long kernel_ulong_t;

struct of_device_id {
	char name[32];
	char type[32];
	char compatible[128];
	const void *data;
};

#define PLATFORM_NAME_SIZE	20
struct platform_device_id {
	char name[PLATFORM_NAME_SIZE];
	kernel_ulong_t driver_data;
};

#ifndef I2C_NAME_SIZE
#define I2C_NAME_SIZE		20
#endif
struct i2c_device_id {
	char name[I2C_NAME_SIZE];
	kernel_ulong_t driver_data;
};

#endif

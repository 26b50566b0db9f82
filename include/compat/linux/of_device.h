/* SPDX-License-Identifier: MIT */
/*
 * What the kernel's <linux/of_device.h> gives a driver: the node readers
 * and match data of <linux/of.h> (of_device_get_match_data() is there),
 * and the platform bus its devices sit on.
 */
#ifndef UIRQ_COMPAT_LINUX_OF_DEVICE_H
#define UIRQ_COMPAT_LINUX_OF_DEVICE_H

#include <linux/of.h>
#include <linux/platform_device.h>

#endif

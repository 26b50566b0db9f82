// SPDX-License-Identifier: MIT
/*
 * Attribute removal against a show() in progress (compat/sysfs.c), as
 * kernfs drains its active references: device_remove_group() returns only
 * once the show() running on another thread has returned, so a driver may
 * free what its show() reads right after; a later read finds nothing.
 * With real threads, and in the deterministic mode over seeds, where the
 * wait must be one the scheduler sees (not a spin that holds its token).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include <linux/device.h>
#include <linux/errno.h>

#include "compat_test.h"
#include "sim_runs.h"

static struct device dev;
static atomic_int running;
static atomic_bool gone, used_after_removal;

/* A slow show(): it reads the driver's state after a while, which the driver frees once removal returns. */
static ssize_t slow_show(struct device *d, struct device_attribute *attr, char *buf)
{
	(void)d, (void)attr;
	atomic_store(&running, 1);
	uirq_sim_sleep_ns(50 * SIM_MS);
	if (atomic_load(&gone))
		atomic_store(&used_after_removal, true);
	atomic_store(&running, 0);
	return sprintf(buf, "ok\n");
}
static DEVICE_ATTR_RO(slow);

static struct attribute *slow_attrs[] = { &dev_attr_slow.attr, NULL };
static const struct attribute_group slow_group = { .attrs = slow_attrs };

static void *reader(void *arg)
{
	char buf[PAGE_SIZE];

	*(ssize_t *)arg = uirq_device_attr_show(&dev, "slow", buf);
	return NULL;
}

static void removal_waits_for_show(void)
{
	char buf[PAGE_SIZE];
	ssize_t got = 0;
	pthread_t t;

	memset(&dev, 0, sizeof(dev));
	atomic_store(&running, 0);
	atomic_store(&gone, false);
	atomic_store(&used_after_removal, false);
	device_initialize(&dev);
	assert_eq(device_add_group(&dev, &slow_group), 0);
	assert_eq(uirq_sim_thread_create(&t, NULL, reader, &got, "reader"), 0);
	while (!atomic_load(&running))
		uirq_sim_sleep_ns(SIM_MS);
	device_remove_group(&dev, &slow_group);
	int still_running = atomic_load(&running);

	assert_eq(still_running, 0, "removal returned while show() ran");
	atomic_store(&gone, true);	/* the driver frees its state */
	assert_eq(uirq_sim_thread_join(t, NULL), 0);
	bool used = atomic_load(&used_after_removal);

	assert_false(used);
	assert_eq(got, 3, "the show() begun before removal completes");
	assert_eq(uirq_device_attr_show(&dev, "slow", buf), -ENOENT, "nothing to read after");
	mutex_destroy(&dev.uirq_devres_lock);
}

UIRQ_TEST(compat_sysfs, removal_waits_for_a_running_show, .init = setup, .fini = teardown)
{
	removal_waits_for_show();
}

static void no_cpus(unsigned int cpus)
{
	(void)cpus;
}

SIM_TEST(compat_sysfs, removal_waits_in_the_deterministic_mode, no_cpus, NULL, .timeout = 60)
{
	removal_waits_for_show();
}

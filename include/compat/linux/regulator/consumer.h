/* SPDX-License-Identifier: MIT */
/*
 * Regulator consumers (compat/regulator.c).  A board here describes no
 * supplies - there is no power to switch in user space - so every supply
 * a driver asks for is what the kernel gives a device whose supply the
 * firmware does not describe: the always-on dummy regulator
 * ("regulator-dummy"), with the kernel's warning "supply %s not found,
 * using dummy regulator".  Enables and disables are still counted per
 * consumer, and an unbalanced disable is refused (-EIO) with the kernel's
 * warning, so a driver's power sequencing is checked even though nothing
 * is switched.  Optional and exclusive supplies are absent (-ENODEV), as
 * the kernel answers when a supply is not described.
 */
#ifndef UIRQ_COMPAT_LINUX_REGULATOR_CONSUMER_H
#define UIRQ_COMPAT_LINUX_REGULATOR_CONSUMER_H

#include <linux/device.h>
#include <linux/err.h>

struct regulator;

struct regulator_bulk_data {
	const char *supply;
	int init_load_uA;
	struct regulator *consumer;
	int ret;		/* private to the bulk calls */
};

struct regulator *regulator_get(struct device *dev, const char *id);
struct regulator *devm_regulator_get(struct device *dev, const char *id);
struct regulator *regulator_get_exclusive(struct device *dev, const char *id);
struct regulator *regulator_get_optional(struct device *dev, const char *id);
struct regulator *devm_regulator_get_optional(struct device *dev, const char *id);
void regulator_put(struct regulator *regulator);

/* 0; the dummy never fails to switch on. */
int regulator_enable(struct regulator *regulator);
/* 0, or -EIO with a warning for a disable without an enable. */
int regulator_disable(struct regulator *regulator);
/* The dummy is always on: 1. */
int regulator_is_enabled(struct regulator *regulator);

/* Each supply of consumers[0 .. num - 1] by its .supply name; on failure none is kept. 0 or -errno. */
int regulator_bulk_get(struct device *dev, int num_consumers, struct regulator_bulk_data *consumers);
int devm_regulator_bulk_get(struct device *dev, int num_consumers, struct regulator_bulk_data *consumers);
int regulator_bulk_enable(int num_consumers, struct regulator_bulk_data *consumers);
int regulator_bulk_disable(int num_consumers, struct regulator_bulk_data *consumers);
void regulator_bulk_free(int num_consumers, struct regulator_bulk_data *consumers);

/*
 * For a board or a test: how many enables are outstanding on the supply
 * id of dev, over all its consumers (-ENODEV if dev never asked for it) -
 * 0 after a driver that balanced its enables unbound.
 */
int uirq_regulator_enable_count(const struct device *dev, const char *id);

#endif

// SPDX-License-Identifier: MIT
/*
 * What a driver's probe leans on besides the bus, each as the kernel
 * behaves: supplies (compat/regulator.c: the dummy regulator, counted
 * enables, an unbalanced disable refused, optional supplies absent,
 * managed bulk supplies put at unbind), sysfs attribute groups recorded
 * and reached by name (compat/sysfs.c), the kstrto*() parsing a store()
 * does, and sleep callbacks compiled out without CONFIG_PM_SLEEP.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/platform_device.h>
#include <linux/regulator/consumer.h>

#include "compat_test.h"

#define OPTS .init = setup, .fini = teardown

/* ---- supplies ---- */

static struct regulator_bulk_data supplies[2];

static int powered_probe(struct platform_device *pdev)
{
	supplies[0].supply = "vio";
	supplies[1].supply = "vcc";
	assert_eq(devm_regulator_bulk_get(&pdev->dev, 2, supplies), 0);
	return regulator_bulk_enable(2, supplies);
}

static int powered_remove(struct platform_device *pdev)
{
	(void)pdev;
	return regulator_bulk_disable(2, supplies);
}

static struct platform_driver powered_driver = {
	.probe = powered_probe,
	.remove = powered_remove,
	.driver = { .name = "powered" },
};

UIRQ_TEST(compat_supply, undescribed_supplies_are_the_dummy, OPTS)
{
	struct platform_device *pdev;

	assert_eq(platform_driver_register(&powered_driver), 0);
	pdev = platform_device_register_simple("powered", PLATFORM_DEVID_NONE, NULL, 0);
	assert_eq(pdev->dev.driver, &powered_driver.driver);
	assert_not_null(strstr(logbuf, "powered powered: supply vio not found, using dummy regulator"), "%s",
			logbuf);
	assert_not_null(strstr(logbuf, "supply vcc not found, using dummy regulator"));
	assert_eq(uirq_regulator_enable_count(&pdev->dev, "vcc"), 1);
	assert_eq(regulator_is_enabled(supplies[0].consumer), 1, "the dummy is always on");
	const struct device *dev = &pdev->dev;

	platform_device_unregister(pdev);
	assert_eq(uirq_regulator_enable_count(dev, "vcc"), -ENODEV, "disabled by remove, put at unbind");
	platform_driver_unregister(&powered_driver);
}

UIRQ_TEST(compat_supply, enables_are_counted_and_balanced, OPTS)
{
	struct device dev = { 0 };
	struct regulator *r, *other;

	device_initialize(&dev);
	dev_set_name(&dev, "chip");
	r = regulator_get(&dev, "vdd");
	other = regulator_get(&dev, "vdd");
	assert_false(IS_ERR(r));
	assert_eq(regulator_enable(r), 0);
	assert_eq(regulator_enable(r), 0);
	assert_eq(regulator_enable(other), 0);
	assert_eq(uirq_regulator_enable_count(&dev, "vdd"), 3, "over both consumers");
	assert_eq(regulator_disable(r), 0);
	assert_eq(regulator_disable(r), 0);
	/* Each consumer counts its own: r has none left to give back. */
	assert_eq(regulator_disable(r), -EIO);
	assert_not_null(strstr(logbuf, "unbalanced disables for regulator-dummy"), "%s", logbuf);
	assert_eq(uirq_regulator_enable_count(&dev, "vdd"), 1);
	assert_eq(regulator_disable(other), 0);
	regulator_put(r);
	regulator_put(other);
	/* Optional and exclusive supplies that nothing describes are absent. */
	assert_eq(PTR_ERR(regulator_get_optional(&dev, "vref")), -ENODEV);
	assert_eq(PTR_ERR(devm_regulator_get_optional(&dev, "vref")), -ENODEV);
	assert_eq(PTR_ERR(regulator_get_exclusive(&dev, "vbus")), -ENODEV);
	assert_not_null(strstr(logbuf, "dummy supplies not allowed for exclusive requests"));
	devres_release_all(&dev);
	free(dev.uirq_name);
}

/* A bulk disable that fails part way gives back what it took: the supplies stay as they were. */
UIRQ_TEST(compat_supply, bulk_disable_failure_restores, OPTS)
{
	struct device dev = { 0 };
	struct regulator_bulk_data b[2] = { { .supply = "a" }, { .supply = "b" } };

	device_initialize(&dev);
	assert_eq(regulator_bulk_get(&dev, 2, b), 0);
	assert_eq(regulator_enable(b[1].consumer), 0);	/* only b is on */
	assert_eq(regulator_bulk_disable(2, b), -EIO, "a was never enabled");
	assert_not_null(strstr(logbuf, "Failed to disable a: -EIO"), "%s", logbuf);
	assert_eq(uirq_regulator_enable_count(&dev, "b"), 1, "b enabled again");
	assert_eq(regulator_disable(b[1].consumer), 0);
	regulator_bulk_free(2, b);
	assert_null(b[0].consumer);
	devres_release_all(&dev);
}

/* ---- sysfs attributes: recorded, reached by name ---- */

static unsigned int interval = 10;

static ssize_t poll_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev, (void)attr;
	return sprintf(buf, "%u\n", interval);
}

static ssize_t poll_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t count)
{
	unsigned int v;
	int err = kstrtouint(buf, 10, &v);

	(void)dev, (void)attr;
	if (err < 0)
		return err;
	interval = v;
	return (ssize_t)count;
}

static DEVICE_ATTR(poll, S_IRUGO | S_IWUSR, poll_show, poll_store);
static ssize_t name_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)attr;
	return sprintf(buf, "%s\n", dev_name(dev));
}
static DEVICE_ATTR_RO(name);

static struct attribute *attrs[] = { &dev_attr_poll.attr, &dev_attr_name.attr, NULL };
static const struct attribute_group group = { .attrs = attrs };

UIRQ_TEST(compat_supply, attribute_groups_reached_by_name, OPTS)
{
	struct device dev = { 0 };
	char buf[PAGE_SIZE];

	device_initialize(&dev);
	dev_set_name(&dev, "0-000f");
	assert_eq(dev_attr_poll.attr.mode, 0644);
	assert_str_eq(dev_attr_name.attr.name, "name");
	assert_eq(uirq_device_attr_show(&dev, "poll", buf), -ENOENT, "not added yet");
	assert_eq(devm_device_add_group(&dev, &group), 0);
	assert_eq(device_add_group(&dev, &group), -EEXIST);
	assert_eq(uirq_device_attr_show(&dev, "poll", buf), 3);
	assert_str_eq(buf, "10\n");
	assert_eq(uirq_device_attr_store(&dev, "poll", "25\n", 3), 3, "echo 25 > poll");
	assert_eq(interval, 25u);
	assert_eq(uirq_device_attr_store(&dev, "poll", "fast", 4), -EINVAL);
	assert_eq(uirq_device_attr_store(&dev, "name", "x", 1), -EIO, "read-only: no store");
	assert_eq(uirq_device_attr_show(&dev, "name", buf), 7);
	assert_str_eq(buf, "0-000f\n");
	devres_release_all(&dev);
	assert_eq(uirq_device_attr_show(&dev, "poll", buf), -ENOENT, "removed at unbind");
	free(dev.uirq_name);
}

/* kstrto*(): the whole string, one trailing newline, the type's range; the result untouched on failure. */
UIRQ_TEST(compat_supply, kstrtox_rules, OPTS)
{
	unsigned int u = 7;
	int i = 7;
	u8 b = 7;
	bool yes = false;

	assert_eq(kstrtouint("42", 10, &u), 0);
	assert_eq(u, 42u);
	assert_eq(kstrtouint("+43\n", 10, &u), 0);
	assert_eq(u, 43u);
	assert_eq(kstrtouint("0x1f", 16, &u), 0);
	assert_eq(u, 31u);
	assert_eq(kstrtouint("0x1f", 0, &u), 0);
	assert_eq(kstrtouint("017", 0, &u), 0);
	assert_eq(u, 15u);
	assert_eq(kstrtouint("-1", 10, &u), -EINVAL, "no sign for an unsigned");
	assert_eq(kstrtouint(" 1", 10, &u), -EINVAL, "no blanks");
	assert_eq(kstrtouint("1 ", 10, &u), -EINVAL);
	assert_eq(kstrtouint("1\n\n", 10, &u), -EINVAL, "one newline");
	assert_eq(kstrtouint("", 10, &u), -EINVAL);
	assert_eq(kstrtouint("4294967296", 10, &u), -ERANGE);
	assert_eq(u, 15u, "untouched");
	assert_eq(kstrtoint("-2147483648", 10, &i), 0);
	assert_eq(i, INT_MIN);
	assert_eq(kstrtoint("2147483648", 10, &i), -ERANGE);
	assert_eq(kstrtoint("--1", 10, &i), -EINVAL);
	assert_eq(kstrtou8("256", 10, &b), -ERANGE);
	assert_eq(kstrtou8("255", 10, &b), 0);
	assert_eq(b, 255);
	assert_eq(kstrtobool("on", &yes), 0);
	assert_true(yes);
	assert_eq(kstrtobool("N", &yes), 0);
	assert_false(yes);
	assert_eq(kstrtobool("maybe", &yes), -EINVAL);
}

/*
 * The kernel's digit rules (lib/kstrtox.c): hex letters in either case may
 * lead, base 0 takes 0x only before a hex digit, an overflow is -ERANGE even
 * with text after it, one leading '+'; t/T/f/F are words for kstrtobool().
 */
UIRQ_TEST(compat_supply, kstrtox_hex_digits_and_bool_words, OPTS)
{
	unsigned long long ull = 7;
	unsigned int u = 7;
	long long ll = 7;
	bool yes = false;

	assert_eq(kstrtouint("ff", 16, &u), 0);
	assert_eq(u, 0xffu);
	assert_eq(kstrtouint("A0\n", 16, &u), 0);
	assert_eq(u, 0xa0u);
	assert_eq(kstrtouint("0xff", 0, &u), 0);
	assert_eq(u, 0xffu);
	assert_eq(kstrtouint("0XfF", 16, &u), 0);
	assert_eq(u, 0xffu);
	assert_eq(kstrtouint("+c", 16, &u), 0);
	assert_eq(u, 12u);
	assert_eq(kstrtouint("0x", 16, &u), -EINVAL, "no digits after the prefix");
	assert_eq(kstrtouint("0x", 0, &u), -EINVAL, "octal 0, then an x");
	assert_eq(kstrtouint("0xg", 0, &u), -EINVAL);
	assert_eq(kstrtouint("08", 0, &u), -EINVAL, "8 is no octal digit");
	assert_eq(kstrtouint("g", 16, &u), -EINVAL);
	assert_eq(kstrtouint("++1", 10, &u), -EINVAL, "one sign");
	assert_eq(kstrtouint("+", 10, &u), -EINVAL);
	assert_eq(kstrtouint("\n", 10, &u), -EINVAL, "a newline alone is empty");
	assert_eq(u, 12u, "untouched");
	assert_eq(kstrtoull("ffffffffffffffff", 16, &ull), 0);
	assert_eq(ull, ~0ull);
	assert_eq(kstrtoull("10000000000000000", 16, &ull), -ERANGE);
	assert_eq(kstrtoull("18446744073709551616", 10, &ull), -ERANGE);
	assert_eq(kstrtoull("99999999999999999999x", 10, &ull), -ERANGE, "the overflow is seen first");
	assert_eq(kstrtoll("-8000000000000000", 16, &ll), 0);
	assert_eq(ll, LLONG_MIN);
	assert_eq(kstrtoll("-8000000000000001", 16, &ll), -ERANGE);
	assert_eq(kstrtoll("-+1", 10, &ll), -EINVAL);
	assert_eq(kstrtobool("t", &yes), 0);
	assert_true(yes);
	assert_eq(kstrtobool("False", &yes), 0);
	assert_false(yes);
	assert_eq(kstrtobool("T\n", &yes), 0);
	assert_true(yes);
	assert_eq(kstrtobool("o", &yes), -EINVAL);
	assert_eq(kstrtobool("", &yes), -EINVAL);
}

/* ---- power management: without CONFIG_PM_SLEEP the callbacks are compiled, not put in ---- */

static int __maybe_unused chip_suspend(struct device *dev)
{
	(void)dev;
	return -EBUSY;
}

static int __maybe_unused chip_resume(struct device *dev)
{
	(void)dev;
	return -EBUSY;
}

static SIMPLE_DEV_PM_OPS(chip_pm_ops, chip_suspend, chip_resume);

UIRQ_TEST(compat_supply, sleep_callbacks_compiled_out, OPTS)
{
	assert_null(chip_pm_ops.suspend);
	assert_null(chip_pm_ops.resume);
	assert_null(pm_sleep_ptr(&chip_pm_ops));
	assert_false(IS_ENABLED(CONFIG_PM_SLEEP));
}

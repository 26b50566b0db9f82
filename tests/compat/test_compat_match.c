// SPDX-License-Identifier: MIT
/*
 * How a device finds its driver's table entry, as the kernel decides:
 * of_match_node() keeps the entry that scores best (drivers/of/base.c:
 * the earlier a compatible stands in the node's list the better, then a
 * device_type, then the node's name), not the first in the table; an i2c
 * client made by name matches a compatible of a driver's table.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/platform_device.h>

#include "compat_test.h"

#define OPTS .init = setup, .fini = teardown

/* A node called name whose list is the chip's own compatible first, then the family's. */
static struct device_node *chip_node(const char *name)
{
	static const char *const compat[] = { "acme,chip-v2", "acme,generic" };
	struct device_node *np = uirq_of_node_new(NULL, name);

	assert_not_null(np);
	assert_eq(uirq_of_node_add_strings(np, "compatible", compat, 2), 0);
	return np;
}

/* The data of the entry of table np matches, or NULL. */
static const char *matched(const struct of_device_id *table, const struct device_node *np)
{
	const struct of_device_id *id = of_match_node(table, np);

	return id ? id->data : NULL;
}

/* The family's entry comes first in the table; the chip's own wins, as its compatible stands first in the node. */
static const struct of_device_id family_first[] = {
	{ .compatible = "acme,generic", .data = "generic" },
	{ .compatible = "acme,chip-v2", .data = "v2" },
	{ }
};

static int chip_probe(struct platform_device *pdev)
{
	(void)pdev;
	return 0;
}

static struct platform_driver chip_driver = {
	.probe = chip_probe,
	.driver = { .name = "acme-chip", .of_match_table = family_first },
};

UIRQ_TEST(compat_match, best_compatible_wins, OPTS)
{
	struct device_node *np = chip_node("chip@1f");
	struct platform_device *pdev;

	assert_str_eq(matched(family_first, np), "v2");
	assert_eq(platform_driver_register(&chip_driver), 0);
	pdev = platform_device_alloc("chip", PLATFORM_DEVID_NONE);
	pdev->dev.of_node = np;
	assert_eq(platform_device_add(pdev), 0);
	assert_eq(pdev->dev.driver, &chip_driver.driver);
	assert_str_eq(of_device_get_match_data(&pdev->dev), "v2");
	platform_device_unregister(pdev);
	platform_driver_unregister(&chip_driver);
	uirq_of_node_free(np);
}

/*
 * The rest of the kernel's scoring: compatibles compare without case; a
 * type must be the node's device_type and a name its name before the '@'
 * (either failing is no match), each adding to the score; an entry with
 * neither compatible nor type nor name ends the table.
 */
UIRQ_TEST(compat_match, type_and_name_rules, OPTS)
{
	struct device_node *np = chip_node("keypad@34");
	const struct of_device_id by_name[] = {
		{ .name = "keypad", .data = "name" },
		{ .name = "keypad", .type = "input", .data = "type+name" },
		{ }
	};
	const struct of_device_id wrong_type[] = { { .compatible = "acme,chip-v2", .type = "serial" }, { } };
	const struct of_device_id generic_and_name[] = {
		{ .compatible = "acme,generic", .name = "keypad", .data = "generic+name" },
		{ .compatible = "ACME,Chip-V2", .data = "v2" },
		{ }
	};

	assert_str_eq(matched(by_name, np), "name", "no device_type: the typed entry fails");
	assert_eq(uirq_of_node_add_string(np, "device_type", "input"), 0);
	assert_str_eq(matched(by_name, np), "type+name", "a type adds more than a name");
	assert_null(of_match_node(wrong_type, np), "the type must match too");
	assert_str_eq(matched(generic_and_name, np), "v2", "the earlier compatible beats a name");
	assert_true(of_device_is_compatible(np, "Acme,Generic"));
	uirq_of_node_free(np);
}

/* ---- i2c: a client made by name matches a driver's device-tree table ---- */

static const struct of_device_id widget_of[] = { { .compatible = "acme,widget", .data = "w" }, { } };
static struct i2c_client *probed;

static int widget_probe(struct i2c_client *client)
{
	probed = client;
	return 0;
}

static struct i2c_driver widget_driver = {
	.probe_new = widget_probe,
	.driver = { .name = "widget", .of_match_table = widget_of },
};

/* An adapter on a fresh simulated bus; the bus in *sim. */
static struct i2c_adapter *new_adapter(struct uirq_i2c_sim **sim)
{
	assert_eq(uirq_i2c_sim_new("bus", 400000, sim), 0);
	return uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(*sim));
}

static void del_adapter(struct i2c_adapter *adap, struct uirq_i2c_sim *sim)
{
	assert_eq(uirq_compat_i2c_adapter_del(adap), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

/*
 * A driver with only an of_match_table binds a client made by name
 * without a node (i2c_of_match_device_sysfs()): the name against each
 * compatible, whole or after its vendor's comma.
 */
UIRQ_TEST(compat_match, i2c_name_matches_a_compatible, OPTS)
{
	struct i2c_board_info by_part = { I2C_BOARD_INFO("widget", 0x2c) };
	struct i2c_board_info by_whole = { I2C_BOARD_INFO("acme,widget", 0x2d) };
	struct i2c_board_info other = { I2C_BOARD_INFO("gadget", 0x2e) };
	struct uirq_i2c_sim *sim;
	struct i2c_adapter *adap = new_adapter(&sim);
	struct i2c_client *c, *d, *e;

	assert_eq(i2c_add_driver(&widget_driver), 0);
	c = i2c_new_client_device(adap, &by_part);
	assert_eq(c->dev.driver, &widget_driver.driver, "the part after the comma");
	assert_eq(probed, c);
	assert_str_eq(i2c_of_match_device(widget_of, c)->data, "w");
	d = i2c_new_client_device(adap, &by_whole);
	assert_eq(d->dev.driver, &widget_driver.driver, "the whole compatible");
	e = i2c_new_client_device(adap, &other);
	assert_null(e->dev.driver);
	assert_null(i2c_of_match_device(widget_of, e));
	i2c_unregister_device(e);
	i2c_unregister_device(d);
	i2c_unregister_device(c);
	i2c_del_driver(&widget_driver);
	del_adapter(adap, sim);
}

/* A driver with neither probe nor probe_new: i2c_device_probe()'s -EINVAL, logged as a failed probe. */
static const struct i2c_device_id idle_ids[] = { { "idle", 0 }, { } };
static struct i2c_driver idle_driver = { .id_table = idle_ids, .driver = { .name = "idle-drv" } };

UIRQ_TEST(compat_match, i2c_driver_without_probe_fails_einval, OPTS)
{
	struct i2c_board_info info = { I2C_BOARD_INFO("idle", 0x2f) };
	struct uirq_i2c_sim *sim;
	struct i2c_adapter *adap = new_adapter(&sim);
	struct i2c_client *c;
	char want[64];

	assert_eq(i2c_add_driver(&idle_driver), 0);
	c = i2c_new_client_device(adap, &info);
	assert_false(IS_ERR(c));
	assert_null(c->dev.driver);
	snprintf(want, sizeof(want), "idle-drv: probe of %s failed with error -22", dev_name(&c->dev));
	assert_not_null(strstr(logbuf, want), "%s", logbuf);
	i2c_unregister_device(c);
	i2c_del_driver(&idle_driver);
	del_adapter(adap, sim);
}

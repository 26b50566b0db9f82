// SPDX-License-Identifier: MIT
/*
 * The compatibility layer's device model (compat/): binding on the platform
 * and i2c buses by the kernel's rules, managed resources released newest
 * first at unbind and after a failed probe, deferred probing, dev_*()
 * prefixes, module init and exit, device-tree properties, input devices in
 * the kernel's shape - each as the kernel behaves.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/input.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/property.h>

#include "compat_test.h"

/* ---- managed resources: the order they are released in ---- */

static char order[64];

static void note(void *data)
{
	strncat(order, data, sizeof(order) - strlen(order) - 1);
}

struct probe_plan {
	int ret;		/* what probe returns */
	int probes, removes;
};

static struct probe_plan plan;

static int plan_probe(struct platform_device *pdev)
{
	plan.probes++;
	assert_eq(devm_add_action(&pdev->dev, note, "a"), 0);
	assert_not_null(devm_kzalloc(&pdev->dev, 100, GFP_KERNEL));
	assert_eq(devm_add_action(&pdev->dev, note, "b"), 0);
	platform_set_drvdata(pdev, &plan);
	return plan.ret;
}

static int plan_remove(struct platform_device *pdev)
{
	assert_eq(platform_get_drvdata(pdev), &plan);
	plan.removes++;
	note("r");
	return 0;
}

static struct platform_driver plan_driver = {
	.probe = plan_probe,
	.remove = plan_remove,
	.driver = { .name = "plan" },
};

UIRQ_TEST(compat_base, devres_released_newest_first_after_remove, .init = setup, .fini = teardown)
{
	struct platform_device *pdev;

	order[0] = '\0';
	memset(&plan, 0, sizeof(plan));
	assert_eq(platform_driver_register(&plan_driver), 0);
	pdev = platform_device_register_simple("plan", PLATFORM_DEVID_NONE, NULL, 0);
	assert_false(IS_ERR(pdev));
	assert_eq(plan.probes, 1, "bound by name");
	assert_str_eq(dev_name(&pdev->dev), "plan");
	assert_eq(pdev->dev.driver, &plan_driver.driver);
	platform_device_unregister(pdev);
	assert_str_eq(order, "rba", "remove, then the resources newest first");
	platform_driver_unregister(&plan_driver);
}

UIRQ_TEST(compat_base, failed_probe_releases_and_logs, .init = setup, .fini = teardown)
{
	struct platform_device *pdev;

	order[0] = '\0';
	memset(&plan, 0, sizeof(plan));
	plan.ret = -EIO;
	assert_eq(platform_driver_register(&plan_driver), 0);
	pdev = platform_device_register_simple("plan", 3, NULL, 0);
	assert_false(IS_ERR(pdev));
	assert_str_eq(dev_name(&pdev->dev), "plan.3");
	assert_eq(plan.probes, 1);
	assert_str_eq(order, "ba", "the failed probe's resources, newest first");
	assert_null(pdev->dev.driver);
	assert_null(platform_get_drvdata(pdev));
	assert_not_null(strstr(logbuf, "plan: probe of plan.3 failed with error -5"), "%s", logbuf);
	platform_device_unregister(pdev);
	assert_eq(plan.removes, 0, "an unbound device is not removed");
	platform_driver_unregister(&plan_driver);
	/* "not mine" is quiet, as in the kernel */
	logbuf[0] = '\0';
	plan.ret = -ENODEV;
	assert_eq(platform_driver_register(&plan_driver), 0);
	pdev = platform_device_register_simple("plan", PLATFORM_DEVID_NONE, NULL, 0);
	assert_str_eq(logbuf, "");
	platform_device_unregister(pdev);
	platform_driver_unregister(&plan_driver);
}

/*
 * A device no driver ever bound still has its managed resources released
 * when it goes, as the kernel's device_release() does for every device:
 * a platform device without a driver, one allocated and put without being
 * added, an i2c dummy client (never on the bus here).
 */
UIRQ_TEST(compat_base, devres_released_for_devices_never_bound, .init = setup, .fini = teardown)
{
	struct uirq_i2c_sim *sim;
	struct i2c_adapter *adap;
	struct platform_device *pdev;
	struct i2c_client *dummy;

	order[0] = '\0';
	pdev = platform_device_register_simple("nobody", PLATFORM_DEVID_NONE, NULL, 0);
	assert_false(IS_ERR(pdev));
	assert_null(pdev->dev.driver);
	assert_eq(devm_add_action(&pdev->dev, note, "u"), 0);
	assert_not_null(devm_kzalloc(&pdev->dev, 16, GFP_KERNEL));
	platform_device_unregister(pdev);
	assert_str_eq(order, "u", "released when the unbound device went");
	pdev = platform_device_alloc("never-added", PLATFORM_DEVID_NONE);
	assert_eq(devm_add_action(&pdev->dev, note, "p"), 0);
	platform_device_put(pdev);
	assert_str_eq(order, "up", "released by the last put");
	assert_eq(uirq_i2c_sim_new("bus", 400000, &sim), 0);
	adap = uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(sim));
	dummy = i2c_new_dummy_device(adap, 0x2b);
	assert_false(IS_ERR(dummy), "%ld", PTR_ERR(dummy));
	assert_eq(devm_add_action(&dummy->dev, note, "d"), 0);
	i2c_unregister_device(dummy);
	assert_str_eq(order, "upd", "released with the dummy");
	assert_eq(uirq_compat_i2c_adapter_del(adap), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

/* ---- deferred probing ---- */

static bool supplier_ready;
static int consumer_probes;

static int consumer_probe(struct platform_device *pdev)
{
	(void)pdev;
	consumer_probes++;
	return supplier_ready ? 0 : -EPROBE_DEFER;
}

static int supplier_probe(struct platform_device *pdev)
{
	(void)pdev;
	supplier_ready = true;
	return 0;
}

static struct platform_driver consumer = { .probe = consumer_probe, .driver = { .name = "consumer" } };
static struct platform_driver supplier = { .probe = supplier_probe, .driver = { .name = "supplier" } };

UIRQ_TEST(compat_base, deferred_probe_retried_when_another_binds, .init = setup, .fini = teardown)
{
	struct platform_device *c, *s;

	assert_eq(platform_driver_register(&consumer), 0);
	assert_eq(platform_driver_register(&supplier), 0);
	c = platform_device_register_simple("consumer", PLATFORM_DEVID_NONE, NULL, 0);
	assert_eq(consumer_probes, 1);
	assert_null(c->dev.driver, "deferred");
	assert_str_eq(logbuf, "", "a deferral is not an error");
	s = platform_device_register_simple("supplier", PLATFORM_DEVID_NONE, NULL, 0);
	assert_eq(consumer_probes, 2, "tried again when the supplier bound");
	assert_eq(c->dev.driver, &consumer.driver);
	platform_device_unregister(c);
	platform_device_unregister(s);
	platform_driver_unregister(&consumer);
	platform_driver_unregister(&supplier);
}

/*
 * Every parked device is tried again when a driver binds, not only up to
 * the first that still waits (the kernel's deferred_probe_work_func()
 * walks its whole list, and again while probes succeed): the first
 * parked here waits on a supplier that never comes, the second on one
 * that binds.
 */
static bool late_ready;
static int never_probes, late_probes;

static int never_probe(struct platform_device *pdev)
{
	(void)pdev;
	never_probes++;
	return -EPROBE_DEFER;
}

static int late_probe(struct platform_device *pdev)
{
	(void)pdev;
	late_probes++;
	return late_ready ? 0 : -EPROBE_DEFER;
}

static struct platform_driver never = { .probe = never_probe, .driver = { .name = "never" } };
static struct platform_driver late = { .probe = late_probe, .driver = { .name = "late" } };

UIRQ_TEST(compat_base, deferred_probe_retries_every_parked_device, .init = setup, .fini = teardown)
{
	struct platform_device *l, *n, *s;

	assert_eq(platform_driver_register(&never), 0);
	assert_eq(platform_driver_register(&late), 0);
	assert_eq(platform_driver_register(&supplier), 0);
	l = platform_device_register_simple("late", PLATFORM_DEVID_NONE, NULL, 0);
	n = platform_device_register_simple("never", PLATFORM_DEVID_NONE, NULL, 0);
	assert_eq(late_probes, 1);
	assert_eq(never_probes, 1);
	late_ready = true;
	s = platform_device_register_simple("supplier", PLATFORM_DEVID_NONE, NULL, 0);
	assert_eq(late_probes, 2, "tried again though another parked device still waits");
	assert_eq(l->dev.driver, &late.driver);
	assert_null(n->dev.driver);
	/* late's bind came before never's turn in the same walk: once more, as the kernel's active list. */
	assert_eq(never_probes, 2);
	platform_device_unregister(n);
	platform_device_unregister(l);
	platform_device_unregister(s);
	platform_driver_unregister(&never);
	platform_driver_unregister(&late);
	platform_driver_unregister(&supplier);
}

/* ---- matching: id tables, device tree, resources ---- */

static const struct platform_device_id ids[] = { { "chip-a", 1 }, { "chip-b", 2 }, { "", 0 } };
static const struct of_device_id of_ids[] = { { .compatible = "acme,chip-c", .data = "c" }, { } };
static const struct platform_device_id *bound_id;
static int bound_irq;

static int ids_probe(struct platform_device *pdev)
{
	bound_id = pdev->id_entry;
	bound_irq = platform_get_irq(pdev, 0);
	return 0;
}

static struct platform_driver ids_driver = {
	.probe = ids_probe,
	.id_table = ids,
	.driver = { .name = "acme", .of_match_table = of_ids },
};

UIRQ_TEST(compat_base, platform_match_by_id_table_and_of, .init = setup, .fini = teardown)
{
	struct resource irq = DEFINE_RES_IRQ(42);
	struct platform_device *b, *c, *none;
	struct device_node *np = uirq_of_node_new(NULL, "chip@0");

	assert_eq(platform_driver_register(&ids_driver), 0);
	b = platform_device_register_simple("chip-b", PLATFORM_DEVID_AUTO, &irq, 1);
	assert_eq(b->dev.driver, &ids_driver.driver);
	assert_not_null(bound_id);
	assert_eq(bound_id->driver_data, 2ul);
	assert_eq(bound_irq, 42);
	assert_str_eq(dev_name(&b->dev), "chip-b.0.auto");
	/* A node compatible with the driver's table binds it whatever the name; no irq: -ENXIO, logged. */
	assert_eq(uirq_of_node_add_string(np, "compatible", "acme,chip-c"), 0);
	c = platform_device_alloc("whatever", PLATFORM_DEVID_NONE);
	c->dev.of_node = np;
	assert_eq(platform_device_add(c), 0);
	assert_eq(c->dev.driver, &ids_driver.driver);
	assert_eq(bound_irq, -ENXIO);
	assert_not_null(strstr(logbuf, "acme whatever: error -ENXIO: IRQ index 0 not found"), "%s", logbuf);
	assert_str_eq(of_device_get_match_data(&c->dev), "c");
	/* The driver's own name does not bind when it has an id table. */
	none = platform_device_register_simple("acme", PLATFORM_DEVID_NONE, NULL, 0);
	assert_null(none->dev.driver);
	platform_device_unregister(none);
	platform_device_unregister(c);
	platform_device_unregister(b);
	platform_driver_unregister(&ids_driver);
	uirq_of_node_free(np);
}

/*
 * An interrupt resource of 0 is a board's mistake, not a missing
 * interrupt: 6.1's platform_get_irq_optional() warns "0 is an invalid IRQ
 * number" and answers -EINVAL, and platform_get_irq() logs it through
 * dev_err_probe(); platform_irq_count() stops there.
 */
UIRQ_TEST(compat_base, irq_resource_zero_is_invalid, .init = setup, .fini = teardown)
{
	struct resource res[] = { DEFINE_RES_IRQ(40), DEFINE_RES_IRQ_NAMED(0, "wake") };
	struct platform_device *pdev = platform_device_register_simple("irqs", PLATFORM_DEVID_NONE, res, 2);

	assert_eq(platform_get_irq(pdev, 0), 40);
	assert_eq(platform_get_irq(pdev, 1), -EINVAL);
	assert_not_null(strstr(logbuf, "0 is an invalid IRQ number"), "%s", logbuf);
	assert_not_null(strstr(logbuf, "irqs: error -EINVAL: IRQ index 1 not found"), "%s", logbuf);
	assert_eq(platform_get_irq_byname(pdev, "wake"), -EINVAL);
	assert_not_null(strstr(logbuf, "irqs: error -EINVAL: IRQ wake not found"), "%s", logbuf);
	assert_eq(platform_get_irq(pdev, 2), -ENXIO, "none: not found");
	assert_not_null(strstr(logbuf, "irqs: error -ENXIO: IRQ index 2 not found"), "%s", logbuf);
	assert_eq(platform_irq_count(pdev), 1);
	platform_device_unregister(pdev);
}

/* ---- device-tree properties, as the kernel's readers answer ---- */

UIRQ_TEST(compat_base, of_property_readers, .init = setup, .fini = teardown)
{
	struct device_node *np = uirq_of_node_new(NULL, "keypad");
	const u32 rows[] = { 8, 4 };
	const char *s;
	u32 v[3];

	assert_eq(uirq_of_node_add_u32s(np, "keypad,num-rows", rows, 2), 0);
	assert_eq(uirq_of_node_add_string(np, "label", "keys"), 0);
	assert_eq(uirq_of_node_add_bool(np, "wakeup-source"), 0);
	assert_eq(of_property_read_u32(np, "keypad,num-rows", v), 0);
	assert_eq(v[0], 8u);
	assert_eq(of_property_read_u32_index(np, "keypad,num-rows", 1, v), 0);
	assert_eq(v[0], 4u);
	assert_eq(of_property_read_u32_array(np, "keypad,num-rows", v, 3), -EOVERFLOW);
	assert_eq(of_property_read_u32(np, "missing", v), -EINVAL);
	assert_eq(of_property_count_u32_elems(np, "keypad,num-rows"), 2);
	assert_eq(of_property_read_string(np, "label", &s), 0);
	assert_str_eq(s, "keys");
	assert_true(of_property_read_bool(np, "wakeup-source"));
	assert_false(of_property_read_bool(np, "missing"));
	assert_true(of_device_is_available(np));
	uirq_of_node_free(np);
}

/* A device's properties are its node's; narrower arrays take one cell each. */
UIRQ_TEST(compat_base, device_properties_read_the_node, .init = setup, .fini = teardown)
{
	struct device dev = { 0 };
	const u32 keymap[] = { 0x01020003, 0x00000161 };
	u32 v32[2];
	u16 v16[2];
	u8 v8;

	dev.of_node = uirq_of_node_new(NULL, "kp");
	assert_eq(uirq_of_node_add_u32s(dev.of_node, "linux,keymap", keymap, 2), 0);
	assert_eq(uirq_of_node_add_bool(dev.of_node, "keypad,autorepeat"), 0);
	assert_eq(device_property_count_u32(&dev, "linux,keymap"), 2);
	assert_eq(device_property_read_u32_array(&dev, "linux,keymap", v32, 2), 0);
	assert_eq(v32[1], 0x161u);
	assert_eq(device_property_read_u16_array(&dev, "linux,keymap", v16, 2), 0);
	assert_eq(v16[0], 0x0003, "one cell, narrowed");
	assert_eq(device_property_read_u8(&dev, "linux,keymap", &v8), 0);
	assert_eq(v8, 0x03);
	assert_eq(device_property_read_u32_array(&dev, "linux,keymap", v32, 3), -EOVERFLOW);
	assert_eq(device_property_read_u32(&dev, "missing", v32), -EINVAL);
	assert_true(device_property_read_bool(&dev, "keypad,autorepeat"));
	assert_false(device_property_present(&dev, "missing"));
	uirq_of_node_free(dev.of_node);
	dev.of_node = NULL;
	assert_eq(device_property_read_u32(&dev, "linux,keymap", v32), -EINVAL, "no node: no property");
}

/* ---- i2c: clients bound by id table and device tree, named BUS-ADDR ---- */

static struct i2c_client *probed_client;
static const struct i2c_device_id *probed_id;

static int i2c_probe(struct i2c_client *client, const struct i2c_device_id *id)
{
	probed_client = client;
	probed_id = id;
	dev_info(&client->dev, "probed at irq %d\n", client->irq);
	return 0;
}

static void i2c_remove(struct i2c_client *client)
{
	(void)client;
	probed_client = NULL;
}

static const struct i2c_device_id i2c_ids[] = { { "widget", 7 }, { } };
static struct i2c_driver widget_driver = {
	.probe = i2c_probe,
	.remove = i2c_remove,
	.id_table = i2c_ids,
	.driver = { .name = "widget-drv" },
};

static int rd(void *priv, uint8_t reg, uint8_t *val)
{
	(void)priv;
	*val = (uint8_t)(reg + 1);
	return 0;
}

static const struct uirq_i2c_sim_device_ops ops = { .read = rd };

UIRQ_TEST(compat_base, i2c_client_binds_and_transfers, .init = setup, .fini = teardown)
{
	struct uirq_i2c_sim *sim;
	struct i2c_adapter *adap;
	struct i2c_board_info info = { I2C_BOARD_INFO("widget", 0x2a), .irq = 33 };
	struct i2c_client *c, *dup;

	assert_eq(uirq_i2c_sim_new("bus", 400000, &sim), 0);
	adap = uirq_compat_i2c_adapter(uirq_i2c_sim_adapter(sim));
	assert_not_null(adap);
	assert_eq(uirq_i2c_sim_attach(sim, 0x2a, &ops, NULL), 0);
	assert_eq(i2c_add_driver(&widget_driver), 0);
	c = i2c_new_client_device(adap, &info);
	assert_false(IS_ERR(c), "%ld", PTR_ERR(c));
	assert_eq(probed_client, c);
	assert_not_null(probed_id);
	assert_eq(probed_id->driver_data, 7ul);
	assert_eq(c->irq, 33);
	char name[64];

	snprintf(name, sizeof(name), "%d-002a", adap->nr);
	assert_str_eq(dev_name(&c->dev), name);
	snprintf(name, sizeof(name), "widget-drv %d-002a: probed at irq 33", adap->nr);
	assert_not_null(strstr(logbuf, name), "%s", logbuf);
	assert_eq(i2c_smbus_read_byte_data(c, 0x10), 0x11);
	/* The address is taken: an ERR_PTR, as the kernel returns. */
	dup = i2c_new_client_device(adap, &info);
	assert_true(IS_ERR(dup));
	assert_eq(PTR_ERR(dup), -EBUSY);
	assert_eq(uirq_compat_i2c_adapter_del(adap), -EBUSY, "the adapter has a client");
	i2c_unregister_device(c);
	assert_null(probed_client, "removed");
	i2c_del_driver(&widget_driver);
	assert_eq(uirq_compat_i2c_adapter_del(adap), 0);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

/* ---- modules ---- */

static int inits, exits;

static int mod_init(void)
{
	inits++;
	return 0;
}
module_init(mod_init);

static void mod_exit(void)
{
	exits++;
}
module_exit(mod_exit);

UIRQ_TEST(compat_base, modules_init_once_and_exit, .init = setup, .fini = teardown)
{
	assert_eq(inits, 0, "nothing runs before the board boots");
	assert_eq(uirq_compat_modules_init(), 0);
	assert_eq(uirq_compat_modules_init(), 0);
	assert_eq(inits, 1, "a live module is not initialised twice");
	uirq_compat_modules_exit();
	assert_eq(exits, 1);
	uirq_compat_modules_exit();
	assert_eq(exits, 1, "nor exited twice");
}

/* ---- input devices in the kernel's shape ---- */

static int devm_input_probe(struct platform_device *pdev)
{
	struct input_dev *in = devm_input_allocate_device(&pdev->dev);

	assert_not_null(in);
	in->name = "devm-keys";
	input_set_capability(in, EV_KEY, KEY_A);
	return input_register_device(in);
}

static struct platform_driver devm_input_driver = { .probe = devm_input_probe, .driver = { .name = "keys" } };

UIRQ_TEST(compat_base, devm_input_device_goes_with_its_driver, .init = setup, .fini = teardown)
{
	struct platform_device *pdev;
	struct input_dev *in;
	struct uirq_input_client *client;
	struct uirq_input_event ev[2];

	assert_eq(platform_driver_register(&devm_input_driver), 0);
	pdev = platform_device_register_simple("keys", PLATFORM_DEVID_NONE, NULL, 0);
	in = uirq_compat_input_find(&pdev->dev);
	assert_not_null(in, "the driver's input device is found by its parent");
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &client), 0);
	input_report_key(in, KEY_A, 1);
	input_sync(in);
	assert_eq(uirq_input_read(client, ev, 2, UIRQ_INPUT_NONBLOCK), 2);
	assert_eq(ev[0].code, KEY_A);
	const struct device *parent = &pdev->dev;

	platform_device_unregister(pdev);
	assert_null(uirq_compat_input_find(parent), "unregistered with its driver");
	assert_eq(uirq_input_read(client, ev, 2, UIRQ_INPUT_NONBLOCK), -ENODEV);
	uirq_input_close(client);
	platform_driver_unregister(&devm_input_driver);
}

UIRQ_TEST(compat_base, input_set_capability_refuses_a_code_past_its_type, .init = setup, .fini = teardown)
{
	struct input_dev *in = input_allocate_device();

	input_set_capability(in, EV_SW, KEY_POWER);
	assert_not_null(strstr(logbuf, "input_set_capability: invalid code 116 for type 5"), "%s", logbuf);
	assert_false(test_bit(EV_SW, in->evbit), "the device is left as it was");
	input_set_capability(in, EV_SW, SW_LID);
	assert_true(test_bit(EV_SW, in->evbit));
	assert_true(test_bit(SW_LID, in->swbit));
	input_free_device(in);
}

UIRQ_TEST(compat_base, child_node_walks, .init = setup, .fini = teardown)
{
	struct device_node *np = uirq_of_node_new(NULL, "parent"), *c, *child;
	int all = 0, available = 0;

	uirq_of_node_new(np, "a");
	c = uirq_of_node_new(np, "b");
	assert_eq(uirq_of_node_add_string(c, "status", "disabled"), 0);
	uirq_of_node_new(np, "c");
	/* Any variable name: the macros' parameters are not the members' names. */
	for_each_child_of_node(np, child)
		all++;
	for_each_available_child_of_node(np, c)
		available++;
	assert_eq(all, 3);
	assert_eq(available, 2, "a disabled node is not available");
	uirq_of_node_free(np);
}

// SPDX-License-Identifier: MIT
/*
 * MFD cells (compat/mfd-core.c) as the kernel's behave: each cell a
 * platform device under the chip's device, numbered id + cell id, given
 * the first available, untaken child node compatible with it (at its
 * address with use_of_reg; none for only disabled ones, a warning for
 * none at all), a copy of its cell and platform data, its resources
 * translated (interrupts through the domain or from irq_base, memory from
 * mem_base); removed newest first, by level; a failure removes what was
 * added; the devm form goes with the chip's driver.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/irqdomain.h>
#include <linux/mfd/core.h>
#include <linux/of.h>
#include <linux/platform_device.h>

#include "harness.h"
#include "uirq/printk.h"

static char logbuf[4096];
static char order[128];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
}

static struct platform_device *chip;
static struct device_node *np;

/* A node under np: compatible compat, and reg when reg >= 0, disabled when asked. */
static struct device_node *child(const char *name, const char *compat, int reg, bool disabled)
{
	struct device_node *c = uirq_of_node_new(np, name);

	assert_not_null(c);
	assert_eq(uirq_of_node_add_string(c, "compatible", compat), 0);
	if (reg >= 0) {
		u32 r = (u32)reg;

		assert_eq(uirq_of_node_add_u32s(c, "reg", &r, 1), 0);
	}
	if (disabled)
		assert_eq(uirq_of_node_add_string(c, "status", "disabled"), 0);
	return c;
}

static void setup(void)
{
	logbuf[0] = order[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	assert_eq(uirq_cpus_start(NULL), 0);
	np = uirq_of_node_new(NULL, "chip");
	chip = platform_device_alloc("chip", PLATFORM_DEVID_NONE);
	chip->dev.of_node = np;
	assert_eq(platform_device_add(chip), 0);
}

static void teardown(void)
{
	platform_device_unregister(chip);
	uirq_of_node_free(np);
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
}

/* Drivers for the cells, noting the order they are removed in. */
static int cell_probe(struct platform_device *pdev)
{
	(void)pdev;
	return 0;
}

static int cell_remove(struct platform_device *pdev)
{
	strncat(order, dev_name(&pdev->dev), sizeof(order) - strlen(order) - 2);
	strcat(order, " ");
	return 0;
}

static struct platform_driver drv_a = { .probe = cell_probe, .remove = cell_remove, .driver = { .name = "a" } };
static struct platform_driver drv_c = { .probe = cell_probe, .remove = cell_remove, .driver = { .name = "c" } };
static struct platform_driver drv_d = { .probe = cell_probe, .remove = cell_remove, .driver = { .name = "d" } };

static struct platform_device *find(const char *name)
{
	struct device *dev = bus_find_device_by_name(&platform_bus_type, NULL, name);

	return dev ? to_platform_device(dev) : NULL;
}

static const struct resource a_res[] = {
	DEFINE_RES_IRQ_NAMED(3, "x"),
	DEFINE_RES_MEM(0x10, 0x10),
};
static const int pdata = 42;

static const struct mfd_cell cells[] = {
	{ .name = "a", .id = 0, .of_compatible = "acme,a", .resources = a_res, .num_resources = 2,
	  .platform_data = (void *)&pdata, .pdata_size = sizeof(pdata) },
	{ .name = "a", .id = 1, .of_compatible = "acme,a" },
	{ .name = "b", .of_compatible = "acme,b" },
	{ .name = "c", .of_compatible = "acme,c", .use_of_reg = true, .of_reg = 6 },
	{ .name = "d", .of_compatible = "acme,d" },
};

UIRQ_TEST(compat_mfd, cells_become_children_with_nodes_and_resources, .init = setup, .fini = teardown)
{
	struct device_node *a0 = child("a@0", "acme,a", -1, false), *a1 = child("a@1", "acme,a", -1, false);
	struct device_node *c5, *c6;
	struct resource mem = DEFINE_RES_MEM(0x1000, 0x100);
	struct irq_domain *domain = irq_domain_add_linear(NULL, 8, &irq_domain_simple_ops, NULL);
	struct platform_device *pa0, *pa1, *pc, *pd;
	struct resource *r;

	child("b", "acme,b", -1, true);
	c5 = child("c@5", "acme,c", 5, false);
	c6 = child("c@6", "acme,c", 6, false);
	(void)c5;
	assert_not_null(domain);
	assert_eq(platform_driver_register(&drv_a), 0);
	assert_eq(platform_driver_register(&drv_c), 0);
	assert_eq(platform_driver_register(&drv_d), 0);
	assert_eq(mfd_add_devices(&chip->dev, 0, cells, ARRAY_SIZE(cells), &mem, 0, domain), 0);
	pa0 = find("a.0"), pa1 = find("a.1"), pc = find("c.0"), pd = find("d.0");
	assert_not_null(pa0);
	assert_not_null(pa1);
	assert_not_null(pc);
	assert_not_null(pd);
	assert_null(find("b.0"), "a cell whose only nodes are disabled is left out, without an error");
	assert_eq(pa0->dev.parent, &chip->dev);
	assert_eq(pa0->dev.of_node, a0, "the first compatible node");
	assert_eq(pa1->dev.of_node, a1, "the next one: a node goes to one device");
	assert_eq(pc->dev.of_node, c6, "the one at the cell's address");
	assert_null(pd->dev.of_node);
	assert_not_null(strstr(logbuf, "d: Failed to locate of_node [id: 0]"), "%s", logbuf);
	assert_not_null(pd->dev.driver, "a cell without a node is still added, and binds by name");
	/* The cell and its data are copies; the resources are translated. */
	assert_ne(mfd_get_cell(pa0), &cells[0]);
	assert_str_eq(mfd_get_cell(pa0)->name, "a");
	assert_ne(dev_get_platdata(&pa0->dev), &pdata);
	assert_eq(*(const int *)dev_get_platdata(&pa0->dev), 42);
	r = platform_get_resource_byname(pa0, IORESOURCE_IRQ, "x");
	assert_not_null(r);
	assert_eq(r->start, (resource_size_t)irq_find_mapping(domain, 3), "through the domain");
	assert_gt(r->start, 0u);
	r = platform_get_resource(pa0, IORESOURCE_MEM, 0);
	assert_eq(r->start, 0x1010u, "from mem_base");
	assert_eq(r->end, 0x101fu);
	/* Removed newest first. */
	mfd_remove_devices(&chip->dev);
	assert_str_eq(order, "d.0 c.0 a.1 a.0 ");
	assert_null(find("a.0"));
	/* The nodes are free again. */
	assert_eq(mfd_add_devices(&chip->dev, 0, cells, 1, NULL, 0, domain), 0);
	assert_eq(find("a.0")->dev.of_node, a0);
	mfd_remove_devices(&chip->dev);
	platform_driver_unregister(&drv_d);
	platform_driver_unregister(&drv_c);
	platform_driver_unregister(&drv_a);
	irq_domain_remove(domain);
}

UIRQ_TEST(compat_mfd, numbering_irq_base_and_levels, .init = setup, .fini = teardown)
{
	static const struct resource irq2[] = { DEFINE_RES_IRQ(2) };
	const struct mfd_cell cs[] = {
		{ .name = "n", .id = 2, .resources = irq2, .num_resources = 1 },
		{ .name = "late", .level = MFD_DEP_LEVEL_HIGH },
	};

	/* No domain: interrupts from irq_base. */
	assert_eq(mfd_add_devices(&chip->dev, 10, cs, 2, NULL, 100, NULL), 0);
	assert_not_null(find("n.12"), "id + cell id");
	assert_eq(platform_get_irq(find("n.12"), 0), 102);
	mfd_remove_devices(&chip->dev);
	assert_null(find("n.12"));
	assert_not_null(find("late.10"), "a HIGH level cell stays until the late removal");
	mfd_remove_devices_late(&chip->dev);
	assert_null(find("late.10"));
	/* PLATFORM_DEVID_AUTO: the bus numbers them. */
	assert_eq(mfd_add_hotplug_devices(&chip->dev, cs, 1), 0);
	assert_not_null(find("n.0.auto"), "the first automatic number of the process");
	mfd_remove_devices(&chip->dev);
}

UIRQ_TEST(compat_mfd, a_failure_removes_what_was_added, .init = setup, .fini = teardown)
{
	static const int node;
	const struct mfd_cell cs[] = {
		{ .name = "ok" },
		{ .name = "soft", .swnode = (const struct software_node *)&node },
	};

	assert_eq(mfd_add_devices(&chip->dev, PLATFORM_DEVID_NONE, cs, 2, NULL, 0, NULL), -EINVAL);
	assert_not_null(strstr(logbuf, "soft: software nodes are not supported"), "%s", logbuf);
	assert_null(find("ok"), "the first cell's device is removed again");
}

/* The chip's driver adds its cells with devm: they go when it unbinds. */
static int parent_probe(struct platform_device *pdev)
{
	static const struct mfd_cell cs[] = { { .name = "d" } };

	return devm_mfd_add_devices(&pdev->dev, PLATFORM_DEVID_NONE, cs, 1, NULL, 0, NULL);
}

static struct platform_driver drv_chip = { .probe = parent_probe, .driver = { .name = "chip" } };

UIRQ_TEST(compat_mfd, devm_cells_go_with_the_chips_driver, .init = setup, .fini = teardown)
{
	assert_eq(platform_driver_register(&drv_d), 0);
	assert_eq(platform_driver_register(&drv_chip), 0);
	assert_not_null(chip->dev.driver);
	assert_not_null(find("d"));
	assert_eq(mfd_cell_enable(find("d")), 0, "a cell without enable(): 0");
	platform_driver_unregister(&drv_chip);
	assert_null(find("d"));
	assert_str_eq(order, "d ");
	platform_driver_unregister(&drv_d);
}

/* SPDX-License-Identifier: MIT */
/*
 * Multi-function devices (compat/mfd-core.c): a chip's driver describes
 * its functions as cells and adds each as a platform device under the
 * chip's device - named by the cell, given the cell's device-tree node
 * (the first available child of the chip's node compatible with the
 * cell), its platform data and its resources, interrupts translated
 * through the chip's irq domain (or from irq_base), memory from mem_base.
 * They are removed newest first, with the chip's devm resources or by
 * mfd_remove_devices().  The kernel's names, fields and messages
 * (drivers/mfd/mfd-core.c, as of Linux 6.1); no ACPI, no software nodes,
 * no regulator supply aliases (no regulator framework here: nobody could
 * look one up).
 */
#ifndef UIRQ_COMPAT_LINUX_MFD_CORE_H
#define UIRQ_COMPAT_LINUX_MFD_CORE_H

#include <linux/irqdomain.h>	/* struct irq_domain is uirq's: one name in every file */
#include <linux/platform_device.h>

#define MFD_RES_SIZE(arr)	(sizeof(arr) / sizeof(struct resource))

#define MFD_CELL_ALL(_name, _res, _pdata, _pdsize, _id, _compat, _of_reg, _use_of_reg, _match) \
	{										\
		.name = (_name),							\
		.resources = (_res),							\
		.num_resources = MFD_RES_SIZE((_res)),					\
		.platform_data = (_pdata),						\
		.pdata_size = (_pdsize),						\
		.of_compatible = (_compat),						\
		.of_reg = (_of_reg),							\
		.use_of_reg = (_use_of_reg),						\
		.acpi_match = (_match),							\
		.id = (_id),								\
	}
#define MFD_CELL_OF_REG(_name, _res, _pdata, _pdsize, _id, _compat, _of_reg) \
	MFD_CELL_ALL(_name, _res, _pdata, _pdsize, _id, _compat, _of_reg, true, NULL)
#define MFD_CELL_OF(_name, _res, _pdata, _pdsize, _id, _compat) \
	MFD_CELL_ALL(_name, _res, _pdata, _pdsize, _id, _compat, 0, false, NULL)
#define MFD_CELL_BASIC(_name, _res, _pdata, _pdsize, _id) \
	MFD_CELL_ALL(_name, _res, _pdata, _pdsize, _id, NULL, 0, false, NULL)
#define MFD_CELL_RES(_name, _res) \
	MFD_CELL_ALL(_name, _res, NULL, 0, 0, NULL, 0, false, NULL)
#define MFD_CELL_NAME(_name) \
	MFD_CELL_ALL(_name, NULL, NULL, 0, 0, NULL, 0, false, NULL)

#define MFD_DEP_LEVEL_NORMAL	0
#define MFD_DEP_LEVEL_HIGH	1

struct software_node;

struct mfd_cell_acpi_match {
	const char *pnpid;
	const unsigned long long adr;
};

struct mfd_cell {
	const char *name;
	int id;
	int level;			/* MFD_DEP_LEVEL_HIGH: removed by mfd_remove_devices_late() only */

	int (*enable)(struct platform_device *dev);
	int (*disable)(struct platform_device *dev);
	int (*suspend)(struct platform_device *dev);
	int (*resume)(struct platform_device *dev);

	void *platform_data;		/* copied, pdata_size bytes, to the device */
	size_t pdata_size;

	const struct software_node *swnode;	/* refused: no software nodes here */

	const char *of_compatible;
	u64 of_reg;			/* with use_of_reg: the node's first "reg" must be this */
	bool use_of_reg;

	const struct mfd_cell_acpi_match *acpi_match;	/* no ACPI: ignored */

	unsigned int num_resources;
	const struct resource *resources;
	bool ignore_resource_conflicts;
	bool pm_runtime_no_callbacks;

	const char * const *parent_supplies;	/* no regulator framework: ignored */
	int num_parent_supplies;
};

/* The cell a device was made from (only for a device mfd_add_devices() made). */
static inline const struct mfd_cell *mfd_get_cell(struct platform_device *pdev)
{
	return pdev->mfd_cell;
}

/* The cell's enable()/disable(), 0 when it has none. */
int mfd_cell_enable(struct platform_device *pdev);
int mfd_cell_disable(struct platform_device *pdev);

/*
 * Add n_devs cells as platform devices under parent, each numbered
 * id + cell->id (PLATFORM_DEVID_AUTO: numbered by the bus).  0, or the
 * first failure's -errno with the devices already added removed.
 */
int mfd_add_devices(struct device *parent, int id, const struct mfd_cell *cells, int n_devs,
		    struct resource *mem_base, int irq_base, struct irq_domain *domain);

static inline int mfd_add_hotplug_devices(struct device *parent, const struct mfd_cell *cells, int n_devs)
{
	return mfd_add_devices(parent, PLATFORM_DEVID_AUTO, cells, n_devs, NULL, 0, NULL);
}

/* Remove parent's MFD devices of level NORMAL (late: HIGH too), newest first. */
void mfd_remove_devices(struct device *parent);
void mfd_remove_devices_late(struct device *parent);

/* As mfd_add_devices(), removed when dev's driver unbinds. */
int devm_mfd_add_devices(struct device *dev, int id, const struct mfd_cell *cells, int n_devs,
			 struct resource *mem_base, int irq_base, struct irq_domain *domain);

#endif

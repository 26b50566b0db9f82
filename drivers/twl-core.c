// SPDX-License-Identifier: MIT
/*
 * The TWL core (drivers/mfd/twl-core.c's part the sub-drivers need): one
 * set of dummy i2c clients per adapter for the chip's four addresses, and
 * the module -> (slave, base) map.  The kernel has one global twl; here
 * several boards may live in one process, so the core is looked up by
 * adapter and reference-counted by the sub-drivers that use it.
 */
#include <errno.h>
#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "twl.h"

struct twl_core {
	struct uirq_i2c_adapter *adap;
	struct i2c_client *client[TWL_NUM_SLAVES];
	int refs;			/* under twl_cores_lock */
	struct twl_core *next;
};

struct twl_mapping {
	u8 sid;		/* slave index: address - 0x48 */
	u8 base;
};

/* include/linux/mfd/twl.h in Linux, its TWL4030 column. */
static const struct twl_mapping twl4030_map[TWL_MODULE_LAST] = {
	[TWL_MODULE_USB]		= { 0, 0x00 },
	[TWL_MODULE_AUDIO_VOICE]	= { 1, 0x00 },
	[TWL_MODULE_PIH]		= { 1, 0x80 },
	[TWL_MODULE_INTBR]		= { 1, 0x85 },
	[TWL_MODULE_MADC]		= { 2, 0x00 },
	[TWL_MODULE_MAIN_CHARGE]	= { 2, 0x74 },
	[TWL_MODULE_PRECHARGE]		= { 2, 0xaa },
	[TWL_MODULE_INTERRUPTS]		= { 2, 0xb9 },
	[TWL_MODULE_KEYPAD]		= { 2, 0xd2 },
	[TWL_MODULE_LED]		= { 2, 0xee },
	[TWL_MODULE_PWM]		= { 2, 0xf8 },
	[TWL_MODULE_SECURED_REG]	= { 3, 0x00 },
	[TWL_MODULE_BACKUP]		= { 3, 0x14 },
	[TWL_MODULE_RTC]		= { 3, 0x1c },
	[TWL4030_MODULE_INT]		= { 3, 0x2e },
	[TWL_MODULE_PM_MASTER]		= { 3, 0x36 },
	[TWL_MODULE_PM_RECEIVER]	= { 3, 0x5b },
};

static DEFINE_MUTEX(twl_cores_lock);
static struct twl_core *twl_cores;

static void twl_core_free(struct twl_core *twl)
{
	for (int i = 0; i < TWL_NUM_SLAVES; i++)
		i2c_unregister_device(twl->client[i]);
	kfree(twl);
}

static struct twl_core *twl_core_new(struct uirq_i2c_adapter *adap)
{
	struct twl_core *twl = kzalloc(sizeof(*twl), GFP_KERNEL);

	if (!twl) {
		errno = ENOMEM;
		return NULL;
	}
	twl->adap = adap;
	for (int i = 0; i < TWL_NUM_SLAVES; i++) {
		struct i2c_adapter *a = uirq_compat_i2c_adapter(adap);
		struct i2c_client *c = a ? i2c_new_dummy_device(a, (unsigned short)(TWL_SLAVE_BASE_ADDR + i)) :
					   ERR_PTR(-ENOMEM);

		if (IS_ERR(c)) {
			twl_core_free(twl);
			errno = (int)-PTR_ERR(c);
			return NULL;
		}
		twl->client[i] = c;
	}
	return twl;
}

struct twl_core *twl_core_get(struct uirq_i2c_adapter *adap)
{
	struct twl_core *twl;

	mutex_lock(&twl_cores_lock);
	for (twl = twl_cores; twl; twl = twl->next)
		if (twl->adap == adap)
			break;
	if (!twl) {
		twl = twl_core_new(adap);
		if (twl) {
			twl->next = twl_cores;
			twl_cores = twl;
		}
	}
	if (twl)
		twl->refs++;
	mutex_unlock(&twl_cores_lock);
	return twl;
}

void twl_core_put(struct twl_core *twl)
{
	struct twl_core **pp;

	if (!twl)
		return;
	mutex_lock(&twl_cores_lock);
	if (--twl->refs > 0) {
		mutex_unlock(&twl_cores_lock);
		return;
	}
	for (pp = &twl_cores; *pp; pp = &(*pp)->next) {
		if (*pp == twl) {
			*pp = twl->next;
			break;
		}
	}
	mutex_unlock(&twl_cores_lock);
	twl_core_free(twl);
}

struct i2c_client *twl_module_client(struct twl_core *twl, enum twl_module mod)
{
	return twl->client[twl4030_map[mod].sid];
}

u8 twl_module_base(enum twl_module mod)
{
	return twl4030_map[mod].base;
}

/* SPDX-License-Identifier: MIT */
/*
 * i2c as drivers see it (compat/i2c.c): the kernel's struct i2c_client -
 * address, name, adapter, interrupt, an embedded struct device - backed by
 * a uirq client (uirq/i2c.h) that carries the transfers; i2c drivers that
 * bind to clients by id table or device-tree compatible, probe and remove;
 * the board's i2c_new_client_device() with its struct i2c_board_info.
 * Calls that fail return an ERR_PTR where the kernel does.
 *
 * The transfer and SMBus calls are macros on uirq's, so that a transfer -
 * which may sleep - is reported at the driver's line, as a kernel
 * backtrace would show it.  The message is uirq's structure under the
 * kernel's name (the same fields).
 *
 * The system's uAPI <linux/i2c.h> comes first for the I2C_M_* and
 * I2C_FUNC_* values, which are the kernel's and uirq's alike.
 */
#ifndef UIRQ_COMPAT_LINUX_I2C_H
#define UIRQ_COMPAT_LINUX_I2C_H

#include_next <linux/i2c.h>
#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>		/* the kernel's <linux/i2c.h> brings the device tree and properties */
#include "uirq/i2c.h"

#define i2c_msg				uirq_i2c_msg

#define I2C_CLIENT_PEC			UIRQ_I2C_CLIENT_PEC
#define I2C_CLIENT_TEN			UIRQ_I2C_CLIENT_TEN
#define I2C_CLIENT_WAKE			0x80
#define I2C_LOCK_ROOT_ADAPTER		0x01
#define I2C_LOCK_SEGMENT		0x02

extern const struct bus_type i2c_bus_type;

/*
 * A bus as client drivers see it: its number, its name, its device (for
 * messages) and the uirq adapter that carries the transfers.  A board gets
 * it with uirq_compat_i2c_adapter(); adapter drivers are not in scope.
 */
struct i2c_adapter {
	struct module *owner;
	unsigned int class;
	int timeout;			/* in jiffies */
	int retries;
	struct device dev;
	int nr;
	char name[48];
	/* uirq's */
	struct uirq_i2c_adapter *uirq;
	struct i2c_adapter *uirq_next;	/* compat/i2c.c's list */
};

/* The kernel-shaped adapter of a uirq adapter, made on first use (one each); NULL on no memory. */
struct i2c_adapter *uirq_compat_i2c_adapter(struct uirq_i2c_adapter *adap);
/* Forget it before the uirq adapter goes: 0, or -EBUSY while it has clients. */
int uirq_compat_i2c_adapter_del(struct i2c_adapter *adap);

struct i2c_client {
	unsigned short flags;
	unsigned short addr;
	char name[I2C_NAME_SIZE];
	struct i2c_adapter *adapter;
	struct device dev;
	int init_irq;			/* the board's */
	int irq;			/* the one the driver gets */
	/* uirq's: the client transfers go through */
	struct uirq_i2c_client *uirq;
};

struct i2c_driver {
	unsigned int class;
	int (*probe)(struct i2c_client *client, const struct i2c_device_id *id);
	void (*remove)(struct i2c_client *client);
	int (*probe_new)(struct i2c_client *client);
	void (*shutdown)(struct i2c_client *client);
	struct device_driver driver;
	const struct i2c_device_id *id_table;
	const unsigned short *address_list;
	u32 flags;
};

/* What a board hands i2c_new_client_device(). */
struct i2c_board_info {
	char type[I2C_NAME_SIZE];
	unsigned short flags;
	unsigned short addr;
	const char *dev_name;
	void *platform_data;
	struct device_node *of_node;
	struct fwnode_handle *fwnode;
	int irq;
};
#define I2C_BOARD_INFO(dev_type, dev_addr)	.type = dev_type, .addr = (dev_addr)

#define to_i2c_client(d)	container_of((d), struct i2c_client, dev)
#define to_i2c_driver(d)	container_of((d), struct i2c_driver, driver)

/* A client on adap as info describes it, offered to the drivers: the client or an ERR_PTR. */
struct i2c_client *i2c_new_client_device(struct i2c_adapter *adap, const struct i2c_board_info *info);
/* A client only driver code talks through (named "dummy", bound to nothing): the client or an ERR_PTR. */
struct i2c_client *i2c_new_dummy_device(struct i2c_adapter *adap, u16 address);
struct i2c_client *devm_i2c_new_dummy_device(struct device *dev, struct i2c_adapter *adap, u16 address);
/* Unbind, delete and free (NULL and ERR_PTRs are ignored). */
void i2c_unregister_device(struct i2c_client *client);

/* Register driver and bind it to every matching client: 0 or -errno. */
int i2c_register_driver(struct module *owner, struct i2c_driver *driver);
#define i2c_add_driver(driver)		i2c_register_driver(THIS_MODULE, (driver))
void i2c_del_driver(struct i2c_driver *driver);
#define module_i2c_driver(driver)	module_driver(driver, i2c_add_driver, i2c_del_driver)
/* The id_table entry client matches, or NULL. */
const struct i2c_device_id *i2c_match_id(const struct i2c_device_id *id, const struct i2c_client *client);
/* The entry of matches the client's node fits best, else one its name is a compatible of (whole or after the comma), or NULL. */
const struct of_device_id *i2c_of_match_device(const struct of_device_id *matches, struct i2c_client *client);
/* The client's id_table entry by its driver, or NULL. */
const struct i2c_device_id *i2c_client_get_device_id(const struct i2c_client *client);

static inline void i2c_set_clientdata(struct i2c_client *client, void *data)
{
	dev_set_drvdata(&client->dev, data);
}

static inline void *i2c_get_clientdata(const struct i2c_client *client)
{
	return dev_get_drvdata(&client->dev);
}

static inline struct i2c_client *i2c_verify_client(struct device *dev)
{
	return dev && dev->bus == &i2c_bus_type ? to_i2c_client(dev) : NULL;
}

#define i2c_get_functionality(a)		uirq_i2c_get_functionality((a)->uirq)
#define i2c_check_functionality(a, f)		uirq_i2c_check_functionality((a)->uirq, (f))
#define i2c_lock_bus(a, flags)			uirq_i2c_lock_bus((a)->uirq)
#define i2c_unlock_bus(a, flags)		uirq_i2c_unlock_bus((a)->uirq)
#define i2c_transfer(a, m, n)			uirq_i2c_transfer((a)->uirq, (m), (n))
#define __i2c_transfer(a, m, n)			uirq_i2c_transfer_locked((a)->uirq, (m), (n))
#define i2c_master_send(c, b, n)		uirq_i2c_master_send((c)->uirq, (const uint8_t *)(b), (n))
#define i2c_master_recv(c, b, n)		uirq_i2c_master_recv((c)->uirq, (uint8_t *)(b), (n))
#define i2c_smbus_read_byte(c)			uirq_i2c_smbus_read_byte((c)->uirq)
#define i2c_smbus_write_byte(c, v)		uirq_i2c_smbus_write_byte((c)->uirq, (v))
#define i2c_smbus_read_byte_data(c, cmd)	uirq_i2c_smbus_read_byte_data((c)->uirq, (cmd))
#define i2c_smbus_write_byte_data(c, cmd, v)	uirq_i2c_smbus_write_byte_data((c)->uirq, (cmd), (v))
#define i2c_smbus_read_word_data(c, cmd)	uirq_i2c_smbus_read_word_data((c)->uirq, (cmd))
#define i2c_smbus_write_word_data(c, cmd, v)	uirq_i2c_smbus_write_word_data((c)->uirq, (cmd), (v))
#define i2c_smbus_read_i2c_block_data(c, cmd, n, vals) \
	uirq_i2c_smbus_read_i2c_block_data((c)->uirq, (cmd), (n), (uint8_t *)(vals))
#define i2c_smbus_write_i2c_block_data(c, cmd, n, vals) \
	uirq_i2c_smbus_write_i2c_block_data((c)->uirq, (cmd), (n), (const uint8_t *)(vals))

#endif

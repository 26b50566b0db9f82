/* SPDX-License-Identifier: MIT */
/*
 * Kernel names for i2c (uirq/i2c.h).  The system's uAPI <linux/i2c.h> comes
 * first for the I2C_M_* and I2C_FUNC_* values, which are the kernel's and
 * uirq's alike.  Where the kernel returns an ERR_PTR, these return NULL
 * with errno set.
 */
#ifndef UIRQ_COMPAT_LINUX_I2C_H
#define UIRQ_COMPAT_LINUX_I2C_H

#include_next <linux/i2c.h>
#include <errno.h>
#include <linux/mutex.h>
#include "uirq/i2c.h"

#define i2c_msg				uirq_i2c_msg
#define i2c_adapter			uirq_i2c_adapter
#define i2c_algorithm			uirq_i2c_algorithm
#define i2c_client			uirq_i2c_client

#ifndef I2C_NAME_SIZE
#define I2C_NAME_SIZE			UIRQ_I2C_NAME_SIZE
#endif
#define I2C_CLIENT_PEC			UIRQ_I2C_CLIENT_PEC
#define I2C_CLIENT_TEN			UIRQ_I2C_CLIENT_TEN
#define I2C_LOCK_ROOT_ADAPTER		0x01
#define I2C_LOCK_SEGMENT		0x02

/* What the kernel hands i2c_new_client_device(). */
struct i2c_board_info {
	char type[I2C_NAME_SIZE];
	unsigned short flags;
	unsigned short addr;
	void *platform_data;
	int irq;
};
#define I2C_BOARD_INFO(dev_type, dev_addr)	.type = dev_type, .addr = (dev_addr)

/* The kernel's shape (an ERR_PTR there): the client, or NULL with errno. */
static inline struct uirq_i2c_client *uirq_compat_client(int err, struct uirq_i2c_client *c)
{
	if (err)
		errno = -err;
	return c;
}

static inline struct uirq_i2c_client *i2c_new_client_device(struct uirq_i2c_adapter *adap,
							    const struct i2c_board_info *info)
{
	struct uirq_i2c_client *c;
	int err = uirq_i2c_new_client_device_flags(adap, info->type, info->addr, info->flags, &c);

	return uirq_compat_client(err, c);
}

static inline struct uirq_i2c_client *i2c_new_dummy_device(struct uirq_i2c_adapter *adap,
							   unsigned short addr)
{
	struct uirq_i2c_client *c;
	int err = uirq_i2c_new_client_device(adap, "dummy", addr, &c);

	return uirq_compat_client(err, c);
}

static inline void i2c_set_clientdata(struct uirq_i2c_client *client, void *data)
{
	client->data = data;
}

static inline void *i2c_get_clientdata(const struct uirq_i2c_client *client)
{
	return client->data;
}

#define i2c_add_adapter(a)			uirq_i2c_add_adapter(a)
#define i2c_del_adapter(a)			uirq_i2c_del_adapter(a)
#define i2c_unregister_device(c)		uirq_i2c_unregister_device(c)
#define i2c_get_functionality(a)		uirq_i2c_get_functionality(a)
#define i2c_check_functionality(a, f)		uirq_i2c_check_functionality((a), (f))
#define i2c_lock_bus(a, flags)			uirq_i2c_lock_bus(a)
#define i2c_unlock_bus(a, flags)		uirq_i2c_unlock_bus(a)
#define i2c_transfer(a, m, n)			uirq_i2c_transfer((a), (m), (n))
#define __i2c_transfer(a, m, n)			uirq_i2c_transfer_locked((a), (m), (n))
#define i2c_master_send(c, b, n)		uirq_i2c_master_send((c), (const uint8_t *)(b), (n))
#define i2c_master_recv(c, b, n)		uirq_i2c_master_recv((c), (uint8_t *)(b), (n))
#define i2c_smbus_read_byte(c)			uirq_i2c_smbus_read_byte(c)
#define i2c_smbus_write_byte(c, v)		uirq_i2c_smbus_write_byte((c), (v))
#define i2c_smbus_read_byte_data(c, cmd)	uirq_i2c_smbus_read_byte_data((c), (cmd))
#define i2c_smbus_write_byte_data(c, cmd, v)	uirq_i2c_smbus_write_byte_data((c), (cmd), (v))
#define i2c_smbus_read_word_data(c, cmd)	uirq_i2c_smbus_read_word_data((c), (cmd))
#define i2c_smbus_write_word_data(c, cmd, v)	uirq_i2c_smbus_write_word_data((c), (cmd), (v))
#define i2c_smbus_read_i2c_block_data(c, cmd, n, vals) \
	uirq_i2c_smbus_read_i2c_block_data((c), (cmd), (n), (uint8_t *)(vals))
#define i2c_smbus_write_i2c_block_data(c, cmd, n, vals) \
	uirq_i2c_smbus_write_i2c_block_data((c), (cmd), (n), (const uint8_t *)(vals))

#endif

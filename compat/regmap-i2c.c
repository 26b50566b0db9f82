// SPDX-License-Identifier: MIT
/*
 * Register maps over i2c (drivers/base/regmap/regmap-i2c.c's behaviour):
 * the bus is chosen from what the adapter can do, in the kernel's order -
 * plain i2c transfers (a register write, then a repeated-start read, in
 * one transfer), else SMBus i2c-block transfers for 8-bit registers and
 * values (32 bytes at most), else SMBus word transfers for 16-bit values,
 * else SMBus byte transfers; an adapter that can carry none of them gives
 * -ENOTSUPP.  A short transfer is -EIO.
 */
#include <stdlib.h>

#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/regmap.h>

static struct i2c_client *client_of(void *context)
{
	return to_i2c_client((struct device *)context);
}

/* ---- plain i2c ---- */

static int i2c_write(void *context, const void *data, size_t count)
{
	struct i2c_client *i2c = client_of(context);
	int ret = i2c_master_send(i2c, data, (int)count);

	return ret == (int)count ? 0 : ret < 0 ? ret : -EIO;
}

static int i2c_read(void *context, const void *reg, size_t reg_size, void *val, size_t val_size)
{
	struct i2c_client *i2c = client_of(context);
	struct i2c_msg xfer[2] = {
		{ .addr = i2c->addr, .flags = 0, .len = (u16)reg_size, .buf = (u8 *)reg },
		{ .addr = i2c->addr, .flags = I2C_M_RD, .len = (u16)val_size, .buf = val },
	};
	int ret = i2c_transfer(i2c->adapter, xfer, 2);

	return ret == 2 ? 0 : ret < 0 ? ret : -EIO;
}

static const struct regmap_bus regmap_i2c = {
	.write = i2c_write,
	.read = i2c_read,
};

/* ---- SMBus i2c blocks: 8-bit registers and values ---- */

static int block_write(void *context, const void *data, size_t count)
{
	const u8 *b = data;

	if (count < 1)
		return -EINVAL;
	return i2c_smbus_write_i2c_block_data(client_of(context), b[0], count - 1, b + 1);
}

static int block_read(void *context, const void *reg, size_t reg_size, void *val, size_t val_size)
{
	int ret;

	if (reg_size != 1 || val_size < 1)
		return -EINVAL;
	ret = i2c_smbus_read_i2c_block_data(client_of(context), ((const u8 *)reg)[0], val_size, val);
	return ret == (int)val_size ? 0 : ret < 0 ? ret : -EIO;
}

static const struct regmap_bus regmap_i2c_smbus_i2c_block = {
	.write = block_write,
	.read = block_read,
	.max_raw_read = I2C_SMBUS_BLOCK_MAX,
	.max_raw_write = I2C_SMBUS_BLOCK_MAX,
};

/* ---- SMBus words (16-bit values, little-endian on the wire; "swapped": big) ---- */

static int word_read(void *context, unsigned int reg, unsigned int *val, bool swapped)
{
	int ret;

	if (reg > 0xff)
		return -EINVAL;
	ret = i2c_smbus_read_word_data(client_of(context), (u8)reg);
	if (ret < 0)
		return ret;
	*val = swapped ? __builtin_bswap16((u16)ret) : (unsigned int)ret;
	return 0;
}

static int word_write(void *context, unsigned int reg, unsigned int val, bool swapped)
{
	if (val > 0xffff || reg > 0xff)
		return -EINVAL;
	return i2c_smbus_write_word_data(client_of(context), (u8)reg, swapped ? __builtin_bswap16((u16)val) : (u16)val);
}

static int word_le_read(void *context, unsigned int reg, unsigned int *val)
{
	return word_read(context, reg, val, false);
}

static int word_le_write(void *context, unsigned int reg, unsigned int val)
{
	return word_write(context, reg, val, false);
}

static int word_be_read(void *context, unsigned int reg, unsigned int *val)
{
	return word_read(context, reg, val, true);
}

static int word_be_write(void *context, unsigned int reg, unsigned int val)
{
	return word_write(context, reg, val, true);
}

static const struct regmap_bus regmap_smbus_word = {
	.reg_read = word_le_read,
	.reg_write = word_le_write,
};

static const struct regmap_bus regmap_smbus_word_swapped = {
	.reg_read = word_be_read,
	.reg_write = word_be_write,
};

/* ---- SMBus bytes ---- */

static int byte_read(void *context, unsigned int reg, unsigned int *val)
{
	int ret;

	if (reg > 0xff)
		return -EINVAL;
	ret = i2c_smbus_read_byte_data(client_of(context), (u8)reg);
	if (ret < 0)
		return ret;
	*val = (unsigned int)ret;
	return 0;
}

static int byte_write(void *context, unsigned int reg, unsigned int val)
{
	if (val > 0xff || reg > 0xff)
		return -EINVAL;
	return i2c_smbus_write_byte_data(client_of(context), (u8)reg, (u8)val);
}

static const struct regmap_bus regmap_smbus_byte = {
	.reg_read = byte_read,
	.reg_write = byte_write,
};

/* The kernel's choice, in its order; an ERR_PTR when the adapter can carry none. */
static const struct regmap_bus *i2c_bus_for(struct i2c_client *i2c, const struct regmap_config *config)
{
	struct i2c_adapter *adap = i2c->adapter;
	bool eight = config->reg_bits == 8 && config->val_bits == 8;

	if (i2c_check_functionality(adap, I2C_FUNC_I2C))
		return &regmap_i2c;
	if (eight && i2c_check_functionality(adap, I2C_FUNC_SMBUS_I2C_BLOCK))
		return &regmap_i2c_smbus_i2c_block;
	if (config->val_bits == 16 && config->reg_bits == 8 && i2c_check_functionality(adap, I2C_FUNC_SMBUS_WORD_DATA)) {
		/* The value order the map asks for; the default is big-endian, as a map's is. */
		if (config->val_format_endian == REGMAP_ENDIAN_LITTLE ||
		    config->val_format_endian == REGMAP_ENDIAN_NATIVE)
			return &regmap_smbus_word;
		return &regmap_smbus_word_swapped;
	}
	if (eight && i2c_check_functionality(adap, I2C_FUNC_SMBUS_BYTE_DATA))
		return &regmap_smbus_byte;
	dev_err(&i2c->dev, "regmap: adapter %s carries no transfer for %d-bit registers of %d bits\n",
		adap->name, config->reg_bits, config->val_bits);
	return ERR_PTR(-ENOTSUPP);
}

struct regmap *__regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config,
				 struct lock_class_key *lock_key, const char *lock_name)
{
	const struct regmap_bus *bus = i2c_bus_for(i2c, config);

	if (IS_ERR(bus))
		return ERR_CAST(bus);
	return __regmap_init(&i2c->dev, bus, &i2c->dev, config, lock_key, lock_name);
}

struct regmap *__devm_regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config,
				      struct lock_class_key *lock_key, const char *lock_name)
{
	const struct regmap_bus *bus = i2c_bus_for(i2c, config);

	if (IS_ERR(bus))
		return ERR_CAST(bus);
	return __devm_regmap_init(&i2c->dev, bus, &i2c->dev, config, lock_key, lock_name);
}

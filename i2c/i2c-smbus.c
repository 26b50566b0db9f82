// SPDX-License-Identifier: MIT
/*
 * SMBus protocols emulated over plain i2c transfers, the way the kernel's
 * i2c_smbus_xfer_emulated() shapes them: a command write, then for reads a
 * repeated start and a read message, all in one transfer.
 */
#include <errno.h>
#include <string.h>

#include "uirq/i2c.h"

static uint16_t msg_flags(const struct uirq_i2c_client *c, uint16_t rd)
{
	return (uint16_t)(rd | ((c->flags & UIRQ_I2C_CLIENT_TEN) ? UIRQ_I2C_M_TEN : 0));
}

/* A write of wlen bytes, then (rlen > 0) a read of rlen bytes after a repeated start. */
static int smbus_xfer(const struct uirq_i2c_client *c, uint8_t *wbuf, uint16_t wlen,
		      uint8_t *rbuf, uint16_t rlen, const char *file, int line)
{
	struct uirq_i2c_msg msgs[2];
	int num = 0, ret;

	if (!c)
		return -EINVAL;
	if (wlen || !rlen)
		msgs[num++] = (struct uirq_i2c_msg){ c->addr, msg_flags(c, 0), wlen, wbuf };
	if (rlen)
		msgs[num++] = (struct uirq_i2c_msg){ c->addr, msg_flags(c, UIRQ_I2C_M_RD), rlen, rbuf };
	ret = uirq__i2c_transfer(c->adapter, msgs, num, file, line);
	if (ret < 0)
		return ret;
	return ret == num ? 0 : -EIO;
}

int32_t uirq__i2c_smbus_read_byte(const struct uirq_i2c_client *c, const char *file, int line)
{
	uint8_t v;
	int ret = smbus_xfer(c, NULL, 0, &v, 1, file, line);

	return ret ? ret : v;
}

int32_t uirq__i2c_smbus_write_byte(const struct uirq_i2c_client *c, uint8_t value,
				   const char *file, int line)
{
	return smbus_xfer(c, &value, 1, NULL, 0, file, line);
}

int32_t uirq__i2c_smbus_read_byte_data(const struct uirq_i2c_client *c, uint8_t command,
				       const char *file, int line)
{
	uint8_t v;
	int ret = smbus_xfer(c, &command, 1, &v, 1, file, line);

	return ret ? ret : v;
}

int32_t uirq__i2c_smbus_write_byte_data(const struct uirq_i2c_client *c, uint8_t command,
					uint8_t value, const char *file, int line)
{
	uint8_t buf[2] = { command, value };

	return smbus_xfer(c, buf, 2, NULL, 0, file, line);
}

int32_t uirq__i2c_smbus_read_word_data(const struct uirq_i2c_client *c, uint8_t command,
				       const char *file, int line)
{
	uint8_t v[2];
	int ret = smbus_xfer(c, &command, 1, v, 2, file, line);

	/* SMBus words travel low byte first. */
	return ret ? ret : (int32_t)(v[0] | (v[1] << 8));
}

int32_t uirq__i2c_smbus_write_word_data(const struct uirq_i2c_client *c, uint8_t command,
					uint16_t value, const char *file, int line)
{
	uint8_t buf[3] = { command, (uint8_t)(value & 0xff), (uint8_t)(value >> 8) };

	return smbus_xfer(c, buf, 3, NULL, 0, file, line);
}

int32_t uirq__i2c_smbus_read_i2c_block_data(const struct uirq_i2c_client *c, uint8_t command,
					    uint8_t length, uint8_t *values,
					    const char *file, int line)
{
	int ret;

	if (!values || !length)
		return -EINVAL;
	if (length > UIRQ_I2C_SMBUS_BLOCK_MAX)
		length = UIRQ_I2C_SMBUS_BLOCK_MAX;
	ret = smbus_xfer(c, &command, 1, values, length, file, line);
	return ret ? ret : length;
}

int32_t uirq__i2c_smbus_write_i2c_block_data(const struct uirq_i2c_client *c, uint8_t command,
					     uint8_t length, const uint8_t *values,
					     const char *file, int line)
{
	uint8_t buf[1 + UIRQ_I2C_SMBUS_BLOCK_MAX];

	if (!values && length)
		return -EINVAL;
	if (length > UIRQ_I2C_SMBUS_BLOCK_MAX)
		length = UIRQ_I2C_SMBUS_BLOCK_MAX;
	buf[0] = command;
	if (length)
		memcpy(buf + 1, values, length);
	return smbus_xfer(c, buf, (uint16_t)(1 + length), NULL, 0, file, line);
}

// SPDX-License-Identifier: MIT
/*
 * SMBus transactions, as the kernel's i2c_smbus_xfer() runs them: through
 * the adapter's own smbus_xfer when it has one (an SMBus-only controller,
 * or a Linux i2c-dev node), otherwise emulated over plain i2c transfers
 * shaped as i2c_smbus_xfer_emulated() shapes them - a command write, then
 * for reads a repeated start and a read message, all in one transfer.
 *
 * Both ways build the emulation's messages first: the emulation sends them,
 * and an smbus_xfer transaction is counted and traced as them, so stats and
 * traces do not depend on which way an adapter went.  The emulation sends
 * no PEC byte.
 */
#include "i2c-core.h"

#include <errno.h>
#include <string.h>

#include "uirq/might_sleep.h"

/* One transaction: the request and the messages that stand for it. */
struct smbus_req {
	uint16_t addr;
	unsigned short flags;
	char read_write;
	uint8_t command;
	int size;
	union uirq_i2c_smbus_data *data;

	struct uirq_i2c_msg msgs[2];
	int num;
	uint8_t wbuf[UIRQ_I2C_SMBUS_BLOCK_MAX + 2];	/* command, [count,] data */
	uint8_t rbuf[UIRQ_I2C_SMBUS_BLOCK_MAX + 1];	/* [count,] data */
};

/* Shape the messages; -EINVAL for a bad block length or missing data, -EOPNOTSUPP for a size we lack. */
static int smbus_build(struct smbus_req *r)
{
	uint16_t ten = (r->flags & UIRQ_I2C_CLIENT_TEN) ? UIRQ_I2C_M_TEN : 0;
	bool rd = r->read_write == UIRQ_I2C_SMBUS_READ;
	union uirq_i2c_smbus_data *d = r->data;
	uint16_t wlen = 1, rlen = 0, rflags = 0;
	uint8_t len;

	r->wbuf[0] = r->command;
	switch (r->size) {
	case UIRQ_I2C_SMBUS_QUICK:
		/* The direction bit is the message: no payload either way. */
		r->msgs[0] = (struct uirq_i2c_msg){ r->addr, (uint16_t)(ten | (rd ? UIRQ_I2C_M_RD : 0)), 0, NULL };
		r->num = 1;
		return 0;
	case UIRQ_I2C_SMBUS_BYTE:
		if (rd && !d)
			return -EINVAL;
		/* Receive byte has no command; send byte sends the command as its byte. */
		if (rd)
			r->msgs[0] = (struct uirq_i2c_msg){ r->addr, (uint16_t)(ten | UIRQ_I2C_M_RD), 1, r->rbuf };
		else
			r->msgs[0] = (struct uirq_i2c_msg){ r->addr, ten, 1, r->wbuf };
		r->num = 1;
		return 0;
	case UIRQ_I2C_SMBUS_BYTE_DATA:
		if (!d)
			return -EINVAL;
		if (rd)
			rlen = 1;
		else
			r->wbuf[wlen++] = d->byte;
		break;
	case UIRQ_I2C_SMBUS_WORD_DATA:
	case UIRQ_I2C_SMBUS_PROC_CALL:
		if (!d)
			return -EINVAL;
		/* A process call writes a word and reads one back, whatever read_write says. */
		if (r->size == UIRQ_I2C_SMBUS_PROC_CALL)
			rd = true;
		if (!rd || r->size == UIRQ_I2C_SMBUS_PROC_CALL) {
			/* SMBus words travel low byte first. */
			r->wbuf[wlen++] = (uint8_t)(d->word & 0xff);
			r->wbuf[wlen++] = (uint8_t)(d->word >> 8);
		}
		if (rd)
			rlen = 2;
		break;
	case UIRQ_I2C_SMBUS_BLOCK_DATA:
		if (!d)
			return -EINVAL;
		if (rd) {
			/* The slave sends the count first; the adapter grows the message by it. */
			rlen = 1;
			rflags = UIRQ_I2C_M_RECV_LEN;
			break;
		}
		len = d->block[0];
		if (!len || len > UIRQ_I2C_SMBUS_BLOCK_MAX)
			return -EINVAL;
		memcpy(r->wbuf + 1, d->block, 1u + len);
		wlen = (uint16_t)(2 + len);
		break;
	case UIRQ_I2C_SMBUS_I2C_BLOCK_DATA:
		if (!d)
			return -EINVAL;
		len = d->block[0];
		if (len > UIRQ_I2C_SMBUS_BLOCK_MAX || (rd && !len))
			return -EINVAL;
		if (rd) {
			rlen = len;
		} else {
			memcpy(r->wbuf + 1, d->block + 1, len);
			wlen = (uint16_t)(1 + len);
		}
		break;
	default:
		return -EOPNOTSUPP;
	}
	r->msgs[0] = (struct uirq_i2c_msg){ r->addr, ten, wlen, r->wbuf };
	r->num = 1;
	if (rd)
		r->msgs[r->num++] = (struct uirq_i2c_msg){
			r->addr, (uint16_t)(ten | UIRQ_I2C_M_RD | rflags), rlen, r->rbuf,
		};
	return 0;
}

/* Whether the transaction brings data back (into r->data). */
static bool smbus_reads(const struct smbus_req *r)
{
	if (r->size == UIRQ_I2C_SMBUS_PROC_CALL)
		return true;
	return r->read_write == UIRQ_I2C_SMBUS_READ && r->size != UIRQ_I2C_SMBUS_QUICK;
}

/* After an emulated read: the read message into data.  0 or -EPROTO (a block count out of range). */
static int smbus_from_msgs(struct smbus_req *r)
{
	union uirq_i2c_smbus_data *d = r->data;

	switch (r->size) {
	case UIRQ_I2C_SMBUS_BYTE:
	case UIRQ_I2C_SMBUS_BYTE_DATA:
		d->byte = r->rbuf[0];
		break;
	case UIRQ_I2C_SMBUS_WORD_DATA:
	case UIRQ_I2C_SMBUS_PROC_CALL:
		d->word = (uint16_t)(r->rbuf[0] | (r->rbuf[1] << 8));
		break;
	case UIRQ_I2C_SMBUS_BLOCK_DATA:
		if (!r->rbuf[0] || r->rbuf[0] > UIRQ_I2C_SMBUS_BLOCK_MAX)
			return -EPROTO;
		memcpy(d->block, r->rbuf, 1u + r->rbuf[0]);
		break;
	case UIRQ_I2C_SMBUS_I2C_BLOCK_DATA:
		memcpy(d->block + 1, r->rbuf, d->block[0]);
		break;
	}
	return 0;
}

/* After an smbus_xfer read: data into the read message, so the trace shows what was read. */
static int smbus_to_msgs(struct smbus_req *r)
{
	const union uirq_i2c_smbus_data *d = r->data;
	struct uirq_i2c_msg *m = &r->msgs[r->num - 1];

	switch (r->size) {
	case UIRQ_I2C_SMBUS_BYTE:
	case UIRQ_I2C_SMBUS_BYTE_DATA:
		r->rbuf[0] = d->byte;
		break;
	case UIRQ_I2C_SMBUS_WORD_DATA:
	case UIRQ_I2C_SMBUS_PROC_CALL:
		r->rbuf[0] = (uint8_t)(d->word & 0xff);
		r->rbuf[1] = (uint8_t)(d->word >> 8);
		break;
	case UIRQ_I2C_SMBUS_BLOCK_DATA:
		if (!d->block[0] || d->block[0] > UIRQ_I2C_SMBUS_BLOCK_MAX)
			return -EPROTO;
		memcpy(r->rbuf, d->block, 1u + d->block[0]);
		m->len = (uint16_t)(1 + d->block[0]);
		break;
	case UIRQ_I2C_SMBUS_I2C_BLOCK_DATA:
		/*
		 * The adapter may shorten the block (i2c-stub does at the last
		 * register) but not lengthen it past what was asked: that would
		 * overrun rbuf here and the caller's buffer after.
		 */
		if (d->block[0] > m->len)
			return -EPROTO;
		memcpy(r->rbuf, d->block + 1, d->block[0]);
		break;
	}
	return 0;
}

/* i2c_xfer_fn for adapters that speak SMBus themselves. */
static int smbus_xfer_fn(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num, void *arg)
{
	struct smbus_req *r = arg;
	int ret;

	(void)msgs;
	ret = adap->algo->smbus_xfer(adap, r->addr, r->flags, r->read_write, r->command,
				      r->size, r->data);
	if (ret)
		return ret < 0 ? ret : -EIO;
	if (smbus_reads(r)) {
		ret = smbus_to_msgs(r);
		if (ret)
			return ret;
	}
	return num;
}

int uirq__i2c_smbus_xfer(struct uirq_i2c_adapter *adap, uint16_t addr, unsigned short flags,
			 char read_write, uint8_t command, int size,
			 union uirq_i2c_smbus_data *data, const char *file, int line)
{
	struct smbus_req r = {
		.addr = addr, .read_write = read_write, .command = command, .size = size, .data = data,
		/* The kernel keeps only the flags that shape the transaction. */
		.flags = flags & (UIRQ_I2C_CLIENT_TEN | UIRQ_I2C_CLIENT_PEC),
	};
	const struct uirq_i2c_algorithm *algo;
	int ret;

	/* First, so a caller in atomic context is named even if it would not block. */
	uirq__might_sleep(file, line);
	if (!adap || (read_write != UIRQ_I2C_SMBUS_READ && read_write != UIRQ_I2C_SMBUS_WRITE))
		return -EINVAL;
	ret = smbus_build(&r);
	if (ret)
		return ret;
	algo = adap->algo;
	if (!algo || (!algo->smbus_xfer && !algo->master_xfer))
		return -EOPNOTSUPP;

	uirq__mutex_lock(&adap->bus_lock, 0, file, line);
	ret = -EOPNOTSUPP;
	if (algo->smbus_xfer)
		ret = i2c_do_transfer(adap, r.msgs, r.num, smbus_xfer_fn, &r, algo->master_xfer != NULL);
	if (ret == -EOPNOTSUPP && algo->master_xfer) {
		ret = i2c_do_transfer(adap, r.msgs, r.num, i2c_master_xfer_fn, NULL, false);
		if (ret >= 0)
			ret = ret != r.num ? -EIO : smbus_reads(&r) ? smbus_from_msgs(&r) : 0;
	}
	uirq__mutex_unlock(&adap->bus_lock, file, line);
	return ret < 0 ? ret : 0;
}

/* ---- the helpers drivers call ---- */

static int client_xfer(const struct uirq_i2c_client *c, char rw, uint8_t command, int size,
		       union uirq_i2c_smbus_data *data, const char *file, int line)
{
	if (!c)
		return -EINVAL;
	return uirq__i2c_smbus_xfer(c->adapter, c->addr, c->flags, rw, command, size, data, file, line);
}

int32_t uirq__i2c_smbus_read_byte(const struct uirq_i2c_client *c, const char *file, int line)
{
	union uirq_i2c_smbus_data d;
	int ret = client_xfer(c, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BYTE, &d, file, line);

	return ret ? ret : d.byte;
}

int32_t uirq__i2c_smbus_write_byte(const struct uirq_i2c_client *c, uint8_t value,
				   const char *file, int line)
{
	return client_xfer(c, UIRQ_I2C_SMBUS_WRITE, value, UIRQ_I2C_SMBUS_BYTE, NULL, file, line);
}

int32_t uirq__i2c_smbus_read_byte_data(const struct uirq_i2c_client *c, uint8_t command,
				       const char *file, int line)
{
	union uirq_i2c_smbus_data d;
	int ret = client_xfer(c, UIRQ_I2C_SMBUS_READ, command, UIRQ_I2C_SMBUS_BYTE_DATA, &d, file, line);

	return ret ? ret : d.byte;
}

int32_t uirq__i2c_smbus_write_byte_data(const struct uirq_i2c_client *c, uint8_t command,
					uint8_t value, const char *file, int line)
{
	union uirq_i2c_smbus_data d = { .byte = value };

	return client_xfer(c, UIRQ_I2C_SMBUS_WRITE, command, UIRQ_I2C_SMBUS_BYTE_DATA, &d, file, line);
}

int32_t uirq__i2c_smbus_read_word_data(const struct uirq_i2c_client *c, uint8_t command,
				       const char *file, int line)
{
	union uirq_i2c_smbus_data d;
	int ret = client_xfer(c, UIRQ_I2C_SMBUS_READ, command, UIRQ_I2C_SMBUS_WORD_DATA, &d, file, line);

	return ret ? ret : d.word;
}

int32_t uirq__i2c_smbus_write_word_data(const struct uirq_i2c_client *c, uint8_t command,
					uint16_t value, const char *file, int line)
{
	union uirq_i2c_smbus_data d = { .word = value };

	return client_xfer(c, UIRQ_I2C_SMBUS_WRITE, command, UIRQ_I2C_SMBUS_WORD_DATA, &d, file, line);
}

int32_t uirq__i2c_smbus_read_i2c_block_data(const struct uirq_i2c_client *c, uint8_t command,
					    uint8_t length, uint8_t *values,
					    const char *file, int line)
{
	union uirq_i2c_smbus_data d;
	int ret;

	if (!values || !length)
		return -EINVAL;
	if (length > UIRQ_I2C_SMBUS_BLOCK_MAX)
		length = UIRQ_I2C_SMBUS_BLOCK_MAX;
	d.block[0] = length;
	ret = client_xfer(c, UIRQ_I2C_SMBUS_READ, command, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA, &d, file, line);
	if (ret)
		return ret;
	memcpy(values, d.block + 1, d.block[0]);
	return d.block[0];
}

int32_t uirq__i2c_smbus_write_i2c_block_data(const struct uirq_i2c_client *c, uint8_t command,
					     uint8_t length, const uint8_t *values,
					     const char *file, int line)
{
	union uirq_i2c_smbus_data d;

	if (!values && length)
		return -EINVAL;
	if (length > UIRQ_I2C_SMBUS_BLOCK_MAX)
		length = UIRQ_I2C_SMBUS_BLOCK_MAX;
	d.block[0] = length;
	if (length)
		memcpy(d.block + 1, values, length);
	return client_xfer(c, UIRQ_I2C_SMBUS_WRITE, command, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA, &d, file, line);
}

// SPDX-License-Identifier: MIT
/*
 * SMBus dispatch (i2c-smbus.c), as the kernel's i2c_smbus_xfer() does it:
 * an adapter's own smbus_xfer gets the transaction as it is; an adapter
 * with only master_xfer gets the messages i2c_smbus_xfer_emulated() would
 * send; an adapter with both falls back to the emulation only when
 * smbus_xfer says -EOPNOTSUPP.  Either way a transaction is counted and
 * traced as the emulation's messages.  Sizes nobody serves are refused
 * with -EOPNOTSUPP, bad arguments with -EINVAL, before any hook runs.
 */
#include <errno.h>
#include <string.h>

#include "io_reports.h"
#include "uirq/i2c.h"

#define OPTS .timeout = 20, .init = io_reports_start
#define ADDR 0x4b

/* ---- a master_xfer that records the messages and answers reads from a script ---- */

struct seen_msg {
	uint16_t addr, flags, len;
	uint8_t data[UIRQ_I2C_SMBUS_BLOCK_MAX + 2];
};

static struct {
	int calls;
	int num;
	struct seen_msg m[2];
	int ret;		/* 0: return num */
	uint8_t reply[UIRQ_I2C_SMBUS_BLOCK_MAX + 1];
	int reply_len;		/* bytes a RECV_LEN read delivers (count byte included) */
} mx;

static int rec_master_xfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num)
{
	(void)adap;
	mx.calls++;
	mx.num = num;
	for (int i = 0; i < num && i < 2; i++) {
		struct uirq_i2c_msg *m = &msgs[i];

		mx.m[i].addr = m->addr;
		mx.m[i].flags = m->flags;
		mx.m[i].len = m->len;
		if (!(m->flags & UIRQ_I2C_M_RD)) {
			assert_le(m->len, sizeof(mx.m[i].data));
			if (m->len)
				memcpy(mx.m[i].data, m->buf, m->len);
		} else if (m->flags & UIRQ_I2C_M_RECV_LEN) {
			/* As a kernel adapter does: the count byte first, the message grows by it. */
			memcpy(m->buf, mx.reply, (size_t)mx.reply_len);
			m->len = (uint16_t)mx.reply_len;
		} else if (m->len) {
			memcpy(m->buf, mx.reply, m->len);
		}
	}
	return mx.ret ? mx.ret : num;
}

/* ---- an smbus_xfer that records the transaction and answers from a script ---- */

static struct {
	int calls;
	uint16_t addr;
	unsigned short flags;
	char rw;
	uint8_t cmd;
	int size;
	bool had_data;
	union uirq_i2c_smbus_data in;	/* data as handed in */
	union uirq_i2c_smbus_data out;	/* what a read returns */
	int ret;
	int refuse_size;		/* this size gets -EOPNOTSUPP (-1: none) */
	int eagain;			/* fail this many calls with -EAGAIN first */
} sx = { .refuse_size = -1 };

static int rec_smbus_xfer(struct uirq_i2c_adapter *adap, uint16_t addr, unsigned short flags,
			  char read_write, uint8_t command, int size, union uirq_i2c_smbus_data *data)
{
	(void)adap;
	sx.calls++;
	sx.addr = addr;
	sx.flags = flags;
	sx.rw = read_write;
	sx.cmd = command;
	sx.size = size;
	sx.had_data = data != NULL;
	if (data)
		sx.in = *data;
	if (sx.eagain > 0) {
		sx.eagain--;
		return -EAGAIN;
	}
	if (size == sx.refuse_size)
		return -EOPNOTSUPP;
	if (sx.ret)
		return sx.ret;
	if (data && (read_write == UIRQ_I2C_SMBUS_READ || size == UIRQ_I2C_SMBUS_PROC_CALL))
		*data = sx.out;
	return 0;
}

static uint32_t funcs = UIRQ_I2C_FUNC_SMBUS_BYTE_DATA | UIRQ_I2C_FUNC_SMBUS_QUICK;

static uint32_t rec_functionality(struct uirq_i2c_adapter *adap)
{
	(void)adap;
	return funcs;
}

static const struct uirq_i2c_algorithm master_only = { .master_xfer = rec_master_xfer };
static const struct uirq_i2c_algorithm smbus_only = {
	.smbus_xfer = rec_smbus_xfer, .functionality = rec_functionality,
};
static const struct uirq_i2c_algorithm both = {
	.master_xfer = rec_master_xfer, .smbus_xfer = rec_smbus_xfer,
};
static const struct uirq_i2c_algorithm neither = { .functionality = rec_functionality };

static struct uirq_i2c_adapter adap;
static struct uirq_i2c_client *cl;

static void add(const struct uirq_i2c_algorithm *algo)
{
	memset(&adap, 0, sizeof(adap));
	snprintf(adap.name, sizeof(adap.name), "smbus-test");
	adap.algo = algo;
	assert_eq(uirq_i2c_add_adapter(&adap), 0);
	assert_eq(uirq_i2c_new_client_device(&adap, "chip", ADDR, &cl), 0);
}

static void del(void)
{
	uirq_i2c_unregister_device(cl);
	assert_eq(uirq_i2c_del_adapter(&adap), 0);
}

static void assert_sx(int calls, char rw, uint8_t cmd, int size)
{
	assert_eq(sx.calls, calls, "smbus_xfer calls %d, want %d", sx.calls, calls);
	assert_eq(sx.addr, ADDR);
	assert_eq(sx.rw, rw, "read_write %d, want %d", sx.rw, rw);
	assert_eq(sx.cmd, cmd, "command %#x, want %#x", sx.cmd, cmd);
	assert_eq(sx.size, size, "size %d, want %d", sx.size, size);
}

static void assert_msg(int i, uint16_t flags, uint16_t len, const uint8_t *data)
{
	assert_eq(mx.m[i].addr, ADDR, "msg %d addr %#x", i, mx.m[i].addr);
	assert_eq(mx.m[i].flags, flags, "msg %d flags %#x, want %#x", i, mx.m[i].flags, flags);
	assert_eq(mx.m[i].len, len, "msg %d len %u, want %u", i, mx.m[i].len, len);
	if (data)
		assert_eq(memcmp(mx.m[i].data, data, len), 0, "msg %d payload", i);
}

/* ---- an adapter with only smbus_xfer: each helper's transaction as it is ---- */

UIRQ_TEST(i2c_smbus, smbus_only_adapter_gets_each_helper, OPTS)
{
	uint8_t buf[UIRQ_I2C_SMBUS_BLOCK_MAX], blk[3] = { 9, 8, 7 };
	struct uirq_i2c_stats st;

	add(&smbus_only);
	sx.out.byte = 0xa7;
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0xa7);
	assert_sx(1, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BYTE);
	assert_true(sx.had_data);

	assert_eq(uirq_i2c_smbus_write_byte(cl, 0x81), 0);
	assert_sx(2, UIRQ_I2C_SMBUS_WRITE, 0x81, UIRQ_I2C_SMBUS_BYTE);
	assert_false(sx.had_data, "send byte carries its byte as the command, as the kernel's");

	sx.out.byte = 0x5a;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), 0x5a);
	assert_sx(3, UIRQ_I2C_SMBUS_READ, 0x45, UIRQ_I2C_SMBUS_BYTE_DATA);

	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x10, 0xfe), 0);
	assert_sx(4, UIRQ_I2C_SMBUS_WRITE, 0x10, UIRQ_I2C_SMBUS_BYTE_DATA);
	assert_eq(sx.in.byte, 0xfe);

	sx.out.word = 0xbeef;
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x20), 0xbeef);
	assert_sx(5, UIRQ_I2C_SMBUS_READ, 0x20, UIRQ_I2C_SMBUS_WORD_DATA);

	assert_eq(uirq_i2c_smbus_write_word_data(cl, 0x22, 0x1234), 0);
	assert_sx(6, UIRQ_I2C_SMBUS_WRITE, 0x22, UIRQ_I2C_SMBUS_WORD_DATA);
	assert_eq(sx.in.word, 0x1234);

	memset(&sx.out, 0, sizeof(sx.out));
	sx.out.block[0] = 4;
	memcpy(sx.out.block + 1, "\x01\x02\x03\x04", 4);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x30, 4, buf), 4);
	assert_sx(7, UIRQ_I2C_SMBUS_READ, 0x30, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA);
	assert_eq(sx.in.block[0], 4, "the length asked for goes in block[0]");
	assert_eq(memcmp(buf, "\x01\x02\x03\x04", 4), 0);

	sx.out.block[0] = 32;
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x30, 40, buf), 32);
	assert_eq(sx.in.block[0], 32, "clamped to the SMBus block maximum");

	assert_eq(uirq_i2c_smbus_write_i2c_block_data(cl, 0x31, 3, blk), 0);
	assert_sx(9, UIRQ_I2C_SMBUS_WRITE, 0x31, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA);
	assert_eq(sx.in.block[0], 3);
	assert_eq(memcmp(sx.in.block + 1, blk, 3), 0);

	/* Counted as the messages the emulation would have sent. */
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.transfers, 9);
	assert_eq(st.messages, 1 + 1 + 2 + 1 + 2 + 1 + 2 + 2 + 1, "messages %llu",
		     (unsigned long long)st.messages);
	assert_eq(st.bytes, 1 + 1 + 2 + 2 + 3 + 3 + 5 + 33 + 4, "bytes %llu", (unsigned long long)st.bytes);
	assert_eq(st.errors, 0);

	/* No master_xfer: plain transfers are refused and never reach smbus_xfer. */
	assert_eq(uirq_i2c_master_send(cl, blk, 3), -EOPNOTSUPP);
	assert_eq(uirq_i2c_master_recv(cl, buf, 1), -EOPNOTSUPP);
	assert_eq(sx.calls, 9);
	del();
	assert_no_reports();
}

UIRQ_TEST(i2c_smbus, smbus_xfer_results_and_flags, OPTS)
{
	struct uirq_i2c_client *ten;
	union uirq_i2c_smbus_data d = { .byte = 1 };
	struct uirq_i2c_stats st;

	add(&smbus_only);
	/* The hook's errno passes unchanged and is counted by kind. */
	sx.ret = -ENXIO;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x01), -ENXIO);
	sx.ret = -ETIMEDOUT;
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x01, 2), -ETIMEDOUT);
	/* A positive return is no success. */
	sx.ret = 5;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x01), -EIO);
	sx.ret = 0;
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.transfers, 3);
	assert_eq(st.errors, 3);
	assert_eq(st.err_nak, 1);
	assert_eq(st.err_timeout, 1);
	assert_eq(st.err_io, 1);

	/* Only the flags that shape a transaction reach the adapter. */
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0xffff, UIRQ_I2C_SMBUS_WRITE, 3,
					 UIRQ_I2C_SMBUS_BYTE_DATA, &d), 0);
	assert_eq(sx.flags, UIRQ_I2C_CLIENT_TEN | UIRQ_I2C_CLIENT_PEC, "flags %#x", sx.flags);
	assert_eq(uirq_i2c_new_client_device_flags(&adap, "ten", 0x2a5, UIRQ_I2C_CLIENT_TEN, &ten), 0);
	assert_eq(uirq_i2c_smbus_write_byte_data(ten, 0x10, 1), 0);
	assert_eq(sx.addr, 0x2a5);
	assert_eq(sx.flags, UIRQ_I2C_CLIENT_TEN);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x10, 1), 0);
	assert_eq(sx.flags, 0);
	uirq_i2c_unregister_device(ten);

	/* Arbitration lost (-EAGAIN) is retried within adap->retries, as for plain transfers. */
	adap.retries = 2;
	sx.eagain = 2;
	sx.out.byte = 0x33;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x01), 0x33);
	uirq_i2c_reset_stats(&adap);
	sx.eagain = 3;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x01), -EAGAIN, "one try and two retries");
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.retries, 2);
	assert_eq(st.err_arbitration, 1);
	sx.eagain = 0;
	del();
	assert_no_reports();
}

/* An SMBus block count out of range from the adapter is a protocol error, never a copy. */
UIRQ_TEST(i2c_smbus, smbus_xfer_bad_block_counts, OPTS)
{
	union uirq_i2c_smbus_data d;
	uint8_t buf[UIRQ_I2C_SMBUS_BLOCK_MAX];

	add(&smbus_only);
	memset(&sx.out, 0xee, sizeof(sx.out));
	sx.out.block[0] = 0;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 1, UIRQ_I2C_SMBUS_BLOCK_DATA, &d),
		     -EPROTO);
	sx.out.block[0] = UIRQ_I2C_SMBUS_BLOCK_MAX + 1;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 1, UIRQ_I2C_SMBUS_BLOCK_DATA, &d),
		     -EPROTO);
	sx.out.block[0] = 3;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 1, UIRQ_I2C_SMBUS_BLOCK_DATA, &d), 0);
	assert_eq(d.block[0], 3);
	assert_eq(d.block[3], 0xee);
	/* An i2c block read that comes back longer than a block: refused, not copied past the buffers. */
	sx.out.block[0] = 0xff;
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x10, 4, buf), -EPROTO);
	sx.out.block[0] = 32;
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x10, 4, buf), -EPROTO, "longer than asked");
	sx.out.block[0] = 2;
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x10, 4, buf), 2, "a shorter block is the adapter's say");
	del();
	assert_no_reports();
}

/* The trace shows an smbus_xfer transaction as the emulation's messages, read data filled in. */
static struct {
	int n, num, ret;
	struct seen_msg m[2];
} tr;

static void trace(const struct uirq_i2c_trace *t, void *arg)
{
	(void)arg;
	tr.n++;
	tr.num = t->num;
	tr.ret = t->ret;
	for (int i = 0; i < t->num && i < 2; i++) {
		tr.m[i].addr = t->msgs[i].addr;
		tr.m[i].flags = t->msgs[i].flags;
		tr.m[i].len = t->msgs[i].len;
		memcpy(tr.m[i].data, t->msgs[i].buf, t->msgs[i].len);
	}
}

UIRQ_TEST(i2c_smbus, smbus_xfer_is_traced_as_messages, OPTS)
{
	union uirq_i2c_smbus_data d;

	add(&smbus_only);
	memset(&tr, 0, sizeof(tr));
	uirq_i2c_set_trace(&adap, trace, NULL);
	sx.out.word = 0xbeef;
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x20), 0xbeef);
	assert_eq(tr.n, 1);
	assert_eq(tr.num, 2);
	assert_eq(tr.ret, 2);
	assert_eq(tr.m[0].flags, 0);
	assert_eq(tr.m[0].len, 1);
	assert_eq(tr.m[0].data[0], 0x20);
	assert_eq(tr.m[1].flags, UIRQ_I2C_M_RD);
	assert_eq(tr.m[1].len, 2);
	assert_eq(tr.m[1].data[0], 0xef, "low byte first");
	assert_eq(tr.m[1].data[1], 0xbe);

	/* A block read's message shows the count and the bytes that came. */
	memset(&sx.out, 0, sizeof(sx.out));
	memcpy(sx.out.block, "\x03\xaa\xbb\xcc", 4);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 7, UIRQ_I2C_SMBUS_BLOCK_DATA, &d), 0);
	assert_eq(tr.n, 2);
	assert_eq(tr.m[1].flags, UIRQ_I2C_M_RD | UIRQ_I2C_M_RECV_LEN);
	assert_eq(tr.m[1].len, 4);
	assert_eq(memcmp(tr.m[1].data, "\x03\xaa\xbb\xcc", 4), 0);

	sx.ret = -ENXIO;
	assert_eq(uirq_i2c_smbus_write_byte(cl, 0x01), -ENXIO);
	assert_eq(tr.n, 3);
	assert_eq(tr.ret, -ENXIO);
	assert_eq(tr.num, 1);
	sx.ret = 0;
	uirq_i2c_set_trace(&adap, NULL, NULL);
	del();
	assert_no_reports();
}

/* ---- an adapter with only master_xfer: the kernel's emulation, message by message ---- */

UIRQ_TEST(i2c_smbus, emulation_shapes_messages, OPTS)
{
	union uirq_i2c_smbus_data d;
	uint8_t buf[8];

	add(&master_only);
	memset(&mx, 0, sizeof(mx));

	mx.reply[0] = 0x5a;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), 0x5a);
	assert_eq(mx.calls, 1, "one transfer: write, repeated start, read");
	assert_eq(mx.num, 2);
	assert_msg(0, 0, 1, (const uint8_t *)"\x45");
	assert_msg(1, UIRQ_I2C_M_RD, 1, NULL);

	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x10, 0xfe), 0);
	assert_eq(mx.num, 1);
	assert_msg(0, 0, 2, (const uint8_t *)"\x10\xfe");

	mx.reply[0] = 0xef;
	mx.reply[1] = 0xbe;
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x20), 0xbeef, "low byte first");
	assert_eq(mx.num, 2);
	assert_msg(0, 0, 1, (const uint8_t *)"\x20");
	assert_msg(1, UIRQ_I2C_M_RD, 2, NULL);

	assert_eq(uirq_i2c_smbus_write_word_data(cl, 0x22, 0x1234), 0);
	assert_eq(mx.num, 1);
	assert_msg(0, 0, 3, (const uint8_t *)"\x22\x34\x12");

	mx.reply[0] = 0x77;
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0x77);
	assert_eq(mx.num, 1);
	assert_msg(0, UIRQ_I2C_M_RD, 1, NULL);

	assert_eq(uirq_i2c_smbus_write_byte(cl, 0x81), 0);
	assert_eq(mx.num, 1);
	assert_msg(0, 0, 1, (const uint8_t *)"\x81");

	/* Quick: the direction bit is the whole message. */
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_QUICK, NULL), 0);
	assert_eq(mx.num, 1);
	assert_msg(0, 0, 0, NULL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_QUICK, NULL), 0);
	assert_msg(0, UIRQ_I2C_M_RD, 0, NULL);

	/* Process call: a word out, a word back, whatever read_write says. */
	d.word = 0xa55a;
	mx.reply[0] = 0x11;
	mx.reply[1] = 0x22;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0x40, UIRQ_I2C_SMBUS_PROC_CALL, &d), 0);
	assert_eq(mx.num, 2);
	assert_msg(0, 0, 3, (const uint8_t *)"\x40\x5a\xa5");
	assert_msg(1, UIRQ_I2C_M_RD, 2, NULL);
	assert_eq(d.word, 0x2211);

	/* SMBus block write: command, count, data. */
	memcpy(d.block, "\x03\x01\x02\x03", 4);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0x50, UIRQ_I2C_SMBUS_BLOCK_DATA, &d), 0);
	assert_eq(mx.num, 1);
	assert_msg(0, 0, 5, (const uint8_t *)"\x50\x03\x01\x02\x03");

	/* SMBus block read: a RECV_LEN read the slave's count grows. */
	memcpy(mx.reply, "\x03\xaa\xbb\xcc", 4);
	mx.reply_len = 4;
	memset(&d, 0, sizeof(d));
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0x51, UIRQ_I2C_SMBUS_BLOCK_DATA, &d), 0);
	assert_eq(mx.num, 2);
	assert_msg(0, 0, 1, (const uint8_t *)"\x51");
	assert_eq(mx.m[1].flags, UIRQ_I2C_M_RD | UIRQ_I2C_M_RECV_LEN);
	assert_eq(memcmp(d.block, "\x03\xaa\xbb\xcc", 4), 0);
	/* A count of 0 or above 32 from the slave is a protocol error. */
	mx.reply[0] = 0;
	mx.reply_len = 1;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0x51, UIRQ_I2C_SMBUS_BLOCK_DATA, &d),
		     -EPROTO);
	mx.reply[0] = UIRQ_I2C_SMBUS_BLOCK_MAX + 1;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0x51, UIRQ_I2C_SMBUS_BLOCK_DATA, &d),
		     -EPROTO);

	/* I2C block: command then the bytes, or command, repeated start, length bytes. */
	assert_eq(uirq_i2c_smbus_write_i2c_block_data(cl, 0x60, 3, (const uint8_t *)"\x07\x08\x09"), 0);
	assert_eq(mx.num, 1);
	assert_msg(0, 0, 4, (const uint8_t *)"\x60\x07\x08\x09");
	memcpy(mx.reply, "\x0a\x0b\x0c\x0d\x0e", 5);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x61, 5, buf), 5);
	assert_eq(mx.num, 2);
	assert_msg(0, 0, 1, (const uint8_t *)"\x61");
	assert_msg(1, UIRQ_I2C_M_RD, 5, NULL);
	assert_eq(memcmp(buf, "\x0a\x0b\x0c\x0d\x0e", 5), 0);
	del();
	assert_no_reports();
}

UIRQ_TEST(i2c_smbus, emulation_ten_bit_and_errors, OPTS)
{
	struct uirq_i2c_client *ten;
	struct uirq_i2c_stats st;

	add(&master_only);
	memset(&mx, 0, sizeof(mx));
	assert_eq(uirq_i2c_new_client_device_flags(&adap, "ten", ADDR, UIRQ_I2C_CLIENT_TEN, &ten), 0);
	mx.reply[0] = 0x42;
	assert_eq(uirq_i2c_smbus_read_byte_data(ten, 0x01), 0x42);
	assert_msg(0, UIRQ_I2C_M_TEN, 1, (const uint8_t *)"\x01");
	assert_msg(1, UIRQ_I2C_M_TEN | UIRQ_I2C_M_RD, 1, NULL);
	uirq_i2c_unregister_device(ten);

	uirq_i2c_reset_stats(&adap);
	mx.ret = -ENXIO;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x01), -ENXIO, "the adapter's error unchanged");
	/* Fewer messages than sent is an incomplete transaction. */
	mx.ret = 1;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x01), -EIO);
	mx.ret = 0;
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.transfers, 2);
	assert_eq(st.err_nak, 1);
	del();
	assert_no_reports();
}

/* ---- both hooks: smbus_xfer first, the emulation only on its -EOPNOTSUPP ---- */

UIRQ_TEST(i2c_smbus, fallback_to_emulation_on_eopnotsupp, OPTS)
{
	struct uirq_i2c_stats st;

	add(&both);
	memset(&mx, 0, sizeof(mx));
	memset(&tr, 0, sizeof(tr));
	uirq_i2c_set_trace(&adap, trace, NULL);

	/* Served by smbus_xfer: master_xfer never runs. */
	sx.out.byte = 0x11;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x05), 0x11);
	assert_eq(sx.calls, 1);
	assert_eq(mx.calls, 0);

	/* Refused by smbus_xfer: emulated, counted and traced once. */
	sx.refuse_size = UIRQ_I2C_SMBUS_WORD_DATA;
	mx.reply[0] = 0x34;
	mx.reply[1] = 0x12;
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x06), 0x1234);
	assert_eq(sx.calls, 2);
	assert_eq(mx.calls, 1);
	assert_msg(0, 0, 1, (const uint8_t *)"\x06");
	assert_msg(1, UIRQ_I2C_M_RD, 2, NULL);
	assert_eq(tr.n, 2, "one trace per transaction");
	assert_eq(tr.ret, 2);
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.transfers, 2, "the refused attempt is not a transfer");
	assert_eq(st.errors, 0);
	assert_eq(st.err_other, 0);

	/* Any other error from smbus_xfer is the answer: no second try by emulation. */
	sx.ret = -EIO;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x05), -EIO);
	assert_eq(mx.calls, 1);
	sx.ret = 0;

	/* The emulation's own refusal comes back as is. */
	mx.ret = -EOPNOTSUPP;
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x06), -EOPNOTSUPP);
	mx.ret = 0;
	sx.refuse_size = -1;
	uirq_i2c_set_trace(&adap, NULL, NULL);
	del();
	assert_no_reports();
}

/* ---- functionality and what nobody serves ---- */

UIRQ_TEST(i2c_smbus, functionality_and_unsupported, OPTS)
{
	struct uirq_i2c_adapter none = { .name = "none", .algo = &neither };
	struct uirq_i2c_stats st;
	union uirq_i2c_smbus_data d = { .word = 0 };

	add(&smbus_only);
	assert_eq(uirq_i2c_get_functionality(&adap), funcs);
	assert_true(uirq_i2c_check_functionality(&adap, UIRQ_I2C_FUNC_SMBUS_BYTE_DATA));
	assert_true(uirq_i2c_check_functionality(&adap, UIRQ_I2C_FUNC_SMBUS_READ_BYTE_DATA));
	assert_false(uirq_i2c_check_functionality(&adap, UIRQ_I2C_FUNC_SMBUS_WORD_DATA));
	assert_false(uirq_i2c_check_functionality(&adap, UIRQ_I2C_FUNC_SMBUS_BYTE_DATA |
						   UIRQ_I2C_FUNC_SMBUS_WRITE_WORD_DATA), "every bit");
	assert_false(uirq_i2c_check_functionality(&adap, UIRQ_I2C_FUNC_I2C));
	assert_eq(uirq_i2c_get_functionality(NULL), 0);

	/*
	 * As in the kernel, the core does not police the bits: the adapter
	 * refuses what it lacks with -EOPNOTSUPP, and with no master_xfer to
	 * fall back on that is the caller's answer, counted as a failure.
	 */
	sx.calls = 0;
	sx.refuse_size = UIRQ_I2C_SMBUS_WORD_DATA;
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x01), -EOPNOTSUPP);
	assert_eq(sx.calls, 1);
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.transfers, 1);
	assert_eq(st.err_other, 1);
	sx.refuse_size = -1;

	/* Sizes uirq has no shape for: -EOPNOTSUPP before any hook, nothing counted. */
	static const int bad_sizes[] = { 6 /* BLOCK_PROC_CALL */, 7 /* I2C_BLOCK_BROKEN */, 9, 100, -1 };

	uirq_i2c_reset_stats(&adap);
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		d.block[0] = 1;
		assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, bad_sizes[i], &d),
			     -EOPNOTSUPP, "size %d", bad_sizes[i]);
		assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, bad_sizes[i], &d),
			     -EOPNOTSUPP, "size %d", bad_sizes[i]);
	}
	assert_eq(sx.calls, 1);
	uirq_i2c_get_stats(&adap, &st);
	assert_eq(st.transfers, 0);

	/* An adapter with neither hook serves nothing. */
	assert_eq(uirq_i2c_add_adapter(&none), 0);
	assert_eq(uirq_i2c_smbus_xfer(&none, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BYTE_DATA, &d),
		     -EOPNOTSUPP);
	assert_eq(uirq_i2c_del_adapter(&none), 0);
	del();
	assert_no_reports();
}

UIRQ_TEST(i2c_smbus, bad_arguments_never_reach_a_hook, OPTS)
{
	union uirq_i2c_smbus_data d;
	uint8_t buf[4] = { 0 };

	add(&both);
	memset(&mx, 0, sizeof(mx));
	sx.calls = 0;
	memset(&d, 0, sizeof(d));
	assert_eq(uirq_i2c_smbus_xfer(NULL, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BYTE_DATA, &d), -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, 2, 0, UIRQ_I2C_SMBUS_BYTE_DATA, &d), -EINVAL,
		     "read_write is READ or WRITE");
	/* Sizes that carry data need it. */
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BYTE, NULL), -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_BYTE_DATA, NULL),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_WORD_DATA, NULL),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_PROC_CALL, NULL),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BLOCK_DATA, NULL),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA, NULL),
		     -EINVAL);
	/* Block lengths: SMBus blocks 1..32, i2c block writes 0..32, reads 1..32. */
	d.block[0] = 0;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_BLOCK_DATA, &d),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA, &d),
		     -EINVAL);
	d.block[0] = UIRQ_I2C_SMBUS_BLOCK_MAX + 1;
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_BLOCK_DATA, &d),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA, &d),
		     -EINVAL);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_I2C_BLOCK_DATA, &d),
		     -EINVAL);
	/* The helpers' own checks. */
	assert_eq(uirq_i2c_smbus_read_byte_data(NULL, 0), -EINVAL);
	assert_eq(uirq_i2c_smbus_write_word_data(NULL, 0, 0), -EINVAL);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0, 0, buf), -EINVAL);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0, 4, NULL), -EINVAL);
	assert_eq(uirq_i2c_smbus_write_i2c_block_data(cl, 0, 4, NULL), -EINVAL);
	assert_eq(sx.calls, 0);
	assert_eq(mx.calls, 0);

	/* A deleted adapter: -ENODEV from the core, no hook. */
	uirq_i2c_unregister_device(cl);
	assert_eq(uirq_i2c_del_adapter(&adap), 0);
	assert_eq(uirq_i2c_smbus_xfer(&adap, ADDR, 0, UIRQ_I2C_SMBUS_READ, 0, UIRQ_I2C_SMBUS_BYTE_DATA, &d),
		     -ENODEV);
	assert_eq(sx.calls, 0);
	assert_eq(mx.calls, 0);
	assert_no_reports();
}

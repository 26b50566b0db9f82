// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: the i2c-dev adapter (i2c/i2c-dev.c) on i2c-stub
 * (chip at 0x4b).  Every value written through the uirq i2c API is read
 * back through a second, raw libi2c file on the same /dev/i2c-N and the
 * other way round, so the data provably crossed the kernel.  Kernel errors
 * pass through unchanged (i2c-stub: -ENODEV for an address without a chip,
 * -EOPNOTSUPP for a transaction it lacks), opening gives the documented
 * errnos, functionality is the kernel adapter's, and closing with clients
 * attached is refused without closing anything.
 */
#include "harness.h"
#include "vm-hw.h"

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "uirq/i2c.h"

#define STUB_ADDR 0x4b
#define ABSENT 0x20

static struct uirq_i2c_adapter *adap;
static struct uirq_i2c_client *cl;
static int raw = -1;	/* a raw libi2c file on the same bus, slave STUB_ADDR */
static int bus;
static char node[32];

static void setup(void)
{
	bus = vm_i2c_bus(VM_STUB_NAME);
	assert_ge(bus, 0, "no i2c-dev node for i2c-stub");
	snprintf(node, sizeof(node), "/dev/i2c-%d", bus);
	int ret = uirq_i2c_dev_open(VM_STUB_NAME, &adap);

	assert_eq(ret, 0, "uirq_i2c_dev_open: %d (%s)", ret, strerror(-ret));
	assert_eq(uirq_i2c_new_client_device(adap, "stub", STUB_ADDR, &cl), 0);
	assert_not_null(cl, "client: %s", strerror(errno));
	raw = vm_i2c_open(VM_STUB_NAME, STUB_ADDR);
	assert_ge(raw, 0, "raw: %s", strerror(-raw));
}

static void teardown(void)
{
	uirq_i2c_unregister_device(cl);
	uirq_i2c_dev_close(adap);
	close(raw);
}

#define OPTS .timeout = 60, .init = setup

/* Run fn(arg) with stderr captured into buf. */
static void capture_stderr(void (*fn)(void *), void *arg, char *buf, size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	assert_not_null(tmp);
	assert_ge(saved, 0);
	fflush(stderr);
	assert_ge(dup2(fileno(tmp), 2), 0);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, size - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

/* ---- opening ---- */

UIRQ_TEST(vm_i2cdev, open_by_every_spelling, .timeout = 60)
{
	char which[4][32];
	struct uirq_i2c_adapter *a[4];
	int n = vm_i2c_bus(VM_STUB_NAME);

	assert_ge(n, 0);
	snprintf(which[0], sizeof(which[0]), "%s", VM_STUB_NAME);
	snprintf(which[1], sizeof(which[1]), "/dev/i2c-%d", n);
	snprintf(which[2], sizeof(which[2]), "%d", n);
	snprintf(which[3], sizeof(which[3]), "i2c-%d", n);
	for (int i = 0; i < 4; i++) {
		int ret = uirq_i2c_dev_open(which[i], &a[i]);

		assert_eq(ret, 0, "\"%s\": %d (%s)", which[i], ret, strerror(-ret));
		assert_str_eq(a[i]->name, "i2c-dev:" VM_STUB_NAME);
		for (int j = 0; j < i; j++)
			assert_ne(a[i]->nr, a[j]->nr, "each open is its own uirq adapter");
	}
	for (int i = 0; i < 4; i++)
		uirq_i2c_dev_close(a[i]);
}

UIRQ_TEST(vm_i2cdev, open_errors, .timeout = 60)
{
	struct uirq_i2c_adapter *sentinel = (struct uirq_i2c_adapter *)0x1, *a = sentinel;
	char longpath[300];
	int devnull = harness_fds_on("/dev/null");

	assert_eq(uirq_i2c_dev_open("99", &a), -ENOENT, "no /dev/i2c-99");
	assert_eq(uirq_i2c_dev_open("i2c-99", &a), -ENOENT);
	assert_eq(uirq_i2c_dev_open("/dev/i2c-99", &a), -ENOENT);
	assert_eq(uirq_i2c_dev_open("no such adapter", &a), -ENOENT, "no adapter of that name");
	assert_eq(uirq_i2c_dev_open("/dev/null", &a), -ENOTTY, "not an i2c-dev node");
	assert_eq(uirq_i2c_dev_open(NULL, &a), -EINVAL);
	assert_eq(uirq_i2c_dev_open("", &a), -EINVAL);
	assert_eq(uirq_i2c_dev_open(VM_STUB_NAME, NULL), -EINVAL);
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_eq(uirq_i2c_dev_open(longpath, &a), -ENAMETOOLONG);
	assert_eq(a, sentinel, "*out untouched on failure");
	/* Nothing left open by the failures. */
	assert_eq(harness_fds_on("/dev/null"), devnull);
}

/* ---- functionality ---- */

UIRQ_TEST(vm_i2cdev, functionality_is_the_kernel_adapters, OPTS)
{
	unsigned long kfuncs = 0;
	uint32_t f = uirq_i2c_get_functionality(adap);
	uint8_t b[2] = { 0 };
	struct uirq_i2c_msg m = { STUB_ADDR, 0, 1, b };

	assert_eq(ioctl(raw, I2C_FUNCS, &kfuncs), 0);
	/* uirq's bits are the kernel's values; i2c-stub reports nothing uirq lacks a name for. */
	assert_eq((unsigned long)f, kfuncs, "uirq %#x, kernel %#lx", f, kfuncs);
	assert_true(uirq_i2c_check_functionality(adap, UIRQ_I2C_FUNC_SMBUS_QUICK | UIRQ_I2C_FUNC_SMBUS_BYTE |
					       UIRQ_I2C_FUNC_SMBUS_BYTE_DATA | UIRQ_I2C_FUNC_SMBUS_WORD_DATA |
					       UIRQ_I2C_FUNC_SMBUS_I2C_BLOCK), "funcs %#x", f);
	/* i2c-stub is SMBus only: no plain transfers, refused without reaching the kernel. */
	assert_false(uirq_i2c_check_functionality(adap, UIRQ_I2C_FUNC_I2C));
	assert_eq(uirq_i2c_transfer(adap, &m, 1), -EOPNOTSUPP);
	assert_eq(uirq_i2c_master_send(cl, b, 2), -EOPNOTSUPP);
	assert_eq(uirq_i2c_master_recv(cl, b, 1), -EOPNOTSUPP);
	teardown();
}

/* ---- data through the kernel, both ways ---- */

UIRQ_TEST(vm_i2cdev, byte_data_both_ways, OPTS)
{
	for (int reg = 0; reg < 256; reg++) {
		uint8_t v = (uint8_t)(reg * 7 + 3), w = (uint8_t)~v;

		assert_eq(uirq_i2c_smbus_write_byte_data(cl, (uint8_t)reg, v), 0, "reg %#x", reg);
		assert_eq(i2c_smbus_read_byte_data(raw, (uint8_t)reg), v, "reg %#x via raw", reg);
		assert_eq(i2c_smbus_write_byte_data(raw, (uint8_t)reg, w), 0);
		assert_eq(uirq_i2c_smbus_read_byte_data(cl, (uint8_t)reg), w, "reg %#x via uirq", reg);
	}
	teardown();
}

UIRQ_TEST(vm_i2cdev, word_data_both_ways, OPTS)
{
	assert_eq(uirq_i2c_smbus_write_word_data(cl, 0x20, 0xbeef), 0);
	assert_eq(i2c_smbus_read_word_data(raw, 0x20), 0xbeef);
	/* i2c-stub keeps words; a byte read sees the low byte: SMBus words went low byte first. */
	assert_eq(i2c_smbus_read_byte_data(raw, 0x20), 0xef);
	assert_eq(i2c_smbus_write_word_data(raw, 0x21, 0x1234), 0);
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x21), 0x1234);
	assert_eq(uirq_i2c_smbus_write_word_data(cl, 0x22, 0xffff), 0);
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x22), 0xffff, "a word with the sign bit set is data");
	teardown();
}

UIRQ_TEST(vm_i2cdev, send_and_receive_byte, OPTS)
{
	assert_eq(i2c_smbus_write_byte_data(raw, 0x30, 0x77), 0);
	assert_eq(i2c_smbus_write_byte_data(raw, 0x31, 0x78), 0);
	/* Send byte sets i2c-stub's pointer, receive byte reads there and moves it on. */
	assert_eq(uirq_i2c_smbus_write_byte(cl, 0x30), 0);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0x77);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0x78);
	/* The pointer is the chip's, not the file's: the raw file moves it too. */
	assert_eq(i2c_smbus_write_byte(raw, 0x31), 0);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0x78);
	teardown();
}

UIRQ_TEST(vm_i2cdev, i2c_block_both_ways, OPTS)
{
	const uint8_t out[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t in[32];

	assert_eq(uirq_i2c_smbus_write_i2c_block_data(cl, 0x40, 8, out), 0);
	memset(in, 0, sizeof(in));
	assert_eq(i2c_smbus_read_i2c_block_data(raw, 0x40, 8, in), 8);
	assert_eq(memcmp(in, out, 8), 0);
	for (int i = 0; i < 8; i++)
		assert_eq(i2c_smbus_write_byte_data(raw, (uint8_t)(0x50 + i), (uint8_t)(0xa0 + i)), 0);
	memset(in, 0, sizeof(in));
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x50, 8, in), 8);
	for (int i = 0; i < 8; i++)
		assert_eq(in[i], 0xa0 + i, "byte %d", i);
	/* i2c-stub cuts a block at its last register: the kernel's length is the answer. */
	assert_eq(i2c_smbus_write_byte_data(raw, 0xfe, 0x11), 0);
	assert_eq(i2c_smbus_write_byte_data(raw, 0xff, 0x22), 0);
	memset(in, 0, sizeof(in));
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0xfe, 4, in), 2);
	assert_eq(in[0], 0x11);
	assert_eq(in[1], 0x22);
	assert_eq(in[2], 0, "nothing past what the kernel gave");
	teardown();
}

UIRQ_TEST(vm_i2cdev, quick_and_raw_transactions, OPTS)
{
	union uirq_i2c_smbus_data d = { .byte = 0x3c };

	assert_eq(uirq_i2c_smbus_xfer(adap, STUB_ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_QUICK, NULL), 0);
	assert_eq(uirq_i2c_smbus_xfer(adap, STUB_ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0x60, UIRQ_I2C_SMBUS_BYTE_DATA,
					 &d), 0);
	assert_eq(i2c_smbus_read_byte_data(raw, 0x60), 0x3c);
	d.byte = 0;
	assert_eq(uirq_i2c_smbus_xfer(adap, STUB_ADDR, 0, UIRQ_I2C_SMBUS_READ, 0x60, UIRQ_I2C_SMBUS_BYTE_DATA,
					 &d), 0);
	assert_eq(d.byte, 0x3c);
	teardown();
}

/* ---- the kernel's errors, unchanged ---- */

UIRQ_TEST(vm_i2cdev, absent_address_is_stubs_enodev, OPTS)
{
	struct uirq_i2c_client *ghost;
	struct uirq_i2c_stats st;
	int r;

	assert_eq(uirq_i2c_new_client_device(adap, "ghost", ABSENT, &ghost), 0);
	assert_not_null(ghost);
	uirq_i2c_reset_stats(adap);
	/* i2c-stub has no wire to NACK on: no chip there is -ENODEV (a real bus says -ENXIO). */
	r = uirq_i2c_smbus_read_byte_data(ghost, 0x00);
	assert_eq(r, -ENODEV, "read gave %d (%s)", r, strerror(-r));
	r = uirq_i2c_smbus_write_byte_data(ghost, 0x00, 1);
	assert_eq(r, -ENODEV, "write gave %d (%s)", r, strerror(-r));
	r = uirq_i2c_smbus_xfer(adap, ABSENT, 0, UIRQ_I2C_SMBUS_WRITE, 0, UIRQ_I2C_SMBUS_QUICK, NULL);
	assert_eq(r, -ENODEV, "quick gave %d", r);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.transfers, 3);
	assert_eq(st.errors, 3);
	assert_eq(st.err_other, 3);
	assert_eq(st.err_nak, 0, "-ENODEV is no NAK");
	/* The chip's address again: the node's slave is switched back. */
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x01, 0x42), 0);
	assert_eq(i2c_smbus_read_byte_data(raw, 0x01), 0x42);
	uirq_i2c_unregister_device(ghost);
	teardown();
}

UIRQ_TEST(vm_i2cdev, unsupported_transaction_is_eopnotsupp, OPTS)
{
	union uirq_i2c_smbus_data d = { .word = 0x1234 };
	int r;

	/* i2c-stub does no process call; with no master_xfer there is nothing to emulate over. */
	r = uirq_i2c_smbus_xfer(adap, STUB_ADDR, 0, UIRQ_I2C_SMBUS_WRITE, 0x10, UIRQ_I2C_SMBUS_PROC_CALL, &d);
	assert_eq(r, -EOPNOTSUPP, "proc call gave %d (%s)", r, strerror(-r));
	/* The node is still good. */
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x02, 0x43), 0);
	assert_eq(i2c_smbus_read_byte_data(raw, 0x02), 0x43);
	teardown();
}

/* A ten-bit transaction sets the node's I2C_TENBIT; the next 7-bit one must set it back. */
UIRQ_TEST(vm_i2cdev, ten_bit_then_seven_bit, OPTS)
{
	struct uirq_i2c_client *ten;
	int r;

	assert_eq(uirq_i2c_new_client_device_flags(adap, "ten", 0x24b, UIRQ_I2C_CLIENT_TEN, &ten), 0);
	assert_not_null(ten);
	r = uirq_i2c_smbus_read_byte_data(ten, 0x00);
	assert_eq(r, -ENODEV, "ten-bit 0x24b gave %d (%s)", r, strerror(-r));
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x03, 0x44), 0, "7-bit after ten-bit");
	assert_eq(i2c_smbus_read_byte_data(raw, 0x03), 0x44);
	uirq_i2c_unregister_device(ten);
	teardown();
}

/* ---- stats and trace: the transaction as the emulation's messages ---- */

static struct {
	int n, num, ret;
	uint16_t flags[2], len[2];
	uint8_t first[2];
} tr;

static void trace(const struct uirq_i2c_trace *t, void *arg)
{
	(void)arg;
	tr.n++;
	tr.num = t->num;
	tr.ret = t->ret;
	for (int i = 0; i < t->num && i < 2; i++) {
		tr.flags[i] = t->msgs[i].flags;
		tr.len[i] = t->msgs[i].len;
		tr.first[i] = t->msgs[i].len ? t->msgs[i].buf[0] : 0;
	}
}

UIRQ_TEST(vm_i2cdev, stats_and_trace, OPTS)
{
	struct uirq_i2c_stats st;

	assert_eq(i2c_smbus_write_byte_data(raw, 0x70, 0x9c), 0);
	uirq_i2c_reset_stats(adap);
	uirq_i2c_set_trace(adap, trace, NULL);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x70), 0x9c);
	assert_eq(tr.n, 1);
	assert_eq(tr.num, 2);
	assert_eq(tr.ret, 2);
	assert_eq(tr.flags[0], 0);
	assert_eq(tr.first[0], 0x70, "the command");
	assert_eq(tr.flags[1], UIRQ_I2C_M_RD);
	assert_eq(tr.first[1], 0x9c, "what the kernel read");
	assert_eq(uirq_i2c_smbus_write_word_data(cl, 0x71, 0x0102), 0);
	assert_eq(tr.n, 2);
	assert_eq(tr.num, 1);
	assert_eq(tr.len[0], 3);
	uirq_i2c_set_trace(adap, NULL, NULL);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.transfers, 2);
	assert_eq(st.messages, 3);
	assert_eq(st.bytes, 2 + 3);
	assert_eq(st.errors, 0);
	teardown();
}

/* ---- the node's slave address is per file: switched under the bus lock ---- */

#define ROUNDS 200

static void *chip_worker(void *arg)
{
	intptr_t bad = 0;

	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		uint8_t v = (uint8_t)i;

		if (uirq_i2c_smbus_write_byte_data(cl, 0x80, v) != 0 ||
		    uirq_i2c_smbus_read_byte_data(cl, 0x80) != v)
			bad++;
	}
	return (void *)bad;
}

static void *ghost_worker(void *arg)
{
	struct uirq_i2c_client *ghost = arg;
	intptr_t bad = 0;

	for (int i = 0; i < ROUNDS; i++)
		if (uirq_i2c_smbus_read_byte_data(ghost, 0x80) != -ENODEV)
			bad++;
	return (void *)bad;
}

UIRQ_TEST(vm_i2cdev, two_addresses_from_two_threads, .timeout = 120, .init = setup)
{
	struct uirq_i2c_client *ghost;
	pthread_t a, b;
	void *ra, *rb;

	assert_eq(uirq_i2c_new_client_device(adap, "ghost", ABSENT, &ghost), 0);
	assert_not_null(ghost);
	assert_eq(pthread_create(&a, NULL, chip_worker, NULL), 0);
	assert_eq(pthread_create(&b, NULL, ghost_worker, ghost), 0);
	assert_eq(pthread_join(a, &ra), 0);
	assert_eq(pthread_join(b, &rb), 0);
	assert_eq((intptr_t)ra, 0, "%ld transactions to 0x4b went wrong", (long)(intptr_t)ra);
	assert_eq((intptr_t)rb, 0, "%ld transactions to 0x20 went wrong", (long)(intptr_t)rb);
	uirq_i2c_unregister_device(ghost);
	teardown();
}

/* ---- closing ---- */

static void close_adap(void *arg)
{
	uirq_i2c_dev_close(arg);
}

UIRQ_TEST(vm_i2cdev, close_with_clients_is_refused, OPTS)
{
	char err[1024];

	close(raw);
	raw = -1;
	assert_eq(harness_fds_on(node), 1, "the adapter's file");
	capture_stderr(close_adap, adap, err, sizeof(err));
	assert_true(strstr(err, "cannot delete adapter"), "stderr: %s", err);
	assert_true(strstr(err, "client stub at 0x4b still registered"), "stderr: %s", err);
	/* Nothing closed: the node is open and the adapter still works. */
	assert_eq(harness_fds_on(node), 1);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x05, 0x55), 0);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x05), 0x55);
	/* Without clients it closes: the file goes. */
	uirq_i2c_unregister_device(cl);
	cl = NULL;
	uirq_i2c_dev_close(adap);
	assert_eq(harness_fds_on(node), 0, "the node's file is closed");
	uirq_i2c_dev_close(NULL);	/* ignored */
}

static int noop_xfer(struct uirq_i2c_adapter *a, struct uirq_i2c_msg *m, int n)
{
	(void)a, (void)m;
	return n;
}

UIRQ_TEST(vm_i2cdev, close_refuses_other_adapters, .timeout = 60)
{
	static const struct uirq_i2c_algorithm algo = { .master_xfer = noop_xfer };
	struct uirq_i2c_adapter plain = { .name = "plain", .algo = &algo };
	char err[1024];

	assert_eq(uirq_i2c_add_adapter(&plain), 0);
	capture_stderr(close_adap, &plain, err, sizeof(err));
	assert_true(strstr(err, "plain: not an i2c-dev adapter, not closed"), "stderr: %s", err);
	/* Still registered: deleting it is the owner's business, and works. */
	assert_eq(uirq_i2c_del_adapter(&plain), 0);
}

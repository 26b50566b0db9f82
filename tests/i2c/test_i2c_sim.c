// SPDX-License-Identifier: MIT
/*
 * The simulated adapter through the SMBus helpers: register access,
 * auto-increment, and every injected fault returning its code and counted.
 */
#include <errno.h>
#include <time.h>

#include "io_reports.h"
#include "uirq/i2c.h"

#define OPTS .timeout = 20, .init = io_reports_start

/* A 256-register slave; reading 0xee fails like a data NACK. */
struct regdev {
	uint8_t regs[256];
	int reads, writes;
};

static int rd(void *priv, uint8_t r, uint8_t *v)
{
	struct regdev *d = priv;

	if (r == 0xee)
		return -EIO;
	d->reads++;
	*v = d->regs[r];
	return 0;
}

static int wr(void *priv, uint8_t r, uint8_t v)
{
	struct regdev *d = priv;

	d->writes++;
	d->regs[r] = v;
	return 0;
}

static const struct uirq_i2c_sim_device_ops ops = { .read = rd, .write = wr };

static struct uirq_i2c_sim *sim;
static struct uirq_i2c_adapter *adap;
static struct uirq_i2c_client *cl;
static struct regdev dev;

static void setup(void)
{
	io_reports_start();
	assert_eq(uirq_i2c_sim_new("sim", 400000, &sim), 0);
	adap = uirq_i2c_sim_adapter(sim);
	assert_eq(uirq_i2c_sim_attach(sim, 0x4b, &ops, &dev), 0);
	assert_eq(uirq_i2c_new_client_device(adap, "twl-pm", 0x4b, &cl), 0);
}

static void teardown(void)
{
	uirq_i2c_unregister_device(cl);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

#define SIM_OPTS .timeout = 20, .init = setup

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

UIRQ_TEST(i2c_sim, smbus_byte_word_data, SIM_OPTS)
{
	dev.regs[0x45] = 0x01;
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), 0x01);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x2f, 0xfe), 0);
	assert_eq(dev.regs[0x2f], 0xfe);
	assert_eq(uirq_i2c_smbus_write_word_data(cl, 0x10, 0xbeef), 0);
	assert_eq(dev.regs[0x10], 0xef, "SMBus words go low byte first");
	assert_eq(dev.regs[0x11], 0xbe);
	assert_eq(uirq_i2c_smbus_read_word_data(cl, 0x10), 0xbeef);
	/* Send/receive byte: a bare write sets the pointer, a bare read reads there. */
	dev.regs[0x81] = 0x20;
	assert_eq(uirq_i2c_smbus_write_byte(cl, 0x81), 0);
	assert_eq(uirq_i2c_smbus_read_byte(cl), 0x20);
	assert_eq(uirq_i2c_smbus_read_byte(cl), dev.regs[0x82], "the pointer moved on");
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, block_auto_increment, SIM_OPTS)
{
	uint8_t out[4] = { 0xa0, 0xa1, 0xa2, 0xa3 }, in[40];

	assert_eq(uirq_i2c_smbus_write_i2c_block_data(cl, 0xfe, 4, out), 0);
	/* Auto-increment wraps at 0xff. */
	assert_eq(dev.regs[0xfe], 0xa0);
	assert_eq(dev.regs[0xff], 0xa1);
	assert_eq(dev.regs[0x00], 0xa2);
	assert_eq(dev.regs[0x01], 0xa3);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0xfe, 4, in), 4);
	assert_eq(memcmp(in, out, 4), 0);
	for (int i = 0; i < 40; i++)
		dev.regs[0x20 + i] = (uint8_t)i;
	/* Longer than an SMBus block: clamped to 32, as the kernel does. */
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x20, 40, in), 32);
	for (int i = 0; i < 32; i++)
		assert_eq(in[i], i);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x20, 0, in), -EINVAL);
	assert_eq(uirq_i2c_smbus_read_i2c_block_data(cl, 0x20, 4, NULL), -EINVAL);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, absent_address_is_enxio, SIM_OPTS)
{
	struct uirq_i2c_client *ghost;
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_new_client_device(adap, "ghost", 0x4a, &ghost), 0);
	assert_not_null(ghost);
	assert_eq(uirq_i2c_smbus_read_byte_data(ghost, 0), -ENXIO);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_nak, 1);
	assert_eq(st.errors, 1);
	assert_gt(st.wire_ns, 0, "the address byte still took bus time");
	uirq_i2c_unregister_device(ghost);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, nak_fault, SIM_OPTS)
{
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_sim_set_nak(sim, 0x4b, true), 0);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x10, 1), -ENXIO);
	assert_eq(dev.writes, 0, "a NAKed address reaches no register");
	assert_eq(uirq_i2c_sim_set_nak(sim, 0x4b, false), 0);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x10, 1), 0);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_nak, 1);
	assert_eq(st.transfers, 2);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, nth_transfer_fault, SIM_OPTS)
{
	static const int codes[] = { -EIO, -EAGAIN, -ENXIO, -EPROTO };
	struct uirq_i2c_stats st;

	for (unsigned int i = 0; i < 4; i++) {
		assert_eq(uirq_i2c_sim_fail_nth(sim, 2, codes[i]), 0);
		assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x00), 0, "the 1st transfer passes");
		assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x00), codes[i], "the 2nd fails");
		assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x00), 0, "one-shot");
	}
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_io, 1);
	assert_eq(st.err_arbitration, 1);
	assert_eq(st.err_nak, 1);
	assert_eq(st.err_other, 1);
	assert_eq(st.errors, 4);
	assert_eq(uirq_i2c_sim_faults_injected(sim), 4);
	assert_eq(uirq_i2c_sim_fail_nth(sim, 1, 5), -EINVAL, "errors are negative errnos");
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, arbitration_retried_within_retries, SIM_OPTS)
{
	struct uirq_i2c_stats st;

	adap->retries = 2;
	assert_eq(uirq_i2c_sim_fail_nth(sim, 1, -EAGAIN), 0);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x00), 0, "the retry succeeds");
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.retries, 1);
	assert_eq(st.errors, 0);
	assert_eq(st.transfers, 1);
	adap->retries = 0;
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, register_match_fault, SIM_OPTS)
{
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_sim_fail_match(sim, 0x4b, 0x45, -EIO), 0);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), -EIO);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), -EIO, "every matching transfer");
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x44), 0, "other registers pass");
	assert_eq(uirq_i2c_sim_fail_match(sim, 0x4b, 0x45, 0), 0, "err 0 removes the rule");
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), 0);
	/* reg -1: any register of the address. */
	assert_eq(uirq_i2c_sim_fail_match(sim, 0x4b, -1, -EAGAIN), 0);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x01, 1), -EAGAIN);
	uirq_i2c_sim_clear_faults(sim);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x01, 1), 0);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_io, 2);
	assert_eq(st.err_arbitration, 1);
	assert_eq(uirq_i2c_sim_faults_injected(sim), 3);
	assert_eq(uirq_i2c_sim_fail_match(sim, 0x4b, 0x100, -EIO), -EINVAL);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, device_error_is_data_nack, SIM_OPTS)
{
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0xee), -EIO);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_io, 1);
	assert_eq(uirq_i2c_sim_faults_injected(sim), 0, "the slave's own error, not injected");
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, stuck_bus_times_out, SIM_OPTS)
{
	struct uirq_i2c_stats st;
	uint64_t t0;

	adap->timeout_ms = 30;
	uirq_i2c_sim_set_stuck(sim, true);
	t0 = now_ns();
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), -ETIMEDOUT);
	assert_ge(now_ns() - t0, 30000000u, "waits the adapter timeout");
	uirq_i2c_sim_set_stuck(sim, false);
	/* An injected -ETIMEDOUT behaves as a stuck bus for one transfer. */
	assert_eq(uirq_i2c_sim_fail_nth(sim, 1, -ETIMEDOUT), 0);
	t0 = now_ns();
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), -ETIMEDOUT);
	assert_ge(now_ns() - t0, 30000000u);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0x45), 0);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_timeout, 2);
	assert_eq(uirq_i2c_sim_faults_injected(sim), 2);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, added_delay, SIM_OPTS)
{
	uint8_t r = 0x45, v;
	struct uirq_i2c_msg m[2] = { { 0x4b, 0, 1, &r }, { 0x4b, UIRQ_I2C_M_RD, 1, &v } };
	uint64_t t0;
	struct uirq_i2c_stats st;

	uirq_i2c_sim_set_delay(sim, 5000000);
	t0 = now_ns();
	assert_eq(uirq_i2c_transfer(adap, m, 2), 2);
	assert_ge(now_ns() - t0, 5000000u + uirq_i2c_wire_ns(m, 2, 400000));
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.wire_ns, uirq_i2c_wire_ns(m, 2, 400000), "delay is not wire time");
	assert_ge(st.sleep_ns, st.wire_ns + 5000000u);
	teardown();
	assert_no_reports();
}

UIRQ_TEST(i2c_sim, unsupported_flags_and_attach_errors, SIM_OPTS)
{
	struct uirq_i2c_sim *bad;
	uint8_t b = 0;
	struct uirq_i2c_msg m = { 0x4b, UIRQ_I2C_M_TEN, 1, &b };

	assert_eq(uirq_i2c_transfer(adap, &m, 1), -EOPNOTSUPP);
	m.flags = UIRQ_I2C_M_NOSTART;
	assert_eq(uirq_i2c_transfer(adap, &m, 1), -EOPNOTSUPP);
	assert_eq(uirq_i2c_sim_attach(sim, 0x4b, &ops, &dev), -EBUSY);
	assert_eq(uirq_i2c_sim_attach(sim, 0x80, &ops, &dev), -EINVAL);
	assert_eq(uirq_i2c_sim_attach(sim, 0x10, NULL, &dev), -EINVAL);
	assert_eq(uirq_i2c_sim_detach(sim, 0x10), -ENODEV);
	assert_eq(uirq_i2c_sim_detach(sim, 0x4b), 0);
	assert_eq(uirq_i2c_smbus_read_byte_data(cl, 0), -ENXIO, "detached: nobody ACKs");
	assert_true(uirq_i2c_check_functionality(adap, UIRQ_I2C_FUNC_I2C | UIRQ_I2C_FUNC_SMBUS_BYTE_DATA |
						       UIRQ_I2C_FUNC_SMBUS_I2C_BLOCK));
	assert_false(uirq_i2c_check_functionality(adap, UIRQ_I2C_FUNC_10BIT_ADDR));
	assert_eq(uirq_i2c_sim_new("bad", 0, &bad), -EINVAL);
	assert_null(bad);
	teardown();
	assert_no_reports();
}

/* The TWL4030's four slaves on one bus, each with its own register pointer. */
UIRQ_TEST(i2c_sim, four_slaves_keep_their_pointers, SIM_OPTS)
{
	struct regdev d[3] = { 0 };
	struct uirq_i2c_client *c[3];

	for (int i = 0; i < 3; i++) {
		assert_eq(uirq_i2c_sim_attach(sim, (uint16_t)(0x48 + i), &ops, &d[i]), 0);
		d[i].regs[0x81] = (uint8_t)(0x10 + i);
		assert_eq(uirq_i2c_new_client_device(adap, "twl", (uint16_t)(0x48 + i), &c[i]), 0);
	}
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_i2c_smbus_write_byte(c[i], 0x81), 0);
	for (int i = 0; i < 3; i++)
		assert_eq(uirq_i2c_smbus_read_byte(c[i]), 0x10 + i);
	for (int i = 0; i < 3; i++)
		uirq_i2c_unregister_device(c[i]);
	teardown();
	assert_no_reports();
}

/*
 * A slave that is not register-addressed (a touch controller): a command
 * write goes to send() whole, a plain read - i2c_master_recv(), no register
 * byte first - is filled by recv() whole, every time from its start.
 */
struct streamdev {
	uint8_t cmd[8];
	int cmd_len, sends, recvs;
	int fail;		/* recv()'s answer while non-zero */
};

static int stream_send(void *priv, const uint8_t *buf, uint16_t len)
{
	struct streamdev *d = priv;

	d->sends++;
	d->cmd_len = len < sizeof(d->cmd) ? len : (int)sizeof(d->cmd);
	memcpy(d->cmd, buf, (size_t)d->cmd_len);
	return 0;
}

static int stream_recv(void *priv, uint8_t *buf, uint16_t len)
{
	struct streamdev *d = priv;

	if (d->fail)
		return d->fail;
	d->recvs++;
	/* The answer to the last command: its byte, then a count up from 0. */
	for (uint16_t i = 0; i < len; i++)
		buf[i] = i ? (uint8_t)(i - 1) : d->cmd[0];
	return 0;
}

static const struct uirq_i2c_sim_device_ops stream_ops = { .send = stream_send, .recv = stream_recv };

UIRQ_TEST(i2c_sim, raw_reads_and_writes_reach_a_stream_slave, SIM_OPTS)
{
	struct streamdev sd = { 0 };
	struct uirq_i2c_client *tc;
	struct uirq_i2c_stats st;
	uint8_t cmd = 0xb2, buf[67];

	assert_eq(uirq_i2c_sim_attach(sim, 0x76, &stream_ops, &sd), 0);
	assert_eq(uirq_i2c_new_client_device(adap, "zet6223", 0x76, &tc), 0);
	assert_eq(uirq_i2c_master_send(tc, &cmd, 1), 1);
	assert_eq(sd.sends, 1);
	assert_eq(sd.cmd_len, 1);
	assert_eq(sd.cmd[0], 0xb2, "the command byte is the slave's, not a register pointer");
	/* Two plain reads: each one whole from the start, longer than an SMBus block. */
	for (int r = 0; r < 2; r++) {
		memset(buf, 0xff, sizeof(buf));
		assert_eq(uirq_i2c_master_recv(tc, buf, (int)sizeof(buf)), (int)sizeof(buf));
		assert_eq(buf[0], 0xb2);
		assert_eq(buf[1], 0);
		assert_eq(buf[66], 65);
	}
	assert_eq(sd.recvs, 2);
	/* A refusal fails the transfer with the slave's error, counted as any other. */
	uirq_i2c_reset_stats(adap);
	sd.fail = -EIO;
	assert_eq(uirq_i2c_master_recv(tc, buf, 3), -EIO);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.err_io, 1u);
	sd.fail = 0;
	/* Faults still apply, the command byte standing for the register. */
	assert_eq(uirq_i2c_sim_fail_match(sim, 0x76, 0xb2, -EIO), 0);
	assert_eq(uirq_i2c_master_send(tc, &cmd, 1), -EIO);
	assert_eq(sd.sends, 1, "the injected fault stops the transfer before the slave");
	assert_eq(uirq_i2c_sim_fail_match(sim, 0x76, 0xb2, 0), 0);
	/* A slave with only one direction message-level answers the other -EIO. */
	static const struct uirq_i2c_sim_device_ops recv_only = { .recv = stream_recv };

	uirq_i2c_unregister_device(tc);
	assert_eq(uirq_i2c_sim_detach(sim, 0x76), 0);
	assert_eq(uirq_i2c_sim_attach(sim, 0x76, &recv_only, &sd), 0);
	assert_eq(uirq_i2c_new_client_device(adap, "zet6223", 0x76, &tc), 0);
	assert_eq(uirq_i2c_master_recv(tc, buf, 4), 4);
	cmd = 0x01;
	assert_eq(uirq_i2c_master_send(tc, &cmd, 1), 1, "one byte: the register pointer only");
	uint8_t two[2] = { 0x01, 0x02 };

	assert_eq(uirq_i2c_master_send(tc, two, 2), -EIO, "no write callback: a data NACK");
	uirq_i2c_unregister_device(tc);
	teardown();
	assert_no_reports();
}

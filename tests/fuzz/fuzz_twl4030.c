// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the TWL4030 model (devices/) under arbitrary i2c
 * traffic through its simulated adapter - raw transfers of up to three
 * messages with any address, flags and length, the SMBus helpers, client
 * send/recv, injected NAKs and I/O errors - and PWRON presses.
 *
 * Each input runs on a fresh bus and chip.  A shadow of the documented
 * behaviour (the chip's in uirq/twl4030.h and the sim's contract in uirq/i2c.h)
 * predicts every return value and every byte read; after every step the
 * hardware facts are checked from the model's side:
 *   - PIH_ISR_P1/P2 = bit 5 exactly while PWR_ISRn & ~PWR_IMRn != 0, no
 *     other bit ever (only PWR_INT is a source);
 *   - INT1 asserted exactly while PIH_ISR_P1 != 0, so IMR-masked bits never
 *     assert it; the host's callback saw every change, in order, and the
 *     level it last saw is the pin's;
 *   - COR: a read of PWR_ISRn returns it and leaves at most the buffered
 *     second event; without COR a read changes nothing and a write clears
 *     the 1s; PENDDIS=0 buffers one more event per bit;
 *   - STS_HW_CONDITIONS bit 0 is the PWRON level; read-only registers
 *     ignore writes; every other register stores what is written, and the
 *     register pointer advances (wrapping at 0xff) and persists.
 *
 * No thread of its own and no CPU: one thread drives the bus and the chip.
 * Each input still runs in uirq's deterministic mode (uirq/sim.h, seeded
 * by a hash of its bytes), as the only task, for its clock: the sim's
 * modelled wire time (each transfer's, at 1 MHz Fast-mode Plus) becomes a
 * virtual sleep that costs no wall time, instead of a real sleep per
 * transfer that dominated an execution; and nothing depends on the wall
 * clock, so an input replays exactly.  The bus, the chip and the clients
 * are made inside the mode, so a thread the model may make is a task too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/i2c.h"
#include "uirq/lockdep.h"
#include "uirq/sim.h"
#include "uirq/twl4030.h"

#include "fuzz_check.h"
#include "fuzz_sim.h"

#define MAX_OPS		48
#define BUS_HZ		UIRQ_I2C_SPEED_FAST_PLUS
#define P		(TWL4030_ADDR_POWER - TWL4030_ADDR_USB)	/* regs[] index of 0x4b */

/* ---- input bytes ---- */
struct in {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint16_t u16(struct in *in)
{
	return (uint16_t)(u8(in) | u8(in) << 8);
}

/* ---- the shadow: what the documentation says the chip does ---- */
struct shadow {
	uint8_t regs[4][256];
	uint8_t buffered[2];
	bool pwron;
	uint8_t ptr[128];		/* the sim's register pointer per address */
	uint8_t nak[128];		/* injected NAK per address */
	unsigned int nth;		/* injected error on the nth transfer */
	int nth_err;
	struct { bool used; uint16_t addr; int reg, err; } match[8];	/* the sim's fail_match slots */
};

static struct shadow sh;

static int slave(uint16_t addr)
{
	return addr >= TWL4030_ADDR_USB && addr <= TWL4030_ADDR_POWER ? addr - TWL4030_ADDR_USB : -1;
}

static bool cor(void)
{
	return sh.regs[P][TWL4030_PWR_SIH_CTRL] & TWL4030_SIH_CTRL_COR;
}

static void sh_event(uint8_t bits)
{
	for (int l = 0; l < 2; l++) {
		uint8_t *isr = &sh.regs[P][l ? TWL4030_PWR_ISR2 : TWL4030_PWR_ISR1];
		uint8_t again = *isr & bits;

		*isr |= bits;
		if (!(sh.regs[P][TWL4030_PWR_SIH_CTRL] & TWL4030_SIH_CTRL_PENDDIS))
			sh.buffered[l] |= again;
	}
}

/* Clear ISR bits of a line; one buffered event per bit comes back. */
static void sh_clear(int l, uint8_t bits)
{
	uint8_t *isr = &sh.regs[P][l ? TWL4030_PWR_ISR2 : TWL4030_PWR_ISR1];
	uint8_t reload = sh.buffered[l] & bits & *isr;

	*isr &= (uint8_t)~bits;
	*isr |= reload;
	sh.buffered[l] &= (uint8_t)~reload;
}

static uint8_t sh_pih(int l)
{
	uint8_t isr = sh.regs[P][l ? TWL4030_PWR_ISR2 : TWL4030_PWR_ISR1];
	uint8_t imr = sh.regs[P][l ? TWL4030_PWR_IMR2 : TWL4030_PWR_IMR1];

	return (isr & ~imr) ? 1u << TWL4030_PIH_PWR_INT : 0;
}

static uint8_t sh_read(uint16_t addr, uint8_t reg)
{
	int s = slave(addr);
	uint8_t v;

	/* sh_transfer() answers other addresses first; checked, GCC's -Warray-bounds cannot see it. */
	fuzz_check(s >= 0, "shadow read at 0x%02x", addr);
	if (addr == TWL4030_ADDR_AUDIO && (reg == TWL4030_PIH_ISR_P1 || reg == TWL4030_PIH_ISR_P2))
		return sh_pih(reg == TWL4030_PIH_ISR_P2);
	if (addr == TWL4030_ADDR_POWER && reg == TWL4030_STS_HW_CONDITIONS)
		return (uint8_t)((sh.regs[s][reg] & ~TWL4030_STS_PWON) | (sh.pwron ? TWL4030_STS_PWON : 0));
	v = sh.regs[s][reg];
	if (addr == TWL4030_ADDR_POWER && (reg == TWL4030_PWR_ISR1 || reg == TWL4030_PWR_ISR2) && cor())
		sh_clear(reg == TWL4030_PWR_ISR2, v);
	return v;
}

static void sh_write(uint16_t addr, uint8_t reg, uint8_t val)
{
	int s = slave(addr);

	fuzz_check(s >= 0, "shadow write at 0x%02x", addr);
	if (addr == TWL4030_ADDR_AUDIO && (reg == TWL4030_PIH_ISR_P1 || reg == TWL4030_PIH_ISR_P2))
		return;
	if (addr == TWL4030_ADDR_POWER && reg == TWL4030_STS_HW_CONDITIONS)
		return;
	if (addr == TWL4030_ADDR_POWER && (reg == TWL4030_PWR_ISR1 || reg == TWL4030_PWR_ISR2)) {
		if (!cor())
			sh_clear(reg == TWL4030_PWR_ISR2, val);
		return;
	}
	if (addr == TWL4030_ADDR_POWER && reg == TWL4030_PWR_SIR) {
		sh_event(val);	/* the model's reading: a test write raises the events; reads back 0 */
		return;
	}
	sh.regs[s][reg] = val;
}

/* What the transfer must return; the bytes reads must give go to want[]. */
static int sh_transfer(const struct uirq_i2c_msg *msgs, int num, uint8_t want[][64])
{
	for (int i = 0; i < num; i++)
		if (msgs[i].flags & ~(UIRQ_I2C_M_RD | UIRQ_I2C_M_DMA_SAFE))
			return -EOPNOTSUPP;
	if (sh.nth && --sh.nth == 0)
		return sh.nth_err;
	/* The register a transfer touches at addr: its first write's first byte, else the pointer. */
	for (int k = 0; k < 8; k++) {
		int reg = -2;

		if (!sh.match[k].used)
			continue;
		for (int i = 0; i < num && reg == -2; i++)
			if (msgs[i].addr == sh.match[k].addr)
				reg = !(msgs[i].flags & UIRQ_I2C_M_RD) && msgs[i].len ? msgs[i].buf[0] :
				      sh.ptr[sh.match[k].addr];
		if (reg != -2 && (sh.match[k].reg < 0 || sh.match[k].reg == reg))
			return sh.match[k].err;
	}
	for (int i = 0; i < num; i++) {
		const struct uirq_i2c_msg *m = &msgs[i];

		if (m->addr >= 128 || slave(m->addr) < 0 || sh.nak[m->addr])
			return -ENXIO;
		for (int j = 0; j < m->len; j++) {
			if (m->flags & UIRQ_I2C_M_RD) {
				want[i][j] = sh_read(m->addr, sh.ptr[m->addr]++);
			} else if (j == 0) {
				sh.ptr[m->addr] = m->buf[0];
			} else {
				sh_write(m->addr, sh.ptr[m->addr]++, m->buf[j]);
			}
		}
	}
	return num;
}

/* ---- the chip under test ---- */
static struct uirq_i2c_sim *sim;
static struct uirq_i2c_adapter *adap;
static struct twl4030 *twl;
static uint16_t client_addr[] = { 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x20 };
#define NR_CLIENTS (sizeof(client_addr) / sizeof(client_addr[0]))
static struct uirq_i2c_client *client[NR_CLIENTS];
static int int1_calls;
static bool int1_seen;
static unsigned long reports;

static void int1_cb(bool asserted, void *arg)
{
	(void)arg;
	/* The deliverer reports changes only: after the first call, levels alternate. */
	fuzz_check(int1_calls == 0 || asserted != int1_seen, "INT1 reported %d twice", asserted);
	int1_seen = asserted;
	int1_calls++;
}

static void check_chip(void)
{
	uint8_t isr1 = twl4030_peek(twl, TWL4030_ADDR_POWER, TWL4030_PWR_ISR1);
	uint8_t imr1 = twl4030_peek(twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR1);
	uint8_t isr2 = twl4030_peek(twl, TWL4030_ADDR_POWER, TWL4030_PWR_ISR2);
	uint8_t imr2 = twl4030_peek(twl, TWL4030_ADDR_POWER, TWL4030_PWR_IMR2);
	uint8_t p1 = twl4030_peek(twl, TWL4030_ADDR_AUDIO, TWL4030_PIH_ISR_P1);
	uint8_t p2 = twl4030_peek(twl, TWL4030_ADDR_AUDIO, TWL4030_PIH_ISR_P2);
	uint8_t sts = twl4030_peek(twl, TWL4030_ADDR_POWER, TWL4030_STS_HW_CONDITIONS);
	bool int1 = twl4030_int1_asserted(twl);

	fuzz_check(p1 == ((isr1 & ~imr1) ? 0x20 : 0), "PIH_ISR_P1 %#x, PWR_ISR1 %#x IMR1 %#x", p1, isr1, imr1);
	fuzz_check(p2 == ((isr2 & ~imr2) ? 0x20 : 0), "PIH_ISR_P2 %#x, PWR_ISR2 %#x IMR2 %#x", p2, isr2, imr2);
	fuzz_check(int1 == (p1 != 0), "INT1 %d with PIH_ISR_P1 %#x", int1, p1);
	fuzz_check(!(imr1 == 0xff && int1), "INT1 asserted with every PWR_INT line masked");
	fuzz_check(int1_calls > 0 && int1_seen == int1, "host saw INT1 %d, pin %d", int1_seen, int1);
	fuzz_check((sts & TWL4030_STS_PWON) == (twl4030_get_pwron(twl) ? TWL4030_STS_PWON : 0),
		   "STS_HW_CONDITIONS %#x, PWRON %d", sts, twl4030_get_pwron(twl));
	/* The model agrees with the shadow register by register. */
	for (int s = 0; s < 4; s++)
		for (int r = 0; r < 256; r++) {
			uint16_t addr = (uint16_t)(TWL4030_ADDR_USB + s);
			uint8_t want = sh.regs[s][r];

			if (addr == TWL4030_ADDR_AUDIO && (r == TWL4030_PIH_ISR_P1 || r == TWL4030_PIH_ISR_P2))
				want = sh_pih(r == TWL4030_PIH_ISR_P2);
			else if (addr == TWL4030_ADDR_POWER && r == TWL4030_STS_HW_CONDITIONS)
				want = (uint8_t)((want & ~1) | sh.pwron);
			fuzz_check(twl4030_peek(twl, addr, (uint8_t)r) == want, "0x%02x:0x%02x is %#x, want %#x",
				   addr, r, twl4030_peek(twl, addr, (uint8_t)r), want);
		}
	fuzz_check(twl4030_get_pwron(twl) == sh.pwron, "PWRON");
}

/* Run msgs through the bus and the shadow; both must agree. */
static int xfer(struct uirq_i2c_msg *msgs, int num)
{
	uint8_t want[3][64];
	int exp = sh_transfer(msgs, num, want);
	int ret = uirq_i2c_transfer(adap, msgs, num);

	fuzz_check(ret == exp, "transfer of %d messages returned %d, want %d", num, ret, exp);
	if (ret == num)
		for (int i = 0; i < num; i++)
			if (msgs[i].flags & UIRQ_I2C_M_RD)
				fuzz_check(!memcmp(msgs[i].buf, want[i], msgs[i].len),
					   "message %d read from 0x%02x differs", i, msgs[i].addr);
	return ret;
}

/* An SMBus call as the messages it makes: write wlen bytes, then read rlen. */
static int smbus_shadow(uint16_t addr, const uint8_t *w, int wlen, uint8_t *r, int rlen)
{
	struct uirq_i2c_msg msgs[2];
	uint8_t want[3][64], wbuf[64];
	int num = 0, ret;

	if (wlen)
		memcpy(wbuf, w, (size_t)wlen);
	if (wlen || !rlen)
		msgs[num++] = (struct uirq_i2c_msg){ addr, 0, (uint16_t)wlen, wbuf };
	if (rlen)
		msgs[num++] = (struct uirq_i2c_msg){ addr, UIRQ_I2C_M_RD, (uint16_t)rlen, r };
	ret = sh_transfer(msgs, num, want);
	if (ret == num && rlen)
		memcpy(r, want[num - 1], (size_t)rlen);
	return ret < 0 ? ret : 0;
}

static void op(struct in *in)
{
	uint8_t code = u8(in), ci = u8(in) % NR_CLIENTS, reg = u8(in), val = u8(in);
	struct uirq_i2c_client *c = client[ci];
	uint16_t addr = client_addr[ci];
	uint8_t buf[64], got[64], w[64];
	int32_t r;
	int e;

	/* Steer a quarter of register numbers into the interrupt registers. */
	if (code & 0x80) {
		static const uint8_t hot[] = { 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x45, 0x81, 0x82, 0x83 };

		reg = hot[reg % sizeof(hot)];
		if (reg >= 0x81) {
			c = client[1];
			addr = client_addr[1];
		} else {
			c = client[3];
			addr = client_addr[3];
		}
	}
	switch ((code & 0x7f) % 18) {
	case 0: /* read byte data */
		e = smbus_shadow(addr, &reg, 1, buf, 1);
		r = uirq_i2c_smbus_read_byte_data(c, reg);
		fuzz_check(r == (e ? e : buf[0]), "read_byte_data 0x%02x:0x%02x = %d, want %d", addr, reg, r,
			   e ? e : buf[0]);
		break;
	case 1: /* write byte data */
		w[0] = reg;
		w[1] = val;
		e = smbus_shadow(addr, w, 2, NULL, 0);
		r = uirq_i2c_smbus_write_byte_data(c, reg, val);
		fuzz_check(r == e, "write_byte_data = %d, want %d", r, e);
		break;
	case 2: /* read word data */
		e = smbus_shadow(addr, &reg, 1, buf, 2);
		r = uirq_i2c_smbus_read_word_data(c, reg);
		fuzz_check(r == (e ? e : buf[0] | buf[1] << 8), "read_word_data = %d", r);
		break;
	case 3: /* write word data */
		w[0] = reg;
		w[1] = val;
		w[2] = u8(in);
		e = smbus_shadow(addr, w, 3, NULL, 0);
		r = uirq_i2c_smbus_write_word_data(c, reg, (uint16_t)(w[1] | w[2] << 8));
		fuzz_check(r == e, "write_word_data = %d, want %d", r, e);
		break;
	case 4: { /* read i2c block: length 0 is refused, above 32 clamped */
		unsigned int len = val % 40;

		memset(got, 0xee, sizeof(got));
		r = uirq_i2c_smbus_read_i2c_block_data(c, reg, (uint8_t)len, got);
		if (!len) {
			fuzz_check(r == -EINVAL, "empty block read = %d", r);
			break;
		}
		len = len > 32 ? 32 : len;
		e = smbus_shadow(addr, &reg, 1, buf, (int)len);
		fuzz_check(r == (e ? e : (int)len), "read_i2c_block = %d, want %d", r, e ? e : (int)len);
		if (!e)
			fuzz_check(!memcmp(got, buf, len), "block read differs");
		fuzz_check(got[32] == 0xee, "block read past 32 bytes");
		break;
	}
	case 5: { /* write i2c block */
		unsigned int len = val % 40, n = len > 32 ? 32 : len;

		w[0] = reg;
		for (unsigned int i = 0; i < len; i++)
			w[1 + (i < 32 ? i : 32)] = u8(in);
		e = smbus_shadow(addr, w, (int)(1 + n), NULL, 0);
		r = uirq_i2c_smbus_write_i2c_block_data(c, reg, (uint8_t)len, w + 1);
		fuzz_check(r == e, "write_i2c_block = %d, want %d", r, e);
		break;
	}
	case 6: /* receive byte: at the pointer */
		e = smbus_shadow(addr, NULL, 0, buf, 1);
		r = uirq_i2c_smbus_read_byte(c);
		fuzz_check(r == (e ? e : buf[0]), "read_byte = %d", r);
		break;
	case 7: /* send byte: sets the pointer */
		e = smbus_shadow(addr, &val, 1, NULL, 0);
		r = uirq_i2c_smbus_write_byte(c, val);
		fuzz_check(r == e, "write_byte = %d, want %d", r, e);
		break;
	case 8: { /* raw transfer: 1-3 messages, any address, flags, length */
		struct uirq_i2c_msg msgs[3];
		uint8_t bufs[3][64];
		int num = 1 + val % 3;

		for (int i = 0; i < num; i++) {
			uint8_t a = u8(in), f = u8(in), len = u8(in) % 64;

			msgs[i].addr = (a & 0x80) ? (uint16_t)(a & 0x7f) : client_addr[a % NR_CLIENTS];
			if ((f & 0xc0) == 0xc0)
				msgs[i].addr = u16(in);			/* anything, 10-bit too */
			msgs[i].flags = (f & 0x20) ? (uint16_t)(f << 8 | f) : (f & 1 ? UIRQ_I2C_M_RD : 0);
			msgs[i].len = len;
			msgs[i].buf = bufs[i];
			for (int j = 0; j < len; j++)
				bufs[i][j] = (msgs[i].flags & UIRQ_I2C_M_RD) ? 0 : (j == 0 ? reg : u8(in));
		}
		xfer(msgs, num);
		break;
	}
	case 9: /* the button */
	case 10: {
		bool pressed = (code & 0x7f) % 18 == 9;

		if (sh.pwron != pressed) {
			sh.pwron = pressed;
			if (sh.regs[P][TWL4030_PWR_EDR1] & (pressed ? 0x02 : 0x01))
				sh_event(0x01);
		}
		twl4030_set_pwron(twl, pressed);
		break;
	}
	case 11: /* client send / recv */
	case 12: {
		int len = val % 48;
		bool rd = (code & 0x7f) % 18 == 12;

		for (int i = 0; i < len; i++)
			w[i] = i == 0 ? reg : u8(in);
		/* One message; an empty one (either way) only addresses the slave. */
		if (rd && len)
			e = smbus_shadow(addr, NULL, 0, buf, len);
		else
			e = smbus_shadow(addr, rd ? NULL : w, rd ? 0 : len, NULL, 0);
		r = rd ? uirq_i2c_master_recv(c, got, len) : uirq_i2c_master_send(c, w, len);
		fuzz_check(r == (e ? e : len), "%s of %d = %d, want %d", rd ? "recv" : "send", len, r, e ? e : len);
		if (rd && !e)
			fuzz_check(!memcmp(got, buf, (size_t)len), "recv differs");
		break;
	}
	case 13: /* NAK an address, present or not */
		fuzz_check(uirq_i2c_sim_set_nak(sim, addr, val & 1) == 0, "set_nak");
		sh.nak[addr] = val & 1;
		break;
	case 14: { /* fail the nth transfer */
		static const int errs[] = { -EIO, -ENXIO, -EAGAIN, -EREMOTEIO };
		unsigned int nth = val % 4;
		int err = errs[reg % 4];

		fuzz_check(uirq_i2c_sim_fail_nth(sim, nth, err) == 0, "fail_nth");
		sh.nth = nth;
		sh.nth_err = err;
		break;
	}
	case 15:
		uirq_i2c_sim_clear_faults(sim);
		memset(sh.nak, 0, sizeof(sh.nak));
		memset(sh.match, 0, sizeof(sh.match));
		sh.nth = 0;
		break;
	case 17: { /* fail every transfer to an address at a register (or any: -1); err 0 removes */
		static const int errs[] = { 0, -EIO, -ENXIO, -EREMOTEIO };
		int mreg = (val & 0x80) ? -1 : reg, err = errs[val % 4], slot = -1, want;

		for (int k = 0; k < 8; k++) {
			if (sh.match[k].used && sh.match[k].addr == addr && sh.match[k].reg == mreg)
				slot = k;
			else if (!sh.match[k].used && slot < 0)
				slot = k;
		}
		want = 0;
		if (!err) {
			if (slot >= 0 && sh.match[slot].used)
				sh.match[slot].used = false;
		} else if (slot < 0) {
			want = -ENOSPC;
		} else {
			sh.match[slot].used = true;
			sh.match[slot].addr = addr;
			sh.match[slot].reg = mreg;
			sh.match[slot].err = err;
		}
		r = uirq_i2c_sim_fail_match(sim, addr, mreg, err);
		fuzz_check(r == want, "fail_match = %d, want %d", r, want);
		break;
	}
	case 16: /* names: every register the model names is one the drivers use */
		if (twl4030_reg_name(addr, reg))
			fuzz_check(slave(addr) >= 0, "a name outside the chip");
		break;
	default:
		break;
	}
	check_chip();
}

static void lockdep_report(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	fprintf(stderr, "lockdep: %s\n%s\n", r->headline, r->text);
	reports++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	uirq_lockdep_set_report_handler(lockdep_report, NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	int err = uirq_sim_start(fuzz_sim_seed(data, size), UIRQ_SIM_RANDOM, 0);

	fuzz_check(err == 0, "uirq_sim_start = %d", err);
	fuzz_check(uirq_i2c_sim_new("fuzz-twl", BUS_HZ, &sim) == 0, "sim_new");
	adap = uirq_i2c_sim_adapter(sim);
	fuzz_check(twl4030_create(sim, &twl) == 0, "twl4030_create");
	for (size_t i = 0; i < NR_CLIENTS; i++) {
		fuzz_check(uirq_i2c_new_client_device(adap, "fuzz", client_addr[i], &client[i]) == 0,
			   "client 0x%02x", client_addr[i]);
	}
	memset(&sh, 0, sizeof(sh));
	for (int s = 0; s < 4; s++)
		for (int r = 0; r < 256; r++)
			sh.regs[s][r] = twl4030_peek(twl, (uint16_t)(TWL4030_ADDR_USB + s), (uint8_t)r);
	/* Derived registers are never stored. */
	sh.regs[1][TWL4030_PIH_ISR_P1] = sh.regs[1][TWL4030_PIH_ISR_P2] = 0;
	int1_calls = 0;
	twl4030_connect_int1(twl, int1_cb, NULL);
	fuzz_check(int1_calls == 1, "INT1 listener not told at once");
	check_chip();

	for (int n = 0; in.n && n < MAX_OPS; n++)
		op(&in);

	for (size_t i = 0; i < NR_CLIENTS; i++)
		uirq_i2c_unregister_device(client[i]);
	twl4030_destroy(twl);
	fuzz_check(uirq_i2c_sim_free(sim) == 0, "sim_free");
	fuzz_check(uirq_sim_stop() == UIRQ_SIM_OK, "the deterministic mode ended in a deadlock");
	fuzz_check(reports == 0, "lockdep reported %lu", reports);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * i2c wire time: what a transfer costs on the bus, counted in SCL clocks.
 * A pure function, so tests and irqsim ("latency minus modeled bus time")
 * get exactly the number the simulated adapter sleeps for.
 */
#include "i2c-core.h"

#include <errno.h>

#define CLOCKS_PER_BYTE	9	/* 8 data bits + ACK/NACK */
#define HS_PREAMBLE	(1 + CLOCKS_PER_BYTE)	/* S + master code + NACK */
#define HS_PREAMBLE_HZ	UIRQ_I2C_SPEED_FAST

static uint32_t address_clocks(const struct uirq_i2c_msg *m)
{
	if (!(m->flags & UIRQ_I2C_M_TEN))
		return CLOCKS_PER_BYTE;
	/* 10-bit read: both bytes with W, then Sr and the high byte with R. */
	if (m->flags & UIRQ_I2C_M_RD)
		return 3 * CLOCKS_PER_BYTE + 1;
	return 2 * CLOCKS_PER_BYTE;
}

static uint64_t clocks_to_ns(uint64_t clocks, unsigned long hz)
{
	/* Rounded up: the sleep it feeds must never be shorter than the wire. */
	return (clocks * 1000000000u + hz - 1) / hz;
}

int i2c_wire_time_partial(const struct uirq_i2c_msg *msgs, int num, int last_len,
			  unsigned long bus_hz, struct uirq_i2c_wire_time *wt)
{
	bool hs = bus_hz > UIRQ_I2C_SPEED_FAST_PLUS;
	uint32_t clocks = 0, preamble = 0;

	if (!msgs || num <= 0 || !wt || !bus_hz || bus_hz > UIRQ_I2C_SPEED_HS)
		return -EINVAL;
	for (int i = 0; i < num; i++) {
		const struct uirq_i2c_msg *m = &msgs[i];
		uint32_t len = (i == num - 1 && last_len >= 0 && last_len < m->len) ? (uint32_t)last_len : m->len;
		bool fresh_start = i == 0 || (msgs[i - 1].flags & UIRQ_I2C_M_STOP);

		if (i > 0 && (m->flags & UIRQ_I2C_M_NOSTART)) {
			clocks += len * CLOCKS_PER_BYTE;
			continue;
		}
		if (i > 0 && fresh_start)
			clocks += 1;	/* the P that ended the previous message */
		if (fresh_start && hs)
			preamble += HS_PREAMBLE;
		clocks += 1;	/* S, or Sr (HS mode starts with Sr after the master code) */
		clocks += address_clocks(m) + len * CLOCKS_PER_BYTE;
	}
	clocks += 1;	/* P */
	wt->clocks = clocks;
	wt->preamble_clocks = preamble;
	wt->ns = clocks_to_ns(clocks, bus_hz) + clocks_to_ns(preamble, HS_PREAMBLE_HZ);
	return 0;
}

int uirq_i2c_wire_time(const struct uirq_i2c_msg *msgs, int num, unsigned long bus_hz,
		       struct uirq_i2c_wire_time *wt)
{
	return i2c_wire_time_partial(msgs, num, -1, bus_hz, wt);
}

uint64_t uirq_i2c_wire_ns(const struct uirq_i2c_msg *msgs, int num, unsigned long bus_hz)
{
	struct uirq_i2c_wire_time wt;

	return uirq_i2c_wire_time(msgs, num, bus_hz, &wt) ? 0 : wt.ns;
}

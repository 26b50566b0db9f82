/* SPDX-License-Identifier: MIT */
/* Shared inside the i2c layer only: counters and the clock. */
#ifndef UIRQ_I2C_CORE_H
#define UIRQ_I2C_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "uirq/i2c.h"
#include "uirq/sim.h"

/* Counters are read by other threads while a transfer updates them. */
static inline void i2c_stat_add(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* uirq's clock (virtual in the deterministic mode). */
static inline uint64_t i2c_now_ns(void)
{
	return uirq_sim_clock_ns();
}

/* One attempt at a transfer through the adapter's hook (bus lock held): num or -errno. */
typedef int (*i2c_xfer_fn)(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
			   void *arg);

/*
 * A transfer with the bus lock held: refused (-ENODEV) once the adapter is
 * deleted, -EAGAIN retried within retries and timeout, then counted and
 * traced as msgs.  With may_fall_back, an -EOPNOTSUPP from fn is returned
 * uncounted and untraced: the caller is about to try another way.
 */
int i2c_do_transfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
		    i2c_xfer_fn fn, void *arg, bool may_fall_back);
/* The i2c_xfer_fn of plain transfers: the algorithm's master_xfer. */
int i2c_master_xfer_fn(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num, void *arg);

/* An adapter that models the wire reports each transfer's time here (bus lock held). */
void i2c_account_wire(struct uirq_i2c_adapter *adap, uint64_t wire_ns, uint64_t sleep_ns);

/* Wire time of msgs, the last message cut to last_len bytes (a transfer that failed in it). */
int i2c_wire_time_partial(const struct uirq_i2c_msg *msgs, int num, int last_len,
			  unsigned long bus_hz, struct uirq_i2c_wire_time *wt);

#endif

/* SPDX-License-Identifier: MIT */
/* A record of the i2c transfers on the board's bus, through the adapter's trace hook. */
#ifndef UIRQ_TESTS_DRIVERS_XFER_LOG_H
#define UIRQ_TESTS_DRIVERS_XFER_LOG_H

#include <sys/syscall.h>

#include "fixture.h"

struct xfer {
	pid_t tid;
	uint16_t addr;
	uint8_t reg;
	bool read;
	int len;		/* data bytes */
	uint8_t data[4];
	int ret;
};

static pthread_mutex_t xl_mu = PTHREAD_MUTEX_INITIALIZER;
static struct xfer xl[256];
static int xl_n;

/* Runs in the transfer's thread with the bus lock held. */
static void xl_trace(const struct uirq_i2c_trace *t, void *arg)
{
	struct xfer x = { .tid = (pid_t)syscall(SYS_gettid), .ret = t->ret };
	const struct uirq_i2c_msg *d;

	(void)arg;
	if (t->num < 1 || !t->msgs[0].len)
		return;
	x.addr = t->msgs[0].addr;
	x.reg = t->msgs[0].buf[0];
	x.read = t->num > 1 && (t->msgs[1].flags & UIRQ_I2C_M_RD);
	d = x.read ? &t->msgs[1] : &t->msgs[0];
	for (int i = x.read ? 0 : 1; i < d->len && x.len < 4; i++)
		x.data[x.len++] = d->buf[i];
	pthread_mutex_lock(&xl_mu);
	if (xl_n < 256)
		xl[xl_n++] = x;
	pthread_mutex_unlock(&xl_mu);
}

static inline void xl_start(void)
{
	pthread_mutex_lock(&xl_mu);
	xl_n = 0;
	pthread_mutex_unlock(&xl_mu);
	uirq_i2c_set_trace(uirq_board_i2c(fx.b), xl_trace, NULL);
}

/* Stop recording; the number of transfers recorded. */
static inline int xl_stop(void)
{
	uirq_i2c_set_trace(uirq_board_i2c(fx.b), NULL, NULL);
	pthread_mutex_lock(&xl_mu);
	int n = xl_n;
	pthread_mutex_unlock(&xl_mu);
	return n;
}

#endif

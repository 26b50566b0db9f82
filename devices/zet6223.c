// SPDX-License-Identifier: MIT
/*
 * The ZET6223 model (zet6223.h has the facts it follows): a controller
 * that is not register-addressed - it takes a command byte and answers
 * plain reads - so it uses the simulated bus's message-level callbacks.
 * One plain mutex stands for the chip (as the TWL4030 model's does: it is
 * silicon, not a lock of the driver's for lockdep to follow).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model-pin.h"
#include "zet6223.h"

struct zet6223 {
	pthread_mutex_t lock;
	struct uirq_i2c_sim *sim;
	uint16_t addr;
	unsigned int fingers;
	uint8_t info[ZET6223_INFO_LEN];
	uint8_t report[ZET6223_REPORT_LEN(ZET6223_MAX_FINGERS)];
	bool info_next;			/* the next read answers the info command */
	bool ready;			/* a report the host has not read */
	unsigned long reads;
	struct model_pin irq;
};

static int zet_send(void *priv, const uint8_t *buf, uint16_t len)
{
	struct zet6223 *z = priv;

	pthread_mutex_lock(&z->lock);
	/* Other commands (firmware download, sleep) are taken and not modelled. */
	if (len >= 1 && buf[0] == ZET6223_CMD_INFO)
		z->info_next = true;
	pthread_mutex_unlock(&z->lock);
	return 0;
}

static int zet_recv(void *priv, uint8_t *buf, uint16_t len)
{
	struct zet6223 *z = priv;
	const uint8_t *src;
	size_t have;

	pthread_mutex_lock(&z->lock);
	if (z->info_next) {
		src = z->info, have = sizeof(z->info);
		z->info_next = false;
	} else {
		src = z->report, have = sizeof(z->report);
		z->reads++;
		/* Read: the report is taken, INT goes high. */
		z->ready = false;
		z->irq.level = false;
	}
	memset(buf, 0, len);
	memcpy(buf, src, len < have ? len : have);
	pthread_mutex_unlock(&z->lock);
	model_pin_deliver(&z->irq);
	return 0;
}

static const struct uirq_i2c_sim_device_ops zet_ops = { .send = zet_send, .recv = zet_recv };

int zet6223_create(struct uirq_i2c_sim *sim, uint16_t addr, unsigned int fingers, uint16_t max_x,
		   uint16_t max_y, struct uirq_swirq *intc, unsigned int line, struct zet6223 **out)
{
	struct zet6223 *z;
	int ret;

	if (!sim || !intc || !out || !fingers || fingers > ZET6223_MAX_FINGERS)
		return -EINVAL;
	z = calloc(1, sizeof(*z));
	if (!z)
		return -ENOMEM;
	pthread_mutex_init(&z->lock, NULL);
	z->sim = sim;
	z->addr = addr;
	z->fingers = fingers;
	z->info[8] = (uint8_t)max_x;
	z->info[9] = (uint8_t)(max_x >> 8);
	z->info[10] = (uint8_t)max_y;
	z->info[11] = (uint8_t)(max_y >> 8);
	z->info[15] = (uint8_t)fingers;
	z->report[0] = ZET6223_PACKET_ID;
	model_pin_init(&z->irq, &z->lock, false);
	model_pin_connect_swirq(&z->irq, intc, line);
	ret = uirq_i2c_sim_attach(sim, addr, &zet_ops, z);
	if (ret) {
		pthread_mutex_destroy(&z->lock);
		free(z);
		return ret;
	}
	*out = z;
	return 0;
}

void zet6223_destroy(struct zet6223 *z)
{
	if (!z)
		return;
	/* Detaching waits for a transfer in flight; after it no callback starts. */
	uirq_i2c_sim_detach(z->sim, z->addr);
	model_pin_disconnect(&z->irq);
	pthread_mutex_destroy(&z->lock);
	free(z);
}

void zet6223_scan(struct zet6223 *z, const struct zet6223_touch *touches, unsigned int n)
{
	uint16_t mask = 0;

	pthread_mutex_lock(&z->lock);
	memset(z->report + 1, 0, sizeof(z->report) - 1);
	for (unsigned int i = 0; i < n && i < z->fingers; i++) {
		uint8_t *f = z->report + 3 + 4 * i;

		if (!touches[i].down)
			continue;
		mask |= (uint16_t)(1u << (15 - i));
		f[0] = (uint8_t)(((touches[i].x >> 8) & 0xf) << 4 | ((touches[i].y >> 8) & 0xf));
		f[1] = (uint8_t)touches[i].x;
		f[2] = (uint8_t)touches[i].y;
		f[3] = touches[i].pressure;
	}
	z->report[1] = (uint8_t)(mask >> 8);
	z->report[2] = (uint8_t)mask;
	/* Still low for an unread report: strobe it, an edge of its own. */
	if (z->ready)
		model_pin_pulse(&z->irq);
	z->ready = true;
	z->irq.level = true;
	pthread_mutex_unlock(&z->lock);
	model_pin_deliver(&z->irq);
}

bool zet6223_int_asserted(struct zet6223 *z)
{
	bool a;

	pthread_mutex_lock(&z->lock);
	a = z->ready;
	pthread_mutex_unlock(&z->lock);
	return a;
}

unsigned long zet6223_reports_read(struct zet6223 *z)
{
	unsigned long n;

	pthread_mutex_lock(&z->lock);
	n = z->reads;
	pthread_mutex_unlock(&z->lock);
	return n;
}

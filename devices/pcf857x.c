// SPDX-License-Identifier: MIT
/*
 * The PCF8574/PCF8575 model (facts: pcf857x.h): a latch, what outside
 * pulls low, the port's state at the last transfer, and INT derived from
 * them.  One plain lock stands for the silicon, as in the other models;
 * INT reaches the controller outside it, in order (model-pin.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "model-pin.h"
#include "pcf857x.h"

struct pcf857x {
	pthread_mutex_t lock;
	struct uirq_i2c_sim *sim;
	uint16_t addr;
	unsigned int ngpio;
	uint16_t mask;		/* the chip's lines */
	uint16_t latch;
	uint16_t pulled;	/* pins held low from outside */
	uint16_t seen;		/* the port at the last read or write: INT's reference */
	struct model_pin int_pin;
};

static uint16_t pins(const struct pcf857x *c)
{
	return c->latch & (uint16_t)~c->pulled & c->mask;
}

/* INT from the port and its reference (lock held). */
static void int_update(struct pcf857x *c)
{
	c->int_pin.level = pins(c) != c->seen;
}

/* A write message: each byte is the latch (PCF8574) or its next half (PCF8575). */
static int pcf_send(void *priv, const uint8_t *buf, uint16_t len)
{
	struct pcf857x *c = priv;

	pthread_mutex_lock(&c->lock);
	for (uint16_t i = 0; i < len; i++) {
		if (c->ngpio == 8)
			c->latch = buf[i];
		else if (i % 2 == 0)
			c->latch = (uint16_t)((c->latch & 0xff00) | buf[i]);
		else
			c->latch = (uint16_t)((c->latch & 0x00ff) | buf[i] << 8);
	}
	/* Writing the port resets the interrupt: what the pins are now is the new reference. */
	if (len)
		c->seen = pins(c);
	int_update(c);
	pthread_mutex_unlock(&c->lock);
	model_pin_deliver(&c->int_pin);
	return 0;
}

/* A read message: the port, sampled once for the message, in the chip's byte order. */
static int pcf_recv(void *priv, uint8_t *buf, uint16_t len)
{
	struct pcf857x *c = priv;
	uint16_t port;

	pthread_mutex_lock(&c->lock);
	port = pins(c);
	for (uint16_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(c->ngpio == 16 && i % 2 ? port >> 8 : port);
	c->seen = port;
	int_update(c);
	pthread_mutex_unlock(&c->lock);
	model_pin_deliver(&c->int_pin);
	return 0;
}

static const struct uirq_i2c_sim_device_ops pcf857x_ops = { .send = pcf_send, .recv = pcf_recv };

int pcf857x_create(struct uirq_i2c_sim *sim, uint16_t addr, unsigned int ngpio, struct uirq_swirq *intc,
		   unsigned int hwirq, struct pcf857x **out)
{
	struct pcf857x *c;
	int ret;

	if (!sim || !intc || !out || (ngpio != 8 && ngpio != 16) || hwirq >= uirq_swirq_nr_inputs(intc))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	pthread_mutex_init(&c->lock, NULL);
	c->sim = sim;
	c->addr = addr;
	c->ngpio = ngpio;
	c->mask = (uint16_t)((1u << ngpio) - 1);
	c->latch = c->mask;
	c->seen = c->mask;
	model_pin_init(&c->int_pin, &c->lock, false);
	ret = uirq_i2c_sim_attach(sim, addr, &pcf857x_ops, c);
	if (ret) {
		pthread_mutex_destroy(&c->lock);
		free(c);
		return ret;
	}
	model_pin_connect_swirq(&c->int_pin, intc, hwirq);
	*out = c;
	return 0;
}

void pcf857x_destroy(struct pcf857x *c)
{
	if (!c)
		return;
	/* Detaching waits for a transfer in flight; after it no callback can start. */
	uirq_i2c_sim_detach(c->sim, c->addr);
	model_pin_disconnect(&c->int_pin);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void pcf857x_pull(struct pcf857x *c, unsigned int pin, bool low)
{
	pthread_mutex_lock(&c->lock);
	if (pin < c->ngpio) {
		if (low)
			c->pulled |= (uint16_t)(1u << pin);
		else
			c->pulled &= (uint16_t)~(1u << pin);
		int_update(c);
	}
	pthread_mutex_unlock(&c->lock);
	model_pin_deliver(&c->int_pin);
}

uint16_t pcf857x_pins(struct pcf857x *c)
{
	uint16_t v;

	pthread_mutex_lock(&c->lock);
	v = pins(c);
	pthread_mutex_unlock(&c->lock);
	return v;
}

uint16_t pcf857x_latch(struct pcf857x *c)
{
	uint16_t v;

	pthread_mutex_lock(&c->lock);
	v = c->latch;
	pthread_mutex_unlock(&c->lock);
	return v;
}

bool pcf857x_int_asserted(struct pcf857x *c)
{
	bool v;

	pthread_mutex_lock(&c->lock);
	v = c->int_pin.level;
	pthread_mutex_unlock(&c->lock);
	return v;
}

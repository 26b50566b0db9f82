// SPDX-License-Identifier: MIT
/*
 * The KXTJ9 model (kxtj9.h has the register map it follows): a
 * register-addressed slave, one plain mutex standing for the chip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model-pin.h"
#include "kxtj9.h"

struct kxtj9 {
	pthread_mutex_t lock;
	struct uirq_i2c_sim *sim;
	uint16_t addr;
	uint8_t regs[256];
	int mg[3];			/* what the chip feels */
	bool latched;			/* a latched (IEL 0) interrupt waits for INT_REL */
	unsigned long refused, data_ready, releases;
	struct model_pin irq;
};

/* Output data rates of DATA_CTRL_REG in mHz; beyond the table the slowest. */
static const uint32_t odr_mhz[] = { 12500, 25000, 50000, 100000, 200000, 400000, 800000, 1600000,
				    781, 1563, 3125, 6250 };

static void reset(struct kxtj9 *k)
{
	memset(k->regs, 0, sizeof(k->regs));
	k->regs[KXTJ9_DCST_RESP] = 0x55;
	k->regs[KXTJ9_WHO_AM_I] = KXTJ9_WHO_AM_I_VALUE;
	k->regs[KXTJ9_INT_CTRL_REG1] = KXTJ9_IEA;
	k->regs[KXTJ9_DATA_CTRL_REG] = 0x02;
}

/* The wire, chip lock held: high when the pin is asserted and active high, or idle and active low. */
static void pin_update(struct kxtj9 *k)
{
	uint8_t ic = k->regs[KXTJ9_INT_CTRL_REG1];
	bool asserted = (ic & KXTJ9_IEN) && k->latched;

	k->irq.level = (ic & KXTJ9_IEA) ? asserted : !asserted;
}

static uint8_t read_reg(struct kxtj9 *k, uint8_t reg)
{
	uint8_t v = k->regs[reg];

	if (reg == KXTJ9_INT_REL) {
		k->releases++;
		k->regs[KXTJ9_INT_SOURCE1] = 0;
		k->regs[KXTJ9_INT_SOURCE2] = 0;
		k->regs[KXTJ9_STATUS_REG] &= (uint8_t)~KXTJ9_INT;
		k->latched = false;
		pin_update(k);
	}
	return v;
}

/* Registers only written in standby (the datasheet's rule); CTRL_REG1 itself is how one gets there. */
static bool standby_only(uint8_t reg)
{
	return reg == KXTJ9_CTRL_REG2 || reg == KXTJ9_INT_CTRL_REG1 || reg == KXTJ9_INT_CTRL_REG2 ||
	       reg == KXTJ9_DATA_CTRL_REG;
}

static void write_reg(struct kxtj9 *k, uint8_t reg, uint8_t val)
{
	if (standby_only(reg) && (k->regs[KXTJ9_CTRL_REG1] & KXTJ9_PC1)) {
		k->refused++;
		return;
	}
	switch (reg) {
	case KXTJ9_CTRL_REG1:
	case KXTJ9_CTRL_REG2:
	case KXTJ9_INT_CTRL_REG1:
	case KXTJ9_INT_CTRL_REG2:
	case KXTJ9_DATA_CTRL_REG:
		k->regs[reg] = val;
		pin_update(k);
		break;
	default:
		break;	/* outputs, status and identity are read-only */
	}
}

static int kx_read(void *priv, uint8_t reg, uint8_t *val)
{
	struct kxtj9 *k = priv;

	pthread_mutex_lock(&k->lock);
	*val = read_reg(k, reg);
	pthread_mutex_unlock(&k->lock);
	model_pin_deliver(&k->irq);
	return 0;
}

static int kx_write(void *priv, uint8_t reg, uint8_t val)
{
	struct kxtj9 *k = priv;

	pthread_mutex_lock(&k->lock);
	write_reg(k, reg, val);
	pthread_mutex_unlock(&k->lock);
	model_pin_deliver(&k->irq);
	return 0;
}

static const struct uirq_i2c_sim_device_ops kx_ops = { .read = kx_read, .write = kx_write };

int kxtj9_create(struct uirq_i2c_sim *sim, uint16_t addr, struct uirq_swirq *intc, unsigned int line,
		 struct kxtj9 **out)
{
	struct kxtj9 *k;
	int ret;

	if (!sim || !intc || !out)
		return -EINVAL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	pthread_mutex_init(&k->lock, NULL);
	k->sim = sim;
	k->addr = addr;
	reset(k);
	model_pin_init(&k->irq, &k->lock, false);
	model_pin_connect_swirq(&k->irq, intc, line);
	ret = uirq_i2c_sim_attach(sim, addr, &kx_ops, k);
	if (ret) {
		pthread_mutex_destroy(&k->lock);
		free(k);
		return ret;
	}
	*out = k;
	return 0;
}

void kxtj9_destroy(struct kxtj9 *k)
{
	if (!k)
		return;
	uirq_i2c_sim_detach(k->sim, k->addr);
	model_pin_disconnect(&k->irq);
	pthread_mutex_destroy(&k->lock);
	free(k);
}

void kxtj9_set_acceleration(struct kxtj9 *k, int x_mg, int y_mg, int z_mg)
{
	pthread_mutex_lock(&k->lock);
	k->mg[0] = x_mg;
	k->mg[1] = y_mg;
	k->mg[2] = z_mg;
	pthread_mutex_unlock(&k->lock);
}

/* One axis in the configured range and resolution, left-justified in 16 bits as XOUT_H:XOUT_L hold it. */
static uint16_t convert(const struct kxtj9 *k, int mg)
{
	uint8_t c1 = k->regs[KXTJ9_CTRL_REG1];
	bool res12 = c1 & KXTJ9_RES;
	/* counts per g at +-2g: 1024 in 12-bit, 64 in 8-bit; halved for each doubling of the range */
	long per_g = (res12 ? 1024 : 64) >> ((c1 & KXTJ9_GSEL) >> 3);
	long max = res12 ? 2047 : 127;
	long counts = (long)mg * per_g / 1000;

	if (counts > max)
		counts = max;
	if (counts < -max - 1)
		counts = -max - 1;
	return res12 ? (uint16_t)((uint16_t)counts << 4) : (uint16_t)((uint16_t)counts << 8);
}

bool kxtj9_sample(struct kxtj9 *k)
{
	bool operating;

	pthread_mutex_lock(&k->lock);
	operating = k->regs[KXTJ9_CTRL_REG1] & KXTJ9_PC1;
	if (operating) {
		for (int axis = 0; axis < 3; axis++) {
			uint16_t v = convert(k, k->mg[axis]);

			k->regs[KXTJ9_XOUT_L + 2 * axis] = (uint8_t)v;
			k->regs[KXTJ9_XOUT_L + 2 * axis + 1] = (uint8_t)(v >> 8);
		}
		if (k->regs[KXTJ9_CTRL_REG1] & KXTJ9_DRDYE) {
			uint8_t ic = k->regs[KXTJ9_INT_CTRL_REG1];

			k->data_ready++;
			k->regs[KXTJ9_INT_SOURCE1] |= KXTJ9_DRDY;
			k->regs[KXTJ9_STATUS_REG] |= KXTJ9_INT;
			/* A pulse per event (IEL), or the level until INT_REL is read. */
			if ((ic & KXTJ9_IEN) && (ic & KXTJ9_IEL))
				model_pin_pulse(&k->irq);
			else
				k->latched = true;
			pin_update(k);
		}
	}
	pthread_mutex_unlock(&k->lock);
	model_pin_deliver(&k->irq);
	return operating;
}

uint32_t kxtj9_odr_mhz(struct kxtj9 *k)
{
	uint8_t osa;

	pthread_mutex_lock(&k->lock);
	osa = k->regs[KXTJ9_DATA_CTRL_REG] & 0x0f;
	pthread_mutex_unlock(&k->lock);
	return osa < sizeof(odr_mhz) / sizeof(odr_mhz[0]) ? odr_mhz[osa] : odr_mhz[8];
}

uint8_t kxtj9_peek(struct kxtj9 *k, uint8_t reg)
{
	uint8_t v;

	pthread_mutex_lock(&k->lock);
	v = k->regs[reg];
	pthread_mutex_unlock(&k->lock);
	return v;
}

/* A counter of the chip's, read under its lock. */
static unsigned long counter(struct kxtj9 *k, const unsigned long *c)
{
	unsigned long n;

	pthread_mutex_lock(&k->lock);
	n = *c;
	pthread_mutex_unlock(&k->lock);
	return n;
}

unsigned long kxtj9_refused_writes(struct kxtj9 *k)
{
	return counter(k, &k->refused);
}

unsigned long kxtj9_data_ready_count(struct kxtj9 *k)
{
	return counter(k, &k->data_ready);
}

unsigned long kxtj9_int_rel_reads(struct kxtj9 *k)
{
	return counter(k, &k->releases);
}

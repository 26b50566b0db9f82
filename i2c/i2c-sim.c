// SPDX-License-Identifier: MIT
/*
 * The simulated i2c adapter: register-addressed slaves behind a bus that
 * costs real time.  Every transfer runs the slaves' callbacks, then sleeps
 * until its modeled wire time (plus any injected delay) has passed since it
 * began, so a driver sees the latency of the real bus.
 */
#include "i2c-core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/spinlock.h"

#define SIM_SLAVES	128	/* 7-bit address space */
#define SIM_MATCHES	8

struct sim_slave {
	const struct uirq_i2c_sim_device_ops *ops;	/* NULL: nobody at this address */
	void *priv;
	uint8_t ptr;			/* register pointer, survives transfers */
};

struct sim_match {
	bool used;
	uint16_t addr;
	int reg;			/* -1: any register */
	int err;
};

struct uirq_i2c_sim {
	struct uirq_i2c_adapter adap;
	unsigned long bus_hz;			/* atomic: changed while transfers run */
	struct sim_slave slaves[SIM_SLAVES];	/* under the bus lock */

	/* Faults may be set from any context, while a transfer sleeps. */
	uirq_spinlock_t fault_lock;
	uint8_t nak[SIM_SLAVES / 8];
	bool stuck;
	uint64_t delay_ns;
	unsigned int nth;
	int nth_err;
	struct sim_match match[SIM_MATCHES];
	uint64_t injected;			/* atomic */
};

#define to_sim(a) ((struct uirq_i2c_sim *)(a)->algo_data)

static bool errno_valid(int err)
{
	return err < 0 && err > -4096;
}

static bool speed_valid(unsigned long hz)
{
	return hz > 0 && hz <= UIRQ_I2C_SPEED_HS;
}


/* The register a transfer touches at addr: its first write's first byte, else the pointer. */
static int register_of(struct uirq_i2c_sim *sim, const struct uirq_i2c_msg *msgs, int num, uint16_t addr)
{
	for (int i = 0; i < num; i++) {
		if (msgs[i].addr != addr)
			continue;
		if (!(msgs[i].flags & UIRQ_I2C_M_RD) && msgs[i].len)
			return msgs[i].buf[0];
		return addr < SIM_SLAVES ? sim->slaves[addr].ptr : -1;
	}
	return -2;	/* the transfer does not address addr */
}

/* What the fault settings say about this transfer: 0 or the injected error; *delay, *stuck. */
static int pick_fault(struct uirq_i2c_sim *sim, const struct uirq_i2c_msg *msgs, int num,
		      uint64_t *delay, bool *stuck)
{
	unsigned long flags;
	int err = 0;

	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	*delay = sim->delay_ns;
	*stuck = sim->stuck;
	if (sim->nth && --sim->nth == 0)
		err = sim->nth_err;
	for (int i = 0; !err && i < SIM_MATCHES; i++) {
		const struct sim_match *m = &sim->match[i];
		int reg;

		if (!m->used)
			continue;
		reg = register_of(sim, msgs, num, m->addr);
		if (reg != -2 && (m->reg < 0 || m->reg == reg))
			err = m->err;
	}
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
	if (err == -ETIMEDOUT)
		*stuck = true;
	return err;
}

static bool nak_set(struct uirq_i2c_sim *sim, uint16_t addr)
{
	unsigned long flags;
	bool nak;

	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	nak = sim->nak[addr / 8] & (1u << (addr % 8));
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
	return nak;
}

/* A whole message to or from a slave that is not register-addressed; *done as run_msg()'s. */
static int run_stream_msg(struct sim_slave *s, struct uirq_i2c_msg *m, int *done)
{
	int ret;

	if (!m->len)
		return 0;	/* the address alone: ACKed */
	ret = m->flags & UIRQ_I2C_M_RD ? s->ops->recv(s->priv, m->buf, m->len) : s->ops->send(s->priv, m->buf, m->len);
	/* A refusal shows on the first data byte, as a data NACK would. */
	*done = ret < 0 ? 1 : m->len;
	return ret < 0 ? ret : 0;
}

/* Run one message against its slave; on failure *done is how many bytes went out. */
static int run_msg(struct uirq_i2c_sim *sim, struct uirq_i2c_msg *m, int *done)
{
	struct sim_slave *s;
	int ret = 0;

	*done = 0;
	if (m->addr >= SIM_SLAVES || !sim->slaves[m->addr].ops || nak_set(sim, m->addr))
		return -ENXIO;
	s = &sim->slaves[m->addr];
	if (m->flags & UIRQ_I2C_M_RD ? s->ops->recv != NULL : s->ops->send != NULL)
		return run_stream_msg(s, m, done);
	for (int j = 0; j < m->len; j++) {
		*done = j + 1;
		if (m->flags & UIRQ_I2C_M_RD)
			ret = s->ops->read ? s->ops->read(s->priv, s->ptr, &m->buf[j]) : -EIO;
		else if (j == 0)
			s->ptr = m->buf[0];
		else
			ret = s->ops->write ? s->ops->write(s->priv, s->ptr, m->buf[j]) : -EIO;
		if (ret < 0)
			return ret;
		if ((m->flags & UIRQ_I2C_M_RD) || j > 0)
			s->ptr++;
	}
	return 0;
}

static int sim_master_xfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num)
{
	struct uirq_i2c_sim *sim = to_sim(adap);
	unsigned long hz = __atomic_load_n(&sim->bus_hz, __ATOMIC_RELAXED);
	struct uirq_i2c_wire_time wt = { 0 };
	uint64_t start = i2c_now_ns(), delay, end;
	int ret = 0, failed_at = num, done = -1;
	bool stuck;

	for (int i = 0; i < num; i++)
		if (msgs[i].flags & ~(UIRQ_I2C_M_RD | UIRQ_I2C_M_DMA_SAFE))
			return -EOPNOTSUPP;	/* refused before the bus moves */

	ret = pick_fault(sim, msgs, num, &delay, &stuck);
	if (stuck) {
		/* SDA or SCL held low: the controller gives up after the adapter timeout. */
		uirq_sim_sleep_until_ns(start + (uint64_t)adap->timeout_ms * 1000000u + delay);
		__atomic_fetch_add(&sim->injected, 1, __ATOMIC_RELAXED);
		i2c_account_wire(adap, 0, i2c_now_ns() - start);
		return -ETIMEDOUT;
	}
	if (ret) {
		/* An injected failure shows on the first address byte. */
		__atomic_fetch_add(&sim->injected, 1, __ATOMIC_RELAXED);
		failed_at = 0;
		done = 0;
	}
	for (int i = 0; !ret && i < num; i++) {
		ret = run_msg(sim, &msgs[i], &done);
		if (ret)
			failed_at = i;
	}
	if (ret)
		i2c_wire_time_partial(msgs, failed_at + 1, done, hz, &wt);
	else
		i2c_wire_time_partial(msgs, num, -1, hz, &wt);
	/* On uirq's clock: modelled wire time costs no wall time in the deterministic mode. */
	uirq_sim_sleep_until_ns(start + wt.ns + delay);
	end = i2c_now_ns();
	i2c_account_wire(adap, wt.ns, end - start);
	return ret ? ret : num;
}

static uint32_t sim_functionality(struct uirq_i2c_adapter *adap)
{
	(void)adap;
	/* Plain i2c and what the SMBus emulation builds on it; no PEC, no 10-bit. */
	return UIRQ_I2C_FUNC_I2C | UIRQ_I2C_FUNC_SMBUS_QUICK | UIRQ_I2C_FUNC_SMBUS_BYTE |
	       UIRQ_I2C_FUNC_SMBUS_BYTE_DATA | UIRQ_I2C_FUNC_SMBUS_WORD_DATA |
	       UIRQ_I2C_FUNC_SMBUS_I2C_BLOCK;
}

static const struct uirq_i2c_algorithm sim_algo = {
	.master_xfer = sim_master_xfer,
	.functionality = sim_functionality,
};

int uirq_i2c_sim_new(const char *name, unsigned long bus_hz, struct uirq_i2c_sim **out)
{
	struct uirq_i2c_sim *sim;
	int ret;

	*out = NULL;
	if (!speed_valid(bus_hz))
		return -EINVAL;
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return -ENOMEM;
	snprintf(sim->adap.name, sizeof(sim->adap.name), "%s", name ? name : "i2c-sim");
	sim->adap.algo = &sim_algo;
	sim->adap.algo_data = sim;
	sim->bus_hz = bus_hz;
	uirq_spin_lock_init(&sim->fault_lock);
	ret = uirq_i2c_add_adapter(&sim->adap);
	if (ret) {
		free(sim);
		return ret;
	}
	*out = sim;
	return 0;
}

int uirq_i2c_sim_free(struct uirq_i2c_sim *sim)
{
	int ret;

	if (!sim)
		return 0;
	ret = uirq_i2c_del_adapter(&sim->adap);
	if (ret)
		return ret;
	uirq_mutex_destroy(&sim->adap.bus_lock);
	free(sim);
	return 0;
}

struct uirq_i2c_adapter *uirq_i2c_sim_adapter(struct uirq_i2c_sim *sim)
{
	return &sim->adap;
}

int uirq_i2c_sim_attach(struct uirq_i2c_sim *sim, uint16_t addr,
			const struct uirq_i2c_sim_device_ops *ops, void *priv)
{
	int ret = 0;

	if (!sim || !ops || addr == 0 || addr >= SIM_SLAVES)
		return -EINVAL;
	uirq_i2c_lock_bus(&sim->adap);
	if (sim->slaves[addr].ops) {
		ret = -EBUSY;
	} else {
		sim->slaves[addr] = (struct sim_slave){ .ops = ops, .priv = priv, .ptr = 0 };
	}
	uirq_i2c_unlock_bus(&sim->adap);
	return ret;
}

int uirq_i2c_sim_detach(struct uirq_i2c_sim *sim, uint16_t addr)
{
	int ret = 0;

	if (!sim || addr >= SIM_SLAVES)
		return -EINVAL;
	uirq_i2c_lock_bus(&sim->adap);
	if (!sim->slaves[addr].ops)
		ret = -ENODEV;
	else
		memset(&sim->slaves[addr], 0, sizeof(sim->slaves[addr]));
	uirq_i2c_unlock_bus(&sim->adap);
	return ret;
}

int uirq_i2c_sim_set_bus_speed(struct uirq_i2c_sim *sim, unsigned long bus_hz)
{
	if (!sim || !speed_valid(bus_hz))
		return -EINVAL;
	__atomic_store_n(&sim->bus_hz, bus_hz, __ATOMIC_RELAXED);
	return 0;
}

unsigned long uirq_i2c_sim_bus_speed(struct uirq_i2c_sim *sim)
{
	return __atomic_load_n(&sim->bus_hz, __ATOMIC_RELAXED);
}

int uirq_i2c_sim_set_nak(struct uirq_i2c_sim *sim, uint16_t addr, bool nak)
{
	unsigned long flags;

	if (!sim || addr >= SIM_SLAVES)
		return -EINVAL;
	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	if (nak)
		sim->nak[addr / 8] |= (uint8_t)(1u << (addr % 8));
	else
		sim->nak[addr / 8] &= (uint8_t)~(1u << (addr % 8));
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
	return 0;
}

int uirq_i2c_sim_fail_nth(struct uirq_i2c_sim *sim, unsigned int nth, int err)
{
	unsigned long flags;

	if (!sim || (nth && !errno_valid(err)))
		return -EINVAL;
	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	sim->nth = nth;
	sim->nth_err = err;
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
	return 0;
}

int uirq_i2c_sim_fail_match(struct uirq_i2c_sim *sim, uint16_t addr, int reg, int err)
{
	struct sim_match *slot = NULL;
	unsigned long flags;
	int ret = 0;

	if (!sim || addr >= SIM_SLAVES || reg < -1 || reg > 0xff || (err && !errno_valid(err)))
		return -EINVAL;
	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	for (int i = 0; i < SIM_MATCHES; i++) {
		struct sim_match *m = &sim->match[i];

		if (m->used && m->addr == addr && m->reg == reg)
			slot = m;
		else if (!m->used && !slot)
			slot = m;
	}
	/* err 0 removes the rule for (addr, reg). */
	if (!err) {
		if (slot && slot->used)
			slot->used = false;
	} else if (!slot) {
		ret = -ENOSPC;
	} else {
		*slot = (struct sim_match){ .used = true, .addr = addr, .reg = reg, .err = err };
	}
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
	return ret;
}

void uirq_i2c_sim_set_stuck(struct uirq_i2c_sim *sim, bool stuck)
{
	unsigned long flags;

	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	sim->stuck = stuck;
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
}

void uirq_i2c_sim_set_delay(struct uirq_i2c_sim *sim, uint64_t delay_ns)
{
	unsigned long flags;

	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	sim->delay_ns = delay_ns;
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
}

void uirq_i2c_sim_clear_faults(struct uirq_i2c_sim *sim)
{
	unsigned long flags;

	uirq_spin_lock_irqsave(&sim->fault_lock, flags);
	memset(sim->nak, 0, sizeof(sim->nak));
	memset(sim->match, 0, sizeof(sim->match));
	sim->stuck = false;
	sim->delay_ns = 0;
	sim->nth = 0;
	sim->nth_err = 0;
	uirq_spin_unlock_irqrestore(&sim->fault_lock, flags);
}

uint64_t uirq_i2c_sim_faults_injected(struct uirq_i2c_sim *sim)
{
	return __atomic_load_n(&sim->injected, __ATOMIC_RELAXED);
}

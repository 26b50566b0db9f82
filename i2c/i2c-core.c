// SPDX-License-Identifier: MIT
/* i2c core: adapters, clients, transfers and their counters. */
#include "i2c-core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/might_sleep.h"
#include "uirq/printk.h"

/* The counters are copied and cleared as an array of uint64_t. */
_Static_assert(sizeof(struct uirq_i2c_stats) % sizeof(uint64_t) == 0, "struct uirq_i2c_stats is all uint64_t");

/* Guards every adapter's client list (the kernel's core_lock). */
static UIRQ_DEFINE_MUTEX(i2c_core_lock);
static int i2c_next_nr;

int uirq_i2c_add_adapter(struct uirq_i2c_adapter *adap)
{
	if (!adap || !adap->algo)
		return -EINVAL;
	if (__atomic_load_n(&adap->registered, __ATOMIC_ACQUIRE))
		return -EBUSY;
	uirq_mutex_init(&adap->bus_lock);
	if (!adap->timeout_ms)
		adap->timeout_ms = 1000;
	if (adap->retries < 0)
		adap->retries = 0;
	adap->clients = NULL;
	adap->trace = NULL;
	adap->trace_arg = NULL;
	memset(&adap->stats, 0, sizeof(adap->stats));
	if (!adap->name[0])
		snprintf(adap->name, sizeof(adap->name), "i2c-adapter");
	adap->nr = __atomic_fetch_add(&i2c_next_nr, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&adap->registered, true, __ATOMIC_RELEASE);
	return 0;
}

int uirq_i2c_del_adapter(struct uirq_i2c_adapter *adap)
{
	int ret = 0;

	if (!adap)
		return -EINVAL;
	uirq_mutex_lock(&i2c_core_lock);
	if (!__atomic_load_n(&adap->registered, __ATOMIC_ACQUIRE)) {
		ret = -ENODEV;
	} else if (adap->clients) {
		/*
		 * The kernel unbinds the clients' drivers here; with no driver
		 * model a client pointer would dangle, so the owner must
		 * unregister them first.
		 */
		uirq_log_printk("i2c i2c-%d: %s: cannot delete adapter, client %s at 0x%02x still registered\n",
			adap->nr, adap->name, adap->clients->name, adap->clients->addr);
		ret = -EBUSY;
	} else {
		/* Wait for a transfer in flight; later ones see -ENODEV. */
		uirq_mutex_lock(&adap->bus_lock);
		__atomic_store_n(&adap->registered, false, __ATOMIC_RELEASE);
		uirq_mutex_unlock(&adap->bus_lock);
	}
	uirq_mutex_unlock(&i2c_core_lock);
	return ret;
}

uint32_t uirq_i2c_get_functionality(struct uirq_i2c_adapter *adap)
{
	if (!adap || !adap->algo || !adap->algo->functionality)
		return 0;
	return adap->algo->functionality(adap);
}

bool uirq_i2c_check_functionality(struct uirq_i2c_adapter *adap, uint32_t func)
{
	return (uirq_i2c_get_functionality(adap) & func) == func;
}

void uirq_i2c_get_stats(struct uirq_i2c_adapter *adap, struct uirq_i2c_stats *stats)
{
	const uint64_t *src = (const uint64_t *)&adap->stats;
	uint64_t *dst = (uint64_t *)stats;

	for (size_t i = 0; i < sizeof(*stats) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void uirq_i2c_reset_stats(struct uirq_i2c_adapter *adap)
{
	uint64_t *c = (uint64_t *)&adap->stats;

	for (size_t i = 0; i < sizeof(adap->stats) / sizeof(uint64_t); i++)
		__atomic_store_n(&c[i], 0, __ATOMIC_RELAXED);
}

void uirq_i2c_set_trace(struct uirq_i2c_adapter *adap, uirq_i2c_trace_fn fn, void *arg)
{
	/* Under the bus lock so a transfer never sees fn with the old arg. */
	uirq_mutex_lock(&adap->bus_lock);
	adap->trace = fn;
	adap->trace_arg = arg;
	uirq_mutex_unlock(&adap->bus_lock);
}

void i2c_account_wire(struct uirq_i2c_adapter *adap, uint64_t wire_ns, uint64_t sleep_ns)
{
	adap->xfer_wire_ns += wire_ns;
	i2c_stat_add(&adap->stats.wire_ns, wire_ns);
	i2c_stat_add(&adap->stats.sleep_ns, sleep_ns);
}

/* ---- clients ---- */

static bool addr_valid(uint16_t addr, uint16_t flags)
{
	if (flags & UIRQ_I2C_CLIENT_TEN)
		return addr <= 0x3ff;
	/* 0x00 is the general call; the kernel accepts the rest of 7 bits. */
	return addr >= 0x01 && addr <= 0x7f;
}

int uirq_i2c_new_client_device_flags(struct uirq_i2c_adapter *adap, const char *name,
				     uint16_t addr, uint16_t flags, struct uirq_i2c_client **out)
{
	struct uirq_i2c_client *c, *it;
	int err = 0;

	*out = NULL;
	if (!adap || !name || !name[0] || strlen(name) >= UIRQ_I2C_NAME_SIZE ||
	    !addr_valid(addr, flags))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->flags = flags;
	c->addr = addr;
	c->adapter = adap;
	strcpy(c->name, name);

	uirq_mutex_lock(&i2c_core_lock);
	if (!__atomic_load_n(&adap->registered, __ATOMIC_ACQUIRE))
		err = -ENODEV;
	for (it = adap->clients; !err && it; it = it->next)
		if (it->addr == addr && (it->flags & UIRQ_I2C_CLIENT_TEN) == (flags & UIRQ_I2C_CLIENT_TEN))
			err = -EBUSY;
	if (!err) {
		c->next = adap->clients;
		adap->clients = c;
	}
	uirq_mutex_unlock(&i2c_core_lock);
	if (err) {
		free(c);
		return err;
	}
	*out = c;
	return 0;
}

int uirq_i2c_new_client_device(struct uirq_i2c_adapter *adap, const char *name, uint16_t addr,
			       struct uirq_i2c_client **out)
{
	return uirq_i2c_new_client_device_flags(adap, name, addr, 0, out);
}

void uirq_i2c_unregister_device(struct uirq_i2c_client *client)
{
	struct uirq_i2c_client **pp;

	if (!client)
		return;
	uirq_mutex_lock(&i2c_core_lock);
	for (pp = &client->adapter->clients; *pp; pp = &(*pp)->next)
		if (*pp == client) {
			*pp = client->next;
			break;
		}
	uirq_mutex_unlock(&i2c_core_lock);
	free(client);
}

/* ---- transfers ---- */

void uirq__i2c_lock_bus(struct uirq_i2c_adapter *adap, const char *file, int line)
{
	uirq__mutex_lock(&adap->bus_lock, 0, file, line);
}

void uirq__i2c_unlock_bus(struct uirq_i2c_adapter *adap, const char *file, int line)
{
	uirq__mutex_unlock(&adap->bus_lock, file, line);
}

static int check_msgs(const struct uirq_i2c_adapter *adap, const struct uirq_i2c_msg *msgs, int num)
{
	if (!adap || !msgs || num <= 0)
		return -EINVAL;
	for (int i = 0; i < num; i++)
		if (msgs[i].len && !msgs[i].buf)
			return -EINVAL;
	if (!adap->algo || !adap->algo->master_xfer)
		return -EOPNOTSUPP;
	return 0;
}

static void count_result(struct uirq_i2c_adapter *adap, const struct uirq_i2c_msg *msgs, int num, int ret)
{
	struct uirq_i2c_stats *s = &adap->stats;
	uint64_t bytes = 0;

	if (ret >= 0) {
		for (int i = 0; i < ret && i < num; i++)
			bytes += msgs[i].len;
		i2c_stat_add(&s->messages, (uint64_t)ret);
		i2c_stat_add(&s->bytes, bytes);
		return;
	}
	i2c_stat_add(&s->errors, 1);
	switch (ret) {
	case -ENXIO:
		i2c_stat_add(&s->err_nak, 1);
		break;
	case -EIO:
		i2c_stat_add(&s->err_io, 1);
		break;
	case -ETIMEDOUT:
		i2c_stat_add(&s->err_timeout, 1);
		break;
	case -EAGAIN:
		i2c_stat_add(&s->err_arbitration, 1);
		break;
	default:
		i2c_stat_add(&s->err_other, 1);
		break;
	}
}

int i2c_master_xfer_fn(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num, void *arg)
{
	(void)arg;
	return adap->algo->master_xfer(adap, msgs, num);
}

int i2c_do_transfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
		    i2c_xfer_fn fn, void *arg, bool may_fall_back)
{
	uint64_t start = i2c_now_ns(), deadline;
	int ret;

	if (!__atomic_load_n(&adap->registered, __ATOMIC_ACQUIRE))
		return -ENODEV;
	adap->xfer_wire_ns = 0;
	i2c_stat_add(&adap->stats.transfers, 1);
	deadline = start + (uint64_t)adap->timeout_ms * 1000000u;
	/* Lost arbitration is retried, within the adapter's timeout, as the kernel does. */
	for (int try = 0;; try++) {
		ret = fn(adap, msgs, num, arg);
		if (ret != -EAGAIN || try >= adap->retries || i2c_now_ns() > deadline)
			break;
		i2c_stat_add(&adap->stats.retries, 1);
	}
	if (ret == -EOPNOTSUPP && may_fall_back) {
		/* Not this adapter's transfer after all: the caller's other way counts it. */
		__atomic_fetch_sub(&adap->stats.transfers, 1, __ATOMIC_RELAXED);
		return ret;
	}
	count_result(adap, msgs, num, ret);
	if (adap->trace) {
		struct uirq_i2c_trace t = {
			.adap = adap, .msgs = msgs, .num = num, .ret = ret,
			.start_ns = start, .end_ns = i2c_now_ns(), .wire_ns = adap->xfer_wire_ns,
		};
		adap->trace(&t, adap->trace_arg);
	}
	return ret;
}

static int do_transfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num)
{
	return i2c_do_transfer(adap, msgs, num, i2c_master_xfer_fn, NULL, false);
}

int uirq__i2c_transfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
		       const char *file, int line)
{
	int ret;

	/* First, so a caller in atomic context is named even if it would not block. */
	uirq__might_sleep(file, line);
	ret = check_msgs(adap, msgs, num);
	if (ret)
		return ret;
	uirq__mutex_lock(&adap->bus_lock, 0, file, line);
	ret = do_transfer(adap, msgs, num);
	uirq__mutex_unlock(&adap->bus_lock, file, line);
	return ret;
}

int uirq__i2c_transfer_locked(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
			      const char *file, int line)
{
	int ret;

	uirq__might_sleep(file, line);
	ret = check_msgs(adap, msgs, num);
	if (ret)
		return ret;
	uirq_lockdep_assert_held(&adap->bus_lock);
	return do_transfer(adap, msgs, num);
}

static int master_xfer_one(const struct uirq_i2c_client *client, uint8_t *buf, int count,
			   uint16_t rd, const char *file, int line)
{
	struct uirq_i2c_msg msg;
	int ret;

	if (!client || count < 0 || count > 0xffff)
		return -EINVAL;
	msg.addr = client->addr;
	msg.flags = (uint16_t)(rd | ((client->flags & UIRQ_I2C_CLIENT_TEN) ? UIRQ_I2C_M_TEN : 0));
	msg.len = (uint16_t)count;
	msg.buf = buf;
	ret = uirq__i2c_transfer(client->adapter, &msg, 1, file, line);
	/* One message: the kernel returns the byte count on success. */
	return ret == 1 ? count : (ret < 0 ? ret : -EIO);
}

int uirq__i2c_master_send(const struct uirq_i2c_client *client, const uint8_t *buf, int count,
			  const char *file, int line)
{
	/* The message is only read for a write; the cast mirrors the kernel's. */
	return master_xfer_one(client, (uint8_t *)(uintptr_t)buf, count, 0, file, line);
}

int uirq__i2c_master_recv(const struct uirq_i2c_client *client, uint8_t *buf, int count,
			  const char *file, int line)
{
	return master_xfer_one(client, buf, count, UIRQ_I2C_M_RD, file, line);
}

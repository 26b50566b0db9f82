// SPDX-License-Identifier: MIT
/*
 * Register maps (drivers/base/regmap/regmap.c's behaviour): the wire
 * format, the driver's rules, the map's lock and the access calls.  A
 * read is served by the cache when it holds the register, else it goes to
 * the device and fills the cache; a write goes through the cache (only
 * there in cache-only mode) to the device; an update writes only when it
 * changes the value - what makes a masked interrupt controller on a slow
 * bus cheap.  Bulk reads of volatile or uncached registers are one
 * transfer; anything the cache may serve goes register by register.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/regmap.h>

#include "regmap-internal.h"

/* ---- byte order on the wire ---- */

static void put_bytes(u8 *buf, unsigned int n, enum regmap_endian e, unsigned int v)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int shift = e == REGMAP_ENDIAN_BIG ? 8 * (n - 1 - i) : 8 * i;

		buf[i] = (u8)(v >> shift);
	}
}

static unsigned int get_bytes(const u8 *buf, unsigned int n, enum regmap_endian e)
{
	unsigned int v = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int shift = e == REGMAP_ENDIAN_BIG ? 8 * (n - 1 - i) : 8 * i;

		v |= (unsigned int)buf[i] << shift;
	}
	return v;
}

unsigned int regmap_parse_val(const struct regmap *map, const void *buf)
{
	return get_bytes(buf, map->val_bytes, map->val_endian);
}

/* The register's bytes with the flag mask ORed in byte by byte, as the kernel does. */
static void format_reg(const struct regmap *map, u8 *buf, unsigned int reg, unsigned long flag_mask)
{
	reg += map->reg_base;
	reg >>= map->reg_downshift;
	put_bytes(buf, map->reg_bytes, map->reg_endian, reg);
	memset(buf + map->reg_bytes, 0, map->pad_bytes);
	for (unsigned int i = 0; i < map->reg_bytes; i++)
		buf[i] |= (u8)(flag_mask >> (8 * i));
}

/* A value laid out for the wire becomes the CPU's, in place (bulk reads hand back CPU values). */
static void parse_inplace(const struct regmap *map, void *p)
{
	unsigned int v = get_bytes(p, map->val_bytes, map->val_endian);

	switch (map->val_bytes) {
	case 1:
		*(u8 *)p = (u8)v;
		break;
	case 2:
		memcpy(p, &(u16){ (u16)v }, 2);
		break;
	default:
		memcpy(p, &(u32){ v }, 4);
		break;
	}
}

/* ---- the rules ---- */

bool regmap_reg_in_ranges(unsigned int reg, const struct regmap_range *ranges, unsigned int nranges)
{
	for (unsigned int i = 0; i < nranges; i++)
		if (reg >= ranges[i].range_min && reg <= ranges[i].range_max)
			return true;
	return false;
}

bool regmap_check_range_table(struct regmap *map, unsigned int reg, const struct regmap_access_table *table)
{
	(void)map;
	if (regmap_reg_in_ranges(reg, table->no_ranges, table->n_no_ranges))
		return false;
	/* A table of only no_ranges allows everything else. */
	if (!table->n_yes_ranges)
		return true;
	return regmap_reg_in_ranges(reg, table->yes_ranges, table->n_yes_ranges);
}

bool regmap_writeable(struct regmap *map, unsigned int reg)
{
	if (map->max_register && reg > map->max_register)
		return false;
	if (map->writeable_reg)
		return map->writeable_reg(map->dev, reg);
	if (map->wr_table)
		return regmap_check_range_table(map, reg, map->wr_table);
	return true;
}

bool regmap_readable(struct regmap *map, unsigned int reg)
{
	if (!map->reg_read)
		return false;
	if (map->max_register && reg > map->max_register)
		return false;
	if (map->readable_reg)
		return map->readable_reg(map->dev, reg);
	if (map->rd_table)
		return regmap_check_range_table(map, reg, map->rd_table);
	return true;
}

/* Without rules, a register is volatile exactly when there is no cache to hold it. */
bool regmap_volatile(struct regmap *map, unsigned int reg)
{
	if (!regmap_readable(map, reg))
		return false;
	if (map->volatile_reg)
		return map->volatile_reg(map->dev, reg);
	if (map->volatile_table)
		return regmap_check_range_table(map, reg, map->volatile_table);
	return map->cache_type == REGCACHE_NONE;
}

bool regmap_precious(struct regmap *map, unsigned int reg)
{
	if (!regmap_readable(map, reg))
		return false;
	if (map->precious_reg)
		return map->precious_reg(map->dev, reg);
	if (map->precious_table)
		return regmap_check_range_table(map, reg, map->precious_table);
	return false;
}

static bool regmap_writeable_noinc(struct regmap *map, unsigned int reg)
{
	if (map->writeable_noinc_reg)
		return map->writeable_noinc_reg(map->dev, reg);
	if (map->wr_noinc_table)
		return regmap_check_range_table(map, reg, map->wr_noinc_table);
	return true;
}

static bool regmap_volatile_range(struct regmap *map, unsigned int reg, size_t num)
{
	for (size_t i = 0; i < num; i++)
		if (!regmap_volatile(map, reg + regmap_get_offset(map, (unsigned int)i)))
			return false;
	return true;
}

int regmap_get_val_bytes(struct regmap *map)
{
	return (int)map->val_bytes;
}

int regmap_get_max_register(struct regmap *map)
{
	return map->max_register ? (int)map->max_register : -EINVAL;
}

int regmap_get_reg_stride(struct regmap *map)
{
	return (int)map->reg_stride;
}

struct device *regmap_get_device(struct regmap *map)
{
	return map->dev;
}

/* ---- locking ---- */

static void lock_mutex(void *arg)
{
	mutex_lock(&((struct regmap *)arg)->mutex);
}

static void unlock_mutex(void *arg)
{
	mutex_unlock(&((struct regmap *)arg)->mutex);
}

static void lock_spinlock(void *arg)
{
	struct regmap *map = arg;
	unsigned long flags;

	spin_lock_irqsave(&map->spinlock, flags);
	map->spinlock_flags = flags;
}

static void unlock_spinlock(void *arg)
{
	struct regmap *map = arg;

	spin_unlock_irqrestore(&map->spinlock, map->spinlock_flags);
}

static void lock_none(void *arg)
{
	(void)arg;
}

/* ---- raw transfers ---- */

static int raw_read(struct regmap *map, unsigned int reg, void *val, size_t val_len)
{
	u8 hdr[8];

	if (!map->read)
		return -EINVAL;
	format_reg(map, hdr, reg, map->read_flag_mask);
	return map->read(map->bus_context, hdr, map->reg_bytes + map->pad_bytes, val, val_len);
}

static int raw_write(struct regmap *map, unsigned int reg, const void *val, size_t val_len)
{
	size_t hdr = map->reg_bytes + map->pad_bytes;
	u8 *buf = malloc(hdr + val_len);
	int ret;

	if (!buf)
		return -ENOMEM;
	format_reg(map, buf, reg, map->write_flag_mask);
	memcpy(buf + hdr, val, val_len);
	ret = map->write(map->bus_context, buf, hdr + val_len);
	free(buf);
	return ret;
}

/* One register through a raw bus: reg_read/reg_write of a map whose bus moves bytes. */
static int bus_reg_read(void *context, unsigned int reg, unsigned int *val)
{
	struct regmap *map = context;
	u8 buf[4];
	int ret = raw_read(map, reg, buf, map->val_bytes);

	if (!ret)
		*val = get_bytes(buf, map->val_bytes, map->val_endian);
	return ret;
}

static int bus_reg_write(void *context, unsigned int reg, unsigned int val)
{
	struct regmap *map = context;
	u8 buf[4];

	put_bytes(buf, map->val_bytes, map->val_endian, val);
	return raw_write(map, reg, buf, map->val_bytes);
}

/* A bus of whole registers gets the register as the device numbers it. */
static int bus_reg_read_direct(void *context, unsigned int reg, unsigned int *val)
{
	struct regmap *map = context;

	return map->bus->reg_read(map->bus_context, (reg + map->reg_base) >> map->reg_downshift, val);
}

static int bus_reg_write_direct(void *context, unsigned int reg, unsigned int val)
{
	struct regmap *map = context;

	return map->bus->reg_write(map->bus_context, (reg + map->reg_base) >> map->reg_downshift, val);
}

/* ---- the access calls, map locked ---- */

int _regmap_read(struct regmap *map, unsigned int reg, unsigned int *val)
{
	int ret;

	if (!map->cache_bypass && !regcache_read(map, reg, val))
		return 0;
	if (map->cache_only)
		return -EBUSY;
	if (!regmap_readable(map, reg))
		return -EIO;
	ret = map->reg_read(map->reg_context, reg, val);
	if (!ret && !map->cache_bypass)
		regcache_write(map, reg, *val);
	return ret;
}

int _regmap_write(struct regmap *map, unsigned int reg, unsigned int val)
{
	int ret;

	if (!regmap_writeable(map, reg))
		return -EIO;
	if (!map->cache_bypass) {
		ret = regcache_write(map, reg, val);
		if (ret)
			return ret;
		if (map->cache_only) {
			map->cache_dirty = true;
			return 0;
		}
	}
	if (!map->reg_write)
		return -EIO;
	return map->reg_write(map->reg_context, reg, val);
}

static int _regmap_update_bits(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val,
			       bool *change, bool force)
{
	unsigned int orig, tmp;
	int ret;

	if (change)
		*change = false;
	/* A bus that can update in one go does, for a register no cache holds. */
	if (regmap_volatile(map, reg) && map->reg_update_bits) {
		ret = map->reg_update_bits(map->update_context, (reg + map->reg_base) >> map->reg_downshift, mask, val);
		if (!ret && change)
			*change = true;
		return ret;
	}
	ret = _regmap_read(map, reg, &orig);
	if (ret)
		return ret;
	tmp = (orig & ~mask) | (val & mask);
	if (force || tmp != orig) {
		ret = _regmap_write(map, reg, tmp);
		if (!ret && change)
			*change = true;
	}
	return ret;
}

/* Raw bytes in chunks the bus allows; the cache learns each value first, as the kernel's does. */
static int _regmap_raw_write(struct regmap *map, unsigned int reg, const void *val, size_t val_len)
{
	size_t count = val_len / map->val_bytes, chunk = count;
	const u8 *p = val;
	int ret = 0;

	if (!regmap_writeable_noinc(map, reg)) {
		for (size_t i = 0; i < count; i++) {
			unsigned int r = reg + regmap_get_offset(map, (unsigned int)i);

			if (!regmap_writeable(map, r) || regmap_writeable_noinc(map, r))
				return -EINVAL;
		}
	}
	if (!map->cache_bypass) {
		for (size_t i = 0; i < count; i++) {
			unsigned int r = reg + regmap_get_offset(map, (unsigned int)i);

			ret = regcache_write(map, r, get_bytes(p + i * map->val_bytes, map->val_bytes, map->val_endian));
			if (ret) {
				dev_err(map->dev, "Error in caching of register: %x ret: %d\n", r, ret);
				return ret;
			}
		}
		if (map->cache_only) {
			map->cache_dirty = true;
			return 0;
		}
	}
	if (map->use_single_write)
		chunk = 1;
	else if (map->max_raw_write && val_len > map->max_raw_write)
		chunk = map->max_raw_write / map->val_bytes;
	for (size_t done = 0; done < count && !ret; done += chunk) {
		size_t n = count - done < chunk ? count - done : chunk;

		ret = raw_write(map, reg + regmap_get_offset(map, (unsigned int)done), p + done * map->val_bytes,
				n * map->val_bytes);
	}
	return ret;
}

/* ---- the public calls ---- */

int regmap_read(struct regmap *map, unsigned int reg, unsigned int *val)
{
	int ret;

	if (!IS_ALIGNED(reg, map->reg_stride))
		return -EINVAL;
	map->lock(map->lock_arg);
	ret = _regmap_read(map, reg, val);
	map->unlock(map->lock_arg);
	return ret;
}

int regmap_write(struct regmap *map, unsigned int reg, unsigned int val)
{
	int ret;

	if (!IS_ALIGNED(reg, map->reg_stride))
		return -EINVAL;
	map->lock(map->lock_arg);
	ret = _regmap_write(map, reg, val);
	map->unlock(map->lock_arg);
	return ret;
}

int regmap_update_bits_base(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val,
			    bool *change, bool async, bool force)
{
	int ret;

	(void)async;
	map->lock(map->lock_arg);
	ret = _regmap_update_bits(map, reg, mask, val, change, force);
	map->unlock(map->lock_arg);
	return ret;
}

int regmap_test_bits(struct regmap *map, unsigned int reg, unsigned int bits)
{
	unsigned int val;
	int ret = regmap_read(map, reg, &val);

	return ret ? ret : (val & bits) == bits;
}

int regmap_raw_read(struct regmap *map, unsigned int reg, void *val, size_t val_len)
{
	size_t count = val_len / map->val_bytes;
	u8 *p = val;
	int ret = 0;

	if (val_len % map->val_bytes || !IS_ALIGNED(reg, map->reg_stride) || !count)
		return -EINVAL;
	map->lock(map->lock_arg);
	if (regmap_volatile_range(map, reg, count) || map->cache_bypass || map->cache_type == REGCACHE_NONE) {
		size_t chunk = count;

		if (!map->read) {
			ret = -ENOTSUPP;
			goto out;
		}
		if (map->use_single_read)
			chunk = 1;
		else if (map->max_raw_read && val_len > map->max_raw_read)
			chunk = map->max_raw_read / map->val_bytes;
		for (size_t done = 0; done < count && !ret; done += chunk) {
			size_t n = count - done < chunk ? count - done : chunk;

			ret = raw_read(map, reg + regmap_get_offset(map, (unsigned int)done),
				       p + done * map->val_bytes, n * map->val_bytes);
		}
	} else {
		/* The cache may serve some: register by register, each laid out for the wire. */
		for (size_t i = 0; i < count && !ret; i++) {
			unsigned int v;

			ret = _regmap_read(map, reg + regmap_get_offset(map, (unsigned int)i), &v);
			if (!ret)
				put_bytes(p + i * map->val_bytes, map->val_bytes, map->val_endian, v);
		}
	}
out:
	map->unlock(map->lock_arg);
	return ret;
}

int regmap_raw_write(struct regmap *map, unsigned int reg, const void *val, size_t val_len)
{
	int ret;

	if (!map->write)
		return -EINVAL;
	if (val_len % map->val_bytes || !IS_ALIGNED(reg, map->reg_stride) || !val_len)
		return -EINVAL;
	map->lock(map->lock_arg);
	ret = _regmap_raw_write(map, reg, val, val_len);
	map->unlock(map->lock_arg);
	return ret;
}

/* An element of a caller's array of val_bytes-wide values. */
static unsigned int array_get(const struct regmap *map, const void *val, size_t i)
{
	switch (map->val_bytes) {
	case 1:
		return ((const u8 *)val)[i];
	case 2:
		return ((const u16 *)val)[i];
	default:
		return ((const u32 *)val)[i];
	}
}

static void array_put(const struct regmap *map, void *val, size_t i, unsigned int v)
{
	switch (map->val_bytes) {
	case 1:
		((u8 *)val)[i] = (u8)v;
		break;
	case 2:
		((u16 *)val)[i] = (u16)v;
		break;
	default:
		((u32 *)val)[i] = v;
		break;
	}
}

int regmap_bulk_read(struct regmap *map, unsigned int reg, void *val, size_t val_count)
{
	int ret = 0;

	if (!IS_ALIGNED(reg, map->reg_stride) || !val_count)
		return -EINVAL;
	if (map->read && (regmap_volatile_range(map, reg, val_count) || map->cache_type == REGCACHE_NONE)) {
		ret = regmap_raw_read(map, reg, val, val_count * map->val_bytes);
		for (size_t i = 0; !ret && i < val_count; i++)
			parse_inplace(map, (u8 *)val + i * map->val_bytes);
		return ret;
	}
	map->lock(map->lock_arg);
	for (size_t i = 0; i < val_count && !ret; i++) {
		unsigned int v;

		ret = _regmap_read(map, reg + regmap_get_offset(map, (unsigned int)i), &v);
		if (!ret)
			array_put(map, val, i, v);
	}
	map->unlock(map->lock_arg);
	return ret;
}

int regmap_bulk_write(struct regmap *map, unsigned int reg, const void *val, size_t val_count)
{
	int ret = 0;

	if (!IS_ALIGNED(reg, map->reg_stride))
		return -EINVAL;
	if (!map->write) {
		/* A bus of whole registers: one write each, under one hold of the lock. */
		map->lock(map->lock_arg);
		for (size_t i = 0; i < val_count && !ret; i++)
			ret = _regmap_write(map, reg + regmap_get_offset(map, (unsigned int)i), array_get(map, val, i));
		map->unlock(map->lock_arg);
		return ret;
	}
	u8 *wire = malloc(val_count * map->val_bytes + 1);

	if (!wire)
		return -ENOMEM;
	for (size_t i = 0; i < val_count; i++)
		put_bytes(wire + i * map->val_bytes, map->val_bytes, map->val_endian, array_get(map, val, i));
	ret = regmap_raw_write(map, reg, wire, val_count * map->val_bytes);
	free(wire);
	return ret;
}

int regmap_multi_reg_write(struct regmap *map, const struct reg_sequence *regs, int num_regs)
{
	int ret = 0;

	for (int i = 0; i < num_regs; i++)
		if (!IS_ALIGNED(regs[i].reg, map->reg_stride))
			return -EINVAL;
	map->lock(map->lock_arg);
	for (int i = 0; i < num_regs && !ret; i++) {
		ret = _regmap_write(map, regs[i].reg, regs[i].def);
		/* Under a map's spinlock the delay must not sleep (might_sleep() would say so). */
		if (!ret && regs[i].delay_us && map->can_sleep)
			fsleep(regs[i].delay_us);
		else if (!ret && regs[i].delay_us)
			udelay(regs[i].delay_us);
	}
	map->unlock(map->lock_arg);
	return ret;
}

/* ---- creation and the device's record of its maps ---- */

/* What the device records of each of its maps: dev_get_regmap() finds them by it. */
static void dev_get_regmap_release(struct device *dev, void *res)
{
	(void)dev, (void)res;
}

static int dev_get_regmap_match(struct device *dev, void *res, void *data)
{
	struct regmap *map = *(struct regmap **)res;

	(void)dev;
	/* No name asked: any map. */
	return !data || (map->name && !strcmp(map->name, data));
}

static int regmap_is(struct device *dev, void *res, void *data)
{
	(void)dev;
	return *(struct regmap **)res == data;
}

struct regmap *dev_get_regmap(struct device *dev, const char *name)
{
	struct regmap **r = dev ? devres_find(dev, dev_get_regmap_release, dev_get_regmap_match, (void *)name) : NULL;

	return r ? *r : NULL;
}

static int widths_ok(const struct regmap_config *config)
{
	bool reg = config->reg_bits == 8 || config->reg_bits == 16 || config->reg_bits == 32;
	bool val = config->val_bits == 8 || config->val_bits == 16 || config->val_bits == 32;

	return reg && val && config->pad_bits % 8 == 0 && config->pad_bits >= 0 && config->pad_bits <= 32;
}

/* What this layer cannot honour, named, or NULL. */
static const char *unsupported(const struct regmap_config *config)
{
	if (config->num_ranges)
		return "register pages (ranges)";
	if (config->use_hwlock)
		return "hardware spinlocks";
	if (config->reg_stride < 0 || (config->reg_stride & (config->reg_stride - 1)))
		return "a reg_stride that is not a power of 2";
	if (config->reg_downshift < 0 || config->reg_downshift > 31)
		return "a reg_downshift outside 0..31";
	return NULL;
}

static enum regmap_endian endian(enum regmap_endian asked, enum regmap_endian bus_default)
{
	enum regmap_endian e = asked != REGMAP_ENDIAN_DEFAULT ? asked : bus_default;

	if (e == REGMAP_ENDIAN_DEFAULT)
		return REGMAP_ENDIAN_BIG;
	/* The host is little-endian (<linux/byteorder.h>). */
	return e == REGMAP_ENDIAN_NATIVE ? REGMAP_ENDIAN_LITTLE : e;
}

static void init_lock(struct regmap *map, const struct regmap_bus *bus, const struct regmap_config *config,
		      struct lock_class_key *lock_key, const char *lock_name)
{
	/* A map made without the macros (no key of its own) shares this one. */
	static struct lock_class_key keyless;

	if (!lock_key) {
		lock_key = &keyless;
		lock_name = "regmap->lock";
	}
	if (config->disable_locking) {
		map->lock = map->unlock = lock_none;
		map->can_sleep = config->can_sleep;
	} else if (config->lock && config->unlock) {
		map->lock = config->lock;
		map->unlock = config->unlock;
		map->lock_arg = config->lock_arg;
		map->can_sleep = config->can_sleep;
	} else if ((bus && bus->fast_io) || config->fast_io) {
		uirq__spin_lock_init(&map->spinlock, lock_name, lock_key);
		map->lock = lock_spinlock;
		map->unlock = unlock_spinlock;
		map->lock_arg = map;
	} else {
		uirq__mutex_init(&map->mutex, lock_name, lock_key);
		map->lock = lock_mutex;
		map->unlock = unlock_mutex;
		map->lock_arg = map;
		map->can_sleep = true;
	}
}

/* How registers reach the device: raw through the bus, whole through it, or the config's calls. */
static int init_io(struct regmap *map, const struct regmap_bus *bus, void *bus_context,
		   const struct regmap_config *config)
{
	map->bus = bus;
	map->bus_context = bus_context;
	if (!bus) {
		if (!config->reg_read && !config->reg_write) {
			dev_err(map->dev, "regmap: no bus and no reg_read/reg_write in the config\n");
			return -EINVAL;
		}
		map->reg_read = config->reg_read;
		map->reg_write = config->reg_write;
		map->reg_update_bits = config->reg_update_bits;
		map->update_context = bus_context;
		map->reg_context = bus_context;
		return 0;
	}
	if (config->read_flag_mask || config->write_flag_mask || config->zero_flag_mask) {
		map->read_flag_mask = config->read_flag_mask;
		map->write_flag_mask = config->write_flag_mask;
	} else {
		map->read_flag_mask = bus->read_flag_mask;
	}
	map->max_raw_read = bus->max_raw_read;
	map->max_raw_write = bus->max_raw_write;
	/* A bus's own read-modify-write works on the device's register numbers, in its context. */
	map->reg_update_bits = bus->reg_update_bits;
	map->update_context = bus_context;
	if (bus->read && bus->write) {
		map->read = bus->read;
		map->write = bus->write;
		map->reg_read = bus_reg_read;
		map->reg_write = bus_reg_write;
		map->reg_context = map;
		return 0;
	}
	if (!bus->reg_read && !bus->reg_write) {
		dev_err(map->dev, "regmap: the bus has neither raw nor register transfers\n");
		return -EINVAL;
	}
	map->reg_read = bus->reg_read ? bus_reg_read_direct : NULL;
	map->reg_write = bus->reg_write ? bus_reg_write_direct : NULL;
	map->reg_context = map;
	return 0;
}

struct regmap *__regmap_init(struct device *dev, const struct regmap_bus *bus, void *bus_context,
			     const struct regmap_config *config, struct lock_class_key *lock_key,
			     const char *lock_name)
{
	const char *why = config ? unsupported(config) : "no config";
	struct regmap *map;
	int ret;

	if (why) {
		dev_err(dev, "regmap: %s: not supported\n", why);
		return ERR_PTR(-EINVAL);
	}
	if (!widths_ok(config)) {
		dev_err(dev, "regmap: unsupported format: %d register bits, %d pad bits, %d value bits\n",
			config->reg_bits, config->pad_bits, config->val_bits);
		return ERR_PTR(-EINVAL);
	}
	map = calloc(1, sizeof(*map));
	if (!map)
		return ERR_PTR(-ENOMEM);
	map->dev = dev;
	if (config->name && !(map->name = strdup(config->name))) {
		free(map);
		return ERR_PTR(-ENOMEM);
	}
	map->reg_bytes = (unsigned int)config->reg_bits / 8;
	map->pad_bytes = (unsigned int)config->pad_bits / 8;
	map->val_bytes = (unsigned int)config->val_bits / 8;
	map->reg_endian = endian(config->reg_format_endian, bus ? bus->reg_format_endian_default : 0);
	map->val_endian = endian(config->val_format_endian, bus ? bus->val_format_endian_default : 0);
	map->reg_stride = config->reg_stride ? (unsigned int)config->reg_stride : 1;
	map->reg_downshift = config->reg_downshift;
	map->reg_base = config->reg_base;
	map->use_single_read = config->use_single_read;
	map->use_single_write = config->use_single_write;
	map->max_register = config->max_register;
	map->writeable_reg = config->writeable_reg;
	map->readable_reg = config->readable_reg;
	map->volatile_reg = config->volatile_reg;
	map->precious_reg = config->precious_reg;
	map->writeable_noinc_reg = config->writeable_noinc_reg;
	map->wr_table = config->wr_table;
	map->rd_table = config->rd_table;
	map->volatile_table = config->volatile_table;
	map->precious_table = config->precious_table;
	map->wr_noinc_table = config->wr_noinc_table;
	init_lock(map, bus, config, lock_key, lock_name);
	ret = init_io(map, bus, bus_context, config);
	if (!ret)
		ret = regcache_init(map, config);
	if (ret)
		goto fail;
	/* The device's record, which dev_get_regmap() finds (a child looks up its parent's map). */
	if (dev) {
		struct regmap **rec = devres_alloc(dev_get_regmap_release, sizeof(*rec), GFP_KERNEL);

		if (!rec) {
			ret = -ENOMEM;
			goto fail;
		}
		*rec = map;
		devres_add(dev, rec);
	}
	return map;
fail:
	regcache_exit(map);
	if (map->lock == lock_mutex)
		mutex_destroy(&map->mutex);
	free((char *)map->name);
	free(map);
	return ERR_PTR(ret);
}

void regmap_exit(struct regmap *map)
{
	if (IS_ERR_OR_NULL(map))
		return;
	/* Linux 6.1 leaves the device's record behind; a later kernel drops it, as here. */
	if (map->dev)
		devres_destroy(map->dev, dev_get_regmap_release, regmap_is, map);
	regcache_exit(map);
	if (map->bus && map->bus->free_context)
		map->bus->free_context(map->bus_context);
	if (map->lock == lock_mutex)
		mutex_destroy(&map->mutex);
	free((char *)map->name);
	free(map);
}

static void devm_regmap_release(struct device *dev, void *res)
{
	(void)dev;
	regmap_exit(*(struct regmap **)res);
}

struct regmap *__devm_regmap_init(struct device *dev, const struct regmap_bus *bus, void *bus_context,
				  const struct regmap_config *config, struct lock_class_key *lock_key,
				  const char *lock_name)
{
	struct regmap **ptr = devres_alloc(devm_regmap_release, sizeof(*ptr), GFP_KERNEL);
	struct regmap *map;

	if (!ptr)
		return ERR_PTR(-ENOMEM);
	map = __regmap_init(dev, bus, bus_context, config, lock_key, lock_name);
	if (IS_ERR(map)) {
		devres_free(ptr);
		return map;
	}
	*ptr = map;
	devres_add(dev, ptr);
	return map;
}

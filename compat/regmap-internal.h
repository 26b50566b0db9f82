/* SPDX-License-Identifier: MIT */
/*
 * Inside the compat layer: struct regmap, which regmap.c (formats, rules,
 * locking, the access calls), regcache.c (the cache) and regmap-irq.c
 * share.  Not installed.
 */
#ifndef UIRQ_COMPAT_REGMAP_INTERNAL_H
#define UIRQ_COMPAT_REGMAP_INTERNAL_H

#include <linux/mutex.h>
#include <linux/regmap.h>
#include <linux/spinlock.h>

struct regmap {
	struct device *dev;
	const char *name;		/* the config's, copied; NULL for none */

	/* Locking: map_lock(lock_arg) around every access. */
	struct mutex mutex;
	spinlock_t spinlock;
	unsigned long spinlock_flags;
	regmap_lock lock;
	regmap_unlock unlock;
	void *lock_arg;
	bool can_sleep;			/* the lock is a mutex (or the config says a custom one may sleep) */

	/* The wire format: [reg | flag bits][pad][val...], each in its byte order. */
	unsigned int reg_bytes, pad_bytes, val_bytes;
	enum regmap_endian reg_endian, val_endian;
	unsigned int reg_stride;
	int reg_downshift;
	unsigned int reg_base;
	unsigned long read_flag_mask, write_flag_mask;
	bool use_single_read, use_single_write;
	size_t max_raw_read, max_raw_write;

	/*
	 * How registers reach the device: raw reads and writes of formatted
	 * bytes through the bus (read/write set), or whole registers through
	 * reg_read/reg_write on reg_context (a bus or config without raw
	 * transfers).
	 */
	const struct regmap_bus *bus;
	void *bus_context;
	regmap_hw_read read;
	regmap_hw_write write;
	int (*reg_read)(void *context, unsigned int reg, unsigned int *val);
	int (*reg_write)(void *context, unsigned int reg, unsigned int val);
	int (*reg_update_bits)(void *context, unsigned int reg, unsigned int mask, unsigned int val);
	void *reg_context;
	void *update_context;

	/* The driver's rules. */
	unsigned int max_register;
	bool (*writeable_reg)(struct device *dev, unsigned int reg);
	bool (*readable_reg)(struct device *dev, unsigned int reg);
	bool (*volatile_reg)(struct device *dev, unsigned int reg);
	bool (*precious_reg)(struct device *dev, unsigned int reg);
	bool (*writeable_noinc_reg)(struct device *dev, unsigned int reg);
	const struct regmap_access_table *wr_table, *rd_table, *volatile_table, *precious_table,
		*wr_noinc_table;

	/* The cache (regcache.c): the registers held, sorted by register. */
	enum regcache_type cache_type;
	struct reg_default *cache;		/* .def is the value held */
	size_t cache_len, cache_cap;		/* entries held, entries allocated */
	struct reg_default *reg_defaults;	/* sorted by register */
	unsigned int num_reg_defaults;
	bool cache_only, cache_bypass, cache_dirty, no_sync_defaults;
};

static inline unsigned int regmap_get_offset(const struct regmap *map, unsigned int index)
{
	return index * map->reg_stride;
}

/* regmap.c: a value as the wire lays it out (the map's width and byte order). */
unsigned int regmap_parse_val(const struct regmap *map, const void *buf);
/* regmap.c: the calls with the map's lock held. */
int _regmap_read(struct regmap *map, unsigned int reg, unsigned int *val);
int _regmap_write(struct regmap *map, unsigned int reg, unsigned int val);

/* regcache.c: 0 or -errno; the cache lives from init to exit. */
int regcache_init(struct regmap *map, const struct regmap_config *config);
void regcache_exit(struct regmap *map);
/* The cached value of reg: 0, or -ENOENT (not held, volatile, or no cache). */
int regcache_read(struct regmap *map, unsigned int reg, unsigned int *val);
/* Hold val for reg (nothing for volatile registers or without a cache): 0 or -ENOMEM. */
int regcache_write(struct regmap *map, unsigned int reg, unsigned int val);

#endif

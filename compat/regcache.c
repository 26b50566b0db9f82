// SPDX-License-Identifier: MIT
/*
 * The register cache (drivers/base/regmap/regcache.c's behaviour): one
 * flat array of values, a register per stride step, and a bitmap of
 * which it holds.  Every cache type is this array; what differs is what
 * it holds, as the kernel's types differ: REGCACHE_FLAT holds every
 * register from the start (the defaults, else 0: a read never reaches
 * the device), REGCACHE_RBTREE and _COMPRESSED hold the defaults and
 * whatever was read or written since.  Without max_register the array
 * grows to the highest register used.  Volatile registers are never held.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/regmap.h>

#include "regmap-internal.h"

/* Room for entry idx: 0 or -ENOMEM (a fixed-size cache never needs it). */
static int cache_reserve(struct regmap *map, unsigned int idx)
{
	unsigned int size, *vals;
	unsigned long *valid;
	size_t old_words, words;

	if (idx < map->cache_size)
		return 0;
	if (!map->cache_grows)
		return -ENOMEM;
	size = idx + 1 > 2 * map->cache_size ? idx + 1 : 2 * map->cache_size;
	old_words = BITS_TO_LONGS(map->cache_size);
	words = BITS_TO_LONGS(size);
	vals = realloc(map->cache, size * sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	map->cache = vals;
	valid = realloc(map->cache_valid, words * sizeof(*valid));
	if (!valid)
		return -ENOMEM;
	memset(valid + old_words, 0, (words - old_words) * sizeof(*valid));
	map->cache_valid = valid;
	map->cache_size = size;
	return 0;
}

static int cache_set(struct regmap *map, unsigned int reg, unsigned int val)
{
	unsigned int idx = reg / map->reg_stride;
	int ret = cache_reserve(map, idx);

	if (ret)
		return ret;
	map->cache[idx] = val;
	__set_bit(idx, map->cache_valid);
	return 0;
}

static int cmp_default(const void *a, const void *b)
{
	const struct reg_default *x = a, *y = b;

	return (x->reg > y->reg) - (x->reg < y->reg);
}

/* The default of reg, or NULL. */
static const struct reg_default *find_default(const struct regmap *map, unsigned int reg)
{
	struct reg_default key = { .reg = reg };

	return bsearch(&key, map->reg_defaults, map->num_reg_defaults, sizeof(key), cmp_default);
}

/*
 * Defaults from raw device bytes (the config's, or read from the device
 * now, as the kernel does for a chip whose defaults are not listed): every
 * readable, non-volatile register of the first n.
 */
static int defaults_from_raw(struct regmap *map, const u8 *raw, unsigned int n)
{
	map->reg_defaults = calloc(n, sizeof(*map->reg_defaults));
	if (!map->reg_defaults)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int reg = regmap_get_offset(map, i), v;

		if (!regmap_readable(map, reg) || regmap_volatile(map, reg))
			continue;
		if (raw) {
			v = regmap_parse_val(map, raw + i * map->val_bytes);
		} else {
			int ret = map->reg_read(map->reg_context, reg, &v);

			if (ret) {
				dev_err(map->dev, "Failed to read register %#x for the cache defaults: %d\n", reg, ret);
				return ret;
			}
		}
		map->reg_defaults[map->num_reg_defaults++] = (struct reg_default){ reg, v };
	}
	return 0;
}

static int check_defaults(struct regmap *map, const struct regmap_config *config)
{
	if (config->reg_defaults && !config->num_reg_defaults) {
		dev_err(map->dev, "Register defaults are set without the number!\n");
		return -EINVAL;
	}
	if (config->num_reg_defaults && !config->reg_defaults) {
		dev_err(map->dev, "Register defaults number are set without the reg!\n");
		return -EINVAL;
	}
	for (unsigned int i = 0; i < config->num_reg_defaults; i++)
		if (config->reg_defaults[i].reg % map->reg_stride)
			return -EINVAL;
	return 0;
}

int regcache_init(struct regmap *map, const struct regmap_config *config)
{
	int ret;

	map->cache_type = config->cache_type;
	if (map->cache_type == REGCACHE_NONE) {
		if (config->reg_defaults || config->num_reg_defaults_raw)
			dev_warn(map->dev, "No cache used with register defaults set!\n");
		return 0;
	}
	if (map->cache_type > REGCACHE_FLAT) {
		dev_err(map->dev, "Could not match cache type: %d\n", map->cache_type);
		return -ENOENT;
	}
	ret = check_defaults(map, config);
	if (ret)
		return ret;
	if (!map->max_register && config->num_reg_defaults_raw)
		map->max_register = (config->num_reg_defaults_raw - 1) * map->reg_stride;
	if (map->cache_type == REGCACHE_FLAT && !map->max_register) {
		dev_err(map->dev, "a flat cache needs max_register\n");
		return -EINVAL;
	}
	if (config->num_reg_defaults) {
		map->reg_defaults = malloc(config->num_reg_defaults * sizeof(*map->reg_defaults));
		if (!map->reg_defaults)
			return -ENOMEM;
		memcpy(map->reg_defaults, config->reg_defaults, config->num_reg_defaults * sizeof(*map->reg_defaults));
		map->num_reg_defaults = config->num_reg_defaults;
		qsort(map->reg_defaults, map->num_reg_defaults, sizeof(*map->reg_defaults), cmp_default);
	} else if (config->num_reg_defaults_raw) {
		ret = defaults_from_raw(map, config->reg_defaults_raw, config->num_reg_defaults_raw);
		if (ret)
			return ret;
	}
	map->cache_grows = !map->max_register;
	map->cache_size = map->max_register ? map->max_register / map->reg_stride + 1 : 16;
	map->cache = calloc(map->cache_size, sizeof(*map->cache));
	map->cache_valid = calloc(BITS_TO_LONGS(map->cache_size), sizeof(*map->cache_valid));
	if (!map->cache || !map->cache_valid) {
		regcache_exit(map);
		return -ENOMEM;
	}
	/* A flat cache holds every register from the start: 0 where no default says otherwise. */
	if (map->cache_type == REGCACHE_FLAT)
		memset(map->cache_valid, 0xff, BITS_TO_LONGS(map->cache_size) * sizeof(*map->cache_valid));
	for (unsigned int i = 0; i < map->num_reg_defaults; i++) {
		ret = cache_set(map, map->reg_defaults[i].reg, map->reg_defaults[i].def);
		if (ret) {
			dev_err(map->dev, "default for register %#x beyond max_register\n", map->reg_defaults[i].reg);
			regcache_exit(map);
			return -EINVAL;
		}
	}
	return 0;
}

void regcache_exit(struct regmap *map)
{
	free(map->cache);
	free(map->cache_valid);
	free(map->reg_defaults);
	map->cache = NULL;
	map->cache_valid = NULL;
	map->reg_defaults = NULL;
	map->num_reg_defaults = 0;
	map->cache_size = 0;
}

int regcache_read(struct regmap *map, unsigned int reg, unsigned int *val)
{
	unsigned int idx = reg / map->reg_stride;

	if (map->cache_type == REGCACHE_NONE || regmap_volatile(map, reg))
		return -ENOENT;
	if (idx >= map->cache_size || !test_bit(idx, map->cache_valid))
		return -ENOENT;
	*val = map->cache[idx];
	return 0;
}

int regcache_write(struct regmap *map, unsigned int reg, unsigned int val)
{
	if (map->cache_type == REGCACHE_NONE || regmap_volatile(map, reg))
		return 0;
	return cache_set(map, reg, val);
}

void regcache_cache_only(struct regmap *map, bool enable)
{
	map->lock(map->lock_arg);
	if (map->cache_bypass && enable)
		dev_warn(map->dev, "regcache_cache_only() with the cache bypassed\n");
	map->cache_only = enable;
	map->unlock(map->lock_arg);
}

void regcache_cache_bypass(struct regmap *map, bool enable)
{
	map->lock(map->lock_arg);
	if (map->cache_only && enable)
		dev_warn(map->dev, "regcache_cache_bypass() in cache-only mode\n");
	map->cache_bypass = enable;
	map->unlock(map->lock_arg);
}

void regcache_mark_dirty(struct regmap *map)
{
	map->lock(map->lock_arg);
	map->cache_dirty = true;
	map->no_sync_defaults = true;
	map->unlock(map->lock_arg);
}

int regcache_drop_region(struct regmap *map, unsigned int min, unsigned int max)
{
	/* A flat cache always holds every register: there is nothing it can drop. */
	if (map->cache_type == REGCACHE_NONE || map->cache_type == REGCACHE_FLAT)
		return -EINVAL;
	map->lock(map->lock_arg);
	for (unsigned int idx = min / map->reg_stride; idx <= max / map->reg_stride && idx < map->cache_size; idx++)
		__clear_bit(idx, map->cache_valid);
	map->unlock(map->lock_arg);
	return 0;
}

/*
 * A held value the device must be given: any, unless the chip was just
 * reset (regcache_mark_dirty()), which put its registers back to their
 * defaults: then those that differ from them.
 */
static bool needs_sync(const struct regmap *map, unsigned int reg, unsigned int val)
{
	const struct reg_default *d;

	if (!map->no_sync_defaults)
		return true;
	d = find_default(map, reg);
	return !d || d->def != val;
}

int regcache_sync(struct regmap *map)
{
	bool bypass;
	int ret = 0;

	if (map->cache_type == REGCACHE_NONE)
		return -EINVAL;
	map->lock(map->lock_arg);
	bypass = map->cache_bypass;
	if (!map->cache_dirty)
		goto out;
	for (unsigned int idx = 0; idx < map->cache_size; idx++) {
		unsigned int reg = regmap_get_offset(map, idx), val = map->cache[idx];

		if (!test_bit(idx, map->cache_valid) || regmap_volatile(map, reg) || !regmap_writeable(map, reg))
			continue;
		if (!needs_sync(map, reg, val))
			continue;
		/* Straight to the device: the cache already holds it. */
		map->cache_bypass = true;
		ret = _regmap_write(map, reg, val);
		map->cache_bypass = false;
		if (ret) {
			dev_err(map->dev, "Unable to sync register %#x. %d\n", reg, ret);
			goto out;
		}
	}
	map->cache_dirty = false;
out:
	map->cache_bypass = bypass;
	map->no_sync_defaults = false;
	map->unlock(map->lock_arg);
	return ret;
}

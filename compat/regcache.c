// SPDX-License-Identifier: MIT
/*
 * The register cache (drivers/base/regmap/regcache.c's behaviour): the
 * registers held, as (register, value) pairs sorted by register - sparse,
 * as the kernel's rbtree is, so a register anywhere in a 32-bit space
 * costs one entry, with or without max_register.  Every cache type is
 * this list; what differs is what it holds, as the kernel's types differ:
 * REGCACHE_FLAT holds every register up to max_register from the start
 * (the defaults, else 0: a read never reaches the device; a space too big
 * to hold is -ENOMEM, as the kernel's allocation fails), REGCACHE_RBTREE
 * and _COMPRESSED hold the defaults and whatever was read or written
 * since.  Volatile registers are never held.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/regmap.h>

#include "regmap-internal.h"

/* The index of the first entry at or above reg (cache_len if none). */
static size_t lower_bound(const struct regmap *map, unsigned int reg)
{
	size_t lo = 0, hi = map->cache_len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map->cache[mid].reg < reg)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entry of reg, or NULL. */
static struct reg_default *cache_find(const struct regmap *map, unsigned int reg)
{
	size_t i = lower_bound(map, reg);

	return i < map->cache_len && map->cache[i].reg == reg ? &map->cache[i] : NULL;
}

/* Room for n entries: 0 or -ENOMEM, sizes computed so that none wraps. */
static int cache_reserve(struct regmap *map, size_t n)
{
	size_t cap = map->cache_cap ? map->cache_cap : 16;
	struct reg_default *c;

	if (n <= map->cache_cap)
		return 0;
	while (cap < n)
		cap = cap > SIZE_MAX / 2 ? n : cap * 2;
	if (cap > SIZE_MAX / sizeof(*c))
		return -ENOMEM;
	c = realloc(map->cache, cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	map->cache = c;
	map->cache_cap = cap;
	return 0;
}

static int cache_set(struct regmap *map, unsigned int reg, unsigned int val)
{
	size_t i = lower_bound(map, reg);
	int ret;

	if (i < map->cache_len && map->cache[i].reg == reg) {
		map->cache[i].def = val;
		return 0;
	}
	ret = cache_reserve(map, map->cache_len + 1);
	if (ret)
		return ret;
	memmove(&map->cache[i + 1], &map->cache[i], (map->cache_len - i) * sizeof(*map->cache));
	map->cache[i] = (struct reg_default){ reg, val };
	map->cache_len++;
	return 0;
}

/* A flat cache's every register, 0 .. max_register by the stride: 0 or -ENOMEM. */
static int cache_fill(struct regmap *map)
{
	size_t n = (size_t)map->max_register / map->reg_stride + 1;
	int ret = cache_reserve(map, n);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		map->cache[i] = (struct reg_default){ (unsigned int)(i * map->reg_stride), 0 };
	map->cache_len = n;
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

	if (!map->num_reg_defaults)
		return NULL;	/* bsearch() must not be handed a NULL array, even empty */
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
	/* A flat cache holds every register from the start: 0 where no default says otherwise. */
	ret = map->cache_type == REGCACHE_FLAT ? cache_fill(map) : 0;
	if (ret) {
		dev_err(map->dev, "a flat cache of registers up to %#x cannot be held\n", map->max_register);
		regcache_exit(map);
		return ret;
	}
	for (unsigned int i = 0; i < map->num_reg_defaults; i++) {
		unsigned int reg = map->reg_defaults[i].reg;

		if (map->max_register && reg > map->max_register) {
			dev_err(map->dev, "default for register %#x beyond max_register\n", reg);
			regcache_exit(map);
			return -EINVAL;
		}
		ret = cache_set(map, reg, map->reg_defaults[i].def);
		if (ret) {
			regcache_exit(map);
			return ret;
		}
	}
	return 0;
}

void regcache_exit(struct regmap *map)
{
	free(map->cache);
	free(map->reg_defaults);
	map->cache = NULL;
	map->cache_len = map->cache_cap = 0;
	map->reg_defaults = NULL;
	map->num_reg_defaults = 0;
}

int regcache_read(struct regmap *map, unsigned int reg, unsigned int *val)
{
	const struct reg_default *e;

	if (map->cache_type == REGCACHE_NONE || regmap_volatile(map, reg))
		return -ENOENT;
	e = cache_find(map, reg);
	if (!e)
		return -ENOENT;
	*val = e->def;
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
	size_t from = lower_bound(map, min), to = from;

	while (to < map->cache_len && map->cache[to].reg <= max)
		to++;
	if (to > from) {
		memmove(&map->cache[from], &map->cache[to], (map->cache_len - to) * sizeof(*map->cache));
		map->cache_len -= to - from;
	}
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
	for (size_t i = 0; i < map->cache_len; i++) {
		unsigned int reg = map->cache[i].reg, val = map->cache[i].def;

		if (regmap_volatile(map, reg) || !regmap_writeable(map, reg))
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

/* SPDX-License-Identifier: MIT */
/*
 * Register maps (compat/regmap.c, regcache.c, regmap-i2c.c, regmap-irq.c):
 * a device's registers behind one API whatever the bus - formatted for
 * the wire (register and value widths, padding, byte order, read/write
 * flag bits), locked per map, checked against the driver's readable,
 * writeable and volatile rules, optionally cached, and found again from a
 * child device with dev_get_regmap().  regmap-irq builds an interrupt
 * controller on a map: a linear irq domain of nested threaded lines
 * behind a bus-locked chip, demultiplexed by one threaded handler on the
 * device's line.  The names, signatures, error codes and the order of bus
 * traffic are the kernel's (drivers/base/regmap/, as of Linux 6.1).
 *
 * What is not here: register pages (ranges), async writes, noinc
 * transfers, regmap fields, patches, hwspinlocks, MMIO/SPI buses; for
 * regmap-irq, main status registers, type and virtual registers and wake
 * settings (a process does not suspend).  A map or chip asking for them
 * is refused at creation with an error naming what it asked for.
 */
#ifndef UIRQ_COMPAT_LINUX_REGMAP_H
#define UIRQ_COMPAT_LINUX_REGMAP_H

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/irqdomain.h>	/* struct irq_domain is uirq's: one name in every file */
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/types.h>
#include "uirq/sim.h"

struct i2c_client;
struct regmap;
struct regmap_irq_chip_data;

enum regcache_type {
	REGCACHE_NONE,
	REGCACHE_RBTREE,
	REGCACHE_COMPRESSED,
	REGCACHE_FLAT,
};

/* A register's value after reset, which a cache starts from. */
struct reg_default {
	unsigned int reg;
	unsigned int def;
};

/* One write of a sequence, with the delay after it. */
struct reg_sequence {
	unsigned int reg;
	unsigned int def;
	unsigned int delay_us;
};

enum regmap_endian {
	REGMAP_ENDIAN_DEFAULT = 0,	/* the bus's default, else big */
	REGMAP_ENDIAN_BIG,
	REGMAP_ENDIAN_LITTLE,
	REGMAP_ENDIAN_NATIVE,
};

/* Registers range_min..range_max, both included. */
struct regmap_range {
	unsigned int range_min;
	unsigned int range_max;
};
#define regmap_reg_range(low, high)	{ .range_min = (low), .range_max = (high), }

/* A register is in the table if no no_range holds it and a yes_range does. */
struct regmap_access_table {
	const struct regmap_range *yes_ranges;
	unsigned int n_yes_ranges;
	const struct regmap_range *no_ranges;
	unsigned int n_no_ranges;
};

typedef void (*regmap_lock)(void *);
typedef void (*regmap_unlock)(void *);

/* Register pages behind a selector register: the kernel's shape, refused here. */
struct regmap_range_cfg {
	const char *name;
	unsigned int range_min;
	unsigned int range_max;
	unsigned int selector_reg;
	unsigned int selector_mask;
	int selector_shift;
	unsigned int window_start;
	unsigned int window_len;
};

struct regmap_config {
	const char *name;

	int reg_bits;			/* 8, 16 or 32 */
	int reg_stride;			/* 0: 1 */
	int reg_downshift;
	unsigned int reg_base;
	int pad_bits;			/* a multiple of 8 */
	int val_bits;			/* 8, 16 or 32 */

	bool (*writeable_reg)(struct device *dev, unsigned int reg);
	bool (*readable_reg)(struct device *dev, unsigned int reg);
	bool (*volatile_reg)(struct device *dev, unsigned int reg);
	bool (*precious_reg)(struct device *dev, unsigned int reg);
	bool (*writeable_noinc_reg)(struct device *dev, unsigned int reg);
	bool (*readable_noinc_reg)(struct device *dev, unsigned int reg);

	bool disable_locking;
	regmap_lock lock;
	regmap_unlock unlock;
	void *lock_arg;

	/* A map without a bus: its registers are these calls' (regmap_init(dev, NULL, context, config)). */
	int (*reg_read)(void *context, unsigned int reg, unsigned int *val);
	int (*reg_write)(void *context, unsigned int reg, unsigned int val);
	int (*reg_update_bits)(void *context, unsigned int reg, unsigned int mask, unsigned int val);
	int (*read)(void *context, const void *reg_buf, size_t reg_size, void *val_buf, size_t val_size);
	int (*write)(void *context, const void *data, size_t count);
	size_t max_raw_read;
	size_t max_raw_write;

	bool fast_io;			/* a spinlock, not a mutex */
	bool io_port;

	unsigned int max_register;	/* 0: no limit */
	const struct regmap_access_table *wr_table;
	const struct regmap_access_table *rd_table;
	const struct regmap_access_table *volatile_table;
	const struct regmap_access_table *precious_table;
	const struct regmap_access_table *wr_noinc_table;
	const struct regmap_access_table *rd_noinc_table;
	const struct reg_default *reg_defaults;
	unsigned int num_reg_defaults;
	enum regcache_type cache_type;
	const void *reg_defaults_raw;
	unsigned int num_reg_defaults_raw;

	unsigned long read_flag_mask;
	unsigned long write_flag_mask;
	bool zero_flag_mask;

	bool use_single_read;
	bool use_single_write;
	bool use_relaxed_mmio;
	bool can_multi_write;

	enum regmap_endian reg_format_endian;
	enum regmap_endian val_format_endian;

	const struct regmap_range_cfg *ranges;
	unsigned int num_ranges;

	bool use_hwlock;
	bool use_raw_spinlock;
	unsigned int hwlock_id;
	unsigned int hwlock_mode;

	bool can_sleep;
};

/* A bus a map talks through: raw reads and writes of formatted bytes, or whole registers. */
typedef int (*regmap_hw_write)(void *context, const void *data, size_t count);
typedef int (*regmap_hw_gather_write)(void *context, const void *reg, size_t reg_len, const void *val,
				      size_t val_len);
typedef int (*regmap_hw_read)(void *context, const void *reg_buf, size_t reg_size, void *val_buf,
			      size_t val_size);
typedef int (*regmap_hw_reg_read)(void *context, unsigned int reg, unsigned int *val);
typedef int (*regmap_hw_reg_write)(void *context, unsigned int reg, unsigned int val);
typedef int (*regmap_hw_reg_update_bits)(void *context, unsigned int reg, unsigned int mask, unsigned int val);
typedef void (*regmap_hw_free_context)(void *context);

struct regmap_bus {
	bool fast_io;
	regmap_hw_write write;
	regmap_hw_gather_write gather_write;
	regmap_hw_reg_write reg_write;
	regmap_hw_reg_update_bits reg_update_bits;
	regmap_hw_read read;
	regmap_hw_reg_read reg_read;
	regmap_hw_free_context free_context;
	u8 read_flag_mask;
	enum regmap_endian reg_format_endian_default;
	enum regmap_endian val_format_endian_default;
	size_t max_raw_read;
	size_t max_raw_write;
	bool free_on_exit;
};

/*
 * Creation.  Each macro gives its call site a lock class of its own for
 * the map's lock, as the kernel's do, so that lockdep tells two drivers'
 * maps apart.  The map or an ERR_PTR: -EINVAL for a configuration this
 * layer cannot honour (with a message saying which), -ENOTSUPP for an i2c
 * adapter that can carry none of the map's transfers, -ENOMEM.
 */
struct regmap *__regmap_init(struct device *dev, const struct regmap_bus *bus, void *bus_context,
			     const struct regmap_config *config, struct lock_class_key *lock_key,
			     const char *lock_name);
struct regmap *__devm_regmap_init(struct device *dev, const struct regmap_bus *bus, void *bus_context,
				  const struct regmap_config *config, struct lock_class_key *lock_key,
				  const char *lock_name);
struct regmap *__regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config,
				 struct lock_class_key *lock_key, const char *lock_name);
struct regmap *__devm_regmap_init_i2c(struct i2c_client *i2c, const struct regmap_config *config,
				      struct lock_class_key *lock_key, const char *lock_name);

#define __regmap_lockdep_wrapper(fn, name, ...)					\
	({									\
		static struct lock_class_key _key;				\
		fn(__VA_ARGS__, &_key, "(" name ")->lock");			\
	})
#define regmap_init(dev, bus, bus_context, config) \
	__regmap_lockdep_wrapper(__regmap_init, #config, dev, bus, bus_context, config)
#define devm_regmap_init(dev, bus, bus_context, config) \
	__regmap_lockdep_wrapper(__devm_regmap_init, #config, dev, bus, bus_context, config)
#define regmap_init_i2c(i2c, config) \
	__regmap_lockdep_wrapper(__regmap_init_i2c, #config, i2c, config)
#define devm_regmap_init_i2c(i2c, config) \
	__regmap_lockdep_wrapper(__devm_regmap_init_i2c, #config, i2c, config)

/* Free a map made by regmap_init*() (a devm_ one goes when its device unbinds). */
void regmap_exit(struct regmap *map);
/* The map dev registered (any, with name NULL; else the one of that config name), or NULL. */
struct regmap *dev_get_regmap(struct device *dev, const char *name);
struct device *regmap_get_device(struct regmap *map);

/* ---- access: 0 or -errno ---- */

/*
 * -EINVAL for a register off the map's stride (or a length that is not
 * whole values), -EIO for one its rules say cannot be read or written,
 * -EBUSY reading an uncached register in cache-only mode, else the bus's
 * error.  A bulk access runs as one transfer where the bus and the cache
 * allow it, else register by register under one hold of the map's lock.
 */
int regmap_read(struct regmap *map, unsigned int reg, unsigned int *val);
int regmap_write(struct regmap *map, unsigned int reg, unsigned int val);
int regmap_bulk_read(struct regmap *map, unsigned int reg, void *val, size_t val_count);
int regmap_bulk_write(struct regmap *map, unsigned int reg, const void *val, size_t val_count);
/* Bytes as the wire carries them (the map's byte order), one transfer where the bus allows. */
int regmap_raw_read(struct regmap *map, unsigned int reg, void *val, size_t val_len);
int regmap_raw_write(struct regmap *map, unsigned int reg, const void *val, size_t val_len);
int regmap_multi_reg_write(struct regmap *map, const struct reg_sequence *regs, int num_regs);
/*
 * Read, change the mask's bits to val's, and write back only if that
 * changed the value (or force): *change says whether it wrote.  async is
 * accepted and the write is synchronous.
 */
int regmap_update_bits_base(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val,
			    bool *change, bool async, bool force);

static inline int regmap_update_bits(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val)
{
	return regmap_update_bits_base(map, reg, mask, val, NULL, false, false);
}

static inline int regmap_update_bits_check(struct regmap *map, unsigned int reg, unsigned int mask,
					   unsigned int val, bool *change)
{
	return regmap_update_bits_base(map, reg, mask, val, change, false, false);
}

static inline int regmap_write_bits(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val)
{
	return regmap_update_bits_base(map, reg, mask, val, NULL, false, true);
}

static inline int regmap_set_bits(struct regmap *map, unsigned int reg, unsigned int bits)
{
	return regmap_update_bits_base(map, reg, bits, bits, NULL, false, false);
}

static inline int regmap_clear_bits(struct regmap *map, unsigned int reg, unsigned int bits)
{
	return regmap_update_bits_base(map, reg, bits, 0, NULL, false, false);
}

/* 1 if every bit of bits is set, 0 if not, or -errno. */
int regmap_test_bits(struct regmap *map, unsigned int reg, unsigned int bits);

/* The rules, as the map applies them (the driver's callbacks, else its tables, else the defaults). */
bool regmap_readable(struct regmap *map, unsigned int reg);
bool regmap_writeable(struct regmap *map, unsigned int reg);
bool regmap_volatile(struct regmap *map, unsigned int reg);
bool regmap_precious(struct regmap *map, unsigned int reg);
bool regmap_check_range_table(struct regmap *map, unsigned int reg, const struct regmap_access_table *table);
bool regmap_reg_in_ranges(unsigned int reg, const struct regmap_range *ranges, unsigned int nranges);
int regmap_get_val_bytes(struct regmap *map);
int regmap_get_max_register(struct regmap *map);
int regmap_get_reg_stride(struct regmap *map);

/*
 * Read reg until cond holds (0), a read fails (its error) or timeout_us
 * passes (-ETIMEDOUT, val the last value read), sleeping sleep_us between
 * reads on uirq's clock (virtual in the deterministic mode).
 */
#define regmap_read_poll_timeout(map, addr, val, cond, sleep_us, timeout_us)		\
	({										\
		uint64_t rp_end_ = uirq_sim_clock_ns() + (uint64_t)(timeout_us) * 1000u;	\
		int rp_ret_;								\
											\
		for (;;) {								\
			rp_ret_ = regmap_read((map), (addr), &(val));			\
			if (rp_ret_ || (cond))						\
				break;							\
			if ((timeout_us) && uirq_sim_clock_ns() > rp_end_) {		\
				rp_ret_ = regmap_read((map), (addr), &(val));		\
				if (!rp_ret_ && !(cond))				\
					rp_ret_ = -ETIMEDOUT;				\
				break;							\
			}								\
			if (sleep_us)							\
				usleep_range((sleep_us) / 4 + 1, (sleep_us));		\
		}									\
		rp_ret_;								\
	})

/* ---- the register cache ---- */

/* Writes go to the cache only (and mark it dirty), reads are served from it: the device is off. */
void regcache_cache_only(struct regmap *map, bool enable);
/* Reads and writes go to the device, not the cache. */
void regcache_cache_bypass(struct regmap *map, bool enable);
/*
 * If writes went to the cache only since the last sync, write every held,
 * writeable, non-volatile value to the device - after regcache_mark_dirty()
 * only those that differ from their defaults.
 */
int regcache_sync(struct regmap *map);
/* The device was reset (its registers are at their defaults): the next sync restores the rest. */
void regcache_mark_dirty(struct regmap *map);
/* Forget cached values min..max: the next reads go to the device. */
int regcache_drop_region(struct regmap *map, unsigned int min, unsigned int max);

/* ---- regmap-irq: an interrupt controller on a map ---- */

/* How an interrupt's trigger is set (type_in_mask: in the mask register, by these values). */
struct regmap_irq_type {
	unsigned int type_reg_offset;
	unsigned int type_reg_mask;
	unsigned int type_rising_val;
	unsigned int type_falling_val;
	unsigned int type_level_low_val;
	unsigned int type_level_high_val;
	unsigned int types_supported;
};

/* One interrupt: its bits in the register reg_offset (in the map's stride) after each base. */
struct regmap_irq {
	unsigned int reg_offset;
	unsigned int mask;
	struct regmap_irq_type type;
};

#define REGMAP_IRQ_REG(_irq, _off, _mask)		\
	[_irq] = { .reg_offset = (_off), .mask = (_mask) }

#define REGMAP_IRQ_REG_LINE(_id, _reg_bits)		\
	[_id] = {					\
		.mask = BIT((_id) % (_reg_bits)),	\
		.reg_offset = (_id) / (_reg_bits),	\
	}

struct regmap_irq_sub_irq_map {
	unsigned int num_regs;
	unsigned int *offset;
};

/*
 * The controller: num_regs status registers from status_base (read, and
 * acknowledged at ack_base when there is one: else they clear on read),
 * mask registers from mask_base (1 = masked) and/or unmask_base
 * (1 = unmasked), the flags below, and irqs[num_irqs], each a line of
 * the domain (its hwirq is its index).
 */
struct regmap_irq_chip {
	const char *name;

	unsigned int main_status;
	unsigned int num_main_status_bits;
	struct regmap_irq_sub_irq_map *sub_reg_offsets;
	int num_main_regs;

	unsigned int status_base;
	unsigned int mask_base;
	unsigned int unmask_base;
	unsigned int ack_base;
	unsigned int wake_base;
	unsigned int type_base;
	unsigned int *virt_reg_base;
	const unsigned int *config_base;
	unsigned int irq_reg_stride;
	unsigned int init_ack_masked:1;		/* at creation and each mask sync, ack what is masked */
	unsigned int mask_invert:1;		/* deprecated: mask_base is an unmask register */
	unsigned int mask_unmask_non_inverted:1;
	unsigned int use_ack:1;			/* ack at ack_base even when it is 0 */
	unsigned int ack_invert:1;		/* ack by writing 0s */
	unsigned int clear_ack:1;		/* write the ack bits back after an ack */
	unsigned int wake_invert:1;
	unsigned int runtime_pm:1;		/* no runtime PM here: ignored */
	unsigned int type_invert:1;
	unsigned int type_in_mask:1;		/* a line's trigger selects which of its mask bits unmask */
	unsigned int clear_on_unmask:1;		/* read (clear) the status before an unmask reaches the chip */
	unsigned int not_fixed_stride:1;
	unsigned int status_invert:1;		/* status bits read 0 when pending */

	int num_regs;

	const struct regmap_irq *irqs;
	int num_irqs;

	int num_type_reg;
	int num_virt_regs;
	int num_config_bases;
	int num_config_regs;

	int (*handle_pre_irq)(void *irq_drv_data);
	int (*handle_post_irq)(void *irq_drv_data);
	int (*set_type_virt)(unsigned int **buf, unsigned int type, unsigned long hwirq, int reg);
	int (*set_type_config)(unsigned int **buf, unsigned int type, const struct regmap_irq *irq_data,
			       int idx);
	unsigned int (*get_irq_reg)(struct regmap_irq_chip_data *data, unsigned int base, int index);
	void *irq_drv_data;
};

/*
 * Mask every interrupt of chip, make its domain, and request irq (threaded,
 * irq_flags | IRQF_ONESHOT) with the handler that reads the status, acks,
 * and runs each pending unmasked line's handler nested in its thread.
 * irq_base > 0 asks for the lines at fixed numbers from irq_base.  0 and
 * *data, or -errno (-EINVAL for a chip description this layer cannot
 * honour, with a message saying which).
 */
int regmap_add_irq_chip(struct regmap *map, int irq, int irq_flags, int irq_base,
			const struct regmap_irq_chip *chip, struct regmap_irq_chip_data **data);
int devm_regmap_add_irq_chip(struct device *dev, struct regmap *map, int irq, int irq_flags, int irq_base,
			     const struct regmap_irq_chip *chip, struct regmap_irq_chip_data **data);
/* Free the device's line, dispose of every mapped line and the domain. */
void regmap_del_irq_chip(int irq, struct regmap_irq_chip_data *data);
void devm_regmap_del_irq_chip(struct device *dev, int irq, struct regmap_irq_chip_data *data);
/* The line of the chip's interrupt irq (mapped now if it was not), or -EINVAL for a hole. */
int regmap_irq_get_virq(struct regmap_irq_chip_data *data, int irq);
/* The chip's domain (NULL for NULL). */
struct irq_domain *regmap_irq_get_domain(struct regmap_irq_chip_data *data);
int regmap_irq_chip_get_base(struct regmap_irq_chip_data *data);
unsigned int regmap_irq_get_irq_reg_linear(struct regmap_irq_chip_data *data, unsigned int base, int index);

#endif

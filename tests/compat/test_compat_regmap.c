// SPDX-License-Identifier: MIT
/*
 * Register maps (compat/regmap.c, regcache.c, regmap-i2c.c) as the
 * kernel's behave, asserted on the wire: formats and flag bits, the
 * driver's rules and their error codes, read-modify-write that writes only
 * a change, bulk transfers, each cache type, cache-only mode and sync,
 * dev_get_regmap() from a child, the bus chosen from what the adapter can
 * do, and a clear error for a configuration this layer cannot honour.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>

#include "harness.h"
#include "regfile.h"
#include "uirq/lockdep.h"
#include "uirq/printk.h"

static char logbuf[4096];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
}

static struct i2c_client *client;

static void setup(void)
{
	logbuf[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	client = rf_setup();
}

static void teardown(void)
{
	rf_teardown(client);
	uirq_log_set_sink(NULL, NULL);
}

static const struct regmap_config cfg8 = { .name = "rf", .reg_bits = 8, .val_bits = 8 };

/* ---- the wire ---- */

UIRQ_TEST(compat_regmap, read_write_update_on_the_wire, .init = setup, .fini = teardown)
{
	struct regmap *map = regmap_init_i2c(client, &cfg8);
	unsigned int v;
	bool change;

	assert_false(IS_ERR(map), "%ld", PTR_ERR(map));
	rf.regs[0x10] = 0x5a;
	assert_eq(regmap_read(map, 0x10, &v), 0);
	assert_eq(v, 0x5au);
	assert_eq(regmap_write(map, 0x11, 0xa5), 0);
	assert_str_eq(wire(), "R10=5a W11=a5 ", "a read is the register's write then a repeated-start read");
	/* Read-modify-write writes only a change, and says whether it did. */
	assert_eq(regmap_update_bits_check(map, 0x10, 0x0f, 0x0a, &change), 0);
	assert_false(change);
	assert_eq(regmap_update_bits_check(map, 0x10, 0x0f, 0x03, &change), 0);
	assert_true(change);
	assert_str_eq(wire(), "R10=5a R10=5a W10=53 ");
	assert_eq(regmap_write_bits(map, 0x10, 0x0f, 0x03), 0);
	assert_str_eq(wire(), "R10=53 W10=53 ", "write_bits writes even without a change");
	assert_eq(regmap_set_bits(map, 0x10, 0x80), 0);
	assert_eq(regmap_clear_bits(map, 0x10, 0x40), 0);
	assert_eq(rf.regs[0x10], 0x93);
	assert_eq(regmap_test_bits(map, 0x10, 0x83), 1);
	assert_eq(regmap_test_bits(map, 0x10, 0x84), 0);
	regmap_exit(map);
}

UIRQ_TEST(compat_regmap, bulk_transfers_are_one_transfer, .init = setup, .fini = teardown)
{
	struct regmap *map = regmap_init_i2c(client, &cfg8);
	u8 in[3], out[3] = { 1, 2, 3 };

	rf.regs[0x20] = 0xaa, rf.regs[0x21] = 0xbb, rf.regs[0x22] = 0xcc;
	assert_eq(regmap_bulk_read(map, 0x20, in, 3), 0);
	assert_eq(in[0], 0xaa);
	assert_eq(in[2], 0xcc);
	assert_eq(regmap_bulk_write(map, 0x30, out, 3), 0);
	assert_str_eq(wire(), "R20=aa,bb,cc W30=01,02,03 ");
	assert_eq(rf.regs[0x32], 3);
	assert_eq(regmap_bulk_read(map, 0x20, in, 0), -EINVAL, "no values: -EINVAL");
	assert_eq(regmap_raw_read(map, 0x20, in, 3), 0);
	assert_eq(in[1], 0xbb);
	regmap_exit(map);
}

UIRQ_TEST(compat_regmap, formats_byte_order_and_flag_bits, .init = setup, .fini = teardown)
{
	const struct regmap_config be16 = { .reg_bits = 8, .val_bits = 16, .read_flag_mask = 0x80 };
	const struct regmap_config le16 = { .reg_bits = 16, .val_bits = 16,
					    .val_format_endian = REGMAP_ENDIAN_LITTLE, .write_flag_mask = 0x01 };
	struct regmap *map = regmap_init_i2c(client, &be16);
	unsigned int v;
	u16 vals[2];
	u8 raw[2];

	/* 16-bit values, big-endian by default; the read flag in the register byte. */
	rf.regs[0x90] = 0x12, rf.regs[0x91] = 0x34, rf.regs[0x92] = 0x56, rf.regs[0x93] = 0x78;
	assert_eq(regmap_read(map, 0x10, &v), 0);
	assert_eq(v, 0x1234u);
	assert_eq(regmap_write(map, 0x10, 0xbeef), 0);
	assert_str_eq(wire(), "R90=12,34 W10=be,ef ", "the read flag on reads only");
	assert_eq(regmap_bulk_read(map, 0x10, vals, 2), 0);
	assert_eq(vals[0], 0x1234, "a bulk read hands back CPU values");
	assert_eq(vals[1], 0x5678);
	assert_eq(regmap_raw_read(map, 0x10, raw, 2), 0);
	assert_eq(raw[0], 0x12, "a raw read hands back the wire's bytes");
	assert_eq(regmap_raw_read(map, 0x10, raw, 1), -EINVAL, "not whole values");
	regmap_exit(map);
	wire();
	/* 16-bit registers (big-endian), little-endian values, a write flag. */
	map = regmap_init_i2c(client, &le16);
	assert_false(IS_ERR(map));
	assert_eq(regmap_write(map, 0x0204, 0x1122), 0);
	assert_str_eq(wire(), "W03=04,22,11 ", "register 0x0204 with the write flag 0x01 in its first byte");
	regmap_exit(map);
}

/* ---- the rules ---- */

static bool not_0x40(struct device *dev, unsigned int reg)
{
	(void)dev;
	return reg != 0x40;
}

static const struct regmap_range no_ranges[] = { regmap_reg_range(0x50, 0x5f) };
static const struct regmap_access_table wr_table = { .no_ranges = no_ranges, .n_no_ranges = 1 };

UIRQ_TEST(compat_regmap, rules_and_their_errors, .init = setup, .fini = teardown)
{
	const struct regmap_config c = { .reg_bits = 8, .val_bits = 8, .reg_stride = 2, .max_register = 0x80,
					 .readable_reg = not_0x40, .wr_table = &wr_table };
	struct regmap *map = regmap_init_i2c(client, &c);
	unsigned int v;

	assert_eq(regmap_read(map, 0x11, &v), -EINVAL, "off the stride");
	assert_eq(regmap_read(map, 0x82, &v), -EIO, "past max_register");
	assert_eq(regmap_write(map, 0x82, 1), -EIO);
	assert_eq(regmap_read(map, 0x40, &v), -EIO, "not readable");
	assert_eq(regmap_write(map, 0x52, 1), -EIO, "in the write table's no_ranges");
	assert_eq(regmap_write(map, 0x40, 1), 0, "not readable, still writeable");
	assert_str_eq(wire(), "W40=01 ", "a refused access never reaches the bus");
	assert_true(regmap_volatile(map, 0x10), "without a cache every readable register is volatile");
	assert_false(regmap_volatile(map, 0x40), "one that cannot be read is not");
	assert_eq(regmap_get_reg_stride(map), 2);
	assert_eq(regmap_get_max_register(map), 0x80);
	regmap_exit(map);
}

UIRQ_TEST(compat_regmap, bad_configurations_refused_with_a_reason, .init = setup, .fini = teardown)
{
	const struct regmap_config odd = { .reg_bits = 12, .val_bits = 8 };
	const struct regmap_range_cfg pages = { .range_min = 0x100, .range_max = 0x1ff };
	const struct regmap_config paged = { .reg_bits = 8, .val_bits = 8, .ranges = &pages, .num_ranges = 1 };
	const struct regmap_config flat = { .reg_bits = 8, .val_bits = 8, .cache_type = REGCACHE_FLAT };
	struct regmap *map;

	map = regmap_init_i2c(client, &odd);
	assert_eq(PTR_ERR(map), -EINVAL);
	assert_not_null(strstr(logbuf, "unsupported format: 12 register bits"), "%s", logbuf);
	map = regmap_init_i2c(client, &paged);
	assert_eq(PTR_ERR(map), -EINVAL);
	assert_not_null(strstr(logbuf, "register pages (ranges): not supported"), "%s", logbuf);
	map = regmap_init_i2c(client, &flat);
	assert_eq(PTR_ERR(map), -EINVAL, "a flat cache needs max_register");
	assert_str_eq(wire(), "");
}

/* ---- caches ---- */

static const struct reg_default defaults[] = { { .reg = 0x01, .def = 0x11 }, { .reg = 0x02, .def = 0x22 } };

static bool volatile_0x03(struct device *dev, unsigned int reg)
{
	(void)dev;
	return reg == 0x03;
}

UIRQ_TEST(compat_regmap, flat_cache_serves_reads_and_syncs, .init = setup, .fini = teardown)
{
	const struct regmap_config c = { .reg_bits = 8, .val_bits = 8, .max_register = 0x07,
					 .cache_type = REGCACHE_FLAT, .reg_defaults = defaults,
					 .num_reg_defaults = 2, .volatile_reg = volatile_0x03 };
	struct regmap *map = regmap_init_i2c(client, &c);
	unsigned int v;

	rf.regs[0x01] = 0x99, rf.regs[0x03] = 0x33, rf.regs[0x05] = 0x55;
	assert_eq(regmap_read(map, 0x01, &v), 0);
	assert_eq(v, 0x11u, "the default, not the device");
	assert_eq(regmap_read(map, 0x05, &v), 0);
	assert_eq(v, 0u, "a flat cache holds every register: 0 without a default");
	assert_eq(regmap_read(map, 0x03, &v), 0);
	assert_eq(v, 0x33u);
	assert_str_eq(wire(), "R03=33 ", "only the volatile register is read from the device");
	assert_true(regmap_volatile(map, 0x03));
	assert_false(regmap_volatile(map, 0x01));
	/* Cache-only: writes stay in the cache; then a sync writes every held, non-volatile value. */
	regcache_cache_only(map, true);
	assert_eq(regmap_write(map, 0x02, 0x42), 0);
	assert_eq(regmap_write(map, 0x01, 0x11), 0);
	assert_eq(regmap_read(map, 0x02, &v), 0);
	assert_eq(v, 0x42u);
	assert_eq(regmap_read(map, 0x03, &v), -EBUSY, "a volatile register cannot be read in cache-only mode");
	assert_str_eq(wire(), "");
	regcache_cache_only(map, false);
	assert_eq(regcache_sync(map), 0);
	assert_str_eq(wire(), "W00=00 W01=11 W02=42 W04=00 W05=00 W06=00 W07=00 ", "all but the volatile 0x03");
	assert_eq(regcache_sync(map), 0);
	assert_str_eq(wire(), "", "nothing written to the cache alone since: nothing to sync");
	/* After a reset the registers hold their defaults: only the others are written. */
	regcache_mark_dirty(map);
	assert_eq(regcache_sync(map), 0);
	assert_str_eq(wire(), "W00=00 W02=42 W04=00 W05=00 W06=00 W07=00 ", "0x01 is at its default");
	assert_eq(regcache_drop_region(map, 0, 7), -EINVAL, "a flat cache cannot forget");
	regmap_exit(map);
}

UIRQ_TEST(compat_regmap, rbtree_cache_holds_what_it_has_seen, .init = setup, .fini = teardown)
{
	const struct regmap_config c = { .reg_bits = 8, .val_bits = 8, .cache_type = REGCACHE_RBTREE,
					 .reg_defaults = defaults, .num_reg_defaults = 2 };
	struct regmap *map = regmap_init_i2c(client, &c);
	unsigned int v;
	u8 vals[3];

	rf.regs[0x80] = 0x80, rf.regs[0xc8] = 0xc8;
	assert_eq(regmap_read(map, 0x80, &v), 0);
	assert_eq(regmap_read(map, 0x80, &v), 0);
	assert_eq(regmap_read(map, 0xc8, &v), 0, "a map with no max_register grows its cache");
	assert_eq(v, 0xc8u);
	assert_str_eq(wire(), "R80=80 Rc8=c8 ", "read once, then served from the cache");
	rf.regs[0x80] = 0x81;
	assert_eq(regcache_drop_region(map, 0x80, 0x80), 0);
	assert_eq(regmap_read(map, 0x80, &v), 0);
	assert_eq(v, 0x81u, "a dropped register is read again");
	/* A bulk read the cache may serve goes register by register. */
	assert_eq(regmap_bulk_read(map, 0x01, vals, 3), 0);
	assert_eq(vals[0], 0x11);
	assert_str_eq(wire(), "R80=81 R03=00 ");
	regcache_cache_only(map, true);
	assert_eq(regmap_read(map, 0x04, &v), -EBUSY, "not held, and the device is off");
	regcache_cache_only(map, false);
	regcache_cache_bypass(map, true);
	assert_eq(regmap_read(map, 0x01, &v), 0);
	assert_eq(v, 0u, "bypassed: the device's value");
	regmap_exit(map);
}

/* A device of 32-bit registers anywhere in the 32-bit space: what was written to it, as text. */
static char far_wire[256];

static int far_write(void *context, unsigned int reg, unsigned int val)
{
	size_t n = strlen(far_wire);

	(void)context;
	snprintf(far_wire + n, sizeof(far_wire) - n, "W%x=%x ", reg, val);
	return 0;
}

static int far_read(void *context, unsigned int reg, unsigned int *val)
{
	(void)context;
	*val = reg ^ 0x5a5a5a5a;
	return 0;
}

/*
 * Without max_register the cache holds registers anywhere in the 32-bit
 * space, as the kernel's rbtree does (sparse): the last register is no
 * index past the end, a register far up costs no array up to it, and a
 * sync writes what is held in register order.
 */
UIRQ_TEST(compat_regmap, cache_without_max_register_is_sparse, .init = setup, .fini = teardown)
{
	const struct regmap_config c = { .reg_bits = 32, .val_bits = 32, .cache_type = REGCACHE_RBTREE,
					 .reg_read = far_read, .reg_write = far_write };
	struct regmap *map = regmap_init(&client->dev, NULL, NULL, &c);
	unsigned int v;

	assert_false(IS_ERR(map), "%ld", PTR_ERR(map));
	far_wire[0] = '\0';
	assert_eq(regmap_write(map, 0xffffffff, 1), 0);
	assert_eq(regmap_write(map, 0x80000000, 2), 0);
	assert_eq(regmap_write(map, 0x10, 3), 0);
	assert_eq(regmap_read(map, 0x7ffffff0, &v), 0);
	assert_eq(v, 0x7ffffff0u ^ 0x5a5a5a5a);
	regcache_cache_only(map, true);
	assert_eq(regmap_read(map, 0xffffffff, &v), 0);
	assert_eq(v, 1u, "held");
	assert_eq(regmap_read(map, 0x80000000, &v), 0);
	assert_eq(v, 2u);
	assert_eq(regmap_read(map, 0x7ffffff0, &v), 0, "what was read is held too");
	assert_eq(regmap_read(map, 0x20, &v), -EBUSY, "not held");
	regcache_cache_only(map, false);
	far_wire[0] = '\0';
	regcache_mark_dirty(map);
	assert_eq(regcache_sync(map), 0);
	assert_str_eq(far_wire, "W10=3 W7ffffff0=25a5a5aa W80000000=2 Wffffffff=1 ", "in register order");
	assert_eq(regcache_drop_region(map, 0x80000000, 0xffffffff), 0);
	regcache_cache_only(map, true);
	assert_eq(regmap_read(map, 0xffffffff, &v), -EBUSY, "dropped");
	assert_eq(regmap_read(map, 0x10, &v), 0, "below the region: kept");
	regmap_exit(map);
}

UIRQ_TEST(compat_regmap, raw_defaults_and_multi_writes, .init = setup, .fini = teardown)
{
	static const u8 raw[4] = { 0xa0, 0xa1, 0xa2, 0xa3 };
	const struct regmap_config c = { .reg_bits = 8, .val_bits = 8, .cache_type = REGCACHE_RBTREE,
					 .reg_defaults_raw = raw, .num_reg_defaults_raw = 4 };
	const struct reg_sequence seq[] = { { 0x02, 0x12, 0 }, { 0x00, 0x10, 10 }, { 0x01, 0x11, 0 } };
	struct regmap *map = regmap_init_i2c(client, &c);
	unsigned int v;

	assert_eq(regmap_read(map, 0x02, &v), 0);
	assert_eq(v, 0xa2u, "a raw default");
	assert_eq(regmap_get_max_register(map), 3, "max_register from the raw defaults");
	assert_eq(regmap_multi_reg_write(map, seq, 3), 0);
	assert_str_eq(wire(), "W02=12 W00=10 W01=11 ", "in the sequence's order");
	regmap_exit(map);
}

/*
 * A fast_io map takes a spinlock: its sequence delays do not sleep under
 * it.  Over i2c, which sleeps, such a map is the driver's mistake, and
 * lockdep says so at the first transfer, as the kernel's would.
 */
static unsigned int mem[4];

static int mem_write(void *ctx, unsigned int reg, unsigned int val)
{
	(void)ctx;
	mem[reg & 3] = val;
	return 0;
}

UIRQ_TEST(compat_regmap, fast_io_maps_never_sleep_under_their_lock, .init = setup, .fini = teardown)
{
	const struct regmap_config c = { .reg_bits = 8, .val_bits = 8, .fast_io = true, .reg_write = mem_write };
	const struct reg_sequence seq[] = { { 0x01, 0x01, 50 }, { 0x02, 0x02, 0 } };
	struct regmap *map = regmap_init(NULL, NULL, NULL, &c);
	struct uirq_lockdep_stats before, after;

	assert_false(IS_ERR(map));
	uirq_lockdep_get_stats(&before);
	assert_eq(regmap_multi_reg_write(map, seq, 2), 0);
	uirq_lockdep_get_stats(&after);
	assert_eq(after.reports, before.reports, "the delay busy-waits");
	assert_eq(mem[2], 2u);
	regmap_exit(map);
	map = regmap_init_i2c(client, &c);
	assert_eq(regmap_write(map, 0x01, 1), 0);
	uirq_lockdep_get_stats(&after);
	assert_eq(after.reports_by_kind[UIRQ_REPORT_SLEEP_INVALID], before.reports_by_kind[UIRQ_REPORT_SLEEP_INVALID] + 1,
		  "an i2c transfer under the map's spinlock");
	regmap_exit(map);
}

/* ---- polling ---- */

UIRQ_TEST(compat_regmap, read_poll_timeout, .init = setup, .fini = teardown)
{
	struct regmap *map = regmap_init_i2c(client, &cfg8);
	unsigned int v;

	assert_eq(regmap_read_poll_timeout(map, RF_COUNTER, v, v >= 3, 10, 100000), 0);
	assert_eq(v, 3u);
	assert_eq(regmap_read_poll_timeout(map, 0x00, v, v == 1, 10, 1000), -ETIMEDOUT);
	assert_eq(v, 0u, "the last value read");
	regmap_exit(map);
}

/* ---- dev_get_regmap() from a child, devm lifetime ---- */

static int map_reg_read(void *ctx, unsigned int reg, unsigned int *val)
{
	*val = reg + (unsigned int)(uintptr_t)ctx;
	return 0;
}

static const struct regmap_config named = { .name = "main", .reg_bits = 8, .val_bits = 8, .reg_read = map_reg_read };
static struct regmap *probed_map;

static int parent_probe(struct platform_device *pdev)
{
	probed_map = devm_regmap_init(&pdev->dev, NULL, (void *)(uintptr_t)0x100, &named);
	return PTR_ERR_OR_ZERO(probed_map);
}

static struct platform_driver parent_driver = { .probe = parent_probe, .driver = { .name = "mapper" } };

UIRQ_TEST(compat_regmap, dev_get_regmap_finds_the_parents_map, .init = setup, .fini = teardown)
{
	struct platform_device *pdev;
	unsigned int v;

	assert_eq(platform_driver_register(&parent_driver), 0);
	pdev = platform_device_register_simple("mapper", PLATFORM_DEVID_NONE, NULL, 0);
	assert_false(IS_ERR(probed_map));
	assert_eq(dev_get_regmap(&pdev->dev, NULL), probed_map, "any map");
	assert_eq(dev_get_regmap(&pdev->dev, "main"), probed_map, "by name");
	assert_null(dev_get_regmap(&pdev->dev, "other"));
	assert_eq(regmap_get_device(probed_map), &pdev->dev);
	/* A map without a bus reads through the config's call, with its context. */
	assert_eq(regmap_read(probed_map, 0x05, &v), 0);
	assert_eq(v, 0x105u);
	assert_eq(regmap_write(probed_map, 0x05, 1), -EIO, "no reg_write: not writeable");
	platform_driver_unregister(&parent_driver);
	assert_null(dev_get_regmap(&pdev->dev, NULL), "the map went with the driver");
	platform_device_unregister(pdev);
}

/* ---- the bus chosen from the adapter ---- */

/* An SMBus-only adapter onto the same register file: byte data (and i2c blocks, when offered). */
static uint32_t smbus_funcs;

static int smbus_xfer(struct uirq_i2c_adapter *adap, uint16_t addr, unsigned short flags, char rw, uint8_t cmd,
		      int size, union uirq_i2c_smbus_data *data)
{
	(void)adap, (void)flags;
	if (addr != RF_ADDR)
		return -ENXIO;
	transfers++;
	if (size == UIRQ_I2C_SMBUS_BYTE_DATA && rw == UIRQ_I2C_SMBUS_READ)
		return rf_read(NULL, cmd, &data->byte);
	if (size == UIRQ_I2C_SMBUS_BYTE_DATA)
		return rf_write(NULL, cmd, data->byte);
	if (size == UIRQ_I2C_SMBUS_I2C_BLOCK_DATA && rw == UIRQ_I2C_SMBUS_READ) {
		for (int i = 1; i <= data->block[0]; i++)
			rf_read(NULL, (uint8_t)(cmd + i - 1), &data->block[i]);
		return 0;
	}
	return -EOPNOTSUPP;
}

static uint32_t smbus_functionality(struct uirq_i2c_adapter *adap)
{
	(void)adap;
	return smbus_funcs;
}

static const struct uirq_i2c_algorithm smbus_algo = { .smbus_xfer = smbus_xfer, .functionality = smbus_functionality };

UIRQ_TEST(compat_regmap, smbus_adapters_get_the_kernels_bus, .init = setup, .fini = teardown)
{
	struct uirq_i2c_adapter adap = { .name = "smbus-only", .algo = &smbus_algo };
	struct i2c_board_info info = { I2C_BOARD_INFO("regfile", RF_ADDR) };
	const struct regmap_config v16 = { .reg_bits = 8, .val_bits = 16 };
	struct i2c_client *c;
	struct regmap *map;
	u8 vals[4];

	assert_eq(uirq_i2c_add_adapter(&adap), 0);
	c = i2c_new_client_device(uirq_compat_i2c_adapter(&adap), &info);
	assert_false(IS_ERR(c));
	rf.regs[0x60] = 6, rf.regs[0x61] = 7, rf.regs[0x62] = 8, rf.regs[0x63] = 9;
	/* Byte data only: a bulk read is one byte transfer per register. */
	smbus_funcs = I2C_FUNC_SMBUS_BYTE_DATA;
	map = regmap_init_i2c(c, &cfg8);
	assert_false(IS_ERR(map));
	transfers = 0;
	assert_eq(regmap_bulk_read(map, 0x60, vals, 4), 0);
	assert_eq(vals[3], 9);
	assert_eq(transfers, 4);
	regmap_exit(map);
	/* With i2c blocks: one transfer. */
	smbus_funcs = I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_I2C_BLOCK;
	map = regmap_init_i2c(c, &cfg8);
	transfers = 0;
	assert_eq(regmap_bulk_read(map, 0x60, vals, 4), 0);
	assert_eq(vals[1], 7);
	assert_eq(transfers, 1);
	regmap_exit(map);
	/* Nothing that carries 16-bit values. */
	map = regmap_init_i2c(c, &v16);
	assert_eq(PTR_ERR(map), -ENOTSUPP);
	assert_not_null(strstr(logbuf, "carries no transfer for 8-bit registers of 16 bits"), "%s", logbuf);
	i2c_unregister_device(c);
	assert_eq(uirq_compat_i2c_adapter_del(uirq_compat_i2c_adapter(&adap)), 0);
	assert_eq(uirq_i2c_del_adapter(&adap), 0);
}

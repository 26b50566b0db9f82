// SPDX-License-Identifier: MIT
/*
 * regmap-irq (compat/regmap-irq.c) as the kernel's behaves, on a register
 * file whose interrupt output drives a swirq input: two status registers
 * (write-1-to-clear with an ack register, or clear-on-read), masks or
 * unmasks, asserted on the wire.  Masking at creation and acking what is
 * pending, children as nested threaded lines run in the parent's thread,
 * masks written in the bus lock's sync (only what changed), acks,
 * clear_on_unmask, unmask registers, type_in_mask, holes, fixed numbers,
 * refused descriptions, the devm lifetime.  In the deterministic mode
 * (tests/sim_runs.h): the waits are exact.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>

#include "harness.h"
#include "regfile.h"
#include "sim_runs.h"
#include "uirq/printk.h"
#include "uirq/sources.h"

#define ST	0x00	/* status registers 0x00, 0x01 */
#define MASK	0x04	/* mask registers 0x04, 0x05 (1 = masked) */
#define UNMASK	0x08	/* unmask registers 0x08, 0x09 (1 = enabled) */

static struct i2c_client *client;
static struct regmap *map;
static struct uirq_swirq *intc;
static unsigned int host_irq;
static bool unmask_regs;	/* the chip's enables are UNMASK's, not MASK's */
static char logbuf[4096];

static void sink(const char *msg, void *arg)
{
	(void)arg;
	strncat(logbuf, msg, sizeof(logbuf) - strlen(logbuf) - 1);
}

/* The chip's interrupt output: any pending, enabled status bit (bus lock held: ordered with transfers). */
static void output(void)
{
	bool any = false;

	for (int i = 0; i < 2; i++) {
		uint8_t en = unmask_regs ? rf.regs[UNMASK + i] : (uint8_t)~rf.regs[MASK + i];

		any |= (rf.regs[ST + i] & en) != 0;
	}
	uirq_swirq_set_level(intc, 0, any);
}

/* Interrupt events latch bits into status register i, atomically with respect to transfers. */
static void event(int i, uint8_t bits)
{
	struct uirq_i2c_adapter *adap = client->adapter->uirq;

	uirq_i2c_lock_bus(adap);
	rf.regs[ST + i] |= bits;
	output();
	uirq_i2c_unlock_bus(adap);
}

static void begin(unsigned int cpus)
{
	struct uirq_cpu_config cfg = { .nr_cpus = cpus };
	struct uirq_swirq_config icfg = { .name = "host", .nr_inputs = 1 };
	const struct regmap_config rcfg = { .reg_bits = 8, .val_bits = 8 };

	for (unsigned int i = 0; i < UIRQ_MAX_CPUS; i++)
		cfg.pin[i] = -1;
	logbuf[0] = '\0';
	uirq_log_set_sink(sink, NULL);
	unmask_regs = false;
	assert_eq(uirq_cpus_start(&cfg), 0);
	assert_eq(uirq_swirq_create(&icfg, &intc), 0);
	host_irq = (unsigned int)uirq_swirq_map(intc, 0);
	client = rf_setup();
	rf.w1c[ST] = rf.w1c[ST + 1] = true;
	rf.changed = output;
	map = regmap_init_i2c(client, &rcfg);
	assert_false(IS_ERR(map));
}

static void end(void)
{
	regmap_exit(map);
	rf.changed = NULL;
	rf_teardown(client);
	assert_eq(uirq_swirq_destroy(intc), 0);
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
}

static const struct regmap_irq irqs[] = {
	REGMAP_IRQ_REG(0, 0, BIT(0)),
	REGMAP_IRQ_REG(1, 0, BIT(1)),
	/* [2]: a hole */
	REGMAP_IRQ_REG(3, 1, BIT(4)),
	[4] = { .reg_offset = 1, .mask = BIT(6) | BIT(7),
		.type = { .type_reg_offset = 1, .type_rising_val = BIT(6), .type_falling_val = BIT(7),
			  .types_supported = IRQ_TYPE_EDGE_BOTH } },
};

/* Write-1-to-clear status acked at its own address (0: use_ack says so), masked ones acked at each sync. */
static const struct regmap_irq_chip w1c_chip = {
	.name = "rfirq", .irqs = irqs, .num_irqs = ARRAY_SIZE(irqs), .num_regs = 2,
	.status_base = ST, .mask_base = MASK, .ack_base = ST, .use_ack = true, .init_ack_masked = true,
	.type_in_mask = true,
};

/* ---- the children's handlers ---- */

static _Atomic int runs[5];
static char thread_name[5][32];

static irqreturn_t child(int irq, void *dev_id)
{
	int hw = (int)(uintptr_t)dev_id;

	(void)irq;
	harness_thread_name(thread_name[hw]);
	runs[hw]++;
	return IRQ_HANDLED;
}

static void runs_reset(void)
{
	for (int i = 0; i < 5; i++)
		runs[i] = 0;
}

static void settle(void)
{
	uirq_sim_sleep_ns(5 * SIM_MS);
}

/* ---- creation ---- */

SIM_TEST(compat_regmap_irq, creation_masks_everything_and_acks_what_is_pending, begin, end, .timeout = 60)
{
	struct regmap_irq_chip_data *d;

	rf.regs[MASK] = 0x80;		/* a bit no interrupt owns: left as it is */
	rf.regs[ST] = 0x03;		/* pending from before */
	wire();
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &w1c_chip, &d), 0);
	assert_str_eq(wire(), "R04=80 W04=83 R00=03 W00=03 R05=00 W05=d0 R01=00 ");
	assert_eq(rf.regs[ST], 0, "acked");
	assert_true(uirq_irq_has_action(host_irq), "the device's line is requested");
	regmap_del_irq_chip((int)host_irq, d);
	assert_false(uirq_irq_has_action(host_irq));
}

/* ---- nested children, masks in the sync ---- */

SIM_TEST(compat_regmap_irq, children_are_nested_lines_of_the_parents_thread, begin, end, .timeout = 60)
{
	struct regmap_irq_chip_data *d;
	int v0, v1;
	char parent[32];

	runs_reset();
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, IRQF_ONESHOT, 0, &w1c_chip, &d), 0);
	v0 = regmap_irq_get_virq(d, 0);
	v1 = regmap_irq_get_virq(d, 1);
	assert_gt(v0, 0);
	assert_eq(irq_find_mapping(regmap_irq_get_domain(d), 0), (unsigned int)v0);
	wire();
	/* A child's request unmasks it in the bus lock's sync: one write, where something changed. */
	assert_eq(request_any_context_irq((unsigned int)v0, child, 0, "child0", (void *)0), IRQC_IS_NESTED);
	assert_str_eq(wire(), "R04=03 W04=02 W00=02 R05=d0 W01=d0 ", "unmask bit 0; ack the still-masked ones");
	event(0, BIT(0));
	settle();
	assert_eq(runs[0], 1);
	snprintf(parent, sizeof(parent), "irq/%u-rfirq", host_irq);
	assert_str_eq(thread_name[0], parent, "a nested handler runs in the parent's thread");
	assert_str_eq(wire(), "R00=01,00 W00=01 ", "one bulk status read, then the ack");
	/* A masked line's event: not run, not acked by the handler. */
	event(0, BIT(1));
	settle();
	assert_eq(runs[1], 0);
	assert_str_eq(wire(), "", "a masked bit does not raise the line");
	/* Unmasked, it is raised and run: without clear_on_unmask a latched event is not stale. */
	assert_eq(request_threaded_irq((unsigned int)v1, NULL, child, IRQF_ONESHOT, "child1", (void *)1), 0);
	settle();
	assert_eq(runs[1], 1);
	wire();
	/* Disabling masks it again: the sync writes it, acking the masked bits. */
	disable_irq((unsigned int)v0);
	assert_str_eq(wire(), "R04=00 W04=01 W00=01 R05=d0 W01=d0 ");
	free_irq((unsigned int)v1, (void *)1);
	free_irq((unsigned int)v0, (void *)0);
	regmap_del_irq_chip((int)host_irq, d);
	assert_null(irq_get_irq_data((unsigned int)v0), "the child lines are disposed of");
}

/* ---- clear_on_unmask, unmask registers, types ---- */

static const struct regmap_irq_chip cor_chip = {
	.name = "rfcor", .irqs = irqs, .num_irqs = ARRAY_SIZE(irqs), .num_regs = 2,
	.status_base = ST, .mask_base = MASK, .init_ack_masked = true, .clear_on_unmask = true,
};

SIM_TEST(compat_regmap_irq, clear_on_unmask_reads_stale_status_first, begin, end, .timeout = 60)
{
	struct regmap_irq_chip_data *d;
	int v0;

	runs_reset();
	rf.w1c[ST] = rf.w1c[ST + 1] = false;
	rf.cor[ST] = rf.cor[ST + 1] = true;
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &cor_chip, &d), 0);
	v0 = regmap_irq_get_virq(d, 0);
	event(0, BIT(0));		/* latched while masked: stale */
	wire();
	assert_eq(request_threaded_irq((unsigned int)v0, NULL, child, IRQF_ONESHOT, "child0", (void *)0), 0);
	assert_str_eq(wire(), "R00=01 R01=00 R04=03 W04=02 R05=d0 ", "the status is read away before the unmask");
	settle();
	assert_eq(runs[0], 0, "the stale event is not run");
	event(0, BIT(0));
	settle();
	assert_eq(runs[0], 1);
	assert_str_eq(wire(), "R00=01,00 ", "clear on read: no ack");
	free_irq((unsigned int)v0, (void *)0);
	regmap_del_irq_chip((int)host_irq, d);
}

static const struct regmap_irq_chip unmask_chip = {
	.name = "rfun", .irqs = irqs, .num_irqs = ARRAY_SIZE(irqs), .num_regs = 2,
	.status_base = ST, .unmask_base = UNMASK, .ack_base = ST, .use_ack = true,
};

static const struct regmap_irq_chip inverted_chip = {
	.name = "rfinv", .irqs = irqs, .num_irqs = ARRAY_SIZE(irqs), .num_regs = 2,
	.status_base = ST, .mask_base = UNMASK, .mask_invert = true, .ack_base = ST, .use_ack = true,
};

SIM_TEST(compat_regmap_irq, unmask_registers_enable_with_ones, begin, end, .timeout = 60)
{
	struct regmap_irq_chip_data *d;
	int v3;

	runs_reset();
	unmask_regs = true;
	rf.regs[UNMASK + 1] = 0xff;
	wire();
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &unmask_chip, &d), 0);
	assert_str_eq(wire(), "R08=00 R09=ff W09=2f ", "disabled at creation: the owned bits cleared");
	v3 = regmap_irq_get_virq(d, 3);
	assert_eq(request_threaded_irq((unsigned int)v3, NULL, child, IRQF_ONESHOT, "child3", (void *)3), 0);
	assert_str_eq(wire(), "R08=00 R09=2f W09=3f ");
	event(1, BIT(4));
	settle();
	assert_eq(runs[3], 1);
	free_irq((unsigned int)v3, (void *)3);
	regmap_del_irq_chip((int)host_irq, d);
	/* The deprecated mask_invert is the same, with the kernel's warning. */
	wire();
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &inverted_chip, &d), 0);
	assert_not_null(strstr(logbuf, "mask_invert=true is deprecated; please switch to unmask_base"), "%s", logbuf);
	assert_str_eq(wire(), "R08=00 R09=2f ", "the owned bits already clear: read, not written");
	regmap_del_irq_chip((int)host_irq, d);
}

SIM_TEST(compat_regmap_irq, type_in_mask_unmasks_the_triggers_bit, begin, end, .timeout = 60)
{
	struct regmap_irq_chip_data *d;
	int v4;

	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &w1c_chip, &d), 0);
	v4 = regmap_irq_get_virq(d, 4);
	wire();
	assert_eq(request_threaded_irq((unsigned int)v4, NULL, child, IRQF_ONESHOT | IRQF_TRIGGER_RISING, "child4",
				       (void *)4), 0);
	assert_str_eq(wire(), "R04=03 W00=03 R05=d0 W05=90 W01=90 ", "only the rising bit is unmasked");
	free_irq((unsigned int)v4, (void *)4);
	regmap_del_irq_chip((int)host_irq, d);
}

/* ---- lines ---- */

SIM_TEST(compat_regmap_irq, holes_fixed_numbers_and_refusals, begin, end, .timeout = 60)
{
	const struct regmap_irq_chip main_status = { .name = "x", .irqs = irqs, .num_irqs = 5, .num_regs = 2,
						     .num_main_regs = 1 };
	const struct regmap_irq_chip ack_and_clear = { .name = "x", .irqs = irqs, .num_irqs = 5, .num_regs = 2,
						       .use_ack = true, .clear_on_unmask = true };
	const struct regmap_irq_chip beyond = { .name = "x", .irqs = irqs, .num_irqs = 5, .num_regs = 1 };
	struct regmap_irq_chip_data *d;

	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &main_status, &d), -EINVAL);
	assert_not_null(strstr(logbuf, "regmap-irq x: main status registers: not supported"), "%s", logbuf);
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &ack_and_clear, &d), -EINVAL);
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 0, &beyond, &d), -EINVAL, "an irq past num_regs");
	assert_false(uirq_irq_has_action(host_irq));
	/* Fixed numbers: the lines are irq_base + hwirq, the hole included. */
	assert_eq(regmap_add_irq_chip(map, (int)host_irq, 0, 700, &w1c_chip, &d), 0);
	assert_eq(regmap_irq_chip_get_base(d), 700);
	assert_eq(regmap_irq_get_virq(d, 3), 703);
	assert_eq(regmap_irq_get_virq(d, 2), -EINVAL, "a hole has no line");
	assert_eq(regmap_irq_get_virq(d, 3), 703, "the same line again");
	regmap_del_irq_chip((int)host_irq, d);
	assert_null(irq_get_irq_data(700), "the fixed lines are freed with the chip");
	assert_null(regmap_irq_get_domain(NULL));
}

/* ---- devm ---- */

static struct regmap_irq_chip_data *devm_data;

static int chip_probe(struct platform_device *pdev)
{
	return devm_regmap_add_irq_chip(&pdev->dev, map, (int)host_irq, IRQF_ONESHOT, 0, &w1c_chip, &devm_data);
}

static struct platform_driver chip_driver = { .probe = chip_probe, .driver = { .name = "rfchip" } };

SIM_TEST(compat_regmap_irq, devm_chip_goes_with_its_driver, begin, end, .timeout = 60)
{
	struct platform_device *pdev;
	int v0;

	assert_eq(platform_driver_register(&chip_driver), 0);
	pdev = platform_device_register_simple("rfchip", PLATFORM_DEVID_NONE, NULL, 0);
	assert_false(IS_ERR(pdev));
	assert_not_null(pdev->dev.driver);
	v0 = regmap_irq_get_virq(devm_data, 0);
	assert_gt(v0, 0);
	assert_true(uirq_irq_has_action(host_irq));
	platform_device_unregister(pdev);
	assert_false(uirq_irq_has_action(host_irq), "the line is freed at unbind");
	assert_null(irq_get_irq_data((unsigned int)v0), "and the domain's lines");
	platform_driver_unregister(&chip_driver);
}

// SPDX-License-Identifier: MIT
/*
 * twl4030-irq: the TWL4030's interrupt controller, as Linux drives it today
 * (drivers/mfd/twl4030-irq.c).
 *
 * Two levels, both behind i2c.  The PIH says which module is pending
 * (PIH_ISR_P1, read-only, derived); each module's SIH says which of its
 * interrupts (here PWR_INT: ISR1, acknowledged by reading it, COR).  None of
 * this can be read from hard-irq context, so:
 *  - the host line (INT1, level low) gets a threaded ONESHOT handler with
 *    no primary: it stays masked while the thread reads PIH_ISR_P1 and
 *    runs each pending module's handler with handle_nested_irq();
 *  - PIH children 0-7 are nested-thread lines on a no-op chip; the PWR_INT
 *    SIH handler is requested on child 5 and reads PWR_ISR1, then runs the
 *    PWR children 8-15 (nested too) with handle_nested_irq();
 *  - the SIH irq chip keeps IMR and the edge settings in shadows and writes
 *    them out over i2c only in irq_bus_sync_unlock, under its bus mutex.
 *
 * Legacy mode (TWL4030_IRQ_LEGACY) is the 2.6.30 driver the seed patch ran
 * on: the PWR children are ordinary lines with an edge flow, and the SIH
 * dispatch runs each child's flow handler from its thread with interrupts
 * disabled inside a faked hard-irq section, so sub-drivers' handlers run
 * "in hard-irq context" - and a handler that sleeps on i2c is caught.
 * (2.6.30 also pushed SIH mask/edge writes to a workqueue; here they stay
 * in the bus lock, which only process-context paths take.  An edge flow
 * that masks a disabled child from the faked hard-irq section only changes
 * the shadow, written out at the next bus-locked operation.)
 */
#include <errno.h>
#include <linux/errno.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "uirq/twl4030-drivers.h"

#include "twl.h"

/* One SIH module's state (Linux's struct sih_agent): here PWR_INT. */
struct sih_agent {
	int irq_base;			/* first child: twl4030 base + 8 */
	struct twl_core *twl;
	bool legacy;

	struct mutex irq_lock;		/* the chip bus lock */
	u8 imr;				/* shadow PWR_IMR1, 1 = masked */
	bool imr_change_pending;
	u8 edge_change;			/* children whose trigger changed */
	u8 sir;				/* children to retrigger through PWR_SIR */
	unsigned int type[TWL4030_PWR_NR_IRQS];	/* shadow trigger types */
};

struct twl4030_irq {
	struct twl_core *twl;
	unsigned int host_irq;
	int irq_base;
	struct sih_agent agent;
};

/* ---- PIH children: nothing to mask, the PIH is derived ---- */

static void twl4030_noop(struct irq_data *d)
{
	(void)d;
}

static struct irq_chip twl4030_irq_chip = {
	.name		= "twl4030",
	.irq_mask	= twl4030_noop,
	.irq_unmask	= twl4030_noop,
	.irq_ack	= twl4030_noop,
};

/* ---- the SIH chip: shadows in the fast callbacks, i2c in sync_unlock ---- */

static unsigned int sih_bit(struct sih_agent *agent, struct irq_data *data)
{
	return data->irq - (unsigned int)agent->irq_base;
}

static void twl4030_sih_mask(struct irq_data *data)
{
	struct sih_agent *agent = irq_data_get_irq_chip_data(data);

	agent->imr |= (u8)(1u << sih_bit(agent, data));
	agent->imr_change_pending = true;
}

static void twl4030_sih_unmask(struct irq_data *data)
{
	struct sih_agent *agent = irq_data_get_irq_chip_data(data);

	agent->imr &= (u8)~(1u << sih_bit(agent, data));
	agent->imr_change_pending = true;
}

static int twl4030_sih_set_type(struct irq_data *data, unsigned int trigger)
{
	struct sih_agent *agent = irq_data_get_irq_chip_data(data);
	unsigned int bit = sih_bit(agent, data);

	/* EDR can only select edges. */
	if (trigger & ~(unsigned int)IRQ_TYPE_EDGE_BOTH)
		return -EINVAL;
	if (agent->type[bit] != trigger) {
		agent->type[bit] = trigger;
		agent->edge_change |= (u8)(1u << bit);
	}
	return IRQ_SET_MASK_OK;
}

/*
 * Replay an edge that came while the line was disabled.  A software resend
 * cannot reach a nested line (its parent's thread would read the PIH and
 * find nothing), so the chip raises it again itself: PWR_SIR sets the ISR
 * bit and the whole PIH -> SIH path runs as for a real edge.  Linux's
 * twl4030 has no retrigger and loses the edge.  Called under the desc lock
 * from enable_irq(), which holds the bus lock: the write waits for sync.
 */
static int twl4030_sih_retrigger(struct irq_data *data)
{
	struct sih_agent *agent = irq_data_get_irq_chip_data(data);

	agent->sir |= (u8)(1u << sih_bit(agent, data));
	return 1;
}

static void twl4030_sih_bus_lock(struct irq_data *data)
{
	struct sih_agent *agent = irq_data_get_irq_chip_data(data);

	mutex_lock(&agent->irq_lock);
}

/* Rewrite the two EDR bits of each changed child; the rest of EDR1/EDR2 is kept. */
static int twl4030_sih_sync_edges(struct sih_agent *agent)
{
	u8 edr[2];
	int status;

	status = twl_i2c_read(agent->twl, TWL4030_MODULE_INT, edr, TWL4030_INT_PWR_EDR1, 2);
	if (status) {
		pr_err("twl4030: %s, %s --> %d\n", "twl4030_sih_bus_sync_unlock", "read", status);
		return status;
	}
	for (unsigned int i = 0; i < TWL4030_PWR_NR_IRQS; i++) {
		unsigned int byte = i >> 2, off = (i & 3) * 2;

		if (!(agent->edge_change & (1u << i)))
			continue;
		edr[byte] &= (u8)~(3u << off);
		if (agent->type[i] & IRQ_TYPE_EDGE_RISING)
			edr[byte] |= (u8)(2u << off);
		if (agent->type[i] & IRQ_TYPE_EDGE_FALLING)
			edr[byte] |= (u8)(1u << off);
	}
	status = twl_i2c_write(agent->twl, TWL4030_MODULE_INT, edr, TWL4030_INT_PWR_EDR1, 2);
	if (status)
		pr_err("twl4030: %s, %s --> %d\n", "twl4030_sih_bus_sync_unlock", "write", status);
	return status;
}

/*
 * Linux drops a change whose write failed; here it stays pending and the
 * next bus-locked operation on any PWR line retries it, so one bus error
 * does not leave a line dead for good.
 */
static void twl4030_sih_bus_sync_unlock(struct irq_data *data)
{
	struct sih_agent *agent = irq_data_get_irq_chip_data(data);

	if (agent->imr_change_pending) {
		int status = twl_i2c_write_u8(agent->twl, TWL4030_MODULE_INT, agent->imr,
					      TWL4030_INT_PWR_IMR1);

		if (status)
			pr_err("twl4030: %s, %s --> %d\n", "twl4030_sih_bus_sync_unlock", "write", status);
		else
			agent->imr_change_pending = false;
	}
	if (agent->edge_change && !twl4030_sih_sync_edges(agent))
		agent->edge_change = 0;
	if (agent->sir) {
		int status = twl_i2c_write_u8(agent->twl, TWL4030_MODULE_INT, agent->sir,
					      TWL4030_INT_PWR_SIR);

		if (status)
			pr_err("twl4030: %s, %s --> %d\n", "twl4030_sih_bus_sync_unlock", "retrigger", status);
		else
			agent->sir = 0;
	}
	mutex_unlock(&agent->irq_lock);
}

static struct irq_chip twl4030_sih_irq_chip = {
	.name			= "twl4030",
	.irq_mask		= twl4030_sih_mask,
	.irq_unmask		= twl4030_sih_unmask,
	.irq_set_type		= twl4030_sih_set_type,
	.irq_retrigger		= twl4030_sih_retrigger,
	.irq_bus_lock		= twl4030_sih_bus_lock,
	.irq_bus_sync_unlock	= twl4030_sih_bus_sync_unlock,
};

/* ---- dispatch ---- */

/* 2.6.30: sub-handlers ran from the twl4030 thread as if in hard-irq context. */
static void twl4030_sih_handle_legacy(unsigned int irq)
{
	local_irq_disable();
	__irq_enter();
	generic_handle_irq(irq);
	__irq_exit();
	local_irq_enable();
}

/* PWR_INT's handler, nested in the PIH thread: reading ISR1 acknowledges (COR). */
static irqreturn_t handle_twl4030_sih(int irq, void *data)
{
	struct sih_agent *agent = data;
	u8 isr;
	int status;

	(void)irq;
	status = twl_i2c_read_u8(agent->twl, TWL4030_MODULE_INT, &isr, TWL4030_INT_PWR_ISR1);
	if (status) {
		/* Not acknowledged: INT1 stays low and the PIH thread comes back. */
		pr_err("twl4030: %s SIH, read ISR error %d\n", "PWR_INT", status);
		return IRQ_HANDLED;
	}
	while (isr) {
		unsigned int bit = 31u - (unsigned int)__builtin_clz(isr);	/* highest first */
		unsigned int child = (unsigned int)agent->irq_base + bit;

		isr &= (u8)~(1u << bit);
		if (agent->legacy)
			twl4030_sih_handle_legacy(child);
		else
			handle_nested_irq(child);
	}
	return IRQ_HANDLED;
}

/* The host line's thread: which modules are pending, lowest first. */
static irqreturn_t handle_twl4030_pih(int irq, void *devid)
{
	struct twl4030_irq *ti = devid;
	u8 pih_isr;
	int ret;

	(void)irq;
	ret = twl_i2c_read_u8(ti->twl, TWL_MODULE_PIH, &pih_isr, REG_PIH_ISR_P1);
	if (ret) {
		pr_warn("twl4030: I2C error %d reading PIH ISR\n", ret);
		return IRQ_NONE;
	}
	while (pih_isr) {
		unsigned int pending = (unsigned int)__builtin_ctz(pih_isr);

		pih_isr &= (u8)~(1u << pending);
		handle_nested_irq((unsigned int)ti->irq_base + pending);
	}
	return IRQ_HANDLED;
}

/* ---- setup ---- */

/* Mask PWR_INT on both lines, switch it to clear-on-read, flush what is pending. */
static int twl4030_init_sih_modules(struct twl4030_irq *ti)
{
	u8 isr;
	int status;

	status = twl_i2c_write_u8(ti->twl, TWL4030_MODULE_INT, 0xff, TWL4030_INT_PWR_IMR1);
	if (!status)
		status = twl_i2c_write_u8(ti->twl, TWL4030_MODULE_INT, 0xff, TWL4030_INT_PWR_IMR2);
	if (!status)
		status = twl_i2c_write_u8(ti->twl, TWL4030_MODULE_INT, TWL4030_SIH_CTRL_COR_MASK,
					  TWL4030_INT_PWR_SIH_CTRL);
	/* Twice: an event buffered behind the boot-time PWRON shows up after the first read. */
	for (int i = 0; !status && i < 2; i++)
		status = twl_i2c_read_u8(ti->twl, TWL4030_MODULE_INT, &isr, TWL4030_INT_PWR_ISR1);
	if (status)
		pr_err("twl4030: %s SIH init failed --> %d\n", "PWR_INT", status);
	return status;
}

static void twl4030_sih_setup(struct twl4030_irq *ti)
{
	struct sih_agent *agent = &ti->agent;

	agent->irq_base = ti->irq_base + TWL4030_PWR_IRQ_PWRON;
	agent->twl = ti->twl;
	agent->imr = 0xff;		/* as twl4030_init_sih_modules() left it */
	mutex_init(&agent->irq_lock);
	for (int i = 0; i < TWL4030_PWR_NR_IRQS; i++) {
		unsigned int irq = (unsigned int)agent->irq_base + (unsigned int)i;

		irq_set_chip_data(irq, agent);
		irq_set_chip_and_handler(irq, &twl4030_sih_irq_chip, handle_edge_irq);
		irq_set_nested_thread(irq, !agent->legacy);
	}
}

int twl4030_irq_probe_flags(struct uirq_i2c_adapter *adap, unsigned int host_irq, unsigned int flags,
			    struct twl4030_irq **out)
{
	struct twl4030_irq *ti;
	unsigned int sih_irq;
	int status;

	if (!adap || !out || (flags & ~TWL4030_IRQ_LEGACY))
		return -EINVAL;
	ti = kzalloc(sizeof(*ti), GFP_KERNEL);
	if (!ti)
		return -ENOMEM;
	ti->host_irq = host_irq;
	ti->agent.legacy = flags & TWL4030_IRQ_LEGACY;
	ti->twl = twl_core_get(adap);
	if (!ti->twl) {
		status = -errno;
		goto err_free;
	}
	status = twl4030_init_sih_modules(ti);
	if (status)
		goto err_core;

	ti->irq_base = irq_alloc_descs(-1, 0, TWL4030_NR_IRQS, 0);
	if (ti->irq_base < 0) {
		pr_err("twl4030: Fail to allocate IRQ descs\n");
		status = ti->irq_base;
		goto err_core;
	}
	for (int i = 0; i < TWL4030_PWR_IRQ_PWRON; i++) {
		unsigned int irq = (unsigned int)ti->irq_base + (unsigned int)i;

		irq_set_chip_and_handler(irq, &twl4030_irq_chip, handle_simple_irq);
		irq_set_nested_thread(irq, true);
	}
	twl4030_sih_setup(ti);

	sih_irq = (unsigned int)ti->irq_base + TWL4030_PIH_PWR_INT;
	status = request_threaded_irq(sih_irq, NULL, handle_twl4030_sih, IRQF_ONESHOT,
				      "twl4030_sih", &ti->agent);
	if (status) {
		pr_err("twl4030: %s sih: request irq %u failed: %d\n", "PWR_INT", sih_irq, status);
		goto err_descs;
	}
	pr_info("twl4030: %s (irq %u) %s IRQs %d..%d\n", "PWR_INT", sih_irq,
		ti->agent.legacy ? "chaining" : "nested", ti->agent.irq_base,
		ti->agent.irq_base + TWL4030_PWR_NR_IRQS - 1);

	status = request_threaded_irq(host_irq, NULL, handle_twl4030_pih, IRQF_ONESHOT,
				      "TWL4030-PIH", ti);
	if (status) {
		pr_err("twl4030: could not claim irq %u: %d\n", host_irq, status);
		goto err_sih;
	}
	pr_info("twl4030: PIH (irq %u) nested IRQs %d..%d%s\n", host_irq, ti->irq_base,
		ti->irq_base + TWL4030_NR_IRQS - 1,
		ti->agent.legacy ? " (2.6.30 dispatch: PWR_INT handlers in hard-irq context)" : "");
	*out = ti;
	return 0;

err_sih:
	free_irq(sih_irq, &ti->agent);
err_descs:
	irq_free_descs((unsigned int)ti->irq_base, TWL4030_NR_IRQS);
	mutex_destroy(&ti->agent.irq_lock);
err_core:
	twl_core_put(ti->twl);
err_free:
	kfree(ti);
	return status;
}

int twl4030_irq_probe(struct uirq_i2c_adapter *adap, unsigned int host_irq, struct twl4030_irq **out)
{
	return twl4030_irq_probe_flags(adap, host_irq, 0, out);
}

void twl4030_irq_remove(struct twl4030_irq *ti)
{
	if (!ti)
		return;
	free_irq(ti->host_irq, ti);
	free_irq((unsigned int)ti->irq_base + TWL4030_PIH_PWR_INT, &ti->agent);
	/* Leave PWR_INT masked, as after init, so INT1 goes quiet. */
	if (twl_i2c_write_u8(ti->twl, TWL4030_MODULE_INT, 0xff, TWL4030_INT_PWR_IMR1))
		pr_warn("twl4030: could not mask PWR_INT on remove\n");
	irq_free_descs((unsigned int)ti->irq_base, TWL4030_NR_IRQS);
	mutex_destroy(&ti->agent.irq_lock);
	twl_core_put(ti->twl);
	kfree(ti);
}

unsigned int twl4030_irq_base(struct twl4030_irq *ti)
{
	return (unsigned int)ti->irq_base;
}

bool twl4030_irq_is_legacy(struct twl4030_irq *ti)
{
	return ti->agent.legacy;
}

/* SPDX-License-Identifier: MIT */
/*
 * Private to drivers/: what <linux/mfd/twl.h> gives the TWL4030's
 * sub-drivers.  The chip answers at four i2c addresses; a register is
 * named by (module, offset) and the core maps the module to its slave and
 * base.  One twl_core per adapter, shared by the sub-drivers that probe on
 * it, owns the four dummy clients (twl-core.c).
 *
 * The accessors are macros so that the i2c call - which might sleep - is
 * reported at the sub-driver's line, as a kernel backtrace would show it.
 */
#ifndef UIRQ_DRIVERS_TWL_H
#define UIRQ_DRIVERS_TWL_H

#include <linux/errno.h>
#include <linux/i2c.h>
#include <linux/types.h>

/* Modules (include/linux/mfd/twl.h). */
enum twl_module {
	TWL_MODULE_USB,
	TWL_MODULE_AUDIO_VOICE,
	TWL_MODULE_PIH,
	TWL_MODULE_INTBR,
	TWL_MODULE_MADC,
	TWL_MODULE_MAIN_CHARGE,
	TWL_MODULE_PRECHARGE,
	TWL_MODULE_INTERRUPTS,
	TWL_MODULE_KEYPAD,
	TWL_MODULE_LED,
	TWL_MODULE_PWM,
	TWL_MODULE_SECURED_REG,
	TWL_MODULE_BACKUP,
	TWL_MODULE_RTC,
	TWL4030_MODULE_INT,		/* PWR_INT */
	TWL_MODULE_PM_MASTER,
	TWL_MODULE_PM_RECEIVER,
	TWL_MODULE_LAST
};

#define TWL_NUM_SLAVES		4
#define TWL_SLAVE_BASE_ADDR	0x48

/* PIH registers (offsets in TWL_MODULE_PIH). */
#define REG_PIH_ISR_P1		0x01
#define REG_PIH_ISR_P2		0x02
#define REG_PIH_SIR		0x03

/* PWR_INT SIH registers (offsets in TWL4030_MODULE_INT). */
#define TWL4030_INT_PWR_ISR1	0x00
#define TWL4030_INT_PWR_IMR1	0x01
#define TWL4030_INT_PWR_ISR2	0x02
#define TWL4030_INT_PWR_IMR2	0x03
#define TWL4030_INT_PWR_SIR	0x04
#define TWL4030_INT_PWR_EDR1	0x05
#define TWL4030_INT_PWR_EDR2	0x06
#define TWL4030_INT_PWR_SIH_CTRL 0x07
#define TWL4030_SIH_CTRL_EXCLEN_MASK	0x01
#define TWL4030_SIH_CTRL_PENDDIS_MASK	0x02
#define TWL4030_SIH_CTRL_COR_MASK	0x04

/* PM_MASTER (offsets in TWL_MODULE_PM_MASTER). */
#define TWL4030_PM_MASTER_STS_HW_CONDITIONS	0x0f
#define STS_HW_CONDITIONS_PWON	0x01	/* the power button, pressed */

/* PIH bit of each SIH module. */
#define TWL4030_PIH_PWR_INT	5
#define TWL4030_PWR_NR_IRQS	8

struct twl_core;

/* The adapter's TWL core, created on first use; NULL with errno (ENOMEM, EBUSY, ENODEV). */
struct twl_core *twl_core_get(struct uirq_i2c_adapter *adap);
/* Drop a reference; the last one unregisters the clients. */
void twl_core_put(struct twl_core *twl);
/* The dummy client that answers for a module. */
struct i2c_client *twl_module_client(struct twl_core *twl, enum twl_module mod);
/* The module's base address inside its slave. */
u8 twl_module_base(enum twl_module mod);

/* Read one register: 0 and *value, or -errno. */
#define twl_i2c_read_u8(twl, mod, value, reg) ({				\
	s32 __ret = i2c_smbus_read_byte_data(twl_module_client((twl), (mod)),	\
					     (u8)(twl_module_base(mod) + (reg))); \
	if (__ret >= 0)								\
		*(value) = (u8)__ret;						\
	__ret < 0 ? (int)__ret : 0;						\
})

/* Write one register: 0 or -errno. */
#define twl_i2c_write_u8(twl, mod, value, reg)					\
	((int)i2c_smbus_write_byte_data(twl_module_client((twl), (mod)),	\
					(u8)(twl_module_base(mod) + (reg)), (value)))

/* Read num consecutive registers: 0 or -errno (-EIO when short). */
#define twl_i2c_read(twl, mod, buf, reg, num) ({				\
	s32 __ret = i2c_smbus_read_i2c_block_data(twl_module_client((twl), (mod)), \
						  (u8)(twl_module_base(mod) + (reg)), (num), (buf)); \
	__ret < 0 ? (int)__ret : __ret != (num) ? -EIO : 0;			\
})

/* Write num consecutive registers: 0 or -errno. */
#define twl_i2c_write(twl, mod, buf, reg, num)					\
	((int)i2c_smbus_write_i2c_block_data(twl_module_client((twl), (mod)),	\
					     (u8)(twl_module_base(mod) + (reg)), (num), (buf)))

#endif

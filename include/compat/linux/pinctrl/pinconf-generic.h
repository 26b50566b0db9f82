/* SPDX-License-Identifier: MIT */
/*
 * Generic pin configurations, as gpio_chip.set_config() receives them
 * (gpiod_set_debounce() packs PIN_CONFIG_INPUT_DEBOUNCE with microseconds):
 * the kernel's parameter numbers and packing.
 */
#ifndef UIRQ_COMPAT_LINUX_PINCTRL_PINCONF_GENERIC_H
#define UIRQ_COMPAT_LINUX_PINCTRL_PINCONF_GENERIC_H

#include <linux/types.h>

enum pin_config_param {
	PIN_CONFIG_BIAS_BUS_HOLD,
	PIN_CONFIG_BIAS_DISABLE,
	PIN_CONFIG_BIAS_HIGH_IMPEDANCE,
	PIN_CONFIG_BIAS_PULL_DOWN,
	PIN_CONFIG_BIAS_PULL_PIN_DEFAULT,
	PIN_CONFIG_BIAS_PULL_UP,
	PIN_CONFIG_DRIVE_OPEN_DRAIN,
	PIN_CONFIG_DRIVE_OPEN_SOURCE,
	PIN_CONFIG_DRIVE_PUSH_PULL,
	PIN_CONFIG_DRIVE_STRENGTH,
	PIN_CONFIG_DRIVE_STRENGTH_UA,
	PIN_CONFIG_INPUT_DEBOUNCE,
	PIN_CONFIG_INPUT_ENABLE,
	PIN_CONFIG_INPUT_SCHMITT,
	PIN_CONFIG_INPUT_SCHMITT_ENABLE,
	PIN_CONFIG_MODE_LOW_POWER,
	PIN_CONFIG_MODE_PWM,
	PIN_CONFIG_OUTPUT,
	PIN_CONFIG_OUTPUT_ENABLE,
	PIN_CONFIG_OUTPUT_IMPEDANCE_OHMS,
	PIN_CONFIG_PERSIST_STATE,
	PIN_CONFIG_POWER_SOURCE,
	PIN_CONFIG_SKEW_DELAY,
	PIN_CONFIG_SLEEP_HARDWARE_STATE,
	PIN_CONFIG_SLEW_RATE,
	PIN_CONFIG_END = 0x7F,
	PIN_CONFIG_MAX = 0xFF,
};

#define PIN_CONF_PACKED(p, a)	((unsigned long)(a) << 8 | ((unsigned long)(p) & 0xffUL))

static inline enum pin_config_param pinconf_to_config_param(unsigned long config)
{
	return (enum pin_config_param)(config & 0xffUL);
}

static inline u32 pinconf_to_config_argument(unsigned long config)
{
	return (u32)((config >> 8) & 0xffffffUL);
}

static inline unsigned long pinconf_to_config_packed(enum pin_config_param param, u32 argument)
{
	return PIN_CONF_PACKED(param, argument);
}

#endif

/* SPDX-License-Identifier: MIT */
/* uirq-pwrbutton's command line: what to drive and where the button's level is. */
#ifndef UIRQ_PWRBUTTON_OPTIONS_H
#define UIRQ_PWRBUTTON_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "../wait-mode.h"

enum pwrbutton_output {
	OUTPUT_UINPUT,		/* a kernel input device through /dev/uinput */
	OUTPUT_STDOUT,		/* evtest's lines on stdout */
};

struct pwrbutton_opts {
	char uio[64];		/* "/dev/uioN" (--uio uioN too); found by the profile's PCI id when neither it nor vfio is given */
	const char *vfio;	/* a PCI device bound to vfio-pci (its address), or NULL */
	const char *profile;	/* a built-in device profile, or NULL */
	unsigned int bar;	/* the register window: PCI BAR or UIO map */
	unsigned int status_off, ack_off;
	const char *i2c;	/* the i2c-dev bus: /dev/i2c-N, N or the adapter's name */
	uint16_t addr;
	uint8_t reg;
	unsigned int bit;
	char gpio_chip[64];	/* --gpio CHIP:LINE: the button is a GPIO line (no UIO, no i2c); "" otherwise */
	unsigned int gpio_line;
	bool active_low;	/* the GPIO line is low while pressed */
	unsigned int debounce_us;	/* the kernel's debounce of the GPIO line, 0 for none */
	enum pwrbutton_output output;
	const char *name;	/* the input device's name */
	struct tool_wait wait;	/* --wait: uirq's CPU's and the handler thread's wait mode */
};

/*
 * Parse argv into o.  Returns -1 to go on, or an exit status: 0 after
 * --help or --version, 2 after a usage error (the message is printed).
 */
int pwrbutton_parse(int argc, char **argv, struct pwrbutton_opts *o);

#endif

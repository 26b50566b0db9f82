// SPDX-License-Identifier: MIT
/*
 * The built-in scenarios, written in the scenario format so that each one is
 * also an example of it (`irqsim --list-scenarios` prints them).
 */
#include <string.h>

#include "scenario.h"

const struct sc_builtin sc_builtins[] = {
	{ "default", "presses of 5 ms to 500 ms, a double click, one press too short to see",
	  "# Presses of several lengths, with gaps, as a hand would make them.\n"
	  "wait 10ms\n"
	  "hold 5ms\n"
	  "wait 30ms\n"
	  "hold 20ms\n"
	  "wait 30ms\n"
	  "hold 100ms\n"
	  "wait 30ms\n"
	  "hold 500ms\n"
	  "wait 30ms\n"
	  "# A double click: two short presses 60 ms apart.\n"
	  "hold 40ms\n"
	  "wait 60ms\n"
	  "hold 40ms\n"
	  "wait 30ms\n"
	  "# Shorter than the three status reads (~120 us of wire at 2.6 MHz): the\n"
	  "# driver reads the button already up and the input core drops the report.\n"
	  "hold 20us\n"
	  "wait 30ms\n"
	  "hold 10ms\n"
	  "wait 20ms\n" },
	{ "short-presses", "presses from 2 ms down to 10 us: where delivery stops",
	  "hold 2ms\n"
	  "wait 20ms\n"
	  "hold 1ms\n"
	  "wait 20ms\n"
	  "hold 500us\n"
	  "wait 20ms\n"
	  "hold 200us\n"
	  "wait 20ms\n"
	  "hold 100us\n"
	  "wait 20ms\n"
	  "hold 50us\n"
	  "wait 20ms\n"
	  "hold 20us\n"
	  "wait 20ms\n"
	  "hold 10us\n"
	  "wait 20ms\n" },
	{ "bounce", "contact chatter on press and release: edges merge, one event each way",
	  "press\n"
	  "bounce 4 100us    # four extra edges; the button ends down\n"
	  "wait 50ms\n"
	  "release\n"
	  "bounce 2 100us\n"
	  "wait 50ms\n"
	  "hold 20ms\n"
	  "wait 20ms\n" },
	{ "shared-line", "the seed cover letter's test: a primary-only and a threaded device on one level line",
	  "hold 20ms\n"
	  "wait 10ms\n"
	  "# INTC line 12, level, shared: 200 events on each device, 1 ms apart.\n"
	  "shared 12 200 1ms\n"
	  "wait 10ms\n"
	  "hold 20ms\n"
	  "wait 20ms\n" },
	{ "storm", "110000 spurious edges on a line nobody claims: the core disables it, the button still works",
	  "hold 20ms\n"
	  "wait 10ms\n"
	  "storm 13 110000\n"
	  "wait 20ms\n"
	  "hold 20ms\n"
	  "wait 20ms\n" },
	{ "i2c-faults", "NAK, I/O errors, added delay and a stuck bus: each logged, the next press works",
	  "i2c-fault nak        # the next transfer: the PIH read of this press\n"
	  "hold 20ms\n"
	  "wait 20ms\n"
	  "i2c-fault error 2\n"
	  "hold 20ms\n"
	  "wait 20ms\n"
	  "i2c-fault delay 300us\n"
	  "hold 20ms\n"
	  "wait 20ms\n"
	  "i2c-fault clear\n"
	  "i2c-fault timeout    # the bus hangs: 1 s adapter timeout\n"
	  "hold 20ms\n"
	  "wait 1100ms\n"
	  "hold 20ms\n"
	  "wait 20ms\n" },
};

const size_t sc_nr_builtins = sizeof(sc_builtins) / sizeof(sc_builtins[0]);

const struct sc_builtin *scenario_builtin(const char *name)
{
	for (size_t i = 0; i < sc_nr_builtins; i++)
		if (!strcmp(sc_builtins[i].name, name))
			return &sc_builtins[i];
	return NULL;
}

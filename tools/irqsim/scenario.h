/* SPDX-License-Identifier: MIT */
/*
 * irqsim scenarios: a line-oriented list of timed actions (docs/irqsim.1,
 * "SCENARIO FORMAT").  The parser knows nothing of the board, so it can be
 * tested alone; it checks everything that can be checked from the text, so
 * that a run never starts on a scenario that would fail half-way.
 */
#ifndef IRQSIM_SCENARIO_H
#define IRQSIM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SC_MAX_LINE		255	/* characters on a line, newline excluded */
#define SC_MAX_ACTIONS		10000
#define SC_MAX_DURATION_NS	(10ull * 1000000000ull)	/* one wait, hold or interval */
#define SC_MAX_INTERVAL_NS	(10ull * 1000000ull)	/* between a bounce's, storm's or shared's edges */
#define SC_MAX_DELAY_NS		(100ull * 1000000ull)	/* i2c-fault delay */
#define SC_MAX_TOTAL_NS		(60ull * 1000000000ull)	/* the whole scenario's planned time */
#define SC_INTC_LINES		32u	/* host controller inputs of the default board */
#define SC_TWL_LINE		7u	/* the TWL4030's INT1: not free for storms */
#define SC_MAX_BOUNCE		1000u
#define SC_MAX_STORM		1000000u
#define SC_MAX_SHARED		100000u
#define SC_MAX_FAULTS		100u
#define SC_MAX_TIMEOUTS		5u	/* each waits the adapter timeout (1 s) */

enum sc_verb {
	SC_PRESS,	/* button down; with hold_ns, up again after it */
	SC_RELEASE,
	SC_BOUNCE,	/* count alternating edges, interval_ns apart */
	SC_STORM,	/* count spurious edges on an INTC line */
	SC_SHARED,	/* count events on each of two devices sharing a line */
	SC_I2C_FAULT,
	SC_WAIT,
	SC_UNBIND,	/* a driver unbound, as by writing its device to .../drivers/NAME/unbind */
	SC_BIND,	/* ... and bound again (.../drivers/NAME/bind): probed anew */
};

/* The drivers bind and unbind name (the kernel's driver names, as in /sys/bus/platform/drivers). */
enum sc_driver {
	SC_DRV_PWRBUTTON,	/* twl4030_pwrbutton: the power button's input driver */
	SC_DRV_TWL4030,		/* twl4030: the interrupt core; unbinding it removes the button first */
	SC_NR_DRIVERS,
};
extern const char *const sc_driver_names[SC_NR_DRIVERS];

enum sc_fault {
	SC_FAULT_NAK,		/* -ENXIO: no ACK on the address */
	SC_FAULT_ERROR,		/* -EIO */
	SC_FAULT_TIMEOUT,	/* stuck bus: the adapter timeout, then -ETIMEDOUT */
	SC_FAULT_DELAY,		/* added controller latency on every transfer */
	SC_FAULT_CLEAR,
};

struct sc_action {
	enum sc_verb verb;
	unsigned int src_line;		/* 1-based line in the scenario text */
	uint64_t hold_ns;		/* SC_PRESS: 0 = stay down */
	uint64_t interval_ns;		/* BOUNCE, STORM, SHARED: 0 = back to back */
	uint64_t duration_ns;		/* WAIT; FAULT_DELAY: the delay */
	unsigned int count;		/* BOUNCE, STORM, SHARED, faults */
	unsigned int line;		/* STORM, SHARED: INTC input */
	enum sc_fault fault;
	enum sc_driver driver;		/* UNBIND, BIND */
};

struct scenario {
	char name[64];			/* file name or built-in name, for messages */
	struct sc_action *actions;
	size_t n;
	uint64_t planned_ns;		/* sum of the waits the scenario asks for */
};

/*
 * Parse text (NUL-terminated) into sc.  On error returns -1 with
 * "NAME:LINE:COL: expected ..." in err; sc is left empty.
 */
int scenario_parse(const char *name, const char *text, struct scenario *sc, char *err, size_t errlen);
/* Read a file and parse it; a read error is reported as "NAME: strerror". */
int scenario_load(const char *path, struct scenario *sc, char *err, size_t errlen);
/* Free the actions. */
void scenario_free(struct scenario *sc);

/* Built-in scenarios, in the scenario format itself. */
struct sc_builtin {
	const char *name;
	const char *summary;
	const char *text;
};
extern const struct sc_builtin sc_builtins[];
extern const size_t sc_nr_builtins;
/* The built-in named name, or NULL. */
const struct sc_builtin *scenario_builtin(const char *name);

/* Parse "5ms", "200us", "1.5s", "250ns" into ns; 0 on success, -1 if malformed. */
int scenario_parse_duration(const char *s, size_t len, uint64_t *ns);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * A Zeitec ZET6223 touch controller model (devices/zet6223.c) on the
 * simulated i2c bus, its INT output on a swirq input.  Zeitec's datasheet
 * is not public; what the model answers is what the chip's drivers read,
 * taken as facts - the kernel's zet6223.c and the binding
 * (zeitec,zet6223: address 0x76, INT active low, falling edge) and the
 * vendor's driver for the report layout:
 *
 *  - a write of command 0xB2 makes the next read return the 17-byte
 *    panel information: bytes 8-9 and 10-11 the X and Y resolution (little
 *    endian), byte 15 the number of fingers (bit 7 is not part of it);
 *  - otherwise a plain read (no register byte) returns the latest touch
 *    report: 0x3C, a 16-bit big-endian finger mask (finger i is bit 15 - i),
 *    then 4 bytes per finger i at 3 + 4 * i: X bits 11..8 in the high
 *    nibble and Y bits 11..8 in the low one, X bits 7..0, Y bits 7..0, and
 *    a pressure byte;
 *  - INT goes low when a scan has a report ready and high again once the
 *    host has read it; a scan while the previous report is still unread
 *    replaces it (the host reads the newest) and strobes INT, a new
 *    falling edge.  Zeitec publishes no INT timing; the binding's
 *    falling-edge trigger needs an edge per report, or a host that once
 *    failed to read would never hear of another.
 *
 * Private to devices/ and the tests (not installed).
 */
#ifndef UIRQ_DEVICES_ZET6223_H
#define UIRQ_DEVICES_ZET6223_H

#include <stdbool.h>
#include <stdint.h>

#include "uirq/i2c.h"
#include "uirq/sources.h"

#define ZET6223_ADDR		0x76
#define ZET6223_MAX_FINGERS	16
#define ZET6223_CMD_INFO	0xB2
#define ZET6223_INFO_LEN	17
#define ZET6223_PACKET_ID	0x3C
#define ZET6223_REPORT_LEN(fingers)	(3 + 4 * (fingers))

/* One finger of a scan. */
struct zet6223_touch {
	bool down;
	uint16_t x, y;		/* 12 bits each */
	uint8_t pressure;
};

struct zet6223;

/*
 * A controller at addr on sim reporting fingers fingers (1 .. 16) on a
 * max_x by max_y panel, INT on intc's input line: 0 and *out, -EINVAL,
 * -ENOMEM, or the bus's -EBUSY (the address is taken).
 */
int zet6223_create(struct uirq_i2c_sim *sim, uint16_t addr, unsigned int fingers, uint16_t max_x,
		   uint16_t max_y, struct uirq_swirq *intc, unsigned int line, struct zet6223 **out);
/* Off the bus (after a transfer in flight) and freed. */
void zet6223_destroy(struct zet6223 *z);
/* A scan with touches[0 .. n - 1] as fingers 0 .. n - 1 (the others up): its report is ready, INT low (strobed if it was). */
void zet6223_scan(struct zet6223 *z, const struct zet6223_touch *touches, unsigned int n);
/* INT is low: a report waits for the host. */
bool zet6223_int_asserted(struct zet6223 *z);
/* Touch reports the host has read so far. */
unsigned long zet6223_reports_read(struct zet6223 *z);

#endif

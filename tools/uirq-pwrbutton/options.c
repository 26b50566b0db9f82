// SPDX-License-Identifier: MIT
/*
 * uirq-pwrbutton's command line.  A profile names a device whose register
 * layout is known (QEMU's edu), so the daemon finds its /dev/uioN by PCI
 * id; explicit options override the profile's values.  --vfio takes the
 * device through vfio-pci instead (its address: VFIO has no class of
 * devices to search).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pci-find.h"
#include "options.h"
#include "uirq/sources.h"

#define PROG "uirq-pwrbutton"

struct profile {
	const char *name;
	unsigned int vendor, device;	/* PCI id */
	unsigned int bar, status_off, ack_off;
	const char *what;
};

static const struct profile profiles[] = {
	/* edu: interrupt status 0x24, raise 0x60, acknowledge 0x64, all in BAR 0. */
	{ "edu", 0x1234, 0x11e8, 0, 0x24, 0x64, "QEMU's edu PCI device (1234:11e8)" },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [--profile NAME | --uio DEV --status OFF --ack OFF] [--vfio PCIDEV] [--bar N]\n"
		"                      --i2c BUS [--addr ADDR] [--reg REG] [--bit N]\n"
		"                      [--output uinput|stdout] [--name NAME] [--wait MODE]\n"
		"       " PROG " --gpio CHIP:LINE [--active-low] [--debounce US]\n"
		"                      [--output uinput|stdout] [--name NAME] [--wait MODE]\n"
		"\n"
		"A user-space power-button driver: a threaded ONESHOT interrupt on a UIO or\n"
		"VFIO device (the primary handler checks and acknowledges the device's interrupt\n"
		"status register), the button's level read over i2c-dev in the handler\n"
		"thread, KEY_POWER reported through uinput.  With --gpio the button is a GPIO\n"
		"line whose edges (both kinds) are the interrupt and the key's state.\n"
		"SIGTERM or SIGINT stops it.\n"
		"\n"
		"  --profile NAME    a known device; finds its /dev/uioN by PCI id (default edu):\n");
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		fprintf(f, "                      %-6s %s, status 0x%x, ack 0x%x, BAR %u\n", profiles[i].name,
			profiles[i].what, profiles[i].status_off, profiles[i].ack_off, profiles[i].bar);
	fprintf(f,
		"  --uio DEV         the UIO device, /dev/uioN or uioN\n"
		"  --vfio PCIDEV     the PCI device bound to vfio-pci instead, e.g. 0000:00:04.0:\n"
		"                    its MSI (INTx if it has none)\n"
		"  --bar N           the register window: PCI BAR N or UIO map N (default 0)\n"
		"  --status OFF      offset of the 32-bit interrupt status register\n"
		"  --ack OFF         offset of the 32-bit acknowledge register (the status is written to it)\n"
		"  --i2c BUS         the i2c bus: /dev/i2c-N, N or the adapter's name\n"
		"  --addr ADDR       the status chip's 7-bit address (default 0x4b, TWL4030 PM_MASTER)\n"
		"  --reg REG         the register with the button's level (default 0x45, STS_HW_CONDITIONS)\n"
		"  --bit N           the level's bit (default 0, STS_PWON)\n"
		"  --gpio CHIP:LINE  the button is line LINE of GPIO chip CHIP (/dev/gpiochipN,\n"
		"                    gpiochipN or N): rising edge press, falling edge release\n"
		"  --active-low      with --gpio: the line is low while pressed\n"
		"  --debounce US     with --gpio: the kernel debounces the line for US microseconds\n"
		"  --output OUT      uinput (default): a kernel input device; stdout: evtest's lines\n"
		"  --name NAME       the input device's name (default uirq-pwrbutton)\n"
		"  --wait MODE       how uirq's CPU and the handler thread wait for the interrupt:\n"
		"                    " TOOL_WAIT_HELP "\n"
		"  --help, --version\n");
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n" PROG ": try --help\n");
	return 2;
}

/* A number in C notation within [0, max]; -1 otherwise. */
static long number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (!*s || *end || errno || v < 0 || v > max)
		return -1;
	return v;
}

/* "CHIP:LINE" (the last colon splits: a path may hold none) into o; 0 or -1. */
static int parse_gpio(const char *arg, struct pwrbutton_opts *o)
{
	const char *colon = strrchr(arg, ':');
	long line;

	if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof(o->gpio_chip))
		return -1;
	line = number(colon + 1, 0xffff);
	if (line < 0)
		return -1;
	memcpy(o->gpio_chip, arg, (size_t)(colon - arg));
	o->gpio_chip[colon - arg] = '\0';
	o->gpio_line = (unsigned int)line;
	return 0;
}

static const struct option longopts[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "uio", required_argument, NULL, 'u' },
	{ "vfio", required_argument, NULL, 'v' },
	{ "bar", required_argument, NULL, 'B' },
	{ "status", required_argument, NULL, 's' },
	{ "ack", required_argument, NULL, 'k' },
	{ "i2c", required_argument, NULL, 'i' },
	{ "addr", required_argument, NULL, 'a' },
	{ "reg", required_argument, NULL, 'r' },
	{ "bit", required_argument, NULL, 'b' },
	{ "gpio", required_argument, NULL, 'g' },
	{ "active-low", no_argument, NULL, 'L' },
	{ "debounce", required_argument, NULL, 'D' },
	{ "output", required_argument, NULL, 'o' },
	{ "name", required_argument, NULL, 'n' },
	{ "wait", required_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

/* The options of one form only: the interrupt and level of a UIO or VFIO device and an i2c chip, or a GPIO line. */
static const char device_only[] = "puvBskiarb", gpio_only[] = "LD";

/* The first option of list that was given, by its name; NULL if none was. */
static const char *given(const bool *seen, const char *list)
{
	for (; *list; list++)
		if (seen[(unsigned char)*list])
			for (const struct option *opt = longopts; opt->name; opt++)
				if (opt->val == *list)
					return opt->name;
	return NULL;
}

/* Options given that the chosen form has no use for: a usage error naming the first, not silence. */
static int unused_options(const bool *seen, const struct pwrbutton_opts *o)
{
	const char *name;

	if (o->gpio_chip[0] && (name = given(seen, device_only)))
		return bad("--%s does not apply with --gpio: the GPIO line is both the interrupt and the level", name);
	if (!o->gpio_chip[0] && (name = given(seen, gpio_only)))
		return bad("--%s applies to a GPIO line only (--gpio)", name);
	if (o->output == OUTPUT_STDOUT && seen['n'])
		return bad("%s", "--name names the uinput device: it does not apply with --output stdout");
	return 0;
}

int pwrbutton_parse(int argc, char **argv, struct pwrbutton_opts *o)
{
	long status = -1, ack = -1, bar = -1, v;
	const struct profile *prof = NULL;
	bool seen[128] = { false };
	int c;

	memset(o, 0, sizeof(*o));
	o->addr = 0x4b;
	o->reg = 0x45;
	o->name = PROG;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c > 0 && c < 128)
			seen[c] = true;
		switch (c) {
		case 'p':
			o->profile = optarg;
			break;
		case 'u':
			/* The node, so that messages name the file tried. */
			if (uirq_uio_path(optarg, o->uio, sizeof(o->uio)))
				return bad("--uio %s: not a UIO device: expected /dev/uioN or uioN", optarg);
			break;
		case 'v':
			if (!pci_address(optarg))
				return bad("--vfio %s: not a PCI device address: expected DDDD:BB:DD.F in hex "
					   "(domain, bus, device, function; e.g. 0000:00:04.0, as lspci -D shows it)", optarg);
			o->vfio = optarg;
			break;
		case 'B':
			if ((bar = number(optarg, 5)) < 0)
				return bad("--bar %s: not a region number 0..5", optarg);
			break;
		case 's':
		case 'k':
			/* 32-bit registers: aligned, inside a window a page or more long. */
			if ((v = number(optarg, 0xfffffffc)) < 0 || (v & 3))
				return bad(c == 's' ? "--status %s: not an aligned 32-bit register offset"
						    : "--ack %s: not an aligned 32-bit register offset", optarg);
			*(c == 's' ? &status : &ack) = v;
			break;
		case 'i':
			o->i2c = optarg;
			break;
		case 'a':
			if ((v = number(optarg, 0x7f)) < 0x03 || v > 0x77)
				return bad("--addr %s: not a 7-bit i2c address (0x03..0x77)", optarg);
			o->addr = (uint16_t)v;
			break;
		case 'r':
			if ((v = number(optarg, 0xff)) < 0)
				return bad("--reg %s: not a register number 0..0xff", optarg);
			o->reg = (uint8_t)v;
			break;
		case 'b':
			if ((v = number(optarg, 7)) < 0)
				return bad("--bit %s: not a bit number 0..7", optarg);
			o->bit = (unsigned int)v;
			break;
		case 'g':
			if (parse_gpio(optarg, o))
				return bad("--gpio %s: expected CHIP:LINE, e.g. gpiochip0:5", optarg);
			break;
		case 'L':
			o->active_low = true;
			break;
		case 'D':
			if ((v = number(optarg, 1000000)) < 0)
				return bad("--debounce %s: not a period in microseconds 0..1000000", optarg);
			o->debounce_us = (unsigned int)v;
			break;
		case 'w':
			if (tool_wait_parse(optarg, &o->wait))
				return bad("--wait %s: expected " TOOL_WAIT_HELP, optarg);
			break;
		case 'o':
			if (!strcmp(optarg, "uinput"))
				o->output = OUTPUT_UINPUT;
			else if (!strcmp(optarg, "stdout"))
				o->output = OUTPUT_STDOUT;
			else
				return bad("--output %s: uinput or stdout", optarg);
			break;
		case 'n':
			o->name = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf(PROG " " UIRQ_VERSION "\n");
			return 0;
		default:
			return bad("%s: unknown option or missing argument", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("%s: unexpected argument", argv[optind]);
	if ((c = unused_options(seen, o)))
		return c;
	if (o->gpio_chip[0])
		return -1;
	if (!o->i2c)
		return bad("%s", "--i2c BUS is required: the bus of the chip holding the button's level");
	if (o->uio[0] && o->vfio)
		return bad("%s", "--uio and --vfio: one device, please");
	if (!o->profile && !o->uio[0] && !o->vfio)
		o->profile = "edu";
	if (o->profile) {
		for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
			if (!strcmp(profiles[i].name, o->profile))
				prof = &profiles[i];
		if (!prof)
			return bad("--profile %s: unknown (see --help)", o->profile);
		o->bar = prof->bar;
		o->status_off = prof->status_off;
		o->ack_off = prof->ack_off;
	}
	if (!prof && (status < 0 || ack < 0))
		return bad("%s", "--uio or --vfio without a profile needs --status and --ack");
	if (bar >= 0)
		o->bar = (unsigned int)bar;
	if (status >= 0)
		o->status_off = (unsigned int)status;
	if (ack >= 0)
		o->ack_off = (unsigned int)ack;
	if (!o->uio[0] && !o->vfio && pci_find_uio(prof->vendor, prof->device, o->uio, sizeof(o->uio))) {
		fprintf(stderr, PROG ": no UIO device for %s: bind it to a UIO driver, e.g.\n"
			PROG ":   echo \"%04x %04x\" > /sys/bus/pci/drivers/uio_pci_generic/new_id\n",
			prof->what, prof->vendor, prof->device);
		return 1;
	}
	return -1;
}

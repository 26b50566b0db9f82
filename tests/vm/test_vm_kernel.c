// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: the guest kernel really offers what the UIO, i2c-dev,
 * uinput and pwrbutton code relies on - the edu device behind uio_pci_generic
 * with a working INTx cycle, i2c-stub at 0x4b through i2c-dev, and uinput
 * devices that evdev turns into /dev/input/eventN nodes.
 */
#include "harness.h"
#include "vm-hw.h"

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UIO_SYS "/sys/class/uio/uio0"
#define PCI_COMMAND_OFF 4
#define INTX_DISABLE (1u << 10)
#define STUB_ADDR 0x4b

static volatile uint32_t *edu_map(void)
{
	volatile uint32_t *bar = vm_edu_bar();

	assert_not_null(bar, "edu BAR 0: %s", strerror(errno));
	return bar;
}

/* uio_pci_generic masks INTx in the command register on every interrupt; userspace unmasks. */
static void intx_enable(void)
{
	int fd = open(UIO_SYS "/device/config", O_RDWR);
	uint16_t cmd;

	assert_ge(fd, 0, "config: %s", strerror(errno));
	assert_eq(pread(fd, &cmd, 2, PCI_COMMAND_OFF), 2);
	cmd &= (uint16_t)~INTX_DISABLE;
	assert_eq(pwrite(fd, &cmd, 2, PCI_COMMAND_OFF), 2);
	close(fd);
}

/* Raise the edu interrupt and wait for uio's count; acknowledging clears the status. */
static uint32_t edu_interrupt(int uio, volatile uint32_t *bar)
{
	struct pollfd p = { .fd = uio, .events = POLLIN };
	uint32_t count = 0;

	intx_enable();
	bar[EDU_IRQ_RAISE / 4] = 1;
	assert_eq(poll(&p, 1, 20000), 1, "no interrupt on /dev/uio0");
	assert_eq(read(uio, &count, sizeof(count)), (ssize_t)sizeof(count));
	assert_eq(bar[EDU_IRQ_STATUS / 4], 1u);
	bar[EDU_IRQ_ACK / 4] = 1;
	assert_eq(bar[EDU_IRQ_STATUS / 4], 0u);
	return count;
}

UIRQ_TEST(vm_uio, dev_node_exists, .timeout = 30)
{
	struct stat st;

	assert_eq(stat("/dev/uio0", &st), 0, "/dev/uio0: %s", strerror(errno));
	assert_true(S_ISCHR(st.st_mode));
}

UIRQ_TEST(vm_uio, driver_is_uio_pci_generic, .timeout = 30)
{
	char name[64] = "";
	FILE *f = fopen(UIO_SYS "/name", "r");

	assert_not_null(f);
	assert_not_null(fgets(name, sizeof(name), f));
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	assert_str_eq(name, "uio_pci_generic");
}

UIRQ_TEST(vm_uio, bar0_reads_edu_id, .timeout = 30)
{
	volatile uint32_t *bar = edu_map();

	assert_eq(bar[EDU_ID / 4], 0x010000edu, "id %#x", bar[EDU_ID / 4]);
}

UIRQ_TEST(vm_uio, interrupt_counts_after_intx_reenable, .timeout = 60)
{
	int uio = open("/dev/uio0", O_RDWR);
	volatile uint32_t *bar = edu_map();

	assert_ge(uio, 0, "/dev/uio0: %s", strerror(errno));
	uint32_t first = edu_interrupt(uio, bar);
	uint32_t second = edu_interrupt(uio, bar);

	assert_ge(first, 1u);
	assert_eq(second, first + 1, "count %u after %u", second, first);
}

static int stub_open(int addr)
{
	int fd = vm_i2c_open(VM_STUB_NAME, addr);

	assert_ge(fd, 0, "i2c-stub: %s", strerror(-fd));
	return fd;
}

UIRQ_TEST(vm_i2c, stub_adapter_found_by_name, .timeout = 30)
{
	assert_ge(vm_i2c_bus(VM_STUB_NAME), 0);
}

UIRQ_TEST(vm_i2c, byte_data_round_trips, .timeout = 30)
{
	int fd = stub_open(STUB_ADDR);

	assert_eq(i2c_smbus_write_byte_data(fd, 0x10, 0x5a), 0);
	assert_eq(i2c_smbus_write_byte_data(fd, 0x11, 0xa5), 0);
	assert_eq(i2c_smbus_read_byte_data(fd, 0x10), 0x5a);
	assert_eq(i2c_smbus_read_byte_data(fd, 0x11), 0xa5);
	close(fd);
}

/*
 * A real adapter reports a NACKed address as -ENXIO; i2c-stub has no bus to NACK
 * on and reports an address without a chip as -ENODEV (measured on 6.1).
 */
UIRQ_TEST(vm_i2c, absent_address_is_enodev, .timeout = 30)
{
	int fd = stub_open(0x20);

	int r = i2c_smbus_read_byte_data(fd, 0x00);

	assert_eq(r, -ENODEV, "read gave %d (%s)", r, strerror(-r));
	close(fd);
}

UIRQ_TEST(vm_input, uinput_opens, .timeout = 30)
{
	int fd = open("/dev/uinput", O_RDWR);

	assert_ge(fd, 0, "/dev/uinput: %s", strerror(errno));
	close(fd);
}

UIRQ_TEST(vm_input, key_power_reaches_evdev, .timeout = 60)
{
	struct libevdev *proto = libevdev_new(), *ev = NULL;
	struct libevdev_uinput *ui = NULL;
	struct input_event e;
	const char *node;
	int fd = -1;

	libevdev_set_name(proto, "uirq vm smoke power button");
	assert_eq(libevdev_enable_event_code(proto, EV_KEY, KEY_POWER, NULL), 0);
	assert_eq(libevdev_uinput_create_from_device(proto, LIBEVDEV_UINPUT_OPEN_MANAGED, &ui), 0);
	node = libevdev_uinput_get_devnode(ui);
	assert_not_null(node, "no evdev node for the uinput device");
	assert_eq(strncmp(node, "/dev/input/event", 16), 0, "node %s", node);
	/* devtmpfs makes the node as evdev binds; allow it a moment under TCG. */
	for (int i = 0; i < 100 && fd < 0; i++) {
		fd = open(node, O_RDONLY);
		if (fd < 0)
			usleep(50000);
	}
	assert_ge(fd, 0, "%s: %s", node, strerror(errno));
	assert_eq(libevdev_new_from_fd(fd, &ev), 0);
	assert_true(libevdev_has_event_code(ev, EV_KEY, KEY_POWER));

	assert_eq(libevdev_uinput_write_event(ui, EV_KEY, KEY_POWER, 1), 0);
	assert_eq(libevdev_uinput_write_event(ui, EV_SYN, SYN_REPORT, 0), 0);
	assert_eq(libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL | LIBEVDEV_READ_FLAG_BLOCKING, &e),
		     LIBEVDEV_READ_STATUS_SUCCESS);
	assert_eq(e.type, EV_KEY);
	assert_eq(e.code, KEY_POWER);
	assert_eq(e.value, 1);
	assert_eq(libevdev_next_event(ev, LIBEVDEV_READ_FLAG_NORMAL | LIBEVDEV_READ_FLAG_BLOCKING, &e),
		     LIBEVDEV_READ_STATUS_SUCCESS);
	assert_eq(e.type, EV_SYN);
	assert_eq(e.code, SYN_REPORT);

	libevdev_free(ev);
	close(fd);
	libevdev_uinput_destroy(ui);
	libevdev_free(proto);
}

// SPDX-License-Identifier: MIT
/*
 * uio and vfio: QEMU's edu device (1234:11e8), the one PCI device whose
 * interrupt a program can raise on purpose - a write to its "raise"
 * register - and so measure from the raise.  Its status register says what
 * was raised; the taker acknowledges it (INTx drops at 0).
 *
 * uio: edu behind uio_pci_generic, its INTx.  uirq's UIO line re-enables
 * the interrupt when its flow unmasks; the baseline polls /dev/uioN, reads
 * the count, acknowledges, re-enables with a write of 1 (irqcontrol).
 * vfio: edu bound to vfio-pci, its MSI.  uirq's leg opens the device and
 * enables its MSI as a line; the baseline opens it the same way (setup, not
 * measured) and connects an eventfd of its own (VFIO_DEVICE_SET_IRQS),
 * polled with epoll.  Each leg opens and closes the device: a trigger stays
 * connected for as long as the device is open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../pci-find.h"
#include "sources.h"
#include "uirq/sources.h"

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8
#define EDU_IRQ_STATUS	0x24	/* the raised bits */
#define EDU_IRQ_RAISE	0x60	/* write: OR the value into the status and interrupt */
#define EDU_IRQ_ACK	0x64	/* write: clear those bits */

/*
 * uio_pci_generic has no irqcontrol (a write to /dev/uioN is ENOSYS): its
 * handler sets the command register's INTx Disable bit, and the program
 * clears it through the device's config space.  0 or -errno.
 */
#define PCI_COMMAND_INTX_DISABLE (1u << 10)

static int uio_reenable(struct source *s)
{
	uint16_t cmd;

	if (pread(s->uio_fd, &cmd, 2, 4) != 2)
		return -errno;
	cmd &= (uint16_t)~PCI_COMMAND_INTX_DISABLE;
	return pwrite(s->uio_fd, &cmd, 2, 4) == 2 ? 0 : -errno;
}

static void edu_ack(struct source *s, bool baseline)
{
	uint32_t status = s->bar[EDU_IRQ_STATUS / 4];

	if (status)
		s->bar[EDU_IRQ_ACK / 4] = status;
	if (baseline && s->o->source == SRC_UIO) {
		uint32_t count;

		/* the count (nothing to do with it), then the interrupt on again */
		if (read(s->fd, &count, sizeof(count)) < 0 || uio_reenable(s))
			abort();
	} else if (baseline) {
		uint64_t v;

		if (read(s->fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			abort();
	}
}

static int edu_raise(struct source *s, struct run *r, bool baseline)
{
	(void)baseline;
	atomic_store(&r->t0, lat_now());
	s->bar[EDU_IRQ_RAISE / 4] = 1;
	return 0;
}

/* ---- uio ---- */

static int uio_line(struct source *s, unsigned int *irq)
{
	return src_line_made(uirq_uio_line_create(s->path, 0, &s->line), irq);
}

static int uio_fd(struct source *s)
{
	int err;

	s->fd = open(s->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	if ((err = uio_reenable(s))) {
		close(s->fd);
		return err;
	}
	return s->fd;
}

static void uio_close(struct source *s)
{
	munmap((void *)s->bar, 4096);
	close(s->uio_fd);
}

static const struct source_ops uio_ops = {
	.line = uio_line, .line_done = src_line_done, .fd = uio_fd, .fd_done = src_fd_done,
	.ack = edu_ack, .raise = edu_raise, .close = uio_close,
};

/* ---- vfio ---- */

static int vfio_setup(struct source *s)
{
	volatile void *bar;
	size_t size;
	int err = uirq_vfio_open(s->path, &s->vfio);

	if (err)
		return err;
	if ((err = uirq_vfio_map(s->vfio, 0, &bar, &size))) {
		uirq_vfio_close(s->vfio);
		return err;
	}
	s->bar = bar;
	return 0;
}

static int vfio_line(struct source *s, unsigned int *irq)
{
	int err = vfio_setup(s), ret;

	if (err)
		return err;
	if ((err = uirq_vfio_msi_enable(s->vfio, UIRQ_VFIO_MSI, 1, NULL)) ||
	    (ret = uirq_vfio_msi_line(s->vfio, 0, &s->line)) < 0) {
		uirq_vfio_close(s->vfio);
		return err ? err : ret;
	}
	*irq = (unsigned int)ret;
	return 0;
}

static void vfio_done(struct source *s)
{
	uirq_vfio_close(s->vfio);
	s->vfio = NULL;
	s->line = NULL;
}

/* VFIO_DEVICE_SET_IRQS: the MSI's trigger to fd, or (fd < 0) none. */
static int set_msi(int dev, int fd)
{
	struct {
		struct vfio_irq_set s;
		int32_t fd;
	} a = { .s = { .argsz = sizeof(a), .index = VFIO_PCI_MSI_IRQ_INDEX, .count = fd >= 0 } };

	a.s.flags = VFIO_IRQ_SET_ACTION_TRIGGER | (fd >= 0 ? VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE);
	a.fd = fd;
	return ioctl(dev, VFIO_DEVICE_SET_IRQS, &a) ? -errno : 0;
}

static int vfio_fd(struct source *s)
{
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = VFIO_PCI_CONFIG_REGION_INDEX };
	int err = vfio_setup(s), dev;
	uint16_t cmd;

	if (err)
		return err;
	dev = uirq_vfio_device_fd(s->vfio);
	/* An MSI is a memory write by the device: bus mastering on (bit 2 of the command register). */
	if (ioctl(dev, VFIO_DEVICE_GET_REGION_INFO, &ri) || pread(dev, &cmd, 2, (off_t)ri.offset + 4) != 2)
		goto fail;
	cmd |= 4;
	if (pwrite(dev, &cmd, 2, (off_t)ri.offset + 4) != 2)
		goto fail;
	s->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->fd < 0)
		goto fail;
	if ((err = set_msi(dev, s->fd))) {
		close(s->fd);
		uirq_vfio_close(s->vfio);
		return err;
	}
	return s->fd;
fail:
	err = -errno;
	uirq_vfio_close(s->vfio);
	return err;
}

static void vfio_fd_done(struct source *s)
{
	set_msi(uirq_vfio_device_fd(s->vfio), -1);
	close(s->fd);
	s->fd = -1;
	vfio_done(s);
}

static const struct source_ops vfio_ops = {
	.line = vfio_line, .line_done = vfio_done, .fd = vfio_fd, .fd_done = vfio_fd_done,
	.ack = edu_ack, .raise = edu_raise,
};

int edu_open(struct source *s, const char **why)
{
	if (s->o->source == SRC_VFIO) {
		s->ops = &vfio_ops;
		if (s->o->device) {
			if (!pci_address(s->o->device)) {
				*why = "--device: a PCI address, DDDD:BB:DD.F (as lspci -D prints it)";
				return -EINVAL;
			}
			snprintf(s->path, sizeof(s->path), "%s", s->o->device);
		} else if (pci_find_vfio(EDU_VENDOR, EDU_DEVICE, s->path, sizeof(s->path))) {
			*why = "no edu device (1234:11e8) bound to vfio-pci; --device names one";
			return -ENODEV;
		}
		return 0;
	}
	s->ops = &uio_ops;
	if (s->o->device)
		snprintf(s->path, sizeof(s->path), "%s%s", strncmp(s->o->device, "/dev/", 5) ? "/dev/" : "",
			 s->o->device);
	else if (pci_find_uio(EDU_VENDOR, EDU_DEVICE, s->path, sizeof(s->path))) {
		*why = "no edu device (1234:11e8) behind uio_pci_generic; --device names one";
		return -ENODEV;
	}
	/* The BAR and the config space through sysfs: both legs use them, uirq's line and the baseline alike. */
	char res[300];
	int fd, err;

	snprintf(res, sizeof(res), "/sys/class/uio/%s/device/resource0", strrchr(s->path, '/') + 1);
	fd = open(res, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		*why = "its BAR 0 (sysfs resource0) does not open";
		return -errno;
	}
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	err = -errno;
	close(fd);
	if (p == MAP_FAILED) {
		*why = "its BAR 0 does not map";
		return err;
	}
	snprintf(res, sizeof(res), "/sys/class/uio/%s/device/config", strrchr(s->path, '/') + 1);
	s->uio_fd = open(res, O_RDWR | O_CLOEXEC);
	if (s->uio_fd < 0) {
		err = -errno;
		munmap(p, 4096);
		*why = "its PCI config space (sysfs config) does not open";
		return err;
	}
	s->bar = p;
	return 0;
}

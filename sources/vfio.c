// SPDX-License-Identifier: MIT
/*
 * VFIO lines: a PCI device handed to user space by vfio-pci, its MSI or
 * MSI-X vectors and its INTx as interrupt lines, the way user-space
 * drivers (DPDK, SPDK, QEMU) take interrupts today.
 *
 * The device is opened the type1 way: a container (/dev/vfio/vfio) with
 * the VFIO_TYPE1v2_IOMMU model, the device's IOMMU group attached to it,
 * then the device fd from the group.  Regions (BARs, config space) are
 * windows of the device fd whose offsets the region info gives.
 *
 * Interrupts are eventfds that VFIO_DEVICE_SET_IRQS connects:
 *  - MSI / MSI-X: one eventfd per vector, signalled by the kernel's
 *    handler of that vector.  The ack (reading the counter) is all an MSI
 *    needs, so the vectors are edge lines of a oneshot-safe chip, in an
 *    irq domain of the device (hwirq = vector).  The triggers stay
 *    connected from enable to close: removing one vector's trigger has the
 *    kernel free and deactivate the vector, which points the device's MSI
 *    at address 0, and the device's next MSI is a DMA fault (measured:
 *    QEMU's intel-iommu reports a translation failure at iova 0).  An MSI
 *    that arrives while the line is freed is latched by the core (pending)
 *    and delivered at the next request, as a kernel's masked MSI is.
 *  - INTx: one trigger eventfd, and VFIO masks INTx when it signals
 *    (automasked), as uio_pci_generic does.  Reading the counter does not
 *    quiet the device, so it is a level line and not oneshot-safe: unmask
 *    writes the unmask eventfd (VFIO then signals again, from a work item,
 *    if the device still asserts: a signal left unread before it is the
 *    same interrupt and is dropped), shutdown masks INTx with
 *    VFIO_IRQ_SET_ACTION_MASK.
 * MSI needs bus mastering (QEMU drops the message otherwise): it is switched
 * on in the config space when the vectors are enabled, off again at close.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/vfio.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uirq/printk.h"
#include "uirq/sources.h"

#include "fdline.h"

#define PCI_DEVICES		"/sys/bus/pci/devices/"
#define PCI_COMMAND		4
#define PCI_COMMAND_MASTER	(1u << 2)
#define VFIO_NR_BARS		6

_Static_assert(UIRQ_VFIO_INTX == VFIO_PCI_INTX_IRQ_INDEX && UIRQ_VFIO_MSI == VFIO_PCI_MSI_IRQ_INDEX &&
		       UIRQ_VFIO_MSIX == VFIO_PCI_MSIX_IRQ_INDEX,
	       "the UIRQ_VFIO_* kinds are VFIO's irq indexes");

struct vfio_vec {
	struct uirq_vfio_dev *dev;
	unsigned int vector;
};

struct vfio_bar {
	void *addr;
	size_t size;
};

struct uirq_vfio_dev {
	char name[32];			/* the PCI address, for messages */
	int container, group, device;
	uint64_t config_off;		/* the config region's offset in the device fd */
	struct vfio_bar bars[VFIO_NR_BARS];
	int kind;			/* UIRQ_VFIO_* enabled, or -1 */
	bool master_set;		/* bus mastering switched on by us */
	/* MSI / MSI-X */
	unsigned int nvec;
	struct vfio_vec *vecs;
	struct uirq_fd_line **msi;	/* by vector */
	struct uirq_irq_domain *domain;
	/* INTx */
	struct vfio_vec intx_vec;
	struct uirq_fd_line *intx;
	int unmask_fd;
	atomic_ulong hw_errors;
};

/* Log err at step and return it: every failure names the device and what failed. */
static int fail(const struct uirq_vfio_dev *v, const char *step, int err)
{
	uirq_log_printk("uirq: vfio %s: %s: %s\n", v->name, step, strerror(-err));
	return err;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/*
 * VFIO_DEVICE_SET_IRQS with count eventfds (fds NULL: DATA_NONE, which
 * with count 0 and ACTION_TRIGGER disables the index).
 */
static int set_irqs(struct uirq_vfio_dev *v, unsigned int index, uint32_t action, unsigned int start,
		    unsigned int count, const int32_t *fds)
{
	size_t sz = sizeof(struct vfio_irq_set) + (fds ? count * sizeof(int32_t) : 0);
	struct vfio_irq_set *s = calloc(1, sz);
	int ret;

	if (!s)
		return -ENOMEM;
	s->argsz = (uint32_t)sz;
	s->flags = action | (fds ? VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE);
	s->index = index;
	s->start = start;
	s->count = count;
	if (fds)
		memcpy(s->data, fds, count * sizeof(int32_t));
	ret = xioctl(v->device, VFIO_DEVICE_SET_IRQS, s);
	free(s);
	return ret < 0 ? ret : 0;
}

static void hw_error(struct uirq_vfio_dev *v)
{
	atomic_fetch_add_explicit(&v->hw_errors, 1, memory_order_relaxed);
}

/* ---- the lines' kinds ---- */

static struct vfio_vec *vec_of(struct uirq_fd_line *l)
{
	return fd_line_priv(l);
}

static const struct fd_line_ops msi_ops = {
	.name = "vfio-msi",
	.types = UIRQ_TYPE_EDGE_RISING,
	.oneshot_safe = true,
	.read_events = fd_line_read_counter64,
	.device_owned = true,
};

static void intx_enable(struct uirq_fd_line *l, bool on)
{
	struct uirq_vfio_dev *v = vec_of(l)->dev;
	const uint64_t one = 1;

	if (on) {
		if (write(v->unmask_fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
			hw_error(v);
	} else if (set_irqs(v, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_MASK, 0, 1, NULL)) {
		hw_error(v);
	}
}

/* VFIO's unmask finds INTx still pending and triggers again (from a work item, a moment later). */
static bool intx_resignals(struct uirq_fd_line *l)
{
	(void)l;
	return true;
}

static const struct fd_line_ops intx_ops = {
	.name = "vfio-intx",
	.types = UIRQ_TYPE_LEVEL_HIGH,
	.oneshot_safe = false,	/* the device asserts INTx until a handler acknowledges it */
	.read_events = fd_line_read_counter64,
	.hw_enable = intx_enable,
	.resignals = intx_resignals,
	.device_owned = true,
};

/* ---- opening and closing ---- */

/* "0000:00:04.0" or "/sys/bus/pci/devices/0000:00:04.0" -> the address; -EINVAL for anything else. */
static int parse_name(const char *dev, char *name, size_t len)
{
	size_t plen = strlen(PCI_DEVICES);

	if (!strncmp(dev, PCI_DEVICES, plen))
		dev += plen;
	size_t n = strlen(dev);

	if (!n || n >= len || strchr(dev, '/') || dev[0] == '.')
		return -EINVAL;
	memcpy(name, dev, n + 1);
	return 0;
}

/* N of the device's IOMMU group, from the iommu_group link; -errno. */
static int iommu_group(const char *name)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), PCI_DEVICES "%s/iommu_group", name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	char *base = basename(target), *end;
	long g = strtol(base, &end, 10);

	return *end || g < 0 || g > INT_MAX ? -EINVAL : (int)g;
}

static int region_info(struct uirq_vfio_dev *v, unsigned int index, struct vfio_region_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->argsz = sizeof(*ri);
	ri->index = index;
	return xioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, ri);
}

/* The container, the group in it, the device fd and its config region. */
static int open_device(struct uirq_vfio_dev *v)
{
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	struct vfio_device_info di = { .argsz = sizeof(di) };
	struct vfio_region_info ri;
	char path[32];
	int g, ret;

	g = iommu_group(v->name);
	if (g < 0)
		return fail(v, "no IOMMU group (is it a PCI device, with an IOMMU?)", g);
	v->container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	if (v->container < 0)
		return fail(v, "opening /dev/vfio/vfio", -errno);
	ret = xioctl(v->container, VFIO_GET_API_VERSION, NULL);
	if (ret != VFIO_API_VERSION)
		return fail(v, "VFIO API version", ret < 0 ? ret : -EPROTO);
	ret = xioctl(v->container, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU);
	if (ret <= 0)
		return fail(v, "type1v2 IOMMU support", ret < 0 ? ret : -ENOTSUP);
	snprintf(path, sizeof(path), "/dev/vfio/%d", g);
	v->group = open(path, O_RDWR | O_CLOEXEC);
	if (v->group < 0)
		return fail(v, "opening its group (is it bound to vfio-pci?)", -errno);
	ret = xioctl(v->group, VFIO_GROUP_GET_STATUS, &gs);
	if (ret < 0)
		return fail(v, "group status", ret);
	if (!(gs.flags & VFIO_GROUP_FLAGS_VIABLE))
		return fail(v, "group not viable (a device of the group is not bound to vfio-pci)", -EBUSY);
	ret = xioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container);
	if (ret < 0)
		return fail(v, "attaching the group to the container", ret);
	ret = xioctl(v->container, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU);
	if (ret < 0)
		return fail(v, "setting the type1v2 IOMMU", ret);
	v->device = xioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, v->name);
	if (v->device < 0)
		return fail(v, "getting the device fd", v->device);
	ret = xioctl(v->device, VFIO_DEVICE_GET_INFO, &di);
	if (ret < 0)
		return fail(v, "device info", ret);
	if (!(di.flags & VFIO_DEVICE_FLAGS_PCI))
		return fail(v, "not a PCI device", -ENODEV);
	ret = region_info(v, VFIO_PCI_CONFIG_REGION_INDEX, &ri);
	if (ret < 0)
		return fail(v, "config region info", ret);
	v->config_off = ri.offset;
	return 0;
}

int uirq_vfio_open(const char *dev, struct uirq_vfio_dev **out)
{
	struct uirq_vfio_dev *v;
	int ret;

	if (!dev || !out)
		return -EINVAL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->container = v->group = v->device = v->unmask_fd = -1;
	v->kind = -1;
	ret = parse_name(dev, v->name, sizeof(v->name));
	if (ret) {
		snprintf(v->name, sizeof(v->name), "%.31s", dev);
		fail(v, "not a PCI address (DDDD:BB:DD.F or " PCI_DEVICES "ADDRESS)", ret);
	} else {
		ret = open_device(v);
	}
	if (ret) {
		uirq_vfio_close(v);
		return ret;
	}
	*out = v;
	return 0;
}

static bool any_handler(const struct uirq_vfio_dev *v)
{
	if (v->intx && uirq_irq_has_action(uirq_fd_line_irq(v->intx)))
		return true;
	for (unsigned int i = 0; i < v->nvec; i++)
		if (v->msi && v->msi[i] && uirq_irq_has_action(uirq_fd_line_irq(v->msi[i])))
			return true;
	return false;
}

static int bus_master(struct uirq_vfio_dev *v, bool on)
{
	uint16_t cmd;
	off_t off = (off_t)v->config_off + PCI_COMMAND;

	if (pread(v->device, &cmd, sizeof(cmd), off) != (ssize_t)sizeof(cmd))
		return -EIO;
	uint16_t want = on ? (uint16_t)(cmd | PCI_COMMAND_MASTER) : (uint16_t)(cmd & ~PCI_COMMAND_MASTER);

	if (want == cmd)
		return 0;
	if (pwrite(v->device, &want, sizeof(want), off) != (ssize_t)sizeof(want))
		return -EIO;
	if (on)
		v->master_set = true;
	return 0;
}

/* Every trigger removed, every line gone: the device as opened. */
static void irqs_off(struct uirq_vfio_dev *v)
{
	int ret = v->kind >= 0 ? set_irqs(v, (unsigned int)v->kind, VFIO_IRQ_SET_ACTION_TRIGGER, 0, 0, NULL) : 0;

	if (ret)
		fail(v, "removing the interrupt triggers", ret);
	if (v->domain)
		uirq_irq_domain_remove(v->domain);	/* unmap removes each vector's line */
	v->domain = NULL;
	free(v->msi);
	free(v->vecs);
	v->msi = NULL;
	v->vecs = NULL;
	v->nvec = 0;
	if (v->intx)
		fd_line_remove(v->intx);
	v->intx = NULL;
	if (v->unmask_fd >= 0)
		close(v->unmask_fd);
	v->unmask_fd = -1;
	if (v->master_set)
		bus_master(v, false);
	v->master_set = false;
	v->kind = -1;
}

int uirq_vfio_close(struct uirq_vfio_dev *v)
{
	if (!v)
		return -EINVAL;
	if (any_handler(v))
		return -EBUSY;
	if (v->device >= 0)
		irqs_off(v);
	for (unsigned int i = 0; i < VFIO_NR_BARS; i++)
		if (v->bars[i].addr)
			munmap(v->bars[i].addr, v->bars[i].size);
	/* The device first: the group keeps it, the container keeps the group. */
	if (v->device >= 0)
		close(v->device);
	if (v->group >= 0)
		close(v->group);
	if (v->container >= 0)
		close(v->container);
	free(v);
	return 0;
}

int uirq_vfio_map(struct uirq_vfio_dev *v, unsigned int bar, volatile void **addr, size_t *size)
{
	struct vfio_region_info ri;
	int ret;

	if (!v || bar >= VFIO_NR_BARS || !addr)
		return -EINVAL;
	struct vfio_bar *b = &v->bars[bar];

	/* Callers map at probe, before the lines are shared: no lock. */
	if (!b->addr) {
		ret = region_info(v, VFIO_PCI_BAR0_REGION_INDEX + bar, &ri);
		if (ret < 0)
			return fail(v, "BAR region info", ret);
		if (!ri.size)
			return -ENOENT;
		if (!(ri.flags & VFIO_REGION_INFO_FLAG_MMAP))
			return fail(v, "BAR cannot be mapped (an I/O port BAR?)", -ENOTSUP);
		void *p = mmap(NULL, ri.size, PROT_READ | PROT_WRITE, MAP_SHARED, v->device, (off_t)ri.offset);

		if (p == MAP_FAILED)
			return fail(v, "mapping the BAR", -errno);
		b->addr = p;
		b->size = ri.size;
	}
	*addr = b->addr;
	if (size)
		*size = b->size;
	return 0;
}

int uirq_vfio_nr_vectors(struct uirq_vfio_dev *v, unsigned int kind)
{
	struct vfio_irq_info ii = { .argsz = sizeof(ii), .index = kind };
	int ret;

	if (!v || kind > UIRQ_VFIO_MSIX)
		return -EINVAL;
	ret = xioctl(v->device, VFIO_DEVICE_GET_IRQ_INFO, &ii);
	if (ret < 0)
		return fail(v, "interrupt info", ret);
	if (!(ii.flags & VFIO_IRQ_INFO_EVENTFD))
		return 0;
	return ii.count > INT_MAX ? INT_MAX : (int)ii.count;
}

/* ---- MSI / MSI-X ---- */

static int msi_map(struct uirq_irq_domain *d, unsigned int virq, unsigned long hw)
{
	struct uirq_vfio_dev *v = uirq_irq_domain_get_host_data(d);
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = fd_line_new_at(virq, fd, true, &msi_ops, &v->vecs[hw], UIRQ_TYPE_EDGE_RISING, &v->msi[hw]);
	if (ret)
		close(fd);
	return ret;
}

static void msi_unmap(struct uirq_irq_domain *d, unsigned int virq)
{
	struct uirq_vfio_dev *v = uirq_irq_domain_get_host_data(d);

	for (unsigned int i = 0; i < v->nvec; i++) {
		if (v->msi[i] && uirq_fd_line_irq(v->msi[i]) == virq) {
			fd_line_remove(v->msi[i]);	/* no handler: checked by the caller */
			v->msi[i] = NULL;
		}
	}
}

static const struct uirq_irq_domain_ops msi_domain_ops = {
	.map = msi_map,
	.unmap = msi_unmap,
};

/* Enable nvec vectors at once (VFIO allocates them together), each signalling its line's eventfd. */
static int msi_program(struct uirq_vfio_dev *v, unsigned int kind)
{
	int32_t *fds = malloc(v->nvec * sizeof(*fds));
	int ret;

	if (!fds)
		return -ENOMEM;
	for (unsigned int i = 0; i < v->nvec; i++)
		fds[i] = uirq_fd_line_fd(v->msi[i]);
	ret = set_irqs(v, kind, VFIO_IRQ_SET_ACTION_TRIGGER, 0, v->nvec, fds);
	free(fds);
	return ret;
}

int uirq_vfio_msi_enable(struct uirq_vfio_dev *v, unsigned int kind, unsigned int nvec,
			 struct uirq_irq_domain **out)
{
	int avail, ret;

	if (!v || (kind != UIRQ_VFIO_MSI && kind != UIRQ_VFIO_MSIX) || !nvec)
		return -EINVAL;
	if (v->kind >= 0)
		return fail(v, "interrupts already enabled (MSI, MSI-X and INTx exclude each other)", -EBUSY);
	avail = uirq_vfio_nr_vectors(v, kind);
	if (avail < 0)
		return avail;
	if (nvec > (unsigned int)avail)
		return fail(v, kind == UIRQ_VFIO_MSI ? "fewer MSI vectors than asked" : "fewer MSI-X vectors than asked",
			    -ENOSPC);
	v->vecs = calloc(nvec, sizeof(*v->vecs));
	v->msi = calloc(nvec, sizeof(*v->msi));
	if (!v->vecs || !v->msi) {
		ret = -ENOMEM;
		goto err;
	}
	v->nvec = nvec;
	for (unsigned int i = 0; i < nvec; i++)
		v->vecs[i] = (struct vfio_vec){ .dev = v, .vector = i };
	ret = uirq_irq_domain_create_linear(v->name, nvec, &msi_domain_ops, v, &v->domain);
	if (ret)
		goto err;
	for (unsigned int i = 0; i < nvec; i++) {
		if (!uirq_irq_create_mapping(v->domain, i)) {
			ret = fail(v, "creating the vectors' lines", -ENOMEM);
			goto err;
		}
	}
	ret = msi_program(v, kind);
	if (ret) {
		fail(v, "enabling the vectors (VFIO_DEVICE_SET_IRQS)", ret);
		goto err;
	}
	v->kind = (int)kind;
	ret = bus_master(v, true);
	if (ret) {
		fail(v, "switching bus mastering on", ret);
		goto err;
	}
	if (out)
		*out = v->domain;
	return 0;
err:
	irqs_off(v);
	return ret;
}

int uirq_vfio_msi_line(struct uirq_vfio_dev *v, unsigned int vector, struct uirq_fd_line **out)
{
	if (!v || !out || v->kind < 0 || v->kind == UIRQ_VFIO_INTX || vector >= v->nvec)
		return -EINVAL;
	*out = v->msi[vector];
	return (int)uirq_fd_line_irq(v->msi[vector]);
}

/* ---- INTx ---- */

/* The trigger, masked at once (a line starts shut down), and the unmask eventfd. */
static int intx_program(struct uirq_vfio_dev *v, int trigger)
{
	int32_t fd = trigger;
	int ret;

	ret = set_irqs(v, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, 0, 1, &fd);
	if (ret)
		return fail(v, "connecting the INTx trigger (VFIO_DEVICE_SET_IRQS)", ret);
	v->kind = UIRQ_VFIO_INTX;
	ret = set_irqs(v, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_MASK, 0, 1, NULL);
	if (ret)
		return fail(v, "masking INTx", ret);
	fd = v->unmask_fd;
	ret = set_irqs(v, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_UNMASK, 0, 1, &fd);
	if (ret)
		return fail(v, "connecting the INTx unmask eventfd", ret);
	return 0;
}

int uirq_vfio_intx_line(struct uirq_vfio_dev *v, struct uirq_fd_line **out)
{
	int fd, irq, ret;

	if (!v || !out)
		return -EINVAL;
	if (v->kind >= 0)
		return fail(v, "interrupts already enabled (MSI, MSI-X and INTx exclude each other)", -EBUSY);
	ret = uirq_vfio_nr_vectors(v, UIRQ_VFIO_INTX);
	if (ret <= 0)
		return ret < 0 ? ret : fail(v, "no INTx (interrupt pin)", -ENODEV);
	v->unmask_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (v->unmask_fd < 0 || fd < 0) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		goto err;
	}
	v->intx_vec = (struct vfio_vec){ .dev = v };
	irq = fd_line_new(fd, true, &intx_ops, &v->intx_vec, UIRQ_TYPE_LEVEL_HIGH, &v->intx);
	if (irq < 0) {
		close(fd);
		ret = irq;
		goto err;
	}
	ret = intx_program(v, fd);
	if (ret)
		goto err;
	*out = v->intx;
	return irq;
err:
	irqs_off(v);
	return ret;
}

int uirq_vfio_device_fd(const struct uirq_vfio_dev *v)
{
	return v ? v->device : -EINVAL;
}

unsigned long uirq_vfio_hw_errors(const struct uirq_vfio_dev *v)
{
	return v ? atomic_load_explicit(&((struct uirq_vfio_dev *)v)->hw_errors, memory_order_relaxed) : 0;
}

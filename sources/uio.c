// SPDX-License-Identifier: MIT
/*
 * UIO lines: a /dev/uioN device of a real kernel as an interrupt line, the
 * way user-space drivers take interrupts from UIO.
 *
 * The kernel's UIO handler runs first, in the kernel's hard-irq context:
 * it silences the interrupt at its source (uio_pci_generic sets the INTx
 * disable bit of the PCI command register; a UIO driver with irqcontrol
 * disables its irq) and bumps the device's event count, which makes the
 * fd readable.  So here the line is a level line of the fd-line chip
 * (fdline.c):
 *   mask_ack  stop watching the fd and read the count: a read hands out the
 *             32-bit running total, and total - previous total is the number
 *             of interrupts merged into this one;
 *   unmask    let the device interrupt again - write 1 to the fd (irqcontrol)
 *             or clear the INTx disable bit in the device's sysfs config -
 *             then watch the fd again (a still-asserted INTx interrupts
 *             the kernel again: a count left unread before is dropped);
 *   shutdown  the opposite: irqcontrol 0, or set the INTx disable bit.
 * Reading the count does not quiet the device: it asserts INTx until a
 * handler acknowledges it.  So the chip is not oneshot-safe: IRQF_ONESHOT
 * keeps INTx disabled until the thread has returned, and a line without it
 * is re-enabled after the primary handler, as on a kernel's level line.
 *
 * The device's registers are mapped from sysfs: a PCI device's BARs from
 * device/resourceN, other UIO devices' memory maps from /dev/uioN at
 * N pages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uirq/sources.h"

#include "fdline.h"

#define UIO_CLASS		"/sys/class/uio"
#define PCI_COMMAND		4
#define PCI_COMMAND_INTX_DISABLE (1u << 10)
#define UIO_MAX_MAPS		6	/* PCI BARs 0..5; UIO's MAX_UIO_MAPS is 5 */

enum uio_reenable {
	REENABLE_IRQCONTROL,	/* write a 32-bit 1 / 0 to the fd */
	REENABLE_PCI_INTX,	/* clear / set bit 10 of the PCI command register */
	REENABLE_NONE,		/* the driver has no irqcontrol (-ENOSYS): it re-enables by itself */
};

struct uio_map {
	void *addr;
	size_t size;
};

struct uio_line {
	unsigned int index;		/* N of uioN */
	int config_fd;			/* device/config (REENABLE_PCI_INTX), or -1 */
	_Atomic int reenable;		/* enum uio_reenable; irqcontrol can turn out absent */
	uint32_t total;			/* the event count read last: acks are serialized by the flow */
	atomic_ulong hw_errors;		/* failed re-enables and disables */
	struct uio_map maps[UIO_MAX_MAPS];
};

static struct uio_line *uio_of(struct uirq_fd_line *l)
{
	return fd_line_priv(l);
}

static uint64_t uio_read_events(struct uirq_fd_line *l)
{
	struct uio_line *u = uio_of(l);
	uint32_t total;
	ssize_t n;

	do {
		n = read(uirq_fd_line_fd(l), &total, sizeof(total));
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(total))
		return 0;	/* -EAGAIN: a resend, nothing new since the previous read */
	/* Unsigned arithmetic: the running total wraps at 2^32. */
	uint32_t delta = total - u->total;

	u->total = total;
	return delta;
}

static int pci_intx(struct uio_line *u, bool on)
{
	uint16_t cmd;

	if (pread(u->config_fd, &cmd, sizeof(cmd), PCI_COMMAND) != (ssize_t)sizeof(cmd))
		return -EIO;
	uint16_t want = on ? (uint16_t)(cmd & ~PCI_COMMAND_INTX_DISABLE) : (uint16_t)(cmd | PCI_COMMAND_INTX_DISABLE);

	if (want == cmd)
		return 0;
	return pwrite(u->config_fd, &want, sizeof(want), PCI_COMMAND) == (ssize_t)sizeof(want) ? 0 : -EIO;
}

static void uio_hw_enable(struct uirq_fd_line *l, bool on)
{
	struct uio_line *u = uio_of(l);
	int32_t v = on;
	int err = 0;

	switch (atomic_load_explicit(&u->reenable, memory_order_relaxed)) {
	case REENABLE_PCI_INTX:
		err = pci_intx(u, on);
		break;
	case REENABLE_IRQCONTROL:
		if (write(uirq_fd_line_fd(l), &v, sizeof(v)) == (ssize_t)sizeof(v))
			break;
		if (errno == ENOSYS)
			atomic_store_explicit(&u->reenable, REENABLE_NONE, memory_order_relaxed);
		else
			err = -errno;
		break;
	default:
		break;
	}
	if (err)
		atomic_fetch_add_explicit(&u->hw_errors, 1, memory_order_relaxed);
}

/*
 * uio_pci_generic's INTx is a level the device holds: cleared, its disable
 * bit lets a still-asserted INTx interrupt the kernel again, which counts
 * it anew.  An irqcontrol driver's interrupt may be an edge, which only
 * the count remembers: kept.
 */
static bool uio_resignals(struct uirq_fd_line *l)
{
	return atomic_load_explicit(&uio_of(l)->reenable, memory_order_relaxed) == REENABLE_PCI_INTX;
}

static void uio_release(struct uirq_fd_line *l)
{
	struct uio_line *u = uio_of(l);

	for (unsigned int i = 0; i < UIO_MAX_MAPS; i++)
		if (u->maps[i].addr)
			munmap(u->maps[i].addr, u->maps[i].size);
	if (u->config_fd >= 0)
		close(u->config_fd);
	free(u);
}

static const struct fd_line_ops uio_ops = {
	.name = "uio",
	.types = UIRQ_TYPE_LEVEL_HIGH,
	.read_events = uio_read_events,
	.hw_enable = uio_hw_enable,
	.resignals = uio_resignals,
	.release = uio_release,
};

/* "/dev/uioN" or "uioN" -> N; -EINVAL for anything else. */
static int parse_uio_name(const char *dev, unsigned int *index)
{
	const char *p = dev;
	char *end;

	if (!strncmp(p, "/dev/", 5))
		p += 5;
	if (strncmp(p, "uio", 3) || p[3] < '0' || p[3] > '9')
		return -EINVAL;
	errno = 0;
	unsigned long n = strtoul(p + 3, &end, 10);

	if (*end || errno || n > INT_MAX)
		return -EINVAL;
	*index = (unsigned int)n;
	return 0;
}

int uirq_uio_path(const char *dev, char *path, size_t len)
{
	unsigned int index;
	int ret = dev && path ? parse_uio_name(dev, &index) : -EINVAL;

	if (ret)
		return ret;
	ret = snprintf(path, len, "/dev/uio%u", index);
	return ret > 0 && (size_t)ret < len ? 0 : -ENAMETOOLONG;
}

/* Read a sysfs attribute of uioN (a one-line file) into buf; 0 or -errno. */
static int uio_attr(unsigned int index, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), UIO_CLASS "/uio%u/%s", index, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int uirq_uio_line_create(const char *dev, unsigned int type, struct uirq_fd_line **out)
{
	char path[64], buf[64];
	struct uio_line *u;
	int fd, ret;

	if (!dev || !out)
		return -EINVAL;
	if (!type)
		type = UIRQ_TYPE_LEVEL_HIGH;
	if (type != UIRQ_TYPE_LEVEL_HIGH)
		return -EINVAL;	/* INTx and UIO's irqcontrol are level: an edge flow would re-enable too early */
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->config_fd = -1;
	ret = parse_uio_name(dev, &u->index);
	if (ret)
		goto err_free;
	/*
	 * The count before open: an interrupt between the two is then a new
	 * event for the first read rather than lost in the baseline.
	 */
	if (uio_attr(u->index, "event", buf, sizeof(buf)) == 0)
		u->total = (uint32_t)strtoul(buf, NULL, 10);
	snprintf(path, sizeof(path), "/dev/uio%u", u->index);
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto err_free;
	}
	/* uio_pci_generic has no irqcontrol: INTx is re-enabled in the config space. */
	if (uio_attr(u->index, "name", buf, sizeof(buf)) == 0 && !strcmp(buf, "uio_pci_generic")) {
		snprintf(path, sizeof(path), UIO_CLASS "/uio%u/device/config", u->index);
		u->config_fd = open(path, O_RDWR | O_CLOEXEC);
		if (u->config_fd < 0) {
			ret = -errno;
			goto err_close;
		}
		atomic_init(&u->reenable, REENABLE_PCI_INTX);
	} else {
		atomic_init(&u->reenable, REENABLE_IRQCONTROL);
	}
	ret = fd_line_new(fd, true, &uio_ops, u, type, out);
	if (ret > 0)
		return ret;
	if (u->config_fd >= 0)
		close(u->config_fd);
err_close:
	close(fd);
err_free:
	free(u);
	return ret;
}

/* Map a file's region; 0 or -errno. */
static int map_file(const char *path, off_t off, size_t size, struct uio_map *m)
{
	int fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	int err = p == MAP_FAILED ? -errno : 0;

	close(fd);
	if (!err) {
		m->addr = p;
		m->size = size;
	}
	return err;
}

/* A PCI BAR through device/resourceN: its size is the file's. 0, -ENOENT (no such BAR) or -errno. */
static int map_pci_bar(struct uio_line *u, unsigned int n, struct uio_map *m)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), UIO_CLASS "/uio%u/device/resource%u", u->index, n);
	if (stat(path, &st) < 0)
		return -errno;
	if (st.st_size <= 0)
		return -ENODEV;
	return map_file(path, 0, (size_t)st.st_size, m);
}

/* UIO's own memory map N: /dev/uioN at N pages, the size from maps/mapN/size. */
static int map_uio_mem(struct uio_line *u, unsigned int n, struct uio_map *m)
{
	char attr[32], buf[32], path[32];
	int ret;

	snprintf(attr, sizeof(attr), "maps/map%u/size", n);
	ret = uio_attr(u->index, attr, buf, sizeof(buf));
	if (ret)
		return ret;
	unsigned long long size = strtoull(buf, NULL, 0);

	if (!size)
		return -ENODEV;
	snprintf(path, sizeof(path), "/dev/uio%u", u->index);
	return map_file(path, (off_t)n * sysconf(_SC_PAGESIZE), (size_t)size, m);
}

int uirq_uio_line_map(struct uirq_fd_line *l, unsigned int index, volatile void **addr, size_t *size)
{
	if (!l || fd_line_kind(l) != &uio_ops || index >= UIO_MAX_MAPS || !addr)
		return -EINVAL;
	struct uio_line *u = uio_of(l);
	struct uio_map *m = &u->maps[index];

	/* Callers map at probe, before the line is shared: no lock. */
	if (!m->addr) {
		char path[PATH_MAX];
		int ret;

		snprintf(path, sizeof(path), UIO_CLASS "/uio%u/device/config", u->index);
		ret = access(path, F_OK) == 0 ? map_pci_bar(u, index, m) : map_uio_mem(u, index, m);
		if (ret)
			return ret;
	}
	*addr = m->addr;
	if (size)
		*size = m->size;
	return 0;
}

int uirq_uio_line_index(const struct uirq_fd_line *l)
{
	if (!l || fd_line_kind(l) != &uio_ops)
		return -EINVAL;
	return (int)uio_of((struct uirq_fd_line *)l)->index;
}

unsigned long uirq_uio_line_hw_errors(const struct uirq_fd_line *l)
{
	if (!l || fd_line_kind(l) != &uio_ops)
		return 0;
	return atomic_load_explicit(&uio_of((struct uirq_fd_line *)l)->hw_errors, memory_order_relaxed);
}

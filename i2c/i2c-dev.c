// SPDX-License-Identifier: MIT
/*
 * An adapter backed by a Linux i2c-dev node (Documentation/i2c/dev-interface):
 * SMBus transactions through libi2c's i2c_smbus_access(), plain transfers
 * through the I2C_RDWR ioctl.  The node's slave address, ten-bit and PEC
 * settings are per open file, so they are changed only under the bus lock
 * and only when a transaction needs another value.
 */
#include "../sim/sim.h"
#include "i2c-core.h"
#include "uirq/printk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The data, sizes and messages are handed to the kernel as they are. */
_Static_assert(sizeof(union uirq_i2c_smbus_data) == sizeof(union i2c_smbus_data), "smbus data layout");
_Static_assert(UIRQ_I2C_SMBUS_READ == I2C_SMBUS_READ && UIRQ_I2C_SMBUS_WRITE == I2C_SMBUS_WRITE &&
	       UIRQ_I2C_SMBUS_QUICK == I2C_SMBUS_QUICK && UIRQ_I2C_SMBUS_BYTE == I2C_SMBUS_BYTE &&
	       UIRQ_I2C_SMBUS_BYTE_DATA == I2C_SMBUS_BYTE_DATA &&
	       UIRQ_I2C_SMBUS_WORD_DATA == I2C_SMBUS_WORD_DATA &&
	       UIRQ_I2C_SMBUS_PROC_CALL == I2C_SMBUS_PROC_CALL &&
	       UIRQ_I2C_SMBUS_BLOCK_DATA == I2C_SMBUS_BLOCK_DATA &&
	       UIRQ_I2C_SMBUS_I2C_BLOCK_DATA == I2C_SMBUS_I2C_BLOCK_DATA, "smbus sizes");
_Static_assert(sizeof(struct uirq_i2c_msg) == sizeof(struct i2c_msg) &&
	       offsetof(struct uirq_i2c_msg, buf) == offsetof(struct i2c_msg, buf), "i2c_msg layout");

#define SYSFS_I2C_DEV "/sys/class/i2c-dev"
#define NAME_PREFIX "i2c-dev:"

struct i2c_dev_adapter {
	struct uirq_i2c_adapter adap;	/* first: the public handle is its address */
	int fd;
	int kernel_nr;			/* N of /dev/i2c-N */
	uint32_t funcs;			/* UIRQ_I2C_FUNC_* */
	/* the node's per-file settings as last set; under the bus lock */
	int slave;			/* -1: none yet */
	int tenbit;
	int pec;
};

static struct i2c_dev_adapter *to_dev(struct uirq_i2c_adapter *adap)
{
	return (struct i2c_dev_adapter *)adap->algo_data;
}

/* The kernel's functionality bits that uirq names, each mapped to its UIRQ_ bit. */
static const struct { unsigned long kernel; uint32_t uirq; } func_map[] = {
	{ I2C_FUNC_I2C, UIRQ_I2C_FUNC_I2C },
	{ I2C_FUNC_10BIT_ADDR, UIRQ_I2C_FUNC_10BIT_ADDR },
	{ I2C_FUNC_PROTOCOL_MANGLING, UIRQ_I2C_FUNC_PROTOCOL_MANGLING },
	{ I2C_FUNC_SMBUS_PEC, UIRQ_I2C_FUNC_SMBUS_PEC },
	{ I2C_FUNC_NOSTART, UIRQ_I2C_FUNC_NOSTART },
	{ I2C_FUNC_SMBUS_QUICK, UIRQ_I2C_FUNC_SMBUS_QUICK },
	{ I2C_FUNC_SMBUS_READ_BYTE, UIRQ_I2C_FUNC_SMBUS_READ_BYTE },
	{ I2C_FUNC_SMBUS_WRITE_BYTE, UIRQ_I2C_FUNC_SMBUS_WRITE_BYTE },
	{ I2C_FUNC_SMBUS_READ_BYTE_DATA, UIRQ_I2C_FUNC_SMBUS_READ_BYTE_DATA },
	{ I2C_FUNC_SMBUS_WRITE_BYTE_DATA, UIRQ_I2C_FUNC_SMBUS_WRITE_BYTE_DATA },
	{ I2C_FUNC_SMBUS_READ_WORD_DATA, UIRQ_I2C_FUNC_SMBUS_READ_WORD_DATA },
	{ I2C_FUNC_SMBUS_WRITE_WORD_DATA, UIRQ_I2C_FUNC_SMBUS_WRITE_WORD_DATA },
	{ I2C_FUNC_SMBUS_PROC_CALL, UIRQ_I2C_FUNC_SMBUS_PROC_CALL },
	{ I2C_FUNC_SMBUS_READ_BLOCK_DATA, UIRQ_I2C_FUNC_SMBUS_READ_BLOCK_DATA },
	{ I2C_FUNC_SMBUS_WRITE_BLOCK_DATA, UIRQ_I2C_FUNC_SMBUS_WRITE_BLOCK_DATA },
	{ I2C_FUNC_SMBUS_READ_I2C_BLOCK, UIRQ_I2C_FUNC_SMBUS_READ_I2C_BLOCK },
	{ I2C_FUNC_SMBUS_WRITE_I2C_BLOCK, UIRQ_I2C_FUNC_SMBUS_WRITE_I2C_BLOCK },
};

static uint32_t map_funcs(unsigned long kernel)
{
	uint32_t f = 0;

	for (size_t i = 0; i < sizeof(func_map) / sizeof(func_map[0]); i++)
		if (kernel & func_map[i].kernel)
			f |= func_map[i].uirq;
	return f;
}

/* Bring one per-file setting of the node to want; 0 or -errno. */
static int set_node(int fd, unsigned long req, int *cur, int want)
{
	if (*cur == want)
		return 0;
	if (ioctl(fd, req, (unsigned long)want) < 0) {
		*cur = -1;	/* unknown now: set it again next time */
		return -errno;
	}
	*cur = want;
	return 0;
}

static int select_slave(struct i2c_dev_adapter *d, uint16_t addr, bool ten, bool pec)
{
	int ret = set_node(d->fd, I2C_TENBIT, &d->tenbit, ten);

	if (!ret && (pec || d->pec > 0))
		ret = set_node(d->fd, I2C_PEC, &d->pec, pec);
	/* I2C_SLAVE, not I2C_SLAVE_FORCE: an address a kernel driver owns stays its own (-EBUSY). */
	if (!ret)
		ret = set_node(d->fd, I2C_SLAVE, &d->slave, addr);
	return ret;
}

static int i2c_dev_smbus_xfer(struct uirq_i2c_adapter *adap, uint16_t addr, unsigned short flags,
			      char read_write, uint8_t command, int size,
			      union uirq_i2c_smbus_data *data)
{
	struct i2c_dev_adapter *d = to_dev(adap);
	int ret = select_slave(d, addr, flags & UIRQ_I2C_CLIENT_TEN, flags & UIRQ_I2C_CLIENT_PEC);

	if (ret)
		return ret;
	/* libi2c returns the ioctl's -errno: the kernel's verdict, unchanged. */
	ret = i2c_smbus_access(d->fd, read_write, command, size, (union i2c_smbus_data *)data);
	return ret < 0 ? ret : 0;
}

static int i2c_dev_master_xfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num)
{
	struct i2c_dev_adapter *d = to_dev(adap);
	struct i2c_rdwr_ioctl_data rdwr = { .msgs = (struct i2c_msg *)msgs, .nmsgs = (uint32_t)num };
	int ret;

	if (num > I2C_RDWR_IOCTL_MAX_MSGS)
		return -EINVAL;
	/* i2c-dev wants the caller to pre-size a RECV_LEN buffer in its own way; not offered. */
	for (int i = 0; i < num; i++)
		if (msgs[i].flags & UIRQ_I2C_M_RECV_LEN)
			return -EOPNOTSUPP;
	ret = ioctl(d->fd, I2C_RDWR, &rdwr);
	return ret < 0 ? -errno : ret;
}

static uint32_t i2c_dev_functionality(struct uirq_i2c_adapter *adap)
{
	return to_dev(adap)->funcs;
}

/* Two algorithms: plain transfers are offered only by a kernel adapter that does them. */
static const struct uirq_i2c_algorithm i2c_dev_algo_i2c = {
	.master_xfer = i2c_dev_master_xfer,
	.smbus_xfer = i2c_dev_smbus_xfer,
	.functionality = i2c_dev_functionality,
};
static const struct uirq_i2c_algorithm i2c_dev_algo_smbus = {
	.smbus_xfer = i2c_dev_smbus_xfer,
	.functionality = i2c_dev_functionality,
};

/* Read sysfs' name of /dev/i2c-nr into buf without the newline; 0 or -errno. */
static int kernel_name(int nr, char *buf, size_t size)
{
	char path[64];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), SYSFS_I2C_DEV "/i2c-%d/name", nr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f))
		ret = -EIO;
	fclose(f);
	if (!ret)
		buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

/* The lowest N whose kernel adapter is called name; -ENOENT if none. */
static int find_by_name(const char *name)
{
	DIR *dir = opendir(SYSFS_I2C_DEV);
	struct dirent *e;
	char got[128];
	int best = -ENOENT, nr;
	char end;

	if (!dir)
		return -ENOENT;	/* no i2c-dev module: no such adapter either */
	while ((e = readdir(dir)))
		if (sscanf(e->d_name, "i2c-%d%c", &nr, &end) == 1 && nr >= 0 &&
		    (best < 0 || nr < best) && !kernel_name(nr, got, sizeof(got)) &&
		    !strcmp(got, name))
			best = nr;
	closedir(dir);
	return best;
}

/* which as a path to open: "/dev/i2c-N" as is, "N" or "i2c-N" as /dev/i2c-N, else a name. */
int uirq_i2c_dev_path(const char *which, char *path, size_t size)
{
	int nr;
	char end;

	if (!which || !which[0] || !path)
		return -EINVAL;
	if (which[0] == '/') {
		if (strlen(which) >= size)
			return -ENAMETOOLONG;
		strcpy(path, which);
		return 0;
	}
	if ((sscanf(which, "%d%c", &nr, &end) == 1 || sscanf(which, "i2c-%d%c", &nr, &end) == 1) &&
	    nr >= 0) {
		snprintf(path, size, "/dev/i2c-%d", nr);
		return 0;
	}
	nr = find_by_name(which);
	if (nr < 0)
		return nr;
	snprintf(path, size, "/dev/i2c-%d", nr);
	return 0;
}

int uirq_i2c_dev_open(const char *which, struct uirq_i2c_adapter **out)
{
	struct i2c_dev_adapter *d;
	unsigned long kfuncs = 0;
	char path[256], kname[128];
	struct stat st;
	int ret;

	if (!which || !which[0] || !out)
		return -EINVAL;
	ret = uirq_sim_refuse("i2c-dev");
	if (ret)
		return ret;
	ret = uirq_i2c_dev_path(which, path, sizeof(path));
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->slave = d->tenbit = d->pec = -1;
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0) {
		ret = -errno;
		goto err_free;
	}
	/* I2C_FUNCS also tells an i2c-dev node from any other file (-ENOTTY). */
	if (fstat(d->fd, &st) < 0 || ioctl(d->fd, I2C_FUNCS, &kfuncs) < 0) {
		ret = -errno;
		goto err_close;
	}
	d->kernel_nr = S_ISCHR(st.st_mode) ? (int)minor(st.st_rdev) : -1;
	d->funcs = map_funcs(kfuncs);
	if (d->kernel_nr < 0 || kernel_name(d->kernel_nr, kname, sizeof(kname)))
		snprintf(kname, sizeof(kname), "%.*s", (int)sizeof(kname) - 1, path);
	/* A kernel name too long for the adapter's is cut, as the kernel cuts its own. */
	kname[sizeof(d->adap.name) - sizeof(NAME_PREFIX)] = '\0';
	snprintf(d->adap.name, sizeof(d->adap.name), NAME_PREFIX "%.*s",
		 (int)(sizeof(d->adap.name) - sizeof(NAME_PREFIX)), kname);
	d->adap.algo = (d->funcs & UIRQ_I2C_FUNC_I2C) ? &i2c_dev_algo_i2c : &i2c_dev_algo_smbus;
	d->adap.algo_data = d;
	/* The kernel adapter retries and times out on its own. */
	d->adap.retries = 0;
	ret = uirq_i2c_add_adapter(&d->adap);
	if (ret)
		goto err_close;
	*out = &d->adap;
	return 0;

err_close:
	close(d->fd);
err_free:
	free(d);
	return ret;
}

void uirq_i2c_dev_close(struct uirq_i2c_adapter *adap)
{
	struct i2c_dev_adapter *d;

	if (!adap)
		return;
	if (adap->algo != &i2c_dev_algo_i2c && adap->algo != &i2c_dev_algo_smbus) {
		uirq_log_printk("i2c i2c-%d: %s: not an i2c-dev adapter, not closed\n", adap->nr, adap->name);
		return;
	}
	/* Refused while clients remain (del_adapter says so): keep the node rather than dangle. */
	if (uirq_i2c_del_adapter(adap))
		return;
	d = to_dev(adap);
	close(d->fd);
	free(d);
}

/* SPDX-License-Identifier: MIT */
/*
 * i2c: adapters, clients, transfers and SMBus helpers - the kernel's model
 * (Documentation/i2c/) under uirq_ names - and a simulated adapter that
 * models wire time and injects faults.
 *
 * A transfer sleeps: it takes the adapter's bus mutex and waits for the
 * wire.  The transfer entry points are macros passing the caller's
 * __FILE__/__LINE__, so a transfer from hard-irq context or with interrupts
 * disabled is reported by might_sleep() at the driver's line, not at ours.
 *
 * Differences from the kernel forced by user space (no driver model, no
 * ERR_PTR): uirq_i2c_del_adapter() refuses with -EBUSY while clients are
 * registered instead of unbinding their drivers; uirq_i2c_new_client_device()
 * returns 0 or a negative errno and the client through its last argument.
 */
#ifndef UIRQ_I2C_H
#define UIRQ_I2C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uirq/mutex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Message flags: the kernel's values (include/uapi/linux/i2c.h). */
#define UIRQ_I2C_M_RD		0x0001	/* read from slave to master */
#define UIRQ_I2C_M_TEN		0x0010	/* ten-bit address */
#define UIRQ_I2C_M_DMA_SAFE	0x0200
#define UIRQ_I2C_M_RECV_LEN	0x0400	/* first byte received is the length */
#define UIRQ_I2C_M_NO_RD_ACK	0x0800
#define UIRQ_I2C_M_IGNORE_NAK	0x1000
#define UIRQ_I2C_M_REV_DIR_ADDR	0x2000
#define UIRQ_I2C_M_NOSTART	0x4000	/* no (repeated) start and address */
#define UIRQ_I2C_M_STOP		0x8000	/* stop after this message */

/* Adapter functionality bits: the kernel's values. */
#define UIRQ_I2C_FUNC_I2C			0x00000001
#define UIRQ_I2C_FUNC_10BIT_ADDR		0x00000002
#define UIRQ_I2C_FUNC_PROTOCOL_MANGLING		0x00000004
#define UIRQ_I2C_FUNC_SMBUS_PEC			0x00000008
#define UIRQ_I2C_FUNC_NOSTART			0x00000010
#define UIRQ_I2C_FUNC_SMBUS_QUICK		0x00010000
#define UIRQ_I2C_FUNC_SMBUS_READ_BYTE		0x00020000
#define UIRQ_I2C_FUNC_SMBUS_WRITE_BYTE		0x00040000
#define UIRQ_I2C_FUNC_SMBUS_READ_BYTE_DATA	0x00080000
#define UIRQ_I2C_FUNC_SMBUS_WRITE_BYTE_DATA	0x00100000
#define UIRQ_I2C_FUNC_SMBUS_READ_WORD_DATA	0x00200000
#define UIRQ_I2C_FUNC_SMBUS_WRITE_WORD_DATA	0x00400000
#define UIRQ_I2C_FUNC_SMBUS_PROC_CALL		0x00800000
#define UIRQ_I2C_FUNC_SMBUS_READ_BLOCK_DATA	0x01000000
#define UIRQ_I2C_FUNC_SMBUS_WRITE_BLOCK_DATA	0x02000000
#define UIRQ_I2C_FUNC_SMBUS_READ_I2C_BLOCK	0x04000000
#define UIRQ_I2C_FUNC_SMBUS_WRITE_I2C_BLOCK	0x08000000
#define UIRQ_I2C_FUNC_SMBUS_BYTE	(UIRQ_I2C_FUNC_SMBUS_READ_BYTE | UIRQ_I2C_FUNC_SMBUS_WRITE_BYTE)
#define UIRQ_I2C_FUNC_SMBUS_BYTE_DATA	(UIRQ_I2C_FUNC_SMBUS_READ_BYTE_DATA | \
					 UIRQ_I2C_FUNC_SMBUS_WRITE_BYTE_DATA)
#define UIRQ_I2C_FUNC_SMBUS_WORD_DATA	(UIRQ_I2C_FUNC_SMBUS_READ_WORD_DATA | \
					 UIRQ_I2C_FUNC_SMBUS_WRITE_WORD_DATA)
#define UIRQ_I2C_FUNC_SMBUS_I2C_BLOCK	(UIRQ_I2C_FUNC_SMBUS_READ_I2C_BLOCK | \
					 UIRQ_I2C_FUNC_SMBUS_WRITE_I2C_BLOCK)

/* Client flags: the kernel's values. */
#define UIRQ_I2C_CLIENT_PEC	0x04
#define UIRQ_I2C_CLIENT_TEN	0x10

#define UIRQ_I2C_NAME_SIZE	20
#define UIRQ_I2C_SMBUS_BLOCK_MAX 32	/* longest SMBus / i2c block */

/* Bus speeds (Hz).  Above 1 MHz the bus is in high-speed (HS) mode. */
#define UIRQ_I2C_SPEED_STANDARD	100000
#define UIRQ_I2C_SPEED_FAST	400000
#define UIRQ_I2C_SPEED_FAST_PLUS 1000000
#define UIRQ_I2C_SPEED_HS	3400000

/* One message of a transfer; the layout of the kernel's struct i2c_msg. */
struct uirq_i2c_msg {
	uint16_t addr;
	uint16_t flags;
	uint16_t len;
	uint8_t *buf;
};

struct uirq_i2c_adapter;
struct uirq_i2c_client;

/* SMBus transaction directions and sizes: the kernel's values (include/uapi/linux/i2c.h). */
#define UIRQ_I2C_SMBUS_WRITE		0
#define UIRQ_I2C_SMBUS_READ		1
#define UIRQ_I2C_SMBUS_QUICK		0
#define UIRQ_I2C_SMBUS_BYTE		1
#define UIRQ_I2C_SMBUS_BYTE_DATA	2
#define UIRQ_I2C_SMBUS_WORD_DATA	3
#define UIRQ_I2C_SMBUS_PROC_CALL	4
#define UIRQ_I2C_SMBUS_BLOCK_DATA	5
#define UIRQ_I2C_SMBUS_I2C_BLOCK_DATA	8

/* An SMBus transaction's data; the layout of the kernel's union i2c_smbus_data. */
union uirq_i2c_smbus_data {
	uint8_t byte;
	uint16_t word;
	uint8_t block[UIRQ_I2C_SMBUS_BLOCK_MAX + 2];	/* [0] is the length; +1 for PEC */
};

/*
 * How an adapter moves bytes (the kernel's struct i2c_algorithm).  An
 * adapter provides master_xfer, smbus_xfer or both; the SMBus helpers use
 * smbus_xfer when it is there (falling back to emulation over master_xfer
 * when it returns -EOPNOTSUPP), as the kernel's i2c_smbus_xfer() does.
 */
struct uirq_i2c_algorithm {
	/* Run the messages; called with the bus lock held.  Return num or -errno. */
	int (*master_xfer)(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num);
	/*
	 * Run one SMBus transaction (UIRQ_I2C_SMBUS_* read_write and size;
	 * flags UIRQ_I2C_CLIENT_PEC/_TEN); called with the bus lock held.
	 * Return 0 (reads fill data) or -errno.
	 */
	int (*smbus_xfer)(struct uirq_i2c_adapter *adap, uint16_t addr, unsigned short flags,
			  char read_write, uint8_t command, int size,
			  union uirq_i2c_smbus_data *data);
	/* The UIRQ_I2C_FUNC_* bits this adapter supports. */
	uint32_t (*functionality)(struct uirq_i2c_adapter *adap);
};

/* Per-adapter counters; a snapshot is taken with uirq_i2c_get_stats(). */
struct uirq_i2c_stats {
	uint64_t transfers;	/* transfers handed to the algorithm */
	uint64_t messages;	/* messages of successful transfers */
	uint64_t bytes;		/* payload bytes of successful transfers */
	uint64_t retries;	/* attempts repeated after -EAGAIN */
	uint64_t errors;	/* failed transfers, every kind */
	uint64_t err_nak;	/* -ENXIO: no ACK on the address */
	uint64_t err_io;	/* -EIO */
	uint64_t err_timeout;	/* -ETIMEDOUT */
	uint64_t err_arbitration; /* -EAGAIN: arbitration lost */
	uint64_t err_other;	/* any other -errno */
	uint64_t wire_ns;	/* modeled bus time (adapters that model it) */
	uint64_t sleep_ns;	/* measured time spent waiting for the wire */
};

/*
 * One finished transfer, for tracing (times are CLOCK_MONOTONIC ns).  An
 * SMBus transaction that the adapter's smbus_xfer ran shows as the messages
 * its emulation would have sent, read buffers filled, ret num on success.
 */
struct uirq_i2c_trace {
	struct uirq_i2c_adapter *adap;
	const struct uirq_i2c_msg *msgs;
	int num;
	int ret;		/* what uirq_i2c_transfer() returns */
	uint64_t start_ns;	/* bus lock taken */
	uint64_t end_ns;	/* transfer done, bus lock still held */
	uint64_t wire_ns;	/* modeled bus time of this transfer */
};

/* Called after every transfer with the bus lock held; must not start a transfer. */
typedef void (*uirq_i2c_trace_fn)(const struct uirq_i2c_trace *t, void *arg);

/* An i2c bus master: zero it, fill name, algo, algo_data, timeout_ms and retries, then add. */
struct uirq_i2c_adapter {
	char name[48];
	const struct uirq_i2c_algorithm *algo;
	void *algo_data;
	unsigned int timeout_ms;	/* 0 at add time means 1000 (the kernel's HZ) */
	int retries;			/* retries of a transfer that lost arbitration */
	int nr;				/* bus number, assigned by uirq_i2c_add_adapter() */
	uirq_mutex_t bus_lock;		/* serializes transfers (the kernel's bus_lock) */

	/* private to i2c-core */
	bool registered;
	struct uirq_i2c_client *clients;
	uirq_i2c_trace_fn trace;
	void *trace_arg;
	uint64_t xfer_wire_ns;		/* wire time of the transfer in progress */
	struct uirq_i2c_stats stats;	/* updated atomically */
};

/* A device on a bus (the kernel's struct i2c_client). */
struct uirq_i2c_client {
	uint16_t flags;			/* UIRQ_I2C_CLIENT_* */
	uint16_t addr;			/* 7-bit (or 10-bit with CLIENT_TEN) address */
	char name[UIRQ_I2C_NAME_SIZE];
	struct uirq_i2c_adapter *adapter;
	void *data;			/* the driver's (i2c_set_clientdata) */
	struct uirq_i2c_client *next;	/* private: the adapter's client list */
};

/* ---- adapters and clients (i2c-core.c) ---- */

/* Register an adapter: init its bus lock, assign nr; -EINVAL without algo, -EBUSY if added. */
int uirq_i2c_add_adapter(struct uirq_i2c_adapter *adap);
/* Unregister after in-flight transfers end; -EBUSY (and a warning) while clients remain. */
int uirq_i2c_del_adapter(struct uirq_i2c_adapter *adap);
/* The adapter's UIRQ_I2C_FUNC_* bits (0 without a functionality hook). */
uint32_t uirq_i2c_get_functionality(struct uirq_i2c_adapter *adap);
/* True if the adapter supports every bit of func. */
bool uirq_i2c_check_functionality(struct uirq_i2c_adapter *adap, uint32_t func);
/* Copy the adapter's counters. */
void uirq_i2c_get_stats(struct uirq_i2c_adapter *adap, struct uirq_i2c_stats *stats);
/* Zero the adapter's counters. */
void uirq_i2c_reset_stats(struct uirq_i2c_adapter *adap);
/* Install (or with NULL remove) the per-transfer trace hook. */
void uirq_i2c_set_trace(struct uirq_i2c_adapter *adap, uirq_i2c_trace_fn fn, void *arg);

/*
 * Create a client at a 7-bit addr (1..0x7f) into *out.  -EINVAL bad
 * address or name, -EBUSY address taken, -ENODEV adapter not added,
 * -ENOMEM (*out NULL).
 */
int uirq_i2c_new_client_device(struct uirq_i2c_adapter *adap, const char *name, uint16_t addr,
			       struct uirq_i2c_client **out);
/*
 * As uirq_i2c_new_client_device() with client flags (UIRQ_I2C_CLIENT_TEN:
 * addr up to 0x3ff), and its errors (-EBUSY: the address is taken in the
 * same addressing mode).
 */
int uirq_i2c_new_client_device_flags(struct uirq_i2c_adapter *adap, const char *name,
				     uint16_t addr, uint16_t flags, struct uirq_i2c_client **out);
/* Remove and free a client (NULL is ignored). */
void uirq_i2c_unregister_device(struct uirq_i2c_client *client);

/* ---- transfers (i2c-core.c); each might sleep ---- */

/* Lock the bus for a sequence of uirq_i2c_transfer_locked() calls. */
void uirq__i2c_lock_bus(struct uirq_i2c_adapter *adap, const char *file, int line);
/* Unlock a bus locked with uirq_i2c_lock_bus(). */
void uirq__i2c_unlock_bus(struct uirq_i2c_adapter *adap, const char *file, int line);
/* Run msgs; returns num or -errno (-EINVAL, -EOPNOTSUPP, -ENODEV, the adapter's). */
int uirq__i2c_transfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
		       const char *file, int line);
/*
 * As uirq__i2c_transfer() with the bus already locked by the caller (the
 * kernel's __i2c_transfer()): returns num or the same errors.
 */
int uirq__i2c_transfer_locked(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num,
			      const char *file, int line);
/* Write count bytes to the client; returns count or -errno. */
int uirq__i2c_master_send(const struct uirq_i2c_client *client, const uint8_t *buf, int count,
			  const char *file, int line);
/* Read count bytes from the client; returns count or -errno. */
int uirq__i2c_master_recv(const struct uirq_i2c_client *client, uint8_t *buf, int count,
			  const char *file, int line);

#define uirq_i2c_lock_bus(a)		uirq__i2c_lock_bus((a), __FILE__, __LINE__)
#define uirq_i2c_unlock_bus(a)		uirq__i2c_unlock_bus((a), __FILE__, __LINE__)
#define uirq_i2c_transfer(a, m, n)	uirq__i2c_transfer((a), (m), (n), __FILE__, __LINE__)
#define uirq_i2c_transfer_locked(a, m, n) uirq__i2c_transfer_locked((a), (m), (n), __FILE__, __LINE__)
#define uirq_i2c_master_send(c, b, n)	uirq__i2c_master_send((c), (b), (n), __FILE__, __LINE__)
#define uirq_i2c_master_recv(c, b, n)	uirq__i2c_master_recv((c), (b), (n), __FILE__, __LINE__)

/* ---- SMBus (i2c-smbus.c); values or -errno ---- */

/*
 * One SMBus transaction (the kernel's i2c_smbus_xfer): through the
 * adapter's smbus_xfer if it has one, otherwise emulated over master_xfer
 * as a write and a repeated-start read in one transfer.  Either way it is
 * counted and traced as the messages the emulation sends.  0 or -errno
 * (-EINVAL bad size or block length, -EOPNOTSUPP neither hook serves it).
 */
int uirq__i2c_smbus_xfer(struct uirq_i2c_adapter *adap, uint16_t addr, unsigned short flags,
			 char read_write, uint8_t command, int size,
			 union uirq_i2c_smbus_data *data, const char *file, int line);
#define uirq_i2c_smbus_xfer(a, addr, fl, rw, cmd, size, data) \
	uirq__i2c_smbus_xfer((a), (addr), (fl), (rw), (cmd), (size), (data), __FILE__, __LINE__)

/* The helpers below are uirq_i2c_smbus_xfer() on the client's address and flags. */


/* Receive byte: one 1-byte read message. */
int32_t uirq__i2c_smbus_read_byte(const struct uirq_i2c_client *c, const char *file, int line);
/* Send byte: one 1-byte write message. */
int32_t uirq__i2c_smbus_write_byte(const struct uirq_i2c_client *c, uint8_t value,
				   const char *file, int line);
/* Read byte data: write command, repeated start, read 1 byte. */
int32_t uirq__i2c_smbus_read_byte_data(const struct uirq_i2c_client *c, uint8_t command,
				       const char *file, int line);
/* Write byte data: write command and value; returns 0. */
int32_t uirq__i2c_smbus_write_byte_data(const struct uirq_i2c_client *c, uint8_t command,
					uint8_t value, const char *file, int line);
/* Read word data: write command, read 2 bytes, low byte first. */
int32_t uirq__i2c_smbus_read_word_data(const struct uirq_i2c_client *c, uint8_t command,
				       const char *file, int line);
/* Write word data: command, low byte, high byte; returns 0. */
int32_t uirq__i2c_smbus_write_word_data(const struct uirq_i2c_client *c, uint8_t command,
					uint16_t value, const char *file, int line);
/* Read an i2c block from command (length clamped to 32); returns bytes read. */
int32_t uirq__i2c_smbus_read_i2c_block_data(const struct uirq_i2c_client *c, uint8_t command,
					    uint8_t length, uint8_t *values,
					    const char *file, int line);
/* Write an i2c block at command (length clamped to 32); returns 0. */
int32_t uirq__i2c_smbus_write_i2c_block_data(const struct uirq_i2c_client *c, uint8_t command,
					     uint8_t length, const uint8_t *values,
					     const char *file, int line);

#define uirq_i2c_smbus_read_byte(c) \
	uirq__i2c_smbus_read_byte((c), __FILE__, __LINE__)
#define uirq_i2c_smbus_write_byte(c, v) \
	uirq__i2c_smbus_write_byte((c), (v), __FILE__, __LINE__)
#define uirq_i2c_smbus_read_byte_data(c, cmd) \
	uirq__i2c_smbus_read_byte_data((c), (cmd), __FILE__, __LINE__)
#define uirq_i2c_smbus_write_byte_data(c, cmd, v) \
	uirq__i2c_smbus_write_byte_data((c), (cmd), (v), __FILE__, __LINE__)
#define uirq_i2c_smbus_read_word_data(c, cmd) \
	uirq__i2c_smbus_read_word_data((c), (cmd), __FILE__, __LINE__)
#define uirq_i2c_smbus_write_word_data(c, cmd, v) \
	uirq__i2c_smbus_write_word_data((c), (cmd), (v), __FILE__, __LINE__)
#define uirq_i2c_smbus_read_i2c_block_data(c, cmd, n, vals) \
	uirq__i2c_smbus_read_i2c_block_data((c), (cmd), (n), (vals), __FILE__, __LINE__)
#define uirq_i2c_smbus_write_i2c_block_data(c, cmd, n, vals) \
	uirq__i2c_smbus_write_i2c_block_data((c), (cmd), (n), (vals), __FILE__, __LINE__)

/* ---- wire time (i2c-timing.c) ---- */

/*
 * Bus time of a transfer: 9 clocks per byte (8 bits + ACK), 1 each for S,
 * Sr and P; a 7-bit address is one byte, a 10-bit one two (three for a read:
 * Sr and the high byte again).  Above 1 MHz (HS mode) each start is preceded
 * by the master code (S + 8 bits + NACK = 10 clocks) sent at 400 kHz, and
 * the start that follows it is a repeated start.
 */
struct uirq_i2c_wire_time {
	uint32_t clocks;		/* SCL clocks at the bus speed */
	uint32_t preamble_clocks;	/* HS master-code clocks, at 400 kHz */
	uint64_t ns;			/* total; each part rounded up to whole ns */
};

/* Compute the wire time of msgs at bus_hz (1 .. 3.4 MHz); 0 or -EINVAL. */
int uirq_i2c_wire_time(const struct uirq_i2c_msg *msgs, int num, unsigned long bus_hz,
		       struct uirq_i2c_wire_time *wt);
/* The wire time in ns of msgs at bus_hz (0 on bad arguments). */
uint64_t uirq_i2c_wire_ns(const struct uirq_i2c_msg *msgs, int num, unsigned long bus_hz);

/* ---- the simulated adapter (i2c-sim.c) ---- */

/*
 * A register-addressed slave: the first byte written in a message is the
 * register pointer, every further byte written or read moves it on by one
 * (wrapping at 0xff); the pointer persists across transfers, as on real
 * chips.  The callbacks run with the bus lock held, in the transfer's
 * thread, before the transfer sleeps for its wire time; a negative return
 * (-EIO for a data NACK) ends the transfer with that error.
 *
 * A slave that is not register-addressed - a touch controller that takes
 * command bytes and answers a plain read with its latest report, as
 * i2c_master_send()/i2c_master_recv() talk to it - sets send and recv
 * instead: each write message is handed to send() whole, each read
 * message is filled by recv() whole (len bytes, len > 0; a zero-length
 * message only addresses the slave), and no pointer is kept.  Either
 * direction may be message-level while the other is register-addressed;
 * a slave with neither callback for a direction fails it -EIO.
 */
struct uirq_i2c_sim_device_ops {
	int (*read)(void *priv, uint8_t reg, uint8_t *val);
	int (*write)(void *priv, uint8_t reg, uint8_t val);
	int (*send)(void *priv, const uint8_t *buf, uint16_t len);
	int (*recv)(void *priv, uint8_t *buf, uint16_t len);
};

struct uirq_i2c_sim;

/* Create and add a simulated adapter at bus_hz into *out; -EINVAL, -ENOMEM. */
int uirq_i2c_sim_new(const char *name, unsigned long bus_hz, struct uirq_i2c_sim **out);
/* Delete the adapter and free it; -EBUSY (nothing freed) while clients remain. */
int uirq_i2c_sim_free(struct uirq_i2c_sim *sim);
/* The simulated adapter's uirq_i2c_adapter. */
struct uirq_i2c_adapter *uirq_i2c_sim_adapter(struct uirq_i2c_sim *sim);
/* Attach a slave at a 7-bit address; -EINVAL, -EBUSY if one is there. */
int uirq_i2c_sim_attach(struct uirq_i2c_sim *sim, uint16_t addr,
			const struct uirq_i2c_sim_device_ops *ops, void *priv);
/* Detach the slave at addr (waits for a transfer in flight); -ENODEV if none. */
int uirq_i2c_sim_detach(struct uirq_i2c_sim *sim, uint16_t addr);
/* Change the bus speed (1 Hz .. 3.4 MHz); -EINVAL otherwise. */
int uirq_i2c_sim_set_bus_speed(struct uirq_i2c_sim *sim, unsigned long bus_hz);
/* The current bus speed in Hz. */
unsigned long uirq_i2c_sim_bus_speed(struct uirq_i2c_sim *sim);

/*
 * Fault injection.  Precedence per transfer: stuck bus, Nth-transfer error,
 * address/register match, address NAK, then the slaves' own errors.  An
 * injected -ETIMEDOUT waits the adapter timeout, as a stuck bus does.
 */
/*
 * Make the slave at addr (present or not) not ACK its address: its transfers
 * fail -ENXIO.  Returns 0, or -EINVAL (sim NULL, addr above 0x7f).
 */
int uirq_i2c_sim_set_nak(struct uirq_i2c_sim *sim, uint16_t addr, bool nak);
/*
 * Fail the nth transfer from now (1: the next; 0 cancels) with err (a
 * negative errno).  Returns 0, or -EINVAL (sim NULL, err not a negative errno).
 */
int uirq_i2c_sim_fail_nth(struct uirq_i2c_sim *sim, unsigned int nth, int err);
/*
 * Fail every transfer to addr whose register pointer is reg (-1: any) with
 * err; err 0 removes the rule for (addr, reg).  Returns 0, or -EINVAL (sim
 * NULL, addr above 0x7f, reg not -1..0xff, err not a negative errno),
 * -ENOSPC (every rule slot is taken).
 */
int uirq_i2c_sim_fail_match(struct uirq_i2c_sim *sim, uint16_t addr, int reg, int err);
/* Hold the bus stuck: transfers wait the adapter timeout and fail -ETIMEDOUT. */
void uirq_i2c_sim_set_stuck(struct uirq_i2c_sim *sim, bool stuck);
/* Add delay_ns of controller latency to every transfer. */
void uirq_i2c_sim_set_delay(struct uirq_i2c_sim *sim, uint64_t delay_ns);
/* Remove every injected fault and the added delay. */
void uirq_i2c_sim_clear_faults(struct uirq_i2c_sim *sim);
/* How many transfers an injected fault has failed so far. */
uint64_t uirq_i2c_sim_faults_injected(struct uirq_i2c_sim *sim);

/* ---- i2c-dev adapters (i2c-dev.c) ---- */

/*
 * A registered adapter backed by a Linux i2c-dev node, chosen by
 * "/dev/i2c-N", "N" or the adapter's name (/sys/class/i2c-dev/i2c-N/name):
 * 0 and *out, or -errno (-ENOENT, -EACCES, -ENOTTY not an i2c-dev node,
 * ...).  Its name is "i2c-dev:" and the kernel adapter's name; its
 * functionality is the kernel adapter's (I2C_FUNCS).  SMBus transactions go
 * through libi2c (the kernel emulates what its adapter lacks); plain
 * transfers through I2C_RDWR, only when the kernel adapter has
 * UIRQ_I2C_FUNC_I2C (i2c-stub has not: -EOPNOTSUPP).  Kernel errors pass
 * through unchanged (-ENXIO: no ACK).  An address that a kernel driver
 * owns gives -EBUSY: the adapter never forces (I2C_SLAVE_FORCE) its way
 * past a driver.  Transfers sleep in the kernel, so they are might_sleep
 * points like every uirq i2c transfer.
 */
int uirq_i2c_dev_open(const char *which, struct uirq_i2c_adapter **out);
/*
 * The node uirq_i2c_dev_open() opens for which, into path (size bytes), so
 * that a message can name the file it tried: 0, -EINVAL (empty),
 * -ENOENT (no adapter has that name) or -ENAMETOOLONG.
 */
int uirq_i2c_dev_path(const char *which, char *path, size_t size);
/* Unregister and close the adapter; refused with a warning (nothing closed) while clients remain. */
void uirq_i2c_dev_close(struct uirq_i2c_adapter *adap);

#ifdef __cplusplus
}
#endif
#endif

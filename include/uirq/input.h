/* SPDX-License-Identifier: MIT */
/*
 * input: devices with capability bits, event reporting with the kernel's
 * filtering and framing (drivers/input/input.c), and evdev-style clients
 * that read the events (drivers/input/evdev.c).  Event codes are the
 * system's <linux/input-event-codes.h>.
 *
 * Event path: uirq_input_event() may be called from hard-irq context, from
 * irq threads and from process context; it takes only irqsave spinlocks and
 * never sleeps.  Events reach clients a frame at a time: a reader sees
 * nothing of a frame until its SYN_REPORT.
 *
 * Timestamps: all events of a frame carry one time, as in the kernel, taken
 * when the frame's first accepted event is reported (the kernel takes it
 * at the flush; taking it at the report makes edge-to-event latency exact).
 * Each client chooses its clock: CLOCK_MONOTONIC by default (evdev's
 * default is CLOCK_REALTIME), CLOCK_REALTIME or CLOCK_BOOTTIME.
 *
 * Lifetime, as in the kernel: uirq_input_free_device() is only for a
 * device that was never registered (or whose registration failed); once
 * registered, uirq_input_unregister_device() drops the driver's reference
 * and the memory goes when the last client closes.
 */
#ifndef UIRQ_INPUT_H
#define UIRQ_INPUT_H

#include <linux/input-event-codes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "uirq/mutex.h"
#include "uirq/spinlock.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UIRQ_BITS_PER_LONG	(8 * sizeof(long))
#define UIRQ_BITS_TO_LONGS(n)	(((n) + UIRQ_BITS_PER_LONG - 1) / UIRQ_BITS_PER_LONG)

/* One event; the layout of the kernel's struct input_event on this ABI. */
struct uirq_input_event {
	struct timeval time;
	uint16_t type;
	uint16_t code;
	int32_t value;
};

/* The kernel's struct input_id. */
struct uirq_input_id {
	uint16_t bustype;
	uint16_t vendor;
	uint16_t product;
	uint16_t version;
};

/* An event without its time, as the core buffers a frame. */
struct uirq_input_value {
	uint16_t type;
	uint16_t code;
	int32_t value;
};

#define UIRQ_INPUT_MAX_VALS	32	/* events a frame holds before a forced SYN_REPORT */
#define UIRQ_INPUT_CLIENT_BUFSIZE 64	/* events a client buffers (evdev's minimum): two full frames */

struct uirq_input_client;
struct uirq_input_handle;

/*
 * An input device.  Set name, phys, id, capabilities (uirq_input_set_capability
 * or the bitmaps) and optional open/close before registering.
 */
struct uirq_input_dev {
	const char *name;
	const char *phys;
	const char *uniq;
	struct uirq_input_id id;

	unsigned long evbit[UIRQ_BITS_TO_LONGS(EV_CNT)];
	unsigned long keybit[UIRQ_BITS_TO_LONGS(KEY_CNT)];
	unsigned long relbit[UIRQ_BITS_TO_LONGS(REL_CNT)];
	unsigned long mscbit[UIRQ_BITS_TO_LONGS(MSC_CNT)];
	unsigned long swbit[UIRQ_BITS_TO_LONGS(SW_CNT)];

	/* Called (may sleep) when the first client opens / the last one closes. */
	int (*open)(struct uirq_input_dev *dev);
	void (*close)(struct uirq_input_dev *dev);
	void *driver_data;

	/* private to the input core */
	unsigned long key[UIRQ_BITS_TO_LONGS(KEY_CNT)];	/* keys down now */
	unsigned long sw[UIRQ_BITS_TO_LONGS(SW_CNT)];		/* switches on now */
	uirq_spinlock_t event_lock;	/* the event path: state, frame, client list */
	uirq_mutex_t mutex;		/* open/close/unregister */
	int refs;			/* atomic */
	int state;			/* allocated, registered, gone; under event_lock */
	int nr;				/* inputN */
	unsigned int users;		/* open handles (evdev clients among them), under mutex */
	struct uirq_input_handle *handles;	/* under event_lock */
	unsigned int num_vals;
	bool stamp_valid;
	struct timespec stamp[3];	/* monotonic, realtime, boottime of the frame */
	struct uirq_input_value vals[UIRQ_INPUT_MAX_VALS];
};

/* ---- devices (input.c) ---- */

/* A zeroed device with one reference in *out; -ENOMEM (*out NULL). */
int uirq_input_allocate_device(struct uirq_input_dev **out);
/* Free a device that is not registered (NULL is ignored; a registered one is refused with a warning). */
void uirq_input_free_device(struct uirq_input_dev *dev);
/* Make the device live: EV_SYN is added, bits of unset types cleared; -EINVAL if done before. */
int uirq_input_register_device(struct uirq_input_dev *dev);
/* Take the device away: clients' reads fail -ENODEV, the driver's reference is dropped. */
void uirq_input_unregister_device(struct uirq_input_dev *dev);
/* Declare that the device can emit (type, code): EV_KEY, EV_REL, EV_MSC, EV_SW. */
void uirq_input_set_capability(struct uirq_input_dev *dev, unsigned int type, unsigned int code);
/* Report one event; filtered and framed as the kernel does.  Never sleeps. */
void uirq_input_event(struct uirq_input_dev *dev, unsigned int type, unsigned int code, int value);
/* True while the key is down in the device's state. */
bool uirq_input_key_pressed(struct uirq_input_dev *dev, unsigned int code);
/* The number N of the device's name inputN (-1 before registration). */
int uirq_input_device_nr(const struct uirq_input_dev *dev);

/* Report a key: 1 down, 0 up, 2 autorepeat (passed only while down). */
static inline void uirq_input_report_key(struct uirq_input_dev *dev, unsigned int code, int value)
{
	uirq_input_event(dev, EV_KEY, code, value == 2 ? 2 : !!value);
}

/* Report a switch position. */
static inline void uirq_input_report_switch(struct uirq_input_dev *dev, unsigned int code, int value)
{
	uirq_input_event(dev, EV_SW, code, !!value);
}

/* Report a relative motion (0 is dropped). */
static inline void uirq_input_report_rel(struct uirq_input_dev *dev, unsigned int code, int value)
{
	uirq_input_event(dev, EV_REL, code, value);
}

/* End a frame: SYN_REPORT, emitted only if the frame holds an event. */
static inline void uirq_input_sync(struct uirq_input_dev *dev)
{
	uirq_input_event(dev, EV_SYN, SYN_REPORT, 0);
}

/* Attach driver data to the device. */
static inline void uirq_input_set_drvdata(struct uirq_input_dev *dev, void *data)
{
	dev->driver_data = data;
}

/* The driver data attached with uirq_input_set_drvdata(). */
static inline void *uirq_input_get_drvdata(struct uirq_input_dev *dev)
{
	return dev->driver_data;
}

/* ---- handles (input.c) ---- */

/*
 * A consumer of a device's events: the kernel's input handle, reduced to
 * its handler's events() and disconnect() calls.  Every consumer is one -
 * each evdev client (evdev.c) and the uinput bridge alike.  Fill events
 * (and disconnect, priv), then register.
 */
struct uirq_input_handle {
	/*
	 * Called with each frame the core passes - every event that survived
	 * its filtering, SYN_REPORT last - and the frame's CLOCK_MONOTONIC
	 * time, in the reporting context (maybe hard-irq) under the device's
	 * event_lock: it must not sleep nor report events.
	 */
	void (*events)(struct uirq_input_handle *handle, const struct uirq_input_value *vals,
		       unsigned int count, const struct timespec *time);
	/* Optional: the device is being unregistered; under event_lock, must not sleep. */
	void (*disconnect)(struct uirq_input_handle *handle);
	void *priv;			/* the consumer's own */

	/* private to the input core */
	struct uirq_input_dev *dev;
	struct uirq_input_handle *next;
};

/*
 * Attach and open a handle on a registered device (calls dev->open for the
 * first user, as a client does); may sleep.  0, -EINVAL, -EBUSY (attached
 * already), -ENODEV (not registered or gone), or dev->open's error.
 */
int uirq_input_register_handle(struct uirq_input_dev *dev, struct uirq_input_handle *handle);
/* Close and detach (dev->close for the last user); once it returns, no events() call runs. */
void uirq_input_unregister_handle(struct uirq_input_handle *handle);

/* ---- clients (evdev.c) ---- */

#define UIRQ_INPUT_NONBLOCK	0x1	/* uirq_input_read(): -EAGAIN instead of waiting */

/*
 * Open a client on a registered device (calls dev->open for the first)
 * into *out.  -ENODEV not registered or gone, -EINVAL, -ENOMEM, -EMFILE,
 * or dev->open's error (*out NULL).
 */
int uirq_input_open(struct uirq_input_dev *dev, struct uirq_input_client **out);
/* Close a client (calls dev->close for the last); no read may be in progress. */
void uirq_input_close(struct uirq_input_client *client);
/*
 * Read up to max whole-frame events into ev.  Returns the count (> 0),
 * -EAGAIN (UIRQ_INPUT_NONBLOCK and nothing buffered), -ENODEV (device
 * unregistered; wakes blocked readers), -EINVAL.  Blocking reads may sleep.
 */
int uirq_input_read(struct uirq_input_client *client, struct uirq_input_event *ev, int max,
		    unsigned int flags);
/* An eventfd readable (POLLIN) exactly while a frame is buffered or the device is gone. */
int uirq_input_client_fd(const struct uirq_input_client *client);
/* Stamp this client's events with clk (MONOTONIC, REALTIME, BOOTTIME); -EINVAL otherwise.
 * A change with events buffered drops them and queues SYN_DROPPED, as evdev does. */
int uirq_input_client_set_clock(struct uirq_input_client *client, clockid_t clk);
/* How many times this client's buffer overflowed (each queued a SYN_DROPPED). */
unsigned long uirq_input_client_overflows(struct uirq_input_client *client);

/* ---- evtest's view (input-evtest.c) ---- */

/* "EV_KEY", ... or "?" as evtest prints unknown types. */
const char *uirq_input_type_name(unsigned int type);
/* "KEY_POWER", "SYN_REPORT", ... or "?" for a code without a name here. */
const char *uirq_input_code_name(unsigned int type, unsigned int code);
/*
 * Format ev as one line of evtest output, without the newline:
 * "Event: time 12.000345, type 1 (EV_KEY), code 116 (KEY_POWER), value 1" or
 * "Event: time 12.000345, -------------- SYN_REPORT ------------".
 * snprintf's contract: returns the length the full line needs.
 */
int uirq_input_format_event(const struct uirq_input_event *ev, char *buf, size_t size);

/* ---- uinput bridge (uinput.c) ---- */

/*
 * A kernel input device (libevdev uinput) mirroring a uirq one: same name,
 * phys, id and capability bits (not uniq: uinput cannot set it), and every
 * frame the uirq core passes is written to it from the reporting context,
 * hard-irq included (one non-blocking write per event).  The kernel stamps
 * the mirrored events with its own time.  The mirror is a user of the
 * device (dev->open).
 */
struct uirq_uinput;

/*
 * Mirror a registered uirq input device as a kernel input device: every
 * event it reports from now on also appears on /dev/input/eventN.  0 and
 * *out, or -errno (-ENODEV not registered, -ENOENT no /dev/uinput, -EACCES).
 */
int uirq_uinput_create(struct uirq_input_dev *dev, struct uirq_uinput **out);
/* The mirror's /dev/input/eventN, or NULL when the kernel has no evdev node for it. */
const char *uirq_uinput_devnode(const struct uirq_uinput *u);
/* Events the kernel refused (a failed write to /dev/uinput); 0 normally. */
unsigned long uirq_uinput_write_errors(const struct uirq_uinput *u);
/* Destroy the kernel device; no more events are mirrored (NULL is ignored). */
void uirq_uinput_destroy(struct uirq_uinput *u);

#ifdef __cplusplus
}
#endif
#endif

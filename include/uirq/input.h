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
 *
 * Absolute axes and multi-touch, as the kernel's input core and its
 * multi-touch library (drivers/input/input-mt.c) do them: each axis has a
 * struct uirq_input_absinfo (value, range, fuzz, flat, resolution); an
 * EV_ABS report passes only if it changes the axis's value after the
 * kernel's fuzz filter.  Multi-touch devices speak protocol B
 * (Documentation/input/multi-touch-protocol.rst): the driver selects a
 * slot with ABS_MT_SLOT - staged, emitted only in front of the first of
 * its values that passes - and reports that slot's ABS_MT_* values, each
 * filtered against the slot's own; uirq_input_mt_report_slot_state() gives
 * a new contact a tracking id and lifts one with id -1;
 * uirq_input_mt_sync_frame() lifts the contacts not reported in the frame
 * (UIRQ_INPUT_MT_DROP_UNUSED) and emulates a single-touch pointer
 * (BTN_TOUCH, ABS_X/Y/PRESSURE of the oldest contact, and the finger count
 * as BTN_TOOL_* for a UIRQ_INPUT_MT_POINTER device).
 *
 * Frames hold what the kernel estimates a device's packet to be (its axes,
 * slots and keys; hint_events_per_packet if the driver's is larger), and
 * never fewer than UIRQ_INPUT_MAX_VALS - 1 events: a longer frame is
 * closed early with a SYN_REPORT of the core's.  A client buffers eight
 * such packets (at least UIRQ_INPUT_CLIENT_BUFSIZE events), as evdev does.
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

#define UIRQ_INPUT_MAX_VALS	32	/* at least: a frame holds one less before a forced SYN_REPORT */
#define UIRQ_INPUT_CLIENT_BUFSIZE 64	/* at least: events a client buffers (evdev's minimum) */

/* One axis: its value now and its range; the layout of the kernel's struct input_absinfo. */
struct uirq_input_absinfo {
	int32_t value;
	int32_t minimum;
	int32_t maximum;
	int32_t fuzz;		/* changes within it are noise, filtered (see uirq_input_event) */
	int32_t flat;		/* a joystick's dead zone, for clients; the core ignores it */
	int32_t resolution;	/* units per mm (per radian for ABS_RX..RZ) */
};

/* The per-contact axes, ABS_MT_TOUCH_MAJOR .. ABS_MT_TOOL_Y (ABS_MT_SLOT selects, it is no value). */
#define UIRQ_INPUT_ABS_MT_FIRST	ABS_MT_TOUCH_MAJOR
#define UIRQ_INPUT_ABS_MT_LAST	ABS_MT_TOOL_Y

/* uirq_input_mt_init_slots() flags: the kernel's INPUT_MT_* values. */
#define UIRQ_INPUT_MT_POINTER		0x0001	/* a pointer (touchpad): finger count, INPUT_PROP_POINTER */
#define UIRQ_INPUT_MT_DIRECT		0x0002	/* on a display (touchscreen): INPUT_PROP_DIRECT */
#define UIRQ_INPUT_MT_DROP_UNUSED	0x0004	/* sync_frame lifts contacts the frame did not report */
#define UIRQ_INPUT_MT_TRACK		0x0008	/* the kernel's in-core tracking: accepted, not done here */
#define UIRQ_INPUT_MT_SEMI_MT		0x0010	/* a bounding box, not contacts: INPUT_PROP_SEMI_MT */
#define UIRQ_INPUT_MT_TRKID_MAX		0xffff	/* tracking ids count up and wrap here */
#define UIRQ_INPUT_MT_MAX_SLOTS		1024	/* the kernel's limit */

struct uirq_input_client;
struct uirq_input_handle;
struct uirq_input_mt;

/*
 * An input device.  Set name, phys, id, capabilities (uirq_input_set_capability
 * or the bitmaps) and optional open/close before registering.
 */
struct uirq_input_dev {
	const char *name;
	const char *phys;
	const char *uniq;
	struct uirq_input_id id;

	unsigned long propbit[UIRQ_BITS_TO_LONGS(INPUT_PROP_CNT)];	/* INPUT_PROP_*: what the device is */
	unsigned long evbit[UIRQ_BITS_TO_LONGS(EV_CNT)];
	unsigned long keybit[UIRQ_BITS_TO_LONGS(KEY_CNT)];
	unsigned long relbit[UIRQ_BITS_TO_LONGS(REL_CNT)];
	unsigned long absbit[UIRQ_BITS_TO_LONGS(ABS_CNT)];
	unsigned long mscbit[UIRQ_BITS_TO_LONGS(MSC_CNT)];
	unsigned long swbit[UIRQ_BITS_TO_LONGS(SW_CNT)];
	/* ABS_CNT axes, allocated with the first absolute axis set up (NULL until then) */
	struct uirq_input_absinfo *absinfo;
	/* The events of one packet, if the driver knows better than the core's estimate (0: it does not). */
	unsigned int hint_events_per_packet;

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
	struct uirq_input_mt *mt;	/* slots (uirq_input_mt_init_slots), under event_lock */
	unsigned int max_vals;		/* what vals holds, set at registration */
	unsigned int num_vals;
	bool stamp_valid;
	struct timespec stamp[3];	/* monotonic, realtime, boottime of the frame */
	struct uirq_input_value *vals;	/* the frame being built */
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
/*
 * Declare that the device can emit (type, code): EV_KEY, EV_REL, EV_ABS
 * (the axes' absinfo allocated, the range left 0..0), EV_MSC, EV_SW.
 */
void uirq_input_set_capability(struct uirq_input_dev *dev, unsigned int type, unsigned int code);
/* Mark the device as one of the INPUT_PROP_* kinds (INPUT_PROP_DIRECT: a touchscreen, ...). */
void uirq_input_set_prop(struct uirq_input_dev *dev, unsigned int prop);
/* Allocate dev->absinfo (ABS_CNT axes, zeroed) unless it is there: 0 or -ENOMEM. */
int uirq_input_alloc_absinfo(struct uirq_input_dev *dev);
/*
 * Declare an absolute axis with its range, fuzz and flat (EV_ABS and the
 * axis's bit set, absinfo allocated): 0, -EINVAL (axis above ABS_MAX) or
 * -ENOMEM.  Before registration; the resolution is absinfo[axis].resolution.
 */
int uirq_input_set_abs_params(struct uirq_input_dev *dev, unsigned int axis, int min, int max, int fuzz,
			      int flat);
/*
 * An axis as a client's EVIOCGABS reads it - value now, range, fuzz, flat,
 * resolution - into *out: 0, or -EINVAL (no such axis on the device).  As
 * in the kernel, a per-contact axis keeps no value of its own (a slot's is
 * uirq_input_mt_get_value()'s), and ABS_MT_SLOT's is the slot last emitted.
 */
int uirq_input_get_absinfo(struct uirq_input_dev *dev, unsigned int axis, struct uirq_input_absinfo *out);
/*
 * Report one event; filtered and framed as the kernel does.  Never sleeps.
 * Before registration it changes the device's state (keys, switches, axes)
 * and goes to no one, as in the kernel.
 */
void uirq_input_event(struct uirq_input_dev *dev, unsigned int type, unsigned int code, int value);
/* True while the key is down in the device's state. */
bool uirq_input_key_pressed(struct uirq_input_dev *dev, unsigned int code);
/* True while the switch is on in the device's state (what a client's EVIOCGSW reads). */
bool uirq_input_switch_on(struct uirq_input_dev *dev, unsigned int code);
/* Returns the number N of the device's name inputN, or -1 before registration (no errno). */
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

/* Report an absolute position (dropped when it leaves the axis's value unchanged after the fuzz filter). */
static inline void uirq_input_report_abs(struct uirq_input_dev *dev, unsigned int code, int value)
{
	uirq_input_event(dev, EV_ABS, code, value);
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

/* ---- multi-touch slots, protocol B (input-mt.c) ---- */

/*
 * Give the device num_slots contact slots (1 .. UIRQ_INPUT_MT_MAX_SLOTS)
 * and the UIRQ_INPUT_MT_* behaviour of flags, before registration:
 * ABS_MT_SLOT (0 .. num_slots - 1) and ABS_MT_TRACKING_ID (0 ..
 * UIRQ_INPUT_MT_TRKID_MAX) are set up, every slot starts without a
 * contact.  POINTER or DIRECT add BTN_TOUCH and copy the ABS_MT_POSITION_X,
 * _Y and ABS_MT_PRESSURE axes already set up to ABS_X, _Y and ABS_PRESSURE
 * (without their fuzz: the contact's values were filtered already) for the
 * emulated pointer; POINTER adds BTN_TOOL_FINGER .. one BTN_TOOL_* per
 * slot up to five, and INPUT_PROP_POINTER; DIRECT INPUT_PROP_DIRECT;
 * SEMI_MT INPUT_PROP_SEMI_MT.  0 for num_slots 0 (nothing done) or for
 * the same count again; -EINVAL for another count or too many; -ENOMEM.
 */
int uirq_input_mt_init_slots(struct uirq_input_dev *dev, unsigned int num_slots, unsigned int flags);
/* Free the slots of a device that was not registered (its failed probe); the core frees them otherwise. */
void uirq_input_mt_destroy_slots(struct uirq_input_dev *dev);

/* Select the slot the following ABS_MT_* values are for. */
static inline void uirq_input_mt_slot(struct uirq_input_dev *dev, int slot)
{
	uirq_input_event(dev, EV_ABS, ABS_MT_SLOT, slot);
}

/*
 * The selected slot has a contact (active) or none now: an active slot
 * keeps its tracking id or, if it had no contact, takes the next one; the
 * id (or -1 when lifted) and ABS_MT_TOOL_TYPE tool (if the device has the
 * axis) are reported.  Marks the slot seen in this frame.  Returns active
 * (false without slots).
 */
bool uirq_input_mt_report_slot_state(struct uirq_input_dev *dev, unsigned int tool, bool active);
/* BTN_TOOL_FINGER .. BTN_TOOL_QUINTTAP: the one for count contacts down, the others up. */
void uirq_input_mt_report_finger_count(struct uirq_input_dev *dev, int count);
/*
 * The single-touch view of the slots: BTN_TOUCH while any contact is down;
 * ABS_X, ABS_Y (and ABS_PRESSURE if the device has ABS_MT_PRESSURE) of the
 * oldest contact - the lowest tracking id, counted modulo the id space -
 * or ABS_PRESSURE 0 with none; and with use_count the finger count.
 */
void uirq_input_mt_report_pointer_emulation(struct uirq_input_dev *dev, bool use_count);
/* Lift every contact not reported since the last call (or sync_frame), and start a new frame. */
void uirq_input_mt_drop_unused(struct uirq_input_dev *dev);
/*
 * The end of a frame's slot reports, before the SYN_REPORT: with
 * DROP_UNUSED the contacts not reported are lifted; then the pointer
 * emulation (the finger count for a POINTER device that is not SEMI_MT);
 * then a new frame starts.  Nothing without slots.
 */
void uirq_input_mt_sync_frame(struct uirq_input_dev *dev);
/*
 * Slot slot's value of an ABS_MT_* axis now, as EVIOCGMTSLOTS reads it
 * (ABS_MT_TRACKING_ID -1: no contact): 0 and *value, or -EINVAL (no
 * slots, slot out of range, code not a per-contact axis).
 */
int uirq_input_mt_get_value(struct uirq_input_dev *dev, int slot, unsigned int code, int32_t *value);

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
/*
 * Returns an eventfd readable (POLLIN) exactly while a frame is buffered or
 * the device is gone (the client's; do not close it), or -EINVAL for client NULL.
 */
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
 * phys, id, properties, capability bits and axes (each axis's range, flat
 * and resolution; ABS_MT_SLOT's range gives the kernel device its slots;
 * fuzz 0, as what is mirrored is filtered already) - not uniq: uinput
 * cannot set it - and every
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

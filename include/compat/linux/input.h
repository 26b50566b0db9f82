/* SPDX-License-Identifier: MIT */
/*
 * Input devices as drivers see them (compat/input.c): the kernel's struct
 * input_dev - name, phys, id, the capability bitmaps, a keycode map, the
 * axes' absinfo, open and close under the device's mutex, an embedded
 * struct device - backed by a uirq input device (uirq/input.h) that
 * input_allocate_device() makes with it and input_register_device() fills
 * from it.  Events go to the uirq device: filtered and framed as the
 * kernel does (absolute axes and multi-touch slots included,
 * <linux/input/mt.h>); before registration they are dropped, as the
 * kernel's are when no handler listens.
 *
 * absinfo is the uirq device's own array (the kernel's struct
 * input_absinfo layout, which the core asserts), so that what a driver
 * writes into it before registration and what the core filters with
 * afterwards are one thing, as in the kernel.
 *
 * The system's uAPI <linux/input.h> comes first for the event codes,
 * BUS_*, struct input_id and struct input_absinfo.
 */
#ifndef UIRQ_COMPAT_LINUX_INPUT_H
#define UIRQ_COMPAT_LINUX_INPUT_H

#include_next <linux/input.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include "uirq/input.h"

/* The per-contact axes (ABS_MT_SLOT selects a contact, it is none of them). */
#define ABS_MT_FIRST	ABS_MT_TOUCH_MAJOR
#define ABS_MT_LAST	ABS_MT_TOOL_Y

struct input_dev_poller;

struct input_dev {
	const char *name;
	const char *phys;
	const char *uniq;
	struct input_id id;

	unsigned long propbit[BITS_TO_LONGS(INPUT_PROP_CNT)];
	unsigned long evbit[BITS_TO_LONGS(EV_CNT)];
	unsigned long keybit[BITS_TO_LONGS(KEY_CNT)];
	unsigned long relbit[BITS_TO_LONGS(REL_CNT)];
	unsigned long absbit[BITS_TO_LONGS(ABS_CNT)];
	unsigned long mscbit[BITS_TO_LONGS(MSC_CNT)];
	unsigned long ledbit[BITS_TO_LONGS(LED_CNT)];
	unsigned long sndbit[BITS_TO_LONGS(SND_CNT)];
	unsigned long ffbit[BITS_TO_LONGS(FF_CNT)];
	unsigned long swbit[BITS_TO_LONGS(SW_CNT)];

	unsigned int hint_events_per_packet;
	unsigned int keycodemax;
	unsigned int keycodesize;
	void *keycode;
	struct input_absinfo *absinfo;

	int (*open)(struct input_dev *dev);
	void (*close)(struct input_dev *dev);

	/* Held around open and close, as the kernel's input core holds it; drivers take it too. */
	struct mutex mutex;
	/* Open by a user: what input_device_enabled() answers, under mutex. */
	unsigned int users;
	bool inhibited;			/* never set here: there is no sysfs to inhibit through */
	struct input_dev_poller *poller;

	struct device dev;
	bool devres_managed;

	/* uirq's: the device events go to, made with this one; set once it is registered */
	struct uirq_input_dev *uirq;
	_Atomic bool uirq_registered;
	bool uirq_was_registered;	/* registration begun (the core holds the uirq device's memory once it succeeds) */
	spinlock_t uirq_early_lock;	/* reports before registration against its beginning, and uirq_was_registered */
	struct input_dev *uirq_next;	/* the registered devices, as the kernel's input_dev_list */
};

#define to_input_dev(d)	container_of((d), struct input_dev, dev)

/* A new device, or NULL. */
struct input_dev *input_allocate_device(void);
/* As input_allocate_device(), unregistered (or freed) when dev's driver unbinds. */
struct input_dev *devm_input_allocate_device(struct device *dev);
/* Free a device that was never registered. */
void input_free_device(struct input_dev *dev);
/* Make it live (capabilities, names copied to the uirq device): 0 or -errno. */
int input_register_device(struct input_dev *dev);
void input_unregister_device(struct input_dev *dev);
void input_set_capability(struct input_dev *dev, unsigned int type, unsigned int code);
void input_event(struct input_dev *dev, unsigned int type, unsigned int code, int value);

static inline void input_report_key(struct input_dev *dev, unsigned int code, int value)
{
	input_event(dev, EV_KEY, code, !!value);
}

static inline void input_report_rel(struct input_dev *dev, unsigned int code, int value)
{
	input_event(dev, EV_REL, code, value);
}

static inline void input_report_abs(struct input_dev *dev, unsigned int code, int value)
{
	input_event(dev, EV_ABS, code, value);
}

/* dev->absinfo for ABS_CNT axes, unless it has one (logged on failure, as the kernel's). */
void input_alloc_absinfo(struct input_dev *dev);
/* An absolute axis with its range, fuzz and flat: EV_ABS and the axis's bit set. */
void input_set_abs_params(struct input_dev *dev, unsigned int axis, int min, int max, int fuzz, int flat);
/* The driver's open users and not inhibited; dev->mutex held (kxtj9's suspend asks under it). */
bool input_device_enabled(struct input_dev *dev);

/* input_abs_get_val() ... input_abs_set_res(): the fields of dev->absinfo[axis], as the kernel's accessors. */
#define UIRQ_COMPAT_ABS_ACCESSORS(name, field)					\
	static inline int input_abs_get_##name(struct input_dev *dev, unsigned int axis) \
	{									\
		return dev->absinfo ? dev->absinfo[axis].field : 0;		\
	}									\
	static inline void input_abs_set_##name(struct input_dev *dev, unsigned int axis, int val) \
	{									\
		input_alloc_absinfo(dev);					\
		if (dev->absinfo)						\
			dev->absinfo[axis].field = val;				\
	}
UIRQ_COMPAT_ABS_ACCESSORS(val, value)
UIRQ_COMPAT_ABS_ACCESSORS(min, minimum)
UIRQ_COMPAT_ABS_ACCESSORS(max, maximum)
UIRQ_COMPAT_ABS_ACCESSORS(fuzz, fuzz)
UIRQ_COMPAT_ABS_ACCESSORS(flat, flat)
UIRQ_COMPAT_ABS_ACCESSORS(res, resolution)
#undef UIRQ_COMPAT_ABS_ACCESSORS

/*
 * Polled devices (compat/input-poller.c): a device without an interrupt
 * has poll() called when it is opened and then every poll interval (ms;
 * 500 unless set) until it is closed, from the threaded handler of a
 * timerfd line (the kernel's delayed work).  The interval calls need
 * input_setup_polling() first (the getter says -EINVAL without it).
 */
int input_setup_polling(struct input_dev *dev, void (*poll_fn)(struct input_dev *dev));
void input_set_poll_interval(struct input_dev *dev, unsigned int interval);
void input_set_min_poll_interval(struct input_dev *dev, unsigned int interval);
void input_set_max_poll_interval(struct input_dev *dev, unsigned int interval);
int input_get_poll_interval(struct input_dev *dev);

static inline void input_report_switch(struct input_dev *dev, unsigned int code, int value)
{
	input_event(dev, EV_SW, code, !!value);
}

static inline void input_sync(struct input_dev *dev)
{
	input_event(dev, EV_SYN, SYN_REPORT, 0);
}

static inline void input_set_drvdata(struct input_dev *dev, void *data)
{
	dev_set_drvdata(&dev->dev, data);
}

static inline void *input_get_drvdata(struct input_dev *dev)
{
	return dev_get_drvdata(&dev->dev);
}

/*
 * The registered device whose parent is parent (the first, if several), or
 * NULL: how a board finds the input device a driver made on its device.
 */
struct input_dev *uirq_compat_input_find(const struct device *parent);
/*
 * The newest registered device called name, or NULL: how a board's udev
 * finds a device the moment it appears, as user space may open it then.
 */
struct input_dev *uirq_compat_input_find_name(const char *name);

/* The uirq input device behind dev (for a board or a reader: uirq_input_open()). */
static inline struct uirq_input_dev *uirq_compat_input_dev(struct input_dev *dev)
{
	return dev ? dev->uirq : NULL;
}

#endif

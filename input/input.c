// SPDX-License-Identifier: MIT
/*
 * The input core: devices, capabilities, and the event path that decides,
 * as drivers/input/input.c does, which reports become events and when a
 * frame is handed to the clients.
 */
#include "input-core.h"
#include "uirq/printk.h"

#include <errno.h>
#include <linux/input.h>	/* the system's uAPI struct, for the layout check only */
#include <stdio.h>
#include <stdlib.h>

_Static_assert(sizeof(struct uirq_input_event) == sizeof(struct input_event),
	       "struct uirq_input_event must match the kernel's struct input_event");
_Static_assert(offsetof(struct uirq_input_event, type) == offsetof(struct input_event, type) &&
	       offsetof(struct uirq_input_event, code) == offsetof(struct input_event, code) &&
	       offsetof(struct uirq_input_event, value) == offsetof(struct input_event, value),
	       "struct uirq_input_event field offsets must match struct input_event");
/* The kernel-shaped layer hands drivers this array as the kernel's struct input_absinfo. */
_Static_assert(sizeof(struct uirq_input_absinfo) == sizeof(struct input_absinfo) &&
	       offsetof(struct uirq_input_absinfo, value) == offsetof(struct input_absinfo, value) &&
	       offsetof(struct uirq_input_absinfo, minimum) == offsetof(struct input_absinfo, minimum) &&
	       offsetof(struct uirq_input_absinfo, maximum) == offsetof(struct input_absinfo, maximum) &&
	       offsetof(struct uirq_input_absinfo, fuzz) == offsetof(struct input_absinfo, fuzz) &&
	       offsetof(struct uirq_input_absinfo, flat) == offsetof(struct input_absinfo, flat) &&
	       offsetof(struct uirq_input_absinfo, resolution) == offsetof(struct input_absinfo, resolution),
	       "struct uirq_input_absinfo must match struct input_absinfo");

enum {
	INPUT_IGNORE = 0,
	INPUT_PASS = 1,
	INPUT_FLUSH = 2,
	INPUT_SLOT = 4,		/* pass the staged ABS_MT_SLOT first */
};

static int input_next_nr;

static bool supported(unsigned int code, const unsigned long *bits, unsigned int max)
{
	return code <= max && test_bit(code, bits);
}

int uirq_input_allocate_device(struct uirq_input_dev **out)
{
	struct uirq_input_dev *dev = calloc(1, sizeof(*dev));

	*out = dev;
	if (!dev)
		return -ENOMEM;
	uirq_spin_lock_init(&dev->event_lock);
	uirq_mutex_init(&dev->mutex);
	dev->refs = 1;
	dev->state = INPUT_ALLOCATED;
	dev->nr = -1;
	return 0;
}

void input_get_device(struct uirq_input_dev *dev)
{
	__atomic_fetch_add(&dev->refs, 1, __ATOMIC_RELAXED);
}

void input_put_device(struct uirq_input_dev *dev)
{
	if (__atomic_sub_fetch(&dev->refs, 1, __ATOMIC_ACQ_REL))
		return;
	uirq_mutex_destroy(&dev->mutex);
	uirq_lockdep_check_no_locks_freed(dev, sizeof(*dev));
	input_mt_free(dev);
	free(dev->absinfo);
	free(dev->vals);
	free(dev);
}

static int read_state(struct uirq_input_dev *dev)
{
	unsigned long flags;
	int state;

	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	state = dev->state;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	return state;
}

void uirq_input_free_device(struct uirq_input_dev *dev)
{
	if (!dev)
		return;
	if (read_state(dev) != INPUT_ALLOCATED) {
		/* The kernel's rule: a registered device goes by unregister, never by free. */
		uirq_log_printk("input: input_free_device() on registered device %s; use input_unregister_device()\n",
			dev->name ? dev->name : "(unnamed)");
		return;
	}
	input_put_device(dev);
}

void uirq_input_set_capability(struct uirq_input_dev *dev, unsigned int type, unsigned int code)
{
	unsigned long *bits;
	unsigned int max;

	switch (type) {
	case EV_KEY:
		bits = dev->keybit, max = KEY_MAX;
		break;
	case EV_REL:
		bits = dev->relbit, max = REL_MAX;
		break;
	case EV_ABS:
		/* As the kernel: the axis's absinfo exists (registration refuses an axis without). */
		uirq_input_alloc_absinfo(dev);
		bits = dev->absbit, max = ABS_MAX;
		break;
	case EV_MSC:
		bits = dev->mscbit, max = MSC_MAX;
		break;
	case EV_SW:
		bits = dev->swbit, max = SW_MAX;
		break;
	default:
		uirq_log_printk("input_set_capability: unknown type %u (code %u)\n", type, code);
		return;
	}
	if (code > max) {
		uirq_log_printk("input_set_capability: code %u out of range for type %u\n", code, type);
		return;
	}
	set_bit(code, bits);
	set_bit(type, dev->evbit);
}

void uirq_input_set_prop(struct uirq_input_dev *dev, unsigned int prop)
{
	if (prop <= INPUT_PROP_MAX)
		set_bit(prop, dev->propbit);
}

int uirq_input_alloc_absinfo(struct uirq_input_dev *dev)
{
	if (!dev->absinfo)
		dev->absinfo = calloc(ABS_CNT, sizeof(*dev->absinfo));
	return dev->absinfo ? 0 : -ENOMEM;
}

int uirq_input_set_abs_params(struct uirq_input_dev *dev, unsigned int axis, int min, int max, int fuzz,
			      int flat)
{
	struct uirq_input_absinfo *a;

	if (axis > ABS_MAX)
		return -EINVAL;
	set_bit(EV_ABS, dev->evbit);
	set_bit(axis, dev->absbit);
	if (uirq_input_alloc_absinfo(dev))
		return -ENOMEM;
	a = &dev->absinfo[axis];
	a->minimum = min;
	a->maximum = max;
	a->fuzz = fuzz;
	a->flat = flat;
	return 0;
}

int uirq_input_get_absinfo(struct uirq_input_dev *dev, unsigned int axis, struct uirq_input_absinfo *out)
{
	unsigned long flags;
	int ret = -EINVAL;

	if (!dev || !out || axis > ABS_MAX)
		return -EINVAL;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	if (dev->absinfo && test_bit(axis, dev->absbit)) {
		*out = dev->absinfo[axis];
		ret = 0;
	}
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	return ret;
}

/* Bits of a type the device does not declare mean nothing; the kernel cleanses them too. */
static void cleanse(struct uirq_input_dev *dev, unsigned int type, unsigned long *bits, size_t longs)
{
	if (!test_bit(type, dev->evbit))
		for (size_t i = 0; i < longs; i++)
			bits[i] = 0;
}

static unsigned int bits_set(const unsigned long *map, unsigned int nbits)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nbits; i++)
		n += test_bit(i, map);
	return n;
}

/*
 * The events one packet of the device may carry, estimated as the kernel
 * does: per slot a value of every per-contact axis and a SYN_MT_REPORT,
 * one per other axis and relative code, and room for keys and MSC.
 */
static unsigned int estimate_events_per_packet(const struct uirq_input_dev *dev)
{
	unsigned int slots = 0, events;

	if (dev->mt) {
		slots = (unsigned int)dev->mt->num_slots;
	} else if (test_bit(ABS_MT_TRACKING_ID, dev->absbit)) {
		/* protocol A with tracking: as many contacts as ids, within 2 .. 32 */
		long ids = (long)dev->absinfo[ABS_MT_TRACKING_ID].maximum -
			   dev->absinfo[ABS_MT_TRACKING_ID].minimum + 1;

		slots = ids < 2 ? 2 : ids > 32 ? 32 : (unsigned int)ids;
	} else if (test_bit(ABS_MT_POSITION_X, dev->absbit)) {
		slots = 2;
	}
	events = slots + 1;
	if (test_bit(EV_ABS, dev->evbit))
		for (unsigned int i = 0; i < ABS_CNT; i++)
			if (test_bit(i, dev->absbit))
				events += i == ABS_MT_SLOT || input_is_mt_value(i) ? slots : 1;
	if (test_bit(EV_REL, dev->evbit))
		events += bits_set(dev->relbit, REL_CNT);
	return events + 7;
}

/* The frame buffer: the kernel's packet estimate, never less than UIRQ_INPUT_MAX_VALS. */
static int alloc_frame(struct uirq_input_dev *dev)
{
	unsigned int estimate = estimate_events_per_packet(dev);

	if (dev->hint_events_per_packet < estimate)
		dev->hint_events_per_packet = estimate;
	dev->max_vals = dev->hint_events_per_packet + 1;
	if (dev->max_vals < UIRQ_INPUT_MAX_VALS)
		dev->max_vals = UIRQ_INPUT_MAX_VALS;
	free(dev->vals);
	/* One more than max_vals: a slot change adds its ABS_MT_SLOT with the value that needs it. */
	dev->vals = calloc(dev->max_vals + 1, sizeof(*dev->vals));
	return dev->vals ? 0 : -ENOMEM;
}

int uirq_input_register_device(struct uirq_input_dev *dev)
{
	unsigned long flags;
	int ret = 0;

	if (!dev)
		return -EINVAL;
	if (test_bit(EV_ABS, dev->evbit) && !dev->absinfo) {
		uirq_log_printk("input: %s: Absolute device without dev->absinfo, refusing to register\n",
			dev->name ? dev->name : "(unnamed)");
		return -EINVAL;
	}
	set_bit(EV_SYN, dev->evbit);
	dev->keybit[0] &= ~1ul;	/* KEY_RESERVED is never reported */
	cleanse(dev, EV_KEY, dev->keybit, UIRQ_BITS_TO_LONGS(KEY_CNT));
	cleanse(dev, EV_REL, dev->relbit, UIRQ_BITS_TO_LONGS(REL_CNT));
	cleanse(dev, EV_ABS, dev->absbit, UIRQ_BITS_TO_LONGS(ABS_CNT));
	cleanse(dev, EV_MSC, dev->mscbit, UIRQ_BITS_TO_LONGS(MSC_CNT));
	cleanse(dev, EV_SW, dev->swbit, UIRQ_BITS_TO_LONGS(SW_CNT));

	uirq_mutex_lock(&dev->mutex);
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	ret = dev->state != INPUT_ALLOCATED ? -EINVAL : 0;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	/* Nothing reports into an unregistered device: the frame is sized outside the lock. */
	if (!ret)
		ret = alloc_frame(dev);
	if (!ret) {
		uirq_spin_lock_irqsave(&dev->event_lock, flags);
		dev->state = INPUT_REGISTERED;
		__atomic_store_n(&dev->nr, __atomic_fetch_add(&input_next_nr, 1, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
		uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	}
	uirq_mutex_unlock(&dev->mutex);
	return ret;
}

void uirq_input_unregister_device(struct uirq_input_dev *dev)
{
	unsigned long flags;
	bool was_registered;

	if (!dev)
		return;
	uirq_mutex_lock(&dev->mutex);
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	was_registered = dev->state == INPUT_REGISTERED;
	if (was_registered) {
		dev->state = INPUT_GONE;
		dev->num_vals = 0;
		for (struct uirq_input_handle *h = dev->handles; h; h = h->next)
			if (h->disconnect)
				h->disconnect(h);
	}
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	if (was_registered && dev->users && dev->close)
		dev->close(dev);
	dev->users = 0;
	uirq_mutex_unlock(&dev->mutex);
	if (!was_registered) {
		uirq_log_printk("input: input_unregister_device() on a device that is not registered\n");
		return;
	}
	input_put_device(dev);
}

int uirq_input_device_nr(const struct uirq_input_dev *dev)
{
	return __atomic_load_n(&dev->nr, __ATOMIC_RELAXED);
}

/* A bit of the device's state (keys down, switches on), read under the event lock. */
static bool state_bit(struct uirq_input_dev *dev, const unsigned long *map, unsigned int code, unsigned int max)
{
	unsigned long flags;
	bool set;

	if (code > max)
		return false;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	set = test_bit(code, map);
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	return set;
}

bool uirq_input_switch_on(struct uirq_input_dev *dev, unsigned int code)
{
	return state_bit(dev, dev->sw, code, SW_MAX);
}

bool uirq_input_key_pressed(struct uirq_input_dev *dev, unsigned int code)
{
	return state_bit(dev, dev->key, code, KEY_MAX);
}

/*
 * The kernel's fuzz filter: a change within half the fuzz is noise (the
 * old value stays), within the fuzz it moves a quarter of the way, within
 * twice the fuzz half of it; beyond, the new value is taken as it is.
 */
static int defuzz(int value, int old, int fuzz)
{
	if (fuzz) {
		if (value > old - fuzz / 2 && value < old + fuzz / 2)
			return old;
		if (value > old - fuzz && value < old + fuzz)
			return (old * 3 + value) / 4;
		if (value > old - fuzz * 2 && value < old + fuzz * 2)
			return (old + value) / 2;
	}
	return value;
}

/*
 * An absolute report: ABS_MT_SLOT is only staged (a slot in range becomes
 * the current one); every other axis passes when its filtered value
 * differs from the one it has - a per-contact axis the current slot's,
 * without slots nothing (protocol A passes unfiltered).  The first value
 * that passes for a slot other than the last one emitted brings its
 * ABS_MT_SLOT along (INPUT_SLOT).
 */
static int abs_disposition(struct uirq_input_dev *dev, unsigned int code, int *value)
{
	struct uirq_input_mt *mt = dev->mt;
	bool mt_value = input_is_mt_value(code);
	int32_t *old = NULL;

	if (code == ABS_MT_SLOT) {
		if (mt && *value >= 0 && *value < mt->num_slots)
			mt->slot = *value;
		return INPUT_IGNORE;
	}
	if (!mt_value)
		old = &dev->absinfo[code].value;
	else if (mt)
		old = &mt->slots[mt->slot].abs[code - UIRQ_INPUT_ABS_MT_FIRST];
	if (old) {
		*value = defuzz(*value, *old, dev->absinfo[code].fuzz);
		if (*old == *value)
			return INPUT_IGNORE;
		*old = *value;
	}
	if (mt_value && mt && mt->slot != dev->absinfo[ABS_MT_SLOT].value) {
		dev->absinfo[ABS_MT_SLOT].value = mt->slot;
		return INPUT_PASS | INPUT_SLOT;
	}
	return INPUT_PASS;
}

/* Whether a report becomes an event, and whether it ends the frame; updates the device's state. */
static int disposition(struct uirq_input_dev *dev, unsigned int type, unsigned int code, int *value)
{
	switch (type) {
	case EV_SYN:
		if (code == SYN_REPORT)
			return INPUT_PASS | INPUT_FLUSH;
		if (code == SYN_CONFIG || code == SYN_MT_REPORT)
			return INPUT_PASS;
		return INPUT_IGNORE;	/* SYN_DROPPED is the clients' word, not a driver's */
	case EV_KEY:
		if (!supported(code, dev->keybit, KEY_MAX))
			return INPUT_IGNORE;
		if (*value == 2)	/* autorepeat means something only while the key is down */
			return test_bit(code, dev->key) ? INPUT_PASS : INPUT_IGNORE;
		if (test_bit(code, dev->key) == !!*value)
			return INPUT_IGNORE;
		change_bit(code, dev->key);
		return INPUT_PASS;
	case EV_SW:
		if (!supported(code, dev->swbit, SW_MAX) || test_bit(code, dev->sw) == !!*value)
			return INPUT_IGNORE;
		change_bit(code, dev->sw);
		return INPUT_PASS;
	case EV_ABS:
		return supported(code, dev->absbit, ABS_MAX) ? abs_disposition(dev, code, value) : INPUT_IGNORE;
	case EV_MSC:
		return supported(code, dev->mscbit, MSC_MAX) ? INPUT_PASS : INPUT_IGNORE;
	case EV_REL:
		return supported(code, dev->relbit, REL_MAX) && *value ? INPUT_PASS : INPUT_IGNORE;
	default:
		return INPUT_IGNORE;
	}
}

static void take_stamp(struct uirq_input_dev *dev)
{
	struct timespec ts;

	if (input_sim_stamp(&ts)) {
		dev->stamp[INPUT_CLK_MONO] = dev->stamp[INPUT_CLK_REAL] = dev->stamp[INPUT_CLK_BOOT] = ts;
		dev->stamp_valid = true;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &dev->stamp[INPUT_CLK_MONO]);
	clock_gettime(CLOCK_REALTIME, &dev->stamp[INPUT_CLK_REAL]);
	clock_gettime(CLOCK_BOOTTIME, &dev->stamp[INPUT_CLK_BOOT]);
	dev->stamp_valid = true;
}

static void flush_frame(struct uirq_input_dev *dev)
{
	/* A lone SYN_REPORT is no frame: the kernel flushes only with an event besides it. */
	if (dev->num_vals >= 2) {
		for (struct uirq_input_handle *h = dev->handles; h; h = h->next)
			h->events(h, dev->vals, dev->num_vals, &dev->stamp[INPUT_CLK_MONO]);
	}
	dev->num_vals = 0;
	dev->stamp_valid = false;
}

void input_handle_event(struct uirq_input_dev *dev, unsigned int type, unsigned int code, int value)
{
	int disp;

	if (type > EV_MAX || !test_bit(type, dev->evbit) || dev->state == INPUT_GONE)
		return;
	disp = disposition(dev, type, code, &value);
	/*
	 * The kernel's order: the state first (a switch reported in probe is
	 * the device's position), then delivery, which a device not yet
	 * registered has none of (no frame, no clients).
	 */
	if (dev->state != INPUT_REGISTERED)
		return;
	if (disp & INPUT_PASS) {
		if (!dev->stamp_valid)
			take_stamp(dev);
		if (disp & INPUT_SLOT)
			dev->vals[dev->num_vals++] = (struct uirq_input_value){
				.type = EV_ABS, .code = ABS_MT_SLOT, .value = dev->mt->slot,
			};
		dev->vals[dev->num_vals++] = (struct uirq_input_value){
			.type = (uint16_t)type, .code = (uint16_t)code, .value = value,
		};
	}
	if (disp & INPUT_FLUSH) {
		flush_frame(dev);
	} else if (dev->num_vals >= dev->max_vals - 1) {
		/* A frame too long to hold: close it with a SYN_REPORT of our own. */
		dev->vals[dev->num_vals++] = (struct uirq_input_value){ EV_SYN, SYN_REPORT, 0 };
		flush_frame(dev);
	}
}

void uirq_input_event(struct uirq_input_dev *dev, unsigned int type, unsigned int code, int value)
{
	unsigned long flags;

	/* evbit is fixed at registration, so the unsupported are turned away unlocked. */
	if (!dev || type > EV_MAX || !test_bit(type, dev->evbit))
		return;
	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	input_handle_event(dev, type, code, value);
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
}

/* ---- users: handles (evdev clients are handles too) ---- */

int input_open_device(struct uirq_input_dev *dev)
{
	unsigned long flags;
	int ret = 0;

	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	if (dev->state != INPUT_REGISTERED)
		ret = -ENODEV;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	if (!ret && dev->users++ == 0 && dev->open) {
		ret = dev->open(dev);
		if (ret) {
			dev->users--;
			ret = ret < 0 ? ret : -EIO;
		}
	}
	if (!ret)
		input_get_device(dev);
	return ret;
}

void input_close_device(struct uirq_input_dev *dev, void (*unlink)(struct uirq_input_dev *, void *),
			void *user)
{
	unsigned long flags;
	bool last = false;

	uirq_spin_lock_irqsave(&dev->event_lock, flags);
	unlink(dev, user);
	/* After unregister the device was closed already, users is 0. */
	if (dev->state == INPUT_REGISTERED && dev->users && --dev->users == 0)
		last = true;
	uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	if (last && dev->close)
		dev->close(dev);
}

/* ---- handles ---- */

int uirq_input_register_handle(struct uirq_input_dev *dev, struct uirq_input_handle *handle)
{
	unsigned long flags;
	int ret = 0;

	if (!dev || !handle || !handle->events)
		return -EINVAL;
	if (handle->dev)
		return -EBUSY;
	uirq_mutex_lock(&dev->mutex);
	/* A handle is a user: the first one opens the device. */
	ret = input_open_device(dev);
	if (!ret) {
		handle->dev = dev;
		uirq_spin_lock_irqsave(&dev->event_lock, flags);
		handle->next = dev->handles;
		dev->handles = handle;
		uirq_spin_unlock_irqrestore(&dev->event_lock, flags);
	}
	uirq_mutex_unlock(&dev->mutex);
	return ret;
}

/* events() runs under event_lock: once unlinked under it, no call is left running. */
static void unlink_handle(struct uirq_input_dev *dev, void *user)
{
	for (struct uirq_input_handle **pp = &dev->handles; *pp; pp = &(*pp)->next)
		if (*pp == user) {
			*pp = (*pp)->next;
			break;
		}
}

void uirq_input_unregister_handle(struct uirq_input_handle *handle)
{
	struct uirq_input_dev *dev;

	if (!handle || !handle->dev)
		return;
	dev = handle->dev;
	uirq_mutex_lock(&dev->mutex);
	input_close_device(dev, unlink_handle, handle);
	uirq_mutex_unlock(&dev->mutex);
	handle->dev = NULL;
	handle->next = NULL;
	input_put_device(dev);
}

// SPDX-License-Identifier: MIT
/* An interrupt output of a hardware model, delivered in order outside the chip's lock (model-pin.h). */
#include <sched.h>

#include "model-pin.h"

void model_pin_init(struct model_pin *p, pthread_mutex_t *lock, bool level)
{
	*p = (struct model_pin){ .lock = lock, .level = level };
}

void model_pin_deliver(struct model_pin *p)
{
	pthread_mutex_lock(p->lock);
	if (p->delivering) {
		/* The deliverer loops until the listener matches: this change reaches it too. */
		pthread_mutex_unlock(p->lock);
		return;
	}
	p->delivering = true;
	while (p->fn && (!p->valid || p->reported != p->level)) {
		model_pin_fn fn = p->fn;
		void *arg = p->arg;
		bool level = p->level;

		p->reported = level;
		p->valid = true;
		pthread_mutex_unlock(p->lock);
		fn(level, arg);
		pthread_mutex_lock(p->lock);
	}
	p->delivering = false;
	pthread_mutex_unlock(p->lock);
}

void model_pin_connect(struct model_pin *p, model_pin_fn fn, void *arg)
{
	pthread_mutex_lock(p->lock);
	p->fn = fn;
	p->arg = arg;
	p->valid = false;	/* a new listener hears the current level */
	pthread_mutex_unlock(p->lock);
	model_pin_deliver(p);
}

void model_pin_disconnect(struct model_pin *p)
{
	pthread_mutex_lock(p->lock);
	p->fn = NULL;
	/* A delivery in progress on another thread must finish before the listener goes. */
	while (p->delivering) {
		pthread_mutex_unlock(p->lock);
		sched_yield();
		pthread_mutex_lock(p->lock);
	}
	pthread_mutex_unlock(p->lock);
}

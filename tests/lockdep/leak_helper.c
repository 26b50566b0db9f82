// SPDX-License-Identifier: MIT
/*
 * Run by test_lockdep_leak (ASan builds only): leaks three heap objects that
 * contain locks lockdep has seen, then exits and lets LeakSanitizer judge.
 *
 *   4328 bytes: a uirq_spinlock_t initialised by uirq_spin_lock_init (static key)
 *   4568 bytes: a uirq_mutex_t initialised by uirq_mutex_init (static key)
 *   4792 bytes: a bare map initialised with a NULL key (its class is keyed
 *               by the map's own address, so lockdep's class table holds it)
 *
 * All three are locked nested (so the held-lock stack, which is never cleared
 * on release, has an entry for each) and released, then the only pointers
 * to them are dropped.  lockdep must keep nothing LeakSanitizer counts as a
 * reference: the three leaks must be reported.
 */
#include <stdlib.h>
#include <string.h>

#include "uirq/lockdep.h"
#include "uirq/mutex.h"
#include "uirq/spinlock.h"

struct spin_obj {
	uirq_spinlock_t lock;
	char pad[4328 - sizeof(uirq_spinlock_t)];
};

struct mutex_obj {
	uirq_mutex_t lock;
	char pad[4568 - sizeof(uirq_mutex_t)];
};

struct map_obj {
	struct uirq_lockdep_map map;
	char pad[4792 - sizeof(struct uirq_lockdep_map)];
};

/* Keeps the compiler from dropping the objects; cleared before exit. */
static void *volatile sink[3];

static __attribute__((noinline)) void lock_and_leak(void)
{
	struct spin_obj *s = malloc(sizeof(*s));
	struct mutex_obj *m = malloc(sizeof(*m));
	struct map_obj *k = malloc(sizeof(*k));

	if (!s || !m || !k)
		exit(2);
	memset(s, 0, sizeof(*s));
	memset(m, 0, sizeof(*m));
	memset(k, 0, sizeof(*k));
	uirq_spin_lock_init(&s->lock);
	uirq_mutex_init(&m->lock);
	uirq_lockdep_init_map(&k->map, "leak_map", NULL, 0);

	/* twice: the second round takes the chain-cache fast path */
	for (int i = 0; i < 2; i++) {
		uirq_mutex_lock(&m->lock);
		uirq_spin_lock(&s->lock);
		uirq_lock_acquire(&k->map, 0, 0, UIRQ_LOCK_WRITE, 0, __FILE__, __LINE__);
		uirq_lock_release(&k->map, 0, __FILE__, __LINE__);
		uirq_spin_unlock(&s->lock);
		uirq_mutex_unlock(&m->lock);
	}
	sink[0] = s;
	sink[1] = m;
	sink[2] = k;
	sink[0] = sink[1] = sink[2] = NULL;
}

/* Overwrite the stack lock_and_leak() used, so no stale pointer stays there. */
static __attribute__((noinline)) void scrub_stack(void)
{
	volatile char buf[32768];

	memset((char *)buf, 0, sizeof(buf));
}

int main(void)
{
	if (!uirq_lockdep_enabled())
		return 3;	/* the test wants lockdep on */
	lock_and_leak();
	scrub_stack();
	return 0;
}

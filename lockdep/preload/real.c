// SPDX-License-Identifier: MIT
/*
 * The real pthread functions behind the interposer, found with
 * dlsym(RTLD_NEXT) so that whatever comes after us in the search order (libc,
 * or a sanitizer runtime that intercepts the same calls) still runs.
 */
#include "preload.h"

#include <dlfcn.h>
#include <stdlib.h>

struct real_fns preload_real;
atomic_bool preload_resolved;

/* dlsym cannot take a pthread lock with glibc's allocator; another allocator might. */
static PRELOAD_TLS bool resolving;

static void *next_sym(const char *name, bool required)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p && required) {
		preload_msg("uirq-lockdep: cannot find the real ");
		preload_msg(name);
		preload_msg("\n");
		abort();
	}
	return p;
}

#define NEED(field, name)	(*(void **)&preload_real.field = next_sym(name, true))
/* Newer calls (glibc 2.30+) may be missing; their interposers return ENOSYS then. */
#define MAYBE(field, name)	(*(void **)&preload_real.field = next_sym(name, false))

void preload_resolve(void)
{
	if (atomic_load_explicit(&preload_resolved, memory_order_acquire))
		return;
	if (resolving) {
		preload_msg("uirq-lockdep: a pthread lock was taken while resolving the real pthread functions\n");
		abort();
	}
	resolving = true;
	NEED(mutex_init, "pthread_mutex_init");
	NEED(mutex_lock, "pthread_mutex_lock");
	NEED(mutex_trylock, "pthread_mutex_trylock");
	NEED(mutex_timedlock, "pthread_mutex_timedlock");
	MAYBE(mutex_clocklock, "pthread_mutex_clocklock");
	NEED(mutex_unlock, "pthread_mutex_unlock");
	NEED(mutex_destroy, "pthread_mutex_destroy");

	NEED(rwlock_init, "pthread_rwlock_init");
	NEED(rwlock_rdlock, "pthread_rwlock_rdlock");
	NEED(rwlock_tryrdlock, "pthread_rwlock_tryrdlock");
	NEED(rwlock_timedrdlock, "pthread_rwlock_timedrdlock");
	MAYBE(rwlock_clockrdlock, "pthread_rwlock_clockrdlock");
	NEED(rwlock_wrlock, "pthread_rwlock_wrlock");
	NEED(rwlock_trywrlock, "pthread_rwlock_trywrlock");
	NEED(rwlock_timedwrlock, "pthread_rwlock_timedwrlock");
	MAYBE(rwlock_clockwrlock, "pthread_rwlock_clockwrlock");
	NEED(rwlock_unlock, "pthread_rwlock_unlock");
	NEED(rwlock_destroy, "pthread_rwlock_destroy");

	NEED(spin_init, "pthread_spin_init");
	NEED(spin_lock, "pthread_spin_lock");
	NEED(spin_trylock, "pthread_spin_trylock");
	NEED(spin_unlock, "pthread_spin_unlock");
	NEED(spin_destroy, "pthread_spin_destroy");

	NEED(cond_wait, "pthread_cond_wait");
	NEED(cond_timedwait, "pthread_cond_timedwait");
	MAYBE(cond_clockwait, "pthread_cond_clockwait");

	NEED(exit_, "_exit");
	NEED(Exit_, "_Exit");
	resolving = false;
	atomic_store_explicit(&preload_resolved, true, memory_order_release);
}

/* First thing the module does, before any other constructor of ours can lock. */
__attribute__((constructor(101))) static void resolve_early(void)
{
	preload_resolve();
}

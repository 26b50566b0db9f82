// SPDX-License-Identifier: MIT
/*
 * The real pthread functions behind the interposer, found with
 * dlsym(RTLD_NEXT) so that whatever comes after us in the search order (libc,
 * or a sanitizer runtime that intercepts the same calls) still runs.
 */
#include "preload.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

atomic_bool preload_resolved;

/*
 * Until resolved, every pointer is a stub that resolves them all and then
 * makes the call: a wrapper calls through one plain load, with no test (and
 * so no stack frame kept only for the resolving call).  The constructor
 * resolves before the program can start threads.
 */
#define STUB(ret, field, params, args)					\
	static ret stub_##field params					\
	{								\
		preload_resolve();					\
		return preload_real.field args;				\
	}
/* Newer calls (glibc 2.30+) may be missing: then ENOSYS, as the wrappers do. */
#define STUB_MAYBE(field, params, args)					\
	static int stub_##field params					\
	{								\
		preload_resolve();					\
		return preload_real.field ? preload_real.field args : ENOSYS; \
	}

typedef pthread_mutex_t mutex_t;
typedef pthread_rwlock_t rwlock_t;
typedef const struct timespec cts_t;

STUB(int, mutex_init, (mutex_t *m, const pthread_mutexattr_t *a), (m, a))
STUB(int, mutex_lock, (mutex_t *m), (m))
STUB(int, mutex_trylock, (mutex_t *m), (m))
STUB(int, mutex_timedlock, (mutex_t *m, cts_t *t), (m, t))
STUB_MAYBE(mutex_clocklock, (mutex_t *m, clockid_t c, cts_t *t), (m, c, t))
STUB(int, mutex_unlock, (mutex_t *m), (m))
STUB(int, mutex_destroy, (mutex_t *m), (m))
STUB(int, rwlock_init, (rwlock_t *l, const pthread_rwlockattr_t *a), (l, a))
STUB(int, rwlock_rdlock, (rwlock_t *l), (l))
STUB(int, rwlock_tryrdlock, (rwlock_t *l), (l))
STUB(int, rwlock_timedrdlock, (rwlock_t *l, cts_t *t), (l, t))
STUB_MAYBE(rwlock_clockrdlock, (rwlock_t *l, clockid_t c, cts_t *t), (l, c, t))
STUB(int, rwlock_wrlock, (rwlock_t *l), (l))
STUB(int, rwlock_trywrlock, (rwlock_t *l), (l))
STUB(int, rwlock_timedwrlock, (rwlock_t *l, cts_t *t), (l, t))
STUB_MAYBE(rwlock_clockwrlock, (rwlock_t *l, clockid_t c, cts_t *t), (l, c, t))
STUB(int, rwlock_unlock, (rwlock_t *l), (l))
STUB(int, rwlock_destroy, (rwlock_t *l), (l))
STUB(int, spin_init, (pthread_spinlock_t *l, int p), (l, p))
STUB(int, spin_lock, (pthread_spinlock_t *l), (l))
STUB(int, spin_trylock, (pthread_spinlock_t *l), (l))
STUB(int, spin_unlock, (pthread_spinlock_t *l), (l))
STUB(int, spin_destroy, (pthread_spinlock_t *l), (l))
STUB(int, cond_wait, (pthread_cond_t *c, mutex_t *m), (c, m))
STUB(int, cond_timedwait, (pthread_cond_t *c, mutex_t *m, cts_t *t), (c, m, t))
STUB_MAYBE(cond_clockwait, (pthread_cond_t *c, mutex_t *m, clockid_t k, cts_t *t), (c, m, k, t))
/* waits (waitcalls.c) */
STUB(int, cond_signal, (pthread_cond_t *c), (c))
STUB(int, cond_broadcast, (pthread_cond_t *c), (c))
STUB(int, cond_init, (pthread_cond_t *c, const pthread_condattr_t *a), (c, a))
STUB(int, cond_destroy, (pthread_cond_t *c), (c))
STUB(int, join, (pthread_t t, void **r), (t, r))
STUB(int, tryjoin, (pthread_t t, void **r), (t, r))
STUB(int, timedjoin, (pthread_t t, void **r, cts_t *ts), (t, r, ts))
STUB_MAYBE(clockjoin, (pthread_t t, void **r, clockid_t k, cts_t *ts), (t, r, k, ts))
STUB(int, detach, (pthread_t t), (t))
STUB(int, barrier_init, (pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned int n), (b, a, n))
STUB(int, barrier_wait, (pthread_barrier_t *b), (b))
STUB(int, barrier_destroy, (pthread_barrier_t *b), (b))
STUB(int, sem_init, (void *s, int p, unsigned int v), (s, p, v))
STUB(int, sem_destroy, (void *s), (s))
STUB(int, sem_wait, (void *s), (s))
STUB(int, sem_timedwait, (void *s, cts_t *t), (s, t))
STUB_MAYBE(sem_clockwait, (void *s, clockid_t k, cts_t *t), (s, k, t))
STUB(int, sem_post, (void *s), (s))
STUB(int, pipe, (int *f), (f))
STUB(int, pipe2, (int *f, int fl), (f, fl))
STUB(int, eventfd, (unsigned int v, int fl), (v, fl))
STUB(int, close, (int fd), (fd))
STUB(int, dup2, (int a, int b), (a, b))
STUB(int, dup3, (int a, int b, int fl), (a, b, fl))
STUB(long, read, (int fd, void *b, size_t n), (fd, b, n))
STUB(long, write, (int fd, const void *b, size_t n), (fd, b, n))
STUB(long, read_chk, (int fd, void *b, size_t n, size_t l), (fd, b, n, l))
STUB(int, eventfd_read, (int fd, uint64_t *v), (fd, v))
STUB(int, eventfd_write, (int fd, uint64_t v), (fd, v))
STUB(int, poll, (void *p, unsigned long n, int t), (p, n, t))
STUB(int, poll_chk, (void *p, unsigned long n, int t, size_t l), (p, n, t, l))
STUB(int, ppoll, (void *p, unsigned long n, cts_t *t, const void *m), (p, n, t, m))
STUB(int, sigaction, (int s, const void *a, void *o), (s, a, o))

/*
 * free() and realloc() are called by dlsym() itself, and by the dynamic
 * loader before our constructor: while resolving, glibc's own functions
 * (exported for exactly this) stand in.
 */
extern void __libc_free(void *p);
extern void *__libc_realloc(void *p, size_t size);
static PRELOAD_TLS bool resolving;

static void stub_free(void *p)
{
	if (resolving) {
		__libc_free(p);
		return;
	}
	preload_resolve();
	preload_real.free(p);
}

static void *stub_realloc(void *p, size_t size)
{
	if (resolving)
		return __libc_realloc(p, size);
	preload_resolve();
	return preload_real.realloc(p, size);
}

STUB(size_t, malloc_usable_size, (void *p), (p))
STUB(int, munmap, (void *p, size_t len), (p, len))

static void *stub_mremap(void *p, size_t old_len, size_t new_len, int flags, ...)
{
	va_list ap;
	void *to;

	va_start(ap, flags);
	to = va_arg(ap, void *);
	va_end(ap);
	preload_resolve();
	return preload_real.mremap(p, old_len, new_len, flags, to);
}

static pid_t stub_fork_(void)
{
	preload_resolve();
	return preload_real.fork_();
}

static __attribute__((noreturn)) void stub_exit_(int status)
{
	preload_resolve();
	preload_real.exit_(status);
}

static __attribute__((noreturn)) void stub_Exit_(int status)
{
	preload_resolve();
	preload_real.Exit_(status);
}

struct real_fns preload_real = {
#define S(field) .field = stub_##field
	S(mutex_init), S(mutex_lock), S(mutex_trylock), S(mutex_timedlock), S(mutex_clocklock),
	S(mutex_unlock), S(mutex_destroy),
	S(rwlock_init), S(rwlock_rdlock), S(rwlock_tryrdlock), S(rwlock_timedrdlock),
	S(rwlock_clockrdlock), S(rwlock_wrlock), S(rwlock_trywrlock), S(rwlock_timedwrlock),
	S(rwlock_clockwrlock), S(rwlock_unlock), S(rwlock_destroy),
	S(spin_init), S(spin_lock), S(spin_trylock), S(spin_unlock), S(spin_destroy),
	S(cond_wait), S(cond_timedwait), S(cond_clockwait),
	S(cond_signal), S(cond_broadcast), S(cond_init), S(cond_destroy),
	S(join), S(tryjoin), S(timedjoin), S(clockjoin), S(detach),
	S(barrier_init), S(barrier_wait), S(barrier_destroy),
	S(sem_init), S(sem_destroy), S(sem_wait), S(sem_timedwait), S(sem_clockwait), S(sem_post),
	S(pipe), S(pipe2), S(eventfd), S(close), S(dup2), S(dup3), S(read), S(write), S(read_chk),
	S(eventfd_read), S(eventfd_write), S(poll), S(poll_chk), S(ppoll), S(sigaction),
	S(fork_), S(exit_), S(Exit_),
	S(munmap), S(mremap), S(free), S(realloc), S(malloc_usable_size),
#undef S
};

bool preload_free_checks;

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

/* An allocator that replaces free() but not malloc_usable_size(): never ask glibc about its blocks. */
static bool same_object(void *a, void *b)
{
	Dl_info ia, ib;

	return dladdr(a, &ia) && dladdr(b, &ib) && ia.dli_fbase == ib.dli_fbase;
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

	NEED(cond_signal, "pthread_cond_signal");
	NEED(cond_broadcast, "pthread_cond_broadcast");
	NEED(cond_init, "pthread_cond_init");
	NEED(cond_destroy, "pthread_cond_destroy");
	NEED(join, "pthread_join");
	NEED(tryjoin, "pthread_tryjoin_np");
	NEED(timedjoin, "pthread_timedjoin_np");
	MAYBE(clockjoin, "pthread_clockjoin_np");
	NEED(detach, "pthread_detach");
	NEED(barrier_init, "pthread_barrier_init");
	NEED(barrier_wait, "pthread_barrier_wait");
	NEED(barrier_destroy, "pthread_barrier_destroy");
	NEED(sem_init, "sem_init");
	NEED(sem_destroy, "sem_destroy");
	NEED(sem_wait, "sem_wait");
	NEED(sem_timedwait, "sem_timedwait");
	MAYBE(sem_clockwait, "sem_clockwait");
	NEED(sem_post, "sem_post");
	NEED(pipe, "pipe");
	NEED(pipe2, "pipe2");
	NEED(eventfd, "eventfd");
	NEED(close, "close");
	NEED(dup2, "dup2");
	NEED(dup3, "dup3");
	NEED(read, "read");
	NEED(write, "write");
	NEED(read_chk, "__read_chk");
	NEED(eventfd_read, "eventfd_read");
	NEED(eventfd_write, "eventfd_write");
	NEED(poll, "poll");
	NEED(poll_chk, "__poll_chk");
	NEED(ppoll, "ppoll");
	NEED(sigaction, "sigaction");

	NEED(fork_, "fork");
	NEED(exit_, "_exit");
	NEED(Exit_, "_Exit");

	NEED(munmap, "munmap");
	NEED(mremap, "mremap");
	NEED(free, "free");
	NEED(realloc, "realloc");
	NEED(malloc_usable_size, "malloc_usable_size");
	preload_free_checks = same_object(preload_real.free, preload_real.malloc_usable_size);
	resolving = false;
	atomic_store_explicit(&preload_resolved, true, memory_order_release);
}

/* First thing the module does, before any other constructor of ours can lock. */
__attribute__((constructor(101))) static void resolve_early(void)
{
	preload_resolve();
}

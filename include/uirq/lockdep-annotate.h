/* SPDX-License-Identifier: MIT */
/*
 * Annotations for pthread programs checked with uirq-lockdep(1).
 *
 * Include this header and call the functions below; link nothing.  Run
 * under uirq-lockdep, the preload library defines what they call and they
 * take effect.  Run without it, the weak references are NULL: each call is
 * a test and a branch, and the nesting calls are the plain pthread calls.
 *
 * Call them after pthread_*_init (an init starts a new lock, without
 * annotations), as the kernel's lockdep_set_class() follows spin_lock_init().
 *
 * Errors: the locking calls here are pthread calls and keep pthread's
 * convention, not uirq's (<uirq/irq.h>): 0, or a positive error number.
 */
#ifndef UIRQ_LOCKDEP_ANNOTATE_H
#define UIRQ_LOCKDEP_ANNOTATE_H

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What the preload library exports; weak, so that the program links and runs
 * without it.  The *_nested calls return what the pthread call they stand
 * for returns: 0, or a positive error number (EDEADLK, EINVAL, ...).
 */
extern void uirq__lock_set_name(const void *lock, const char *name) __attribute__((weak));
extern void uirq__lock_set_class(const void *lock, const void *key, const char *name) __attribute__((weak));
extern void uirq__lock_assert_held(const void *lock, const char *what, const char *file, int line)
	__attribute__((weak));
extern int uirq__mutex_lock_nested(pthread_mutex_t *m, unsigned int subclass) __attribute__((weak));
extern int uirq__rwlock_rdlock_nested(pthread_rwlock_t *l, unsigned int subclass) __attribute__((weak));
extern int uirq__rwlock_wrlock_nested(pthread_rwlock_t *l, unsigned int subclass) __attribute__((weak));

/*
 * Name lock (a pthread_mutex_t, pthread_rwlock_t or pthread_spinlock_t) in
 * reports.  Global and static variables are named without help
 * ("&stats_lock"); this is for the others.  name must outlive the lock.
 */
static inline void uirq_lock_set_name(const void *lock, const char *name)
{
	if (uirq__lock_set_name)
		uirq__lock_set_name(lock, name);
}

/*
 * Put lock in the class of key - any address that lives as long as the
 * program, e.g. of a static variable - named name: every lock given the same
 * key is one lock as far as ordering goes, as with the kernel's
 * lockdep_set_class().  Without it each lock is a class of its own.
 */
static inline void uirq_lock_set_class(const void *lock, const void *key, const char *name)
{
	if (uirq__lock_set_class)
		uirq__lock_set_class(lock, key, name);
}

/* Report (once for this line) if the calling thread does not hold lock: lockdep_assert_held(). */
#define uirq_lock_assert_held(lock)							\
	do {										\
		if (uirq__lock_assert_held)						\
			uirq__lock_assert_held((lock), "uirq_lock_assert_held(" #lock ")",	\
					       __FILE__, __LINE__);				\
	} while (0)

/*
 * Lock the second of two locks of one class, as mutex_lock_nested() and
 * SINGLE_DEPTH_NESTING do: subclass 1 to 7 tells lockdep that taking it
 * inside another of its class is by design (a parent, then a child).
 * Each returns what pthread_mutex_lock(), pthread_rwlock_rdlock() and
 * pthread_rwlock_wrlock() return: 0, or a positive error number.
 */
static inline int uirq_mutex_lock_nested(pthread_mutex_t *m, unsigned int subclass)
{
	return uirq__mutex_lock_nested ? uirq__mutex_lock_nested(m, subclass) : pthread_mutex_lock(m);
}

/* The read side of an rwlock, nested; returns as pthread_rwlock_rdlock(). */
static inline int uirq_rwlock_rdlock_nested(pthread_rwlock_t *l, unsigned int subclass)
{
	return uirq__rwlock_rdlock_nested ? uirq__rwlock_rdlock_nested(l, subclass) : pthread_rwlock_rdlock(l);
}

/* The write side of an rwlock, nested; returns as pthread_rwlock_wrlock(). */
static inline int uirq_rwlock_wrlock_nested(pthread_rwlock_t *l, unsigned int subclass)
{
	return uirq__rwlock_wrlock_nested ? uirq__rwlock_wrlock_nested(l, subclass) : pthread_rwlock_wrlock(l);
}

#ifdef __cplusplus
}
#endif
#endif

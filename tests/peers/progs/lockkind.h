/* SPDX-License-Identifier: MIT */
/*
 * One lock, five flavours, chosen by the program's first argument, as the
 * peer builds its deadlock-detector stress test once per lock type:
 *   mutex      pthread_mutex_t (default attributes)
 *   spin       pthread_spinlock_t
 *   rwlock     pthread_rwlock_t, glibc's default (readers first)
 *   recursive  pthread_mutex_t of type PTHREAD_MUTEX_RECURSIVE
 *   rwlock_wp  pthread_rwlock_t with PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
 *              (not built by the peer: a waiting writer stops new readers)
 * lk_lock() is the exclusive side (the write side of an rwlock); the read
 * side exists for the rwlocks only.  The helpers are always inlined, so a
 * report's call site is the caller's line, not this file.
 */
#ifndef LOCKKIND_H
#define LOCKKIND_H

#include "peer.h"

enum lock_kind { LK_MUTEX, LK_SPIN, LK_RWLOCK, LK_RECURSIVE, LK_RWLOCK_WP };

static const char *const lock_kind_names[] = { "mutex", "spin", "rwlock", "recursive", "rwlock_wp" };

struct lk {
	union {
		pthread_mutex_t mutex;
		pthread_spinlock_t spin;
		pthread_rwlock_t rw;
	};
};

static enum lock_kind lock_kind;

#define LK_INLINE static inline __attribute__((always_inline))

/* Set lock_kind from argv[1] (default mutex); exit 2 on an unknown name. */
static inline void lk_choose(int argc, char **argv)
{
	if (argc < 2)
		return;
	for (unsigned int i = 0; i < sizeof(lock_kind_names) / sizeof(lock_kind_names[0]); i++) {
		if (strcmp(argv[1], lock_kind_names[i]) == 0) {
			lock_kind = (enum lock_kind)i;
			return;
		}
	}
	fprintf(stderr, "unknown lock kind %s\n", argv[1]);
	exit(2);
}

static inline bool lk_has_read_side(void)
{
	return lock_kind == LK_RWLOCK || lock_kind == LK_RWLOCK_WP;
}

static inline void lk_init(struct lk *l)
{
	pthread_mutexattr_t ma;
	pthread_rwlockattr_t ra;

	switch (lock_kind) {
	case LK_MUTEX:
		ok(pthread_mutex_init(&l->mutex, NULL));
		break;
	case LK_SPIN:
		ok(pthread_spin_init(&l->spin, PTHREAD_PROCESS_PRIVATE));
		break;
	case LK_RWLOCK:
		ok(pthread_rwlock_init(&l->rw, NULL));
		break;
	case LK_RECURSIVE:
		ok(pthread_mutexattr_init(&ma));
		ok(pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE));
		ok(pthread_mutex_init(&l->mutex, &ma));
		ok(pthread_mutexattr_destroy(&ma));
		break;
	case LK_RWLOCK_WP:
		ok(pthread_rwlockattr_init(&ra));
		ok(pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
		ok(pthread_rwlock_init(&l->rw, &ra));
		ok(pthread_rwlockattr_destroy(&ra));
		break;
	}
}

static inline void lk_destroy(struct lk *l)
{
	if (lock_kind == LK_SPIN)
		ok(pthread_spin_destroy(&l->spin));
	else if (lk_has_read_side())
		ok(pthread_rwlock_destroy(&l->rw));
	else
		ok(pthread_mutex_destroy(&l->mutex));
}

LK_INLINE void lk_lock(struct lk *l)
{
	if (lock_kind == LK_SPIN)
		ok(pthread_spin_lock(&l->spin));
	else if (lk_has_read_side())
		ok(pthread_rwlock_wrlock(&l->rw));
	else
		ok(pthread_mutex_lock(&l->mutex));
}

LK_INLINE void lk_unlock(struct lk *l)
{
	if (lock_kind == LK_SPIN)
		ok(pthread_spin_unlock(&l->spin));
	else if (lk_has_read_side())
		ok(pthread_rwlock_unlock(&l->rw));
	else
		ok(pthread_mutex_unlock(&l->mutex));
}

/* The exclusive side, without waiting: true if taken. */
LK_INLINE bool lk_trylock(struct lk *l)
{
	if (lock_kind == LK_SPIN)
		return pthread_spin_trylock(&l->spin) == 0;
	if (lk_has_read_side())
		return pthread_rwlock_trywrlock(&l->rw) == 0;
	return pthread_mutex_trylock(&l->mutex) == 0;
}

LK_INLINE void lk_rdlock(struct lk *l)
{
	ok(pthread_rwlock_rdlock(&l->rw));
}

LK_INLINE void lk_rdunlock(struct lk *l)
{
	ok(pthread_rwlock_unlock(&l->rw));
}

/* n fresh locks of the chosen kind. */
static inline struct lk *lk_array(size_t n)
{
	struct lk *a = calloc(n, sizeof(*a));

	if (!a)
		exit(4);
	for (size_t i = 0; i < n; i++)
		lk_init(&a[i]);
	return a;
}

static inline void lk_array_free(struct lk *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		lk_destroy(&a[i]);
	free(a);
}

#endif

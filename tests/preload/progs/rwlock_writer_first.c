// SPDX-License-Identifier: MIT
/*
 * An rwlock that makes new readers wait behind a waiting writer
 * (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) is no recursive-read lock:
 *   T1: rdlock(L), then lock(M)     T2: lock(M), then rdlock(L)
 *   T3: wrlock(L), waiting for T1's read
 * T2's read waits behind T3, T3 for T1, T1 for T2's M: a deadlock, though
 * only T3 ever writes.  The program runs T1 and T2 one after the other (no
 * T3), so it does not hang; lockdep must still see the cycle.  "default"
 * runs the same on glibc's default rwlock, which lets a reader in past a
 * waiting writer: T2's read never waits, no deadlock, no report.
 */
#include "prog.h"

static pthread_rwlock_t l;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *read_then_m(void *arg)
{
	(void)arg;
	ok(pthread_rwlock_rdlock(&l));
	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	ok(pthread_rwlock_unlock(&l));
	return NULL;
}

static void *m_then_read(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&m));
	ok(pthread_rwlock_rdlock(&l));
	ok(pthread_rwlock_unlock(&l));
	ok(pthread_mutex_unlock(&m));
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "writer-first";
	pthread_rwlockattr_t attr;

	ok(pthread_rwlockattr_init(&attr));
	if (strcmp(mode, "default") != 0)
		ok(pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
	ok(pthread_rwlock_init(&l, &attr));
	run_thread(read_then_m, NULL);
	run_thread(m_then_read, NULL);
	printf("rwlock_writer_first: %s done\n", mode);
	return 0;
}

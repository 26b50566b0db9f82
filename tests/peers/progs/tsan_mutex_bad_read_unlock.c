// SPDX-License-Identifier: MIT
/*
 * Port of TSan's mutex_bad_read_unlock test (compiler-rt/test/tsan/
 * mutex_bad_read_unlock.cpp in LLVM), which declares, through the rwlock
 * annotation, a write acquisition followed by a read release.
 *
 * pthread_rwlock_unlock has no read or write flavour: glibc releases as the
 * writer when the caller is the writer, as a reader otherwise.  So the way
 * to make a read release of a write-locked rwlock is to unlock it from
 * another thread: here a thread write-locks it and waits; main unlocks it
 * (glibc takes that for a reader leaving, and returns 0); then the writer
 * unlocks it itself.  The rwlock's counts are wrong afterwards and it is
 * not used again.
 *
 * TSan: "read unlock of a write locked mutex".
 * uirq-lockdep: one "bad unlock balance detected!" report, for main's
 * unlock of a lock another thread holds; the writer's own unlock is fine.
 *
 * peer-verdict: bad unlock (read unlock of a write locked mutex)
 */
#include "peer.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t written, unlocked;

static void *writer(void *arg)
{
	(void)arg;
	ok(pthread_rwlock_wrlock(&rw));
	pthread_barrier_wait(&written);
	pthread_barrier_wait(&unlocked);
	ok(pthread_rwlock_unlock(&rw));
	return NULL;
}

int main(void)
{
	pthread_t t;

	ok(pthread_barrier_init(&written, NULL, 2));
	ok(pthread_barrier_init(&unlocked, NULL, 2));
	ok(pthread_create(&t, NULL, writer, NULL));
	pthread_barrier_wait(&written);
	ok(pthread_rwlock_unlock(&rw));
	pthread_barrier_wait(&unlocked);
	ok(pthread_join(t, NULL));
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Port of the trylock test Helgrind runs from DRD's sources (valgrind
 * drd/tests/trylock.c, helgrind/tests/trylock.vgtest, expected output
 * helgrind/tests/trylock.stderr.exp): every way to take an rwlock and a
 * mutex - plain, try and timed, read and write - each followed by its
 * unlock; three nested reads; and a trywrlock of an rwlock the thread
 * already write-holds, which glibc refuses with EBUSY.  Were one of the
 * calls not intercepted, the unlock after it would look unbalanced.
 *
 * Helgrind: no error.
 * uirq-lockdep: no report: the refused trywrlock holds nothing and a
 * failed try is no deadlock; the three reads are a recursive read.
 *
 * peer-verdict: none
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t mutex;
	pthread_rwlock_t rwlock;
	struct timespec until = deadline_ms(10000);

	ok(pthread_rwlock_init(&rwlock, NULL));
	fprintf(stderr, "Locking rwlock via pthread_rwlock_wrlock().\n");
	ok(pthread_rwlock_wrlock(&rwlock));
	ok(pthread_rwlock_unlock(&rwlock));
	fprintf(stderr, "Locking rwlock via pthread_rwlock_trywrlock().\n");
	ok(pthread_rwlock_trywrlock(&rwlock));
	ok(pthread_rwlock_unlock(&rwlock));
	fprintf(stderr, "Locking rwlock via pthread_rwlock_timedwrlock().\n");
	ok(pthread_rwlock_timedwrlock(&rwlock, &until));
	ok(pthread_rwlock_unlock(&rwlock));
	fprintf(stderr, "Locking rwlock via pthread_rwlock_rdlock().\n");
	ok(pthread_rwlock_rdlock(&rwlock));
	ok(pthread_rwlock_rdlock(&rwlock));
	ok(pthread_rwlock_rdlock(&rwlock));
	ok(pthread_rwlock_unlock(&rwlock));
	ok(pthread_rwlock_unlock(&rwlock));
	ok(pthread_rwlock_unlock(&rwlock));
	fprintf(stderr, "Locking rwlock via pthread_rwlock_tryrdlock().\n");
	ok(pthread_rwlock_tryrdlock(&rwlock));
	ok(pthread_rwlock_unlock(&rwlock));
	fprintf(stderr, "Locking rwlock via pthread_rwlock_timedrdlock().\n");
	ok(pthread_rwlock_timedrdlock(&rwlock, &until));
	ok(pthread_rwlock_unlock(&rwlock));
	fprintf(stderr, "Attempt to lock for writing recursively (not allowed).\n");
	ok(pthread_rwlock_wrlock(&rwlock));
	expect(pthread_rwlock_trywrlock(&rwlock), EBUSY);
	ok(pthread_rwlock_unlock(&rwlock));
	ok(pthread_rwlock_destroy(&rwlock));

	ok(pthread_mutex_init(&mutex, NULL));
	fprintf(stderr, "Locking mutex via pthread_mutex_trylock().\n");
	ok(pthread_mutex_trylock(&mutex));
	ok(pthread_mutex_unlock(&mutex));
	fprintf(stderr, "Locking mutex via pthread_mutex_lock().\n");
	ok(pthread_mutex_lock(&mutex));
	ok(pthread_mutex_unlock(&mutex));
	fprintf(stderr, "Locking mutex via pthread_mutex_timedlock().\n");
	ok(pthread_mutex_timedlock(&mutex, &until));
	ok(pthread_mutex_unlock(&mutex));
	ok(pthread_mutex_destroy(&mutex));
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc10_rec_lock test (valgrind helgrind/tests/
 * tc10_rec_lock.c, expected output tc10_rec_lock.stderr.exp): a recursive
 * mutex locked three times, unlocked three times, then unlocked a fourth
 * time (glibc answers EPERM: the caller no longer owns it).
 *
 * Helgrind: "unlocked a not-locked lock" and "call to pthread_mutex_unlock
 * failed with error code 1 (EPERM)" - 2 errors.
 * uirq-lockdep: one "bad unlock balance detected!" report for the fourth
 * unlock; the relocks are legal and silent.
 *
 * peer-verdict: bad unlock, EPERM
 */
#include "peer.h"

static __attribute__((noinline)) void nearly_main(void)
{
	pthread_mutexattr_t attr;
	pthread_mutex_t mx1;

	ok(pthread_mutexattr_init(&attr));
	ok(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
	ok(pthread_mutex_init(&mx1, &attr));
	ok(pthread_mutexattr_destroy(&attr));

	for (int i = 1; i <= 3; i++) {
		fprintf(stderr, "before lock #%d\n", i);
		ok(pthread_mutex_lock(&mx1));
	}
	for (int i = 1; i <= 3; i++) {
		fprintf(stderr, "before unlock #%d\n", i);
		ok(pthread_mutex_unlock(&mx1));
	}
	fprintf(stderr, "before unlock #4\n");
	expect(pthread_mutex_unlock(&mx1), EPERM);
}

int main(void)
{
	nearly_main();
	return 0;
}

// SPDX-License-Identifier: MIT
/* A, B, then A again: one problem (recursive locking of A), one report. */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	struct timespec dl = deadline_ms(50);

	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&b));
	/* would block for ever: timed, so the program ends */
	expect(pthread_mutex_timedlock(&a, &dl), ETIMEDOUT);
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(&a));
	return 0;
}

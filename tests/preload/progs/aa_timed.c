// SPDX-License-Identifier: MIT
/*
 * AA through a timed lock: reported before the wait, the wait times out and
 * the program goes on, holding the lock once - the final unlock must balance.
 */
#include "prog.h"

int main(void)
{
	pthread_mutex_t m;
	struct timespec t = deadline_ms(50);

	ok(pthread_mutex_init(&m, NULL));
	ok(pthread_mutex_lock(&m));
	expect(pthread_mutex_timedlock(&m, &t), ETIMEDOUT);
	ok(pthread_mutex_unlock(&m));
	ok(pthread_mutex_destroy(&m));
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's tc13_laog1 test (valgrind helgrind/tests/
 * tc13_laog1.c, expected output tc13_laog1.stderr.exp), "the simplest
 * possible test that triggers a lock order acquisition error": mx1 then
 * mx2, released (mx1 first); then mx2 then mx1; one thread.
 *
 * Helgrind: 'lock order "mx1 before mx2" violated' - 1 error.
 * uirq-lockdep: one circular-dependency report.
 *
 * peer-verdict: cycle
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t mx1, mx2;

	ok(pthread_mutex_init(&mx1, NULL));
	ok(pthread_mutex_init(&mx2, NULL));

	ok(pthread_mutex_lock(&mx1));
	ok(pthread_mutex_lock(&mx2));
	ok(pthread_mutex_unlock(&mx1));
	ok(pthread_mutex_unlock(&mx2));

	ok(pthread_mutex_lock(&mx2));		/* the wrong order */
	ok(pthread_mutex_lock(&mx1));
	ok(pthread_mutex_unlock(&mx1));
	ok(pthread_mutex_unlock(&mx2));

	ok(pthread_mutex_destroy(&mx1));
	ok(pthread_mutex_destroy(&mx2));
	return 0;
}

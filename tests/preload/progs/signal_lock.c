// SPDX-License-Identifier: MIT
/*
 * A timer signal whose handler takes a lock of its own, arriving anywhere -
 * also inside the interposer and the validator.  The main thread only ever
 * holds A around the point the handler may run: the one order is A -> H.
 */
#include "prog.h"

#include <signal.h>
#include <sys/time.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t h = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled;

static void handler(int sig)
{
	(void)sig;
	pthread_mutex_lock(&h);
	handled++;
	pthread_mutex_unlock(&h);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESTART };
	struct itimerval it = { .it_interval = { 0, 200 }, .it_value = { 0, 200 } };
	struct timespec start, now;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		return 4;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (int i = 0; i < 1000; i++) {
			pthread_mutex_t tmp;

			ok(pthread_mutex_lock(&a));
			ok(pthread_mutex_unlock(&a));
			/* builds and kills records while signals land */
			ok(pthread_mutex_init(&tmp, NULL));
			ok(pthread_mutex_lock(&tmp));
			ok(pthread_mutex_unlock(&tmp));
			ok(pthread_mutex_destroy(&tmp));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < 1 && handled < 200);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	return handled > 0 ? 0 : 5;
}

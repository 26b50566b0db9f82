// SPDX-License-Identifier: MIT
/* AA on a normal mutex: the second lock really deadlocks, after the report; SIGALRM ends it. */
#include "prog.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	alarm(1);
	ok(pthread_mutex_lock(&m));
	pthread_mutex_lock(&m);
	return 0;
}

// SPDX-License-Identifier: MIT
/* Two distinct problems in a row, an inversion then a double unlock: --fatal stops at the first. */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	lock_nested(&a, &b);
	lock_nested(&b, &a);
	pthread_mutex_unlock(&a);
	printf("still running\n");
	return 0;
}

// SPDX-License-Identifier: MIT
/* Destroying a held mutex: reported; glibc refuses with EBUSY and the program cleans up. */
#include "prog.h"

int main(void)
{
	pthread_mutex_t m;

	ok(pthread_mutex_init(&m, NULL));
	ok(pthread_mutex_lock(&m));
	expect(pthread_mutex_destroy(&m), EBUSY);
	ok(pthread_mutex_unlock(&m));
	ok(pthread_mutex_destroy(&m));
	return 0;
}

// SPDX-License-Identifier: MIT
/* A then B, later B then trylock A: a trylock cannot wait, so the inverse order is fine. */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t s;

int main(void)
{
	ok(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&b));
	ok(pthread_spin_lock(&s));
	ok(pthread_spin_unlock(&s));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(&a));

	ok(pthread_spin_lock(&s));
	ok(pthread_mutex_trylock(&b));
	ok(pthread_mutex_trylock(&a));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_spin_unlock(&s));

	/* a failed trylock leaves nothing behind */
	ok(pthread_mutex_lock(&a));
	expect(pthread_mutex_trylock(&a), EBUSY);
	ok(pthread_mutex_unlock(&a));
	ok(pthread_spin_destroy(&s));
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * A thread returns while holding a mutex; nobody touches the mutex again.
 * "freed": the mutex is on the heap, and while the thread holds it the
 * main thread frees it, makes a new mutex in the same block and takes
 * that; then the thread returns.  Its held lock is the old mutex, which
 * must not be named after the new one.
 */
#include "prog.h"

#include <semaphore.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t taken, may_go;
#define SPARES	10000
static void *spare[SPARES];

static void *leave_locked(void *arg)
{
	ok(pthread_mutex_lock(arg ? arg : &m));
	if (arg) {
		ok(sem_post(&taken));
		while (sem_wait(&may_go))
			;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_mutex_t *old, *new;
	uintptr_t was;
	pthread_t t;

	if (argc < 2 || strcmp(argv[1], "freed")) {
		run_thread(leave_locked, NULL);
		return 0;
	}
	ok(sem_init(&taken, 0, 0));
	ok(sem_init(&may_go, 0, 0));
	old = malloc(sizeof(*old));
	if (!old)
		return 1;
	ok(pthread_mutex_init(old, NULL));
	ok(pthread_create(&t, NULL, leave_locked, old));
	while (sem_wait(&taken))
		;
	was = (uintptr_t)old;
	free(old);
	/*
	 * What the test is about: a new mutex in the block just freed.  The
	 * report of the free may have had the block for itself (symbolizing
	 * allocates): allocate until glibc gives it back.
	 */
	for (int i = 0; i < SPARES && (new = malloc(sizeof(*new))) && (uintptr_t)new != was; i++)
		spare[i] = new;
	if ((uintptr_t)new != was) {
		puts("another block");
		return 1;
	}
	puts("same block");
	fflush(stdout);
	ok(pthread_mutex_init(new, NULL));
	ok(pthread_mutex_lock(new));
	ok(pthread_mutex_unlock(new));
	ok(sem_post(&may_go));
	ok(pthread_join(t, NULL));
	ok(pthread_mutex_destroy(new));
	free(new);
	for (int i = 0; i < SPARES; i++)
		free(spare[i]);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * A thread returns while holding a mutex; nobody touches the mutex again.
 *
 * "unmapped": while the thread holds the mutex, the main thread unmaps its
 * memory, maps it again and makes a new mutex at the same address, which
 * gets the dead mutex's class object (lockdep recycles them, the last
 * freed first).  The thread then waits on a semaphore that the main thread
 * posts after taking the new mutex, and returns.  The thread's held lock
 * is gone: it must not count as the new mutex held while waiting (a false
 * circular dependency through the wait), nor be named after it.
 * "unmapped-reordered": the same, but the thread holds a mutex under the
 * one unmapped and releases it between the two waits (out of order: the
 * gone lock moves down its stack).
 */
#include "prog.h"

#include <semaphore.h>
#include <sys/mman.h>

#define PAGE	4096

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, other = PTHREAD_MUTEX_INITIALIZER;
static sem_t taken, go1, go2;
static bool reordered;

static void sem_wait_ok(sem_t *s)
{
	while (sem_wait(s))
		;
}

static void *leave_locked(void *arg)
{
	if (reordered)
		ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_lock(arg ? arg : &m));
	if (arg) {
		ok(sem_post(&taken));
		sem_wait_ok(&go1);
		if (reordered)
			ok(pthread_mutex_unlock(&m));
		sem_wait_ok(&go2);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_mutex_t *old, *new;
	pthread_t t;

	if (argc < 2 || strncmp(argv[1], "unmapped", 8)) {
		run_thread(leave_locked, NULL);
		return 0;
	}
	reordered = !strcmp(argv[1], "unmapped-reordered");
	ok(sem_init(&taken, 0, 0));
	/* the semaphores' own classes first, so that no other class takes the dead one's */
	ok(sem_init(&go1, 0, 1));
	ok(sem_init(&go2, 0, 1));
	sem_wait_ok(&go1);
	sem_wait_ok(&go2);
	/*
	 * Pages, not malloc(): an allocator may keep a freed block from reuse
	 * for a while (AddressSanitizer's quarantine does), munmap() and
	 * mmap() at the same address do not.
	 */
	old = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (old == MAP_FAILED)
		return 1;
	ok(pthread_mutex_init(old, NULL));
	ok(pthread_create(&t, NULL, leave_locked, old));
	sem_wait_ok(&taken);
	ok(munmap(old, PAGE));
	/* a first acquisition: lockdep frees the dead class (then the next new class is it) */
	lock_unlock(&other);
	new = mmap(old, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (new != old) {
		puts("another block");
		return 1;
	}
	puts("same block");
	fflush(stdout);
	ok(pthread_mutex_init(new, NULL));
	lock_unlock(new);
	ok(sem_post(&go1));
	lock_unlock(new);
	ok(sem_post(&go2));
	ok(pthread_join(t, NULL));
	ok(pthread_mutex_destroy(new));
	ok(munmap(new, PAGE));
	return 0;
}

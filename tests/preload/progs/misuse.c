// SPDX-License-Identifier: MIT
/*
 * Lock misuse that no lock-order check sees, one case per argument; each is
 * reported once, and the program goes on:
 *   lock-destroyed      pthread_mutex_lock() on a destroyed mutex (EINVAL)
 *   unlock-destroyed    pthread_mutex_unlock() on a destroyed mutex
 *   rwlock-destroyed    pthread_rwlock_rdlock() on a destroyed rwlock
 *   recursive-unlock    a recursive mutex unlocked once more than locked
 *   foreign-unlock      a mutex unlocked by a thread that does not hold it (the
 *                       holder unlocks it again afterwards, as glibc lets it)
 *   errorcheck-unlock   an error-checking mutex unlocked when not held (EPERM)
 *   free-locked         free() of memory holding a mutex another thread holds
 *                       (that thread then ends with it held: a second report)
 *   free-own            free() of memory holding a mutex this thread holds
 *   init-own            pthread_mutex_init() of a mutex this thread holds,
 *                       under another lock it holds (m is not used again:
 *                       only the init call can see it)
 *   destroyed-reinit    a destroyed mutex initialised again and used: no report
 *   freed-use           a mutex destroyed, its memory freed, then locked again
 *                       (heap-use-after-free)
 *   freed-use-rwlock    the same with an rwlock freed without destroy
 */
#include "prog.h"

#include <semaphore.h>

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
static sem_t locked, done;

static void *hold_until_done(void *arg)
{
	pthread_mutex_t *m = arg;

	ok(pthread_mutex_lock(m));
	sem_post(&locked);
	while (sem_wait(&done) != 0)
		;
	if (m == &shared)
		ok(pthread_mutex_unlock(m));
	return NULL;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	pthread_mutexattr_t attr;
	pthread_mutex_t m;
	pthread_rwlock_t rw;
	pthread_t t;

	sem_init(&locked, 0, 0);
	sem_init(&done, 0, 0);
	ok(pthread_mutexattr_init(&attr));
	if (!strcmp(c, "lock-destroyed") || !strcmp(c, "unlock-destroyed") || !strcmp(c, "destroyed-reinit")) {
		ok(pthread_mutex_init(&m, NULL));
		ok(pthread_mutex_lock(&m));
		ok(pthread_mutex_unlock(&m));
		ok(pthread_mutex_destroy(&m));
		if (!strcmp(c, "lock-destroyed")) {
			expect(pthread_mutex_lock(&m), EINVAL);
		} else if (!strcmp(c, "unlock-destroyed")) {
			pthread_mutex_unlock(&m);	/* glibc's answer does not matter */
		} else {
			ok(pthread_mutex_init(&m, NULL));
			ok(pthread_mutex_lock(&m));
			ok(pthread_mutex_unlock(&m));
			ok(pthread_mutex_destroy(&m));
		}
	} else if (!strcmp(c, "rwlock-destroyed")) {
		ok(pthread_rwlock_init(&rw, NULL));
		ok(pthread_rwlock_rdlock(&rw));
		ok(pthread_rwlock_unlock(&rw));
		ok(pthread_rwlock_destroy(&rw));
		pthread_rwlock_rdlock(&rw);	/* glibc does not check */
	} else if (!strcmp(c, "recursive-unlock") || !strcmp(c, "errorcheck-unlock")) {
		bool rec = !strcmp(c, "recursive-unlock");

		ok(pthread_mutexattr_settype(&attr, rec ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK));
		ok(pthread_mutex_init(&m, &attr));
		ok(pthread_mutex_lock(&m));
		if (rec)
			ok(pthread_mutex_lock(&m));
		ok(pthread_mutex_unlock(&m));
		if (rec)
			ok(pthread_mutex_unlock(&m));
		expect(pthread_mutex_unlock(&m), EPERM);
		ok(pthread_mutex_destroy(&m));
	} else if (!strcmp(c, "foreign-unlock")) {
		ok(pthread_create(&t, NULL, hold_until_done, &shared));
		while (sem_wait(&locked) != 0)
			;
		ok(pthread_mutex_unlock(&shared));	/* glibc lets a normal mutex be unlocked by anyone */
		sem_post(&done);
		ok(pthread_join(t, NULL));
	} else if (!strcmp(c, "free-locked")) {
		pthread_mutex_t *hm = malloc(sizeof(*hm));

		ok(pthread_mutex_init(hm, NULL));
		ok(pthread_create(&t, NULL, hold_until_done, hm));
		while (sem_wait(&locked) != 0)
			;
		free(hm);
		sem_post(&done);
		ok(pthread_join(t, NULL));
	} else if (!strcmp(c, "free-own")) {
		pthread_mutex_t *hm = malloc(sizeof(*hm));

		ok(pthread_mutex_init(hm, NULL));
		ok(pthread_mutex_lock(hm));
		free(hm);
		/* the lock went with the memory: nothing is held any more */
		ok(pthread_mutex_lock(&shared));
		ok(pthread_mutex_unlock(&shared));
	} else if (!strcmp(c, "init-own")) {
		ok(pthread_mutex_init(&m, NULL));
		ok(pthread_mutex_lock(&m));
		ok(pthread_mutex_lock(&shared));
		ok(pthread_mutex_init(&m, NULL));	/* the old lock is gone: m is held no more */
		ok(pthread_mutex_unlock(&shared));
	} else if (!strcmp(c, "freed-use") || !strcmp(c, "freed-use-rwlock")) {
		/* the lock past the allocator's own words at the start of a free block */
		struct obj {
			long header[4];
			pthread_mutex_t m;
			pthread_rwlock_t rw;
		} *o = malloc(sizeof(*o));

		ok(pthread_mutex_init(&o->m, NULL));
		ok(pthread_rwlock_init(&o->rw, NULL));
		ok(pthread_mutex_lock(&o->m));
		ok(pthread_mutex_unlock(&o->m));
		ok(pthread_rwlock_rdlock(&o->rw));
		ok(pthread_rwlock_unlock(&o->rw));
		if (!strcmp(c, "freed-use"))
			ok(pthread_mutex_destroy(&o->m));
		free(o);
		/*
		 * A try: the report may allocate, and the allocator hand the
		 * block out again - the lock's memory is anything by then.
		 */
		if (!strcmp(c, "freed-use")) {
			if (pthread_mutex_trylock(&o->m) == 0)
				pthread_mutex_unlock(&o->m);
		} else if (pthread_rwlock_trywrlock(&o->rw) == 0) {
			pthread_rwlock_unlock(&o->rw);
		}
	} else {
		fprintf(stderr, "misuse: unknown case '%s'\n", c);
		return 2;
	}
	printf("misuse: %s done\n", c);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Port of TSan's Darwin/trylock_no_deadlock test (compiler-rt/test/tsan/
 * Darwin/trylock_no_deadlock.c in LLVM), which checks that a successful
 * trylock adds no lock-order edge, with Darwin's os_unfair_lock and
 * OSSpinLock.  The Linux counterparts here: pthread mutexes and pthread
 * spinlocks.  For each pair, one thread holds the first lock and tries
 * the second; a later thread takes the second, then the first.
 *
 * TSan: no report ("--implicit-check-not=ThreadSanitizer").
 * uirq-lockdep: no report: only "second then first" is a dependency, and a
 * single order is no cycle.
 *
 * peer-verdict: none
 */
#include "peer.h"

static pthread_mutex_t mutex1 = PTHREAD_MUTEX_INITIALIZER, mutex2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin1, spin2;
static long counter;

static void *mutex_try_second(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mutex1));
	if (pthread_mutex_trylock(&mutex2) == 0) {
		counter++;
		ok(pthread_mutex_unlock(&mutex2));
	}
	ok(pthread_mutex_unlock(&mutex1));
	return NULL;
}

static void *mutex_descending(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&mutex2));
	ok(pthread_mutex_lock(&mutex1));
	counter++;
	ok(pthread_mutex_unlock(&mutex1));
	ok(pthread_mutex_unlock(&mutex2));
	return NULL;
}

static void *spin_try_second(void *arg)
{
	(void)arg;
	ok(pthread_spin_lock(&spin1));
	if (pthread_spin_trylock(&spin2) == 0) {
		counter++;
		ok(pthread_spin_unlock(&spin2));
	}
	ok(pthread_spin_unlock(&spin1));
	return NULL;
}

static void *spin_descending(void *arg)
{
	(void)arg;
	ok(pthread_spin_lock(&spin2));
	ok(pthread_spin_lock(&spin1));
	counter++;
	ok(pthread_spin_unlock(&spin1));
	ok(pthread_spin_unlock(&spin2));
	return NULL;
}

int main(void)
{
	ok(pthread_spin_init(&spin1, PTHREAD_PROCESS_PRIVATE));
	ok(pthread_spin_init(&spin2, PTHREAD_PROCESS_PRIVATE));
	run_thread(mutex_try_second, NULL);
	run_thread(mutex_descending, NULL);
	fprintf(stderr, "mutex done\n");
	run_thread(spin_try_second, NULL);
	run_thread(spin_descending, NULL);
	fprintf(stderr, "spinlock done\n");
	fprintf(stderr, "counter = %ld\n", counter);
	return counter == 4 ? 0 : 1;
}

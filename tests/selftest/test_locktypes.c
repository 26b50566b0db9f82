// SPDX-License-Identifier: MIT
/*
 * The lock types as locks: mutual exclusion under contention, concurrent
 * readers, and the context changes they make (interrupts off for _irqsave,
 * atomic context while a spinning lock is held, might_sleep() in mutexes).
 */
#include "harness.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "selftest.h"

#define NTHREADS	4
#define NITER		100000

static uirq_spinlock_t spin;
static uirq_mutex_t mutex;
static uirq_rwlock_t rw;
/* Plain (non-atomic) counter: only the lock under test protects it. */
static volatile long counter;

static void *spin_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITER; i++) {
		uirq_spin_lock(&spin);
		counter = counter + 1;
		uirq_spin_unlock(&spin);
	}
	return NULL;
}

static void *spin_irqsave_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITER; i++) {
		unsigned long flags;

		uirq_spin_lock_irqsave(&spin, flags);
		counter = counter + 1;
		uirq_spin_unlock_irqrestore(&spin, flags);
	}
	return NULL;
}

static void *mutex_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITER; i++) {
		uirq_mutex_lock(&mutex);
		counter = counter + 1;
		uirq_mutex_unlock(&mutex);
	}
	return NULL;
}

static void *write_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < NITER; i++) {
		uirq_write_lock(&rw);
		counter = counter + 1;
		uirq_write_unlock(&rw);
	}
	return NULL;
}

static void run_threads(void *(*fn)(void *))
{
	pthread_t t[NTHREADS];

	counter = 0;
	for (int i = 0; i < NTHREADS; i++)
		assert_eq(pthread_create(&t[i], NULL, fn, NULL), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_eq(pthread_join(t[i], NULL), 0);
	assert_eq(counter, (long)NTHREADS * NITER, "lost updates: %ld of %ld", counter,
		     (long)NTHREADS * NITER);
}

UIRQ_TEST(mutual_exclusion, spin, ST_OPTS)
{
	uirq_spin_lock_init(&spin);
	run_threads(spin_worker);
	assert_true(!uirq_spin_is_locked(&spin));
	st_expect_success();
}

UIRQ_TEST(mutual_exclusion, spin_irqsave, ST_OPTS)
{
	uirq_spin_lock_init(&spin);
	run_threads(spin_irqsave_worker);
	st_expect_success();
}

UIRQ_TEST(mutual_exclusion, mutex, ST_OPTS)
{
	uirq_mutex_init(&mutex);
	run_threads(mutex_worker);
	assert_true(!uirq_mutex_is_locked(&mutex));
	st_expect_success();
}

UIRQ_TEST(mutual_exclusion, rwlock_write, ST_OPTS)
{
	uirq_rwlock_init(&rw);
	run_threads(write_worker);
	st_expect_success();
}

/*
 * Readers share the lock: NTHREADS readers all get inside the read side at
 * once and stay there until the main thread has seen them all, which only
 * works if the read side really is shared.  Meanwhile the write side must
 * be refused.
 */
static atomic_int readers_in;
static atomic_int release_readers;

/*
 * Wait until *v reaches want, however long a loaded host takes: a read
 * side that is not shared never lets them all in, and Check's timeout
 * reports that hang as the test's failure.
 */
static void wait_for(atomic_int *v, int want)
{
	while (atomic_load(v) < want)
		sched_yield();
}

static void *reader(void *arg)
{
	(void)arg;
	uirq_read_lock(&rw);
	atomic_fetch_add(&readers_in, 1);
	wait_for(&release_readers, 1);
	uirq_read_unlock(&rw);
	return NULL;
}

UIRQ_TEST(readers, concurrent, ST_OPTS)
{
	pthread_t t[NTHREADS];
	bool all_in;
	int writer_got_in;

	uirq_rwlock_init(&rw);
	atomic_store(&readers_in, 0);
	atomic_store(&release_readers, 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_eq(pthread_create(&t[i], NULL, reader, NULL), 0);
	wait_for(&readers_in, NTHREADS);
	all_in = atomic_load(&readers_in) == NTHREADS;
	writer_got_in = uirq_write_trylock(&rw);
	if (writer_got_in)
		uirq_write_unlock(&rw);
	atomic_store(&release_readers, 1);
	for (int i = 0; i < NTHREADS; i++)
		assert_eq(pthread_join(t[i], NULL), 0);
	assert_true(all_in, "only %d of %d readers got in together", atomic_load(&readers_in),
		  NTHREADS);
	assert_true(!writer_got_in, "a writer got in beside readers");
	/* all gone: the write side is free again and excludes readers */
	assert_true(uirq_write_trylock(&rw));
	assert_true(!uirq_read_trylock(&rw), "a reader got in beside a writer");
	uirq_write_unlock(&rw);
	assert_true(uirq_read_trylock(&rw));
	uirq_read_unlock(&rw);
	st_expect_success();
}

/* ---- context effects -------------------------------------------------- */

UIRQ_TEST(context, spin_lock_irqsave_disables_and_restores, ST_OPTS)
{
	unsigned long flags;

	uirq_spin_lock_init(&spin);
	assert_true(!uirq_irqs_disabled());
	uirq_spin_lock_irqsave(&spin, flags);
	assert_true(uirq_irqs_disabled(), "spin_lock_irqsave left interrupts on");
	assert_true(!uirq_irqs_disabled_flags(flags), "flags must record 'were enabled'");
	assert_true(uirq_in_atomic());
	uirq_spin_unlock_irqrestore(&spin, flags);
	assert_true(!uirq_irqs_disabled(), "irqrestore did not re-enable interrupts");
	assert_true(!uirq_in_atomic());
	st_expect_success();
}

UIRQ_TEST(context, irqrestore_keeps_disabled_when_they_were, ST_OPTS)
{
	unsigned long outer, inner;

	uirq_spin_lock_init(&spin);
	outer = uirq_local_irq_save();
	uirq_spin_lock_irqsave(&spin, inner);
	assert_true(uirq_irqs_disabled_flags(inner));
	uirq_spin_unlock_irqrestore(&spin, inner);
	assert_true(uirq_irqs_disabled(), "restore must keep interrupts off");
	uirq_local_irq_restore(outer);
	assert_true(!uirq_irqs_disabled());
	st_expect_success();
}

UIRQ_TEST(context, spin_lock_irq, ST_OPTS)
{
	uirq_spin_lock_init(&spin);
	uirq_spin_lock_irq(&spin);
	assert_true(uirq_irqs_disabled());
	assert_true(uirq_in_atomic());
	uirq_spin_unlock_irq(&spin);
	assert_true(!uirq_irqs_disabled());
	assert_true(!uirq_in_atomic());
	st_expect_success();
}

UIRQ_TEST(context, spin_lock_raises_preempt_count, ST_OPTS)
{
	unsigned int base = uirq_preempt_count();

	uirq_spin_lock_init(&spin);
	assert_true(!uirq_in_atomic());
	uirq_spin_lock(&spin);
	assert_true(uirq_in_atomic(), "a held spinlock must make the context atomic");
	assert_eq(uirq_preempt_count(), base + 1);
	assert_true(!uirq_irqs_disabled(), "plain spin_lock must not touch interrupts");
	uirq_spin_unlock(&spin);
	assert_true(!uirq_in_atomic());
	assert_eq(uirq_preempt_count(), base);
	st_expect_success();
}

UIRQ_TEST(context, rwlock_raises_preempt_count, ST_OPTS)
{
	uirq_rwlock_init(&rw);
	uirq_read_lock(&rw);
	assert_true(uirq_in_atomic());
	uirq_read_unlock(&rw);
	assert_true(!uirq_in_atomic());
	uirq_write_lock(&rw);
	assert_true(uirq_in_atomic());
	uirq_write_unlock(&rw);
	assert_true(!uirq_in_atomic());
	st_expect_success();
}

UIRQ_TEST(context, mutex_is_not_atomic, ST_OPTS)
{
	uirq_mutex_init(&mutex);
	uirq_mutex_lock(&mutex);
	assert_true(!uirq_in_atomic());
	assert_true(uirq_mutex_is_locked(&mutex));
	uirq_mutex_unlock(&mutex);
	assert_true(!uirq_mutex_is_locked(&mutex));
	st_expect_success();
}

/* A mutex (which may sleep) taken while a spinlock is held: might_sleep(). */
UIRQ_TEST(context, mutex_under_spinlock_might_sleep, ST_OPTS)
{
	uirq_spin_lock_init(&spin);
	uirq_mutex_init(&mutex);
	uirq_spin_lock(&spin);
	uirq_mutex_lock(&mutex);	/* uncontended: would not block, still reported */
	uirq_mutex_unlock(&mutex);
	uirq_spin_unlock(&spin);
	st_expect_failure(UIRQ_REPORT_SLEEP_INVALID);
}

/* ... and with interrupts disabled, and in hard-irq context. */
UIRQ_TEST(context, mutex_with_irqs_off_might_sleep, ST_OPTS)
{
	uirq_mutex_init(&mutex);
	uirq_local_irq_disable();
	uirq_mutex_lock(&mutex);
	uirq_mutex_unlock(&mutex);
	uirq_local_irq_enable();
	st_expect_failure(UIRQ_REPORT_SLEEP_INVALID);
}

UIRQ_TEST(context, mutex_in_hardirq_might_sleep, ST_OPTS)
{
	uirq_mutex_init(&mutex);
	uirq_local_irq_disable();
	uirq_hardirq_enter();
	uirq_mutex_lock(&mutex);
	uirq_mutex_unlock(&mutex);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
	st_expect_failure(UIRQ_REPORT_SLEEP_INVALID);
}

// SPDX-License-Identifier: MIT
/*
 * Waits as dependencies: deadlocks with one lock and an event (a condition
 * variable, a semaphore, a thread's end, a barrier, a pipe, an eventfd),
 * each run so that both halves happen without overlapping (the run never
 * hangs), and the standard patterns that must stay silent.  argv[1] names
 * the case; the program prints "done" at the end.
 */
#include "prog.h"

#include <fcntl.h>
#include <poll.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static sem_t sem, sem_ready, sem_phase;
static pthread_barrier_t barrier;
static int fds[2], efd;
static atomic_int flag;
static int ready;

/* Ordering that lockdep does not see (no wait): a spin on an atomic. */
static void wait_flag(int v)
{
	while (atomic_load(&flag) < v)
		usleep(100);
}

static void set_flag(int v)
{
	atomic_store(&flag, v);
}

static void take_a(void)
{
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_unlock(&a));
}

/* ---- condition variables ---- */

/* The waiter: holds a (and m) and waits on cv until ready. */
static void *cond_waiter(void *arg)
{
	bool timed = arg != NULL;

	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&m));
	set_flag(2);
	while (!ready) {
		if (timed) {
			struct timespec dl = deadline_ms(10000);

			ok(pthread_cond_timedwait(&cv, &m, &dl));
		} else {
			ok(pthread_cond_wait(&cv, &m));
		}
	}
	ok(pthread_mutex_unlock(&m));
	ok(pthread_mutex_unlock(&a));
	return NULL;
}

/* The signaller: takes a before signalling (predicted), or b (unrelated), or a after. */
static void cond_case(bool timed, int how)
{
	pthread_t t;

	if (how == 0)
		take_a();
	if (how == 1) {
		ok(pthread_mutex_lock(&b));
		ok(pthread_mutex_unlock(&b));
	}
	ok(pthread_create(&t, NULL, cond_waiter, timed ? (void *)1 : NULL));
	wait_flag(2);
	/* m is ours only once the waiter waits */
	ok(pthread_mutex_lock(&m));
	ready = 1;
	ok(pthread_cond_signal(&cv));
	ok(pthread_mutex_unlock(&m));
	if (how == 2)
		take_a();	/* after the signal: waits for the waiter to let go of a, no deadlock */
	ok(pthread_join(t, NULL));
}

/*
 * Producer and consumer through the condition's own mutex: silent.  One
 * condition variable for both directions (items and room), and the
 * producer keeps an outer lock across its wait for room: it alone takes
 * that lock, so the consumer's broadcasts never need it.
 */
static void *consumer(void *arg)
{
	(void)arg;
	for (int got = 0; got < 50; got++) {
		ok(pthread_mutex_lock(&m));
		while (ready == 0)
			ok(pthread_cond_wait(&cv, &m));
		ready--;
		ok(pthread_cond_broadcast(&cv));
		ok(pthread_mutex_unlock(&m));
	}
	return NULL;
}

static void cond_own_mutex(void)
{
	pthread_t t;

	ok(pthread_create(&t, NULL, consumer, NULL));
	for (int i = 0; i < 50; i++) {
		ok(pthread_mutex_lock(&a));	/* an outer lock, the producer's alone */
		ok(pthread_mutex_lock(&m));
		while (ready > 2)
			ok(pthread_cond_wait(&cv, &m));
		ready++;
		ok(pthread_cond_signal(&cv));
		ok(pthread_mutex_unlock(&m));
		ok(pthread_mutex_unlock(&a));
	}
	ok(pthread_join(t, NULL));
}

/* ---- semaphores ---- */

static void *poster_a(void *arg)
{
	(void)arg;
	take_a();
	ok(sem_post(&sem));
	return NULL;
}

static void *poster_b(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	ok(sem_post(&sem));
	ok(pthread_mutex_unlock(&b));
	return NULL;
}

static void *poster_trylock(void *arg)
{
	(void)arg;
	ok(pthread_mutex_trylock(&a));
	ok(pthread_mutex_unlock(&a));
	ok(sem_post(&sem));
	return NULL;
}

static void *poster_wrlock(void *arg)
{
	(void)arg;
	ok(pthread_rwlock_wrlock(&rw));
	ok(pthread_rwlock_unlock(&rw));
	ok(sem_post(&sem));
	return NULL;
}

static void *poster_rdlock(void *arg)
{
	(void)arg;
	ok(pthread_rwlock_rdlock(&rw));
	ok(pthread_rwlock_unlock(&rw));
	ok(sem_post(&sem));
	return NULL;
}

/* Post first (in a thread that is gone), then wait holding a: both halves, no overlap. */
static void sem_case(void *(*poster)(void *), bool timed)
{
	run_thread(poster, NULL);
	ok(pthread_mutex_lock(&a));
	if (timed) {
		struct timespec dl = deadline_ms(10000);

		ok(sem_timedwait(&sem, &dl));
	} else {
		ok(sem_wait(&sem));
	}
	ok(pthread_mutex_unlock(&a));
}

/* The waiter holds rw (for reading or writing) while it waits. */
static void sem_rw_case(void *(*poster)(void *), bool read)
{
	run_thread(poster, NULL);
	ok(read ? pthread_rwlock_rdlock(&rw) : pthread_rwlock_wrlock(&rw));
	ok(sem_wait(&sem));
	ok(pthread_rwlock_unlock(&rw));
}

/*
 * A held while waiting for sem, whose poster holds B, while B's holder
 * waits for A: closed by the wait (lock_last 0) or by the lock (1).
 */
static void *b_then_a(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_mutex_unlock(&b));
	return NULL;
}

static void mixed(bool lock_last)
{
	run_thread(poster_b, NULL);
	if (!lock_last)
		run_thread(b_then_a, NULL);
	ok(pthread_mutex_lock(&a));
	ok(sem_wait(&sem));
	ok(pthread_mutex_unlock(&a));
	if (lock_last)
		run_thread(b_then_a, NULL);
}

/* The wait first (the semaphore's count lets it through), then the post after taking a. */
static void post_closes(void)
{
	ok(sem_post(&sem));
	ok(pthread_mutex_lock(&a));
	ok(sem_wait(&sem));
	ok(pthread_mutex_unlock(&a));
	run_thread(poster_a, NULL);
}

/*
 * One thread makes both halves - takes a, posts, waits holding a: nobody
 * else needs a to post, no deadlock (silent) - until another thread posts
 * after taking a (other: predicted then).
 */
static void one_thread(bool other)
{
	ok(pthread_mutex_lock(&a));
	ok(sem_post(&sem));
	ok(sem_wait(&sem));
	ok(pthread_mutex_unlock(&a));
	if (other) {
		run_thread(poster_a, NULL);
		ok(sem_wait(&sem));
	}
}

/*
 * Phases a semaphore orders: the poster's a comes before it lets the
 * waiter take a, and the post the waiter waits for comes after the
 * poster's own wait.  Silent.
 */
static void *phase_poster(void *arg)
{
	(void)arg;
	take_a();
	ok(sem_post(&sem_ready));	/* the waiter may take a now */
	ok(sem_wait(&sem_phase));	/* the waiter holds a */
	ok(sem_post(&sem));
	return NULL;
}

static void sem_phases(void)
{
	pthread_t t;

	ok(pthread_create(&t, NULL, phase_poster, NULL));
	ok(sem_wait(&sem_ready));
	ok(pthread_mutex_lock(&a));
	ok(sem_post(&sem_phase));
	ok(sem_wait(&sem));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_join(t, NULL));
}

/* ---- threads ---- */

static void *takes_a_then_ends(void *arg)
{
	(void)arg;
	take_a();
	set_flag(1);
	return NULL;
}

static void join_case(bool held)
{
	pthread_t t;

	ok(pthread_create(&t, NULL, takes_a_then_ends, NULL));
	wait_flag(1);
	if (held)
		ok(pthread_mutex_lock(&a));
	ok(pthread_join(t, NULL));
	if (held)
		ok(pthread_mutex_unlock(&a));
}

/*
 * A thread says it is done under the pool's lock, signals and ends; the
 * joiner waits for that signal, then joins holding the lock (pigz's yarn,
 * join_all).  The thread's lock came before the signal the joiner waited
 * for: silent.
 */
static int finished;

static void *done_under_the_lock(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&m));
	finished = 1;
	ok(pthread_cond_broadcast(&cv));
	ok(pthread_mutex_unlock(&m));
	return NULL;
}

static void join_after_done_signal(void)
{
	pthread_t t;

	ok(pthread_create(&t, NULL, done_under_the_lock, NULL));
	ok(pthread_mutex_lock(&m));
	while (!finished)
		ok(pthread_cond_wait(&cv, &m));
	ok(pthread_join(t, NULL));
	ok(pthread_mutex_unlock(&m));
}

/* ---- barriers ---- */

static void *barrier_party(void *arg)
{
	(void)arg;
	take_a();
	set_flag(1);
	(void)pthread_barrier_wait(&barrier);
	return NULL;
}

static void barrier_case(void)
{
	pthread_t t;

	ok(pthread_barrier_init(&barrier, NULL, 2));
	ok(pthread_create(&t, NULL, barrier_party, NULL));
	wait_flag(1);
	ok(pthread_mutex_lock(&a));
	(void)pthread_barrier_wait(&barrier);
	ok(pthread_mutex_unlock(&a));
	ok(pthread_join(t, NULL));
}

/* Phases a barrier orders: a before the barrier on one side, after it on the other.  Silent. */
static void *barrier_then_post(void *arg)
{
	(void)arg;
	take_a();
	(void)pthread_barrier_wait(&barrier);
	ok(sem_post(&sem));
	return NULL;
}

static void barrier_phases(void)
{
	pthread_t t;

	ok(pthread_barrier_init(&barrier, NULL, 2));
	ok(pthread_create(&t, NULL, barrier_then_post, NULL));
	(void)pthread_barrier_wait(&barrier);
	ok(pthread_mutex_lock(&a));
	ok(sem_wait(&sem));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_join(t, NULL));
}

/* ---- pipes and eventfds ---- */

static void *writer(void *arg)
{
	int how = (int)(intptr_t)arg;
	char c = 'x';
	uint64_t one = 1;

	if (how == 0)
		take_a();
	if (how == 1) {
		ok(pthread_mutex_lock(&b));
		ok(pthread_mutex_unlock(&b));
	}
	if (efd > 0)
		ok(write(efd, &one, sizeof(one)) == sizeof(one) ? 0 : errno);
	else
		ok(write(fds[1], &c, 1) == 1 ? 0 : errno);
	if (how == 2)
		take_a();	/* after the write */
	return NULL;
}

enum rd { RD_READ, RD_POLL, RD_PPOLL, RD_POLL_MIXED };

static void pipe_case(int how, enum rd rd, int pipe_flags)
{
	char c;
	int sv[2];

	ok(pipe2(fds, pipe_flags));
	run_thread(writer, (void *)(intptr_t)how);
	ok(pthread_mutex_lock(&a));
	if (rd == RD_READ) {
		ok(read(fds[0], &c, 1) == 1 ? 0 : errno);
	} else {
		struct pollfd p[2] = { { .fd = fds[0], .events = POLLIN }, { .fd = -1 } };
		struct timespec ts = { 5, 0 };

		if (rd == RD_POLL_MIXED) {
			ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
			p[1].fd = sv[0];
			p[1].events = POLLIN;
		}
		if (rd == RD_PPOLL)
			ok(ppoll(p, 2, &ts, NULL) == 1 ? 0 : errno);
		else
			ok(poll(p, 2, -1) == 1 ? 0 : errno);
	}
	ok(pthread_mutex_unlock(&a));
	close(fds[0]);
	close(fds[1]);
}

static void eventfd_case(void)
{
	uint64_t v;

	efd = eventfd(0, 0);
	ok(efd < 0 ? errno : 0);
	run_thread(writer, (void *)0);
	ok(pthread_mutex_lock(&a));
	ok(read(efd, &v, sizeof(v)) == sizeof(v) ? 0 : errno);
	ok(pthread_mutex_unlock(&a));
	close(efd);
}

/* A pipe closed and its numbers reused by other files: no longer a pipe to anyone.  Silent. */
static void pipe_reused(void)
{
	char c = 'x';
	int f;

	ok(pipe(fds));
	run_thread(writer, (void *)0);
	close(fds[0]);
	close(fds[1]);
	f = open("/dev/zero", O_RDONLY);
	ok(f < 0 ? errno : 0);
	ok(pthread_mutex_lock(&a));
	ok(read(f, &c, 1) == 1 ? 0 : errno);
	ok(pthread_mutex_unlock(&a));
	close(f);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	ok(sem_init(&sem, 0, 0));
	ok(sem_init(&sem_ready, 0, 0));
	ok(sem_init(&sem_phase, 0, 0));
	/* predicted */
	if (!strcmp(c, "cond"))
		cond_case(false, 0);
	else if (!strcmp(c, "cond_timed"))
		cond_case(true, 0);
	else if (!strcmp(c, "sem"))
		sem_case(poster_a, false);
	else if (!strcmp(c, "sem_timed"))
		sem_case(poster_a, true);
	else if (!strcmp(c, "join"))
		join_case(true);
	else if (!strcmp(c, "barrier"))
		barrier_case();
	else if (!strcmp(c, "pipe"))
		pipe_case(0, RD_READ, 0);
	else if (!strcmp(c, "poll"))
		pipe_case(0, RD_POLL, 0);
	else if (!strcmp(c, "ppoll"))
		pipe_case(0, RD_PPOLL, 0);
	else if (!strcmp(c, "eventfd"))
		eventfd_case();
	else if (!strcmp(c, "rw_read_held_write_taken"))
		sem_rw_case(poster_wrlock, true);
	else if (!strcmp(c, "rw_write_held_read_taken"))
		sem_rw_case(poster_rdlock, false);
	else if (!strcmp(c, "mixed"))
		mixed(false);
	else if (!strcmp(c, "mixed_lock_last"))
		mixed(true);
	else if (!strcmp(c, "post_closes"))
		post_closes();
	else if (!strcmp(c, "one_thread_then_another"))
		one_thread(true);
	/* silent */
	else if (!strcmp(c, "cond_own_mutex"))
		cond_own_mutex();
	else if (!strcmp(c, "cond_unrelated"))
		cond_case(false, 1);
	else if (!strcmp(c, "cond_after"))
		cond_case(false, 2);
	else if (!strcmp(c, "join_unheld"))
		join_case(false);
	else if (!strcmp(c, "sem_unrelated"))
		sem_case(poster_b, false);
	else if (!strcmp(c, "sem_trylock"))
		sem_case(poster_trylock, false);
	else if (!strcmp(c, "sem_phases"))
		sem_phases();
	else if (!strcmp(c, "barrier_phases"))
		barrier_phases();
	else if (!strcmp(c, "rw_read_both"))
		sem_rw_case(poster_rdlock, true);
	else if (!strcmp(c, "pipe_unrelated"))
		pipe_case(1, RD_READ, 0);
	else if (!strcmp(c, "pipe_after"))
		pipe_case(2, RD_READ, 0);
	else if (!strcmp(c, "pipe_nonblock"))
		pipe_case(0, RD_READ, O_NONBLOCK);
	else if (!strcmp(c, "poll_mixed"))
		pipe_case(0, RD_POLL_MIXED, 0);
	else if (!strcmp(c, "join_after_done_signal"))
		join_after_done_signal();
	else if (!strcmp(c, "one_thread"))
		one_thread(false);
	else if (!strcmp(c, "pipe_reused"))
		pipe_reused();
	else {
		fprintf(stderr, "unknown case '%s'\n", c);
		return 2;
	}
	printf("done\n");
	return 0;
}

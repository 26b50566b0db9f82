// SPDX-License-Identifier: MIT
/*
 * Port of TSan's signal_in_mutex_lock test (compiler-rt/test/tsan/
 * signal_in_mutex_lock.cpp in LLVM; the peer uses std::mutex and
 * std::condition_variable, pthread's here).  A thread loops taking and
 * releasing sampler_mutex; main takes sampler_mutex, so the thread blocks
 * in pthread_mutex_lock, and sends it SIGPROF.  The handler, running on
 * the blocked thread, takes done_mutex, sets done and signals main, which
 * waits for it under done_mutex while still holding sampler_mutex.
 *
 * TSan: no report.
 * uirq-lockdep: no report.  The interrupted thread is inside its lock of
 * sampler_mutex when the handler takes done_mutex - the order main uses
 * too (sampler, then done) - and nothing is held at exit.
 *
 * peer-verdict: none
 */
#include "peer.h"

#include <signal.h>

static pthread_mutex_t sampler_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t done_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static bool done;
static atomic_bool spin = true;

static void *sample(void *arg)
{
	(void)arg;
	while (atomic_load(&spin)) {
		ok(pthread_mutex_lock(&sampler_mutex));
		ok(pthread_mutex_unlock(&sampler_mutex));
	}
	return NULL;
}

static void on_sigprof(int sig)
{
	(void)sig;
	ok(pthread_mutex_lock(&done_mutex));
	done = true;
	ok(pthread_cond_signal(&done_cv));
	ok(pthread_mutex_unlock(&done_mutex));
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_sigprof, .sa_flags = SA_RESTART };
	pthread_t t;

	alarm(60);	/* as the peer: a hang ends the test */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL))
		return 2;
	ok(pthread_create(&t, NULL, sample, NULL));

	ok(pthread_mutex_lock(&sampler_mutex));
	ok(pthread_kill(t, SIGPROF));
	ok(pthread_mutex_lock(&done_mutex));
	while (!done)
		ok(pthread_cond_wait(&done_cv, &done_mutex));
	ok(pthread_mutex_unlock(&done_mutex));
	fprintf(stderr, "PASS\n");
	ok(pthread_mutex_unlock(&sampler_mutex));

	atomic_store(&spin, false);
	ok(pthread_join(t, NULL));
	return 0;
}

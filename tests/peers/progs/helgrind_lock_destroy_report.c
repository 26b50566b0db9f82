// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's lock_destroy_report test (valgrind helgrind/tests/
 * lock_destroy_report.c, run with --track-destroy=all, expected output
 * lock_destroy_report.stderr.exp): a mutex is initialised twice with no
 * destroy in between, and neither it nor an rwlock is destroyed before the
 * program ends.  Nothing is ever locked.
 *
 * Helgrind (with --track-destroy=all): two notes, "pthread_mutex_init
 * called on address ... which already has a live lock record" and "2
 * lock(s) were not destroyed before exit", and "ERROR SUMMARY: 0 errors".
 * By default (no --track-destroy) it says nothing.
 * uirq-lockdep: no report.  Re-initialising a lock nobody holds is harmless
 * (it only gets a new identity), and a lock need not be destroyed.
 *
 * peer-verdict: none (notes with --track-destroy)
 */
#include "peer.h"

int main(void)
{
	pthread_mutex_t mx;
	pthread_rwlock_t rw;

	ok(pthread_mutex_init(&mx, NULL));
	ok(pthread_rwlock_init(&rw, NULL));
	ok(pthread_mutex_init(&mx, NULL));
	return 0;
}

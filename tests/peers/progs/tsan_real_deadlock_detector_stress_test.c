// SPDX-License-Identifier: MIT
/*
 * Port of TSan's real_deadlock_detector_stress_test (compiler-rt/test/tsan/
 * real_deadlock_detector_stress_test.cpp in LLVM): 16384 rwlocks, created
 * lazily; four threads pick random steps.  4 in 10: take one more lock
 * (read, write, tryread or trywrite), always one numbered above every lock
 * the thread holds, up to 10 held; 5 in 10: release a random held lock;
 * 1 in 10: destroy a random lock nobody holds or is about to take.  Locks
 * are always taken in increasing order, so no cycle can form however the
 * steps interleave.  Argument 1 is the number of steps per thread (default
 * 20000; the peer does 409600), argument 2 the seed (default: the time).
 *
 * TSan: no report.
 * uirq-lockdep: no report.  Many thousands of locks live at once and
 * thousands are destroyed and re-created; none of it may run out of room
 * or produce a false cycle.
 *
 * peer-verdict: none
 */
#include "peer.h"

enum { NTHREADS = 4, NLOCKS = 16 << 10, MAX_HELD = 10 };
enum { UNINIT = -1, BUSY = -2 };	/* else: the number of users */

static struct slot {
	atomic_int state;
	pthread_rwlock_t rw;
} slots[NLOCKS];

static long steps;

static bool cas(atomic_int *v, int from, int to)
{
	return atomic_compare_exchange_strong(v, &from, to);
}

/* Become a user of slot id, initialising its lock if nobody had. */
static void get_slot(int id)
{
	struct slot *s = &slots[id];

	for (;;) {
		int old = atomic_load(&s->state);

		if (old == BUSY) {
			sched_yield();
			continue;
		}
		if (cas(&s->state, old, old == UNINIT ? BUSY : old + 1)) {
			if (old == UNINIT) {
				ok(pthread_rwlock_init(&s->rw, NULL));
				if (!cas(&s->state, BUSY, 1))
					exit(5);
			}
			return;
		}
	}
}

static void put_slot(int id)
{
	if (atomic_fetch_sub(&slots[id].state, 1) <= 0)
		exit(6);
}

static void *wander(void *seed_arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)seed_arg;
	int held[MAX_HELD], nheld = 0;

	for (long i = 0; i < steps; i++) {
		int what = rand_r(&seed) % 10;

		if (what < 4 && nheld < MAX_HELD) {
			int top = -1, id, err = 0;

			for (int k = 0; k < nheld; k++)
				top = held[k] > top ? held[k] : top;
			if (top == NLOCKS - 1)
				continue;
			id = top + 1 + rand_r(&seed) % (NLOCKS - top - 1);
			get_slot(id);
			switch (rand_r(&seed) % 4) {
			case 0:
				ok(pthread_rwlock_wrlock(&slots[id].rw));
				break;
			case 1:
				ok(pthread_rwlock_rdlock(&slots[id].rw));
				break;
			case 2:
				err = pthread_rwlock_trywrlock(&slots[id].rw);
				break;
			default:
				err = pthread_rwlock_tryrdlock(&slots[id].rw);
				break;
			}
			if (err && err != EBUSY)
				exit(3);
			if (err) {
				put_slot(id);
				continue;
			}
			held[nheld++] = id;
		} else if (what < 9 && nheld) {
			int k = rand_r(&seed) % nheld, id = held[k];

			held[k] = held[--nheld];
			ok(pthread_rwlock_unlock(&slots[id].rw));
			put_slot(id);
		} else {
			int id = rand_r(&seed) % NLOCKS;

			if (!cas(&slots[id].state, 0, BUSY))
				continue;
			ok(pthread_rwlock_destroy(&slots[id].rw));
			if (!cas(&slots[id].state, BUSY, UNINIT))
				exit(7);
		}
	}
	while (nheld) {
		int id = held[--nheld];

		ok(pthread_rwlock_unlock(&slots[id].rw));
		put_slot(id);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int seed = (unsigned int)arg_or(argc, argv, 2, (long)time(NULL));
	pthread_t t[NTHREADS];

	steps = arg_or(argc, argv, 1, 20000);
	fprintf(stderr, "seed %u\n", seed);
	srand(seed);
	for (int i = 0; i < NLOCKS; i++)
		atomic_init(&slots[i].state, UNINIT);
	for (int i = 0; i < NTHREADS; i++)
		ok(pthread_create(&t[i], NULL, wander, (void *)(uintptr_t)rand()));
	for (int i = 0; i < NTHREADS; i++)
		ok(pthread_join(t[i], NULL));
	fprintf(stderr, "DONE\n");
	return 0;
}

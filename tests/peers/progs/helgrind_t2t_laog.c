// SPDX-License-Identifier: MIT
/*
 * Port of Helgrind's t2t test as its t2t_laog run uses it (valgrind
 * helgrind/tests/t2t.c, t2t_laog.vgtest with arguments "30 10 4", expected
 * output t2t_laog.stdout.exp), a performance and shake-out test of the lock
 * order graph.  Arguments: many (default 100), levels (default 1), loops
 * (default 1).  Each loop initialises "many" mutexes per level plus, with
 * more than one level, one extra mutex per level; locks all of them, level
 * by level, holding every one at once (310 for 30 10); unlocks them in the
 * same order; and destroys them (each level's extra mutex first).
 *
 * Helgrind: no error (the expected stdout is the program's own progress
 * lines).
 * uirq-lockdep: no report: one consistent order, many locks held at once,
 * and each loop's locks are new ones.
 *
 * runs: 30 10 4
 * peer-verdict: none
 */
#include "peer.h"

enum { MANY = 1000, LEVELS = 100 };

static struct level {
	pthread_mutex_t m[MANY];
	pthread_mutex_t d;
} level[LEVELS];

static void each(int many, int levels, const char *what, int (*fn)(pthread_mutex_t *), bool extra_first)
{
	for (int l = 0; l < levels; l++) {
		printf("%s level %d\n", what, l);
		if (levels > 1 && extra_first)
			ok(fn(&level[l].d));
		for (int i = 0; i < many; i++)
			ok(fn(&level[l].m[i]));
		if (levels > 1 && !extra_first)
			ok(fn(&level[l].d));
	}
}

static int init(pthread_mutex_t *m)
{
	return pthread_mutex_init(m, NULL);
}

int main(int argc, char **argv)
{
	int many = (int)arg_or(argc, argv, 1, 100), levels = (int)arg_or(argc, argv, 2, 1);
	long loops = arg_or(argc, argv, 3, 1);

	if (many > MANY || levels > LEVELS)
		return 2;
	printf("loops %ld\n", loops);
	for (long i = 0; i < loops; i++) {
		printf("many %d level %d total_locks: %d\n", many, levels,
		       many * levels + (levels > 1 ? levels : 0));
		each(many, levels, "init", init, false);
		each(many, levels, "locking", pthread_mutex_lock, false);
		each(many, levels, "unlocking", pthread_mutex_unlock, false);
		each(many, levels, "deleting", pthread_mutex_destroy, true);
	}
	return 0;
}

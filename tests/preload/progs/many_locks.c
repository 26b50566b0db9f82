// SPDX-License-Identifier: MIT
/*
 * More locks than any fixed table holds, then a real ABBA that must still be
 * reported.  "many_locks MODE N":
 *   live     N mutexes alive at once in one array, each locked once (a
 *            million of them fill any table sized for the kernel's limits)
 *   leaked   N mutexes in blocks of their own, each locked once, never
 *            destroyed nor freed
 *   freed    the same, then all the blocks freed without a destroy
 *   deep     one thread holding N mutexes at once
 */
#include "prog.h"

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void *b_then_a(void *arg)
{
	(void)arg;
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_unlock(&a));
	ok(pthread_mutex_unlock(&b));
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 10000;
	const char *mode = argc > 1 ? argv[1] : "live";
	pthread_mutex_t *many;

	ok(pthread_mutex_lock(&a));
	ok(pthread_mutex_lock(&b));
	ok(pthread_mutex_unlock(&b));
	ok(pthread_mutex_unlock(&a));

	if (!strcmp(mode, "live") || !strcmp(mode, "deep")) {
		many = calloc((size_t)n, sizeof(*many));
		if (!many)
			return 4;
		for (long i = 0; i < n; i++)
			ok(pthread_mutex_init(&many[i], NULL));
		if (!strcmp(mode, "deep")) {
			for (long i = 0; i < n; i++)
				ok(pthread_mutex_lock(&many[i]));
			for (long i = n; i-- > 0;)
				ok(pthread_mutex_unlock(&many[i]));
		} else {
			for (long i = 0; i < n; i++)
				lock_unlock(&many[i]);
		}
		/* still alive: nothing of them may be forgotten to make room */
		for (long i = 0; i < n; i += n / 16 + 1)
			lock_unlock(&many[i]);
	} else if (!strcmp(mode, "leaked") || !strcmp(mode, "freed")) {
		pthread_mutex_t **blocks = calloc((size_t)n, sizeof(*blocks));

		if (!blocks)
			return 4;
		for (long i = 0; i < n; i++) {
			blocks[i] = malloc(sizeof(pthread_mutex_t));
			if (!blocks[i])
				return 4;
			ok(pthread_mutex_init(blocks[i], NULL));
			lock_unlock(blocks[i]);
		}
		if (!strcmp(mode, "freed")) {
			for (long i = 0; i < n; i++)
				free(blocks[i]);
			free(blocks);
		}
	} else {
		fprintf(stderr, "many_locks: unknown mode %s\n", mode);
		return 2;
	}
	run_thread(b_then_a, NULL);
	printf("many_locks: %s %ld done\n", mode, n);
	return 0;
}

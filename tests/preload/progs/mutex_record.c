// SPDX-License-Identifier: MIT
/*
 * The lock fast path finds a mutex's record through a word of the mutex
 * itself (beside its marker).  What a program can do to that word, one
 * case per argument:
 *   copy        a taken mutex copied by value: the copy carries the
 *               original's marker and record, but is a lock of its own -
 *               A then B on the original, B then the copy: no report;
 *               the copy then B after that: the copy's own ABBA, reported
 *   moved       a heap mutex moved by realloc(): the old block's locks end
 *               there, and the moved copy is a new lock that keeps the
 *               name of where it was initialised
 *   scribbled   the word overwritten (an address nothing is mapped at):
 *               the mutex is still found, still validated - its ABBA is
 *               reported - and nothing crashes
 *   pp-fails    a priority-protect mutex, whose lock fails with EINVAL in
 *               a SCHED_OTHER thread: a failed lock leaves no hold behind,
 *               so A after it and it under A is no cycle (and no thread
 *               ends holding it)
 *   pp-destroyed the same mutex destroyed, never held: glibc keeps its
 *               priority ceiling in the lock word, which is no holder
 */
#include "prog.h"

#include <sys/mman.h>

static pthread_mutex_t copy_a = PTHREAD_MUTEX_INITIALIZER, copy_b = PTHREAD_MUTEX_INITIALIZER, copy_of_a;
static pthread_mutex_t scrib_a = PTHREAD_MUTEX_INITIALIZER, scrib_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pp_a = PTHREAD_MUTEX_INITIALIZER, pp;
static pthread_mutex_t moved_b = PTHREAD_MUTEX_INITIALIZER;

static void copy(void)
{
	lock_nested(&copy_a, &copy_b);
	lock_nested(&copy_a, &copy_b);	/* the fast path's case: the record is found in copy_a */
	memcpy(&copy_of_a, &copy_a, sizeof(copy_a));
	lock_nested(&copy_b, &copy_of_a);
	lock_nested(&copy_b, &copy_of_a);
	printf("mutex_record: the copy is its own lock\n");
	fflush(stdout);
	lock_nested(&copy_of_a, &copy_b);	/* reported: copy_b then the copy above */
}

static void scribbled(void)
{
	void *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (hole == MAP_FAILED)
		exit(4);
	munmap(hole, 4096);
	lock_nested(&scrib_a, &scrib_b);
	lock_nested(&scrib_a, &scrib_b);
#ifdef __GLIBC__
	scrib_a.__data.__list.__prev = hole;	/* the word beside the marker: glibc leaves it to robust mutexes */
#endif
	lock_nested(&scrib_a, &scrib_b);
	printf("mutex_record: scribbled over and taken\n");
	fflush(stdout);
	lock_nested(&scrib_b, &scrib_a);	/* reported */
}

static __attribute__((noinline)) pthread_mutex_t *make_moved(void)
{
	pthread_mutex_t *m = malloc(sizeof(*m));

	if (!m)
		exit(4);
	ok(pthread_mutex_init(m, NULL));
	return m;
}

static void moved(void)
{
	pthread_mutex_t *m = make_moved(), *grown;

	lock_nested(m, &moved_b);
	lock_nested(m, &moved_b);
	/* a block this size is mapped anew: the mutex moves, bytes and all */
	grown = realloc(m, 1 << 22);
	if (!grown || grown == m)
		exit(4);
	lock_nested(&moved_b, grown);
	printf("mutex_record: moved\n");
	fflush(stdout);
	lock_nested(grown, &moved_b);	/* reported: the moved lock, named by where it was initialised */
	free(grown);
}

/*
 * A thread's first lock of a PP mutex fails: its ceiling (1, the lowest
 * SCHED_FIFO priority) is above a SCHED_OTHER thread's, and glibc cannot
 * raise it.  (Later ones succeed: glibc's own bookkeeping of the first
 * failure.)  So each attempt is a new thread's.
 */
static void pp_init(void)
{
	pthread_mutexattr_t attr;

	ok(pthread_mutexattr_init(&attr));
	ok(pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_PROTECT));
	ok(pthread_mutex_init(&pp, &attr));
	ok(pthread_mutexattr_destroy(&attr));
}

/* Two levels deep once, so that the thread's next acquisitions can take the fast path. */
static void deepen(void)
{
	static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER, inner = PTHREAD_MUTEX_INITIALIZER;

	lock_nested(&outer, &inner);
}

static void *pp_then_a(void *arg)
{
	(void)arg;
	deepen();
	expect(pthread_mutex_lock(&pp), EINVAL);
	ok(pthread_mutex_lock(&pp_a));
	ok(pthread_mutex_unlock(&pp_a));
	return NULL;
}

static void *a_then_pp(void *arg)
{
	(void)arg;
	deepen();
	ok(pthread_mutex_lock(&pp_a));
	expect(pthread_mutex_lock(&pp), EINVAL);
	ok(pthread_mutex_unlock(&pp_a));
	return NULL;
}

static void pp_fails(void)
{
	pp_init();
	for (int i = 0; i < 3; i++)
		run_thread(pp_then_a, NULL);
	for (int i = 0; i < 3; i++)
		run_thread(a_then_pp, NULL);
	printf("mutex_record: 6 failed locks\n");
}

/* Not held, but glibc keeps a PP mutex's ceiling in its lock word: no "held lock freed". */
static void pp_destroyed(void)
{
	pp_init();
	expect(pthread_mutex_lock(&pp), EINVAL);	/* its record is built: the destroy looks */
	ok(pthread_mutex_destroy(&pp));
	printf("mutex_record: destroyed\n");
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (!strcmp(c, "copy"))
		copy();
	else if (!strcmp(c, "scribbled"))
		scribbled();
	else if (!strcmp(c, "moved"))
		moved();
	else if (!strcmp(c, "pp-fails"))
		pp_fails();
	else if (!strcmp(c, "pp-destroyed"))
		pp_destroyed();
	else
		return 2;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * <uirq/lockdep-annotate.h> in an ordinary pthread program that links
 * nothing of uirq.  "annotate CASE":
 *   name      two heap mutexes named, then an ABBA: the report uses the names
 *   class     a parent and a child node put in one class, the child taken
 *             inside the parent: recursive locking of that class
 *   nested    the same with the child taken by uirq_mutex_lock_nested(.., 1):
 *             by design, no report
 *   assert    uirq_lock_assert_held() on a mutex not held: one report
 *   held      uirq_lock_assert_held() on a mutex held: silent
 * Without uirq-lockdep every case runs and prints its line, silently.
 */
#include "prog.h"

#include "uirq/lockdep-annotate.h"

struct node {
	pthread_mutex_t lock;
	struct node *child;
};

static char node_class;		/* the key of the node lock class */

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	struct node *parent = calloc(1, sizeof(*parent)), *child = calloc(1, sizeof(*child));
	pthread_mutex_t *qa = malloc(sizeof(*qa)), *qb = malloc(sizeof(*qb));

	if (!parent || !child || !qa || !qb)
		return 4;
	ok(pthread_mutex_init(&parent->lock, NULL));
	ok(pthread_mutex_init(&child->lock, NULL));
	parent->child = child;
	ok(pthread_mutex_init(qa, NULL));
	ok(pthread_mutex_init(qb, NULL));

	if (!strcmp(c, "name")) {
		uirq_lock_set_name(qa, "request queue lock");
		uirq_lock_set_name(qb, "reply queue lock");
		ok(pthread_mutex_lock(qa));
		ok(pthread_mutex_lock(qb));
		ok(pthread_mutex_unlock(qb));
		ok(pthread_mutex_unlock(qa));
		ok(pthread_mutex_lock(qb));
		ok(pthread_mutex_lock(qa));
		ok(pthread_mutex_unlock(qa));
		ok(pthread_mutex_unlock(qb));
	} else if (!strcmp(c, "class") || !strcmp(c, "nested")) {
		uirq_lock_set_class(&parent->lock, &node_class, "node lock");
		uirq_lock_set_class(&child->lock, &node_class, "node lock");
		ok(pthread_mutex_lock(&parent->lock));
		if (!strcmp(c, "nested")) {
			ok(uirq_mutex_lock_nested(&parent->child->lock, 1));
		} else {
			/* would be a real deadlock if the class's two locks were one: timed */
			struct timespec dl = deadline_ms(10);

			ok(pthread_mutex_timedlock(&parent->child->lock, &dl));
		}
		ok(pthread_mutex_unlock(&parent->child->lock));
		ok(pthread_mutex_unlock(&parent->lock));
	} else if (!strcmp(c, "assert") || !strcmp(c, "held")) {
		bool hold = !strcmp(c, "held");

		if (hold)
			ok(pthread_mutex_lock(qa));
		uirq_lock_assert_held(qa);
		if (hold)
			ok(pthread_mutex_unlock(qa));
	} else {
		fprintf(stderr, "annotate: unknown case '%s'\n", c);
		return 2;
	}
	free(parent);
	free(child);
	free(qa);
	free(qb);
	printf("annotate: %s done\n", c);
	return 0;
}

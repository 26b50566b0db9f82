// SPDX-License-Identifier: MIT
/*
 * Hand-over-hand down a list: hold node i, take node i+1, drop node i.
 * Releases come out of order with respect to acquisition; per-instance
 * classes see a chain, never a cycle.
 */
#include "prog.h"

#define NODES 16

struct node {
	pthread_mutex_t lock;
	int value;
};

static struct node list[NODES];

static void *walk(void *arg)
{
	(void)arg;
	for (int round = 0; round < 100; round++) {
		ok(pthread_mutex_lock(&list[0].lock));
		for (int i = 1; i < NODES; i++) {
			ok(pthread_mutex_lock(&list[i].lock));
			list[i].value += list[i - 1].value & 1;
			ok(pthread_mutex_unlock(&list[i - 1].lock));
		}
		ok(pthread_mutex_unlock(&list[NODES - 1].lock));
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	for (int i = 0; i < NODES; i++) {
		ok(pthread_mutex_init(&list[i].lock, NULL));
		list[i].value = i;
	}
	for (int i = 0; i < 3; i++)
		ok(pthread_create(&t[i], NULL, walk, NULL));
	for (int i = 0; i < 3; i++)
		ok(pthread_join(t[i], NULL));
	return 0;
}

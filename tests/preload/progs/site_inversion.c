// SPDX-License-Identifier: MIT
/*
 * Two object types, each mutex made by its type's init function.  One pair
 * is locked inode -> page, another pair page -> inode: no cycle between
 * instances, a cycle between the types - only per-site classes see it.
 */
#include "prog.h"

struct inode { pthread_mutex_t lock; };
struct page { pthread_mutex_t lock; };

static void inode_init(struct inode *i)
{
	ok(pthread_mutex_init(&i->lock, NULL));
}

static void page_init(struct page *p)
{
	ok(pthread_mutex_init(&p->lock, NULL));
}

int main(void)
{
	struct inode i1, i2;
	struct page p1, p2;

	inode_init(&i1);
	inode_init(&i2);
	page_init(&p1);
	page_init(&p2);

	ok(pthread_mutex_lock(&i1.lock));
	ok(pthread_mutex_lock(&p1.lock));
	ok(pthread_mutex_unlock(&p1.lock));
	ok(pthread_mutex_unlock(&i1.lock));

	ok(pthread_mutex_lock(&p2.lock));
	ok(pthread_mutex_lock(&i2.lock));
	ok(pthread_mutex_unlock(&i2.lock));
	ok(pthread_mutex_unlock(&p2.lock));
	return 0;
}

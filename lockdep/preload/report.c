// SPDX-License-Identifier: MIT
/*
 * What the preload library adds to lockdep's reports: the reports only it
 * can make (a destroyed lock used, a lock freed while another thread holds
 * it), and what the real lock's memory says about who holds it.
 */
#include "preload.h"
#include "../../lib/symbolize.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * The thread that holds lock, as glibc's lock says: its TID, -1 if it is
 * held but the owner is unknown (readers, a spinlock), 0 if it is free.
 */
static long lock_holder(void *lock, enum rec_kind kind)
{
#ifdef __GLIBC__
	if (kind == REC_MUTEX) {
		const pthread_mutex_t *m = lock;
		unsigned int word = (unsigned int)__atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED);
		int owner;

		/* a priority-protect mutex keeps its ceiling in the word's top 13 bits, held or not */
		if (m->__data.__kind & 64)
			word &= 0x7ffff;
		if (!word)
			return 0;
		owner = __atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED);
		return owner > 0 ? owner : -1;
	}
	if (kind == REC_RWLOCK) {
		const pthread_rwlock_t *l = lock;
		/* glibc: bit 1 write-locked, the reader count from bit 3 */
		unsigned int readers = __atomic_load_n(&l->__data.__readers, __ATOMIC_RELAXED);

		if (readers & 2) {
			int owner = __atomic_load_n(&l->__data.__cur_writer, __ATOMIC_RELAXED);

			return owner > 0 ? owner : -1;
		}
		return (readers >> 3) ? -1 : 0;
	}
#endif
#if defined(__GLIBC__) && (defined(__x86_64__) || defined(__i386__))
	/* glibc's x86 spinlock counts down from 1, the free state */
	return __atomic_load_n((const int *)lock, __ATOMIC_RELAXED) <= 0 ? -1 : 0;
#else
	return __atomic_load_n((const int *)lock, __ATOMIC_RELAXED) ? -1 : 0;
#endif
}

static long map_holder(const struct uirq_lockdep_map *map)
{
	const struct lock_rec *r = container_of(map, struct lock_rec, map);
	uintptr_t a = atomic_load_explicit(&r->addr, memory_order_relaxed);

	return a ? lock_holder((void *)a, r->kind) : 0;
}

static uintptr_t map_instance(const struct uirq_lockdep_map *map)
{
	return atomic_load_explicit(&container_of(map, struct lock_rec, map)->addr, memory_order_relaxed);
}

/* "initialised at pool.c:88 in pool_create", "first taken at pool_lock+0x1c [libpool.so]" */
static void describe_site(char *buf, size_t len, unsigned long ip, bool init)
{
	struct uirq_sym sym;
	const char *what = init ? "initialised" : "first taken";

	if (!ip || !uirq_sym_code(ip, false, &sym))
		snprintf(buf, len, "%s at %#lx", what, ip);
	else if (sym.file && sym.func)
		snprintf(buf, len, "%s at %s:%d in %s", what,
			 strrchr(sym.file, '/') ? strrchr(sym.file, '/') + 1 : sym.file, sym.line, sym.func);
	else if (sym.func)
		snprintf(buf, len, "%s at %s+%#lx [%s]", what, sym.func, sym.func_off, sym.module ? sym.module : "?");
	else
		snprintf(buf, len, "%s at %s+%#lx", what, sym.module ? sym.module : "?", sym.module_off);
}

/*
 * A lock as a person would name it: as the program named it
 * (uirq_lock_set_name), its variable ("&stats_lock", or "&pool+16" inside a
 * larger one), else its kind, address and where it was initialised or first
 * taken.
 */
static bool record_name(const struct lock_rec *r, char *buf, size_t len)
{
	uintptr_t a = atomic_load_explicit(&r->addr, memory_order_relaxed);
	char var[128], where[160];

	if (!a)
		return false;
	if (rec_kind_is_wait(r->kind))
		return wait_rec_name(r, buf, len);
	if (r->user_name) {
		snprintf(buf, len, "%s", r->user_name);
		return true;
	}
	if (uirq_sym_data(a, var, sizeof(var))) {
		snprintf(buf, len, "&%s", var);
		return true;
	}
	describe_site(where, sizeof(where), r->site, r->site_is_init);
	snprintf(buf, len, "%s@%#lx %s", rec_kind_name(r->kind), (unsigned long)a, where);
	return true;
}

/* The record of an instance class, or NULL (a site class, a shared annotated class, a dead one). */
const struct lock_rec *preload_class_rec(const struct lock_class *class)
{
	uintptr_t hidden = atomic_load(&class->key);
	const char *key = (const char *)lockdep_unhide_ptr(hidden) - class->subclass;
	const struct lock_rec *r;

	if (!hidden || site_of_key(key))
		return NULL;
	/*
	 * A record's key is its ident's address; any other key (a program's
	 * annotation: any address, a static char's too) that cannot sit at
	 * that offset of an aligned record must not be read as one.
	 */
	if (((uintptr_t)key - offsetof(struct lock_rec, ident)) % _Alignof(struct lock_rec))
		return NULL;
	r = container_of(key, struct lock_rec, ident);
	return r->map.key == rec_key(r) ? r : NULL;
}

static bool class_name(const struct lock_class *class, char *buf, size_t len)
{
	uintptr_t hidden = atomic_load(&class->key);
	const char *key = (const char *)lockdep_unhide_ptr(hidden) - class->subclass;
	const struct site_rec *site = hidden ? site_of_key(key) : NULL;
	const struct lock_rec *r = preload_class_rec(class);
	char where[160];

	if (site) {
		describe_site(where, sizeof(where), atomic_load(&site->ip), true);
		snprintf(buf, len, "%.*s %s", (int)strcspn(site->name, "@"), site->name, where);
		return true;
	}
	/* NULL for a class that died with its lock (the memory freed under a holder): its last name */
	return r && record_name(r, buf, len);
}

static bool map_name(const struct uirq_lockdep_map *map, char *buf, size_t len)
{
	return record_name(container_of(map, struct lock_rec, map), buf, len);
}

/*
 * A lock, for deduplication: its address and where it was initialised (the
 * same lock when initialised again), or its kind of lock - itself if it is
 * in static storage, else where such locks are initialised or first taken -
 * so the same bug in every object of a type is one report, not one each.
 */
static uint64_t class_sig(const struct lock_class *class, bool instance)
{
	const struct lock_rec *r = preload_class_rec(class);
	uintptr_t a = r ? atomic_load_explicit(&r->addr, memory_order_relaxed) : 0;
	uint64_t site = r ? lockdep_code_sig(r->site) : 0;
	Dl_info info;

	if (!a)
		return 0;
	if (instance)
		return report_sig(a, site, 0, 0);
	if (dladdr((void *)a, &info) && info.dli_fname)
		return a;
	return report_sig(r->kind, site, 0, 0);
}

static const struct lockdep_lock_info info = {
	.holder = map_holder,
	.instance = map_instance,
	.class_name = class_name,
	.map_name = map_name,
	.class_sig = class_sig,
	.circular = wait_circular,
	.thread_exit = wait_thread_exit,
};

__attribute__((constructor)) static void report_setup(void)
{
	lockdep_lock_info = &info;
}

/*
 * Reports from here are made like the engine's own: inside lockdep (so
 * that a pthread lock taken meanwhile - libdw's, while symbolizing - passes
 * straight through instead of waiting for the graph lock we hold), and
 * under the graph lock.  False: this thread is inside lockdep already.
 */
static bool report_start(void)
{
	if (!lockdep_recursion_enter(&lockdep_current))
		return false;
	graph_lock();
	return true;
}

static void report_stop(void)
{
	graph_unlock();
	lockdep_recursion_exit(&lockdep_current);
}

/* The end of a report: (other info,) the held locks, the stack; delivered. */
static void rpt_tail(bool other_info)
{
	if (other_info)
		rpt("\nother info that might help us debug this:\n");
	rpt_held_locks(&lockdep_current);
	rpt("\n");
	rpt_stack_backtrace("stack backtrace:");
	report_end();
}

void preload_out_of_memory(const char *what)
{
	if (!report_start())
		return;
	lockdep_out_of_memory(what);
	report_stop();
}

static void rpt_rec(const struct lock_rec *r, void *lock, const char *role)
{
	char name[LOCKDEP_NAME_MAX];

	if (!record_name(r, name, sizeof(name)))
		snprintf(name, sizeof(name), "%s", rec_kind_name(r->kind));
	rpt("%p (%s)", lock, name);
	rj_lock(role, name, (uintptr_t)lock, NULL);
}

void preload_report_destroyed_use(struct lock_rec *r, void *lock, unsigned long ip)
{
	struct lockdep_site site = { .ip = ip };

	if (!report_start())
		return;
	if (report_begin2(UIRQ_REPORT_DESTROYED, report_sig(r->ident, ip, 0, 0), ip)) {
		report_headline(true, "WARNING: use of destroyed lock detected!");
		rpt_task();
		rpt(" is using lock ");
		rpt_rec(r, lock, "destroyed");
		rpt(" at:\n");
		rpt_site(&site);
		rpt("\nbut it was destroyed, and not initialised again since.\n");
		rpt_tail(true);
	}
	report_stop();
}

/* The parent's threads that held locks at fork(), by name (preload_fork_note_thread). */
static struct {
	int tid;
	char comm[20];
} fork_threads[32];

/* Thread tid's name from /proc, or "" when it is gone. */
static void thread_comm(long pid, int tid, char *comm, size_t len)
{
	char path[64];
	int fd;
	ssize_t n = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task/%d/comm", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, comm, len - 1);
		close(fd);
	}
	comm[n > 0 ? n : 0] = 0;
	comm[strcspn(comm, "\n")] = 0;
}

void preload_fork_note_thread(int tid)
{
	if (!tid) {		/* a new fork: forget the last one's */
		memset(fork_threads, 0, sizeof(fork_threads));
		return;
	}
	for (size_t i = 0; i < sizeof(fork_threads) / sizeof(fork_threads[0]); i++) {
		if (fork_threads[i].tid == tid)
			return;
		if (!fork_threads[i].tid) {
			fork_threads[i].tid = tid;
			thread_comm((long)getpid(), tid, fork_threads[i].comm, sizeof(fork_threads[i].comm));
			return;
		}
	}
}

/* "holder/1234", or "1234" when its name was not kept and it is gone from the parent. */
static void parent_thread_name(int tid, char *buf, size_t len)
{
	char comm[20] = "";

	for (size_t i = 0; i < sizeof(fork_threads) / sizeof(fork_threads[0]) && fork_threads[i].tid; i++)
		if (fork_threads[i].tid == tid)
			snprintf(comm, sizeof(comm), "%s", fork_threads[i].comm);
	if (!comm[0])
		thread_comm(preload_fork_parent, tid, comm, sizeof(comm));
	if (comm[0])
		snprintf(buf, len, "%s/%d", comm, tid);
	else
		snprintf(buf, len, "%d", tid);
}

void preload_fork_held_check(struct lock_rec *r, void *lock, bool exclusive, unsigned long ip)
{
	struct lockdep_site site = { .ip = ip }, forked = { .ip = preload_fork_site };
	/* the holder's id in the parent (REC_FORK_HELD) */
	long holder, fork_holder = (long)atomic_load_explicit(&r->owner, memory_order_relaxed);
	char who[64], name[LOCKDEP_NAME_MAX];

	if ((r->flags & REC_FORK_READ) && !exclusive)
		return;		/* readers share it: this one does not wait */
	holder = lock_holder(lock, r->kind);
	__atomic_and_fetch(&r->flags, (uint8_t)~REC_FORK_HELD, __ATOMIC_RELEASE);
	/* released since (an atfork child handler), or taken by this process anew */
	if (!holder || (holder > 0 && holder != fork_holder))
		return;
	if (!report_start())
		return;
	if (report_begin2(UIRQ_REPORT_FORK_HELD, report_sig(r->ident, 3, 0, 0),
			  report_sig(r->kind, r->site, preload_fork_site, 3))) {
		parent_thread_name((int)fork_holder, who, sizeof(who));
		report_headline(true, "WARNING: lock held at fork() by a thread the child does not have!");
		rpt_task();
		rpt(" is trying to acquire lock:\n");
		rpt_rec(r, lock, "acquiring");
		rpt(", at: ");
		rpt_site(&site);
		rpt("\n\nbut thread %s of the parent (pid %ld) held it%s when fork() was called at:\n", who,
		    preload_fork_parent, (r->flags & REC_FORK_READ) ? " for reading" : "");
		rpt_site(&forked);
		rpt("\n\nonly the forking thread lives on in the child: nothing will ever release the lock here.\n"
		    "(pthread_atfork() handlers that take the lock before fork() and release it after\n"
		    "make it consistent.)\n");
		if (!record_name(r, name, sizeof(name)))
			snprintf(name, sizeof(name), "%s", rec_kind_name(r->kind));
		rj_lock("held at fork", name, (uintptr_t)lock, &forked);
		rpt("\n *** DEADLOCK ***\n\n");
		rpt_tail(false);
	}
	report_stop();
}

void preload_report_freed_use(struct lock_rec *r, void *lock, unsigned long ip)
{
	struct lockdep_site site = { .ip = ip }, freed = { .ip = r->freed_at }, destroyed = { .ip = r->destroyed_at };

	if (!report_start())
		return;
	if (report_begin2(UIRQ_REPORT_FREED_USE, report_sig(r->ident, ip, 4, 0), report_sig(r->site, ip, 4, 0))) {
		report_headline(true, "WARNING: heap-use-after-free: freed lock used!");
		rpt_task();
		rpt(" is using lock ");
		rpt_rec(r, lock, "freed");
		rpt(" at:\n");
		rpt_site(&site);
		rpt("\n\nbut its memory was freed at:\n");
		rpt_site(&freed);
		if (r->destroyed_at) {
			rpt("\nafter it was destroyed at:\n");
			rpt_site(&destroyed);
		}
		rpt("\nand nothing initialised it again since: the lock is memory the allocator may\n"
		    "have handed out for something else.\n");
		rpt_tail(true);
	}
	report_stop();
}

void preload_check_held_elsewhere(struct lock_rec *r, void *lock, void *mem, size_t len)
{
	long holder = r->unbalanced ? 0 : lock_holder(lock, r->kind);

	if (!holder)
		return;
	if (!report_start())
		return;
	if (report_begin2(UIRQ_REPORT_HELD_FREED, report_sig(r->ident, 1, 0, 0), report_sig(r->kind, r->site, 1, 0))) {
		report_headline(true, "WARNING: held lock freed!");
		rpt_task();
		if (len)
			rpt(" is freeing memory %p-%p, with a lock still held there!\n",
			    mem, (void *)((char *)mem + len));
		else
			rpt(" is destroying a lock that is still held!\n");
		rpt_rec(r, lock, "freed");
		if (holder > 0)
			rpt(", held by thread %ld\n", holder);
		else
			rpt(", held by another thread\n");
		rpt_tail(false);
	}
	report_stop();
}

/* A condition variable by its variable's name, else its address. */
static void cond_name(void *cond, char *buf, size_t len)
{
	char var[128];

	if (uirq_sym_data((uintptr_t)cond, var, sizeof(var)))
		snprintf(buf, len, "&%s", var);
	else
		snprintf(buf, len, "cond@%p", cond);
}

/* A mutex by its record's name, or, without a record, its address. */
static void mutex_name(void *m, char *buf, size_t len)
{
	const struct lock_rec *r = rec_index_find((uintptr_t)m);

	if (!r || !record_name(r, buf, len))
		snprintf(buf, len, "mutex@%p", m);
}

void preload_report_cond_unheld(void *cond, struct lock_rec *r, void *m, unsigned long ip)
{
	struct lockdep_site site = { .ip = ip };
	char cname[LOCKDEP_NAME_MAX];

	if (!report_start())
		return;
	if (report_begin2(UIRQ_REPORT_COND, report_sig((uintptr_t)cond, (uintptr_t)m, ip, 1), report_sig(ip, 1, 0, 0))) {
		cond_name(cond, cname, sizeof(cname));
		report_headline(true, "WARNING: condition variable waited on without its mutex held!");
		rpt_task();
		rpt(" waits on %s with mutex ", cname);
		if (r) {
			rpt_rec(r, m, "waiting with");
		} else {
			rpt("%p (not a valid mutex)", m);
			rj_lock("waiting with", "not a valid mutex", (uintptr_t)m, NULL);
		}
		rpt(" at:\n");
		rpt_site(&site);
		rpt("\nbut does not hold that mutex: the wait unlocks a mutex that is not the caller's.\n");
		rpt_tail(true);
	}
	report_stop();
}

void preload_report_cond_two(void *cond, const struct lock_rec *c, void *m, void *other, unsigned long ip)
{
	struct lockdep_site site = { .ip = ip }, first = { .ip = c->site };
	char cname[LOCKDEP_NAME_MAX], mname[LOCKDEP_NAME_MAX], oname[LOCKDEP_NAME_MAX];

	if (!report_start())
		return;
	/* once per condition variable and pair of mutexes, or pair of wait sites */
	if (report_begin2(UIRQ_REPORT_COND, report_sig((uintptr_t)cond, (uintptr_t)m ^ (uintptr_t)other, 2, 0),
			  report_sig(ip ^ c->site, 2, 0, 0))) {
		cond_name(cond, cname, sizeof(cname));
		mutex_name(m, mname, sizeof(mname));
		mutex_name(other, oname, sizeof(oname));
		report_headline(true, "WARNING: condition variable used with two different mutexes!");
		rpt_task();
		rpt(" waits on %s with mutex %p (%s) at:\n", cname, m, mname);
		rpt_site(&site);
		rpt("\nwhile %u other thread%s wait%s on it with mutex %p (%s), since:\n", c->depth,
		    c->depth > 1 ? "s" : "", c->depth > 1 ? "" : "s", other, oname);
		rpt_site(&first);
		rpt("\nA condition variable is bound to one mutex while anyone waits on it (POSIX):\n"
		    "a signal may wake a waiter whose condition another mutex protects.\n");
		rj_lock("waiting with", mname, (uintptr_t)m, &site);
		rj_lock("bound to", oname, (uintptr_t)other, &first);
		rpt_tail(true);
	}
	report_stop();
}

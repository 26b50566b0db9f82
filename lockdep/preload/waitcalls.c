// SPDX-License-Identifier: MIT
/*
 * The calls that wait and produce (waits.c has the model): condition
 * variables' signal and broadcast, semaphores, pthread_join, barriers, and
 * pipes and eventfds the program made (read, poll and ppoll wait; write
 * produces).  Each costs a test or two when no lock is held and none was
 * taken since the thread's last wait; read and write on a descriptor that
 * is no tracked pipe or eventfd cost a bounds check and a load.
 *
 * Pipes and eventfds are tracked by descriptor from their creation until
 * close (or dup2/dup3 over them).  A descriptor closed behind our back (by
 * fclose, say) and reused is caught before it adds a dependency: its inode
 * must still be the pipe's (fstat, made only then).  A read on a
 * non-blocking descriptor never waits; poll and ppoll wait on a pipe only
 * when every descriptor they watch is that pipe's (a wait for any of
 * several events is no wait for one).
 */
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- condition variables: signal and broadcast produce ---- */

static __attribute__((noinline)) void cond_produce(pthread_cond_t *c, const char *op, unsigned long ip)
{
	struct lock_rec *w = wait_rec_get((uintptr_t)c, REC_COND, ip);

	if (w)
		wait_produce(w, op, false, ip);
}

PRELOAD_EXPORT int pthread_cond_signal(pthread_cond_t *c)
{
	if (likely(preload_active()) && wait_window())
		cond_produce(c, "pthread_cond_signal", CALLER_IP);
	return REAL(cond_signal)(c);
}

PRELOAD_EXPORT int pthread_cond_broadcast(pthread_cond_t *c)
{
	if (likely(preload_active()) && wait_window())
		cond_produce(c, "pthread_cond_broadcast", CALLER_IP);
	return REAL(cond_broadcast)(c);
}

/* A new object at addr (init, destroy): the old one's class and dependencies go. */
static void forget(void *addr, enum rec_kind kind)
{
	struct lock_rec *r = rec_index_find((uintptr_t)addr);

	if (!r || r->kind != kind || !rec_table_enter())
		return;
	wait_rec_end((uintptr_t)addr, kind);
	rec_table_exit();
}

PRELOAD_EXPORT int pthread_cond_init(pthread_cond_t *restrict c, const pthread_condattr_t *restrict a)
{
	if (preload_active())
		forget(c, REC_COND);
	return REAL(cond_init)(c, a);
}

PRELOAD_EXPORT int pthread_cond_destroy(pthread_cond_t *c)
{
	int ret = REAL(cond_destroy)(c);

	if (ret == 0 && preload_active())
		forget(c, REC_COND);
	return ret;
}

/* ---- semaphores ---- */

enum sem_op { SEM_WAIT, SEM_TIMED, SEM_CLOCK };

static __attribute__((noinline)) void sem_edge(sem_t *s, enum sem_op op, unsigned long ip)
{
	struct lock_rec *w = wait_rec_get((uintptr_t)s, REC_SEM, ip);

	if (w)
		wait_edge(w, op == SEM_WAIT ? "sem_wait" : op == SEM_TIMED ? "sem_timedwait" : "sem_clockwait",
			  op != SEM_WAIT, ip);
}

static ALWAYS_INLINE int sem_do_wait(sem_t *s, enum sem_op op, clockid_t clk, const struct timespec *t,
				     unsigned long ip)
{
	int ret;

	if (likely(preload_active()) && wait_holding())
		sem_edge(s, op, ip);
	switch (op) {
	case SEM_WAIT:
		ret = REAL(sem_wait)(s);
		break;
	case SEM_TIMED:
		ret = REAL(sem_timedwait)(s, t);
		break;
	default:
		if (REAL(sem_clockwait)) {
			ret = REAL(sem_clockwait)(s, clk, t);
		} else {
			errno = ENOSYS;
			ret = -1;
		}
	}
	wait_done();
	return ret;
}

PRELOAD_EXPORT int sem_wait(sem_t *s)
{
	return sem_do_wait(s, SEM_WAIT, 0, NULL, CALLER_IP);
}

PRELOAD_EXPORT int sem_timedwait(sem_t *restrict s, const struct timespec *restrict t)
{
	return sem_do_wait(s, SEM_TIMED, 0, t, CALLER_IP);
}

PRELOAD_EXPORT int sem_clockwait(sem_t *restrict s, clockid_t clk, const struct timespec *restrict t)
{
	return sem_do_wait(s, SEM_CLOCK, clk, t, CALLER_IP);
}

static __attribute__((noinline)) void sem_produce(sem_t *s, unsigned long ip)
{
	struct lock_rec *w = wait_rec_get((uintptr_t)s, REC_SEM, ip);

	if (w)
		wait_produce(w, "sem_post", false, ip);
}

PRELOAD_EXPORT int sem_post(sem_t *s)
{
	if (likely(preload_active()) && wait_window())
		sem_produce(s, CALLER_IP);
	return REAL(sem_post)(s);
}

PRELOAD_EXPORT int sem_init(sem_t *s, int pshared, unsigned int value)
{
	if (preload_active())
		forget(s, REC_SEM);
	return REAL(sem_init)(s, pshared, value);
}

PRELOAD_EXPORT int sem_destroy(sem_t *s)
{
	int ret = REAL(sem_destroy)(s);

	if (ret == 0 && preload_active())
		forget(s, REC_SEM);
	return ret;
}

/* ---- threads ---- */

PRELOAD_EXPORT int pthread_join(pthread_t th, void **retval)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(join)(th, retval);

	if (likely(preload_active())) {
		if (ret == 0)
			wait_joined(th, "pthread_join", false, ip);
		wait_done();
	}
	return ret;
}

PRELOAD_EXPORT int pthread_tryjoin_np(pthread_t th, void **retval)
{
	int ret = REAL(tryjoin)(th, retval);

	/* no wait: what the thread's exit left goes */
	if (ret == 0 && preload_active())
		wait_forget_thread(th);
	return ret;
}

PRELOAD_EXPORT int pthread_timedjoin_np(pthread_t th, void **retval, const struct timespec *t)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(timedjoin)(th, retval, t);

	if (likely(preload_active())) {
		if (ret == 0)
			wait_joined(th, "pthread_timedjoin_np", true, ip);
		wait_done();
	}
	return ret;
}

PRELOAD_EXPORT int pthread_clockjoin_np(pthread_t th, void **retval, clockid_t clk, const struct timespec *t)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(clockjoin) ? REAL(clockjoin)(th, retval, clk, t) : ENOSYS;

	if (likely(preload_active())) {
		if (ret == 0)
			wait_joined(th, "pthread_clockjoin_np", true, ip);
		wait_done();
	}
	return ret;
}

PRELOAD_EXPORT int pthread_detach(pthread_t th)
{
	if (preload_active())
		wait_forget_thread(th);
	return REAL(detach)(th);
}

/* ---- barriers: an arrival produces, then waits ---- */

static __attribute__((noinline)) void barrier_arrive(pthread_barrier_t *b, unsigned long ip)
{
	struct lock_rec *w = wait_rec_get((uintptr_t)b, REC_BARRIER, ip);

	if (!w)
		return;
	wait_produce(w, "pthread_barrier_wait", true, ip);
	wait_edge(w, "pthread_barrier_wait", false, ip);
}

PRELOAD_EXPORT int pthread_barrier_wait(pthread_barrier_t *b)
{
	int ret;

	if (likely(preload_active()) && (wait_window() || wait_holding()))
		barrier_arrive(b, CALLER_IP);
	ret = REAL(barrier_wait)(b);
	wait_done();
	return ret;
}

PRELOAD_EXPORT int pthread_barrier_init(pthread_barrier_t *restrict b, const pthread_barrierattr_t *restrict a,
					unsigned int count)
{
	if (preload_active())
		forget(b, REC_BARRIER);
	return REAL(barrier_init)(b, a, count);
}

PRELOAD_EXPORT int pthread_barrier_destroy(pthread_barrier_t *b)
{
	int ret = REAL(barrier_destroy)(b);

	if (ret == 0 && preload_active())
		forget(b, REC_BARRIER);
	return ret;
}

/* ---- pipes and eventfds, by descriptor ---- */

#define FD_MAX		4096
/* A record's address: a place in here, one per pipe or eventfd (never a lock's). */
#define FD_IDS		8192
static char fd_ids[FD_IDS * 8];
static unsigned int fd_ids_next;		/* table lock */

struct fd_slot {
	struct lock_rec *_Atomic rec;
	uint64_t ident;			/* the record's identity when the descriptor was made */
	uint64_t ino;			/* its inode */
};
static struct fd_slot fds[FD_MAX];

/*
 * A record's depth: (first descriptor << 16) | descriptors open; its owner
 * field is unused for these kinds.
 */
static void fd_track(const int *fdv, int n, enum rec_kind kind, unsigned long ip)
{
	struct lock_rec *r;
	struct stat st;
	uintptr_t addr;

	for (int i = 0; i < n; i++)
		if (fdv[i] < 0 || fdv[i] >= FD_MAX)
			return;
	if (fstat(fdv[0], &st) != 0 || !rec_table_enter())
		return;
	addr = (uintptr_t)&fd_ids[(fd_ids_next++ % FD_IDS) * 8];
	r = wait_rec_build(addr, kind, ip);
	if (r) {
		r->depth = ((unsigned int)fdv[0] << 16) | (unsigned int)n;
		for (int i = 0; i < n; i++) {
			fds[fdv[i]].ident = r->ident;
			fds[fdv[i]].ino = st.st_ino;
			atomic_store_explicit(&fds[fdv[i]].rec, r, memory_order_release);
		}
	}
	rec_table_exit();
}

/* fd no longer refers to what it was made for. */
static __attribute__((noinline)) void fd_untrack(int fd)
{
	struct lock_rec *r;

	if (!rec_table_enter())
		return;
	r = atomic_exchange_explicit(&fds[fd].rec, NULL, memory_order_acq_rel);
	if (r && r->ident == fds[fd].ident && rec_kind_is_wait(r->kind) && (r->depth & 0xffff) &&
	    !(--r->depth & 0xffff))
		wait_rec_end(atomic_load_explicit(&r->addr, memory_order_relaxed), (enum rec_kind)r->kind);
	rec_table_exit();
}

static ALWAYS_INLINE struct lock_rec *fd_rec(int fd)
{
	return (unsigned int)fd < FD_MAX ? atomic_load_explicit(&fds[fd].rec, memory_order_acquire) : NULL;
}

/* Is fd still what it was made as (not closed behind our back and reused)? One fstat. */
static bool fd_same(int fd, const struct lock_rec *r)
{
	struct stat st;

	if (r->ident != fds[fd].ident || fstat(fd, &st) != 0 || st.st_ino != fds[fd].ino)
		return false;
	return r->kind == REC_PIPE ? S_ISFIFO(st.st_mode) : (st.st_mode & S_IFMT) == 0;
}

static bool fd_blocks(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && !(fl & O_NONBLOCK);
}

PRELOAD_EXPORT int pipe(int fdv[2])
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(pipe)(fdv);

	if (ret == 0 && preload_active())
		fd_track(fdv, 2, REC_PIPE, ip);
	return ret;
}

PRELOAD_EXPORT int pipe2(int fdv[2], int flags)
{
	unsigned long ip = CALLER_IP;
	int ret = REAL(pipe2)(fdv, flags);

	if (ret == 0 && preload_active())
		fd_track(fdv, 2, REC_PIPE, ip);
	return ret;
}

PRELOAD_EXPORT int eventfd(unsigned int initval, int flags)
{
	unsigned long ip = CALLER_IP;
	int fd = REAL(eventfd)(initval, flags);

	if (fd >= 0 && preload_active())
		fd_track(&fd, 1, REC_EVENTFD, ip);
	return fd;
}

PRELOAD_EXPORT int close(int fd)
{
	if (unlikely(fd_rec(fd) != NULL))
		fd_untrack(fd);
	return REAL(close)(fd);
}

PRELOAD_EXPORT int dup2(int old, int new)
{
	int ret = REAL(dup2)(old, new);

	if (ret >= 0 && old != new && unlikely(fd_rec(new) != NULL))
		fd_untrack(new);
	return ret;
}

PRELOAD_EXPORT int dup3(int old, int new, int flags)
{
	int ret = REAL(dup3)(old, new, flags);

	if (ret >= 0 && unlikely(fd_rec(new) != NULL))
		fd_untrack(new);
	return ret;
}

/* A read (or a poll for reading) of r's descriptor fd is about to wait. */
static void fd_wait(int fd, struct lock_rec *r, const char *op, bool timed, bool check_blocking, unsigned long ip)
{
	if (!preload_active() || !wait_holding() || lockdep_current.recursion)
		return;
	if ((check_blocking && !fd_blocks(fd)) || !fd_same(fd, r))
		return;
	wait_edge(r, op, timed, ip);
}

static __attribute__((noinline)) ssize_t read_tracked(int fd, void *buf, size_t n, struct lock_rec *r,
						      unsigned long ip)
{
	ssize_t ret;

	fd_wait(fd, r, "read", false, true, ip);
	ret = REAL(read)(fd, buf, n);
	wait_done();
	return ret;
}

PRELOAD_EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	struct lock_rec *r = fd_rec(fd);

	if (unlikely(r != NULL))
		return read_tracked(fd, buf, n, r, CALLER_IP);
	return REAL(read)(fd, buf, n);
}

/* _FORTIFY_SOURCE's read: the same, the size check left to the real one. */
PRELOAD_EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	struct lock_rec *r = fd_rec(fd);

	if (unlikely(r != NULL) && n <= buflen)
		return read_tracked(fd, buf, n, r, CALLER_IP);
	return REAL(read_chk)(fd, buf, n, buflen);
}

static __attribute__((noinline)) void write_tracked(int fd, struct lock_rec *r, unsigned long ip)
{
	if (preload_active() && wait_window() && !lockdep_current.recursion && fd_same(fd, r))
		wait_produce(r, "write", false, ip);
}

PRELOAD_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	struct lock_rec *r = fd_rec(fd);

	if (unlikely(r != NULL))
		write_tracked(fd, r, CALLER_IP);
	return REAL(write)(fd, buf, n);
}

PRELOAD_EXPORT int eventfd_read(int fd, eventfd_t *value)
{
	struct lock_rec *r = fd_rec(fd);
	ssize_t ret;

	if (likely(r == NULL))
		return REAL(eventfd_read)(fd, value);
	fd_wait(fd, r, "eventfd_read", false, true, CALLER_IP);
	ret = REAL(eventfd_read)(fd, value);
	wait_done();
	return (int)ret;
}

PRELOAD_EXPORT int eventfd_write(int fd, eventfd_t value)
{
	struct lock_rec *r = fd_rec(fd);

	if (unlikely(r != NULL))
		write_tracked(fd, r, CALLER_IP);
	return REAL(eventfd_write)(fd, value);
}

/*
 * The one tracked pipe or eventfd every watched descriptor of a poll set
 * is (for reading), or NULL; *any: a tracked one is among them.
 */
static struct lock_rec *poll_target(const struct pollfd *p, nfds_t n, int *fd, bool *any)
{
	struct lock_rec *one = NULL;
	bool mixed = false;

	*any = false;
	for (nfds_t i = 0; i < n; i++) {
		struct lock_rec *r;

		if (p[i].fd < 0 || !p[i].events)
			continue;
		r = fd_rec(p[i].fd);
		if (r)
			*any = true;
		if (!r || !(p[i].events & POLLIN) || (one && r != one))
			mixed = true;
		else if (!one) {
			one = r;
			*fd = p[i].fd;
		}
	}
	return mixed ? NULL : one;
}

static int poll_common(struct pollfd *p, nfds_t n, int timeout_ms, const struct timespec *ts, bool is_ppoll,
		       const sigset_t *sig, unsigned long ip)
{
	bool any = false;
	int fd = -1, ret;
	struct lock_rec *r = NULL;
	bool blocking = is_ppoll ? !ts || ts->tv_sec || ts->tv_nsec : timeout_ms != 0;

	if (likely(preload_active()) && blocking && (wait_holding() || wait_window()))
		r = poll_target(p, n, &fd, &any);
	if (r && wait_holding())
		fd_wait(fd, r, is_ppoll ? "ppoll" : "poll", is_ppoll ? ts != NULL : timeout_ms > 0, false, ip);
	ret = is_ppoll ? REAL(ppoll)(p, n, ts, sig) : REAL(poll)(p, n, timeout_ms);
	if (r || any)
		wait_done();
	return ret;
}

PRELOAD_EXPORT int poll(struct pollfd *p, nfds_t n, int timeout)
{
	return poll_common(p, n, timeout, NULL, false, NULL, CALLER_IP);
}

PRELOAD_EXPORT int __poll_chk(struct pollfd *p, nfds_t n, int timeout, size_t plen)
{
	if (plen / sizeof(*p) < n)
		return REAL(poll_chk)(p, n, timeout, plen);
	return poll_common(p, n, timeout, NULL, false, NULL, CALLER_IP);
}

PRELOAD_EXPORT int ppoll(struct pollfd *p, nfds_t n, const struct timespec *ts, const sigset_t *sig)
{
	return poll_common(p, n, 0, ts, true, sig, CALLER_IP);
}

/* ---- signal handlers: a context of their own ---- */

/*
 * A handler runs at any point of the code it interrupts: what it produces
 * does not wait for the locks that code took (it may even be blocked in
 * one of them).  Each handler the program installs runs through
 * handler_entry(), which gives it an empty context and puts the
 * interrupted code's back when it returns.
 */
static _Atomic uintptr_t user_handler[NSIG];
static atomic_bool user_siginfo[NSIG];

static void handler_entry(int sig, siginfo_t *si, void *uc)
{
	struct lockdep_task *t = &lockdep_current;
	unsigned int n = t->wlog_n, start = t->wlog_start;
	uintptr_t h = atomic_load_explicit(&user_handler[sig], memory_order_acquire);

	t->wlog_start = n;
	if (atomic_load_explicit(&user_siginfo[sig], memory_order_relaxed))
		((void (*)(int, siginfo_t *, void *))h)(sig, si, uc);
	else if (h)
		((void (*)(int))h)(sig);
	t->wlog_n = n;
	t->wlog_start = start;
}

static bool is_function(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) ? a->sa_sigaction != NULL :
	       a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

PRELOAD_EXPORT int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old)
{
	uintptr_t was = 0;
	bool was_info = false;
	struct sigaction mine;
	int ret;

	if (sig <= 0 || sig >= NSIG || !preload_active())
		return REAL(sigaction)(sig, act, old);
	was = atomic_load(&user_handler[sig]);
	was_info = atomic_load(&user_siginfo[sig]);
	if (act && is_function(act)) {
		mine = *act;
		atomic_store(&user_siginfo[sig], (act->sa_flags & SA_SIGINFO) != 0);
		atomic_store(&user_handler[sig], (act->sa_flags & SA_SIGINFO) ? (uintptr_t)act->sa_sigaction :
					   (uintptr_t)act->sa_handler);
		mine.sa_flags |= SA_SIGINFO;
		mine.sa_sigaction = handler_entry;
		act = &mine;
	}
	ret = REAL(sigaction)(sig, act, old);
	/* the program sees its own handler, never ours */
	if (ret == 0 && old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction == handler_entry) {
		if (was_info) {
			old->sa_sigaction = (void (*)(int, siginfo_t *, void *))was;
		} else {
			old->sa_flags &= ~SA_SIGINFO;
			old->sa_handler = (void (*)(int))was;
		}
	}
	return ret;
}

/* glibc's signal() calls its own sigaction: BSD semantics, as it gives them. */
PRELOAD_EXPORT sighandler_t signal(int sig, sighandler_t h)
{
	struct sigaction a = { .sa_handler = h, .sa_flags = SA_RESTART }, o;

	sigemptyset(&a.sa_mask);
	if (sig > 0 && sig < NSIG)
		sigaddset(&a.sa_mask, sig);
	if (sigaction(sig, &a, &o) < 0)
		return SIG_ERR;
	return o.sa_handler;
}

/* ---- fork ---- */

__attribute__((constructor)) static void waits_setup(void)
{
	pthread_atfork(wait_fork_prepare, wait_fork_parent, wait_fork_child);
}

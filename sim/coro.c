// SPDX-License-Identifier: MIT
/*
 * The deterministic mode's tasks as coroutines (internal.h): every task
 * runs on the thread that started the mode, one at a time, each on a stack
 * of its own; a scheduling decision is a switch of stacks on that thread,
 * not a hand-off between two threads through the kernel.
 *
 * The switch (x86-64, below): push the callee-saved registers and the
 * floating-point control words on the leaving stack, store its stack
 * pointer, load the other's, pop, return - some ten instructions, where a
 * futex wake and wait between two threads took microseconds.  Other
 * architectures use swapcontext() (a system call for the signal mask per
 * switch: slower, the same behaviour).
 *
 * What a thread had of its own and the tasks now share is made theirs
 * again here:
 *  - the registered task-local variables (uirq_sim_task_local(), uirq/sim.h:
 *    uirq's thread-locals - the IRQ context, lockdep's held locks, the CPU a
 *    thread is, fault containment's state - and a program's): the leaving
 *    task copies them out, the resuming task copies its own back (only
 *    their used part where a variable says what that is);
 *  - errno, kept on the task's own stack across the switch;
 *  - the command name (the task's comm, through lib's seam);
 *  - the alternate signal stack: one for the thread, installed at the
 *    start if it has none, so that a task's stack overflow (its guard
 *    page) still reaches fault containment.
 *
 * Sanitizers and Valgrind are told about every stack and switch: ASan's
 * fiber calls (each stack's bounds, its fake stack), TSan's fibers (a
 * switch is a synchronisation, as the hand-off was), Valgrind's stack
 * registration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/lib.h"
#include "internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__SANITIZE_THREAD__)
#define CORO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#elif __has_feature(thread_sanitizer)
#define CORO_TSAN 1
#endif
#endif
#ifdef CORO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef CORO_TSAN
#include <sanitizer/tsan_interface.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CORO_VALGRIND 1
#endif
#endif

/*
 * Stacks: handler threads, drivers and lockdep's reports use a few KiB;
 * 256 KiB leaves room for a deep call chain and the odd big frame.  ASan's
 * redzones make frames several times bigger, TSan's instrumentation a
 * little.  Memory is only committed as a task touches it.
 */
#if defined(CORO_ASAN)
#define DEFAULT_STACK	(1024 * 1024)
#elif defined(CORO_TSAN)
#define DEFAULT_STACK	(512 * 1024)
#else
#define DEFAULT_STACK	(256 * 1024)
#endif
#define POOL_MAX	64		/* stacks of ended tasks kept for the next ones */
#define ALTSTACK_SIZE	(64 * 1024)

static size_t stack_size = DEFAULT_STACK;
static struct uirq_sim_stack *pool;
static unsigned int pool_len;

/* ---- the switch ---- */

#ifndef UIRQ_SIM_UCONTEXT
/*
 * void uirq_sim_coro_switch(void **save_sp, void *sp): the caller-saved
 * registers are the compiler's to save around the call; this saves the
 * callee-saved ones (rbp, rbx, r12-r15) and MXCSR and the x87 control
 * word (callee-saved control bits in the SysV ABI) on the leaving stack,
 * stores the stack pointer in *save_sp, takes sp and undoes the same
 * there.  A new stack is laid out by coro_init() as if it had switched
 * away at its first instruction: the return goes to uirq_sim_coro_entry,
 * which calls r12(r13).  The entry's frame has an undefined return
 * address (CFI) and a zero frame pointer, so unwinders - backtrace() in a
 * fault report, ASan's - stop there.
 */
__asm__(".text\n"
	".p2align 4\n"
	".globl uirq_sim_coro_switch\n"
	".hidden uirq_sim_coro_switch\n"
	".type uirq_sim_coro_switch, @function\n"
	"uirq_sim_coro_switch:\n"
	"	.cfi_startproc\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size uirq_sim_coro_switch, .-uirq_sim_coro_switch\n"
	".p2align 4\n"
	".globl uirq_sim_coro_entry\n"
	".hidden uirq_sim_coro_entry\n"
	".type uirq_sim_coro_entry, @function\n"
	"uirq_sim_coro_entry:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined rip\n"
	"	movq %r13, %rdi\n"
	"	callq *%r12\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size uirq_sim_coro_entry, .-uirq_sim_coro_entry\n");

void uirq_sim_coro_switch(void **save_sp, void *sp);
void uirq_sim_coro_entry(void);

/* The first frame of a stack: what uirq_sim_coro_switch() pops, then its return into the entry. */
static void *coro_init(char *top, void (*fn)(void *), void *arg)
{
	uint64_t *sp = (uint64_t *)((uintptr_t)top & ~(uintptr_t)15);

	*--sp = 0;				/* the entry's own return address: none */
	*--sp = 0;				/* padding: rsp 16-aligned at the entry's call */
	*--sp = (uint64_t)(uintptr_t)uirq_sim_coro_entry;
	*--sp = 0;				/* rbp: the end of the frame chain */
	*--sp = 0;				/* rbx */
	*--sp = (uint64_t)(uintptr_t)fn;	/* r12 */
	*--sp = (uint64_t)(uintptr_t)arg;	/* r13 */
	*--sp = 0;				/* r14 */
	*--sp = 0;				/* r15 */
	*--sp = 0x037f00001f80ull;		/* MXCSR and x87 control word at their defaults */
	return sp;
}
#endif

/* ---- task-local variables ---- */

struct local {
	void *addr;		/* on the mode's thread */
	size_t size, off;	/* in a task's locals */
	size_t (*live)(const void *value);
	void (*exit)(void *var);
};

static struct local *locals;
static size_t nlocals, locals_size;
static unsigned int locals_gen = ~0u;
static unsigned char *fresh;	/* their values on a new thread: a new task's */
static const struct uirq_sim_task_local *fresh_from;

static void *xalloc(size_t align, size_t n)
{
	void *p = aligned_alloc(align, (n + align - 1) / align * align);

	if (!p) {
		uirq_log_write("uirq sim: out of memory\n");
		abort();
	}
	return p;
}

/* On a thread of its own: every registered variable as a new thread has it. */
static void *read_fresh(void *arg)
{
	size_t i = 0;

	(void)arg;

	for (const struct uirq_sim_task_local *tl = fresh_from; tl; tl = tl->next, i++)
		memcpy(fresh + locals[i].off, tl->addr(), tl->size);
	return NULL;
}

/*
 * The layout of a task's locals, the variables' addresses on this thread
 * (where every task runs) and their initial values: once, and again after
 * a registration.  Aligned to 64 bytes each (lockdep's held locks are),
 * so a live() may read a saved copy as the variable's type.
 */
static void locals_layout(void)
{
	unsigned int gen = __atomic_load_n(&uirq_task_locals_gen, __ATOMIC_ACQUIRE);
	struct uirq_sim_task_local *head = __atomic_load_n(&uirq_task_locals, __ATOMIC_ACQUIRE);
	pthread_t th;
	size_t n = 0;

	if (gen == locals_gen)
		return;
	for (struct uirq_sim_task_local *tl = head; tl; tl = tl->next)
		n++;
	free(locals);
	free(fresh);
	locals = xalloc(64, (n ? n : 1) * sizeof(*locals));
	nlocals = 0;
	locals_size = 0;
	for (struct uirq_sim_task_local *tl = head; tl; tl = tl->next) {
		locals[nlocals++] = (struct local){ .addr = tl->addr(), .size = tl->size, .off = locals_size,
						    .live = tl->live, .exit = tl->exit };
		locals_size += (tl->size + 63) / 64 * 64;
	}
	fresh = xalloc(64, locals_size ? locals_size : 64);
	memset(fresh, 0, locals_size);
	fresh_from = head;
	if (pthread_create(&th, NULL, read_fresh, NULL) || pthread_join(th, NULL)) {
		uirq_log_write("uirq sim: cannot read the task-local variables' initial values\n");
		abort();
	}
	locals_gen = gen;
}

/*
 * The copies are small (a few to a few hundred bytes, a dozen variables):
 * inline, by size class with overlapping moves (the first and the last 8
 * or 16 bytes: no loop below 32 bytes, never a byte outside the
 * variable), rather than a memcpy() call each - calls and loops were a
 * quarter of a decision's time.  Not turned back into calls by the
 * compiler.
 */
#if defined(__clang__)
#define NO_MEMCPY_CALLS		/* clang has no such switch (nor the attribute) */
#else
#define NO_MEMCPY_CALLS	__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
typedef uint64_t u64_una __attribute__((aligned(1), may_alias));
typedef uint32_t u32_una __attribute__((aligned(1), may_alias));

NO_MEMCPY_CALLS
static inline void copy(unsigned char *restrict d, const unsigned char *restrict s, size_t n)
{
	if (n <= 16) {
		if (n >= 8) {
			uint64_t a = *(const u64_una *)s, b = *(const u64_una *)(s + n - 8);

			*(u64_una *)d = a;
			*(u64_una *)(d + n - 8) = b;
		} else if (n >= 4) {
			uint32_t a = *(const u32_una *)s, b = *(const u32_una *)(s + n - 4);

			*(u32_una *)d = a;
			*(u32_una *)(d + n - 4) = b;
		} else if (n) {
			unsigned char a = s[0], b = s[n / 2], c = s[n - 1];

			d[0] = a;
			d[n / 2] = b;
			d[n - 1] = c;
		}
		return;
	}
	for (; n > 32; n -= 16, d += 16, s += 16) {
		uint64_t a = ((const u64_una *)s)[0], b = ((const u64_una *)s)[1];

		((u64_una *)d)[0] = a;
		((u64_una *)d)[1] = b;
	}
	/* 17 to 32 bytes: the first 16 and the last 16. */
	uint64_t a = ((const u64_una *)s)[0], b = ((const u64_una *)s)[1];
	uint64_t c = *(const u64_una *)(s + n - 16), e = *(const u64_una *)(s + n - 8);

	((u64_una *)d)[0] = a;
	((u64_una *)d)[1] = b;
	*(u64_una *)(d + n - 16) = c;
	*(u64_una *)(d + n - 8) = e;
}

NO_MEMCPY_CALLS
static void locals_save(struct uirq_sim_task *t)
{
	for (size_t i = 0; i < nlocals; i++) {
		const struct local *l = &locals[i];

		copy(t->locals + l->off, l->addr, l->live ? l->live(l->addr) : l->size);
	}
}

NO_MEMCPY_CALLS
static void locals_restore(struct uirq_sim_task *t)
{
	for (size_t i = 0; i < nlocals; i++) {
		const struct local *l = &locals[i];

		copy(l->addr, t->locals + l->off, l->live ? l->live(t->locals + l->off) : l->size);
	}
}

void uirq_sim_locals_exit(void)
{
	for (size_t i = 0; i < nlocals; i++)
		if (locals[i].exit)
			locals[i].exit(locals[i].addr);
}

/* ---- stacks ---- */

void uirq_sim_set_stack_size(size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!bytes)
		bytes = DEFAULT_STACK;
	stack_size = (bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
}

static struct uirq_sim_stack *stack_get(void)
{
	struct uirq_sim_stack *s = pool, **pp;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	/* One of the pool's, if one has the size asked for now. */
	for (pp = &pool; (s = *pp); pp = &s->next)
		if (s->size == stack_size) {
			*pp = s->next;
			pool_len--;
#ifdef CORO_ASAN
			/* The frames its last task left are still poisoned. */
			ASAN_UNPOISON_MEMORY_REGION(s->lo, s->size);
#endif
			return s;
		}
	s = malloc(sizeof(*s));
	if (!s)
		return NULL;
	s->len = stack_size + page;
	s->map = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE,
		      -1, 0);
	if (s->map == MAP_FAILED) {
		free(s);
		return NULL;
	}
	/* The guard page: an overflow faults (SIGSEGV, on the alternate stack) instead of scribbling. */
	mprotect(s->map, page, PROT_NONE);
	s->lo = (char *)s->map + page;
	s->size = stack_size;
#ifdef CORO_VALGRIND
	s->vg_id = VALGRIND_STACK_REGISTER(s->lo, s->lo + s->size);
#endif
	return s;
}

static void stack_put(struct uirq_sim_stack *s)
{
	if (pool_len < POOL_MAX) {
		s->next = pool;
		pool = s;
		pool_len++;
		return;
	}
#ifdef CORO_VALGRIND
	VALGRIND_STACK_DEREGISTER(s->vg_id);
#endif
#ifdef CORO_ASAN
	ASAN_UNPOISON_MEMORY_REGION(s->lo, s->size);
#endif
	munmap(s->map, s->len);
	free(s);
}

bool uirq_sim_task_stack(void **lo, size_t *size)
{
	struct uirq_sim_task *t = uirq_sim_current;

	if (!t || !t->stack)
		return false;
	*lo = t->stack->lo;
	*size = t->stack->size;
	return true;
}

/* ---- tasks ---- */

/* Every task's faults, an overflow of its stack among them, are handled on the thread's alternate stack. */
static struct uirq_altstack alt;

void uirq_sim_coro_start(struct uirq_sim_task *t0)
{
	locals_layout();
	t0->locals = xalloc(64, locals_size ? locals_size : 64);
#ifdef CORO_TSAN
	t0->tsan_fiber = __tsan_get_current_fiber();
#endif
	uirq_altstack_install(&alt, ALTSTACK_SIZE, 16 * 1024);
}

void uirq_sim_coro_stop(void)
{
	uirq_altstack_remove(&alt);
}

/* Back on a task's stack after a switch: the sanitizers told, the dead task's memory freed, its state back. */
static void landed(struct uirq_sim_task *me)
{
#ifdef CORO_ASAN
	const void *from_lo;
	size_t from_size;

	__sanitizer_finish_switch_fiber(me->san_fake, &from_lo, &from_size);
	/* Leaving task 0 for the first time tells where its stack (the thread's) is. */
	if (!uirq_sim.tasks[0]->san_lo && uirq_sim.tasks[0] != me)
		uirq_sim.tasks[0]->san_lo = from_lo, uirq_sim.tasks[0]->san_size = from_size;
#endif
	if (uirq_sim.dead) {
		uirq_sim_coro_release(uirq_sim.dead);
		uirq_sim.dead = NULL;
	}
	locals_restore(me);
	uirq_sim_current = me;
	uirq_sched = &uirq_sim_ops;
}

/* A new task's first instructions, on its own stack. */
static void coro_main(void *arg)
{
	struct uirq_sim_task *me = arg;

	landed(me);
	errno = 0;
	uirq_sim_task_main(me);
}

#ifdef UIRQ_SIM_UCONTEXT
static struct uirq_sim_task *uc_starting;

static void coro_main_uc(void)
{
	coro_main(uc_starting);
}
#endif

int uirq_sim_coro_create(struct uirq_sim_task *t)
{
	t->stack = stack_get();
	if (!t->stack)
		return EAGAIN;
	t->locals = xalloc(64, locals_size ? locals_size : 64);
	memcpy(t->locals, fresh, locals_size);
#ifdef UIRQ_SIM_UCONTEXT
	getcontext(&t->uc);
	t->uc.uc_stack.ss_sp = t->stack->lo;
	t->uc.uc_stack.ss_size = t->stack->size;
	t->uc.uc_link = NULL;
	makecontext(&t->uc, coro_main_uc, 0);
#else
	t->sp = coro_init(t->stack->lo + t->stack->size, coro_main, t);
#endif
#ifdef CORO_TSAN
	t->tsan_fiber = __tsan_create_fiber(0);
	__tsan_set_fiber_name(t->tsan_fiber, t->name);
#endif
	return 0;
}

void uirq_sim_coro_release(struct uirq_sim_task *t)
{
	if (t->stack) {
		stack_put(t->stack);
		t->stack = NULL;
	}
	free(t->locals);
	t->locals = NULL;
#ifdef CORO_TSAN
	if (t->tsan_fiber && t->id) {
		__tsan_destroy_fiber(t->tsan_fiber);
		t->tsan_fiber = NULL;
	}
#endif
}

void uirq_sim_switch(struct uirq_sim_task *me, struct uirq_sim_task *next)
{
	bool leaving = me->state == T_EXITED;
	int err = errno;

	if (leaving)
		uirq_sim.dead = me;	/* its stack is in use until the switch: the next task frees it */
	else
		locals_save(me);
#ifdef CORO_ASAN
	/* NULL: the leaving task never comes back, its fake stack goes. */
	__sanitizer_start_switch_fiber(leaving ? NULL : &me->san_fake,
				       next->stack ? next->stack->lo : next->san_lo,
				       next->stack ? next->stack->size : next->san_size);
#endif
#ifdef CORO_TSAN
	__tsan_switch_to_fiber(next->tsan_fiber, 0);
#endif
#ifdef UIRQ_SIM_UCONTEXT
	uc_starting = next;	/* read by a new task's first function only */
	swapcontext(&me->uc, &next->uc);
#else
	uirq_sim_coro_switch(&me->sp, next->sp);
#endif
	landed(me);
	errno = err;
}

// SPDX-License-Identifier: MIT
/*
 * Faults in handlers: the kernel's oops path, cut down to what a process
 * can honour.
 *
 * A thread_fn that faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) on its handler
 * thread is contained.  The fault handler runs on the thread's alternate
 * stack (a stack overflow is a fault too), notes the signal and a backtrace
 * and jumps back into irq_fault_call(), around the thread_fn call; the
 * thread then puts its context back, reports, kills the action (never run
 * again) and disables the line - or, when other live actions share it,
 * leaves the line to them - and finishes the interrupt's bookkeeping as
 * after any run, so oneshot, synchronize_irq() and free_irq() go on as ever.
 *
 * Anywhere else there is nothing to go back to: a primary handler or a flow
 * on a CPU (hard-irq context), uirq's own code on a handler thread, a thread
 * of the program.  The fault is reported and the process dies of that very
 * signal (default disposition, re-raised), as the kernel panics on a fatal
 * exception in interrupt.  A program's or a sanitizer's own handler, found
 * installed before ours, still gets the faults of the program's threads.
 *
 * Reports go to the log (uirq/printk.h), in the kernel's words.  The handler
 * only records and jumps: a contained fault is reported from the thread,
 * outside the signal handler.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "uirq/lockdep.h"
#include "uirq/printk.h"

#include "../lib/symbolize.h"
#include "internals.h"

#if defined(__SANITIZE_ADDRESS__)
#define FAULT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAULT_ASAN 1
#endif
#endif
#ifdef FAULT_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define ALTSTACK_SIZE	(64 * 1024)
#define ALTSTACK_MIN	(16 * 1024)	/* a stack found installed (a sanitizer's) that is enough */
#define DEADMAN_SEC	5		/* a fatal report that hangs is cut short */

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
static struct sigaction old_actions[NSIG];	/* what was installed before ours */
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static atomic_int oops_count;
static atomic_int fatal_owner;

/* Per thread, and per task in the deterministic mode (one variable: one copy at each switch). */
static __thread struct {
	struct irq_fault *cur;		/* the armed call, NULL outside thread_fns */
	struct irq_fault *jumped;	/* the call the handler jumped back to */
	unsigned char kind;		/* enum irq_fault_kind */
	bool fatal_here;		/* this thread is reporting a fatal fault */
} ft;
UIRQ_SIM_TASK_LOCAL(ft)
/* The alternate signal stack: the thread's, never a task's (the mode gives its thread one). */
static __thread struct uirq_altstack alt;

/* ---- the report ---- */

/* Lines gathered into messages of the log's size, so a report reaches a sink in few pieces. */
struct kmsg {
	size_t len;
	char buf[1000];
};

static void kmsg_flush(struct kmsg *m)
{
	if (m->len)
		uirq_log_printk("%s", m->buf);
	m->len = 0;
	m->buf[0] = '\0';
}

__attribute__((format(printf, 2, 3))) static void kmsg(struct kmsg *m, const char *fmt, ...)
{
	char line[320];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	if (m->len + n >= sizeof(m->buf))
		kmsg_flush(m);
	memcpy(m->buf + m->len, line, n + 1);
	m->len += n;
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	default: return "signal";
	}
}

static const char *code_name(int sig, int code)
{
	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_TKILL: return "SI_TKILL";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_TIMER: return "SI_TIMER";
	}
	switch (sig) {
	case SIGSEGV:
		return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "?";
	case SIGBUS:
		return code == BUS_ADRALN ? "BUS_ADRALN" : code == BUS_ADRERR ? "BUS_ADRERR" :
		       code == BUS_OBJERR ? "BUS_OBJERR" : "?";
	case SIGFPE:
		return code == FPE_INTDIV ? "FPE_INTDIV" : code == FPE_INTOVF ? "FPE_INTOVF" :
		       code == FPE_FLTDIV ? "FPE_FLTDIV" : code == FPE_FLTINV ? "FPE_FLTINV" : "?";
	case SIGILL:
		return code == ILL_ILLOPC ? "ILL_ILLOPC" : code == ILL_ILLOPN ? "ILL_ILLOPN" :
		       code == ILL_PRVOPC ? "ILL_PRVOPC" : code == ILL_ILLTRP ? "ILL_ILLTRP" : "?";
	}
	return "?";
}

/* "NULL pointer dereference at ...": the kernel's name for what went wrong. */
static void describe(char *buf, size_t len, const struct irq_fault *f)
{
	unsigned long addr = (unsigned long)f->addr;

	if (f->code <= 0) {
		snprintf(buf, len, "%s sent by pid %d", sig_name(f->sig), (int)f->pid);
		return;
	}
	switch (f->sig) {
	case SIGSEGV:
		snprintf(buf, len, addr < 4096 ? "kernel NULL pointer dereference at %016lx"
					       : "page fault for address %016lx", addr);
		break;
	case SIGBUS:
		snprintf(buf, len, "bus error at %016lx", addr);
		break;
	case SIGFPE:
		snprintf(buf, len, f->code == FPE_INTDIV ? "divide error" : "arithmetic exception");
		break;
	case SIGILL:
		snprintf(buf, len, "invalid opcode at %016lx", (unsigned long)f->ip);
		break;
	default:
		snprintf(buf, len, "%s", sig_name(f->sig));
	}
}

/*
 * A frame as every report prints it, lockdep's included (lib/symbolize.c):
 * "func+0x1c (file.c:42) [module]", else "module+0x1234"; ret: a return
 * address, whose call may be the function's last bytes.
 */
void irq_format_ip(char *buf, size_t len, void *ip, bool ret)
{
	uirq_sym_format((unsigned long)ip, !ret, buf, len);
}

static void *uc_ip(void *ucv)
{
	ucontext_t *uc = ucv;

	if (!uc)
		return NULL;
#if defined(__x86_64__)
	return (void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	return (void *)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	return (void *)uc->uc_mcontext.pc;
#else
	return NULL;
#endif
}

static void report_head(struct kmsg *m, const struct irq_fault *f, const char *where)
{
	char what[96], comm[17] = "?";
	int cpu = uirq_this_cpu();

	describe(what, sizeof(what), f);
	uirq_task_comm(comm);
	comm[16] = '\0';
	kmsg(m, "BUG: unable to handle %s in %s\n", what, where);
	kmsg(m, "Oops: %s (%s) [#%d]\n", sig_name(f->sig), code_name(f->sig, f->code),
	     atomic_fetch_add(&oops_count, 1) + 1);
	if (cpu >= 0)
		kmsg(m, "CPU: %d PID: %ld Comm: %s\n", cpu, uirq_task_pid(), comm);
	else
		kmsg(m, "PID: %ld Comm: %s\n", uirq_task_pid(), comm);
}

/* The frames from the faulting one down; the handler's own frames above it are left out. */
static void report_trace(struct kmsg *m, const struct irq_fault *f, const char *tag)
{
	char sym[256];
	int first = 0;

	for (int i = 0; f->ip && i < f->nr_frames; i++) {
		if (f->frames[i] == f->ip) {
			first = i + 1;
			break;
		}
	}
	if (f->ip) {
		irq_format_ip(sym, sizeof(sym), f->ip, false);
		kmsg(m, "RIP: %s\n", sym);
	}
	kmsg(m, "Call Trace:\n <%s>\n", tag);
	for (int i = first; i < f->nr_frames; i++) {
		irq_format_ip(sym, sizeof(sym), f->frames[i], true);
		kmsg(m, " %s\n", sym);
	}
	kmsg(m, " </%s>\n", tag);
}

/* ---- dying of a fault ---- */

static void die_now(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* A fault returns and faults again, by default now. */
}

/* Should the report itself hang (a lock the dying thread holds), sig ends it all the same. */
static void arm_deadman(int sig)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = sig };
	struct itimerspec its = { .it_value = { DEADMAN_SEC, 0 } };
	int timer;

	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (!syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &timer))
		syscall(SYS_timer_settime, timer, 0, &its, NULL);
}

static void fault_fatal(int sig, siginfo_t *si, void *ucv)
{
	struct irq_fault f = { .sig = sig, .code = si->si_code, .addr = si->si_addr, .pid = si->si_pid };
	struct kmsg m = { 0 };
	int expected = 0;
	bool hardirq = ft.kind == IRQ_FAULT_CPU || uirq_in_hardirq();
	unsigned int irq = uirq_cpu_current_irq();
	sigset_t set;

	ft.fatal_here = true;
	if (!atomic_compare_exchange_strong(&fatal_owner, &expected, 1)) {
		/* Another thread is reporting and takes the process down. */
		for (;;) {
			struct timespec ts = { 1, 0 };

			nanosleep(&ts, NULL);
		}
	}
	f.ip = uc_ip(ucv);
	f.nr_frames = backtrace(f.frames, IRQ_FAULT_FRAMES);
	/* On the signal stack, in whatever state the fault left: frames at dladdr() quality. */
	uirq_sym_dladdr_only = true;
	/* A fault in the report, or the deadman, comes back to die_now(). */
	arm_deadman(sig);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);

	report_head(&m, &f, hardirq ? "hard-irq context" :
			    ft.kind == IRQ_FAULT_THREAD ? "irq thread context" : "process context");
	if (hardirq && irq)
		kmsg(&m, "irq %u: in its flow or primary handler\n", irq);
	else if (ft.kind == IRQ_FAULT_THREAD)
		kmsg(&m, "in the irq thread's own code, outside any thread_fn\n");
	report_trace(&m, &f, hardirq ? "IRQ" : "TASK");
	kmsg(&m, "---[ end trace ]---\n");
	kmsg(&m, "Kernel panic - not syncing: Fatal exception%s\n", hardirq ? " in interrupt" : "");
	kmsg_flush(&m);
	die_now(sig);
}

/* The program's (or a sanitizer's) handler from before ours; false if there was none. */
static bool fault_chain(int sig, siginfo_t *si, void *ucv)
{
	const struct sigaction *old = &old_actions[sig];

	if (old->sa_flags & SA_SIGINFO) {
		if (!old->sa_sigaction)
			return false;
		old->sa_sigaction(sig, si, ucv);
		return true;
	}
	if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN)
		return false;
	old->sa_handler(sig);
	return true;
}

static void fault_handler(int sig, siginfo_t *si, void *ucv)
{
	struct irq_fault *f = ft.cur;

	if (ft.fatal_here) {
		die_now(sig);	/* faulted in its own report, or the deadman rang */
		return;
	}
	if (f) {
		ucontext_t *uc = ucv;

		f->sig = sig;
		f->code = si->si_code;
		f->addr = si->si_addr;
		f->pid = si->si_pid;
		f->ip = uc_ip(ucv);
		f->mask = uc->uc_sigmask;
		f->nr_frames = backtrace(f->frames, IRQ_FAULT_FRAMES);
		ft.cur = f->prev;
		ft.jumped = f;
		siglongjmp(f->env, 1);
	}
	if (ft.kind == IRQ_FAULT_TASK && !uirq_in_hardirq() && fault_chain(sig, si, ucv))
		return;
	fault_fatal(sig, si, ucv);
}

static void fault_install(void)
{
	struct sigaction sa = { .sa_sigaction = fault_handler, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	void *warm[2];

	/* The first backtrace() loads the unwinder (dlopen, malloc): not in a signal handler. */
	backtrace(warm, 2);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		sigaction(fault_signals[i], &sa, &old_actions[fault_signals[i]]);
}

void irq_fault_init(void)
{
	pthread_once(&fault_once, fault_install);
}

bool uirq_irq_fault_containment(void)
{
	irq_fault_init();
	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++) {
		struct sigaction cur;

		if (sigaction(fault_signals[i], NULL, &cur) || !(cur.sa_flags & SA_SIGINFO) ||
		    cur.sa_sigaction != fault_handler)
			return false;
	}
	return true;
}

/* ---- uirq threads ---- */

void irq_fault_thread_init(enum irq_fault_kind kind)
{
	ft.kind = (unsigned char)kind;
	/* A task of the deterministic mode runs on its thread, whose alternate stack the mode installed. */
	if (uirq_sim_current)
		return;
	uirq_altstack_install(&alt, ALTSTACK_SIZE, ALTSTACK_MIN);
}

void irq_fault_thread_exit(void)
{
	ft.kind = IRQ_FAULT_TASK;
	if (!uirq_sim_current)
		uirq_altstack_remove(&alt);
}

#ifdef FAULT_ASAN
/*
 * The frames the jump abandoned keep their redzones poisoned, and the
 * sanitizer's own clean-up at siglongjmp() measures from the signal stack:
 * unpoison the dead part of the thread's stack here, back on it.
 */
__attribute__((noinline)) static void unpoison_dead_frames(void)
{
	pthread_attr_t attr;
	void *lo;
	size_t size;

	/* A task of the deterministic mode runs on a stack of its own. */
	if (uirq_sim_task_stack(&lo, &size)) {
		char *here = __builtin_frame_address(0);

		if (here > (char *)lo && here <= (char *)lo + size)
			ASAN_UNPOISON_MEMORY_REGION(lo, (size_t)(here - (char *)lo));
		return;
	}
	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &lo, &size)) {
		char *here = __builtin_frame_address(0);

		if (here > (char *)lo && here <= (char *)lo + size)
			ASAN_UNPOISON_MEMORY_REGION(lo, (size_t)(here - (char *)lo));
	}
	pthread_attr_destroy(&attr);
}
#endif

/* Back from the handler: the thread's signal mask and context as they were before the call. */
static void fault_landed(struct irq_fault *f)
{
	pthread_sigmask(SIG_SETMASK, &f->mask, NULL);
#ifdef FAULT_ASAN
	unpoison_dead_frames();
#endif
	/* A handler thread's own run: the locks it held died with it (reported, then forgotten). */
	if (ft.kind == IRQ_FAULT_THREAD && !f->prev)
		uirq_lockdep_thread_exit();
	while ((uirq_preempt_count() & UIRQ_HARDIRQ_MASK) > (f->preempt_count & UIRQ_HARDIRQ_MASK))
		uirq_hardirq_exit();
	while ((uirq_preempt_count() & UIRQ_PREEMPT_MASK) > (f->preempt_count & UIRQ_PREEMPT_MASK))
		uirq_preempt_enable();
	if (uirq_irqs_disabled() != f->irqs_off) {
		if (f->irqs_off)
			uirq_local_irq_disable();
		else
			uirq_local_irq_enable();
	}
}

__attribute__((noinline)) bool irq_fault_call(struct irq_fault *f, uirq_irq_handler_t fn, int irq,
					      void *dev_id, uirq_irqreturn_t *ret)
{
	f->prev = ft.cur;
	f->preempt_count = uirq_preempt_count();
	f->irqs_off = uirq_irqs_disabled();
	/* No mask saved: a system call per run.  The handler records the mask instead. */
	if (sigsetjmp(f->env, 0)) {
		fault_landed(ft.jumped);
		return true;
	}
	ft.cur = f;
	atomic_signal_fence(memory_order_seq_cst);
	*ret = fn(irq, dev_id);
	atomic_signal_fence(memory_order_seq_cst);
	ft.cur = f->prev;
	return false;
}

/* ---- the action that faulted ---- */

void irq_thread_faulted(struct uirq_irq_desc *desc, struct uirq_irqaction *action,
			struct irq_fault *f, bool nested)
{
	unsigned int irq = desc->irq_data.irq;
	struct uirq_irqaction *owner = NULL, *a;
	bool live = false;
	unsigned long flags;
	struct kmsg m = { 0 };
	char sym[256];

	chip_bus_lock(desc);
	uirq_spin_lock_irqsave(&desc->lock, flags);
	/* A forced-threading secondary's action in the chain is its primary. */
	for_each_action_of_desc(desc, a)
		if (a == action || a->secondary == action)
			owner = a;
	if (owner) {
		atomic_fetch_or(&owner->thread_flags, IRQTF_DEAD);
		if (owner->secondary)
			atomic_fetch_or(&owner->secondary->thread_flags, IRQTF_DEAD);
		desc->istate |= IRQS_DEAD_ACTIONS;
		for_each_action_of_desc(desc, a)
			live |= !irq_action_dead(a);
		if (!live && !(desc->istate & IRQS_FAULT_DISABLED)) {
			desc->istate |= IRQS_FAULT_DISABLED;
			__disable_irq(desc);
		}
	} else {
		atomic_fetch_or(&action->thread_flags, IRQTF_DEAD);	/* being freed */
	}
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	chip_bus_sync_unlock(desc);

	report_head(&m, f, "irq thread context");
	irq_format_ip(sym, sizeof(sym), (void *)action->thread_fn, false);
	kmsg(&m, "irq %u, action \"%s\": %sthread_fn %s\n", irq, action->name ? action->name : "",
	     nested ? "nested " : "", sym);
	report_trace(&m, f, "TASK");
	kmsg(&m, "---[ end trace ]---\n");
	if (!owner)
		kmsg(&m, "genirq: irq %u: action \"%s\" killed by a fault in its thread_fn while being freed\n",
		     irq, action->name ? action->name : "");
	else
		kmsg(&m, "genirq: irq %u: action \"%s\" killed by a fault in its thread_fn; %s\n", irq,
		     action->name ? action->name : "",
		     live ? "the line keeps serving its other actions" : "line disabled");
	kmsg_flush(&m);
}

bool uirq_irq_action_is_dead(unsigned int irq, void *dev_id)
{
	struct uirq_irq_desc *desc = irq_to_desc(irq);
	struct uirq_irqaction *action;
	unsigned long flags;
	bool dead = false;

	if (!desc)
		return false;
	uirq_spin_lock_irqsave(&desc->lock, flags);
	for_each_action_of_desc(desc, action) {
		if (action->dev_id == dev_id) {
			dead = irq_action_dead(action);
			break;
		}
	}
	uirq_spin_unlock_irqrestore(&desc->lock, flags);
	return dead;
}

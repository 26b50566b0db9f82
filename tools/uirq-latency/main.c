// SPDX-License-Identifier: MIT
/*
 * uirq-latency: the latency from raising an interrupt to its handler, for
 * each wait mode of uirq (primary handler and threaded handler) and for
 * hand-written baselines (eventfd -> epoll, futex wake) in the same run.
 * docs/uirq-latency.1 is the manual; latency.h says how a sample is taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "latency.h"
#include "uirq/irq.h"

#define PROG "uirq-latency"

uint64_t lat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void lat_futex_wait(atomic_uint *w, unsigned int old)
{
	struct timespec ts = { 0, 100000000 };	/* the caller looks at its clock every 100 ms */

	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, old, &ts, NULL, 0);
}

void lat_futex_wake(atomic_uint *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void lat_pin(int core)
{
	cpu_set_t set;

	if (core < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(core, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

void lat_taken(struct run *r)
{
	atomic_fetch_add(&r->done, 1);
	lat_futex_wake(&r->done);
}

/* ---- the takers ---- */

static struct run run;
static struct source *src;
static _Thread_local bool thread_pinned;

static uirq_irqreturn_t primary(int irq, void *dev)
{
	uint64_t t = lat_now();

	(void)irq;
	(void)dev;
	source_ack(src, false);
	if (run.leg->thread)
		return UIRQ_IRQ_WAKE_THREAD;
	atomic_store(&run.t1, t);
	lat_taken(&run);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t thread_fn(int irq, void *dev)
{
	uint64_t t = lat_now();

	(void)irq;
	(void)dev;
	/* The thread runs on the raiser's core, which sleeps while a sample is out (latency.h). */
	if (!thread_pinned) {
		lat_pin(run.o->thread_cpu);
		thread_pinned = true;
	}
	atomic_store(&run.t1, t);
	lat_taken(&run);
	return UIRQ_IRQ_HANDLED;
}

static atomic_uint futex_word;
static int base_fd = -1;	/* the epoll baseline's fd (source_fd()) */

/* A baseline's waiting thread: epoll on the source's fd, or a futex, on the uirq CPU's core. */
static void *baseline_main(void *arg)
{
	struct run *r = arg;
	int ep = -1;

	lat_pin(r->o->cpu);
	if (r->leg->kind == LEG_BASE_EPOLL) {
		struct epoll_event ev = { .events = EPOLLIN };

		ep = epoll_create1(EPOLL_CLOEXEC);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, base_fd, &ev)) {
			perror(PROG ": epoll");
			exit(1);
		}
	}
	while (!atomic_load(&r->stop)) {
		struct epoll_event ev;

		if (r->leg->kind == LEG_BASE_EPOLL) {
			if (epoll_wait(ep, &ev, 1, 100) != 1)
				continue;
			atomic_store(&r->t1, lat_now());
			source_ack(src, true);
		} else {
			if (!atomic_exchange(&futex_word, 0)) {
				struct timespec ts = { 0, 100000000 };

				syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
				continue;
			}
			atomic_store(&r->t1, lat_now());
		}
		lat_taken(r);
	}
	if (ep >= 0)
		close(ep);
	return NULL;
}

/* ---- the raiser ---- */

static void spin_until(uint64_t t)
{
	while (lat_now() < t)
		;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec * 1e-6;
}

static int raise_once(struct run *r)
{
	if (r->leg->kind == LEG_BASE_FUTEX) {
		atomic_store(&r->t0, lat_now());
		atomic_store(&futex_word, 1);
		lat_futex_wake(&futex_word);
		return 0;
	}
	return source_raise(src, r, r->leg->kind != LEG_UIRQ);
}

/* One leg for duration_s: samples into leg; 0 or -errno. */
static int run_leg(const struct opts *o, struct leg *leg)
{
	unsigned int irq = 0;
	pthread_t base;
	int err = 0;

	memset(&run, 0, sizeof(run));
	run.o = o;
	run.leg = leg;
	if (leg->kind == LEG_UIRQ) {
		if ((err = source_line(src, &irq)))
			return err;
		uirq_cpu_set_wait(0, leg->mode, leg->mode == UIRQ_WAIT_ADAPTIVE ? o->adaptive_ns : 0);
		uirq_irq_set_thread_wait(irq, leg->mode, leg->mode == UIRQ_WAIT_ADAPTIVE ? o->adaptive_ns : 0);
		err = leg->thread ? uirq_request_threaded_irq(irq, primary, thread_fn, UIRQF_ONESHOT, "latency", &run)
				  : uirq_request_irq(irq, primary, 0, "latency", &run);
		if (err) {
			source_line_done(src);
			return err;
		}
	} else {
		if (leg->kind == LEG_BASE_EPOLL && (base_fd = source_fd(src)) < 0)
			return base_fd;
		err = pthread_create(&base, NULL, baseline_main, &run);
		if (err) {
			if (leg->kind == LEG_BASE_EPOLL)
				source_fd_done(src);
			return -err;
		}
	}

	/* A few samples first, counted nowhere: page faults, the thread's first wake and pinning. */
	uint64_t start = 0, end = 0;
	double c0 = 0;

	for (unsigned int i = 0;; i++) {
		if (i == 16) {
			start = lat_now();
			end = start + (uint64_t)(o->duration_s * 1e9);
			c0 = cpu_seconds();
		}
		unsigned int seen = atomic_load(&run.done);

		if (o->source != SRC_TIMERFD || leg->kind == LEG_BASE_FUTEX)
			spin_until(lat_now() + o->interval_ns);
		if ((err = raise_once(&run)))
			break;
		/* A raise nothing took in 5 s is lost, and the run says so rather than wait for ever. */
		uint64_t lost_at = lat_now() + 5000000000ull;

		while (atomic_load(&run.done) == seen && lat_now() < lost_at)
			lat_futex_wait(&run.done, seen);
		if (atomic_load(&run.done) == seen) {
			fprintf(stderr, PROG ": %s: raise %u was not taken within 5 s\n", leg->name, i + 1);
			err = -ETIMEDOUT;
			break;
		}
		if (i >= 16) {
			uint64_t t0 = atomic_load(&run.t0), t1 = atomic_load(&run.t1);

			leg_add(leg, t1 > t0 ? t1 - t0 : 0);
			if (lat_now() >= end)
				break;
		}
	}
	if (start) {
		leg->cpu_s += cpu_seconds() - c0;
		leg->wall_s += (double)(lat_now() - start) / 1e9;
	}

	if (leg->kind == LEG_UIRQ) {
		uirq_free_irq(irq, &run);
		uirq_cpu_set_wait(0, UIRQ_WAIT_BLOCKING, 0);
		source_line_done(src);
	} else {
		atomic_store(&run.stop, true);
		atomic_store(&futex_word, 1);
		lat_futex_wake(&futex_word);
		pthread_join(base, NULL);
		if (leg->kind == LEG_BASE_EPOLL)
			source_fd_done(src);
	}
	return err;
}

/* ---- the command line ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [--source eventfd|timerfd|uio|vfio|gpio] [--device DEV]\n"
		"                    [--duration SECONDS] [--rounds N] [--interval US]\n"
		"                    [--modes LIST] [--adaptive-ns NS] [--cpu CORE] [--raiser-cpu CORE]\n"
		"                    [--json] [--histogram FILE]\n"
		"\n"
		"Interrupt-to-handler latency of uirq in each wait mode, primary and threaded\n"
		"handler, against hand-written baselines measured in the same run.\n"
		"\n"
		"  --source S        what raises the interrupt (default eventfd): eventfd (a write),\n"
		"                    timerfd (a timer due --interval ahead), uio or vfio (QEMU's edu\n"
		"                    device, raised through its register), gpio (a gpio-sim line)\n"
		"  --device DEV      uio: /dev/uioN; vfio: its PCI address; gpio: CHIP:LINE of a\n"
		"                    gpio-sim line (default: the first such device found)\n"
		"  --duration S      seconds of samples per mode and round (default 1)\n"
		"  --rounds N        the modes run in turn N times, samples pooled (default 1)\n"
		"  --interval US     from one sample's end to the next raise (default 10)\n"
		"  --modes LIST      comma-separated, of: baseline-epoll baseline-futex\n"
		"                    blocking-primary blocking-thread adaptive-primary\n"
		"                    adaptive-thread poll-primary poll-thread (default all)\n"
		"  --adaptive-ns NS  the adaptive mode's poll bound (default %u)\n"
		"  --cpu CORE        the host core of uirq's CPU and of the baselines' waiter\n"
		"                    (default the last online core)\n"
		"  --raiser-cpu CORE the raiser's core, also the handler threads' (default 0)\n"
		"  --json            one JSON object per mode and line instead of the table\n"
		"  --histogram FILE  the latency distribution as CSV (a row per bucket, a column per mode)\n"
		"  -h, --help        this text\n",
		UIRQ_WAIT_ADAPTIVE_NS);
}

static const char *const mode_names[] = { "blocking", "adaptive", "poll" };

static const char *const source_names[] = { "eventfd", "timerfd", "uio", "vfio", "gpio" };

/* Mode name into legs[*n]: 0, -1 (no such mode) or 1 (a baseline the source does not have). */
static int add_leg(struct leg *legs, size_t *n, const char *name, enum source_kind source)
{
	struct leg l = { .kind = LEG_UIRQ };

	if (!strcmp(name, "baseline-epoll")) {
		l.kind = LEG_BASE_EPOLL;
		snprintf(l.name, sizeof(l.name), "baseline-%s-epoll", source_names[source]);
	} else if (!strcmp(name, "baseline-futex")) {
		/* a futex stands for a source raised by a plain write: the eventfd's */
		if (source != SRC_EVENTFD)
			return 1;	/* not this source's: left out of "all", an error when named */
		l.kind = LEG_BASE_FUTEX;
		snprintf(l.name, sizeof(l.name), "baseline-futex");
	} else {
		size_t m;

		for (m = 0; m < 3; m++) {
			size_t len = strlen(mode_names[m]);

			if (!strncmp(name, mode_names[m], len) &&
			    (!strcmp(name + len, "-primary") || !strcmp(name + len, "-thread")))
				break;
		}
		if (m == 3)
			return -1;
		l.mode = (enum uirq_wait_mode)m;
		l.thread = strstr(name, "-thread") != NULL;
		snprintf(l.name, sizeof(l.name), "%s", name);
	}
	legs[(*n)++] = l;
	return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(" PROG " --help for the options)\n");
	return 2;
}

#define MAX_LEGS 16

static const char *const all_modes[] = {
	"baseline-epoll", "baseline-futex", "blocking-primary", "blocking-thread",
	"adaptive-primary", "adaptive-thread", "poll-primary", "poll-thread",
};

/* --modes LIST (NULL: all the source has) into legs: 0, or a usage error's exit status (said). */
static int parse_modes(const char *modes, enum source_kind source, struct leg *legs, size_t *n)
{
	char *list, *save = NULL;
	int ret = 0;

	if (!modes) {
		for (size_t i = 0; i < sizeof(all_modes) / sizeof(all_modes[0]); i++)
			add_leg(legs, n, all_modes[i], source);
		return 0;
	}
	if (!(list = strdup(modes)))
		return 1;
	for (char *m = strtok_r(list, ",", &save); m && !ret; m = strtok_r(NULL, ",", &save)) {
		int r = *n == MAX_LEGS ? -2 : add_leg(legs, n, m, source);

		if (r == -2)
			ret = usage_error("--modes %s: more than 16", modes);
		else if (r < 0)
			ret = usage_error("--modes: %s is not a mode (--help lists them)", m);
		else if (r > 0)
			ret = usage_error("--modes: %s: the source has no such baseline", m);
	}
	free(list);
	if (!ret && !*n)
		ret = usage_error("--modes %s: no mode", modes);
	return ret;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return false;
	*out = strtoul(s, &end, 10);
	return !errno && !*end && *out <= max;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "source", required_argument, NULL, 's' },   { "device", required_argument, NULL, 'D' },
		{ "duration", required_argument, NULL, 'd' }, { "rounds", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' }, { "modes", required_argument, NULL, 'm' },
		{ "adaptive-ns", required_argument, NULL, 'a' }, { "cpu", required_argument, NULL, 'c' },
		{ "raiser-cpu", required_argument, NULL, 'R' }, { "json", no_argument, NULL, 'j' },
		{ "histogram", required_argument, NULL, 'H' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct opts o = { .duration_s = 1.0, .rounds = 1, .interval_ns = 10000, .raiser_cpu = 0,
			  .cpu = cores > 1 ? (int)cores - 1 : -1 };
	const char *modes = NULL;
	unsigned long v;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
		switch (c) {
		case 's': {
			size_t i;

			for (i = 0; i < 5 && strcmp(optarg, source_names[i]); i++)
				;
			if (i == 5)
				return usage_error("--source %s: not one of eventfd, timerfd, uio, vfio, gpio", optarg);
			o.source = (enum source_kind)i;
			break;
		}
		case 'D':
			o.device = optarg;
			break;
		case 'd':
			errno = 0;
			o.duration_s = strtod(optarg, &end);
			if (errno || *end || !(o.duration_s > 0) || o.duration_s > 86400)
				return usage_error("--duration %s: seconds, more than 0 and at most 86400", optarg);
			break;
		case 'r':
			if (!parse_uint(optarg, 1000, &v) || !v)
				return usage_error("--rounds %s: a number from 1 to 1000", optarg);
			o.rounds = (unsigned int)v;
			break;
		case 'i':
			if (!parse_uint(optarg, 1000000, &v))
				return usage_error("--interval %s: microseconds, 0 to 1000000", optarg);
			o.interval_ns = v * 1000u;
			break;
		case 'm':
			modes = optarg;
			break;
		case 'a':
			if (!parse_uint(optarg, 1000000000, &v) || !v)
				return usage_error("--adaptive-ns %s: nanoseconds, 1 to 1000000000", optarg);
			o.adaptive_ns = (unsigned int)v;
			break;
		case 'c':
		case 'R':
			if (!parse_uint(optarg, (unsigned long)(cores - 1), &v))
				return usage_error(c == 'c' ? "--cpu %s: not an online core" : "--raiser-cpu %s: not an online core",
						   optarg);
			*(c == 'c' ? &o.cpu : &o.raiser_cpu) = (int)v;
			break;
		case 'j':
			o.json = true;
			break;
		case 'H':
			o.histogram = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument %s", argv[optind]);
	if (o.source == SRC_TIMERFD && o.interval_ns < 1000)
		return usage_error("--interval %s: a timer due at once measures nothing; at least 1 us with timerfd",
				   "0");
	if (o.device && (o.source == SRC_EVENTFD || o.source == SRC_TIMERFD))
		return usage_error("--device %s: only for --source uio, vfio or gpio", o.device);
	o.thread_cpu = o.raiser_cpu;
	if (o.cpu == o.raiser_cpu)
		fprintf(stderr, PROG ": the raiser and uirq's CPU share core %d: the poll modes will wait for "
				"each other's time slices (--cpu, --raiser-cpu)\n", o.cpu);

	struct leg legs[MAX_LEGS];
	size_t nlegs = 0;
	int err = parse_modes(modes, o.source, legs, &nlegs);

	if (err)
		return err;
	const char *why = NULL;

	if ((err = source_open(&o, &src, &why))) {
		fprintf(stderr, PROG ": --source %s: %s%s%s\n", source_names[o.source], strerror(-err), why ? ": " : "",
			why ? why : "");
		return 1;
	}

	/* The timer slack would round the baselines' and the CPU's timed waits up by 50 us. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	struct uirq_cpu_config cfg = { .nr_cpus = 1, .pinned = o.cpu >= 0, .pin = { o.cpu } };

	if ((err = uirq_cpus_start(&cfg))) {
		fprintf(stderr, PROG ": starting uirq's CPU on core %d: %s\n", o.cpu, strerror(-err));
		source_close(src);
		return 1;
	}
	lat_pin(o.raiser_cpu);
	/*
	 * Above uirq's handler threads (SCHED_FIFO 50), as cyclictest's
	 * measuring thread: a handler thread polling on the raiser's core must
	 * not hold the raiser off its next sample.
	 */
	struct sched_param sp = { .sched_priority = 60 };
	int perr = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

	if (perr)
		fprintf(stderr, PROG ": SCHED_FIFO for the raiser: %s; a handler thread polling on its core "
				"delays its samples (run as root)\n", strerror(perr));
	for (unsigned int round = 0; round < o.rounds && !err; round++)
		for (size_t i = 0; i < nlegs && !err; i++)
			if ((err = run_leg(&o, &legs[i])))
				fprintf(stderr, PROG ": %s: %s\n", legs[i].name, strerror(-err));
	uirq_cpus_stop();
	source_close(src);
	if (!err) {
		if (o.json)
			legs_json(stdout, source_names[o.source], legs, nlegs);
		else
			legs_print(stdout, &o, source_names[o.source], legs, nlegs);
		if (o.histogram && (err = legs_histogram(o.histogram, legs, nlegs)))
			fprintf(stderr, PROG ": --histogram %s: %s\n", o.histogram, strerror(-err));
		else if (fflush(stdout) || ferror(stdout))
			fprintf(stderr, PROG ": writing the output: %s\n", strerror(err = errno));
	}
	for (size_t i = 0; i < nlegs; i++)
		free(legs[i].ns);
	return err ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/* The figures of each mode: percentiles of the samples, CPU use, the table, JSON lines, the histogram. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"

void leg_add(struct leg *l, uint64_t ns)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 65536;
		uint64_t *p = realloc(l->ns, cap * sizeof(*p));

		if (!p) {
			/* a sample we cannot keep: the figures would be of fewer, so say so rather than bias them */
			fprintf(stderr, "uirq-latency: out of memory for samples\n");
			exit(1);
		}
		l->ns = p;
		l->cap = cap;
	}
	l->ns[l->n++] = ns;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct figures {
	uint64_t min, p50, p99, p999, max;
	double cpu_percent;
};

/* The nearest-rank percentile: the smallest sample with at least q of them at or below it. */
static uint64_t percentile(const struct leg *l, double q)
{
	size_t rank = (size_t)ceil(q * (double)l->n);

	return l->ns[rank ? rank - 1 : 0];
}

static struct figures figures_of(struct leg *l)
{
	struct figures f = { 0 };

	if (!l->n)
		return f;
	qsort(l->ns, l->n, sizeof(l->ns[0]), cmp_u64);
	f.min = l->ns[0];
	f.p50 = percentile(l, 0.5);
	f.p99 = percentile(l, 0.99);
	f.p999 = percentile(l, 0.999);
	f.max = l->ns[l->n - 1];
	f.cpu_percent = l->wall_s > 0 ? 100.0 * l->cpu_s / l->wall_s : 0;
	return f;
}

void legs_print(FILE *f, const struct opts *o, const char *source, struct leg *legs, size_t n)
{
	const struct leg *base = NULL;

	for (size_t i = 0; i < n && !base; i++)
		if (legs[i].kind == LEG_BASE_EPOLL)
			base = &legs[i];
	fprintf(f, "source %s, interval %llu us, %u round(s) of %.3g s a mode; uirq's CPU on core %d, raiser "
		   "and handler threads on core %d\n",
		source, (unsigned long long)(o->interval_ns / 1000), o->rounds, o->duration_s, o->cpu, o->raiser_cpu);
	fprintf(f, "%-24s %9s %9s %9s %9s %9s %10s %6s %8s\n", "mode", "samples", "min us", "p50 us", "p99 us",
		"p99.9 us", "max us", "cpu %", base ? "p50 x" : "");
	uint64_t base_p50 = base ? figures_of(&legs[base - legs]).p50 : 0;

	for (size_t i = 0; i < n; i++) {
		struct figures g = figures_of(&legs[i]);

		fprintf(f, "%-24s %9zu %9.2f %9.2f %9.2f %9.2f %10.2f %6.0f", legs[i].name, legs[i].n, (double)g.min / 1e3,
			(double)g.p50 / 1e3, (double)g.p99 / 1e3, (double)g.p999 / 1e3, (double)g.max / 1e3, g.cpu_percent);
		if (base_p50)
			fprintf(f, " %8.3f", (double)g.p50 / (double)base_p50);
		fputc('\n', f);
	}
	if (base)
		fprintf(f, "p50 x: the mode's median over %s's\n", base->name);
	fprintf(f, "cpu %%: the process's CPU time over the mode's wall time (100 = one core busy)\n");
}

void legs_json(FILE *f, const char *source, struct leg *legs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct figures g = figures_of(&legs[i]);

		fprintf(f,
			"{\"mode\":\"%s\",\"source\":\"%s\",\"samples\":%zu,\"min_ns\":%llu,\"p50_ns\":%llu,"
			"\"p99_ns\":%llu,\"p999_ns\":%llu,\"max_ns\":%llu,\"cpu_percent\":%.1f}\n",
			legs[i].name, source, legs[i].n, (unsigned long long)g.min, (unsigned long long)g.p50,
			(unsigned long long)g.p99, (unsigned long long)g.p999, (unsigned long long)g.max, g.cpu_percent);
	}
}

/*
 * Buckets eight to a power of two (each 9 % wider than the one before) from
 * 1 ns: fine enough for a plot on a log axis at any scale, 8 * 40 of them up
 * to 1000 s.  A row per bucket that holds a sample of any mode.
 */
#define SUB	8
#define BUCKETS	(SUB * 40)

static unsigned int bucket_of(uint64_t ns)
{
	if (ns < 1)
		return 0;
	unsigned int b = (unsigned int)floor(log2((double)ns) * SUB);

	return b < BUCKETS ? b : BUCKETS - 1;
}

int legs_histogram(const char *path, struct leg *legs, size_t n)
{
	unsigned long (*count)[BUCKETS] = calloc(n ? n : 1, sizeof(*count));
	FILE *f;
	int err = 0;

	if (!count)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < legs[i].n; k++)
			count[i][bucket_of(legs[i].ns[k])]++;
	if (!(f = fopen(path, "w"))) {
		free(count);
		return -errno;
	}
	fprintf(f, "upper_ns");
	for (size_t i = 0; i < n; i++)
		fprintf(f, ",%s", legs[i].name);
	fputc('\n', f);
	for (unsigned int b = 0; b < BUCKETS; b++) {
		bool any = false;

		for (size_t i = 0; i < n && !any; i++)
			any = count[i][b] != 0;
		if (!any)
			continue;
		fprintf(f, "%.0f", ceil(exp2((double)(b + 1) / SUB)));
		for (size_t i = 0; i < n; i++)
			fprintf(f, ",%lu", count[i][b]);
		fputc('\n', f);
	}
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	free(count);
	return err;
}

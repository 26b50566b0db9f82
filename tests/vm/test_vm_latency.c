// SPDX-License-Identifier: MIT
/*
 * Runs in the VM only: uirq-latency (on the guest's PATH) on the real
 * devices - edu behind uio_pci_generic (INTx), edu bound to vfio-pci (MSI),
 * a gpio-sim line - in each wait mode and against its hand-written
 * baseline.  Every mode must take samples, each record must be consistent
 * (min <= p50 <= p99 <= p99.9 <= max) and the run must exit 0; the figures
 * themselves are the bench's (bench/README.md), never a verdict here.
 *
 * Not poll-thread: the guest has one CPU, and a SCHED_FIFO handler thread
 * that never sleeps would leave uirq's CPU (and everything else) only the
 * kernel's real-time throttling share of it (docs/uirq-latency.1).
 */
#include "harness.h"
#include "vm-hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define TOOL "uirq-latency"
#define MODES "baseline-epoll,blocking-primary,blocking-thread,adaptive-primary,adaptive-thread,poll-primary"

static const char *const modes[] = {
	NULL,	/* the baseline: baseline-SOURCE-epoll */
	"blocking-primary", "blocking-thread", "adaptive-primary", "adaptive-thread", "poll-primary",
};

/* One record's figures, from its JSON line. */
struct rec {
	unsigned long samples;
	unsigned long long min, p50, p99, p999, max;
};

static bool field(const char *line, const char *key, unsigned long long *v)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(line, pat);
	return p && sscanf(p + strlen(pat), "%llu", v) == 1;
}

static void run_source(const char *source)
{
	char cmd[512], line[512], base[64];
	unsigned int found = 0;
	FILE *f;

	snprintf(base, sizeof(base), "\"mode\":\"baseline-%s-epoll\"", source);
	snprintf(cmd, sizeof(cmd), TOOL " --source %s --duration 0.3 --interval 100 --json --modes " MODES " 2>/tmp/lat.err",
		 source);
	f = popen(cmd, "r");
	assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct rec r;
		unsigned long long samples;
		size_t m;

		printf("# %s", line);
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			char want[64];

			if (!modes[m])
				snprintf(want, sizeof(want), "%s", base);
			else
				snprintf(want, sizeof(want), "\"mode\":\"%s\"", modes[m]);
			if (strstr(line, want))
				break;
		}
		assert_lt(m, sizeof(modes) / sizeof(modes[0]), "an unexpected record: %s", line);
		found |= 1u << m;
		assert_true(field(line, "samples", &samples) && field(line, "min_ns", &r.min) &&
				    field(line, "p50_ns", &r.p50) && field(line, "p99_ns", &r.p99) &&
				    field(line, "p999_ns", &r.p999) && field(line, "max_ns", &r.max),
			    "a record without its fields: %s", line);
		assert_gt(samples, 0ull, "%s", line);
		assert_true(r.min <= r.p50 && r.p50 <= r.p99 && r.p99 <= r.p999 && r.p999 <= r.max, "%s", line);
		assert_gt(r.min, 0ull, "a sample of 0 ns: %s", line);
	}
	int status = pclose(f);
	char err[2048] = "";
	FILE *e = fopen("/tmp/lat.err", "r");

	if (e) {
		size_t n = fread(err, 1, sizeof(err) - 1, e);

		err[n] = '\0';
		fclose(e);
	}
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status %#x; stderr: %s", cmd, status, err);
	assert_eq(found, (1u << (sizeof(modes) / sizeof(modes[0]))) - 1, "modes missing; stderr: %s", err);
}

UIRQ_TEST(vm_latency, uio_every_mode_and_its_baseline, .timeout = 300)
{
	run_source("uio");
}

UIRQ_TEST(vm_latency, vfio_msi_every_mode_and_its_baseline, .timeout = 300)
{
	run_source("vfio");
}

UIRQ_TEST(vm_latency, gpio_every_mode_and_its_baseline, .timeout = 300)
{
	run_source("gpio");
}

// SPDX-License-Identifier: MIT
/*
 * A fuzz harness that runs its inputs in the deterministic mode
 * (fuzz_genirq.c, fuzz_twl4030.c; fuzz_sim.h) replays each one: this file
 * is linked with one harness and its corpus (FUZZ_CORPUS, a directory),
 * and runs every input twice through LLVMFuzzerTestOneInput(), as
 * libFuzzer would, comparing the interleavings the mode leaves readable
 * after its stop (uirq_sim_trace_hash() and uirq_sim_trace_len()).  The
 * same hash for every input would also pass that, so two inputs of the
 * corpus must give different interleavings.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uirq/sim.h"

/* The harness's libFuzzer entry points; not every harness has the first. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUTS 256

struct input {
	char *name;
	uint8_t *data;
	size_t size;
};

static struct input inputs[MAX_INPUTS];
static size_t nr_inputs;

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct input *)a)->name, ((const struct input *)b)->name);
}

static void read_input(const char *name)
{
	char path[4096];
	struct input *in = &inputs[nr_inputs];
	FILE *f;
	long len;

	assert_lt(nr_inputs, MAX_INPUTS, "more than %d inputs in %s", MAX_INPUTS, FUZZ_CORPUS);
	snprintf(path, sizeof(path), "%s/%s", FUZZ_CORPUS, name);
	f = fopen(path, "rb");
	assert_not_null(f, "%s", path);
	assert_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_ge(len, 0L);
	rewind(f);
	in->size = (size_t)len;
	in->data = malloc(in->size ? in->size : 1);
	in->name = strdup(name);
	assert_not_null(in->data);
	assert_not_null(in->name);
	assert_eq(fread(in->data, 1, in->size, f), in->size, "%s", path);
	fclose(f);
	nr_inputs++;
}

/* The harness set up as libFuzzer does it, and the corpus in name order (stable messages). */
static void setup(void)
{
	static char arg0[] = "fuzz-replay";
	char *args[] = { arg0, NULL };
	char **argv = args;
	int argc = 1;
	DIR *d;
	struct dirent *e;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	d = opendir(FUZZ_CORPUS);
	assert_not_null(d, "%s", FUZZ_CORPUS);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			read_input(e->d_name);
	closedir(d);
	qsort(inputs, nr_inputs, sizeof(inputs[0]), by_name);
	assert_ge(nr_inputs, 2u, "the corpus %s needs two inputs", FUZZ_CORPUS);
}

static void release(void)
{
	for (size_t i = 0; i < nr_inputs; i++) {
		free(inputs[i].name);
		free(inputs[i].data);
	}
	nr_inputs = 0;
}

static void run(const struct input *in, uint64_t *hash, size_t *len)
{
	assert_eq(LLVMFuzzerTestOneInput(in->data, in->size), 0, "%s", in->name);
	assert_false(uirq_sim_running(), "%s: the harness left the mode running", in->name);
	*hash = uirq_sim_trace_hash();
	*len = uirq_sim_trace_len();
	/* The start is one step: more means the input ran in the mode. */
	assert_gt(*len, 1u, "%s: no scheduling decision", in->name);
}

UIRQ_TEST(fuzz_replay, same_input_same_interleaving, .timeout = 120)
{
	setup();
	for (size_t i = 0; i < nr_inputs; i++) {
		uint64_t h1, h2;
		size_t l1, l2;

		run(&inputs[i], &h1, &l1);
		run(&inputs[i], &h2, &l2);
		assert_eq(l2, l1, "%s: trace length", inputs[i].name);
		assert_eq(h2, h1, "%s: trace hash", inputs[i].name);
	}
	release();
}

UIRQ_TEST(fuzz_replay, inputs_differ, .timeout = 120)
{
	uint64_t first, h;
	size_t len;
	bool differ = false;

	setup();
	run(&inputs[0], &first, &len);
	for (size_t i = 1; i < nr_inputs && !differ; i++) {
		run(&inputs[i], &h, &len);
		differ = h != first;
	}
	assert_true(differ, "every input of %s gave the interleaving %#llx", FUZZ_CORPUS,
		    (unsigned long long)first);
	release();
}

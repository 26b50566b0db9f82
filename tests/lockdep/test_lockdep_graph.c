// SPDX-License-Identifier: MIT
/*
 * The engine's circular-dependency verdicts against a full search of an
 * oracle graph (graph_oracle.h), over long generated runs: some with a
 * hidden global lock order (no cycle, so the engine's topological order
 * decides alone and classes keep moving in it), some in random orders
 * (cycles reported, and left in the graph until their classes die).
 */
#include <stdlib.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include "harness.h"
#include "graph_oracle.h"

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * size bytes for go_run(): one destroy in about every destroy_every
 * operations; with ordered, each sequence's locks sorted by a hidden rank,
 * but for one sequence in about every invert_every (0: none), taken in
 * the reverse order and then all destroyed (so the cycles they close leave
 * the graph, and the next one is judged by the order again).
 */
static uint8_t *generate(uint64_t seed, size_t size, unsigned int destroy_every, bool ordered,
			 unsigned int invert_every)
{
	uint8_t *b = malloc(size), rank[GO_MAPS];
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;

	assert_not_null(b);
	for (int i = 0; i < GO_MAPS; i++)
		rank[i] = (uint8_t)i;
	for (int i = GO_MAPS - 1; i > 0; i--) {
		int j = (int)(next_random(&s) % (uint64_t)(i + 1));
		uint8_t t = rank[i];

		rank[i] = rank[j];
		rank[j] = t;
	}
	for (size_t pos = 0; pos < size;) {
		uint8_t op = (uint8_t)next_random(&s);
		int len = 2 + op / 8 % 4;
		bool invert = invert_every && next_random(&s) % invert_every == 0;

		if (next_random(&s) % destroy_every == 0) {
			b[pos++] = (uint8_t)(op | 6);
			continue;
		}
		uint8_t taken[5];

		b[pos++] = (uint8_t)(op & ~7u);
		for (int k = 0; k < len && pos < size; k++) {
			uint8_t m = (uint8_t)(next_random(&s) % GO_MAPS), trylock = next_random(&s) % 8 == 0;

			/* ordered: the k-th lock of a sequence ranks above the ones before it */
			if (ordered)
				m = rank[((invert ? len - 1 - k : k) * GO_MAPS + m) / len % GO_MAPS];
			b[pos++] = (uint8_t)(m + (trylock ? 9 * GO_MAPS : 0));
			taken[k] = m;
		}
		for (int k = 0; invert && k < len && pos < size; k++)
			b[pos++] = (uint8_t)(taken[k] * 8 + 6);
	}
	return b;
}

/*
 * Seeds per test: 8, or 2 under Valgrind.  The three tests are CPU-bound
 * searches (5 s plain); Memcheck's 50x made them 240 s, the Valgrind
 * stage's bound per program, and a loaded machine pushed them over it.
 * Memcheck checks the memory the engine touches, which two seeds reach as
 * well as eight: the verdicts against the oracle are the other builds' job.
 */
static uint64_t seeds(void)
{
	return RUNNING_ON_VALGRIND ? 2 : 8;
}

static unsigned long run(uint64_t seed, unsigned int destroy_every, bool ordered, unsigned int invert_every)
{
	size_t size = 20000;
	uint8_t *b = generate(seed, size, destroy_every, ordered, invert_every);
	char why[1024] = "";
	bool ok = go_run(b, size, why, sizeof(why));

	assert_true(ok, "seed %llu, destroy 1/%u, %s, inverted 1/%u: %s", (unsigned long long)seed,
		  destroy_every, ordered ? "ordered" : "random", invert_every, why);
	free(b);
	return go.expected;
}

/* No cycle: the order alone decides, and keeps moving classes (and running out of room). */
UIRQ_TEST(graph, ordered_runs_agree_with_the_oracle, .timeout = 120)
{
	for (uint64_t seed = 1; seed <= seeds(); seed++)
		assert_eq(run(seed, 4u << (seed % 5), true, 0), 0, "an ordered run has no cycle");
}

/*
 * A rare inversion in an ordered run: the cycle it closes must be found
 * where the order decides (no cycle left in the graph, the classes of the
 * last one destroyed since).
 */
UIRQ_TEST(graph, rare_inversions_agree_with_the_oracle, .timeout = 120)
{
	unsigned long cycles = 0;

	for (uint64_t seed = 1; seed <= seeds(); seed++)
		cycles += run(seed, 8u << (seed % 3), true, 8u << (seed % 3));
	assert_gt(cycles, 100, "too few cycles made: the run tests little");
}

/* Cycles everywhere: the graph keeps some, and the order counts again when they go. */
UIRQ_TEST(graph, random_runs_agree_with_the_oracle, .timeout = 120)
{
	unsigned long cycles = 0;

	for (uint64_t seed = 1; seed <= seeds(); seed++)
		cycles += run(seed, 4u << (seed % 5), false, 0);
	assert_gt(cycles, 100, "too few cycles made: the run tests little");
}

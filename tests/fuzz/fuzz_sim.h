/* SPDX-License-Identifier: MIT */
/*
 * For the harnesses that run each input in the deterministic mode
 * (uirq/sim.h): the seed is a function of the input's bytes alone, so the
 * same input replays the same interleaving and virtual times, in libFuzzer
 * and in tests/fuzz/replay.c.
 */
#ifndef UIRQ_FUZZ_SIM_H
#define UIRQ_FUZZ_SIM_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a (64-bit) of the input. */
static inline uint64_t fuzz_sim_seed(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < size; i++) {
		h ^= data[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#endif

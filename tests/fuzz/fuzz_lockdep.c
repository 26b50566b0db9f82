// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the lock validator's circular-dependency verdicts
 * against a full search of an oracle graph (tests/lockdep/graph_oracle.h,
 * where the byte format is described): sequences of locks taken in any
 * order, some as trylocks, and classes destroyed and made again, so the
 * engine's topological order, chain cache and class recycling all run.
 * Any report the oracle does not predict, or a predicted cycle not
 * reported, is a crash with the disagreement printed.
 *
 * Not run in the deterministic mode (uirq/sim.h): every lock is taken on
 * the calling thread, with no CPU or other thread, so there is no
 * interleaving to replay; an input replays as it is.
 */
#include <stdio.h>
#include <stdlib.h>

#include "graph_oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[1024] = "";

	if (!go_run(data, size, why, sizeof(why))) {
		fprintf(stderr, "fuzz-lockdep: the engine and the oracle disagree %s\n", why);
		abort();
	}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The circular-dependency verdicts of the engine against an oracle: a
 * plain adjacency matrix searched in full for every new dependency.
 *
 * Shared by a suite test (bytes from a fixed-seed generator) and a
 * libFuzzer target (tests/fuzz/fuzz_lockdep.c).  The bytes drive one
 * thread over GO_MAPS locks, each of its own class (a key per lock):
 * sequences of 2-5 different locks taken in order, some as trylocks, then
 * released; and "destroy": the key is unregistered and registered again,
 * so the lock's next acquisition makes a new class with no dependencies.
 * Only exclusive acquisitions: every dependency is a strong one, so the
 * oracle needs no types.
 *
 * The engine skips its search where its topological order proves there is
 * no path (lockdep_order.c), remembers validated chains, and adds a
 * reported dependency too (it then closes a cycle and is left out of the
 * order): the oracle does none of that and must agree on every report.
 * A dependency closing a cycle is one problem, reported once; the pair of
 * classes is new each time, so each is reported.
 */
#ifndef UIRQ_TESTS_LOCKDEP_GRAPH_ORACLE_H
#define UIRQ_TESTS_LOCKDEP_GRAPH_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "uirq/lockdep.h"

#define GO_MAPS 24

static struct graph_oracle {
	struct uirq_lock_class_key keys[GO_MAPS];
	struct uirq_lockdep_map maps[GO_MAPS];
	bool edge[GO_MAPS][GO_MAPS];	/* between the locks' current classes */
	unsigned long expected, reports[UIRQ_REPORT_NR_KINDS];
	char first[512];		/* the first report's headline */
} go;

static void go_handler(const struct uirq_lockdep_report *r, void *arg)
{
	(void)arg;
	if (!go.first[0])
		snprintf(go.first, sizeof(go.first), "%s", r->headline);
	go.reports[r->kind]++;
}

static const char *const go_names[GO_MAPS] = {
	"L0", "L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10", "L11",
	"L12", "L13", "L14", "L15", "L16", "L17", "L18", "L19", "L20", "L21", "L22", "L23",
};

static void go_init(void)
{
	for (int i = 0; i < GO_MAPS; i++)
		uirq_lockdep_unregister_key(&go.keys[i]);
	memset(&go, 0, sizeof(go));
	uirq_lockdep_set_report_handler(go_handler, NULL);
	for (int i = 0; i < GO_MAPS; i++) {
		uirq_lockdep_register_key(&go.keys[i]);
		uirq_lockdep_init_map(&go.maps[i], go_names[i], &go.keys[i], 0);
	}
}

static bool go_reaches(int from, int to)
{
	bool seen[GO_MAPS] = { false };
	int stack[GO_MAPS], n = 0;

	seen[from] = true;
	stack[n++] = from;
	while (n) {
		int c = stack[--n];

		if (c == to)
			return true;
		for (int i = 0; i < GO_MAPS; i++)
			if (go.edge[c][i] && !seen[i]) {
				seen[i] = true;
				stack[n++] = i;
			}
	}
	return false;
}

/* next is taken on top of held[0..n): the dependencies it adds, as check_prevs_add() makes them. */
static void go_expect(const int *held, const bool *trylock, int n, int next)
{
	for (int i = n; i-- > 0;) {
		int prev = held[i];

		if (!go.edge[prev][next]) {
			if (go_reaches(next, prev))
				go.expected++;
			go.edge[prev][next] = true;
		}
		if (!trylock[i])
			break;
	}
}

static void go_destroy(int m)
{
	uirq_lockdep_unregister_key(&go.keys[m]);
	uirq_lockdep_register_key(&go.keys[m]);
	uirq_lockdep_init_map(&go.maps[m], go_names[m], &go.keys[m], 0);
	for (int i = 0; i < GO_MAPS; i++)
		go.edge[m][i] = go.edge[i][m] = false;
}

/* Run the bytes; false with why filled at the first disagreement. */
static bool go_run(const uint8_t *data, size_t size, char *why, size_t whylen)
{
	size_t pos = 0;

	go_init();
	while (pos < size) {
		uint8_t op = data[pos++];

		if (op % 8 >= 6) {
			go_destroy(op / 8 % GO_MAPS);
		} else {
			int held[5], n = 0, len = 2 + op / 8 % 4;
			bool trylock[5];

			for (int k = 0; k < len && pos < size; k++) {
				uint8_t b = data[pos++];
				int m = b % GO_MAPS;
				bool dup = false;

				for (int i = 0; i < n; i++)
					dup |= held[i] == m;
				if (dup)
					continue;
				trylock[n] = b >= 216;	/* 9 * GO_MAPS: the same lock either way */
				uirq_lock_acquire(&go.maps[m], 0, trylock[n], 0, (unsigned long)__builtin_return_address(0),
						  NULL, 0);
				if (!trylock[n])
					go_expect(held, trylock, n, m);
				held[n++] = m;
			}
			while (n)
				uirq_lock_release(&go.maps[held[--n]], 0, NULL, 0);
		}
		for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++) {
			unsigned long want = k == UIRQ_REPORT_CIRCULAR ? go.expected : 0;

			if (go.reports[k] != want) {
				snprintf(why, whylen, "after byte %zu: %lu %s reports, the oracle says %lu (first: %s)",
					 pos, go.reports[k], uirq_lockdep_kind_name(k), want, go.first);
				return false;
			}
		}
	}
	return true;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * Suppressions: reports a team has judged and does not want to see again.
 * One rule a line:
 *
 *	# a comment
 *	KIND CONDITION...
 *
 * KIND is a report kind as the summary names it (circular, recursive,
 * bad_unlock, held_freed, held_at_exit, destroyed, cond, ...) or '*'.  A
 * CONDITION is lock:GLOB, function:GLOB or file:GLOB, a shell pattern
 * (fnmatch) matched against every lock name (as reports print it,
 * "&stats_lock"), every function and every source file (as DWARF names it)
 * the report mentions: in its sites, its dependency chain and its
 * backtrace.  A rule covers a report of its kind when each of its
 * conditions matches something in it.  A covered report is not printed and
 * does not count for --exit-code; the summary counts it as suppressed.
 */
#include "lockdep_internal.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE_CONDS	8

struct rule {
	int kind;			/* -1: any */
	unsigned int nr;
	struct {
		enum report_fact_kind what;
		char *glob;
	} cond[RULE_CONDS];
};

static struct rule *rules;
static unsigned int nr_rules;

static int kind_of(const char *name)
{
	if (!strcmp(name, "*"))
		return -1;
	for (int k = 0; k < UIRQ_REPORT_NR_KINDS; k++)
		if (!strcmp(name, uirq_lockdep_kind_name(k)))
			return k;
	return -2;
}

static int parse_rule(char *s, struct rule *r, char *why, size_t why_len)
{
	char *save, *tok = strtok_r(s, " \t", &save);
	static const char *const fields[] = { [FACT_LOCK] = "lock:", [FACT_FUNCTION] = "function:",
					      [FACT_FILE] = "file:" };

	r->kind = kind_of(tok);
	if (r->kind == -2) {
		snprintf(why, why_len, "unknown report kind '%s'", tok);
		return -1;
	}
	r->nr = 0;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		unsigned int f;

		for (f = 0; f < 3; f++)
			if (!strncmp(tok, fields[f], strlen(fields[f])))
				break;
		if (f == 3 || !tok[strlen(fields[f])]) {
			snprintf(why, why_len, "'%s' is not lock:GLOB, function:GLOB or file:GLOB", tok);
			return -1;
		}
		if (r->nr == RULE_CONDS) {
			snprintf(why, why_len, "more than %d conditions", RULE_CONDS);
			return -1;
		}
		r->cond[r->nr].what = (enum report_fact_kind)f;
		r->cond[r->nr++].glob = strdup(tok + strlen(fields[f]));
	}
	if (!r->nr) {
		snprintf(why, why_len, "a rule needs at least one condition");
		return -1;
	}
	return 0;
}

int lockdep_suppress_parse(const char *text, int *line, char *why, size_t why_len)
{
	char *copy = strdup(text), *save, *s;
	int ret = 0;

	*line = 0;
	if (!copy)
		return -1;
	for (s = strtok_r(copy, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
		struct rule r, *grown;
		char *hash = strchr(s, '#');

		(*line)++;
		if (hash)
			*hash = 0;
		if (!s[strspn(s, " \t\r")])
			continue;
		s[strcspn(s, "\r")] = 0;
		if (parse_rule(s, &r, why, why_len)) {
			ret = -1;
			break;
		}
		grown = realloc(rules, (nr_rules + 1) * sizeof(*rules));
		if (!grown) {
			ret = -1;
			break;
		}
		rules = grown;
		rules[nr_rules++] = r;
	}
	free(copy);
	return ret;
}

static bool cond_matches(enum report_fact_kind what, const char *glob, const struct report_facts *f)
{
	for (unsigned int i = 0; i < f->nr; i++)
		if (f->fact[i].kind == what && !fnmatch(glob, f->fact[i].text, 0))
			return true;
	return false;
}

bool lockdep_suppressed(enum uirq_lockdep_report_kind kind, const struct report_facts *facts)
{
	for (unsigned int i = 0; i < nr_rules; i++) {
		const struct rule *r = &rules[i];
		unsigned int c;

		if (r->kind >= 0 && r->kind != (int)kind)
			continue;
		for (c = 0; c < r->nr; c++)
			if (!cond_matches(r->cond[c].what, r->cond[c].glob, facts))
				break;
		if (c == r->nr)
			return true;
	}
	return false;
}

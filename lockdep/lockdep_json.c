// SPDX-License-Identifier: MIT
/*
 * The machine-readable side of a report, built while the text is printed:
 * the same pieces (thread, locks with their roles, the dependency chain,
 * the held locks, the backtrace) as one JSON object on one line, and the
 * facts suppressions match on (lock names, functions, files).
 *
 * Each section has a buffer of its own, since the text visits them in the
 * order of the kernel's layout; an element that does not fit is left out
 * whole, so the JSON is always well formed.  Graph lock held throughout.
 */
#define _GNU_SOURCE
#include "lockdep_internal.h"
#include "../lib/symbolize.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SECTION_MAX	8192

struct section {
	size_t len;
	unsigned int nr;
	char buf[SECTION_MAX];
};

enum { SEC_LOCKS, SEC_CHAIN, SEC_HELD, SEC_BACKTRACE, NR_SECTIONS };
static const char *const section_names[NR_SECTIONS] = { "locks", "chain", "held", "backtrace" };

static struct {
	struct section sec[NR_SECTIONS];
	char thread[96];
	char json[4 * SECTION_MAX + 2 * REPORT_TEXT_MAX];
	/* facts: every lock name, function and file the report mentions */
	struct report_facts facts;
	char fact_store[4096];
	size_t fact_used;
} rj;

void rj_reset(void)
{
	memset(rj.sec, 0, sizeof(rj.sec[0]) * NR_SECTIONS);
	rj.thread[0] = 0;
	rj.facts.nr = 0;
	rj.fact_used = 0;
}

const struct report_facts *rj_facts(void)
{
	return &rj.facts;
}

static void fact(enum report_fact_kind kind, const char *s)
{
	size_t n = strlen(s) + 1;

	if (!*s || rj.facts.nr >= REPORT_FACTS_MAX || rj.fact_used + n > sizeof(rj.fact_store))
		return;
	memcpy(rj.fact_store + rj.fact_used, s, n);
	rj.facts.fact[rj.facts.nr].kind = kind;
	rj.facts.fact[rj.facts.nr++].text = rj.fact_store + rj.fact_used;
	rj.fact_used += n;
}

/* ---- a tiny JSON writer over a fixed buffer ---- */

struct jw {
	char *buf;
	size_t len, cap;
	bool full;
};

static void jw_raw(struct jw *w, const char *s, size_t n)
{
	if (w->full || w->len + n >= w->cap) {
		w->full = true;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = 0;
}

static void jw_lit(struct jw *w, const char *s)
{
	jw_raw(w, s, strlen(s));
}

static void jw_str(struct jw *w, const char *s)
{
	jw_raw(w, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			jw_raw(w, esc, 2);
		} else if (c == '\n') {
			jw_raw(w, "\\n", 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			jw_raw(w, esc, 6);
		} else {
			jw_raw(w, s, 1);
		}
	}
	jw_raw(w, "\"", 1);
}

size_t json_quote(char *buf, size_t len, const char *s)
{
	struct jw w = { buf, 0, len, false };

	jw_str(&w, s);
	return w.full ? 0 : w.len;
}

static void jw_key(struct jw *w, const char *key)
{
	if (w->len && w->buf[w->len - 1] != '{')
		jw_raw(w, ",", 1);
	jw_str(w, key);
	jw_raw(w, ":", 1);
}

static void jw_kv(struct jw *w, const char *key, const char *val)
{
	jw_key(w, key);
	jw_str(w, val);
}

static void jw_kv_num(struct jw *w, const char *key, long val)
{
	char num[24];

	jw_key(w, key);
	snprintf(num, sizeof(num), "%ld", val);
	jw_lit(w, num);
}

static void jw_kv_addr(struct jw *w, const char *key, uintptr_t val)
{
	char num[24];

	snprintf(num, sizeof(num), "%#lx", (unsigned long)val);
	jw_kv(w, key, num);
}

/* A site as an object: file:line as given (the uirq_* lock calls), else the symbolized ip. */
static void jw_site_obj(struct jw *w, const struct lockdep_site *site)
{
	struct uirq_sym sym;

	jw_lit(w, "{");
	if (site->file) {
		jw_kv(w, "file", site->file);
		jw_kv_num(w, "line", site->line);
		fact(FACT_FILE, site->file);
	} else if (site->ip) {
		jw_kv_addr(w, "address", site->ip);
		if (uirq_sym_code(site->ip, false, &sym)) {
			if (sym.func) {
				jw_kv(w, "function", sym.func);
				jw_kv_addr(w, "offset", sym.func_off);
				fact(FACT_FUNCTION, sym.func);
			}
			if (sym.file) {
				jw_kv(w, "file", sym.file);
				jw_kv_num(w, "line", sym.line);
				fact(FACT_FILE, sym.file);
			}
			if (sym.module)
				jw_kv(w, "module", sym.module);
		}
	}
	jw_lit(w, "}");
}

static void jw_site(struct jw *w, const char *key, const struct lockdep_site *site)
{
	jw_key(w, key);
	jw_site_obj(w, site);
}

/* Append one element, built by the caller in w, to a section (whole, or not at all). */
static void section_add(int s, const struct jw *w)
{
	struct section *sec = &rj.sec[s];

	if (w->full || sec->len + w->len + 2 >= SECTION_MAX)
		return;
	if (sec->nr++)
		sec->buf[sec->len++] = ',';
	memcpy(sec->buf + sec->len, w->buf, w->len);
	sec->len += w->len;
}

#define ELEMENT(w, store)	char store[1024]; struct jw w = { store, 0, sizeof(store), false }

/* ---- what the report functions call ---- */

void rj_thread(const char *name)
{
	snprintf(rj.thread, sizeof(rj.thread), "%s", name);
}

void rj_lock(const char *role, const char *name, uintptr_t instance, const struct lockdep_site *site)
{
	ELEMENT(w, store);

	jw_lit(&w, "{");
	jw_kv(&w, "role", role);
	jw_kv(&w, "name", name);
	if (instance)
		jw_kv_addr(&w, "address", instance);
	if (site)
		jw_site(&w, "site", site);
	jw_lit(&w, "}");
	fact(FACT_LOCK, name);
	section_add(strcmp(role, "held") ? SEC_LOCKS : SEC_HELD, &w);
}

void rj_dep(const char *lock, const struct lockdep_site *site, const char *holding,
	    const struct lockdep_site *holding_site)
{
	ELEMENT(w, store);

	jw_lit(&w, "{");
	jw_kv(&w, "lock", lock);
	jw_site(&w, "site", site);
	jw_kv(&w, "while_holding", holding);
	jw_site(&w, "holding_site", holding_site);
	jw_lit(&w, "}");
	fact(FACT_LOCK, lock);
	fact(FACT_LOCK, holding);
	section_add(SEC_CHAIN, &w);
}

void rj_dep_typed(const char *type, const char *op, const char *to_key, const char *to,
		  const struct lockdep_site *site, const char *from_key, const char *from,
		  const char *from_site_key, const struct lockdep_site *from_site, int timed)
{
	ELEMENT(w, store);

	jw_lit(&w, "{");
	jw_kv(&w, "type", type);
	if (op)
		jw_kv(&w, "op", op);
	jw_kv(&w, to_key, to);
	jw_site(&w, "site", site);
	jw_kv(&w, from_key, from);
	jw_site(&w, from_site_key, from_site);
	if (timed >= 0) {
		jw_key(&w, "timed");
		jw_lit(&w, timed ? "true" : "false");
	}
	jw_lit(&w, "}");
	fact(FACT_LOCK, to);
	fact(FACT_LOCK, from);
	section_add(SEC_CHAIN, &w);
}

void rj_frame(unsigned long ip)
{
	struct lockdep_site site = { .ip = ip };
	ELEMENT(w, store);

	jw_site_obj(&w, &site);
	section_add(SEC_BACKTRACE, &w);
}

const char *rj_finish(const char *kind, const char *headline, const char *text)
{
	struct jw w = { rj.json, 0, sizeof(rj.json), false };

	jw_lit(&w, "{");
	jw_kv(&w, "kind", kind);
	jw_kv(&w, "headline", headline);
	jw_kv_num(&w, "pid", (long)getpid());
	if (rj.thread[0])
		jw_kv(&w, "thread", rj.thread);
	for (int s = 0; s < NR_SECTIONS; s++) {
		jw_key(&w, section_names[s]);
		jw_lit(&w, "[");
		jw_raw(&w, rj.sec[s].buf, rj.sec[s].len);
		jw_lit(&w, "]");
	}
	jw_kv(&w, "text", text);
	jw_lit(&w, "}");
	if (w.full) {
		/* too long even so: the sections without the text */
		w.len = 0;
		w.full = false;
		jw_lit(&w, "{");
		jw_kv(&w, "kind", kind);
		jw_kv(&w, "headline", headline);
		jw_key(&w, "truncated");
		jw_lit(&w, "true");
		jw_lit(&w, "}");
	}
	return rj.json;
}

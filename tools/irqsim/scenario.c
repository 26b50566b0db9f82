// SPDX-License-Identifier: MIT
/*
 * The scenario parser.  One action per line; every error names the file,
 * line and column of the token at fault and what was expected there, the
 * way a compiler does, because scenarios are written by hand.
 */
#include "scenario.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tok {
	const char *s;
	size_t len;
	unsigned int col;	/* 1-based */
};

#define MAX_TOKS 8

struct parser {
	const char *name;
	unsigned int lineno;
	unsigned int end_col;	/* column just after the last token: where a missing one goes */
	char *err;
	size_t errlen;
	/* state the text implies, checked as we go */
	bool down;
	unsigned int down_line;
	unsigned int timeouts;
	unsigned char line_use[SC_INTC_LINES];	/* 0 free, else the verb + 1 that owns it */
	unsigned int line_first[SC_INTC_LINES];
	bool unbound[SC_NR_DRIVERS];
	unsigned int unbound_line[SC_NR_DRIVERS];
};

const char *const sc_driver_names[SC_NR_DRIVERS] = {
	[SC_DRV_PWRBUTTON] = "twl4030_pwrbutton",
	[SC_DRV_TWL4030] = "twl4030",
};

static int fail(struct parser *p, unsigned int col, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u:%u: expected %s", p->name, p->lineno, col, msg);
	return -1;
}

/* Quote a token for a message, shortened so one message stays one line. */
static const char *quoted(const struct tok *t, char *buf, size_t len)
{
	int n = t->len > 40 ? 40 : (int)t->len;

	snprintf(buf, len, "\"%.*s%s\"", n, t->s, t->len > 40 ? "..." : "");
	return buf;
}

static bool tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/* The units of a duration, smallest first. */
static const struct {
	const char *unit;
	uint64_t mult;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};
#define NR_UNITS (sizeof(units) / sizeof(units[0]))

int scenario_parse_duration(const char *s, size_t len, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, frac_scale = 1;
	size_t i = 0, digits = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9') {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(s[i++] - '0');
		digits++;
	}
	if (i < len && s[i] == '.') {
		size_t fd = 0;

		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			if (fd++ < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				frac_scale *= 10;
			}
			i++;
		}
		if (!fd)
			return -1;
		digits += fd;
	}
	if (!digits)
		return -1;
	for (size_t u = 0; u < NR_UNITS; u++) {
		if (len - i != strlen(units[u].unit) || memcmp(s + i, units[u].unit, len - i))
			continue;
		if (whole > UINT64_MAX / units[u].mult)
			return -1;
		/* Fractions below a nanosecond are dropped, not rounded up. */
		*ns = whole * units[u].mult + frac * units[u].mult / frac_scale;
		return 0;
	}
	return -1;
}

/*
 * A limit as a scenario would write it: in the largest unit that keeps it
 * whole (10s, 100ms, 10ms), never cut to a whole number of seconds.
 */
static const char *duration_text(uint64_t ns, char *buf, size_t len)
{
	size_t u = NR_UNITS - 1;

	while (u && ns % units[u].mult)
		u--;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[u].mult), units[u].unit);
	return buf;
}

static int want_duration(struct parser *p, const struct tok *t, const char *after, uint64_t max,
			 uint64_t *ns)
{
	char q[64], lim[32];

	if (!t)
		return fail(p, p->end_col, "a duration (e.g. 5ms, 200us, 1s) after \"%s\"", after);
	if (scenario_parse_duration(t->s, t->len, ns))
		return fail(p, t->col, "a duration (e.g. 5ms, 200us, 1s), got %s", quoted(t, q, sizeof(q)));
	if (*ns > max)
		return fail(p, t->col, "a duration of at most %s, got %s", duration_text(max, lim, sizeof(lim)),
			    quoted(t, q, sizeof(q)));
	return 0;
}

static int want_uint(struct parser *p, const struct tok *t, const char *what, const char *after,
		     unsigned int lo, unsigned int hi, unsigned int *out)
{
	unsigned long long v = 0;
	char q[64];

	if (!t)
		return fail(p, p->end_col, "%s after \"%s\"", what, after);
	for (size_t i = 0; i < t->len; i++) {
		if (t->s[i] < '0' || t->s[i] > '9')
			return fail(p, t->col, "%s (a whole number), got %s", what, quoted(t, q, sizeof(q)));
		if (v <= 0xffffffffull)
			v = v * 10 + (unsigned long long)(t->s[i] - '0');
	}
	if (v < lo || v > hi)
		return fail(p, t->col, "%s from %u to %u, got %s", what, lo, hi, quoted(t, q, sizeof(q)));
	*out = (unsigned int)v;
	return 0;
}

static int want_end(struct parser *p, const struct tok *toks, size_t n, size_t used)
{
	char q[64];

	if (n > used)
		return fail(p, toks[used].col, "end of line, got %s", quoted(&toks[used], q, sizeof(q)));
	return 0;
}

static const struct tok *arg(const struct tok *toks, size_t n, size_t i)
{
	return i < n ? &toks[i] : NULL;
}

/* An INTC line for storm/shared: in range, not the TWL4030's, not owned by the other verb. */
static int want_line(struct parser *p, const struct tok *t, const char *verb, enum sc_verb v,
		     unsigned int *line)
{
	char q[64];

	if (want_uint(p, t, "an INTC line", verb, 0, SC_INTC_LINES - 1, line))
		return -1;
	if (*line == SC_TWL_LINE)
		return fail(p, t->col, "an INTC line other than %u (the TWL4030's INT1), got %s",
			    SC_TWL_LINE, quoted(t, q, sizeof(q)));
	if (p->line_use[*line] && p->line_use[*line] != (unsigned char)(v + 1))
		return fail(p, t->col, "a line not used by \"%s\" (line %u of the scenario), got %s",
			    v == SC_STORM ? "shared" : "storm", p->line_first[*line],
			    quoted(t, q, sizeof(q)));
	if (!p->line_use[*line]) {
		p->line_use[*line] = (unsigned char)(v + 1);
		p->line_first[*line] = p->lineno;
	}
	return 0;
}

static int parse_fault(struct parser *p, const struct tok *toks, size_t n, struct sc_action *a)
{
	const struct tok *kind = arg(toks, n, 1);
	char q[64];

	a->verb = SC_I2C_FAULT;
	if (!kind)
		return fail(p, p->end_col, "a fault (nak, error, timeout, delay, clear) after \"i2c-fault\"");
	if (tok_is(kind, "clear")) {
		a->fault = SC_FAULT_CLEAR;
		return want_end(p, toks, n, 2);
	}
	if (tok_is(kind, "delay")) {
		a->fault = SC_FAULT_DELAY;
		if (want_duration(p, arg(toks, n, 2), "delay", SC_MAX_DELAY_NS, &a->duration_ns))
			return -1;
		return want_end(p, toks, n, 3);
	}
	if (tok_is(kind, "nak"))
		a->fault = SC_FAULT_NAK;
	else if (tok_is(kind, "error"))
		a->fault = SC_FAULT_ERROR;
	else if (tok_is(kind, "timeout") || tok_is(kind, "stuck"))
		a->fault = SC_FAULT_TIMEOUT;
	else
		return fail(p, kind->col, "a fault (nak, error, timeout, delay, clear), got %s",
			    quoted(kind, q, sizeof(q)));
	a->count = 1;
	if (n > 2) {
		unsigned int hi = a->fault == SC_FAULT_TIMEOUT ? SC_MAX_TIMEOUTS - p->timeouts : SC_MAX_FAULTS;

		if (a->fault == SC_FAULT_TIMEOUT && hi == 0)
			return fail(p, toks[2].col, "no more than %u timeouts in a scenario", SC_MAX_TIMEOUTS);
		if (want_uint(p, &toks[2], "a transfer count", "i2c-fault", 1, hi, &a->count))
			return -1;
	} else if (a->fault == SC_FAULT_TIMEOUT && p->timeouts >= SC_MAX_TIMEOUTS) {
		return fail(p, kind->col, "no more than %u timeouts in a scenario", SC_MAX_TIMEOUTS);
	}
	if (a->fault == SC_FAULT_TIMEOUT)
		p->timeouts += a->count;
	return want_end(p, toks, n, n > 2 ? 3 : 2);
}

/* Check that the button can make this edge, then note where it is. */
static int edge(struct parser *p, unsigned int col, bool down)
{
	if (down && p->down)
		return fail(p, col, "\"release\" first: the button is already down (pressed on line %u)",
			    p->down_line);
	if (!down && !p->down)
		return fail(p, col, "\"press\" first: the button is up");
	p->down = down;
	p->down_line = p->lineno;
	return 0;
}

/* The time an action plans to take, for the scenario's total. */
static uint64_t planned(const struct sc_action *a)
{
	switch (a->verb) {
	case SC_PRESS:
		return a->hold_ns;
	case SC_BOUNCE:
	case SC_STORM:
	case SC_SHARED:
		return (uint64_t)a->count * a->interval_ns;
	case SC_WAIT:
		return a->duration_ns;
	case SC_I2C_FAULT:
		return a->fault == SC_FAULT_TIMEOUT ? (uint64_t)a->count * 1000000000u : 0;
	case SC_RELEASE:
	case SC_UNBIND:
	case SC_BIND:
		break;
	}
	return 0;
}

/*
 * unbind DRIVER / bind DRIVER, after the kernel's sysfs files: unbinding
 * twl4030 removes its child, the button, first (an MFD's remove); binding
 * the button needs twl4030 bound (its interrupt comes from it), and the
 * button up: a new input device starts with the key released, so a key
 * held across the bind would make its release no change.
 */
static int parse_bind(struct parser *p, const struct tok *toks, size_t n, struct sc_action *a, bool bind)
{
	const struct tok *name = arg(toks, n, 1);
	const char *verb = bind ? "bind" : "unbind";
	char q[64];
	int d;

	a->verb = bind ? SC_BIND : SC_UNBIND;
	if (!name)
		return fail(p, p->end_col, "a driver (twl4030_pwrbutton, twl4030) after \"%s\"", verb);
	for (d = 0; d < SC_NR_DRIVERS; d++)
		if (tok_is(name, sc_driver_names[d]))
			break;
	if (d == SC_NR_DRIVERS)
		return fail(p, name->col, "a driver (twl4030_pwrbutton, twl4030), got %s", quoted(name, q, sizeof(q)));
	a->driver = (enum sc_driver)d;
	if (want_end(p, toks, n, 2))
		return -1;
	if (!bind) {
		if (p->unbound[d])
			return fail(p, toks[0].col, "\"bind %s\" first: it is unbound (line %u)", sc_driver_names[d],
				    p->unbound_line[d]);
		for (int i = d; i >= 0; i--) {
			if (!p->unbound[i]) {
				p->unbound[i] = true;
				p->unbound_line[i] = p->lineno;
			}
		}
		return 0;
	}
	if (!p->unbound[d])
		return fail(p, toks[0].col, "\"unbind %s\" first: it is bound", sc_driver_names[d]);
	if (d == SC_DRV_PWRBUTTON && p->unbound[SC_DRV_TWL4030])
		return fail(p, toks[0].col, "\"bind twl4030\" first: the button's interrupt comes from it (unbound on line %u)",
			    p->unbound_line[SC_DRV_TWL4030]);
	if (d == SC_DRV_PWRBUTTON && p->down)
		return fail(p, toks[0].col, "\"release\" first: a new input device starts released (pressed on line %u)",
			    p->down_line);
	p->unbound[d] = false;
	return 0;
}

static int parse_action(struct parser *p, const struct tok *toks, size_t n, struct sc_action *a)
{
	const struct tok *verb = &toks[0];
	char q[64];

	memset(a, 0, sizeof(*a));
	a->src_line = p->lineno;
	if (tok_is(verb, "press") || tok_is(verb, "hold")) {
		bool hold = tok_is(verb, "hold");

		a->verb = SC_PRESS;
		if (hold || n > 1) {
			if (want_duration(p, arg(toks, n, 1), hold ? "hold" : "press", SC_MAX_DURATION_NS,
					  &a->hold_ns))
				return -1;
			if (want_end(p, toks, n, 2) || edge(p, verb->col, true))
				return -1;
			return edge(p, verb->col, false);
		}
		return edge(p, verb->col, true);
	}
	if (tok_is(verb, "release")) {
		a->verb = SC_RELEASE;
		if (want_end(p, toks, n, 1))
			return -1;
		return edge(p, verb->col, false);
	}
	if (tok_is(verb, "wait")) {
		a->verb = SC_WAIT;
		if (want_duration(p, arg(toks, n, 1), "wait", SC_MAX_DURATION_NS, &a->duration_ns))
			return -1;
		return want_end(p, toks, n, 2);
	}
	if (tok_is(verb, "bounce")) {
		a->verb = SC_BOUNCE;
		a->interval_ns = 200000;
		if (want_uint(p, arg(toks, n, 1), "an edge count", "bounce", 1, SC_MAX_BOUNCE, &a->count))
			return -1;
		if (n > 2 && want_duration(p, &toks[2], "bounce", SC_MAX_INTERVAL_NS, &a->interval_ns))
			return -1;
		if (want_end(p, toks, n, n > 2 ? 3 : 2))
			return -1;
		/* An odd count leaves the button the other way. */
		if (a->count % 2) {
			p->down = !p->down;
			p->down_line = p->lineno;
		}
		return 0;
	}
	if (tok_is(verb, "storm") || tok_is(verb, "shared")) {
		bool storm = tok_is(verb, "storm");

		a->verb = storm ? SC_STORM : SC_SHARED;
		a->interval_ns = storm ? 0 : 1000000;
		if (want_line(p, arg(toks, n, 1), storm ? "storm" : "shared", a->verb, &a->line))
			return -1;
		if (want_uint(p, arg(toks, n, 2), storm ? "an edge count" : "an event count",
			      storm ? "storm" : "shared", 1, storm ? SC_MAX_STORM : SC_MAX_SHARED, &a->count))
			return -1;
		if (n > 3 && want_duration(p, &toks[3], verb->s, SC_MAX_INTERVAL_NS, &a->interval_ns))
			return -1;
		return want_end(p, toks, n, n > 3 ? 4 : 3);
	}
	if (tok_is(verb, "i2c-fault"))
		return parse_fault(p, toks, n, a);
	if (tok_is(verb, "unbind") || tok_is(verb, "bind"))
		return parse_bind(p, toks, n, a, tok_is(verb, "bind"));
	return fail(p, verb->col,
		    "an action (press, release, hold, bounce, storm, shared, i2c-fault, wait, unbind, bind), got %s",
		    quoted(verb, q, sizeof(q)));
}

/* Split one line (without its newline) into tokens; a '#' starts a comment. */
static size_t tokenize(const char *line, size_t len, struct tok *toks, size_t max, unsigned int *end_col)
{
	size_t n = 0, i = 0;

	*end_col = 1;
	while (i < len) {
		if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++;
			continue;
		}
		if (line[i] == '#')
			break;
		size_t start = i;

		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '#')
			i++;
		if (n < max)
			toks[n] = (struct tok){ line + start, i - start, (unsigned int)start + 1 };
		n++;
		*end_col = (unsigned int)i + 1;
	}
	return n;
}

int scenario_parse(const char *name, const char *text, struct scenario *sc, char *err, size_t errlen)
{
	struct parser p = { .name = name, .err = err, .errlen = errlen };
	const char *line = text;
	size_t cap = 0;

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		struct tok toks[MAX_TOKS];
		struct sc_action a;
		size_t n;

		p.lineno++;
		if (len > SC_MAX_LINE) {
			fail(&p, SC_MAX_LINE + 1, "at most %u characters on a line", SC_MAX_LINE);
			goto bad;
		}
		n = tokenize(line, len, toks, MAX_TOKS, &p.end_col);
		if (n > MAX_TOKS) {
			fail(&p, toks[MAX_TOKS - 1].col, "end of line: too many words");
			goto bad;
		}
		if (n) {
			if (parse_action(&p, toks, n, &a))
				goto bad;
			if (sc->n >= SC_MAX_ACTIONS) {
				fail(&p, toks[0].col, "at most %u actions in a scenario", SC_MAX_ACTIONS);
				goto bad;
			}
			sc->planned_ns += planned(&a);
			if (sc->planned_ns > SC_MAX_TOTAL_NS) {
				char lim[32];

				fail(&p, toks[0].col, "at most %s of planned time in a scenario (this line reaches %.3fs)",
				     duration_text(SC_MAX_TOTAL_NS, lim, sizeof(lim)), sc->planned_ns / 1e9);
				goto bad;
			}
			if (sc->n == cap) {
				size_t ncap = cap ? cap * 2 : 32;
				struct sc_action *na = realloc(sc->actions, ncap * sizeof(*na));

				if (!na) {
					snprintf(err, errlen, "%s: out of memory", name);
					goto bad;
				}
				sc->actions = na;
				cap = ncap;
			}
			sc->actions[sc->n++] = a;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
bad:
	scenario_free(sc);
	return -1;
}

int scenario_load(const char *path, struct scenario *sc, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int ret;

	memset(sc, 0, sizeof(*sc));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (cap - len < 4096) {
			/* A scenario is a few lines; refuse anything that could not be one. */
			if (cap >= (size_t)SC_MAX_ACTIONS * (SC_MAX_LINE + 1) * 2) {
				snprintf(err, errlen, "%s: too large to be a scenario", path);
				goto fail;
			}
			char *nt = realloc(text, cap + 65536);

			if (!nt) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			text = nt;
			cap += 65536;
		}
		size_t got = fread(text + len, 1, cap - len - 1, f);

		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	text[len] = '\0';
	/* The parser sees C strings: a NUL inside the file would end it silently. */
	if (strlen(text) != len) {
		unsigned int lineno = 1, col = 1;

		for (size_t i = 0; text[i]; i++, col++)
			if (text[i] == '\n')
				lineno++, col = 0;
		snprintf(err, errlen, "%s:%u:%u: expected text, got a NUL byte", path, lineno, col);
		free(text);
		return -1;
	}
	ret = scenario_parse(path, text, sc, err, errlen);
	free(text);
	return ret;
fail:
	fclose(f);
	free(text);
	return -1;
}

void scenario_free(struct scenario *sc)
{
	free(sc->actions);
	sc->actions = NULL;
	sc->n = 0;
}

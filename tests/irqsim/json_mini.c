// SPDX-License-Identifier: MIT
/* The tests' JSON parser (json_mini.h). */
#include "json_mini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
	const char *s;
	size_t i;
	char *err;
	size_t errlen;
	int depth;
};

static bool jfail(struct jp *p, const char *what)
{
	if (!p->err[0])
		snprintf(p->err, p->errlen, "offset %zu: %s", p->i, what);
	return false;
}

static void ws(struct jp *p)
{
	while (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')
		p->i++;
}

static bool parse_value(struct jp *p, struct jval *v);

static bool hex4(struct jp *p, unsigned int *cp)
{
	*cp = 0;
	for (int k = 0; k < 4; k++) {
		char c = p->s[p->i++];

		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*cp |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*cp |= (unsigned int)(c - 'A' + 10);
		else
			return jfail(p, "bad \\u escape");
	}
	return true;
}

static bool parse_string(struct jp *p, char **out)
{
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return jfail(p, "no memory");
	p->i++;	/* the opening quote */
	for (;;) {
		unsigned char c = (unsigned char)p->s[p->i];
		char put[4];
		size_t np = 1;

		if (!c) {
			free(buf);
			return jfail(p, "unterminated string");
		}
		if (c < 0x20) {
			free(buf);
			return jfail(p, "control character in string");
		}
		p->i++;
		if (c == '"')
			break;
		put[0] = (char)c;
		if (c == '\\') {
			char e = p->s[p->i++];
			unsigned int cp;

			switch (e) {
			case '"': case '\\': case '/': put[0] = e; break;
			case 'b': put[0] = '\b'; break;
			case 'f': put[0] = '\f'; break;
			case 'n': put[0] = '\n'; break;
			case 'r': put[0] = '\r'; break;
			case 't': put[0] = '\t'; break;
			case 'u':
				if (!hex4(p, &cp)) {
					free(buf);
					return false;
				}
				/* Enough for the tests: code points below 0x800 re-encoded, others as '?'. */
				if (cp < 0x80) {
					put[0] = (char)cp;
				} else if (cp < 0x800) {
					put[0] = (char)(0xc0 | (cp >> 6));
					put[1] = (char)(0x80 | (cp & 0x3f));
					np = 2;
				} else {
					put[0] = '?';
				}
				break;
			default:
				free(buf);
				return jfail(p, "bad escape");
			}
		}
		if (n + np + 1 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return jfail(p, "no memory");
			}
			buf = nb;
		}
		memcpy(buf + n, put, np);
		n += np;
	}
	buf[n] = '\0';
	*out = buf;
	return true;
}

static bool parse_number(struct jp *p, struct jval *v)
{
	size_t start = p->i;

	if (p->s[p->i] == '-')
		p->i++;
	if (p->s[p->i] == '0') {
		p->i++;
	} else if (p->s[p->i] >= '1' && p->s[p->i] <= '9') {
		while (p->s[p->i] >= '0' && p->s[p->i] <= '9')
			p->i++;
	} else {
		return jfail(p, "bad number");
	}
	if (p->s[p->i] == '.') {
		p->i++;
		if (p->s[p->i] < '0' || p->s[p->i] > '9')
			return jfail(p, "bad fraction");
		while (p->s[p->i] >= '0' && p->s[p->i] <= '9')
			p->i++;
	}
	if (p->s[p->i] == 'e' || p->s[p->i] == 'E') {
		p->i++;
		if (p->s[p->i] == '+' || p->s[p->i] == '-')
			p->i++;
		if (p->s[p->i] < '0' || p->s[p->i] > '9')
			return jfail(p, "bad exponent");
		while (p->s[p->i] >= '0' && p->s[p->i] <= '9')
			p->i++;
	}
	v->type = J_NUM;
	v->num = strtod(p->s + start, NULL);
	return true;
}

static bool push(struct jp *p, struct jval *v, size_t *cap, struct jval **slot)
{
	if (v->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct jval *nk = realloc(v->kids, nc * sizeof(*nk));

		if (!nk)
			return jfail(p, "no memory");
		v->kids = nk;
		*cap = nc;
	}
	*slot = &v->kids[v->n++];
	memset(*slot, 0, sizeof(**slot));
	return true;
}

static bool parse_container(struct jp *p, struct jval *v, bool obj)
{
	size_t cap = 0;
	char close = obj ? '}' : ']';

	if (++p->depth > 64)
		return jfail(p, "nested too deep");
	v->type = obj ? J_OBJ : J_ARR;
	p->i++;
	ws(p);
	if (p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return true;
	}
	for (;;) {
		struct jval *kid;
		char *key = NULL;

		ws(p);
		if (obj) {
			if (p->s[p->i] != '"')
				return jfail(p, "expected a key");
			if (!parse_string(p, &key))
				return false;
			ws(p);
			if (p->s[p->i] != ':') {
				free(key);
				return jfail(p, "expected ':'");
			}
			p->i++;
		}
		if (!push(p, v, &cap, &kid)) {
			free(key);
			return false;
		}
		if (!parse_value(p, kid)) {
			free(key);
			return false;
		}
		kid->key = key;
		ws(p);
		if (p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->s[p->i] == close) {
			p->i++;
			p->depth--;
			return true;
		}
		return jfail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static bool parse_value(struct jp *p, struct jval *v)
{
	ws(p);
	switch (p->s[p->i]) {
	case '{':
		return parse_container(p, v, true);
	case '[':
		return parse_container(p, v, false);
	case '"':
		v->type = J_STR;
		return parse_string(p, &v->str);
	case 't':
		if (strncmp(p->s + p->i, "true", 4))
			return jfail(p, "bad literal");
		p->i += 4;
		v->type = J_BOOL;
		v->b = true;
		return true;
	case 'f':
		if (strncmp(p->s + p->i, "false", 5))
			return jfail(p, "bad literal");
		p->i += 5;
		v->type = J_BOOL;
		return true;
	case 'n':
		if (strncmp(p->s + p->i, "null", 4))
			return jfail(p, "bad literal");
		p->i += 4;
		v->type = J_NULL;
		return true;
	default:
		return parse_number(p, v);
	}
}

static void free_kids(struct jval *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->kids[i].key);
		free(v->kids[i].str);
		free_kids(&v->kids[i]);
	}
	free(v->kids);
}

void json_free(struct jval *v)
{
	if (!v)
		return;
	free_kids(v);
	free(v->str);
	free(v);
}

struct jval *json_parse(const char *text, char *err, size_t errlen)
{
	struct jp p = { .s = text, .err = err, .errlen = errlen };
	struct jval *v = calloc(1, sizeof(*v));

	err[0] = '\0';
	if (!v)
		return NULL;
	if (!parse_value(&p, v)) {
		json_free(v);
		return NULL;
	}
	ws(&p);
	if (p.s[p.i]) {
		jfail(&p, "trailing characters");
		json_free(v);
		return NULL;
	}
	return v;
}

const struct jval *json_get(const struct jval *v, const char *key)
{
	if (!v || v->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++) {
		const struct jval *k = &v->kids[i];

		if (k->key && !strcmp(k->key, key))
			return k;
	}
	return NULL;
}

const struct jval *json_path(const struct jval *v, const char *path)
{
	char key[64];

	while (v && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = json_get(v, key);
		path += n + (path[n] == '.');
	}
	return v;
}

/* SPDX-License-Identifier: MIT */
/*
 * A strict little JSON parser for the tests (RFC 8259: no trailing commas,
 * no comments, escapes checked, UTF-8 passed through).  Strict on purpose:
 * what it accepts, Perfetto and Python's json module accept.
 */
#ifndef JSON_MINI_H
#define JSON_MINI_H

#include <stdbool.h>
#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	double num;
	char *str;		/* J_STR: decoded */
	char *key;		/* a member of an object: its key */
	struct jval *kids;	/* J_ARR elements, J_OBJ members */
	size_t n;
};

/* Parse text; NULL with a message in err ("offset N: ...") if it is not JSON. */
struct jval *json_parse(const char *text, char *err, size_t errlen);
void json_free(struct jval *v);
/* Member of an object by key (NULL if absent or v is not an object). */
const struct jval *json_get(const struct jval *v, const char *key);
/* Follow a path of keys separated by '.' */
const struct jval *json_path(const struct jval *v, const char *path);

#endif

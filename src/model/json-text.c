// SPDX-License-Identifier: GPL-2.0-only
/*
 * A model file's JSON as text, for what json-c does not do (model-priv.h):
 * comments blanked with offsets kept, line numbers, the offset of a member
 * named by its path ("clusters[1].cap_states[2].cap"), keys given twice,
 * tokens json-c accepts but JSON does not, and those paths built.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

int ea_json_line(const char *text, size_t len, size_t off)
{
	int line = 1;

	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

int ea_json_blank_comments(char *s, size_t n, size_t *bad)
{
	size_t i = 0;

	while (i < n) {
		char c = s[i];

		if (c == '"' || c == '\'') {
			for (i++; i < n && s[i] != c; i++)
				if (s[i] == '\\')
					i++;
			i++;
		} else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			for (; i < n && s[i] != '\n'; i++)
				s[i] = ' ';
		} else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			size_t start = i;

			s[i++] = ' ';
			s[i++] = ' ';
			while (i < n &&
			       !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
				if (s[i] != '\n')
					s[i] = ' ';
				i++;
			}
			if (i >= n) {
				*bad = start;
				return -1;
			}
			s[i++] = ' ';
			s[i++] = ' ';
		} else {
			i++;
		}
	}
	return 0;
}

struct scan {
	const char *s;
	size_t n, i;
};

static void skip_ws(struct scan *sc)
{
	while (sc->i < sc->n && (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' ||
				 sc->s[sc->i] == '\n' || sc->s[sc->i] == '\r'))
		sc->i++;
}

/* Past c if it stands at sc->i (after white space: skip_ws_take()). */
static void take(struct scan *sc, char c)
{
	if (sc->i < sc->n && sc->s[sc->i] == c)
		sc->i++;
}

static void skip_ws_take(struct scan *sc, char c)
{
	skip_ws(sc);
	take(sc, c);
}

static void skip_string(struct scan *sc)
{
	char q = sc->s[sc->i++];

	while (sc->i < sc->n && sc->s[sc->i] != q)
		sc->i += sc->s[sc->i] == '\\' ? 2 : 1;
	sc->i++;
}

/* Skip one value; the text is known to parse, so this can be simple. */
static void skip_value(struct scan *sc)
{
	int depth = 0;

	skip_ws(sc);
	do {
		if (sc->i >= sc->n)
			return;
		switch (sc->s[sc->i]) {
		case '"':
		case '\'':
			skip_string(sc);
			break;
		case '{':
		case '[':
			depth++;
			sc->i++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return;
			depth--;
			sc->i++;
			break;
		case ',':
			if (depth == 0)
				return;
			sc->i++;
			break;
		default:
			if (depth == 0 && strchr(" \t\r\n", sc->s[sc->i]))
				return;
			sc->i++;
		}
	} while (depth > 0 ||
		 (sc->i < sc->n && !strchr(",]} \t\r\n", sc->s[sc->i])));
}

/* At a key's opening quote: its raw text (between the quotes). */
static void read_key(struct scan *sc, const char **k, size_t *klen)
{
	size_t start = sc->i + 1;

	skip_string(sc);
	*k = sc->s + start;
	*klen = sc->i > start ? sc->i - 1 - start : 0;
}

size_t ea_json_locate(const char *text, size_t len, const char *path)
{
	struct scan sc = {text, len, 0};
	const char *p = path;
	size_t best;

	skip_ws(&sc);
	best = sc.i;
	while (*p && sc.i < sc.n) {
		if (*p == '[') {
			char *end;
			long idx = strtol(p + 1, &end, 10);

			p = *end == ']' ? end + 1 : end;
			if (sc.s[sc.i] != '[')
				return best;
			sc.i++;
			for (long k = 0; k < idx; k++) {
				skip_ws(&sc);
				if (sc.i >= sc.n || sc.s[sc.i] == ']')
					return best;
				skip_value(&sc);
				skip_ws(&sc);
				if (sc.i < sc.n && sc.s[sc.i] == ',')
					sc.i++;
			}
			skip_ws(&sc);
			if (sc.i >= sc.n || sc.s[sc.i] == ']')
				return best;
			best = sc.i;
		} else {
			const char *key;
			size_t keylen, keyoff = 0, valoff = 0;
			bool found = false;

			if (*p == '.')
				p++;
			key = p;
			keylen = strcspn(p, ".[");
			p += keylen;
			if (sc.s[sc.i] != '{')
				return best;
			sc.i++;
			for (;;) {
				const char *k;
				size_t klen, at, before = sc.i;

				skip_ws(&sc);
				if (sc.i >= sc.n ||
				    (sc.s[sc.i] != '"' && sc.s[sc.i] != '\''))
					break;
				at = sc.i;
				read_key(&sc, &k, &klen);
				skip_ws(&sc);
				if (sc.i < sc.n && sc.s[sc.i] == ':')
					sc.i++;
				skip_ws(&sc);
				/* json-c keeps the last of duplicate keys: so
				 * do we */
				if (klen == keylen && !memcmp(k, key, keylen)) {
					found = true;
					keyoff = at;
					valoff = sc.i;
				}
				skip_value(&sc);
				skip_ws(&sc);
				if (sc.i < sc.n && sc.s[sc.i] == ',')
					sc.i++;
				if (sc.i == before)
					break;
			}
			if (!found)
				return best;
			best = keyoff;
			sc.i = valoff;
		}
		skip_ws(&sc);
	}
	return best;
}

#define DUP_MAX_KEYS 64

/* ea_json_find_duplicate_key() from sc->i, depth levels down. */
static size_t find_duplicate_key(struct scan *sc, int depth)
{
	skip_ws(sc);
	if (sc->i >= sc->n || depth > 64)
		return (size_t)-1;
	if (sc->s[sc->i] == '{') {
		const char *keys[DUP_MAX_KEYS];
		size_t lens[DUP_MAX_KEYS];
		int nkeys = 0;

		sc->i++;
		for (;;) {
			const char *k;
			size_t klen, at, r, before = sc->i;

			skip_ws(sc);
			if (sc->i >= sc->n ||
			    (sc->s[sc->i] != '"' && sc->s[sc->i] != '\''))
				break;
			at = sc->i;
			read_key(sc, &k, &klen);
			for (int j = 0; j < nkeys; j++)
				if (lens[j] == klen &&
				    !memcmp(keys[j], k, klen))
					return at;
			if (nkeys < DUP_MAX_KEYS) {
				keys[nkeys] = k;
				lens[nkeys++] = klen;
			}
			skip_ws_take(sc, ':');
			r = find_duplicate_key(sc, depth + 1);
			if (r != (size_t)-1)
				return r;
			skip_ws_take(sc, ',');
			if (sc->i == before)
				break;
		}
		skip_ws_take(sc, '}');
	} else if (sc->s[sc->i] == '[') {
		sc->i++;
		for (;;) {
			size_t r, before = sc->i;

			skip_ws(sc);
			if (sc->i >= sc->n || sc->s[sc->i] == ']')
				break;
			r = find_duplicate_key(sc, depth + 1);
			if (r != (size_t)-1)
				return r;
			skip_ws_take(sc, ',');
			if (sc->i == before)
				break;
		}
		take(sc, ']');
	} else {
		skip_value(sc);
	}
	return (size_t)-1;
}

size_t ea_json_find_bad_token(const char *s, size_t n, const char **what)
{
	char prev = ' ';

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '"' || c == '\'') {
			for (i++; i < n && s[i] != c; i++) {
				if (s[i] != '\\')
					continue;
				if (i + 5 < n && s[i + 1] == 'u' &&
				    !memcmp(s + i + 2, "0000", 4)) {
					*what = "\\u0000 (a NUL character) in "
						"a string";
					return i;
				}
				i++;
			}
			prev = c;
			continue;
		}
		if (strchr(":,[ \t\r\n", prev) &&
		    (c == '-' || (c >= '0' && c <= '9'))) {
			size_t d = c == '-' ? i + 1 : i;

			if (d + 1 < n && s[d] == '0' && s[d + 1] >= '0' &&
			    s[d + 1] <= '9') {
				*what = "number with a leading zero (JSON has "
					"no octal)";
				return i;
			}
		}
		prev = c;
	}
	return (size_t)-1;
}

size_t ea_json_skip_ws(const char *text, size_t len, size_t off)
{
	struct scan sc = {text, len, off};

	skip_ws(&sc);
	return sc.i;
}

void ea_json_key_at(const char *text, size_t len, size_t off, const char **key,
		    size_t *keylen)
{
	struct scan sc = {text, len, off};

	read_key(&sc, key, keylen);
}

size_t ea_json_find_duplicate_key(const char *text, size_t len)
{
	struct scan sc = {text, len, 0};

	return find_duplicate_key(&sc, 0);
}

/* ---- paths ---- */

void ea_json_path_key(char *out, const char *base, const char *key)
{
	int n;

	if (*base)
		n = snprintf(out, EA_JSON_PATH_LEN, "%s.%s", base, key);
	else
		n = snprintf(out, EA_JSON_PATH_LEN, "%s", key);
	if (n >= EA_JSON_PATH_LEN)
		out[EA_JSON_PATH_LEN - 1] = '\0';
}

void ea_json_path_idx(char *out, const char *base, int i)
{
	if (snprintf(out, EA_JSON_PATH_LEN, "%s[%d]", base, i) >=
	    EA_JSON_PATH_LEN)
		out[EA_JSON_PATH_LEN - 1] = '\0';
}

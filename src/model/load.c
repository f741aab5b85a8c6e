// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model loader: native JSON (comments allowed) to struct ea_model, with
 * every value validated and every refusal naming the file, the line and the
 * member at fault: "FILE:LINE: clusters[1].cap_states[2].cap: cause".
 *
 * json-c does not keep positions, so the loader blanks comments itself
 * (keeping offsets), lets json_tokener parse the result (its error offset
 * gives syntax errors their line), and finds the line of a member that fails
 * a semantic check by walking the text along the member's JSON path.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "eatrace/escape.h"
#include "eatrace/input.h"
#include "eatrace/model.h"
#include "model/model-priv.h"

#define PATH_LEN 128

struct loader {
	const char *file;
	const char *text;	/* comments blanked */
	size_t len;
	struct ea_err *err;
};

/* ---- text helpers: comments, positions, duplicate keys ---- */

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

/*
 * Replace comments by spaces (newlines kept) so that offsets still match the
 * file. Returns 0, or -1 with *bad at the start of an unterminated comment.
 */
static int blank_comments(char *s, size_t n, size_t *bad)
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
			while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
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
	} while (depth > 0 || (sc->i < sc->n && !strchr(",]} \t\r\n", sc->s[sc->i])));
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
	struct scan sc = { text, len, 0 };
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
				if (sc.i >= sc.n || (sc.s[sc.i] != '"' && sc.s[sc.i] != '\''))
					break;
				at = sc.i;
				read_key(&sc, &k, &klen);
				skip_ws(&sc);
				if (sc.i < sc.n && sc.s[sc.i] == ':')
					sc.i++;
				skip_ws(&sc);
				/* json-c keeps the last of duplicate keys: so do we */
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

/*
 * Find a key given twice in one object (json-c would silently keep the last
 * one). Objects with more than DUP_MAX_KEYS members are not checked: they
 * fail the unknown-member check anyway. Returns the offset of the second
 * occurrence, or (size_t)-1.
 */
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
			if (sc->i >= sc->n || (sc->s[sc->i] != '"' && sc->s[sc->i] != '\''))
				break;
			at = sc->i;
			read_key(sc, &k, &klen);
			for (int j = 0; j < nkeys; j++)
				if (lens[j] == klen && !memcmp(keys[j], k, klen))
					return at;
			if (nkeys < DUP_MAX_KEYS) {
				keys[nkeys] = k;
				lens[nkeys++] = klen;
			}
			skip_ws(sc);
			if (sc->i < sc->n && sc->s[sc->i] == ':')
				sc->i++;
			r = find_duplicate_key(sc, depth + 1);
			if (r != (size_t)-1)
				return r;
			skip_ws(sc);
			if (sc->i < sc->n && sc->s[sc->i] == ',')
				sc->i++;
			if (sc->i == before)
				break;
		}
		skip_ws(sc);
		if (sc->i < sc->n && sc->s[sc->i] == '}')
			sc->i++;
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
			skip_ws(sc);
			if (sc->i < sc->n && sc->s[sc->i] == ',')
				sc->i++;
			if (sc->i == before)
				break;
		}
		if (sc->i < sc->n && sc->s[sc->i] == ']')
			sc->i++;
	} else {
		skip_value(sc);
	}
	return (size_t)-1;
}

/*
 * What json-c lets through but JSON (RFC 8259) does not, and would be
 * misread: a number with a leading zero ("0100": octal to some readers,
 * 100 to json-c) and a \u0000 escape (a NUL that would cut a name short).
 * Returns the offset of the first, or (size_t)-1; *what says which.
 */
static size_t find_bad_token(const char *s, size_t n, const char **what)
{
	char prev = ' ';

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '"' || c == '\'') {
			for (i++; i < n && s[i] != c; i++) {
				if (s[i] != '\\')
					continue;
				if (i + 5 < n && s[i + 1] == 'u' && !memcmp(s + i + 2, "0000", 4)) {
					*what = "\\u0000 (a NUL character) in a string";
					return i;
				}
				i++;
			}
			prev = c;
			continue;
		}
		if (strchr(":,[ \t\r\n", prev) && (c == '-' || (c >= '0' && c <= '9'))) {
			size_t d = c == '-' ? i + 1 : i;

			if (d + 1 < n && s[d] == '0' && s[d + 1] >= '0' && s[d + 1] <= '9') {
				*what = "number with a leading zero (JSON has no octal)";
				return i;
			}
		}
		prev = c;
	}
	return (size_t)-1;
}

/* ---- error reporting ---- */

static int lfail_at(struct loader *ld, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lfail_at(struct loader *ld, size_t off, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Keys and names quoted from the file may hold control characters
	 * (raw or escaped): errors stay one line. */
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return ea_err_set(ld->err, "%s:%d: %s", ld->file,
			  ea_json_line(ld->text, ld->len, off), msg);
}

/* The loader's ea_model_fail_fn: locate the member, report its line. */
static int lfail_path_msg(void *ctx, const char *path, const char *msg)
{
	struct loader *ld = ctx;
	size_t off = ea_json_locate(ld->text, ld->len, path);

	if (!*path)
		return lfail_at(ld, off, "%s", msg);
	return lfail_at(ld, off, "%s: %s", path, msg);
}

static int lfail(struct loader *ld, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lfail(struct loader *ld, const char *path, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lfail_path_msg(ld, path, msg);
}

/* ---- typed member access ---- */

/* Paths are short; a truncated one only makes a message less precise. */
static void join(char *out, const char *base, const char *key)
{
	int n;

	if (*base)
		n = snprintf(out, PATH_LEN, "%s.%s", base, key);
	else
		n = snprintf(out, PATH_LEN, "%s", key);
	if (n >= PATH_LEN)
		out[PATH_LEN - 1] = '\0';
}

static void join_idx(char *out, const char *base, int i)
{
	if (snprintf(out, PATH_LEN, "%s[%d]", base, i) >= PATH_LEN)
		out[PATH_LEN - 1] = '\0';
}

static const char *type_desc(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a fractional number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "something else";
}

/* Refuse members not in the NULL-terminated list allowed. */
static int check_members(struct loader *ld, json_object *obj, const char *path,
			 const char *const *allowed)
{
	json_object_object_foreach(obj, key, val) {
		const char *const *a;
		char mpath[PATH_LEN], list[256] = "";

		(void)val;
		for (a = allowed; *a; a++)
			if (!strcmp(*a, key))
				break;
		if (*a)
			continue;
		for (a = allowed; *a; a++) {
			strncat(list, *a, sizeof(list) - strlen(list) - 1);
			if (a[1])
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		}
		join(mpath, path, key);
		return lfail(ld, mpath, "unknown member (expected one of: %s)", list);
	}
	return 0;
}

/*
 * Member key of obj, of JSON type type (json_type_double accepts integers
 * too). *out is NULL when an optional member is absent.
 */
static int get(struct loader *ld, json_object *obj, const char *path,
	       const char *key, enum json_type type, bool required,
	       json_object **out)
{
	char mpath[PATH_LEN];
	json_object *v;
	const char *want;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required)
			return lfail(ld, path, "missing member '%s'", key);
		return 0;
	}
	if (json_object_is_type(v, type) ||
	    (type == json_type_double && json_object_is_type(v, json_type_int))) {
		*out = v;
		return 0;
	}
	switch (type) {
	case json_type_double:
		want = "a number";
		break;
	case json_type_int:
		want = "an integer";
		break;
	case json_type_string:
		want = "a string";
		break;
	case json_type_boolean:
		want = "true or false";
		break;
	case json_type_array:
		want = "an array";
		break;
	default:
		want = "an object";
		break;
	}
	join(mpath, path, key);
	return lfail(ld, mpath, "expected %s, got %s", want, type_desc(v));
}

static int get_string(struct loader *ld, json_object *obj, const char *path,
		      const char *key, bool required, char *buf, size_t size)
{
	char mpath[PATH_LEN];
	json_object *v;
	const char *s;

	if (get(ld, obj, path, key, json_type_string, required, &v))
		return -1;
	if (!v)
		return 0;
	s = json_object_get_string(v);
	join(mpath, path, key);
	if (strlen(s) >= size)
		return lfail(ld, mpath, "too long (at most %zu characters)",
			     size - 1);
	strcpy(buf, s);
	return 0;
}

/* An integer member in [min, max]. */
static int get_uint(struct loader *ld, json_object *obj, const char *path,
		    const char *key, bool required, int64_t min, int64_t max,
		    const char *unit, uint32_t *out)
{
	char mpath[PATH_LEN];
	json_object *v;
	int64_t x;

	if (get(ld, obj, path, key, json_type_int, required, &v))
		return -1;
	if (!v)
		return 0;
	x = json_object_get_int64(v);
	join(mpath, path, key);
	if (x < min || x > max)
		return lfail(ld, mpath, "%s is out of range (%lld..%lld%s)",
			     json_object_get_string(v), (long long)min,
			     (long long)max, unit);
	*out = (uint32_t)x;
	return 0;
}

/* A number member; its range is ea_model_validate()'s business. */
static int get_num(struct loader *ld, json_object *obj, const char *path,
		   const char *key, bool required, double *out)
{
	json_object *v;

	if (get(ld, obj, path, key, json_type_double, required, &v))
		return -1;
	if (v)
		*out = json_object_get_double(v);
	return 0;
}

/* ---- JSON to struct ---- */

static const char *const top_keys[] = {
	"eatrace_model", "name", "source", "power_unit", "clusters",
	"suspend_power", NULL
};
static const char *const cluster_keys[] = {
	"name", "cpus", "freq_domain", "cap_states", "idle_states",
	"offline_power", NULL
};
static const char *const cap_keys[] = {
	"freq_khz", "cap", "core_power", "cluster_power", NULL
};
static const char *const idle_keys[] = {
	"name", "core_power", "cluster_power", "core_wakeup", "cluster_wakeup",
	"target_residency_us", NULL
};

/*
 * Zeroed room for the elements of the array a (at apath), at least one;
 * *n its length. NULL, after lfail(), where it has more than max elements
 * ("more than MAX WHAT") or memory runs out.
 */
static void *alloc_elems(struct loader *ld, json_object *a, const char *apath,
			 int max, const char *what, size_t size, size_t *n)
{
	void *p;

	*n = json_object_array_length(a);
	if (*n > (size_t)max) {
		lfail(ld, apath, "more than %d %s", max, what);
		return NULL;
	}
	p = calloc(*n ? *n : 1, size);
	if (!p)
		lfail(ld, apath, "out of memory");
	return p;
}

static int load_cap_state(struct loader *ld, json_object *o, const char *path,
			  struct ea_cap_state *cs)
{
	if (!json_object_is_type(o, json_type_object))
		return lfail(ld, path, "expected an object, got %s", type_desc(o));
	if (check_members(ld, o, path, cap_keys) ||
	    get_uint(ld, o, path, "freq_khz", true, 1, EA_MODEL_MAX_FREQ_KHZ,
		     " kHz", &cs->freq_khz) ||
	    get_uint(ld, o, path, "cap", true, 1, EA_MODEL_MAX_CAP, "",
		     &cs->cap) ||
	    get_num(ld, o, path, "core_power", true, &cs->core_power) ||
	    get_num(ld, o, path, "cluster_power", true, &cs->cluster_power))
		return -1;
	return 0;
}

static int load_idle_state(struct loader *ld, json_object *o, const char *path,
			   struct ea_idle_state *is)
{
	if (!json_object_is_type(o, json_type_object))
		return lfail(ld, path, "expected an object, got %s", type_desc(o));
	if (check_members(ld, o, path, idle_keys) ||
	    get_string(ld, o, path, "name", true, is->name, sizeof(is->name)) ||
	    get_num(ld, o, path, "core_power", true, &is->core_power) ||
	    get_num(ld, o, path, "cluster_power", true, &is->cluster_power) ||
	    get_num(ld, o, path, "core_wakeup", false, &is->core_wakeup) ||
	    get_num(ld, o, path, "cluster_wakeup", false, &is->cluster_wakeup) ||
	    get_uint(ld, o, path, "target_residency_us", false, 0,
		     EA_MODEL_MAX_RESIDENCY_US, " us", &is->target_residency_us))
		return -1;
	return 0;
}

static int load_cluster(struct loader *ld, json_object *o, const char *path,
			struct ea_cluster *cl)
{
	char apath[PATH_LEN], epath[PATH_LEN];
	json_object *a, *v;
	size_t n;

	if (!json_object_is_type(o, json_type_object))
		return lfail(ld, path, "expected an object, got %s", type_desc(o));
	if (check_members(ld, o, path, cluster_keys) ||
	    get_string(ld, o, path, "name", true, cl->name, sizeof(cl->name)) ||
	    get_num(ld, o, path, "offline_power", false, &cl->offline_power))
		return -1;

	if (get(ld, o, path, "cpus", json_type_array, true, &a))
		return -1;
	join(apath, path, "cpus");
	cl->cpus = alloc_elems(ld, a, apath, EA_MODEL_MAX_CPUS, "CPUs",
			       sizeof(*cl->cpus), &n);
	if (!cl->cpus)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int64_t x;

		v = json_object_array_get_idx(a, i);
		join_idx(epath, apath, (int)i);
		if (!json_object_is_type(v, json_type_int))
			return lfail(ld, epath, "expected a CPU id (an integer), got %s",
				     type_desc(v));
		x = json_object_get_int64(v);
		if (x < 0 || x >= EA_MODEL_MAX_CPUS)
			return lfail(ld, epath, "CPU id %s is out of range (0..%d)",
				     json_object_get_string(v),
				     EA_MODEL_MAX_CPUS - 1);
		cl->cpus[i] = (int)x;
		cl->ncpus++;
	}

	cl->freq_domain = true;
	if (get(ld, o, path, "freq_domain", json_type_boolean, false, &v))
		return -1;
	if (v)
		cl->freq_domain = json_object_get_boolean(v);

	if (get(ld, o, path, "cap_states", json_type_array, true, &a))
		return -1;
	join(apath, path, "cap_states");
	cl->caps = alloc_elems(ld, a, apath, EA_MODEL_MAX_CAP_STATES,
			       "cap states", sizeof(*cl->caps), &n);
	if (!cl->caps)
		return -1;
	for (size_t i = 0; i < n; i++) {
		join_idx(epath, apath, (int)i);
		if (load_cap_state(ld, json_object_array_get_idx(a, i), epath,
				   &cl->caps[i]))
			return -1;
		cl->ncaps++;
	}

	if (get(ld, o, path, "idle_states", json_type_array, false, &a))
		return -1;
	if (!a)
		return 0;
	join(apath, path, "idle_states");
	cl->idles = alloc_elems(ld, a, apath, EA_MODEL_MAX_IDLE_STATES,
				"idle states", sizeof(*cl->idles), &n);
	if (!cl->idles)
		return -1;
	for (size_t i = 0; i < n; i++) {
		join_idx(epath, apath, (int)i);
		if (load_idle_state(ld, json_object_array_get_idx(a, i), epath,
				    &cl->idles[i]))
			return -1;
		cl->nidles++;
	}
	return 0;
}

static int load_model(struct loader *ld, json_object *root, struct ea_model *m)
{
	json_object *v, *a;
	int64_t version;
	size_t n;

	if (!json_object_is_type(root, json_type_object))
		return lfail(ld, "", "a model is a JSON object, not %s",
			     type_desc(root));
	/* the version first: a newer file gets this message, not another */
	if (!json_object_object_get_ex(root, "eatrace_model", &v))
		return lfail(ld, "", "missing member 'eatrace_model' (the format version: this eatrace reads %d)",
			     EA_MODEL_VERSION);
	if (!json_object_is_type(v, json_type_int))
		return lfail(ld, "eatrace_model", "expected the format version (an integer), got %s",
			     type_desc(v));
	version = json_object_get_int64(v);
	if (version != EA_MODEL_VERSION)
		return lfail(ld, "eatrace_model", "unsupported format version %lld (this eatrace reads version %d)",
			     (long long)version, EA_MODEL_VERSION);

	if (check_members(ld, root, "", top_keys) ||
	    get_string(ld, root, "", "name", true, m->name, sizeof(m->name)) ||
	    get_string(ld, root, "", "power_unit", true, m->power_unit,
		       sizeof(m->power_unit)) ||
	    get_num(ld, root, "", "suspend_power", false, &m->suspend_power))
		return -1;
	if (get(ld, root, "", "source", json_type_string, false, &v))
		return -1;
	m->source = strdup(v ? json_object_get_string(v) : "");
	if (!m->source)
		return lfail(ld, "", "out of memory");

	if (get(ld, root, "", "clusters", json_type_array, true, &a))
		return -1;
	m->clusters = alloc_elems(ld, a, "clusters", EA_MODEL_MAX_CPUS,
				  "clusters", sizeof(*m->clusters), &n);
	if (!m->clusters)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char cpath[PATH_LEN];

		join_idx(cpath, "clusters", (int)i);
		m->nclusters++;
		if (load_cluster(ld, json_object_array_get_idx(a, i), cpath,
				 &m->clusters[i]))
			return -1;
	}
	return 0;
}

/* ---- validation shared with ea_model_finish() ---- */

struct vctx {
	ea_model_fail_fn fail;
	void *ctx;
};

static int vfail(struct vctx *v, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int vfail(struct vctx *v, const char *path, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return v->fail(v->ctx, path, msg);
}

static int check_power(struct vctx *v, const char *base, const char *key,
		       double x)
{
	char path[PATH_LEN], num[32];

	if (isfinite(x) && x >= 0 && x <= EA_MODEL_MAX_POWER)
		return 0;
	join(path, base, key);
	ea_model_fmt_num(x, num, sizeof(num));
	if (!isfinite(x))
		return vfail(v, path, "%s is not a finite number", num);
	if (x < 0)
		return vfail(v, path, "%s is negative", num);
	return vfail(v, path, "%s is beyond the sanity limit 1e9 (a unit mistake?)",
		     num);
}

/* Names are printed inside one-line messages and tables. */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/*
 * A name must load back as written: the file is UTF-8, each byte that is
 * not is written as U+FFFD (3 bytes; eatrace/escape.h), so its length and
 * its uniqueness count in that form.
 */
static int check_text(struct vctx *v, const char *path, const char *what,
		      const char *s, size_t size)
{
	size_t n = ea_utf8_fixed_len(s);

	if (n >= size)
		return vfail(v, path, "%s too long as written (%zu bytes, each byte that is not UTF-8 as U+FFFD; at most %zu)",
			     what, n, size - 1);
	return 0;
}

/* For a duplicate name message: why two different names are the same. */
static const char *as_written(const char *a, const char *b)
{
	return strcmp(a, b) ? ", once each byte that is not UTF-8 is U+FFFD" : "";
}

static int validate_cluster(struct vctx *v, const struct ea_model *m, int ci,
			    int *owner)
{
	const struct ea_cluster *cl = &m->clusters[ci];
	char cpath[PATH_LEN], path[PATH_LEN], epath[PATH_LEN];

	join_idx(cpath, "clusters", ci);
	join(path, cpath, "name");
	if (!cl->name[0])
		return vfail(v, path, "empty cluster name");
	if (has_control(cl->name))
		return vfail(v, path, "control character in cluster name");
	if (check_text(v, path, "cluster name", cl->name, sizeof(cl->name)))
		return -1;
	for (int j = 0; j < ci; j++)
		if (ea_utf8_fixed_eq(m->clusters[j].name, cl->name))
			return vfail(v, path, "duplicate cluster name '%s' (also clusters[%d]%s)",
				     cl->name, j,
				     as_written(m->clusters[j].name, cl->name));

	join(path, cpath, "cpus");
	if (cl->ncpus < 1)
		return vfail(v, path, "a cluster needs at least one CPU");
	for (int k = 0; k < cl->ncpus; k++) {
		int cpu = cl->cpus[k];

		join_idx(epath, path, k);
		if (cpu < 0 || cpu >= EA_MODEL_MAX_CPUS)
			return vfail(v, epath, "CPU id %d is out of range (0..%d)",
				     cpu, EA_MODEL_MAX_CPUS - 1);
		if (owner[cpu] == ci)
			return vfail(v, epath, "CPU %d is listed twice in this cluster",
				     cpu);
		if (owner[cpu] >= 0)
			return vfail(v, epath, "CPU %d is also in cluster '%s' (clusters[%d]): a CPU belongs to one cluster",
				     cpu, m->clusters[owner[cpu]].name,
				     owner[cpu]);
		owner[cpu] = ci;
	}

	if (check_power(v, cpath, "offline_power", cl->offline_power))
		return -1;
	join(path, cpath, "cap_states");
	if (cl->ncaps < 1)
		return vfail(v, path, "a cluster needs at least one cap state");
	if (cl->ncaps > EA_MODEL_MAX_CAP_STATES)
		return vfail(v, path, "more than %d cap states",
			     EA_MODEL_MAX_CAP_STATES);
	for (int k = 0; k < cl->ncaps; k++) {
		const struct ea_cap_state *cs = &cl->caps[k];
		char fpath[PATH_LEN];

		join_idx(epath, path, k);
		join(fpath, epath, "freq_khz");
		if (cs->freq_khz < 1 || cs->freq_khz > EA_MODEL_MAX_FREQ_KHZ)
			return vfail(v, fpath, "%u is out of range (1..%u kHz)",
				     cs->freq_khz, EA_MODEL_MAX_FREQ_KHZ);
		if (k && cs->freq_khz <= cl->caps[k - 1].freq_khz)
			return vfail(v, fpath, "frequencies must be strictly ascending: %u kHz after %u kHz",
				     cs->freq_khz, cl->caps[k - 1].freq_khz);
		join(fpath, epath, "cap");
		if (cs->cap < 1 || cs->cap > EA_MODEL_MAX_CAP)
			return vfail(v, fpath, "%u is out of range (1..%u)",
				     cs->cap, EA_MODEL_MAX_CAP);
		if (k && cs->cap <= cl->caps[k - 1].cap)
			return vfail(v, fpath, "capacities must be strictly ascending: %u after %u",
				     cs->cap, cl->caps[k - 1].cap);
		if (check_power(v, epath, "core_power", cs->core_power) ||
		    check_power(v, epath, "cluster_power", cs->cluster_power))
			return -1;
	}

	join(path, cpath, "idle_states");
	if (cl->nidles > EA_MODEL_MAX_IDLE_STATES)
		return vfail(v, path, "more than %d idle states",
			     EA_MODEL_MAX_IDLE_STATES);
	for (int k = 0; k < cl->nidles; k++) {
		const struct ea_idle_state *is = &cl->idles[k];
		char npath[PATH_LEN];

		join_idx(epath, path, k);
		join(npath, epath, "name");
		if (!is->name[0])
			return vfail(v, npath, "empty idle state name");
		if (has_control(is->name))
			return vfail(v, npath, "control character in idle state name");
		if (check_text(v, npath, "idle state name", is->name,
			       sizeof(is->name)))
			return -1;
		for (int j = 0; j < k; j++)
			if (ea_utf8_fixed_eq(cl->idles[j].name, is->name))
				return vfail(v, npath, "duplicate idle state name '%s' (also idle_states[%d]%s)",
					     is->name, j,
					     as_written(cl->idles[j].name, is->name));
		if (check_power(v, epath, "core_power", is->core_power) ||
		    check_power(v, epath, "cluster_power", is->cluster_power) ||
		    check_power(v, epath, "core_wakeup", is->core_wakeup) ||
		    check_power(v, epath, "cluster_wakeup", is->cluster_wakeup))
			return -1;
		join(npath, epath, "target_residency_us");
		if (is->target_residency_us > EA_MODEL_MAX_RESIDENCY_US)
			return vfail(v, npath, "%u is out of range (0..%u us)",
				     is->target_residency_us,
				     EA_MODEL_MAX_RESIDENCY_US);
	}
	return 0;
}

int ea_model_validate(const struct ea_model *m, ea_model_fail_fn fail,
		      void *ctx)
{
	struct vctx v = { fail, ctx };
	int *owner, rc = 0;

	if (!m->name[0])
		return vfail(&v, "name", "empty model name");
	if (has_control(m->name))
		return vfail(&v, "name", "control character in model name");
	if (check_text(&v, "name", "model name", m->name, sizeof(m->name)))
		return -1;
	if (!m->power_unit[0])
		return vfail(&v, "power_unit", "empty power unit (say \"mW\", \"uW\" or \"bogo\")");
	if (has_control(m->power_unit))
		return vfail(&v, "power_unit", "control character in power unit");
	if (check_text(&v, "power_unit", "power unit", m->power_unit,
		       sizeof(m->power_unit)))
		return -1;
	if (m->nclusters < 1)
		return vfail(&v, "clusters", "a model needs at least one cluster");
	if (check_power(&v, "", "suspend_power", m->suspend_power))
		return -1;
	owner = malloc(EA_MODEL_MAX_CPUS * sizeof(*owner));
	if (!owner)
		return vfail(&v, "", "out of memory");
	for (int i = 0; i < EA_MODEL_MAX_CPUS; i++)
		owner[i] = -1;
	for (int i = 0; i < m->nclusters && !rc; i++)
		rc = validate_cluster(&v, m, i, owner);
	free(owner);
	return rc;
}

static int64_t micro(double x)
{
	return llround(x * (double)EA_MICRO);
}

int ea_model_derive(struct ea_model *m)
{
	int maxcpu = -1;

	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];

		if (cl->nidles == 0) {
			free(cl->idles);
			cl->idles = calloc(1, sizeof(*cl->idles));
			if (!cl->idles)
				return -1;
			strcpy(cl->idles[0].name, "idle");
			cl->nidles = 1;
			cl->idle_implicit = true;
		}
		for (int k = 0; k < cl->ncaps; k++) {
			struct ea_cap_state *cs = &cl->caps[k];

			cs->core_power_u = micro(cs->core_power);
			cs->cluster_power_u = micro(cs->cluster_power);
		}
		for (int k = 0; k < cl->nidles; k++) {
			struct ea_idle_state *is = &cl->idles[k];

			is->core_power_u = micro(is->core_power);
			is->cluster_power_u = micro(is->cluster_power);
			is->core_wakeup_u = micro(is->core_wakeup);
			is->cluster_wakeup_u = micro(is->cluster_wakeup);
		}
		for (int k = 0; k < cl->ncpus; k++)
			if (cl->cpus[k] > maxcpu)
				maxcpu = cl->cpus[k];
	}
	free(m->cpu_cluster);
	m->ncpus = maxcpu + 1;
	m->cpu_cluster = malloc((size_t)(m->ncpus ? m->ncpus : 1) *
				sizeof(*m->cpu_cluster));
	if (!m->cpu_cluster)
		return -1;
	for (int c = 0; c < m->ncpus; c++)
		m->cpu_cluster[c] = -1;
	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncpus; k++)
			m->cpu_cluster[m->clusters[i].cpus[k]] = i;
	return 0;
}

/* ---- entry points ---- */

struct finish_ctx {
	const struct ea_model *m;
	struct ea_err *err;
};

static int finish_fail(void *ctx, const char *path, const char *msg)
{
	struct finish_ctx *f = ctx;
	const char *who = f->m->path ? f->m->path :
		f->m->name[0] ? f->m->name : "model";

	if (!*path)
		return ea_err_set(f->err, "%s: %s", who, msg);
	return ea_err_set(f->err, "%s: %s: %s", who, path, msg);
}

int ea_model_finish(struct ea_model *m, struct ea_err *err)
{
	struct finish_ctx f = { m, err };

	if (ea_model_validate(m, finish_fail, &f))
		return -1;
	if (ea_model_derive(m))
		return finish_fail(&f, "", "out of memory");
	return 0;
}

int ea_model_load_buffer(struct ea_model **model, const char *text,
			 size_t len, const char *file, struct ea_err *err)
{
	struct loader ld = { .file = file, .err = err };
	struct json_tokener *tok = NULL;
	json_object *root = NULL;
	struct ea_model *m = NULL;
	enum json_tokener_error jerr;
	struct scan sc;
	size_t off;
	char *buf;
	int rc = -1;

	*model = NULL;
	if (len > EA_MODEL_MAX_FILE)
		return ea_err_set(err, "%s: larger than %d MiB: not a model file",
				  file, EA_MODEL_MAX_FILE >> 20);
	buf = malloc(len + 1);
	if (!buf)
		return ea_err_set(err, "%s: out of memory", file);
	memcpy(buf, text, len);
	buf[len] = '\0';
	ld.text = buf;
	ld.len = len;

	off = strlen(buf);
	if (off < len) {
		lfail_at(&ld, off, "NUL byte: a model is a text file");
		goto out;
	}
	if (blank_comments(buf, len, &off)) {
		lfail_at(&ld, off, "unterminated /* comment");
		goto out;
	}
	sc = (struct scan){ buf, len, 0 };
	skip_ws(&sc);
	if (sc.i >= len) {
		lfail_at(&ld, sc.i, "empty model file");
		goto out;
	}
	if (buf[sc.i] != '{') {
		lfail_at(&ld, sc.i, "a model file is one JSON object, '{ ... }'");
		goto out;
	}

	tok = json_tokener_new();
	if (!tok) {
		ea_err_set(err, "%s: out of memory", file);
		goto out;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success) {
		off = json_tokener_get_parse_end(tok);
		if (jerr == json_tokener_continue || jerr == json_tokener_error_parse_eof) {
			/* the line of the last thing there is, not the one after */
			off = len;
			while (off > 0 && strchr(" \t\r\n", buf[off - 1]))
				off--;
			lfail_at(&ld, off ? off - 1 : 0, "JSON syntax error: unexpected end of file (unclosed '{', '[' or string)");
		}
		else
			lfail_at(&ld, off, "JSON syntax error: %s",
				 json_tokener_error_desc(jerr));
		goto out;
	}
	sc.i = json_tokener_get_parse_end(tok);
	skip_ws(&sc);
	if (sc.i < len) {
		lfail_at(&ld, sc.i, "JSON syntax error: text after the model's closing '}'");
		goto out;
	}
	{
		const char *what = NULL;

		off = find_bad_token(buf, len, &what);
		if (off != (size_t)-1) {
			lfail_at(&ld, off, "JSON syntax error: %s", what);
			goto out;
		}
	}
	sc.i = 0;
	off = find_duplicate_key(&sc, 0);
	if (off != (size_t)-1) {
		struct scan k = { buf, len, off };
		const char *key;
		size_t klen;

		read_key(&k, &key, &klen);
		lfail_at(&ld, off, "member '%.*s' given twice in one object",
			 (int)(klen > 60 ? 60 : klen), key);
		goto out;
	}

	m = calloc(1, sizeof(*m));
	if (!m || !(m->path = strdup(file))) {
		ea_err_set(err, "%s: out of memory", file);
		goto out;
	}
	if (load_model(&ld, root, m) ||
	    ea_model_validate(m, lfail_path_msg, &ld))
		goto out;
	if (ea_model_derive(m)) {
		ea_err_set(err, "%s: out of memory", file);
		goto out;
	}
	*model = m;
	m = NULL;
	rc = 0;
out:
	ea_model_free(m);
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(buf);
	return rc;
}

int ea_model_load(struct ea_model **model, const char *path_or_name,
		  struct ea_err *err)
{
	char found[4096];
	const char *path = path_or_name;
	size_t len = 0, size = 0;
	char *text = NULL;
	struct stat st;
	FILE *f;
	int rc;

	*model = NULL;
	if (ea_model_is_name(path_or_name)) {
		if (ea_model_find(path_or_name, found, sizeof(found), err))
			return -1;
		path = found;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return ea_err_set(err, "%s: is a directory, not a model file",
				  path);
	if (ea_input_check(path, err))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	for (;;) {
		char *p;

		if (len == size) {
			if (size > EA_MODEL_MAX_FILE) {
				rc = ea_err_set(err, "%s: larger than %d MiB: not a model file",
						path, EA_MODEL_MAX_FILE >> 20);
				goto out;
			}
			size = size ? size * 2 : 65536;
			p = realloc(text, size);
			if (!p) {
				rc = ea_err_set(err, "%s: out of memory", path);
				goto out;
			}
			text = p;
		}
		len += fread(text + len, 1, size - len, f);
		if (ferror(f)) {
			rc = ea_err_set(err, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (feof(f))
			break;
	}
	rc = ea_model_load_buffer(model, text, len, path, err);
out:
	free(text);
	fclose(f);
	return rc;
}

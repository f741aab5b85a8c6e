// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model loader: native JSON (comments allowed) to struct ea_model, with
 * every value validated and every refusal naming the file, the line and the
 * member at fault: "FILE:LINE: clusters[1].cap_states[2].cap: cause".
 *
 * json-c does not keep positions, so the loader blanks comments itself
 * (keeping offsets), lets json_tokener parse the result (its error offset
 * gives syntax errors their line), and finds the line of a member that fails
 * a semantic check by walking the text along the member's JSON path
 * (json-text.c). The semantic checks are validate.c's, shared with the
 * importers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "eatrace/input.h"
#include "eatrace/model.h"
#include "model/model-priv.h"

struct loader {
	const char *file;
	const char *text;	/* comments blanked */
	size_t len;
	struct ea_err *err;
};

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
		char mpath[EA_JSON_PATH_LEN], list[256] = "";

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
		ea_json_path_key(mpath, path, key);
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
	char mpath[EA_JSON_PATH_LEN];
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
	ea_json_path_key(mpath, path, key);
	return lfail(ld, mpath, "expected %s, got %s", want, type_desc(v));
}

static int get_string(struct loader *ld, json_object *obj, const char *path,
		      const char *key, bool required, char *buf, size_t size)
{
	char mpath[EA_JSON_PATH_LEN];
	json_object *v;
	const char *s;

	if (get(ld, obj, path, key, json_type_string, required, &v))
		return -1;
	if (!v)
		return 0;
	s = json_object_get_string(v);
	ea_json_path_key(mpath, path, key);
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
	char mpath[EA_JSON_PATH_LEN];
	json_object *v;
	int64_t x;

	if (get(ld, obj, path, key, json_type_int, required, &v))
		return -1;
	if (!v)
		return 0;
	x = json_object_get_int64(v);
	ea_json_path_key(mpath, path, key);
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
	"target_residency_us", "exit_latency_us", NULL
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
	is->has_exit_latency = json_object_object_get_ex(o, "exit_latency_us",
							 NULL);
	return get_uint(ld, o, path, "exit_latency_us", false, 0,
			EA_MODEL_MAX_RESIDENCY_US, " us", &is->exit_latency_us);
}

static int load_cluster(struct loader *ld, json_object *o, const char *path,
			struct ea_cluster *cl)
{
	char apath[EA_JSON_PATH_LEN], epath[EA_JSON_PATH_LEN];
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
	ea_json_path_key(apath, path, "cpus");
	cl->cpus = alloc_elems(ld, a, apath, EA_MODEL_MAX_CPUS, "CPUs",
			       sizeof(*cl->cpus), &n);
	if (!cl->cpus)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int64_t x;

		v = json_object_array_get_idx(a, i);
		ea_json_path_idx(epath, apath, (int)i);
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
	ea_json_path_key(apath, path, "cap_states");
	cl->caps = alloc_elems(ld, a, apath, EA_MODEL_MAX_CAP_STATES,
			       "cap states", sizeof(*cl->caps), &n);
	if (!cl->caps)
		return -1;
	for (size_t i = 0; i < n; i++) {
		ea_json_path_idx(epath, apath, (int)i);
		if (load_cap_state(ld, json_object_array_get_idx(a, i), epath,
				   &cl->caps[i]))
			return -1;
		cl->ncaps++;
	}

	if (get(ld, o, path, "idle_states", json_type_array, false, &a))
		return -1;
	if (!a)
		return 0;
	ea_json_path_key(apath, path, "idle_states");
	cl->idles = alloc_elems(ld, a, apath, EA_MODEL_MAX_IDLE_STATES,
				"idle states", sizeof(*cl->idles), &n);
	if (!cl->idles)
		return -1;
	for (size_t i = 0; i < n; i++) {
		ea_json_path_idx(epath, apath, (int)i);
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
		char cpath[EA_JSON_PATH_LEN];

		ea_json_path_idx(cpath, "clusters", (int)i);
		m->nclusters++;
		if (load_cluster(ld, json_object_array_get_idx(a, i), cpath,
				 &m->clusters[i]))
			return -1;
	}
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
	size_t at, off;
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
	if (ea_json_blank_comments(buf, len, &off)) {
		lfail_at(&ld, off, "unterminated /* comment");
		goto out;
	}
	at = ea_json_skip_ws(buf, len, 0);
	if (at >= len) {
		lfail_at(&ld, at, "empty model file");
		goto out;
	}
	if (buf[at] != '{') {
		lfail_at(&ld, at, "a model file is one JSON object, '{ ... }'");
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
	at = ea_json_skip_ws(buf, len, json_tokener_get_parse_end(tok));
	if (at < len) {
		lfail_at(&ld, at, "JSON syntax error: text after the model's closing '}'");
		goto out;
	}
	{
		const char *what = NULL;

		off = ea_json_find_bad_token(buf, len, &what);
		if (off != (size_t)-1) {
			lfail_at(&ld, off, "JSON syntax error: %s", what);
			goto out;
		}
	}
	off = ea_json_find_duplicate_key(buf, len);
	if (off != (size_t)-1) {
		const char *key;
		size_t klen;

		ea_json_key_at(buf, len, off, &key, &klen);
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which files cpp and dtc may read for a dts (dt-compile.c): regular
 * files whose real path is in the source's directory tree or an -I
 * directory, never in the private directory the programs run in. A scan
 * of the source text cannot tell what they read (a macro can name any
 * file: `#define P </proc/self/environ>` then `#include P`), so the
 * programs' own view is checked:
 *
 *  - cpp runs with -H, which names on stderr every file it enters, as it
 *    enters it (so also when it fails later): each must be allowed, else
 *    nothing of that run is used, its messages neither
 *    (ea_dt_check_cpp());
 *  - dtc reads `/include/ "NAME"` (its lexer) and `/incbin/("NAME"...)`
 *    (its parser) and nothing else: cpp's output, where macros are
 *    expanded, is scanned for both before dtc runs, each NAME resolved as
 *    dtc resolves it (the including file's directory, then its -i
 *    directories) and checked, each /include/d file scanned in turn
 *    (ea_dt_check_dtc()); an /incbin/ not followed by ( and a string, with
 *    only blanks, comments and line markers between, is refused;
 *  - dtc -d lists every file it read: each must be one the scan checked
 *    (ea_dt_check_deps()), else its blob and messages are dropped.
 *
 * What stays possible: __has_include() and `#pragma GCC dependency` look
 * at a path outside without reading it (whether it exists can steer an
 * #if); a file swapped for a link between the check and the read.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eatrace/input.h"
#include "model/dt-confine.h"
#include "model/import-priv.h"

#define MAX_DEPTH 64 /* /include/ nesting (dtc's own limit: 100 or 200) */
#define MAX_FILES 4096 /* distinct files dtc may read */

struct ea_dt_confine {
	char **root; /* real paths: the source's directory, -I */
	int nroot;
	char *srcdir; /* as given, for messages */
	char *priv; /* real path of the private directory */
	char **seen; /* files dtc may read, as dtc names them */
	int nseen;
};

static char *dir_of(const char *file)
{
	const char *s = strrchr(file, '/');

	return s ? strndup(file, (size_t)(s == file ? 1 : s - file))
		 : strdup(".");
}

struct ea_dt_confine *ea_dt_confine_new(const char *src,
					const struct ea_import_opts *o)
{
	struct ea_dt_confine *c = calloc(1, sizeof(*c));

	if (!c || !(c->srcdir = dir_of(src)) ||
	    !(c->root = calloc((size_t)o->nincdirs + 1, sizeof(*c->root)))) {
		ea_dt_confine_free(c);
		return NULL;
	}
	/* a directory that does not exist holds nothing to read */
	for (int i = -1; i < o->nincdirs; i++) {
		char *r = realpath(i < 0 ? c->srcdir : o->incdirs[i], NULL);

		if (r)
			c->root[c->nroot++] = r;
	}
	return c;
}

void ea_dt_confine_free(struct ea_dt_confine *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nroot; i++)
		free(c->root[i]);
	for (int i = 0; i < c->nseen; i++)
		free(c->seen[i]);
	free(c->root);
	free(c->seen);
	free(c->srcdir);
	free(c->priv);
	free(c);
}

void ea_dt_confine_private(struct ea_dt_confine *c, const char *dir)
{
	free(c->priv);
	c->priv = realpath(dir, NULL);
}

/* Is real (a real path) dir or below it? */
static bool under(const char *real, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(real, dir, n) && (real[n] == '/' || !real[n]);
}

static const char *kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a plain file";
}

const char *ea_dt_refusal(const struct ea_dt_confine *c, const char *path,
			  char *why, size_t size)
{
	struct ea_err e2;
	struct stat st;
	bool in = false;
	char *real;

	/* stat, not open: opening a device or FIFO can block or act */
	if (stat(path, &st)) {
		snprintf(why, size, "%s", strerror(errno));
		return why;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, size,
			 "not a regular file (%s: reading it could block)",
			 kind(st.st_mode));
		return why;
	}
	real = realpath(path, NULL);
	if (!real) {
		snprintf(why, size, "%s", strerror(errno));
		return why;
	}
	for (int i = 0; i < c->nroot && !in; i++)
		in = under(real, c->root[i]);
	if (c->priv && under(real, c->priv))
		in = false;
	free(real);
	if (!in) {
		snprintf(why, size,
			 "outside the source's directory (%s) and the -I "
			 "directories (add -I DIR to allow DIR)",
			 c->srcdir);
		return why;
	}
	/* a procfs/sysfs/debugfs file in the tree (a source under /) */
	if (ea_input_check(path, &e2)) {
		size_t n = strlen(path);
		const char *m = e2.msg;

		/* the cause only: callers name the path */
		if (!strncmp(m, path, n) && !strncmp(m + n, ": ", 2))
			m += n + 2;
		snprintf(why, size, "%s", m);
		return why;
	}
	return NULL;
}

/* ---- cpp ---- */

/*
 * A line marker of cpp's output, `# LINE "NAME" FLAGS`: its line, NAME
 * unquoted (cpp escapes \, " and newline) into name, its first flag (1:
 * entering NAME, 2: back in it, 0: none). False for any other line.
 */
static bool marker(const char *l, long *line, char *name, size_t size,
		   int *flag)
{
	char *end;
	size_t n = 0;

	if (l[0] != '#' || l[1] != ' ' || l[2] < '0' || l[2] > '9')
		return false;
	*line = strtol(l + 2, &end, 10);
	if (end[0] != ' ' || end[1] != '"')
		return false;
	for (l = end + 2; *l && *l != '"' && *l != '\n'; l++) {
		bool esc = *l == '\\' && l[1];

		l += esc;
		if (n + 1 < size)
			name[n++] = esc && *l == 'n' ? '\n' : *l;
	}
	name[n] = '\0';
	if (*l != '"')
		return false;
	*flag = l[1] == ' ' ? atoi(l + 2) : 0;
	return true;
}

/* Where cpp's output says path was included: "FILE:LINE" into at. */
static bool include_site(const char *out, const char *path, char *at,
			 size_t size)
{
	char(*stack)[1024] = malloc(256 * sizeof(*stack)), name[1024];
	int depth = 0, flag;
	bool found = false;
	long line;

	for (const char *l = out; stack && l && *l && !found;
	     l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!marker(l, &line, name, sizeof(name), &flag))
			continue;
		if (flag == 1 && depth < 256) {
			memcpy(stack[depth++], name, sizeof(name));
		} else if (flag == 2 && depth > 1) {
			/* back from stack[depth - 1], included on line - 1 */
			if (!strcmp(stack[--depth], path)) {
				snprintf(at, size, "%s:%ld", name, line - 1);
				found = true;
			}
			memcpy(stack[depth - 1], name, sizeof(name));
		} else if (!flag) {
			if (!depth)
				depth = 1;
			memcpy(stack[depth - 1], name, sizeof(name));
		}
	}
	free(stack);
	return found;
}

/*
 * When cpp failed (no output): where its messages say path was included,
 * "In file included from FILE:LINE:" right before an error in path.
 */
static bool failed_site(const char *log, const char *path, char *at,
			size_t size)
{
	size_t n = strlen(path);

	for (const char *l = log; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *from = l + 22, *next, *e;

		if (strncmp(l, "In file included from ", 22))
			continue;
		e = from + strcspn(from, ",\n");
		if (e > from && (*e == ',' || e[-1] == ':'))
			e -= *e == ',' ? 0 : 1;
		/* the chain's other lines, "                 from F:L[,:]" */
		for (next = strchr(l, '\n'); next && next[1] == ' ';)
			next = strchr(next + 1, '\n');
		if (next && !strncmp(next + 1, path, n) && next[1 + n] == ':') {
			snprintf(at, size, "%.*s", (int)(e - from), from);
			return true;
		}
	}
	return false;
}

int ea_dt_check_cpp(const struct ea_dt_confine *c, const char *src,
		    const char *log, const char *out, struct ea_err *err)
{
	for (const char *l = log; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t dots = strspn(l, "."), n;
		char *path, why[600], at[1100];

		/* -H: ". FILE", one dot per level of inclusion */
		if (!dots || l[dots] != ' ')
			continue;
		n = strcspn(l + dots + 1, "\n");
		path = strndup(l + dots + 1, n);
		if (!path)
			return ea_err_set(err, "%s: out of memory", src);
		if (ea_dt_refusal(c, path, why, sizeof(why))) {
			if ((!*out ||
			     !include_site(out, path, at, sizeof(at))) &&
			    !failed_site(log, path, at, sizeof(at)))
				snprintf(at, sizeof(at), "%s", src);
			ea_err_set(err, "%s: cannot include: %s: %s", at, path,
				   why);
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* ---- dtc ---- */

/* dtc's join_path(): dir/name, without doubling a slash. */
static char *join(const char *dir, const char *name)
{
	char *p;
	size_t n = strlen(dir);

	if (asprintf(&p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
		     name) < 0)
		return NULL;
	return p;
}

struct scan {
	struct ea_dt_confine *c;
	const char *const *search;
	int nsearch;
	struct ea_err *err;
};

/*
 * The file dtc opens for NAME from a file in cur_dir (fopen_any_on_path()):
 * the first candidate that exists and that it could open (a directory or
 * device opens too, and is then refused). NULL: dtc finds none, and says so.
 */
static char *resolve(const struct scan *s, const char *cur_dir,
		     const char *name)
{
	for (int i = -1; i < s->nsearch; i++) {
		const char *dir = i < 0 ? cur_dir : s->search[i];
		char *full = name[0] == '/' ? strdup(name) : join(dir, name);
		struct stat st;

		if (full && !stat(full, &st) &&
		    (!S_ISREG(st.st_mode) || !access(full, R_OK)))
			return full;
		free(full);
	}
	return NULL;
}

/* A dtc string (`"([^\\"]|\\.)*"`, no newline after a backslash) at q:
 * its length with the quotes, 0 if none. */
static size_t string_len(const char *q)
{
	size_t i = 1;

	if (*q != '"')
		return 0;
	while (q[i] && q[i] != '"') {
		if (q[i] == '\\' && (!q[i + 1] || q[i + 1] == '\n'))
			return 0;
		i += q[i] == '\\' ? 2 : 1;
	}
	return q[i] == '"' ? i + 1 : 0;
}

/* dtc's get_escape_char() on the escape after a backslash at *p; false
 * for \x without a hex digit (dtc dies on it). */
static bool escape(const char **p, char *out)
{
	static const char from[] = "abtnvfr", to[] = "\a\b\t\n\v\f\r";
	const char *c = *p, *hit = strchr(from, *c);
	int v = 0, k = 0;

	if (*c && hit) {
		*out = to[hit - from];
		*p = c + 1;
	} else if (*c >= '0' && *c <= '7') {
		for (; k < 3 && c[k] >= '0' && c[k] <= '7'; k++)
			v = v * 8 + (c[k] - '0');
		*out = (char)v;
		*p = c + k;
	} else if (*c == 'x') {
		for (c++;
		     k < 2 && strchr("0123456789abcdefABCDEF", c[k]) && c[k];
		     k++)
			v = v * 16 +
			    (c[k] <= '9' ? c[k] - '0' : (c[k] | 32) - 'a' + 10);
		if (!k)
			return false;
		*out = (char)v;
		*p = c + k;
	} else {
		*out = *c;
		*p = c + 1;
	}
	return true;
}

/* The value of the string at q (string_len() n) as dtc gives it to fopen:
 * escapes decoded, up to the first NUL. NULL on a bad escape. */
static char *string_value(const char *q, size_t n)
{
	char *v = malloc(n), *o = v;
	const char *p = q + 1, *end = q + n - 1;

	while (v && p < end) {
		char ch = *p++;

		if (ch == '\\' && !escape(&p, &ch)) {
			free(v);
			return NULL;
		}
		*o++ = ch;
	}
	if (v)
		*o = '\0';
	return v;
}

/* A line marker dtc takes (`^#(line)?[ \t]+[0-9]+[ \t]+STRING([ \t]+[0-9]+)*`)
 * at l, a line's start: its length, 0 if none. */
static size_t marker_len(const char *l)
{
	const char *p = l + 1;
	size_t n;

	if (*l != '#')
		return 0;
	if (!strncmp(p, "line", 4))
		p += 4;
	if ((n = strspn(p, " \t")) == 0)
		return 0;
	p += n;
	if ((n = strspn(p, "0123456789")) == 0)
		return 0;
	p += n;
	if ((n = strspn(p, " \t")) == 0)
		return 0;
	p += n;
	if ((n = string_len(p)) == 0)
		return 0;
	p += n;
	for (;;) {
		size_t w = strspn(p, " \t"), d = strspn(p + w, "0123456789");

		if (!w || !d)
			break;
		p += w + d;
	}
	return (size_t)(p - l);
}

/* Past what dtc skips between two tokens: blanks, comments, line markers. */
static const char *skip(const char *text, const char *q)
{
	for (;;) {
		const char *e;
		size_t n;

		if (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' ||
		    *q == '\v' || *q == '\f')
			q++;
		else if (q[0] == '/' && q[1] == '*' &&
			 (e = strstr(q + 2, "*/")))
			q = e + 2;
		else if (q[0] == '/' && q[1] == '/' && (e = strchr(q, '\n')))
			q = e + 1;
		else if ((q == text || q[-1] == '\n') && (n = marker_len(q)))
			q += n;
		else
			return q;
	}
}

static int scan_text(struct scan *s, const char *text, const char *file,
		     const char *cur_dir, bool markers, int depth);

/* Remember full as a file dtc reads; false when it was already. */
static int seen(struct scan *s, const char *full, bool *was)
{
	*was = false;
	for (int i = 0; i < s->c->nseen; i++)
		if (!strcmp(s->c->seen[i], full)) {
			*was = true;
			return 0;
		}
	if (s->c->nseen == MAX_FILES)
		return -1;
	if (!s->c->seen && !(s->c->seen = calloc(MAX_FILES, sizeof(char *))))
		return -1;
	if (!(s->c->seen[s->c->nseen] = strdup(full)))
		return -1;
	s->c->nseen++;
	return 0;
}

/* NAME of /include/ or /incbin/ at file:line: resolved, checked, noted,
 * and an /include/d file scanned. */
static int follow(struct scan *s, const char *file, long line, bool include,
		  const char *name, const char *cur_dir, int depth)
{
	const char *what = include ? "/include/ \"" : "/incbin/(\"";
	const char *end = include ? "\"" : "\")";
	char why[600], *full, *text, *dir;
	size_t len;
	bool was;
	int rc;

	if (!strcmp(name, "-"))
		return ea_err_set(
			s->err,
			"%s:%ld: %s-%s: reads dtc's standard input, not a file",
			file, line, what, end);
	full = resolve(s, cur_dir, name);
	if (!full)
		return 0; /* dtc: Couldn't open */
	if (ea_dt_refusal(s->c, full, why, sizeof(why))) {
		ea_err_set(s->err, "%s:%ld: %s%s%s: cannot read %s: %s", file,
			   line, what, name, end, full, why);
		free(full);
		return -1;
	}
	if (seen(s, full, &was)) {
		free(full);
		return ea_err_set(s->err,
				  "%s:%ld: more than %d files to include", file,
				  line, MAX_FILES);
	}
	if (!include || was) {
		free(full);
		return 0;
	}
	if (depth >= MAX_DEPTH) {
		free(full);
		return ea_err_set(s->err,
				  "%s:%ld: /include/ nested deeper than %d",
				  file, line, MAX_DEPTH);
	}
	if (ea_read_file(full, EA_MODEL_MAX_FILE, &text, &len, s->err)) {
		free(full);
		return -1;
	}
	dir = dir_of(full);
	rc = dir ? scan_text(s, text, full, dir, false, depth + 1)
		 : ea_err_set(s->err, "%s: out of memory", file);
	free(dir);
	free(text);
	free(full);
	return rc;
}

/* One /include/ or /incbin/ at q (file:line). */
static int directive(struct scan *s, const char *text, const char *q,
		     const char *file, long line, const char *cur_dir,
		     int depth)
{
	bool include = q[3] == 'c' && q[4] == 'l';
	const char *p;
	char *name;
	size_t n;
	int rc;

	if (include) {
		/* dtc's lexer: /include/ [[:space:]]* STRING, the name raw */
		p = q + 9 + strspn(q + 9, " \t\n\r\v\f");
		n = string_len(p);
		if (!n)
			return 0; /* not an include to dtc */
		name = strndup(p + 1, n - 2);
	} else {
		/* dtc's parser: /incbin/ ( STRING, its value to fopen() */
		p = skip(text, q + 8);
		n = *p == '(' ? string_len(p = skip(text, p + 1)) : 0;
		if (!n || !(name = string_value(p, n)))
			return ea_err_set(
				s->err,
				"%s:%ld: /incbin/ not followed by "
				"(\"FILE\"...) in a form eatrace reads: it "
				"cannot check which file dtc would read",
				file, line);
	}
	if (!name)
		return ea_err_set(s->err, "%s: out of memory", file);
	rc = follow(s, file, line, include, name, cur_dir, depth);
	free(name);
	return rc;
}

static int scan_text(struct scan *s, const char *text, const char *file,
		     const char *cur_dir, bool markers, int depth)
{
	char at[1024];
	long line = 1, ml;
	int flag;

	snprintf(at, sizeof(at), "%s", file);
	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : NULL, line++) {
		const char *eol = strchrnul(l, '\n');

		/* cpp's line markers: where the next line came from */
		if (markers && marker(l, &ml, at, sizeof(at), &flag)) {
			line = ml - 1;
			continue;
		}
		for (const char *q = l; q < eol; q++) {
			if (*q != '/' || (strncmp(q, "/include/", 9) &&
					  strncmp(q, "/incbin/", 8)))
				continue;
			if (directive(s, text, q, at, line, cur_dir, depth))
				return -1;
		}
	}
	return 0;
}

int ea_dt_check_dtc(struct ea_dt_confine *c, const char *in, const char *text,
		    const char *const *search, int nsearch, struct ea_err *err)
{
	struct scan s = {c, search, nsearch, err};
	char *dir = dir_of(in);
	bool was;
	int rc;

	if (!dir)
		return ea_err_set(err, "%s: out of memory", in);
	rc = seen(&s, in, &was) ? ea_err_set(err, "%s: out of memory", in)
				: scan_text(&s, text, in, dir, true, 0);
	free(dir);
	return rc;
}

/* The name at p in deps, spelt as dtc 1.6 (raw) or 1.7+ ("\ " for a
 * space) writes it: its length, 0 if it is not there. */
static size_t spelt(const char *p, const char *name)
{
	size_t n = strlen(name), k = 0;

	if (!strncmp(p, name, n))
		return n;
	for (const char *c = name; *c; c++) {
		if (*c == ' ' && (p[k] != '\\' || p[k + 1] != ' '))
			return 0;
		if (*c == ' ')
			k++;
		else if (p[k] != *c)
			return 0;
		k++;
	}
	return k;
}

int ea_dt_check_deps(const struct ea_dt_confine *c, const char *src,
		     const char *out, const char *deps, struct ea_err *err)
{
	const char *p = deps;
	size_t n = spelt(p, out);

	if (!n || p[n] != ':')
		return ea_err_set(err,
				  "%s: dtc's list of the files it read is not "
				  "what eatrace reads",
				  src);
	for (p += n + 1; *p == ' ';) {
		size_t best = 0;

		/* the longest name checked that is there, followed by an end */
		for (int i = 0; i < c->nseen; i++) {
			size_t k = spelt(p + 1, c->seen[i]);

			if (k > best &&
			    (!p[1 + k] || p[1 + k] == ' ' || p[1 + k] == '\n'))
				best = k;
		}
		if (!best)
			return ea_err_set(err,
					  "%s: dtc read a file eatrace did not "
					  "check: %.*s",
					  src, (int)strcspn(p + 1, " \n"),
					  p + 1);
		p += 1 + best;
	}
	return *p && *p != '\n' ? ea_err_set(err,
					     "%s: dtc's list of the files it "
					     "read is not what eatrace reads",
					     src)
				: 0;
}

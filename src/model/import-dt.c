// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import the Android/Linaro "sched-energy-costs" device-tree binding
 * (Documentation/devicetree/bindings/scheduler/sched-energy-costs.txt in
 * the Android kernels), from dts source text or a flattened dtb:
 *
 *	cpus {
 *		cpu@0 { ...; sched-energy-costs = <&CPU_COST_0 &CLUSTER_COST_0>; };
 *		energy-costs {
 *			CPU_COST_0: core-cost0 {
 *				busy-cost-data = <417 168  579 251 ...>;	capacity, power
 *				idle-cost-data = <15 0>;			per idle state
 *			};
 *			CLUSTER_COST_0: cluster-cost0 { ... };
 *		};
 *	};
 *
 * The dts reader understands what dtc does that matters here: nodes,
 * labels, &label { } overrides, /include/ and #include "file" (other
 * preprocessor lines are skipped, so macros are not expanded: a property
 * that needs one is unreadable, which only matters if it is one we use),
 * /delete-node/, /delete-property/, <cells> with &label references and
 * (expressions), /bits/ 64, "strings" and [bytes]. The dtb reader follows
 * the flattened device-tree format (version 16 and later).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/import.h"

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9
#define MAX_DEPTH 64
#define MAX_INCLUDE_DEPTH 16

struct dt_fix {
	size_t off;
	char *ref;		/* label, or "{/path}" */
	int line;
};

struct dt_prop {
	char *name;
	uint8_t *val;
	size_t len;
	const char *file;	/* dts: where it was set */
	int line;
	char *bad;		/* why the value is unusable, or NULL */
	struct dt_fix *fix;
	int nfix;
};

struct dt_node {
	char *name;
	char **labels;
	int nlabels;
	struct dt_prop *props;
	int nprops;
	struct dt_node **kids;
	int nkids;
	struct dt_node *parent;
	const char *file;
	int line;
	uint32_t phandle;
	bool deleted;
};

struct src {
	char *file;
	char *text;
	size_t len, pos;
	int line;
	bool bol;		/* at the beginning of a line */
};

struct dt {
	const char *file;	/* SRC */
	struct ea_err *err;
	bool dtb;
	struct dt_node *root;
	/* dts lexer: a stack of sources (includes) */
	struct src stack[MAX_INCLUDE_DEPTH];
	int depth;
	char **files;		/* every file read, for locations */
	int nfiles;
	uint32_t next_phandle;
	int expr_depth;		/* nesting of ( ) and unary operators */
	char loc[512];
};

/* ---- tree ---- */

static void free_prop(struct dt_prop *p)
{
	free(p->name);
	free(p->val);
	free(p->bad);
	for (int i = 0; i < p->nfix; i++)
		free(p->fix[i].ref);
	free(p->fix);
}

static void free_node(struct dt_node *n)
{
	if (!n)
		return;
	for (int i = 0; i < n->nkids; i++)
		free_node(n->kids[i]);
	for (int i = 0; i < n->nprops; i++)
		free_prop(&n->props[i]);
	for (int i = 0; i < n->nlabels; i++)
		free(n->labels[i]);
	free(n->labels);
	free(n->props);
	free(n->kids);
	free(n->name);
	free(n);
}

static struct dt_node *new_node(struct dt_node *parent, const char *name,
				size_t n)
{
	struct dt_node *nd = calloc(1, sizeof(*nd));

	if (!nd)
		return NULL;
	nd->name = strndup(name, n);
	if (!nd->name) {
		free(nd);
		return NULL;
	}
	nd->parent = parent;
	if (parent) {
		struct dt_node **k = realloc(parent->kids,
					     (size_t)(parent->nkids + 1) * sizeof(*k));

		if (!k) {
			free(nd->name);
			free(nd);
			return NULL;
		}
		parent->kids = k;
		k[parent->nkids++] = nd;
	}
	return nd;
}

static struct dt_node *child(const struct dt_node *n, const char *name)
{
	for (int i = 0; n && i < n->nkids; i++)
		if (!n->kids[i]->deleted && !strcmp(n->kids[i]->name, name))
			return n->kids[i];
	return NULL;
}

static struct dt_prop *prop(const struct dt_node *n, const char *name)
{
	for (int i = 0; n && i < n->nprops; i++)
		if (!strcmp(n->props[i].name, name))
			return &n->props[i];
	return NULL;
}

/* Adds a property, replacing one of the same name (its old value freed). */
static struct dt_prop *set_prop(struct dt_node *n, const char *name)
{
	struct dt_prop *p = prop(n, name), *np;

	if (p) {
		free(p->val);
		free(p->bad);
		for (int i = 0; i < p->nfix; i++)
			free(p->fix[i].ref);
		free(p->fix);
		p->val = NULL;
		p->len = 0;
		p->bad = NULL;
		p->fix = NULL;
		p->nfix = 0;
		return p;
	}
	np = realloc(n->props, (size_t)(n->nprops + 1) * sizeof(*np));
	if (!np)
		return NULL;
	n->props = np;
	p = &np[n->nprops];
	memset(p, 0, sizeof(*p));
	p->name = strdup(name);
	if (!p->name)
		return NULL;
	n->nprops++;
	return p;
}

static void del_prop(struct dt_node *n, const char *name)
{
	for (int i = 0; i < n->nprops; i++)
		if (!strcmp(n->props[i].name, name)) {
			free_prop(&n->props[i]);
			memmove(&n->props[i], &n->props[i + 1],
				(size_t)(n->nprops - i - 1) * sizeof(*n->props));
			n->nprops--;
			return;
		}
}

static void path_of(const struct dt_node *n, char *buf, size_t size)
{
	const struct dt_node *chain[MAX_DEPTH + 1];
	int depth = 0;
	size_t len = 0;

	for (; n && n->parent && depth < MAX_DEPTH; n = n->parent)
		chain[depth++] = n;
	buf[0] = '\0';
	if (!depth) {
		snprintf(buf, size, "/");
		return;
	}
	while (depth-- && len < size) {
		int w = snprintf(buf + len, size - len, "/%s", chain[depth]->name);

		if (w < 0)
			break;
		len += (size_t)w;
	}
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* ---- locations and errors ---- */

static const char *node_loc(struct dt *dt, const struct dt_node *n)
{
	char path[256];

	path_of(n, path, sizeof(path));
	if (dt->dtb)
		snprintf(dt->loc, sizeof(dt->loc), "%s: %s", dt->file, path);
	else
		snprintf(dt->loc, sizeof(dt->loc), "%s:%d: %s",
			 n->file ? n->file : dt->file, n->line, path);
	return dt->loc;
}

static const char *prop_loc(struct dt *dt, const struct dt_node *n,
			    const struct dt_prop *p)
{
	char path[256];

	path_of(n, path, sizeof(path));
	if (dt->dtb || !p->line)
		snprintf(dt->loc, sizeof(dt->loc), "%s: %s: %s", dt->file, path,
			 p->name);
	else
		snprintf(dt->loc, sizeof(dt->loc), "%s:%d: %s: %s",
			 p->file ? p->file : dt->file, p->line, path, p->name);
	return dt->loc;
}

/* ---- dts lexer ---- */

static bool is_name_char(int c)
{
	return c >= 0 && (isalnum(c) || strchr(",._+*#?@-", c));
}

static struct src *cur(struct dt *dt)
{
	return &dt->stack[dt->depth - 1];
}

static int lfail(struct dt *dt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int lfail(struct dt *dt, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	struct src *s = cur(dt);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ea_err_set(dt->err, "%s:%d: %s", s->file, s->line, msg);
}

static int peekc(struct dt *dt)
{
	struct src *s = cur(dt);

	return s->pos < s->len ? (unsigned char)s->text[s->pos] : -1;
}

static int peekc2(struct dt *dt)
{
	struct src *s = cur(dt);

	return s->pos + 1 < s->len ? (unsigned char)s->text[s->pos + 1] : -1;
}

static void getc_(struct dt *dt)
{
	struct src *s = cur(dt);

	if (s->pos >= s->len)
		return;
	if (s->text[s->pos] == '\n') {
		s->line++;
		s->bol = true;
	} else if (!isspace((unsigned char)s->text[s->pos])) {
		s->bol = false;
	}
	s->pos++;
}

static int push_file(struct dt *dt, const char *path)
{
	struct src *s;
	char *text, **nf, *name;
	size_t len;

	if (dt->depth >= MAX_INCLUDE_DEPTH)
		return lfail(dt, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
	if (ea_read_file(path, EA_MODEL_MAX_FILE, &text, &len, dt->err)) {
		if (dt->depth) {
			char msg[EA_ERR_MAX];

			snprintf(msg, sizeof(msg), "%s", dt->err->msg);
			return lfail(dt, "cannot include: %s", msg);
		}
		return -1;
	}
	if (strlen(text) != len) {
		free(text);
		if (dt->depth)
			return lfail(dt, "%s: NUL byte: not dts text", path);
		return ea_err_set(dt->err, "%s: NUL byte: not dts text", path);
	}
	name = strdup(path);
	nf = realloc(dt->files, (size_t)(dt->nfiles + 1) * sizeof(*nf));
	if (!name || !nf) {
		free(name);
		free(text);
		if (nf)
			dt->files = nf;
		return ea_err_set(dt->err, "%s: out of memory", path);
	}
	dt->files = nf;
	nf[dt->nfiles++] = name;
	s = &dt->stack[dt->depth++];
	memset(s, 0, sizeof(*s));
	s->file = name;
	s->text = text;
	s->len = len;
	s->line = 1;
	s->bol = true;
	return 0;
}

/* Path of an include: relative to the including file's directory. */
static char *include_path(struct dt *dt, const char *name)
{
	const char *slash = strrchr(cur(dt)->file, '/');
	char *p;

	if (name[0] == '/' || !slash)
		return strdup(name);
	if (asprintf(&p, "%.*s/%s", (int)(slash - cur(dt)->file), cur(dt)->file,
		     name) < 0)
		return NULL;
	return p;
}

static int do_include(struct dt *dt, const char *name)
{
	char *path = include_path(dt, name);
	int rc;

	if (!path)
		return lfail(dt, "out of memory");
	rc = push_file(dt, path);
	free(path);
	return rc;
}

/*
 * A '#' at the beginning of a line: a preprocessor directive (skipped, or
 * an #include "file" followed) or a cpp line marker; *was = false when it
 * is a property name such as #address-cells instead.
 */
static int preprocessor(struct dt *dt, bool *was)
{
	static const char *const dirs[] = {
		"include", "define", "undef", "if", "ifdef", "ifndef", "elif",
		"else", "endif", "error", "warning", "pragma", "line", NULL
	};
	struct src *s = cur(dt);
	const char *p = s->text + s->pos + 1, *end = s->text + s->len;
	const char *w;
	size_t n;

	*was = false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (!(p < end && isdigit((unsigned char)*p))) {	/* "# 12 file" */
		bool known = false;

		w = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		n = (size_t)(p - w);
		if (p < end && is_name_char((unsigned char)*p))
			return 0;	/* #address-cells and friends */
		for (int i = 0; dirs[i]; i++)
			if (strlen(dirs[i]) == n && !strncmp(w, dirs[i], n))
				known = true;
		if (!known)
			return 0;
		if (n == 7 && !strncmp(w, "include", 7)) {
			const char *q = p, *qe;
			char name[512];

			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			qe = q < end && *q == '"' ?
			     memchr(q + 1, '"', (size_t)(end - q - 1)) : NULL;
			if (qe && (size_t)(qe - q - 1) < sizeof(name)) {
				size_t len = (size_t)(qe - q - 1);

				memcpy(name, q + 1, len);
				name[len] = '\0';
				*was = true;
				while (peekc(dt) >= 0 && peekc(dt) != '\n')
					getc_(dt);
				if (len > 2 && !strcmp(name + len - 2, ".h"))
					return 0;	/* macros only */
				return do_include(dt, name);
			}
			/* #include <...>: dt-bindings headers, macros only */
		}
	}
	*was = true;
	while (peekc(dt) >= 0 && peekc(dt) != '\n') {
		if (peekc(dt) == '\\' && peekc2(dt) == '\n')
			getc_(dt);
		getc_(dt);
	}
	return 0;
}

/* Skips white space, comments and preprocessor lines; pops ended includes. */
static int skip_ws(struct dt *dt)
{
	for (;;) {
		int c = peekc(dt);

		if (c < 0) {
			if (dt->depth > 1) {
				free(cur(dt)->text);
				cur(dt)->text = NULL;
				dt->depth--;
				continue;
			}
			return 0;
		}
		if (isspace(c)) {
			getc_(dt);
		} else if (c == '/' && peekc2(dt) == '*') {
			int line = cur(dt)->line;

			getc_(dt);
			getc_(dt);
			while (peekc(dt) >= 0 && !(peekc(dt) == '*' && peekc2(dt) == '/'))
				getc_(dt);
			if (peekc(dt) < 0) {
				cur(dt)->line = line;
				return lfail(dt, "unterminated /* comment");
			}
			getc_(dt);
			getc_(dt);
		} else if (c == '/' && peekc2(dt) == '/') {
			while (peekc(dt) >= 0 && peekc(dt) != '\n')
				getc_(dt);
		} else if (c == '#' && cur(dt)->bol) {
			bool was;

			if (preprocessor(dt, &was))
				return -1;
			if (!was)
				return 0;
		} else {
			return 0;
		}
	}
}

/* A node or property name, or a label. Returns its length (0: none). */
static size_t word(struct dt *dt, char *buf, size_t size)
{
	size_t n = 0;

	while (is_name_char(peekc(dt))) {
		if (n + 1 < size)
			buf[n] = (char)peekc(dt);
		n++;
		getc_(dt);
	}
	buf[n < size ? n : size - 1] = '\0';
	return n;
}

/* A /keyword/ at the cursor (without consuming it)? */
static bool at_kw(struct dt *dt, const char *kw)
{
	struct src *s = cur(dt);
	size_t n = strlen(kw);

	return s->pos + n <= s->len && !memcmp(s->text + s->pos, kw, n);
}

static void skip_n(struct dt *dt, size_t n)
{
	while (n--)
		getc_(dt);
}

static int expect(struct dt *dt, int c)
{
	if (skip_ws(dt))
		return -1;
	if (peekc(dt) != c) {
		int got = peekc(dt);

		if (got < 0)
			return lfail(dt, "expected '%c', got the end of the file", c);
		return lfail(dt, "expected '%c', got '%c'", c, got);
	}
	getc_(dt);
	return 0;
}

/* ---- dts values ---- */

struct vbuf {
	uint8_t *b;
	size_t len, cap;
};

static int vput(struct vbuf *v, const void *p, size_t n)
{
	if (v->len + n > v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		uint8_t *nb;

		while (cap < v->len + n)
			cap *= 2;
		if (cap > EA_MODEL_MAX_FILE)
			return -1;
		nb = realloc(v->b, cap);
		if (!nb)
			return -1;
		v->b = nb;
		v->cap = cap;
	}
	memcpy(v->b + v->len, p, n);
	v->len += n;
	return 0;
}

static void mark_bad(struct dt *dt, struct dt_prop *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void mark_bad(struct dt *dt, struct dt_prop *p, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (p->bad)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (asprintf(&p->bad, "%s:%d: %s", cur(dt)->file, cur(dt)->line, msg) < 0)
		p->bad = NULL;
}

/* A C integer literal; returns 0, or -1 when there is none. */
static int literal(struct dt *dt, uint64_t *v, char *tok, size_t toksz)
{
	size_t n = 0;
	char *e;

	if (peekc(dt) == '\'') {
		getc_(dt);
		if (peekc(dt) < 0)
			return -1;
		*v = (uint64_t)peekc(dt);
		getc_(dt);
		if (peekc(dt) != '\'')
			return -1;
		getc_(dt);
		snprintf(tok, toksz, "'%c'", (int)*v);
		return 0;
	}
	while (isalnum(peekc(dt)) || peekc(dt) == '_') {
		if (n + 1 < toksz)
			tok[n++] = (char)peekc(dt);
		getc_(dt);
	}
	tok[n] = '\0';
	if (!n || !isdigit((unsigned char)tok[0]))
		return -1;
	errno = 0;
	*v = strtoull(tok, &e, 0);
	if (errno)
		return -1;
	while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L')
		e++;
	return *e ? -1 : 0;
}

static int expr(struct dt *dt, uint64_t *v, char *tok, size_t toksz, int prec);

static int primary_(struct dt *dt, uint64_t *v, char *tok, size_t toksz);

static int primary(struct dt *dt, uint64_t *v, char *tok, size_t toksz)
{
	int rc;

	if (dt->expr_depth >= 256) {
		snprintf(tok, toksz, "(nested too deep)");
		return -1;
	}
	dt->expr_depth++;
	rc = primary_(dt, v, tok, toksz);
	dt->expr_depth--;
	return rc;
}

static int primary_(struct dt *dt, uint64_t *v, char *tok, size_t toksz)
{
	int c;

	if (skip_ws(dt))
		return -1;
	c = peekc(dt);
	if (c == '(') {
		getc_(dt);
		if (expr(dt, v, tok, toksz, 0))
			return -1;
		if (skip_ws(dt) || peekc(dt) != ')')
			return -1;
		getc_(dt);
		return 0;
	}
	if (c == '-' || c == '~' || c == '!') {
		getc_(dt);
		if (primary(dt, v, tok, toksz))
			return -1;
		*v = c == '-' ? (uint64_t)0 - *v : c == '~' ? ~*v : !*v;
		return 0;
	}
	return literal(dt, v, tok, toksz);
}

/* Binary operators by precedence: | ^ & << >> + - * / % */
static int binop(struct dt *dt, int *prec, int *len)
{
	int c = peekc(dt), c2 = peekc2(dt);

	*len = 1;
	switch (c) {
	case '|': *prec = 1; return c2 == '|' ? 0 : '|';
	case '^': *prec = 2; return '^';
	case '&': *prec = 3; return c2 == '&' ? 0 : '&';
	case '<': *len = 2; *prec = 4; return c2 == '<' ? 'l' : 0;
	case '>': *len = 2; *prec = 4; return c2 == '>' ? 'r' : 0;
	case '+': *prec = 5; return '+';
	case '-': *prec = 5; return '-';
	case '*': *prec = 6; return '*';
	case '/': *prec = 6; return '/';
	case '%': *prec = 6; return '%';
	}
	return 0;
}

static int expr(struct dt *dt, uint64_t *v, char *tok, size_t toksz, int min)
{
	if (primary(dt, v, tok, toksz))
		return -1;
	for (;;) {
		uint64_t r;
		int prec, len, op;

		if (skip_ws(dt))
			return -1;
		op = binop(dt, &prec, &len);
		if (!op || prec <= min)
			return 0;
		skip_n(dt, (size_t)len);
		if (expr(dt, &r, tok, toksz, prec))
			return -1;
		switch (op) {
		case '|': *v |= r; break;
		case '^': *v ^= r; break;
		case '&': *v &= r; break;
		case 'l': *v = r < 64 ? *v << r : 0; break;
		case 'r': *v = r < 64 ? *v >> r : 0; break;
		case '+': *v += r; break;
		case '-': *v -= r; break;
		case '*': *v *= r; break;
		case '/':
		case '%':
			if (!r)
				return -1;
			*v = op == '/' ? *v / r : *v % r;
			break;
		}
	}
}

/* Skip to the '>' closing a cell list (after an unreadable cell). */
static int skip_cells(struct dt *dt)
{
	int depth = 0;

	for (;;) {
		int c;

		if (skip_ws(dt))
			return -1;
		c = peekc(dt);
		if (c < 0 || c == ';' || c == '{' || c == '}')
			return lfail(dt, "unterminated <cell list>");
		getc_(dt);
		if (c == '(')
			depth++;
		else if (c == ')' && depth)
			depth--;
		else if (c == '>' && !depth)
			return 0;
	}
}

static int add_fix(struct dt_prop *p, size_t off, const char *ref, int line)
{
	struct dt_fix *nf = realloc(p->fix, (size_t)(p->nfix + 1) * sizeof(*nf));

	if (!nf)
		return -1;
	p->fix = nf;
	nf[p->nfix].off = off;
	nf[p->nfix].line = line;
	nf[p->nfix].ref = strdup(ref);
	if (!nf[p->nfix].ref)
		return -1;
	p->nfix++;
	return 0;
}

/* "&label" or "&{/path}" after the '&'; into buf. */
static int reference(struct dt *dt, char *buf, size_t size)
{
	size_t n = 0;

	if (peekc(dt) == '{') {
		while (peekc(dt) >= 0 && peekc(dt) != '}') {
			if (n + 2 < size)
				buf[n++] = (char)peekc(dt);
			getc_(dt);
		}
		if (peekc(dt) != '}')
			return lfail(dt, "unterminated &{path}");
		getc_(dt);
		buf[n++] = '}';
		buf[n] = '\0';
		return 0;
	}
	n = word(dt, buf, size);
	if (!n)
		return lfail(dt, "expected a label after '&'");
	return 0;
}

static int cells(struct dt *dt, struct dt_prop *p, struct vbuf *v, int bits)
{
	for (;;) {
		char tok[64];
		uint64_t x;
		int c;

		if (skip_ws(dt))
			return -1;
		c = peekc(dt);
		if (c == '>') {
			getc_(dt);
			return 0;
		}
		if (c < 0 || c == ';')
			return lfail(dt, "unterminated <cell list>");
		if (c == '&') {
			char ref[256];
			uint8_t zero[4] = { 0 };
			int line = cur(dt)->line;

			getc_(dt);
			if (reference(dt, ref, sizeof(ref)))
				return -1;
			if (bits != 32) {
				mark_bad(dt, p, "&%s in a /bits/ %d cell list", ref, bits);
				continue;
			}
			if (add_fix(p, v->len, ref, line) || vput(v, zero, 4))
				return lfail(dt, "out of memory");
			continue;
		}
		if (isalpha(c) || c == '_') {
			size_t n = word(dt, tok, sizeof(tok));

			if (skip_ws(dt))
				return -1;
			if (n && peekc(dt) == ':') {	/* a label inside cells */
				getc_(dt);
				continue;
			}
			mark_bad(dt, p, "'%s' is not a number (macros are not expanded: run cpp over the file, or compile it with dtc and import the .dtb)",
				 tok);
			return skip_cells(dt);
		}
		tok[0] = '\0';
		if (primary(dt, &x, tok, sizeof(tok))) {
			mark_bad(dt, p, "unreadable cell value '%s'", tok);
			return skip_cells(dt);
		}
		if (bits < 64 && x >> bits && ~x >> (bits - 1)) {
			mark_bad(dt, p, "%s does not fit in %d bits", tok, bits);
			x &= (1ull << bits) - 1;
		}
		for (int i = bits / 8 - 1; i >= 0; i--) {
			uint8_t byte = (uint8_t)(x >> (8 * i));

			if (vput(v, &byte, 1))
				return lfail(dt, "out of memory");
		}
	}
}

static int string_lit(struct dt *dt, struct vbuf *v)
{
	getc_(dt);	/* '"' */
	for (;;) {
		int c = peekc(dt);
		uint8_t b;

		if (c < 0 || c == '\n')
			return lfail(dt, "unterminated string");
		getc_(dt);
		if (c == '"')
			break;
		if (c == '\\') {
			c = peekc(dt);
			if (c < 0)
				return lfail(dt, "unterminated string");
			getc_(dt);
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? 0 : c;
		}
		b = (uint8_t)c;
		if (vput(v, &b, 1))
			return lfail(dt, "out of memory");
	}
	return vput(v, "", 1) ? lfail(dt, "out of memory") : 0;
}

static int bytes_lit(struct dt *dt, struct vbuf *v)
{
	getc_(dt);	/* '[' */
	for (;;) {
		char hex[3] = { 0 };
		uint8_t b;

		if (skip_ws(dt))
			return -1;
		if (peekc(dt) == ']') {
			getc_(dt);
			return 0;
		}
		for (int i = 0; i < 2; i++) {
			if (!isxdigit(peekc(dt)))
				return lfail(dt, "expected hex bytes in [ ]");
			hex[i] = (char)peekc(dt);
			getc_(dt);
		}
		b = (uint8_t)strtoul(hex, NULL, 16);
		if (vput(v, &b, 1))
			return lfail(dt, "out of memory");
	}
}

/* The value after '=' up to and including ';'. */
static int value(struct dt *dt, struct dt_prop *p)
{
	struct vbuf v = { 0 };

	for (;;) {
		int c, bits = 32;

		if (skip_ws(dt))
			goto fail;
		c = peekc(dt);
		if (at_kw(dt, "/bits/")) {
			char tok[32];
			uint64_t b;

			skip_n(dt, 6);
			if (skip_ws(dt))
				goto fail;
			if (literal(dt, &b, tok, sizeof(tok)) ||
			    (b != 8 && b != 16 && b != 32 && b != 64)) {
				lfail(dt, "/bits/ must be 8, 16, 32 or 64");
				goto fail;
			}
			bits = (int)b;
			if (skip_ws(dt))
				goto fail;
			c = peekc(dt);
			if (c != '<') {
				lfail(dt, "expected '<' after /bits/ %d", bits);
				goto fail;
			}
		}
		if (c == '<') {
			getc_(dt);
			if (cells(dt, p, &v, bits))
				goto fail;
		} else if (c == '"') {
			if (string_lit(dt, &v))
				goto fail;
		} else if (c == '[') {
			if (bytes_lit(dt, &v))
				goto fail;
		} else if (c == '&') {
			char ref[256];

			getc_(dt);
			if (reference(dt, ref, sizeof(ref)))
				goto fail;
			mark_bad(dt, p, "a path reference (&%s) is not supported here", ref);
		} else if (isalpha(c) || c == '_') {
			char tok[64];

			word(dt, tok, sizeof(tok));
			if (skip_ws(dt))
				goto fail;
			if (peekc(dt) == ':') {	/* label before a value */
				getc_(dt);
				continue;
			}
			mark_bad(dt, p, "'%s' is not a value (macros are not expanded)", tok);
		} else {
			lfail(dt, c < 0 ? "expected a property value, got the end of the file" :
				  "expected a property value");
			goto fail;
		}
		if (skip_ws(dt))
			goto fail;
		c = peekc(dt);
		if (c == ',') {
			getc_(dt);
			continue;
		}
		if (c == ';') {
			getc_(dt);
			break;
		}
		lfail(dt, "expected ',' or ';' after a property value");
		goto fail;
	}
	p->val = v.b;
	p->len = v.len;
	return 0;
fail:
	free(v.b);
	return -1;
}

/* ---- dts structure ---- */

static struct dt_node *find_label(struct dt_node *n, const char *label)
{
	if (n->deleted)
		return NULL;
	for (int i = 0; i < n->nlabels; i++)
		if (!strcmp(n->labels[i], label))
			return n;
	for (int i = 0; i < n->nkids; i++) {
		struct dt_node *f = find_label(n->kids[i], label);

		if (f)
			return f;
	}
	return NULL;
}

static struct dt_node *find_path(struct dt_node *root, const char *path)
{
	struct dt_node *n = root;
	char part[256];

	while (*path == '/')
		path++;
	while (*path && n) {
		size_t len = strcspn(path, "/");
		struct dt_node *m = NULL;

		if (len >= sizeof(part))
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		m = child(n, part);
		if (!m && !strchr(part, '@'))	/* "cpus" matches "cpus@0" too */
			for (int i = 0; i < n->nkids && !m; i++)
				if (!n->kids[i]->deleted &&
				    !strncmp(n->kids[i]->name, part, len) &&
				    n->kids[i]->name[len] == '@')
					m = n->kids[i];
		n = m;
		path += len;
		while (*path == '/')
			path++;
	}
	return n;
}

/* &label or &{/path} after '&': the node, which must exist. */
static struct dt_node *ref_node(struct dt *dt, const char *ref)
{
	struct dt_node *n;

	if (ref[0] == '{') {
		char path[256];

		snprintf(path, sizeof(path), "%.*s", (int)strlen(ref) - 2, ref + 1);
		n = find_path(dt->root, path);
	} else {
		n = find_label(dt->root, ref);
	}
	return n;
}

static int add_label(struct dt_node *n, const char *label)
{
	char **nl;

	for (int i = 0; i < n->nlabels; i++)
		if (!strcmp(n->labels[i], label))
			return 0;
	nl = realloc(n->labels, (size_t)(n->nlabels + 1) * sizeof(*nl));
	if (!nl)
		return -1;
	n->labels = nl;
	nl[n->nlabels] = strdup(label);
	if (!nl[n->nlabels])
		return -1;
	n->nlabels++;
	return 0;
}

static int body(struct dt *dt, struct dt_node *n, int depth);

/* After "name {": the rest of a node. */
static int node_rest(struct dt *dt, struct dt_node *n, int depth)
{
	if (depth > MAX_DEPTH)
		return lfail(dt, "nodes nested more than %d deep", MAX_DEPTH);
	if (body(dt, n, depth) || expect(dt, '}') || expect(dt, ';'))
		return -1;
	return 0;
}

static int body(struct dt *dt, struct dt_node *n, int depth)
{
	for (;;) {
		char labels[8][128], name[256];
		int nlabels = 0, c, line;
		size_t len;

		if (skip_ws(dt))
			return -1;
		c = peekc(dt);
		if (c == '}')
			return 0;
		if (c < 0)
			return lfail(dt, "unexpected end of file inside a node (missing '}')");
		if (at_kw(dt, "/delete-node/")) {
			struct dt_node *d;

			skip_n(dt, 13);
			if (skip_ws(dt))
				return -1;
			if (peekc(dt) == '&') {
				char ref[256];

				getc_(dt);
				if (reference(dt, ref, sizeof(ref)))
					return -1;
				d = ref_node(dt, ref);
			} else {
				if (!word(dt, name, sizeof(name)))
					return lfail(dt, "expected a node name after /delete-node/");
				d = child(n, name);
			}
			if (d)
				d->deleted = true;
			if (expect(dt, ';'))
				return -1;
			continue;
		}
		if (at_kw(dt, "/delete-property/")) {
			skip_n(dt, 17);
			if (skip_ws(dt))
				return -1;
			if (!word(dt, name, sizeof(name)))
				return lfail(dt, "expected a property name after /delete-property/");
			del_prop(n, name);
			if (expect(dt, ';'))
				return -1;
			continue;
		}
		if (at_kw(dt, "/omit-if-no-ref/")) {
			skip_n(dt, 16);
			continue;
		}
		for (;;) {
			line = cur(dt)->line;
			len = word(dt, name, sizeof(name));
			if (!len)
				return lfail(dt, "expected a property or node name, got '%c'",
					     peekc(dt) < 0 ? '?' : peekc(dt));
			if (len >= sizeof(name))
				return lfail(dt, "name too long");
			if (skip_ws(dt))
				return -1;
			if (peekc(dt) != ':')
				break;
			getc_(dt);
			if (nlabels < 8)
				snprintf(labels[nlabels++], sizeof(labels[0]), "%.127s", name);
			if (skip_ws(dt))
				return -1;
		}
		c = peekc(dt);
		if (c == '{') {
			struct dt_node *k = child(n, name);

			getc_(dt);
			if (!k) {
				k = new_node(n, name, strlen(name));
				if (!k)
					return lfail(dt, "out of memory");
				k->file = cur(dt)->file;
				k->line = line;
			}
			for (int i = 0; i < nlabels; i++)
				if (add_label(k, labels[i]))
					return lfail(dt, "out of memory");
			if (node_rest(dt, k, depth + 1))
				return -1;
		} else if (c == '=' || c == ';') {
			struct dt_prop *p = set_prop(n, name);

			if (!p)
				return lfail(dt, "out of memory");
			p->file = cur(dt)->file;
			p->line = line;
			getc_(dt);
			if (c == '=' && value(dt, p))
				return -1;
		} else {
			return lfail(dt, "expected '{', '=' or ';' after '%s'", name);
		}
	}
}

static int parse_dts(struct dt *dt)
{
	dt->root = new_node(NULL, "", 0);
	if (!dt->root)
		return ea_err_set(dt->err, "%s: out of memory", dt->file);
	dt->root->file = dt->file;
	dt->root->line = 1;
	if (push_file(dt, dt->file))
		return -1;
	for (;;) {
		char ref[256];
		int c;

		if (skip_ws(dt))
			return -1;
		c = peekc(dt);
		if (c < 0)
			return 0;
		if (at_kw(dt, "/dts-v1/") || at_kw(dt, "/plugin/")) {
			skip_n(dt, at_kw(dt, "/dts-v1/") ? 8 : 8);
			if (expect(dt, ';'))
				return -1;
			continue;
		}
		if (at_kw(dt, "/memreserve/")) {
			while (peekc(dt) >= 0 && peekc(dt) != ';')
				getc_(dt);
			if (expect(dt, ';'))
				return -1;
			continue;
		}
		if (at_kw(dt, "/include/")) {
			struct vbuf v = { 0 };
			int rc;

			skip_n(dt, 9);
			if (skip_ws(dt))
				return -1;
			if (peekc(dt) != '"')
				return lfail(dt, "expected \"file\" after /include/");
			if (string_lit(dt, &v)) {
				free(v.b);
				return -1;
			}
			rc = do_include(dt, (char *)v.b);
			free(v.b);
			if (rc)
				return -1;
			continue;
		}
		if (at_kw(dt, "/delete-node/")) {
			struct dt_node *d;

			skip_n(dt, 13);
			if (skip_ws(dt) || expect(dt, '&') ||
			    reference(dt, ref, sizeof(ref)))
				return -1;
			d = ref_node(dt, ref);
			if (d && d != dt->root)
				d->deleted = true;
			if (expect(dt, ';'))
				return -1;
			continue;
		}
		if (at_kw(dt, "/omit-if-no-ref/")) {
			skip_n(dt, 16);
			continue;
		}
		if (c == '/') {
			getc_(dt);
			if (expect(dt, '{') || node_rest(dt, dt->root, 1))
				return -1;
			continue;
		}
		if (c == '&') {
			struct dt_node *n;

			getc_(dt);
			if (reference(dt, ref, sizeof(ref)))
				return -1;
			n = ref_node(dt, ref);
			if (!n)
				return lfail(dt, "&%s: no such node defined before this point",
					     ref);
			if (expect(dt, '{') || node_rest(dt, n, 1))
				return -1;
			continue;
		}
		if (isalpha(c) || c == '_') {	/* "label: / { ... };" */
			char name[128];

			word(dt, name, sizeof(name));
			if (skip_ws(dt))
				return -1;
			if (peekc(dt) == ':') {
				getc_(dt);
				if (add_label(dt->root, name))
					return lfail(dt, "out of memory");
				continue;
			}
			return lfail(dt, "'%s': expected '/ {', '&label {' or a /directive/ at the top level",
				     name);
		}
		return lfail(dt, "expected '/ {', '&label {' or a /directive/ at the top level");
	}
}

/* Give referenced nodes phandles and patch the references. */
static uint32_t max_phandle(struct dt_node *n)
{
	uint32_t m = n->phandle;

	for (int i = 0; i < n->nkids; i++) {
		uint32_t k = max_phandle(n->kids[i]);

		if (k > m)
			m = k;
	}
	return m;
}

static void explicit_phandles(struct dt_node *n)
{
	struct dt_prop *p = prop(n, "phandle");

	if (!p)
		p = prop(n, "linux,phandle");
	if (p && !p->bad && !p->nfix && p->len == 4)
		n->phandle = be32(p->val);
	for (int i = 0; i < n->nkids; i++)
		explicit_phandles(n->kids[i]);
}

static int resolve(struct dt *dt, struct dt_node *n)
{
	for (int i = 0; i < n->nprops; i++) {
		struct dt_prop *p = &n->props[i];

		for (int k = 0; k < p->nfix; k++) {
			struct dt_node *t = ref_node(dt, p->fix[k].ref);

			if (!t) {
				if (!p->bad && asprintf(&p->bad, "%s:%d: &%s: no such label",
							p->file ? p->file : dt->file,
							p->fix[k].line, p->fix[k].ref) < 0)
					p->bad = NULL;
				continue;
			}
			if (!t->phandle)
				t->phandle = ++dt->next_phandle;
			put_be32(p->val + p->fix[k].off, t->phandle);
		}
	}
	for (int i = 0; i < n->nkids; i++)
		if (resolve(dt, n->kids[i]))
			return -1;
	return 0;
}

/* ---- dtb ---- */

static int parse_dtb(struct dt *dt, const uint8_t *b, size_t len)
{
	uint32_t total, off_struct, off_strings, version, size_strings,
		 size_struct;
	struct dt_node *n = NULL;
	size_t pos, end;
	int depth = 0;

	if (len < 40)
		return ea_err_set(dt->err, "%s: truncated dtb header", dt->file);
	total = be32(b + 4);
	off_struct = be32(b + 8);
	off_strings = be32(b + 12);
	version = be32(b + 20);
	size_strings = be32(b + 32);
	size_struct = version >= 17 ? be32(b + 36) : 0;
	if (total > len)
		return ea_err_set(dt->err, "%s: truncated dtb (header says %u bytes, file has %zu)",
				  dt->file, total, len);
	if (version < 16)
		return ea_err_set(dt->err, "%s: dtb version %u is too old (16 or later)",
				  dt->file, version);
	/* 17 is the newest version there is (and libfdt's last) */
	if (version > 17 || be32(b + 24) > 17)
		return ea_err_set(dt->err, "%s: offset 20: dtb version %u (compatible with %u) "
				  "not supported (16 or 17)", dt->file, version, be32(b + 24));
	if (off_struct >= total || off_strings > total ||
	    size_strings > total - off_strings ||
	    (size_struct && size_struct > total - off_struct))
		return ea_err_set(dt->err, "%s: offset 8: dtb block offsets out of range",
				  dt->file);
	pos = off_struct;
	end = size_struct ? off_struct + size_struct : total;
	for (;;) {
		uint32_t tok;

		if (pos + 4 > end)
			return ea_err_set(dt->err, "%s: offset %zu: dtb structure block ends without FDT_END",
					  dt->file, pos);
		tok = be32(b + pos);
		pos += 4;
		if (tok == FDT_BEGIN_NODE) {
			const uint8_t *z = memchr(b + pos, '\0', end - pos);
			size_t nlen;

			if (!z)
				return ea_err_set(dt->err, "%s: offset %zu: unterminated node name",
						  dt->file, pos);
			nlen = (size_t)(z - (b + pos));
			if (++depth > MAX_DEPTH)
				return ea_err_set(dt->err, "%s: offset %zu: nodes nested more than %d deep",
						  dt->file, pos, MAX_DEPTH);
			if (!n && dt->root)
				return ea_err_set(dt->err, "%s: offset %zu: a second root node",
						  dt->file, pos);
			n = new_node(n, (const char *)b + pos, nlen);
			if (!n)
				return ea_err_set(dt->err, "%s: out of memory", dt->file);
			if (!dt->root)
				dt->root = n;
			pos = (pos + nlen + 1 + 3) & ~(size_t)3;
		} else if (tok == FDT_END_NODE) {
			if (!n)
				return ea_err_set(dt->err, "%s: offset %zu: FDT_END_NODE outside a node",
						  dt->file, pos - 4);
			n = n->parent;
			depth--;
		} else if (tok == FDT_PROP) {
			uint32_t plen, nameoff;
			const uint8_t *z;
			struct dt_prop *p;

			if (!n)
				return ea_err_set(dt->err, "%s: offset %zu: property outside a node",
						  dt->file, pos - 4);
			if (pos + 8 > end)
				return ea_err_set(dt->err, "%s: offset %zu: truncated property",
						  dt->file, pos);
			plen = be32(b + pos);
			nameoff = be32(b + pos + 4);
			pos += 8;
			if (plen > end - pos)
				return ea_err_set(dt->err, "%s: offset %zu: property value runs past the structure block",
						  dt->file, pos);
			if (nameoff >= size_strings ||
			    !(z = memchr(b + off_strings + nameoff, '\0',
					 size_strings - nameoff)))
				return ea_err_set(dt->err, "%s: offset %zu: property name offset %u out of range",
						  dt->file, pos - 4, nameoff);
			p = set_prop(n, (const char *)b + off_strings + nameoff);
			if (!p)
				return ea_err_set(dt->err, "%s: out of memory", dt->file);
			p->val = malloc(plen ? plen : 1);
			if (!p->val)
				return ea_err_set(dt->err, "%s: out of memory", dt->file);
			memcpy(p->val, b + pos, plen);
			p->len = plen;
			pos = (pos + plen + 3) & ~(size_t)3;
		} else if (tok == FDT_NOP) {
			continue;
		} else if (tok == FDT_END) {
			break;
		} else {
			return ea_err_set(dt->err, "%s: offset %zu: unknown dtb token %u",
					  dt->file, pos - 4, tok);
		}
	}
	if (!dt->root)
		return ea_err_set(dt->err, "%s: the dtb has no root node", dt->file);
	if (n)
		return ea_err_set(dt->err, "%s: offset %zu: FDT_END inside a node",
				  dt->file, pos - 4);
	free(dt->root->name);
	dt->root->name = strdup("");
	if (!dt->root->name)
		return ea_err_set(dt->err, "%s: out of memory", dt->file);
	explicit_phandles(dt->root);
	return 0;
}

/* ---- property access ---- */

/* The property's value as 32-bit cells; *n = count. */
static int get_cells(struct dt *dt, const struct dt_node *nd,
		     const struct dt_prop *p, const uint8_t **v, int *n)
{
	if (p->bad)
		return ea_err_set(dt->err, "%s (%s)", p->bad, p->name);
	if (p->len % 4)
		return ea_err_set(dt->err, "%s: %zu bytes: not a list of 32-bit cells",
				  prop_loc(dt, nd, p), p->len);
	*v = p->val;
	*n = (int)(p->len / 4);
	return 0;
}

static const char *get_string(const struct dt_prop *p)
{
	if (!p || p->bad || !p->len || p->val[p->len - 1] ||
	    strlen((const char *)p->val) + 1 != p->len)
		return NULL;
	return (const char *)p->val;
}

static struct dt_node *by_phandle(struct dt_node *n, uint32_t ph)
{
	if (n->deleted)
		return NULL;
	if (n->phandle == ph)
		return n;
	for (int i = 0; i < n->nkids; i++) {
		struct dt_node *f = by_phandle(n->kids[i], ph);

		if (f)
			return f;
	}
	return NULL;
}

/* ---- the binding ---- */

struct cost {
	uint32_t *a, *b;	/* busy pairs: a = capacity or freq, b = power */
	int nbusy;
	uint32_t *idle;
	int nidle;
	bool freq_model;
	char busy_loc[512], idle_loc[512];
};

static void free_cost(struct cost *c)
{
	free(c->a);
	free(c->b);
	free(c->idle);
}

static int read_cost(struct dt *dt, const struct dt_node *n, struct cost *c)
{
	const struct dt_prop *busy = prop(n, "busy-cost-data");
	const struct dt_prop *idle = prop(n, "idle-cost-data");
	const uint8_t *v;
	int cnt;

	memset(c, 0, sizeof(*c));
	c->freq_model = prop(n, "freq-energy-model") != NULL;
	if (!busy)
		return ea_err_set(dt->err, "%s: no busy-cost-data property",
				  node_loc(dt, n));
	if (get_cells(dt, n, busy, &v, &cnt))
		return -1;
	snprintf(c->busy_loc, sizeof(c->busy_loc), "%s", prop_loc(dt, n, busy));
	if (cnt == 0)
		return ea_err_set(dt->err, "%s: empty: expected <capacity power> pairs",
				  c->busy_loc);
	if (cnt % 2)
		return ea_err_set(dt->err, "%s: %d cells, an odd number: expected <%s power> pairs",
				  c->busy_loc, cnt, c->freq_model ? "frequency" : "capacity");
	if (cnt / 2 > EA_MODEL_MAX_CAP_STATES)
		return ea_err_set(dt->err, "%s: more than %d states", c->busy_loc,
				  EA_MODEL_MAX_CAP_STATES);
	c->nbusy = cnt / 2;
	c->a = malloc((size_t)c->nbusy * sizeof(*c->a));
	c->b = malloc((size_t)c->nbusy * sizeof(*c->b));
	if (!c->a || !c->b)
		return ea_err_set(dt->err, "%s: out of memory", dt->file);
	for (int i = 0; i < c->nbusy; i++) {
		c->a[i] = be32(v + 8 * i);
		c->b[i] = be32(v + 8 * i + 4);
	}
	if (idle) {
		if (get_cells(dt, n, idle, &v, &cnt))
			return -1;
		snprintf(c->idle_loc, sizeof(c->idle_loc), "%s", prop_loc(dt, n, idle));
		if (cnt > EA_MODEL_MAX_IDLE_STATES)
			return ea_err_set(dt->err, "%s: more than %d idle states",
					  c->idle_loc, EA_MODEL_MAX_IDLE_STATES);
		c->nidle = cnt;
		c->idle = malloc((size_t)(cnt ? cnt : 1) * sizeof(*c->idle));
		if (!c->idle)
			return ea_err_set(dt->err, "%s: out of memory", dt->file);
		for (int i = 0; i < cnt; i++)
			c->idle[i] = be32(v + 4 * i);
	} else {
		snprintf(c->idle_loc, sizeof(c->idle_loc), "%s", node_loc(dt, n));
	}
	return 0;
}

static bool same_cost(const struct cost *x, const struct cost *y)
{
	if (x->nbusy != y->nbusy || x->nidle != y->nidle ||
	    x->freq_model != y->freq_model)
		return false;
	for (int i = 0; i < x->nbusy; i++)
		if (x->a[i] != y->a[i] || x->b[i] != y->b[i])
			return false;
	for (int i = 0; i < x->nidle; i++)
		if (x->idle[i] != y->idle[i])
			return false;
	return true;
}

static bool is_cpu_node(const struct dt_node *n)
{
	const char *t = get_string(prop(n, "device_type"));

	if (n->deleted)
		return false;
	if (t)
		return !strcmp(t, "cpu");
	return !strcmp(n->name, "cpu") || !strncmp(n->name, "cpu@", 4);
}

struct dcpu {
	struct dt_node *node;
	struct dt_node *lv[8];
	int nlv;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The CPU's OPP frequencies in kHz, ascending and distinct:
 * operating-points = <kHz uV ...> or operating-points-v2 = <&table> with
 * opp-hz in the table's children. Returns the count (0: none), -1 on error.
 */
static int opp_freqs(struct dt *dt, const struct dt_node *cpu, uint32_t **out)
{
	const struct dt_prop *p = prop(cpu, "operating-points");
	uint32_t *f = NULL;
	const uint8_t *v;
	int n = 0, cnt;

	*out = NULL;
	if (p) {
		if (get_cells(dt, cpu, p, &v, &cnt))
			return -1;
		if (cnt % 2)
			return ea_err_set(dt->err, "%s: %d cells: expected <kHz uV> pairs",
					  prop_loc(dt, cpu, p), cnt);
		f = malloc((size_t)(cnt / 2 + 1) * sizeof(*f));
		if (!f)
			return ea_err_set(dt->err, "%s: out of memory", dt->file);
		for (int i = 0; i < cnt / 2; i++)
			f[n++] = be32(v + 8 * i);
	} else if ((p = prop(cpu, "operating-points-v2"))) {
		const struct dt_node *t;

		if (get_cells(dt, cpu, p, &v, &cnt))
			return -1;
		if (cnt < 1)
			return ea_err_set(dt->err, "%s: empty", prop_loc(dt, cpu, p));
		t = by_phandle(dt->root, be32(v));
		if (!t)
			return ea_err_set(dt->err, "%s: phandle %u: no such node",
					  prop_loc(dt, cpu, p), be32(v));
		f = malloc((size_t)(t->nkids + 1) * sizeof(*f));
		if (!f)
			return ea_err_set(dt->err, "%s: out of memory", dt->file);
		for (int i = 0; i < t->nkids; i++) {
			const struct dt_node *o = t->kids[i];
			const struct dt_prop *hz = prop(o, "opp-hz");
			uint64_t x;

			if (o->deleted || !hz)
				continue;
			if (get_cells(dt, o, hz, &v, &cnt)) {
				free(f);
				return -1;
			}
			if (cnt != 1 && cnt != 2) {
				free(f);
				return ea_err_set(dt->err, "%s: expected one 64-bit frequency in Hz",
						  prop_loc(dt, o, hz));
			}
			x = cnt == 2 ? (uint64_t)be32(v) << 32 | be32(v + 4) : be32(v);
			x = (x + 500) / 1000;
			if (x < 1 || x > EA_MODEL_MAX_FREQ_KHZ) {
				free(f);
				return ea_err_set(dt->err, "%s: %llu kHz is out of range",
						  prop_loc(dt, o, hz), (unsigned long long)x);
			}
			f[n++] = (uint32_t)x;
		}
	} else {
		return 0;
	}
	qsort(f, (size_t)n, sizeof(*f), cmp_u32);
	cnt = 0;
	for (int i = 0; i < n; i++)
		if (!cnt || f[i] != f[cnt - 1])
			f[cnt++] = f[i];
	*out = f;
	return cnt;
}

struct idlename {
	char name[EA_NAME_LEN];
	uint32_t residency;
};

/* The names of the CPU's cpu-idle-states; count, or -1 on error. */
static int idle_names(struct dt *dt, const struct dt_node *cpu,
		      struct idlename *names, int max)
{
	const struct dt_prop *p = prop(cpu, "cpu-idle-states");
	const uint8_t *v;
	int cnt, n = 0;

	if (!p)
		return 0;
	if (get_cells(dt, cpu, p, &v, &cnt))
		return -1;
	for (int i = 0; i < cnt && n < max; i++) {
		const struct dt_node *s = by_phandle(dt->root, be32(v + 4 * i));
		const struct dt_prop *r;
		const char *nm;

		if (!s)
			return ea_err_set(dt->err, "%s: phandle %u: no such node",
					  prop_loc(dt, cpu, p), be32(v + 4 * i));
		nm = get_string(prop(s, "idle-state-name"));
		snprintf(names[n].name, sizeof(names[n].name), "%s", nm ? nm : s->name);
		names[n].residency = 0;
		r = prop(s, "min-residency-us");
		if (r && !r->bad && r->len == 4)
			names[n].residency = be32(r->val);
		n++;
	}
	return n;
}

static int build(struct dt *dt, struct ea_imp *b)
{
	struct dt_node *cpus = find_path(dt->root, "/cpus");
	struct dcpu *cv = NULL;
	int ncv = 0, rc = -1, nlevels = -1;
	bool *done = NULL, noted_ignored = false;

	if (!cpus)
		return ea_err_set(dt->err, "%s: no /cpus node", dt->file);
	cv = calloc((size_t)(cpus->nkids + 1), sizeof(*cv));
	if (!cv)
		return ea_err_set(dt->err, "%s: out of memory", dt->file);
	for (int i = 0; i < cpus->nkids; i++) {
		struct dt_node *n = cpus->kids[i];
		const struct dt_prop *p;
		const uint8_t *v;
		int cnt;

		if (!is_cpu_node(n))
			continue;
		cv[ncv].node = n;
		p = prop(n, "sched-energy-costs");
		if (p) {
			if (get_cells(dt, n, p, &v, &cnt))
				goto out;
			if (cnt < 1 || cnt > 8) {
				ea_err_set(dt->err, "%s: %d phandles: expected 1 (core) to 8 levels",
					   prop_loc(dt, n, p), cnt);
				goto out;
			}
			for (int k = 0; k < cnt; k++) {
				cv[ncv].lv[k] = by_phandle(dt->root, be32(v + 4 * k));
				if (!cv[ncv].lv[k]) {
					ea_err_set(dt->err, "%s: phandle %u: no such node",
						   prop_loc(dt, n, p), be32(v + 4 * k));
					goto out;
				}
			}
			cv[ncv].nlv = cnt;
		}
		ncv++;
	}
	if (!ncv) {
		ea_err_set(dt->err, "%s: /cpus has no CPU nodes", node_loc(dt, cpus));
		goto out;
	}
	for (int i = 0; i < ncv; i++) {
		if (!cv[i].nlv) {
			bool any = false;

			for (int k = 0; k < ncv; k++)
				any |= cv[k].nlv > 0;
			if (!any)
				ea_err_set(dt->err, "%s: no CPU node has a sched-energy-costs property: not a sched-energy-costs device tree",
					   dt->file);
			else
				ea_err_set(dt->err, "%s: no sched-energy-costs property (every CPU node needs one)",
					   node_loc(dt, cv[i].node));
			goto out;
		}
		if (nlevels < 0)
			nlevels = cv[i].nlv;
		if (cv[i].nlv != nlevels) {
			ea_err_set(dt->err, "%s: %d sched-energy-costs levels, other CPUs have %d (the binding wants the same highest level for all)",
				   node_loc(dt, cv[i].node), cv[i].nlv, nlevels);
			goto out;
		}
	}
	done = calloc((size_t)(ncv > 0 ? ncv : 1), sizeof(*done));
	if (!done) {
		ea_err_set(dt->err, "%s: out of memory", dt->file);
		goto out;
	}
	for (int i = 0; i < ncv; i++) {
		struct dt_node *key = cv[i].lv[nlevels >= 2 ? 1 : 0];
		struct cost core = { 0 }, cl = { 0 }, other;
		struct idlename names[EA_MODEL_MAX_IDLE_STATES];
		char cname[EA_NAME_LEN];
		uint32_t *freqs = NULL;
		int nfreq, nnames, nid, ci;
		bool has_cl = nlevels >= 2, freqs_opt = false, capnote = false;

		if (done[i])
			continue;
		snprintf(cname, sizeof(cname), "%s", key->name);
		ci = ea_imp_cluster(b, cname, node_loc(dt, key));
		if (ci < 0)
			goto out;
		if (read_cost(dt, cv[i].lv[0], &core) ||
		    (has_cl && read_cost(dt, key, &cl))) {
			free_cost(&core);
			free_cost(&cl);
			goto out;
		}
		for (int k = i; k < ncv; k++) {
			if (done[k] || cv[k].lv[nlevels >= 2 ? 1 : 0] != key)
				continue;
			if (cv[k].lv[0] != cv[i].lv[0]) {
				int same;

				if (read_cost(dt, cv[k].lv[0], &other)) {
					free_cost(&other);
					free_cost(&core);
					free_cost(&cl);
					goto out;
				}
				same = same_cost(&core, &other);
				free_cost(&other);
				if (!same) {
					ea_err_set(dt->err, "%s: its core costs differ from those of %s, in the same cluster (%s): one cluster has one core table",
						   node_loc(dt, cv[k].lv[0]),
						   cv[i].lv[0]->name, key->name);
					free_cost(&core);
					free_cost(&cl);
					goto out;
				}
			}
			done[k] = true;
			if (ea_imp_cpu(b, ci, k, node_loc(dt, cv[k].node))) {
				free_cost(&core);
				free_cost(&cl);
				goto out;
			}
		}
		if (has_cl && cl.nbusy != core.nbusy) {
			ea_err_set(dt->err, "%s: %d states, but the core's busy-cost-data (%s) has %d",
				   cl.busy_loc, cl.nbusy, cv[i].lv[0]->name, core.nbusy);
			free_cost(&core);
			free_cost(&cl);
			goto out;
		}
		for (int k = 0; has_cl && k < core.nbusy; k++)
			if (cl.a[k] != core.a[k])
				capnote = true;
		if (capnote)
			ea_imp_note(b, "%s's busy-cost-data capacities differ from %s's: the core's were used.",
				    key->name, cv[i].lv[0]->name);
		/* frequencies */
		for (int j = 0; j < b->opts->nfreqs_kv; j++)
			if (ea_import_key_matches(b->m, ci, b->opts->freqs[j].key))
				freqs_opt = true;
		nfreq = 0;
		if (!core.freq_model && !freqs_opt) {
			nfreq = opp_freqs(dt, cv[i].node, &freqs);
			if (nfreq < 0) {
				free_cost(&core);
				free_cost(&cl);
				goto out;
			}
			if (nfreq != core.nbusy) {
				if (nfreq)
					ea_err_set(dt->err, "%s: the OPP table of %s has %d frequencies for %d busy-cost-data states: pass --freqs %s=KHZ,... (%d values, ascending)",
						   core.busy_loc, cv[i].node->name, nfreq,
						   core.nbusy, cname, core.nbusy);
				else
					ea_err_set(dt->err, "%s: the binding gives no frequencies and %s has no operating-points(-v2): pass --freqs %s=KHZ,... (%d values, ascending)",
						   core.busy_loc, cv[i].node->name, cname,
						   core.nbusy);
				free(freqs);
				free_cost(&core);
				free_cost(&cl);
				goto out;
			}
		}
		for (int k = 0; k < core.nbusy; k++) {
			uint32_t f = core.freq_model ? core.a[k] : nfreq ? freqs[k] : 0;
			uint32_t cap = core.freq_model ? 0 : core.a[k];
			char loc[600];

			snprintf(loc, sizeof(loc), "%s[%d]", core.busy_loc, k);
			if (!core.freq_model && !cap) {
				ea_err_set(dt->err, "%s: capacity 0", loc);
				free(freqs);
				free_cost(&core);
				free_cost(&cl);
				goto out;
			}
			if (ea_imp_cap(b, ci, f, cap, core.b[k], has_cl ? cl.b[k] : 0, loc)) {
				free(freqs);
				free_cost(&core);
				free_cost(&cl);
				goto out;
			}
		}
		free(freqs);
		/* idle states */
		nid = core.nidle > cl.nidle ? core.nidle : cl.nidle;
		nnames = idle_names(dt, cv[i].node, names, EA_MODEL_MAX_IDLE_STATES);
		if (nnames < 0) {
			free_cost(&core);
			free_cost(&cl);
			goto out;
		}
		if (nid && core.nidle != cl.nidle && has_cl)
			ea_imp_note(b, "%s has %d idle-cost-data entries and %s %d: the shorter list was extended with its last value (0 if empty).",
				    cv[i].lv[0]->name, core.nidle, key->name, cl.nidle);
		for (int k = 0; k < nid; k++) {
			double cp = core.nidle ? core.idle[k < core.nidle ? k : core.nidle - 1] : 0;
			double lp = cl.nidle ? cl.idle[k < cl.nidle ? k : cl.nidle - 1] : 0;
			char name[EA_NAME_LEN];
			uint32_t res = 0;
			const char *loc = k < core.nidle ? core.idle_loc : cl.idle_loc;

			if (nnames && nid == nnames + 1) {
				snprintf(name, sizeof(name), "%s", k ? names[k - 1].name : "WFI");
				res = k ? names[k - 1].residency : 1;
			} else if (nnames && nid == nnames) {
				snprintf(name, sizeof(name), "%s", names[k].name);
				res = names[k].residency;
			} else {
				snprintf(name, sizeof(name), "idle%d", k);
			}
			for (int j = 0; j < k; j++)
				if (!strcmp(b->m->clusters[ci].idles[j].name, name))
					snprintf(name, sizeof(name), "idle%d", k);
			if (ea_imp_idle(b, ci, name, cp, lp, 0, 0, res, loc)) {
				free_cost(&core);
				free_cost(&cl);
				goto out;
			}
		}
		if (nid && nnames && nid == nnames)
			ea_imp_note(b, "%s: as many idle-cost-data entries as cpu-idle-states, so entry k was taken for cpuidle state k; on ARM cpuidle state 0 is WFI and the DT states come after it: check the order.",
				    cname);
		else if (nid && nnames != nid - 1)
			ea_imp_note(b, "%s: idle states named idle0..idle%d (cpu-idle-states does not match idle-cost-data); target residencies 0.",
				    cname, nid - 1);
		if (!noted_ignored && nlevels > 2) {
			ea_imp_note(b, "Cost levels above the cluster (e.g. a system-cost node) were ignored: the model has cores and clusters only.");
			noted_ignored = true;
		}
		if (core.freq_model)
			ea_imp_note(b, "%s: freq-energy-model: busy-cost-data pairs are <frequency power>.",
				    cname);
		free_cost(&core);
		free_cost(&cl);
	}
	rc = 0;
out:
	free(done);
	free(cv);
	return rc;
}

static int import_dt(struct ea_model **out, const char *src,
		     const struct ea_import_opts *opts, struct ea_err *err)
{
	struct dt dt = { 0 };
	struct ea_imp b;
	char *text = NULL;
	const char *model, *base;
	size_t len;
	int rc = -1;

	*out = NULL;
	dt.file = src;
	dt.err = err;
	if (ea_read_file(src, EA_MODEL_MAX_FILE, &text, &len, err))
		return -1;
	if (ea_imp_init(&b, src, opts, err)) {
		free(text);
		return -1;
	}
	if (len >= 4 && be32((uint8_t *)text) == FDT_MAGIC) {
		dt.dtb = true;
		if (parse_dtb(&dt, (uint8_t *)text, len))
			goto out;
	} else {
		if (parse_dts(&dt))
			goto out;
		explicit_phandles(dt.root);
		dt.next_phandle = max_phandle(dt.root);
		if (resolve(&dt, dt.root))
			goto out;
	}
	ea_imp_note(&b, "Imported from the sched-energy-costs device-tree binding in %s (%s).",
		    src, dt.dtb ? "dtb" : "dts");
	if (build(&dt, &b))
		goto out;
	model = get_string(prop(dt.root, "model"));
	base = strrchr(src, '/');
	base = base ? base + 1 : src;
	snprintf(b.m->name, sizeof(b.m->name), "%s", model ? model : base);
	ea_imp_note(&b, "Logical CPU ids follow the order of the CPU nodes in /cpus, as Linux numbers them when the boot CPU is the first (pass --cpus otherwise). Each CPU's first sched-energy-costs phandle is its core's cost node (busy-cost-data <capacity power> pairs give cap and core_power, idle-cost-data the idle core_power), the second its cluster's (cluster_power and idle cluster_power); CPUs sharing a cluster cost node form one cluster, assumed to be one frequency domain.");
	ea_imp_note(&b, "Frequencies from each cluster's operating-points(-v2) table, matched to the cost states in ascending order. power_unit 'bogo': the binding's costs have no unit (pass --power-unit mW for vendor tables in mW). No wakeup energies: the binding has none.");
	rc = ea_imp_finish(&b, "device tree", out);
out:
	for (int i = 0; i < dt.depth; i++)
		free(dt.stack[i].text);
	for (int i = 0; i < dt.nfiles; i++)
		free(dt.files[i]);
	free(dt.files);
	free_node(dt.root);
	free(text);
	ea_imp_free(&b);
	return rc;
}

int ea_import_dt(struct ea_model **out, const char *src,
		 const struct ea_import_opts *opts, struct ea_err *err)
{
	int rc = import_dt(out, src, opts, err);

	if (rc)
		ea_import_scrub(err);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import Perfetto Wattson CPU power curves (docs/model-format.md,
 * "Wattson curves"):
 *
 *	cpu_1d.csv	device,policy,freq_khz,static,active,idle0,idle1
 *	cpu_2d.csv	device,policy,freq_khz,dep_policy,dep_freq,static,
 *			active,idle0,idle1,interconnect
 *
 * in mW, with Wattson's device_infos.sql for the CPU-to-policy map, the
 * deep-idle exit offsets and the cpuidle index map. One cluster per cpufreq
 * policy: active -> core_power, static -> cluster_power (Wattson charges it
 * while any CPU of the policy is active), idle0/idle1 -> idle states, the
 * deep-idle exit offset -> wakeup energy of cpuidle state 1. What eatrace's
 * model cannot say (idle power varying with the OPP, a dependency on another
 * policy's or the DSU's frequency, interconnect) is reduced by the rules
 * below and listed in the model's source text.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "model/import-priv.h"
#include "model/import.h"

#define W_MAX_FILE (16u << 20)
#define W_DEV_LEN 48		/* device names: leaves room for " (Wattson)" */
#define W_NO_DEP (-1)

struct wrow {
	char dev[W_DEV_LEN];
	int policy;
	uint32_t freq;
	int dep_policy;		/* W_NO_DEP in cpu_1d.csv */
	uint64_t dep_freq;
	double stat, active, idle0, idle1, ic;
	int line;
	int file;		/* index in w->files */
};

struct wfile {
	char *path;
	bool two_d;
	bool has_ic;
};

struct wctx {
	struct ea_imp b;
	const char *src;
	const struct ea_import_opts *o;
	struct ea_err *err;
	struct wfile files[2];
	int nfiles;
	struct wrow *rows;
	int nrows, arows;
	char dev[W_DEV_LEN];	/* the device imported */
	char *infos;		/* device_infos.sql path */
	/* from device_infos.sql, for dev; index = CPU */
	int *policy, *pol_line;	/* -1: not mapped */
	int64_t *offset;	/* -1: none given */
	int idle_map[EA_MODEL_MAX_IDLE_STATES];	/* -2: none */
	int idle_line[EA_MODEL_MAX_IDLE_STATES];
	bool have_idle_map;
	bool *dep_used;		/* per --dep-freq option */
	char loc[600];
};

static const char *at(struct wctx *w, int file, int line)
{
	snprintf(w->loc, sizeof(w->loc), "%s:%d",
		 file < 0 ? w->infos : w->files[file].path, line);
	return w->loc;
}

#define FAIL(w, file, line, ...) ea_imp_fail(&(w)->b, at(w, file, line), __VA_ARGS__)

/* ---- cpu_1d.csv / cpu_2d.csv ---- */

enum col { C_DEV, C_POL, C_FREQ, C_DEPP, C_DEPF, C_STAT, C_ACT, C_I0, C_I1, C_IC, NCOL };

static const char *const col_name[NCOL] = {
	"device", "policy", "freq_khz", "dep_policy", "dep_freq", "static",
	"active", "idle0", "idle1", "interconnect",
};

static void trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

static int int_field(struct wctx *w, int fi, int line, enum col c,
		     const char *s, size_t n, double lo, double hi, double *v)
{
	if (ea_parse_num(s, n, v) || *v != floor(*v))
		return FAIL(w, fi, line, "%s: '%.*s' is not an integer",
			    col_name[c], (int)(n > 40 ? 40 : n), s);
	if (*v < lo || *v > hi)
		return FAIL(w, fi, line, "%s: %.0f is out of range (%.0f..%.0f)",
			    col_name[c], *v, lo, hi);
	return 0;
}

static int power_field(struct wctx *w, int fi, int line, enum col c,
		       const char *s, size_t n, double *v)
{
	if (ea_parse_num(s, n, v))
		return FAIL(w, fi, line, "%s: '%.*s' is not a number",
			    col_name[c], (int)(n > 40 ? 40 : n), s);
	if (*v < 0)
		return FAIL(w, fi, line, "%s: %g mW is negative", col_name[c], *v);
	if (*v > EA_MODEL_MAX_POWER)
		return FAIL(w, fi, line, "%s: %g is beyond the sanity limit 1e9 mW",
			    col_name[c], *v);
	return 0;
}

static int add_row(struct wctx *w, const struct wrow *r)
{
	if (w->nrows == w->arows) {
		int na = w->arows ? 2 * w->arows : 256;
		struct wrow *p = realloc(w->rows, (size_t)na * sizeof(*p));

		if (!p)
			return FAIL(w, r->file, r->line, "out of memory");
		w->rows = p;
		w->arows = na;
	}
	w->rows[w->nrows++] = *r;
	return 0;
}

static int parse_row(struct wctx *w, int fi, int line, const char *s,
		     size_t n, const int *pos, int nfields)
{
	const char *f[64];
	size_t fl[64];
	int k = 0;
	struct wrow r = { .dep_policy = W_NO_DEP, .line = line, .file = fi };
	double v;

	for (;;) {
		const char *c = memchr(s, ',', n);
		size_t len = c ? (size_t)(c - s) : n;

		if (k >= 64)
			return FAIL(w, fi, line, "more than 64 fields");
		f[k] = s;
		fl[k] = len;
		trim(&f[k], &fl[k]);
		k++;
		if (!c)
			break;
		n -= len + 1;
		s = c + 1;
	}
	if (k != nfields)
		return FAIL(w, fi, line, "%d field%s, the header has %d", k,
			    k == 1 ? "" : "s", nfields);
	for (int c = 0; c < NCOL; c++) {
		const char *x = pos[c] < 0 ? NULL : f[pos[c]];
		size_t xn = pos[c] < 0 ? 0 : fl[pos[c]];

		if (!x)
			continue;
		switch (c) {
		case C_DEV:
			if (!xn || xn >= W_DEV_LEN)
				return FAIL(w, fi, line, "device: the name must be 1 to %d characters",
					    W_DEV_LEN - 1);
			for (size_t i = 0; i < xn; i++)
				if (iscntrl((unsigned char)x[i]) || x[i] == '"')
					return FAIL(w, fi, line, "device: a control character or quote in the name");
			memcpy(r.dev, x, xn);
			r.dev[xn] = '\0';
			break;
		case C_POL:
			if (int_field(w, fi, line, c, x, xn, 0, EA_MODEL_MAX_CPUS - 1, &v))
				return -1;
			r.policy = (int)v;
			break;
		case C_FREQ:
			if (int_field(w, fi, line, c, x, xn, 1, EA_MODEL_MAX_FREQ_KHZ, &v))
				return -1;
			r.freq = (uint32_t)v;
			break;
		case C_DEPP:
			if (int_field(w, fi, line, c, x, xn, 0, 65535, &v))
				return -1;
			r.dep_policy = (int)v;
			break;
		case C_DEPF:
			if (int_field(w, fi, line, c, x, xn, 1, 1e15, &v))
				return -1;
			r.dep_freq = (uint64_t)v;
			break;
		case C_STAT:
			if (power_field(w, fi, line, c, x, xn, &r.stat))
				return -1;
			break;
		case C_ACT:
			if (power_field(w, fi, line, c, x, xn, &r.active))
				return -1;
			break;
		case C_I0:
			if (power_field(w, fi, line, c, x, xn, &r.idle0))
				return -1;
			break;
		case C_I1:
			if (power_field(w, fi, line, c, x, xn, &r.idle1))
				return -1;
			break;
		case C_IC:
			if (power_field(w, fi, line, c, x, xn, &r.ic))
				return -1;
			break;
		}
	}
	return add_row(w, &r);
}

static int parse_header(struct wctx *w, int fi, const char *s, size_t n,
			int *pos, int *nfields)
{
	int k = 0;

	for (int c = 0; c < NCOL; c++)
		pos[c] = -1;
	for (;;) {
		const char *c = memchr(s, ',', n);
		size_t len = c ? (size_t)(c - s) : n;
		const char *name = s;
		size_t nl = len;

		trim(&name, &nl);
		if (k >= 64)
			return FAIL(w, fi, 1, "more than 64 columns");
		for (int j = 0; j < NCOL; j++) {
			if (strlen(col_name[j]) != nl || strncmp(col_name[j], name, nl))
				continue;
			if (pos[j] >= 0)
				return FAIL(w, fi, 1, "column '%s' given twice", col_name[j]);
			pos[j] = k;
		}
		k++;
		if (!c)
			break;
		n -= len + 1;
		s = c + 1;
	}
	*nfields = k;
	w->files[fi].two_d = pos[C_DEPP] >= 0 || pos[C_DEPF] >= 0;
	w->files[fi].has_ic = pos[C_IC] >= 0;
	for (int j = 0; j < NCOL; j++) {
		bool need = j != C_IC && (w->files[fi].two_d || (j != C_DEPP && j != C_DEPF));

		if (need && pos[j] < 0)
			return FAIL(w, fi, 1, "no '%s' column: not a Wattson curve file (expected device,policy,freq_khz,%sstatic,active,idle0,idle1)",
				    col_name[j], w->files[fi].two_d ? "dep_policy,dep_freq," : "");
	}
	return 0;
}

static int parse_csv(struct wctx *w, int fi)
{
	char *buf;
	size_t len, off = 0;
	int line = 0, pos[NCOL], nfields = 0, rc = 0;
	bool header = false;

	if (ea_read_file(w->files[fi].path, W_MAX_FILE, &buf, &len, w->err))
		return -1;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		off = 3;	/* a UTF-8 byte-order mark */
	while (off < len && !rc) {
		const char *s = buf + off, *nl = memchr(s, '\n', len - off);
		size_t n = nl ? (size_t)(nl - s) : len - off;
		const char *t = s;
		size_t tn;

		off += n + (nl ? 1 : 0);
		line++;
		if (n && s[n - 1] == '\r')
			n--;
		if (memchr(s, '\0', n)) {
			rc = FAIL(w, fi, line, "a NUL byte: not a CSV text file");
			break;
		}
		tn = n;
		trim(&t, &tn);
		if (!tn)
			continue;	/* blank line */
		if (memchr(s, '"', n)) {
			rc = FAIL(w, fi, line, "quoted fields are not supported (Wattson's curves have none)");
			break;
		}
		if (!header) {
			if (line != 1) {
				rc = FAIL(w, fi, line, "the header must be the first line");
				break;
			}
			rc = parse_header(w, fi, s, n, pos, &nfields);
			header = true;
			continue;
		}
		rc = parse_row(w, fi, line, s, n, pos, nfields);
	}
	if (!rc && !header)
		rc = FAIL(w, fi, 1, "empty: no header line");
	free(buf);
	return rc;
}

/* ---- device_infos.sql ---- */

enum tok { T_END, T_ID, T_STR, T_NUM, T_PUNCT };

struct lex {
	const char *p, *end;
	int line;
	enum tok t;
	char s[W_DEV_LEN + 16];	/* T_ID, T_STR (cut) */
	bool long_str;
	int64_t num;
	bool num_big;
	char c;			/* T_PUNCT */
	int tline;
};

static void next(struct lex *l)
{
	for (;;) {
		while (l->p < l->end && isspace((unsigned char)*l->p)) {
			if (*l->p == '\n')
				l->line++;
			l->p++;
		}
		if (l->end - l->p >= 2 && l->p[0] == '-' && l->p[1] == '-') {
			while (l->p < l->end && *l->p != '\n')
				l->p++;
			continue;
		}
		if (l->end - l->p >= 2 && l->p[0] == '/' && l->p[1] == '*') {
			l->p += 2;
			while (l->p < l->end && !(l->end - l->p >= 2 && l->p[0] == '*' && l->p[1] == '/')) {
				if (*l->p == '\n')
					l->line++;
				l->p++;
			}
			l->p = l->end - l->p >= 2 ? l->p + 2 : l->end;
			continue;
		}
		break;
	}
	l->tline = l->line;
	if (l->p >= l->end) {
		l->t = T_END;
		return;
	}
	if (*l->p == '"' || *l->p == '\'') {
		char q = *l->p++;
		size_t n = 0;

		l->t = T_STR;
		l->long_str = false;
		while (l->p < l->end) {
			if (*l->p == q) {
				if (l->end - l->p >= 2 && l->p[1] == q) {
					l->p++;	/* doubled quote */
				} else {
					l->p++;
					break;
				}
			}
			if (*l->p == '\n')
				l->line++;
			if (n < sizeof(l->s) - 1)
				l->s[n++] = *l->p;
			else
				l->long_str = true;
			l->p++;
		}
		l->s[n] = '\0';
		return;
	}
	if (isdigit((unsigned char)*l->p) ||
	    (*l->p == '-' && l->end - l->p >= 2 && isdigit((unsigned char)l->p[1]))) {
		bool neg = *l->p == '-';

		l->t = T_NUM;
		l->num = 0;
		l->num_big = false;
		if (neg)
			l->p++;
		while (l->p < l->end && isdigit((unsigned char)*l->p)) {
			if (l->num > (INT64_MAX - 9) / 10)
				l->num_big = true;
			else
				l->num = l->num * 10 + (*l->p - '0');
			l->p++;
		}
		if (neg)
			l->num = -l->num;
		return;
	}
	if (isalpha((unsigned char)*l->p) || *l->p == '_') {
		size_t n = 0;

		l->t = T_ID;
		while (l->p < l->end && (isalnum((unsigned char)*l->p) || *l->p == '_')) {
			if (n < sizeof(l->s) - 1)
				l->s[n++] = *l->p;
			l->p++;
		}
		l->s[n] = '\0';
		return;
	}
	l->t = T_PUNCT;
	l->c = *l->p++;
}

enum table { TB_NONE, TB_OFFSETS, TB_POLICY, TB_IDLE };

static int tuple(struct wctx *w, struct lex *l, enum table tb)
{
	int64_t a, b;
	char dev[sizeof(l->s)];
	int line = l->tline;
	bool mine;

	snprintf(dev, sizeof(dev), "%s", l->s);
	mine = !l->long_str && !strcmp(dev, w->dev);
	next(l);
	if (l->t != T_PUNCT || l->c != ',')
		return 0;	/* not a (device, N, N) row: not ours */
	next(l);
	if (l->t != T_NUM || l->num_big)
		return FAIL(w, -1, line, "expected (\"DEVICE\", N, N): a number after the device name");
	a = l->num;
	next(l);
	if (l->t != T_PUNCT || l->c != ',')
		return FAIL(w, -1, line, "expected (\"DEVICE\", N, N): ',' after %lld", (long long)a);
	next(l);
	if (l->t != T_NUM || l->num_big)
		return FAIL(w, -1, line, "expected (\"DEVICE\", N, N): a number after %lld,", (long long)a);
	b = l->num;
	next(l);
	if (l->t != T_PUNCT || l->c != ')')
		return FAIL(w, -1, line, "expected (\"DEVICE\", N, N): ')' after %lld, %lld",
			    (long long)a, (long long)b);
	next(l);
	if (!mine)
		return 0;
	if (tb == TB_IDLE) {
		if (a == 4294967295LL || a == -1)
			return 0;	/* the "not idle" row */
		if (a < 0 || a >= EA_MODEL_MAX_IDLE_STATES)
			return FAIL(w, -1, line, "cpuidle state %lld is out of range (0..%d)",
				    (long long)a, EA_MODEL_MAX_IDLE_STATES - 1);
		if (b != 0 && b != 1)
			return FAIL(w, -1, line, "cpuidle state %lld maps to Wattson state %lld (only 0 and 1 have curves)",
				    (long long)a, (long long)b);
		if (w->idle_map[a] != -2)
			return FAIL(w, -1, line, "cpuidle state %lld of '%s' mapped again (first at line %d)",
				    (long long)a, w->dev, w->idle_line[a]);
		w->idle_map[a] = (int)b;
		w->idle_line[a] = line;
		w->have_idle_map = true;
		return 0;
	}
	if (a < 0 || a >= EA_MODEL_MAX_CPUS)
		return FAIL(w, -1, line, "CPU %lld is out of range (0..%d)", (long long)a,
			    EA_MODEL_MAX_CPUS - 1);
	if (tb == TB_POLICY) {
		if (b < 0 || b >= EA_MODEL_MAX_CPUS)
			return FAIL(w, -1, line, "policy %lld is out of range (0..%d)",
				    (long long)b, EA_MODEL_MAX_CPUS - 1);
		if (w->policy[a] >= 0)
			return FAIL(w, -1, line, "CPU %lld of '%s' mapped again (first at line %d)",
				    (long long)a, w->dev, w->pol_line[a]);
		w->policy[a] = (int)b;
		w->pol_line[a] = line;
	} else {
		if (b < 0 || b > 10000000000LL)
			return FAIL(w, -1, line, "deep-idle offset %lld ns is out of range (0..10 s)",
				    (long long)b);
		if (w->offset[a] >= 0)
			return FAIL(w, -1, line, "deep-idle offset of CPU %lld of '%s' given again",
				    (long long)a, w->dev);
		w->offset[a] = b;
	}
	return 0;
}

static int parse_infos(struct wctx *w)
{
	char *buf;
	size_t len;
	struct lex l = { 0 };
	enum table tb = TB_NONE;
	bool after_table = false;
	int rc = 0;

	if (ea_read_file(w->infos, W_MAX_FILE, &buf, &len, w->err))
		return -1;
	if (memchr(buf, '\0', len)) {
		free(buf);
		return ea_imp_fail(&w->b, w->infos, "a NUL byte: not Wattson's device_infos.sql");
	}
	l.p = buf;
	l.end = buf + len;
	l.line = 1;
	next(&l);
	while (l.t != T_END && !rc) {
		if (l.t == T_ID) {
			if (!strcasecmp(l.s, "CREATE"))
				tb = TB_NONE;
			if (after_table) {
				if (!strcmp(l.s, "_device_cpu_deep_idle_offsets"))
					tb = TB_OFFSETS;
				else if (!strcmp(l.s, "_cpu_to_policy_map"))
					tb = TB_POLICY;
				else if (!strcmp(l.s, "_idle_state_map"))
					tb = TB_IDLE;
			}
			after_table = !strcasecmp(l.s, "TABLE");
			next(&l);
			continue;
		}
		after_table = false;
		if (tb != TB_NONE && l.t == T_PUNCT && l.c == '(') {
			next(&l);
			if (l.t == T_STR)
				rc = tuple(w, &l, tb);
			continue;
		}
		next(&l);
	}
	free(buf);
	return rc;
}

/* ---- which files ---- */

static bool regular(const char *path, struct stat *st)
{
	return !stat(path, st) && S_ISREG(st->st_mode);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* DIR/NAME, with a leading "../" of NAME taken off DIR when it can be. */
static char *up(const char *dir, const char *name)
{
	const char *slash = strrchr(dir, '/'), *last = slash ? slash + 1 : dir;

	if (strncmp(name, "../", 3) || !*last || !strcmp(last, ".") ||
	    !strcmp(last, ".."))
		return join(dir, name);
	if (!slash)
		return strdup(name + 3);
	if (slash == dir)
		return join("", name + 3);
	{
		char *parent = strndup(dir, (size_t)(slash - dir)), *p;

		if (!parent)
			return NULL;
		p = join(parent, name + 3);
		free(parent);
		return p;
	}
}

static int add_file(struct wctx *w, char *path)
{
	if (!path)
		return ea_imp_fail(&w->b, w->src, "out of memory");
	w->files[w->nfiles++].path = path;
	return 0;
}

/* SRC is DIR or one of its CSV files; the other CSV and device_infos.sql
 * are looked for beside it. */
static int locate(struct wctx *w)
{
	static const char *const infos[] = {
		"device_infos.sql", "sql/device_infos.sql",
		"../sql/device_infos.sql", "../device_infos.sql",
	};
	struct stat st, st2;
	char *dir, *p;
	int rc = 0;

	if (stat(w->src, &st))
		return ea_imp_fail(&w->b, w->src, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		size_t n = strlen(w->src);

		while (n > 1 && w->src[n - 1] == '/')
			n--;
		dir = strndup(w->src, n);
		if (!dir)
			return ea_imp_fail(&w->b, w->src, "out of memory");
		for (int i = 0; i < 2 && !rc; i++) {
			p = join(dir, i ? "cpu_2d.csv" : "cpu_1d.csv");
			if (p && !regular(p, &st2)) {
				free(p);
				continue;
			}
			rc = add_file(w, p);
		}
		if (!rc && !w->nfiles)
			rc = ea_imp_fail(&w->b, w->src, "no cpu_1d.csv or cpu_2d.csv in this directory: not a Wattson curve directory");
	} else {
		const char *base = strrchr(w->src, '/'), *other = NULL;

		base = base ? base + 1 : w->src;
		dir = base == w->src ? strdup(".") : strndup(w->src, (size_t)(base - w->src - 1));
		if (!dir)
			return ea_imp_fail(&w->b, w->src, "out of memory");
		if (!*dir) {
			free(dir);
			dir = strdup("/");
			if (!dir)
				return ea_imp_fail(&w->b, w->src, "out of memory");
		}
		rc = add_file(w, strdup(w->src));
		if (!strcmp(base, "cpu_1d.csv"))
			other = "cpu_2d.csv";
		else if (!strcmp(base, "cpu_2d.csv"))
			other = "cpu_1d.csv";
		if (!rc && other) {
			p = join(dir, other);
			if (p && regular(p, &st2) &&
			    (st2.st_ino != st.st_ino || st2.st_dev != st.st_dev))
				rc = add_file(w, p);
			else
				free(p);
		}
	}
	if (!rc && w->o->device_infos) {
		w->infos = strdup(w->o->device_infos);
		if (!w->infos)
			rc = ea_imp_fail(&w->b, w->src, "out of memory");
	}
	for (size_t i = 0; !rc && !w->infos && i < sizeof(infos) / sizeof(infos[0]); i++) {
		p = up(dir, infos[i]);
		if (!p)
			rc = ea_imp_fail(&w->b, w->src, "out of memory");
		else if (regular(p, &st2))
			w->infos = p;
		else
			free(p);
	}
	if (!rc && !w->infos)
		rc = ea_imp_fail(&w->b, w->src, "no Wattson device_infos.sql beside it (nor in sql/, ../sql/ or ..): give --device-infos FILE (its CPU-to-policy map)");
	free(dir);
	return rc;
}

/* ---- the device ---- */

static bool dev_match(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = *a == '_' ? ' ' : tolower((unsigned char)*a);
		int y = *b == '_' ? ' ' : tolower((unsigned char)*b);

		if (x != y)
			return false;
	}
	return !*a && !*b;
}

static int choose_device(struct wctx *w)
{
	int n = 0;

	if (!w->nrows)
		return ea_imp_fail(&w->b, w->files[0].path, "no curve rows, only a header");
	if (w->o->device) {
		for (int i = 0; i < w->nrows && !w->dev[0]; i++)
			if (dev_match(w->rows[i].dev, w->o->device))
				strcpy(w->dev, w->rows[i].dev);
		if (!w->dev[0])
			return ea_imp_fail(&w->b, w->src, "--device '%s': no curves for it (the first row is for '%s')",
					   w->o->device, w->rows[0].dev);
	} else {
		strcpy(w->dev, w->rows[0].dev);
		for (int i = 0; i < w->nrows; i++)
			if (strcmp(w->rows[i].dev, w->dev))
				return FAIL(w, w->rows[i].file, w->rows[i].line,
					    "curves for several devices ('%s' and '%s'): choose one with --device",
					    w->dev, w->rows[i].dev);
	}
	for (int i = 0; i < w->nrows; i++)
		if (!strcmp(w->rows[i].dev, w->dev))
			w->rows[n++] = w->rows[i];
	w->nrows = n;
	return 0;
}

static int cmp3(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct wrow *a = pa, *b = pb;
	int c;

	if ((c = cmp3((uint64_t)a->policy, (uint64_t)b->policy)))
		return c;
	if ((c = cmp3(a->dep_policy != W_NO_DEP, b->dep_policy != W_NO_DEP)))
		return c;
	if ((c = cmp3(a->freq, b->freq)))
		return c;
	if ((c = cmp3((uint64_t)(a->dep_policy + 1), (uint64_t)(b->dep_policy + 1))))
		return c;
	if ((c = cmp3(a->dep_freq, b->dep_freq)))
		return c;
	if ((c = cmp3((uint64_t)a->file, (uint64_t)b->file)))
		return c;
	return cmp3((uint64_t)a->line, (uint64_t)b->line);
}

static int sort_rows(struct wctx *w)
{
	qsort(w->rows, (size_t)w->nrows, sizeof(*w->rows), cmp_row);
	for (int i = 1; i < w->nrows; i++) {
		const struct wrow *a = &w->rows[i - 1], *r = &w->rows[i];

		if (a->policy == r->policy && a->freq == r->freq &&
		    a->dep_policy == r->dep_policy && a->dep_freq == r->dep_freq)
			return FAIL(w, r->file, r->line, "policy %d at %u kHz%s given again (first at %s:%d)",
				    r->policy, r->freq,
				    r->dep_policy == W_NO_DEP ? "" : " with the same dependency",
				    w->files[a->file].path, a->line);
	}
	return 0;
}

/* ---- the clusters ---- */

struct opp {
	uint32_t freq;
	double stat, active, idle0, idle1;
	int file, line;
};

static void to_opp(const struct wrow *r, struct opp *o)
{
	*o = (struct opp){ r->freq, r->stat, r->active, r->idle0, r->idle1,
			   r->file, r->line };
}

static void cpus_text(struct wctx *w, int pol, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int c = 0; c < EA_MODEL_MAX_CPUS && len + 12 < n; c++) {
		int e = c;

		if (w->policy[c] != pol)
			continue;
		while (e + 1 < EA_MODEL_MAX_CPUS && w->policy[e + 1] == pol)
			e++;
		len += (size_t)snprintf(buf + len, n - len, "%s%d", len ? "," : "", c);
		if (e > c)
			len += (size_t)snprintf(buf + len, n - len, "-%d", e);
		c = e;
	}
}

/*
 * A policy only cpu_2d.csv has: one row per OPP, at Wattson's default vote
 * (the lowest dependency frequency, with the dependency policy of the first
 * row that has it), which Wattson itself uses while no CPU of the policies
 * it depends on is active.
 */
static int reduce_2d(struct wctx *w, int pol, const struct wrow *r, int n,
		     struct opp *o, int *no)
{
	const struct wrow *ref = &r[0];
	int nsub = 0, ndep = 0, deps[8];
	double lo = INFINITY, hi = -INFINITY;
	char cpus[200], deptext[120] = "";
	size_t dl = 0;

	const struct ea_import_kv *kv = NULL;
	long long want_dp = -1, want_df = -1;

	for (int k = 0; k < w->o->ndep_freqs_kv; k++) {
		const char *key = w->o->dep_freqs[k].key;
		char *e;
		long v;

		if (!strncmp(key, "policy", 6))
			key += 6;
		v = strtol(key, &e, 10);
		if (e != key && !*e && v == pol) {
			kv = &w->o->dep_freqs[k];
			w->dep_used[k] = true;
		}
	}
	if (kv) {
		const char *colon = strchr(kv->val, ':');
		char *e;

		if (colon) {
			want_dp = strtoll(kv->val, &e, 10);
			if (e != colon || e == kv->val || want_dp < 0)
				return ea_imp_fail(&w->b, w->src, "--dep-freq %s=%s: not POLICY=[DEP_POLICY:]FREQ",
						   kv->key, kv->val);
		}
		want_df = strtoll(colon ? colon + 1 : kv->val, &e, 10);
		if (*e || e == (colon ? colon + 1 : kv->val) || want_df <= 0)
			return ea_imp_fail(&w->b, w->src, "--dep-freq %s=%s: not POLICY=[DEP_POLICY:]FREQ",
					   kv->key, kv->val);
	}
	for (int i = 0; i < n; i++) {
		bool seen = false;

		if (r[i].dep_freq < ref->dep_freq ||
		    (r[i].dep_freq == ref->dep_freq &&
		     (r[i].file < ref->file || (r[i].file == ref->file && r[i].line < ref->line))))
			ref = &r[i];
		for (int k = 0; k < ndep; k++)
			seen |= deps[k] == r[i].dep_policy;
		if (!seen && ndep < 8)
			deps[ndep++] = r[i].dep_policy;
	}
	if (kv) {
		const struct wrow *hit = NULL;

		if (want_dp < 0)
			want_dp = ref->dep_policy;
		for (int i = 0; i < n && !hit; i++)
			if (r[i].dep_policy == want_dp && r[i].dep_freq == (uint64_t)want_df)
				hit = &r[i];
		if (!hit)
			return ea_imp_fail(&w->b, w->src, "--dep-freq %s=%s: no cpu_2d.csv row of policy %d depends on policy %lld at %lld",
					   kv->key, kv->val, pol, want_dp, want_df);
		ref = hit;
	}
	*no = 0;
	for (int i = 0; i < n;) {
		int j = i;
		const struct wrow *pick = NULL;

		while (j < n && r[j].freq == r[i].freq)
			j++;
		for (int k = i; k < j && !pick; k++)
			if (r[k].dep_policy == ref->dep_policy && r[k].dep_freq == ref->dep_freq)
				pick = &r[k];
		if (!pick) {
			/* the nearest dep_freq of the same dependency, the
			 * lower one on a tie (rows are by dep_freq) */
			uint64_t best = UINT64_MAX;

			for (int q = i; q < j; q++) {
				uint64_t d = r[q].dep_freq > ref->dep_freq ?
						     r[q].dep_freq - ref->dep_freq :
						     ref->dep_freq - r[q].dep_freq;

				if (r[q].dep_policy == ref->dep_policy && d < best) {
					best = d;
					pick = &r[q];
				}
			}
		}
		if (!pick)
			pick = &r[i];
		if (pick->dep_policy != ref->dep_policy || pick->dep_freq != ref->dep_freq)
			nsub++;
		if (j == n) {
			for (int k = i; k < j; k++) {
				lo = fmin(lo, r[k].active);
				hi = fmax(hi, r[k].active);
			}
		}
		to_opp(pick, &o[(*no)++]);
		i = j;
	}
	for (int k = 0; k < ndep && dl + 20 < sizeof(deptext); k++)
		dl += (size_t)snprintf(deptext + dl, sizeof(deptext) - dl, "%s%s%d",
				       k ? (k + 1 == ndep ? " or " : ", ") : "",
				       deps[k] == 255 ? "the DSU (dep_policy " : "policy ",
				       deps[k]);
	for (int k = 0; k < ndep; k++)
		if (deps[k] == 255 && dl + 2 < sizeof(deptext))
			dl += (size_t)snprintf(deptext + dl, sizeof(deptext) - dl, ")");
	cpus_text(w, pol, cpus, sizeof(cpus));
	if (kv)
		ea_imp_note(&w->b, "policy%d (CPUs %s) is only in cpu_2d.csv: its power depends on the frequency of %s%s. Reduced at --dep-freq %s=%s (%s%d at %llu): exact while that is the dependency Wattson votes for (at the top OPP, active power spans %g..%g mW over the dependency's frequencies).",
			    pol, cpus, deptext,
			    strstr(deptext, "DSU") ? "; the DSU's frequency comes from devfreq, which eatrace does not read" : "",
			    kv->key, kv->val, ref->dep_policy == 255 ? "dep_policy " : "policy ",
			    ref->dep_policy, (unsigned long long)ref->dep_freq, lo, hi);
	else if (ref->dep_policy == 255)
		ea_imp_note(&w->b, "policy%d (CPUs %s) is only in cpu_2d.csv: its power depends on the frequency of %s%s. Reduced at the lowest DSU frequency of its rows (%llu): exact while the DSU runs there, an underestimate when it runs faster (Wattson reads the DSU's frequency from devfreq events; at the top OPP, active power spans %g..%g mW over the DSU's frequencies; --dep-freq picks another).",
			    pol, cpus, deptext,
			    "; the DSU's frequency comes from devfreq, which eatrace does not read",
			    (unsigned long long)ref->dep_freq, lo, hi);
	else
		ea_imp_note(&w->b, "policy%d (CPUs %s) is only in cpu_2d.csv: its power depends on the frequency of %s%s. Reduced to Wattson's default vote, the lowest dependency frequency (policy %d at %llu), which Wattson itself uses while no CPU of the policies it depends on is active: exact then, an underestimate when they run faster (at the top OPP, active power spans %g..%g mW over the dependency's frequencies; --dep-freq picks another).",
			    pol, cpus, deptext,
			    strstr(deptext, "DSU") ? "; the DSU's frequency comes from devfreq, which eatrace does not read" : "",
			    ref->dep_policy, (unsigned long long)ref->dep_freq, lo, hi);
	if (nsub)
		ea_imp_note(&w->b, "policy%d: %d OPP%s no row at that dependency frequency: the nearest dependency frequency of the same policy there is used instead.",
			    pol, nsub, nsub == 1 ? " has" : "s have");
	return 0;
}

/*
 * ns x mW -> mW x s, rounded to 1e-12 (far below the model's micro-unit
 * quantum) so that 450000 ns x 13.64 mW is written 0.006138, not
 * 0.006138000000000001.
 */
static double mws(int64_t ns, double mw)
{
	return round((double)ns * mw / 1e9 * 1e12) / 1e12;
}

static void state_name(char *buf, size_t n, int k, int wk)
{
	if (k == wk)
		snprintf(buf, n, "idle%d", k);
	else
		snprintf(buf, n, "state%d-idle%d", k, wk);
}

static int build_cluster(struct wctx *w, int pol, const struct opp *o, int n)
{
	struct ea_imp *b = &w->b;
	char name[EA_NAME_LEN], sname[EA_NAME_LEN], cpus[200];
	int ci, r = (n - 1) / 2, nstates = 2, nmissing = 0;
	int64_t off = -1;
	bool differ = false;
	double lo0 = INFINITY, hi0 = -INFINITY, lo1 = INFINITY, hi1 = -INFINITY;

	snprintf(name, sizeof(name), "policy%d", pol);
	ci = ea_imp_cluster(b, name, at(w, o[0].file, o[0].line));
	if (ci < 0)
		return -1;
	for (int c = 0; c < EA_MODEL_MAX_CPUS; c++) {
		if (w->policy[c] != pol)
			continue;
		if (ea_imp_cpu(b, ci, c, at(w, -1, w->pol_line[c])))
			return -1;
		if (w->offset[c] < 0)
			nmissing++;
		else if (off >= 0 && w->offset[c] != off)
			differ = true;
		if (w->offset[c] > off)
			off = w->offset[c];
	}
	if (off < 0)
		off = 0;
	for (int k = 0; k < n; k++) {
		if (ea_imp_cap(b, ci, o[k].freq, 0, o[k].active, o[k].stat,
			       at(w, o[k].file, o[k].line)))
			return -1;
		lo0 = fmin(lo0, o[k].idle0);
		hi0 = fmax(hi0, o[k].idle0);
		lo1 = fmin(lo1, o[k].idle1);
		hi1 = fmax(hi1, o[k].idle1);
	}
	if (w->have_idle_map) {
		nstates = 0;
		for (int k = 0; k < EA_MODEL_MAX_IDLE_STATES; k++)
			if (w->idle_map[k] != -2)
				nstates = k + 1;
	}
	for (int k = 0; k < nstates; k++) {
		int wk = !w->have_idle_map ? k : w->idle_map[k] == -2 ? 1 : w->idle_map[k];
		double core = wk ? o[r].idle1 : o[r].idle0, cw = 0, clw = 0;

		if (k == 1 && off > 0) {
			cw = mws(off, fmax(0, o[r].active - core));
			clw = mws(off, o[r].stat);
		}
		state_name(sname, sizeof(sname), k, wk);
		if (ea_imp_idle(b, ci, sname, core, 0, cw, clw, 0,
				at(w, o[r].file, o[r].line)))
			return -1;
	}
	cpus_text(w, pol, cpus, sizeof(cpus));
	if (hi1 > 0)
		snprintf(sname, sizeof(sname), ", idle1 %g..%g mW", lo1, hi1);
	else
		snprintf(sname, sizeof(sname), ", idle1 0 at every OPP");
	ea_imp_note(b, "policy%d (CPUs %s): idle powers at %u kHz (over the OPPs Wattson's idle0 spans %g..%g mW%s); deep-idle exit offset %lld ns%s%s.",
		    pol, cpus, o[r].freq, lo0, hi0, sname, (long long)off,
		    differ ? " (the largest of its CPUs': they differ)" : "",
		    nmissing ? " (some CPUs have none in device_infos.sql: 0)" : "");
	return 0;
}

static int build(struct wctx *w)
{
	struct opp *o = malloc((size_t)(w->nrows ? w->nrows : 1) * sizeof(*o));
	bool *has = calloc(EA_MODEL_MAX_CPUS, sizeof(*has));
	bool any_ic = false, any = false;
	int i = 0, rc = 0;

	if (!o || !has) {
		free(o);
		free(has);
		return ea_imp_fail(&w->b, w->src, "out of memory");
	}
	for (int c = 0; c < EA_MODEL_MAX_CPUS; c++)
		if (w->policy[c] >= 0)
			any = has[w->policy[c]] = true;
	if (!any)
		rc = ea_imp_fail(&w->b, w->infos, "no CPU-to-policy map for device '%s' in _cpu_to_policy_map (a device this copy of Wattson does not know?)",
				 w->dev);
	/* rows naming a policy the device does not have */
	for (int k = 0; k < w->nrows && !rc; k++) {
		if (!has[w->rows[k].policy])
			rc = FAIL(w, w->rows[k].file, w->rows[k].line,
				  "policy %d is not a cpufreq policy of '%s' in %s",
				  w->rows[k].policy, w->dev, w->infos);
		if (w->rows[k].ic > 0)
			any_ic = true;
	}
	/* one cluster per policy, in policy order */
	for (int pol = 0; pol < EA_MODEL_MAX_CPUS && !rc; pol++) {
		int n1 = 0, n2 = 0, j;

		if (!has[pol])
			continue;
		while (i < w->nrows && w->rows[i].policy < pol)
			i++;
		for (j = i; j < w->nrows && w->rows[j].policy == pol; j++) {
			if (w->rows[j].dep_policy == W_NO_DEP)
				to_opp(&w->rows[j], &o[n1++]);
			else
				n2++;
		}
		if (n1) {
			if (n2)
				ea_imp_note(&w->b, "policy%d: cpu_1d.csv has it; its cpu_2d.csv rows are not used.", pol);
			rc = build_cluster(w, pol, o, n1);
		} else if (n2) {
			int no = 0;

			rc = reduce_2d(w, pol, &w->rows[i], n2, o, &no);
			if (!rc)
				rc = build_cluster(w, pol, o, no);
		} else {
			char cpus[200];

			cpus_text(w, pol, cpus, sizeof(cpus));
			rc = ea_imp_fail(&w->b, w->src, "device '%s': policy %d (CPUs %s) has no curve in cpu_1d.csv or cpu_2d.csv",
					 w->dev, pol, cpus);
		}
		i = j;
	}
	free(o);
	free(has);
	for (int k = 0; !rc && k < w->o->ndep_freqs_kv; k++)
		if (!w->dep_used[k])
			rc = ea_imp_fail(&w->b, w->src, "--dep-freq %s=%s: '%s' is not a policy of '%s' that only cpu_2d.csv has",
					 w->o->dep_freqs[k].key, w->o->dep_freqs[k].val,
					 w->o->dep_freqs[k].key, w->dev);
	if (rc)
		return rc;
	if (any_ic)
		ea_imp_note(&w->b, "Not imported: cpu_2d.csv's interconnect column, which Wattson adds to its DSU/SCU estimate (keyed on policy 0's OPP and dependency, paid whenever not suspended): eatrace prices CPUs and clusters only.");
	return 0;
}

static void notes(struct wctx *w)
{
	char files[1300];

	snprintf(files, sizeof(files), "%s%s%s", w->files[0].path,
		 w->nfiles > 1 ? " and " : "", w->nfiles > 1 ? w->files[1].path : "");
	ea_imp_note(&w->b, "Wattson CPU power curves for '%s' (%s; CPU numbering, deep-idle exit offsets and cpuidle state map from %s). Wattson ships with Perfetto (github.com/google/perfetto), Apache License 2.0.",
		    w->dev, files, w->infos);
	ea_imp_note(&w->b, "Units: the curves are in mW, kept as is (power_unit mW); wakeup energies in mW x s (mJ): deep-idle exit offset (ns) x 1e-9 x power (mW).");
	ea_imp_note(&w->b, "Mapping: one cluster per cpufreq policy; core_power = active, cluster_power = static (Wattson charges it while any CPU of the policy is active); idle state k = cpuidle index k, priced as Wattson's idle0 or idle1 (its device map), cluster idle power 0. cpuidle state 1's wakeup: core = offset x (active - idle) and cluster = offset x static, because Wattson counts a CPU leaving state 1 as active for that long before the event.");
	ea_imp_note(&w->b, "Reductions (the model has one idle power per state, Wattson one per OPP): idle powers and wakeup energies are Wattson's at the policy's median OPP (the lower one of an even count), exact when the policy runs there; Wattson shortens the exit offset when the idle period was shorter, eatrace does not; a cluster wakeup is charged when the whole cluster was idle in state 1 (Wattson also when another CPU sat in idle0).");
	ea_imp_note(&w->b, "Not expressed: Wattson's L3 hit/miss energy, DSU/devfreq and GPU/TPU curves; suspended and offline time (Wattson: 0 mW); frequencies not in the table (Wattson finds no curve row and counts nothing; eatrace: the nearest OPP at or above); cpuidle states deeper than the model's last (Wattson: no curve row, no exit offset; eatrace prices them as the last state, its wakeup included). Capacities are derived from frequency (no capacities in Wattson): give --capacity for real ones. Target residencies 0.");
}

int ea_import_wattson(struct ea_model **out, const char *src,
		      const struct ea_import_opts *opts, struct ea_err *err)
{
	static const struct ea_import_opts none;
	struct wctx *w = calloc(1, sizeof(*w));
	int rc = -1;

	*out = NULL;
	if (!w) {
		ea_err_set(err, "%s: out of memory", src);
		goto scrub;
	}
	w->src = src;
	w->o = opts ? opts : &none;
	w->err = err;
	if (ea_imp_init(&w->b, src, opts, err))
		goto free_w;
	w->policy = malloc(EA_MODEL_MAX_CPUS * sizeof(int));
	w->pol_line = calloc(EA_MODEL_MAX_CPUS, sizeof(int));
	w->offset = malloc(EA_MODEL_MAX_CPUS * sizeof(int64_t));
	w->dep_used = calloc((size_t)w->o->ndep_freqs_kv + 1, sizeof(bool));
	if (!w->policy || !w->pol_line || !w->offset || !w->dep_used) {
		ea_imp_fail(&w->b, src, "out of memory");
		goto free_all;
	}
	for (int c = 0; c < EA_MODEL_MAX_CPUS; c++) {
		w->policy[c] = -1;
		w->offset[c] = -1;
	}
	for (int k = 0; k < EA_MODEL_MAX_IDLE_STATES; k++)
		w->idle_map[k] = -2;
	if (locate(w))
		goto free_all;
	for (int i = 0; i < w->nfiles; i++)
		if (parse_csv(w, i))
			goto free_all;
	if (choose_device(w) || sort_rows(w) || parse_infos(w))
		goto free_all;
	notes(w);
	if (build(w))
		goto free_all;
	strcpy(w->b.m->power_unit, "mW");
	snprintf(w->b.m->name, sizeof(w->b.m->name), "%s (Wattson)", w->dev);
	rc = ea_imp_finish(&w->b, "Wattson curve", out);
free_all:
	ea_imp_free(&w->b);
	for (int i = 0; i < w->nfiles; i++)
		free(w->files[i].path);
	free(w->rows);
	free(w->infos);
	free(w->policy);
	free(w->pol_line);
	free(w->offset);
	free(w->dep_used);
free_w:
	free(w);
scrub:
	if (rc)
		ea_import_scrub(err);
	return rc;
}

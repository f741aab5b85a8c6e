// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wattson's curve files (wattson.h): cpu_1d.csv (device,policy,freq_khz,
 * static,active,idle0,idle1) and cpu_2d.csv (with dep_policy,dep_freq and
 * interconnect) read into rows, in mW; the rows of one device kept, sorted,
 * and a repeated (policy, frequency, dependency) refused.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/wattson.h"

/* ---- cpu_1d.csv / cpu_2d.csv ---- */

enum col {
	C_DEV,
	C_POL,
	C_FREQ,
	C_DEPP,
	C_DEPF,
	C_STAT,
	C_ACT,
	C_I0,
	C_I1,
	C_IC,
	NCOL
};

static const char *const col_name[NCOL] = {
	"device", "policy", "freq_khz", "dep_policy", "dep_freq",
	"static", "active", "idle0",	"idle1",      "interconnect",
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
		return FAIL(w, fi, line,
			    "%s: %.0f is out of range (%.0f..%.0f)",
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
		return FAIL(w, fi, line, "%s: %g mW is negative", col_name[c],
			    *v);
	if (*v > EA_MODEL_MAX_POWER)
		return FAIL(w, fi, line,
			    "%s: %g is beyond the sanity limit 1e9 mW",
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

static int parse_row(struct wctx *w, int fi, int line, const char *s, size_t n,
		     const int *pos, int nfields)
{
	const char *f[64];
	size_t fl[64];
	int k = 0;
	struct wrow r = {.dep_policy = W_NO_DEP, .line = line, .file = fi};
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
				return FAIL(w, fi, line,
					    "device: the name must be 1 to %d "
					    "characters",
					    W_DEV_LEN - 1);
			for (size_t i = 0; i < xn; i++)
				if (iscntrl((unsigned char)x[i]) || x[i] == '"')
					return FAIL(
						w, fi, line,
						"device: a control character "
						"or quote in the name");
			memcpy(r.dev, x, xn);
			r.dev[xn] = '\0';
			break;
		case C_POL:
			if (int_field(w, fi, line, c, x, xn, 0,
				      EA_MODEL_MAX_CPUS - 1, &v))
				return -1;
			r.policy = (int)v;
			break;
		case C_FREQ:
			if (int_field(w, fi, line, c, x, xn, 1,
				      EA_MODEL_MAX_FREQ_KHZ, &v))
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
			if (strlen(col_name[j]) != nl ||
			    strncmp(col_name[j], name, nl))
				continue;
			if (pos[j] >= 0)
				return FAIL(w, fi, 1, "column '%s' given twice",
					    col_name[j]);
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
		bool need = j != C_IC && (w->files[fi].two_d ||
					  (j != C_DEPP && j != C_DEPF));

		if (need && pos[j] < 0)
			return FAIL(w, fi, 1,
				    "no '%s' column: not a Wattson curve file "
				    "(expected "
				    "device,policy,freq_khz,%sstatic,active,"
				    "idle0,idle1)",
				    col_name[j],
				    w->files[fi].two_d ? "dep_policy,dep_freq,"
						       : "");
	}
	return 0;
}

int ea_wattson_read_curves(struct wctx *w, int fi)
{
	char *buf;
	size_t len, off = 0;
	int line = 0, pos[NCOL], nfields = 0, rc = 0;
	bool header = false;

	if (ea_read_file(w->files[fi].path, W_MAX_FILE, &buf, &len, w->err))
		return -1;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		off = 3; /* a UTF-8 byte-order mark */
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
			rc = FAIL(w, fi, line,
				  "a NUL byte: not a CSV text file");
			break;
		}
		tn = n;
		trim(&t, &tn);
		if (!tn)
			continue; /* blank line */
		if (memchr(s, '"', n)) {
			rc = FAIL(w, fi, line,
				  "quoted fields are not supported (Wattson's "
				  "curves have none)");
			break;
		}
		if (!header) {
			if (line != 1) {
				rc = FAIL(w, fi, line,
					  "the header must be the first line");
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

int ea_wattson_choose_device(struct wctx *w)
{
	int n = 0;

	if (!w->nrows)
		return ea_imp_fail(&w->b, w->files[0].path,
				   "no curve rows, only a header");
	if (w->o->device) {
		for (int i = 0; i < w->nrows && !w->dev[0]; i++)
			if (dev_match(w->rows[i].dev, w->o->device))
				strcpy(w->dev, w->rows[i].dev);
		if (!w->dev[0])
			return ea_imp_fail(&w->b, w->src,
					   "--device '%s': no curves for it "
					   "(the first row is for '%s')",
					   w->o->device, w->rows[0].dev);
	} else {
		strcpy(w->dev, w->rows[0].dev);
		for (int i = 0; i < w->nrows; i++)
			if (strcmp(w->rows[i].dev, w->dev))
				return FAIL(
					w, w->rows[i].file, w->rows[i].line,
					"curves for several devices ('%s' and "
					"'%s'): choose one with --device",
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
	if ((c = cmp3((uint64_t)(a->dep_policy + 1),
		      (uint64_t)(b->dep_policy + 1))))
		return c;
	if ((c = cmp3(a->dep_freq, b->dep_freq)))
		return c;
	if ((c = cmp3((uint64_t)a->file, (uint64_t)b->file)))
		return c;
	return cmp3((uint64_t)a->line, (uint64_t)b->line);
}

int ea_wattson_sort_rows(struct wctx *w)
{
	qsort(w->rows, (size_t)w->nrows, sizeof(*w->rows), cmp_row);
	for (int i = 1; i < w->nrows; i++) {
		const struct wrow *a = &w->rows[i - 1], *r = &w->rows[i];

		if (a->policy == r->policy && a->freq == r->freq &&
		    a->dep_policy == r->dep_policy &&
		    a->dep_freq == r->dep_freq)
			return FAIL(w, r->file, r->line,
				    "policy %d at %u kHz%s given again (first "
				    "at %s:%d)",
				    r->policy, r->freq,
				    r->dep_policy == W_NO_DEP
					    ? ""
					    : " with the same dependency",
				    w->files[a->file].path, a->line);
	}
	return 0;
}

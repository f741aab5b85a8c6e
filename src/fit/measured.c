// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measurement CSV of `eatrace model fit` and `model check --measured`
 * (docs/model-fit.md "Measurements"):
 *
 *     start_s,end_s,rail,energy
 *     2084.500000,2084.510000,little,12.25
 *
 * one window per line: its start and end in the trace's own seconds (the
 * timestamps the trace prints), the rail measured, its energy over the
 * window in the model's power_unit x seconds. A header line, blank lines
 * and lines starting with '#' are skipped; fields may be surrounded by
 * blanks, lines may end in CRLF. Each rail's windows follow each other
 * in time without gap or overlap (a meter's consecutive readings); rails
 * may be interleaved. Anything else is refused at its line.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/fit.h"
#include "eatrace/input.h"

#define MAX_CSV_BYTES (1u << 30)

void ea_meas_free(struct ea_meas *m)
{
	if (!m)
		return;
	free(m->source);
	free(m->rails);
	free(m->subsys);
	free(m->rail_line);
	free(m->w);
	free(m);
}

/* Exact seconds ("2084.5", "12") to ns; else strtod ("1.5e3"). */
static bool parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, fdigits = 0;
	const char *p = s;
	char *end;
	double v;

	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (sec > 1000000000ull)
			return false;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (fdigits < 9)
				frac = frac * 10 + (uint64_t)(*p - '0');
			else if (fdigits == 9 && *p >= '5')
				frac++; /* rounded to the nearest ns */
			fdigits++;
		}
	if (!*p && (digits || fdigits)) {
		for (int k = fdigits; k < 9; k++)
			frac *= 10;
		*ns = sec * 1000000000ull + frac;
		return true;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || errno || !isfinite(v) || v < 0 || v > 1.8e10)
		return false;
	*ns = (uint64_t)llround(v * 1e9);
	return true;
}

/* Split line (NUL-terminated, no newline) at commas, trimming blanks. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *comma = strchr(p, ',');
		char *e;

		if (n == max)
			return max + 1;
		if (comma)
			*comma = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p &&
		       (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		f[n++] = p;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

struct reader {
	struct ea_meas *m;
	size_t cap;
	uint64_t *last_end; /* per rail */
	int rail_cap;
	const char *path;
};

static int rail_index(struct reader *r, const char *name, uint32_t line)
{
	struct ea_meas *m = r->m;

	for (int i = 0; i < m->nrails; i++)
		if (!strcmp(m->rails[i], name))
			return i;
	if (m->nrails == r->rail_cap) {
		int n = r->rail_cap ? r->rail_cap * 2 : 8;
		void *a = realloc(m->rails, (size_t)n * sizeof(*m->rails));

		if (!a)
			return -1;
		m->rails = a;
		a = realloc(m->subsys, (size_t)n * sizeof(*m->subsys));
		if (!a)
			return -1;
		m->subsys = a;
		a = realloc(m->rail_line, (size_t)n * sizeof(*m->rail_line));
		if (!a)
			return -1;
		m->rail_line = a;
		a = realloc(r->last_end, (size_t)n * sizeof(*r->last_end));
		if (!a)
			return -1;
		r->last_end = a;
		r->rail_cap = n;
	}
	snprintf(m->rails[m->nrails], EA_FIT_RAIL_LEN, "%s", name);
	m->subsys[m->nrails][0] = '\0';
	m->rail_line[m->nrails] = line;
	r->last_end[m->nrails] = 0;
	return m->nrails++;
}

static const char *fmt_s(char *buf, uint64_t ns)
{
	snprintf(buf, 32, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u));
	return buf;
}

/* One data line; 0 or -1 with err. */
static int data_line(struct reader *r, char **f, int nf, uint32_t line,
		     struct ea_err *err)
{
	struct ea_meas *m = r->m;
	uint64_t t0, t1;
	double e;
	char *end, a[32], b[32];
	int rail;

	if (nf != 4)
		return ea_err_set(err,
				  "%s:%u: expected 4 fields "
				  "(start_s,end_s,rail,energy), got %d",
				  r->path, line, nf > 4 ? 5 : nf);
	if (!parse_seconds(f[0], &t0))
		return ea_err_set(
			err, "%s:%u: start_s '%.40s' is not a time in seconds",
			r->path, line, f[0]);
	if (!parse_seconds(f[1], &t1))
		return ea_err_set(
			err, "%s:%u: end_s '%.40s' is not a time in seconds",
			r->path, line, f[1]);
	if (t1 <= t0)
		return ea_err_set(
			err,
			"%s:%u: the window ends (%s s) before it starts (%s s)",
			r->path, line, fmt_s(a, t1), fmt_s(b, t0));
	if (!*f[2])
		return ea_err_set(err, "%s:%u: empty rail name", r->path, line);
	if (strlen(f[2]) >= EA_FIT_RAIL_LEN)
		return ea_err_set(err,
				  "%s:%u: rail name '%.40s...' is longer than "
				  "%d characters",
				  r->path, line, f[2], EA_FIT_RAIL_LEN - 1);
	for (const char *p = f[2]; *p; p++)
		if (iscntrl((unsigned char)*p))
			return ea_err_set(
				err,
				"%s:%u: control character in the rail name",
				r->path, line);
	errno = 0;
	e = strtod(f[3], &end);
	if (!*f[3] || *end || errno == ERANGE || !isfinite(e))
		return ea_err_set(err, "%s:%u: energy '%.40s' is not a number",
				  r->path, line, f[3]);
	if (e < 0)
		return ea_err_set(err,
				  "%s:%u: negative energy %.40s (a window's "
				  "energy is at least 0)",
				  r->path, line, f[3]);
	rail = rail_index(r, f[2], line);
	if (rail < 0)
		return ea_err_set(err, "out of memory");
	if (r->last_end[rail] && t0 != r->last_end[rail])
		return ea_err_set(
			err,
			"%s:%u: rail %s: the window starts at %s s but the "
			"previous one ended at %s s: %s (each rail's windows "
			"must follow each other)",
			r->path, line, f[2], fmt_s(a, t0),
			fmt_s(b, r->last_end[rail]),
			t0 > r->last_end[rail] ? "a gap" : "an overlap");
	r->last_end[rail] = t1;
	if (m->n == r->cap) {
		size_t n = r->cap ? r->cap * 2 : 256;
		struct ea_meas_win *w = realloc(m->w, n * sizeof(*w));

		if (!w)
			return ea_err_set(err, "out of memory");
		m->w = w;
		r->cap = n;
	}
	m->w[m->n++] = (struct ea_meas_win){t0, t1, rail, e, line};
	return 0;
}

static bool is_header(char **f, int nf)
{
	return nf >= 1 && !strcmp(f[0], "start_s");
}

int ea_meas_read_csv(struct ea_meas **out, const char *path, struct ea_err *err)
{
	struct reader r = {.path = path};
	FILE *fp;
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t len;
	uint32_t lineno = 0;
	int rc = 0;
	bool data = false;

	*out = NULL;
	/* a regular file (a FIFO could block), never one of the outputs */
	if (ea_input_check(path, err))
		return -1;
	r.m = calloc(1, sizeof(*r.m));
	if (!r.m || !(r.m->source = strdup(path))) {
		ea_meas_free(r.m);
		return ea_err_set(err, "out of memory");
	}
	fp = fopen(path, "r");
	if (!fp) {
		ea_meas_free(r.m);
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	}
	while (!rc && (len = getline(&line, &cap, fp)) >= 0) {
		char *f[5];
		int nf;

		lineno++;
		total += (size_t)len;
		if (total > MAX_CSV_BYTES) {
			rc = ea_err_set(err, "%s:%u: file larger than 1 GiB",
					path, lineno);
			break;
		}
		if ((size_t)len != strlen(line)) {
			rc = ea_err_set(err,
					"%s:%u: NUL byte in the line: not a "
					"CSV text file",
					path, lineno);
			break;
		}
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!line[strspn(line, " \t")] ||
		    line[strspn(line, " \t")] == '#')
			continue;
		nf = split(line, f, 4);
		if (!data && is_header(f, nf)) {
			if (nf != 4 || strcmp(f[1], "end_s") ||
			    strcmp(f[2], "rail") || strcmp(f[3], "energy"))
				rc = ea_err_set(err,
						"%s:%u: the header must be "
						"start_s,end_s,rail,energy",
						path, lineno);
			data = true;
			continue;
		}
		data = true;
		rc = data_line(&r, f, nf, lineno, err);
	}
	if (!rc && ferror(fp))
		rc = ea_err_set(err, "%s: %s", path, strerror(errno));
	fclose(fp);
	free(line);
	free(r.last_end);
	if (!rc && !r.m->n)
		rc = ea_err_set(err, "%s:%u: no measurement window in the file",
				path, lineno);
	if (rc) {
		ea_meas_free(r.m);
		return -1;
	}
	*out = r.m;
	return 0;
}

/*
 * Merging: consecutive windows of a rail (the end of one the start of the
 * next) add up until they span min_ns; the merged window keeps the first
 * one's line. The result is grouped by rail, each in time order.
 */
int ea_meas_merge(struct ea_meas *m, uint64_t min_ns)
{
	struct ea_meas_win *w;
	size_t out = 0;

	if (!min_ns || !m->n)
		return 0;
	w = malloc(m->n * sizeof(*w));
	if (!w)
		return -1;
	for (int rail = 0; rail < m->nrails; rail++) {
		struct ea_meas_win cur = {0};
		bool open = false;

		for (size_t i = 0; i < m->n; i++) {
			const struct ea_meas_win *x = &m->w[i];

			if (x->rail != rail)
				continue;
			if (open && x->t0 == cur.t1 &&
			    cur.t1 - cur.t0 < min_ns) {
				cur.t1 = x->t1;
				cur.energy += x->energy;
				continue;
			}
			if (open)
				w[out++] = cur;
			cur = *x;
			open = true;
		}
		if (open)
			w[out++] = cur;
	}
	free(m->w);
	m->w = w;
	m->n = out;
	return 0;
}

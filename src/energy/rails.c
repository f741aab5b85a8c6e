// SPDX-License-Identifier: GPL-2.0-only
/*
 * Power rails: the comparison of each rail's measured energy (its samples,
 * read from the trace into src/input/rail-samples.c's store) with the
 * estimate for the clusters it feeds (include/eatrace/rails.h,
 * docs/perfetto.md).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eatrace/rails.h"

/* ---- units ------------------------------------------------------------- */

bool ea_rails_unit(const char *u, double *f)
{
	static const struct {
		const char *unit;
		double uws;
	} units[] = {
		{"W", 1e6},	  {"mW", 1e3},	{"uW", 1},
		{"\xc2\xb5W", 1}, {"nW", 1e-3},
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].unit)) {
			*f = units[i].uws;
			return true;
		}
	return false;
}

/* ---- which clusters a rail feeds ---------------------------------------- */

/* s lowercased, letters and digits only, into out (n bytes). */
static void norm(const char *s, size_t len, char *out, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < len && s[i] && k + 1 < n; i++)
		if (isalnum((unsigned char)s[i]))
			out[k++] = (char)tolower((unsigned char)s[i]);
	out[k] = '\0';
}

/*
 * The next token of the text at *p (a run of letters and digits), normalised
 * as norm() does, into tok; *p moves past it. False when none is left.
 */
static bool next_token(const char **p, char tok[EA_RAIL_NAME_LEN])
{
	const char *s = *p;
	size_t len = 0;

	while (*s && !isalnum((unsigned char)*s))
		s++;
	while (isalnum((unsigned char)s[len]))
		len++;
	if (!len)
		return false;
	norm(s, len, tok, EA_RAIL_NAME_LEN);
	*p = s + len;
	return true;
}

/*
 * Whether a token of name is the cluster name N ("VDD_A57" for A57,
 * "CPU(BIG)" for big) or "cpu" + N ("POWER_RAIL_CPUBIG" for big).
 */
static bool names_cluster(const char *name, const char *n)
{
	char tok[EA_RAIL_NAME_LEN];

	if (!*n)
		return false;
	while (next_token(&name, tok))
		if (!strcmp(tok, n) ||
		    (!strncmp(tok, "cpu", 3) && !strcmp(tok + 3, n)))
			return true;
	return false;
}

/* "CPUCL<k>" in a token of name: k, else -1. */
static int cl_number(const char *name)
{
	char tok[EA_RAIL_NAME_LEN];

	while (next_token(&name, tok)) {
		char *end;
		long k;

		if (strncmp(tok, "cpucl", 5) || !isdigit((unsigned char)tok[5]))
			continue;
		k = strtol(tok + 5, &end, 10);
		if (!*end && k >= 0 && k < 1000)
			return (int)k;
	}
	return -1;
}

int ea_rail_feeds_by_name(const struct ea_model *m, const char *name,
			  const char *subsys, bool *feeds)
{
	int nfeeds = 0;

	for (int i = 0; i < m->nclusters; i++) {
		char n[EA_NAME_LEN];

		norm(m->clusters[i].name, sizeof(m->clusters[i].name), n,
		     sizeof(n));
		if (names_cluster(name, n) || names_cluster(subsys, n)) {
			feeds[i] = true;
			nfeeds++;
		}
	}
	if (!nfeeds) {
		int k = cl_number(name);

		if (k < 0)
			k = cl_number(subsys);
		if (k >= 0 && k < m->nclusters) {
			feeds[k] = true;
			nfeeds = 1;
		}
	}
	return nfeeds;
}

static void by_name(struct ea_rail_cmp *c, const struct ea_model *m)
{
	c->nfeeds = ea_rail_feeds_by_name(m, c->rail->name, c->rail->subsys,
					  c->feeds);
	c->mapped_by = c->nfeeds ? "name" : "none";
}

/* ---- the measurement --------------------------------------------------- */

/* The counter at t (first <= t <= last): interpolated between neighbours. */
static long double at(const struct ea_rail *r, uint64_t t)
{
	size_t lo = 0, hi = r->n - 1;

	/* the last sample at or before t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (r->s[mid].ts <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (r->s[lo].ts == t || lo + 1 == r->n)
		return (long double)r->s[lo].uws;
	return (long double)r->s[lo].uws +
	       ((long double)r->s[lo + 1].uws - (long double)r->s[lo].uws) *
		       (long double)(t - r->s[lo].ts) /
		       (long double)(r->s[lo + 1].ts - r->s[lo].ts);
}

static void measure(struct ea_rail_cmp *c, uint64_t t0, uint64_t t1)
{
	const struct ea_rail *r = c->rail;

	if (!r->n)
		return;
	c->from = t0 > r->s[0].ts ? t0 : r->s[0].ts;
	c->to = t1 < r->s[r->n - 1].ts ? t1 : r->s[r->n - 1].ts;
	if (c->from > c->to || (c->from == c->to && t0 != t1))
		return; /* no sample inside the window */
	for (size_t k = 1; k < r->n; k++)
		if (r->s[k].uws < r->s[k - 1].uws && r->s[k].ts > c->from &&
		    r->s[k - 1].ts < c->to)
			return; /* the counter went back (reset) */
	c->covers = c->from == t0 && c->to == t1;
	c->uws = (double)(at(r, c->to) - at(r, c->from));
	c->measured = true;
}

int ea_rails_compare(const struct ea_rails *rs, const struct ea_acct *a,
		     const struct ea_rail_map *maps, int nmaps,
		     struct ea_rail_cmp **out, size_t *nout, struct ea_err *err)
{
	const struct ea_model *m = a->model;
	struct ea_rail_cmp *cs;
	size_t n = rs ? rs->n : 0;
	double f = 0;
	bool conv = ea_rails_unit(m->power_unit, &f);

	*out = NULL;
	*nout = 0;
	for (int k = 0; k < nmaps; k++) {
		bool found = false;

		for (int i = 0; i < m->nclusters && !found; i++)
			found = !strcasecmp(m->clusters[i].name,
					    maps[k].cluster);
		if (!found)
			return ea_err_set(
				err, "--rail %s=%s: model %s has no cluster %s",
				maps[k].cluster, maps[k].rail, m->name,
				maps[k].cluster);
		found = false;
		for (size_t i = 0; i < n && !found; i++)
			found = !strcasecmp(rs->r[i].name, maps[k].rail);
		if (!found)
			return ea_err_set(err,
					  "--rail %s=%s: the trace has no "
					  "power rail %s (%zu rail%s)",
					  maps[k].cluster, maps[k].rail,
					  maps[k].rail, n, n == 1 ? "" : "s");
	}
	if (!n)
		return 0;
	cs = calloc(n, sizeof(*cs));
	if (!cs)
		return ea_err_set(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct ea_rail_cmp *c = &cs[i];

		c->rail = &rs->r[i];
		c->feeds = calloc((size_t)m->nclusters + 1, sizeof(bool));
		if (!c->feeds) {
			ea_rails_cmp_free(cs, i);
			return ea_err_set(err, "out of memory");
		}
		for (int k = 0; k < nmaps; k++) {
			if (strcasecmp(c->rail->name, maps[k].rail))
				continue;
			for (int j = 0; j < m->nclusters; j++)
				if (!strcasecmp(m->clusters[j].name,
						maps[k].cluster) &&
				    !c->feeds[j]) {
					c->feeds[j] = true;
					c->nfeeds++;
				}
			c->mapped_by = "option";
		}
		if (!c->mapped_by) {
			/* a rail named in no --rail, while some are given,
			 * feeds nothing unless its name says so */
			by_name(c, m);
		}
		for (int j = 0; j < m->nclusters; j++)
			if (c->feeds[j])
				c->estimate +=
					ea_energy_total(&a->clusters[j].e);
		measure(c, a->win_start, a->win_end);
		c->convertible = conv;
		if (c->measured && conv)
			c->energy = c->uws / f;
		c->has_diff = c->measured && c->covers && conv && c->nfeeds &&
			      c->energy > 0;
		if (c->has_diff)
			c->diff_pct =
				(ea_energy_to_double(c->estimate) - c->energy) /
				c->energy * 100.0;
	}
	*out = cs;
	*nout = n;
	return 0;
}

void ea_rails_cmp_free(struct ea_rail_cmp *c, size_t n)
{
	if (!c)
		return;
	for (size_t i = 0; i < n; i++)
		free(c[i].feeds);
	free(c);
}

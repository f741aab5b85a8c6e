// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import an idlestat energy-model file (scheduler-tools/idlestat,
 * energy_model.c), the format of energy_model_TC2:
 *
 *	clusters 2
 *	clusterA: 8 cap states 1 C states
 *	P-states:
 *	1200	15200	6997		MHz, cluster power, core power
 *	C-states:
 *	C1	25	0		name, cluster power, core power
 *	wakeup	210	5		cluster, core (RFC scaled units)
 *
 * Lines starting with '#' (and the rest of a line after '#') and blank
 * lines are ignored. The file gives no capacities and no CPUs: capacities
 * are derived from frequency (import-finish.c) and CPUs come from --trace,
 * --ncpus or --cpus.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/import-priv.h"
#include "model/import.h"

#define MAX_TOK 8

struct cstate {
	char name[EA_NAME_LEN];
	double cluster_power, core_power;
	char loc[300];
};

struct icluster {
	int ci;			/* index in the model */
	int line;
	int want_caps, want_cs;	/* declared counts, -1 if not given */
	int ncaps;
	struct cstate *cs;
	int ncs;
	bool have_wakeup;
	double wake_cluster, wake_core;
	int wakeup_line;
};

struct iparse {
	struct ea_imp *b;
	const char *file;
	int line;
	char loc[300];
};

static const char *loc_of(struct iparse *p)
{
	snprintf(p->loc, sizeof(p->loc), "%s:%d", p->file, p->line);
	return p->loc;
}

static int num(struct iparse *p, const char *tok, const char *what,
	       double *v)
{
	if (ea_parse_num(tok, strlen(tok), v))
		return ea_imp_fail(p->b, loc_of(p), "%s: '%s' is not a number",
				   what, tok);
	return 0;
}

static int count_tok(struct iparse *p, const char *tok, const char *what,
		     int *v)
{
	double d;

	if (num(p, tok, what, &d))
		return -1;
	if (d < 0 || d > 100000 || d != (int)d)
		return ea_imp_fail(p->b, loc_of(p), "%s: '%s' is not a count",
				   what, tok);
	*v = (int)d;
	return 0;
}

/* Close a cluster: check its declared counts, add its idle states. */
static int end_cluster(struct iparse *p, struct icluster *c)
{
	struct ea_imp *b = p->b;
	const char *name = b->m->clusters[c->ci].name;
	double cw = 0, kw = 0;
	bool wfi = false;
	char loc[300];

	snprintf(loc, sizeof(loc), "%s:%d", p->file, c->line);
	if (c->ncaps == 0)
		return ea_imp_fail(b, loc, "%s: no P-states", name);
	if (c->want_caps >= 0 && c->want_caps != c->ncaps)
		return ea_imp_fail(b, loc, "%s: declares %d cap states, lists %d",
				   name, c->want_caps, c->ncaps);
	if (c->want_cs >= 0 && c->want_cs != c->ncs)
		return ea_imp_fail(b, loc, "%s: declares %d C states, lists %d",
				   name, c->want_cs, c->ncs);
	if (c->have_wakeup) {
		cw = ea_rfc_wakeup(c->wake_cluster);
		kw = ea_rfc_wakeup(c->wake_core);
	}
	for (int k = 0; k < c->ncs; k++)
		if (!strcasecmp(c->cs[k].name, "WFI"))
			wfi = true;
	if (c->ncs && !wfi) {
		/*
		 * cpuidle state 0 is WFI on ARM: a file that does not list
		 * it gets one, with the numbers of its shallowest state, so
		 * that the file's states keep the indices traces use.
		 */
		if (ea_imp_idle(b, c->ci, "WFI", c->cs[0].core_power,
				c->cs[0].cluster_power, kw, cw, 0, c->cs[0].loc))
			return -1;
	}
	for (int k = 0; k < c->ncs; k++)
		if (ea_imp_idle(b, c->ci, c->cs[k].name, c->cs[k].core_power,
				c->cs[k].cluster_power, kw, cw, 0, c->cs[k].loc))
			return -1;
	return 0;
}

static int parse(struct iparse *p, char *text, struct icluster **out,
		 int *nout, int *declared, int *declared_line)
{
	struct ea_imp *b = p->b;
	struct icluster *cls = NULL, *cur = NULL;
	enum { NONE, PSTATES, CSTATES } mode = NONE;
	int ncls = 0;
	char *save = NULL, *ln;

	*declared = -1;
	for (ln = text; ln; ln = save) {
		char *tok[MAX_TOK + 1], *s, *hash, *sp = NULL;
		int nt = 0;

		save = strchr(ln, '\n');
		if (save)
			*save++ = '\0';
		p->line++;
		hash = strchr(ln, '#');
		if (hash)
			*hash = '\0';
		for (s = strtok_r(ln, " \t\r\f\v", &sp); s;
		     s = strtok_r(NULL, " \t\r\f\v", &sp)) {
			if (nt == MAX_TOK)
				return ea_imp_fail(b, loc_of(p), "too many fields");
			tok[nt++] = s;
		}
		if (!nt)
			continue;

		if (!strcmp(tok[0], "clusters")) {
			if (*declared >= 0)
				return ea_imp_fail(b, loc_of(p), "the number of clusters is already given (line %d)",
						   *declared_line);
			if (nt != 2)
				return ea_imp_fail(b, loc_of(p), "expected 'clusters N'");
			if (count_tok(p, tok[1], "clusters", declared))
				return -1;
			if (*declared < 1 || *declared > 26)
				return ea_imp_fail(b, loc_of(p), "clusters %d: expected 1 to 26 (clusterA to clusterZ)",
						   *declared);
			*declared_line = p->line;
			continue;
		}
		if (!strncmp(tok[0], "cluster", 7) &&
		    tok[0][strlen(tok[0]) - 1] == ':') {
			struct icluster *nc;
			char name[EA_NAME_LEN];
			size_t len = strlen(tok[0]);

			if (len < 9 || len - 1 >= sizeof(name))
				return ea_imp_fail(b, loc_of(p), "'%s': expected a cluster name such as clusterA:",
						   tok[0]);
			snprintf(name, sizeof(name), "%.*s", (int)len - 1, tok[0]);
			if (cur && end_cluster(p, cur))
				return -1;
			for (int i = 0; i < ncls; i++)
				if (!strcmp(b->m->clusters[cls[i].ci].name, name))
					return ea_imp_fail(b, loc_of(p), "%s is already described (line %d)",
							   name, cls[i].line);
			nc = realloc(cls, (size_t)(ncls + 1) * sizeof(*cls));
			if (!nc)
				return ea_imp_fail(b, loc_of(p), "out of memory");
			cls = nc;
			*out = cls;
			cur = &cls[ncls];
			memset(cur, 0, sizeof(*cur));
			cur->line = p->line;
			cur->want_caps = cur->want_cs = -1;
			ncls++;
			*nout = ncls;
			cur->ci = ea_imp_cluster(b, name, loc_of(p));
			if (cur->ci < 0)
				return -1;
			mode = NONE;
			if (nt == 1)
				continue;
			if (nt != 7 || strcmp(tok[2], "cap") ||
			    strcmp(tok[3], "states") || strcmp(tok[5], "C") ||
			    strcmp(tok[6], "states"))
				return ea_imp_fail(b, loc_of(p), "expected '%s N cap states M C states'",
						   tok[0]);
			if (count_tok(p, tok[1], "cap states", &cur->want_caps) ||
			    count_tok(p, tok[4], "C states", &cur->want_cs))
				return -1;
			continue;
		}
		if (!strcmp(tok[0], "P-states:") || !strcmp(tok[0], "C-states:")) {
			if (!cur)
				return ea_imp_fail(b, loc_of(p), "%s before any 'clusterX:' line",
						   tok[0]);
			if (nt != 1)
				return ea_imp_fail(b, loc_of(p), "unexpected text after %s",
						   tok[0]);
			mode = tok[0][0] == 'P' ? PSTATES : CSTATES;
			continue;
		}
		if (!strcmp(tok[0], "wakeup")) {
			if (!cur)
				return ea_imp_fail(b, loc_of(p), "wakeup before any 'clusterX:' line");
			if (cur->have_wakeup)
				return ea_imp_fail(b, loc_of(p), "a second wakeup line for %s (line %d)",
						   b->m->clusters[cur->ci].name,
						   cur->wakeup_line);
			if (nt != 3)
				return ea_imp_fail(b, loc_of(p), "expected 'wakeup CLUSTER CORE'");
			if (num(p, tok[1], "wakeup cluster energy", &cur->wake_cluster) ||
			    num(p, tok[2], "wakeup core energy", &cur->wake_core))
				return -1;
			if (cur->wake_cluster < 0 || cur->wake_core < 0 ||
			    cur->wake_cluster > 1e9 || cur->wake_core > 1e9)
				return ea_imp_fail(b, loc_of(p), "wakeup energies must be 0 to 1e9");
			cur->have_wakeup = true;
			cur->wakeup_line = p->line;
			mode = NONE;
			continue;
		}
		if (mode == PSTATES) {
			double mhz, clp, cop;

			if (nt != 3)
				return ea_imp_fail(b, loc_of(p), "expected a P-state 'MHZ CLUSTER_POWER CORE_POWER'");
			if (num(p, tok[0], "frequency (MHz)", &mhz) ||
			    num(p, tok[1], "cluster power", &clp) ||
			    num(p, tok[2], "core power", &cop))
				return -1;
			if (mhz < 0.001 || mhz > EA_MODEL_MAX_FREQ_KHZ / 1000)
				return ea_imp_fail(b, loc_of(p), "frequency %s MHz is out of range (0.001..%u)",
						   tok[0], EA_MODEL_MAX_FREQ_KHZ / 1000);
			if (ea_imp_cap(b, cur->ci, (uint32_t)(mhz * 1000 + 0.5),
				       0, cop, clp, loc_of(p)))
				return -1;
			cur->ncaps++;
			continue;
		}
		if (mode == CSTATES) {
			struct cstate *ncs;

			if (nt != 3)
				return ea_imp_fail(b, loc_of(p), "expected a C-state 'NAME CLUSTER_POWER CORE_POWER'");
			if (strlen(tok[0]) >= EA_NAME_LEN)
				return ea_imp_fail(b, loc_of(p), "C-state name longer than %d characters",
						   EA_NAME_LEN - 1);
			for (int k = 0; k < cur->ncs; k++)
				if (!strcmp(cur->cs[k].name, tok[0]))
					return ea_imp_fail(b, loc_of(p), "C-state %s is listed twice",
							   tok[0]);
			if (cur->ncs >= EA_MODEL_MAX_IDLE_STATES - 1)
				return ea_imp_fail(b, loc_of(p), "more than %d C-states",
						   EA_MODEL_MAX_IDLE_STATES - 1);
			ncs = realloc(cur->cs, (size_t)(cur->ncs + 1) * sizeof(*ncs));
			if (!ncs)
				return ea_imp_fail(b, loc_of(p), "out of memory");
			cur->cs = ncs;
			snprintf(ncs[cur->ncs].name, EA_NAME_LEN, "%s", tok[0]);
			snprintf(ncs[cur->ncs].loc, sizeof(ncs[cur->ncs].loc),
				 "%s", loc_of(p));
			if (num(p, tok[1], "cluster power", &ncs[cur->ncs].cluster_power) ||
			    num(p, tok[2], "core power", &ncs[cur->ncs].core_power))
				return -1;
			cur->ncs++;
			continue;
		}
		if (!cur)
			return ea_imp_fail(b, loc_of(p), "'%s': expected 'clusters N' or 'clusterA: ...'",
					   tok[0]);
		return ea_imp_fail(b, loc_of(p), "'%s': expected 'P-states:', 'C-states:' or 'wakeup' (or a row after one of the first two)",
				   tok[0]);
	}
	if (cur && end_cluster(p, cur))
		return -1;
	if (!ncls)
		return ea_imp_fail(b, p->file, "no 'clusterA:' section: not an idlestat energy model");
	return 0;
}

static int import_idlestat(struct ea_model **out, const char *src,
			   const struct ea_import_opts *opts, struct ea_err *err)
{
	struct ea_imp b;
	struct iparse p = { 0 };
	struct icluster *cls = NULL;
	int ncls = 0, declared = -1, declared_line = 0, rc = -1;
	const char *base;
	char *text;
	size_t len;

	*out = NULL;
	if (ea_read_file(src, EA_MODEL_MAX_FILE, &text, &len, err))
		return -1;
	if (strlen(text) != len) {
		free(text);
		return ea_err_set(err, "%s: NUL byte: an idlestat model is a text file", src);
	}
	if (ea_imp_init(&b, src, opts, err)) {
		free(text);
		return -1;
	}
	p.b = &b;
	p.file = src;
	if (parse(&p, text, &cls, &ncls, &declared, &declared_line))
		goto out;
	if (declared >= 0 && declared != ncls) {
		char loc[300];

		snprintf(loc, sizeof(loc), "%s:%d", src, declared_line);
		ea_imp_fail(&b, loc, "clusters %d, but %d are described", declared, ncls);
		goto out;
	}
	base = strrchr(src, '/');
	base = base ? base + 1 : src;
	snprintf(b.m->name, sizeof(b.m->name), "%.*s", EA_NAME_LEN - 1, base);
	ea_imp_note(&b, "Imported from the idlestat energy model %s.", src);
	ea_imp_note(&b, "P-state rows 'MHz cluster_power core_power' (freq_khz = MHz x 1000); C-state rows 'name cluster_power core_power'; power_unit 'bogo' as idlestat's numbers have no unit.");
	ea_imp_note(&b, "Each cluster's 'wakeup CLUSTER CORE' energies are in the 2014 RFC's scaled units (x1024, per PELT window) and were converted per wakeup with w x 47742 / (1024 x 1000), as idlestat does; every idle state of the cluster gets them (idlestat charges the cluster's on exits from C1, the core's on exits from WFI).");
	for (int i = 0; i < ncls; i++)
		if (cls[i].ncs) {
			bool wfi = false;

			for (int k = 0; k < cls[i].ncs; k++)
				if (!strcasecmp(cls[i].cs[k].name, "WFI"))
					wfi = true;
			if (!wfi) {
				ea_imp_note(&b, "The file lists no WFI state: a WFI state with the numbers of the shallowest listed state was put first in every such cluster, so that the listed states keep the cpuidle indices ARM traces use (0 = WFI).");
				break;
			}
		}
	ea_imp_note(&b, "Target residencies are 0: idlestat files give none.");
	if (strstr(base, "TC2") && (!opts || !opts->ncaps_kv))
		ea_imp_note(&b, "For TC2, the 2014 RFC's own capacities are A15 (clusterA) 840 at 500 MHz to 2015 at 1.2 GHz and A7 (clusterB) 358 at 350 MHz to 1024 at 1 GHz: --capacity clusterA=2015 --capacity clusterB=1024 reproduces them.");
	rc = ea_imp_finish(&b, "idlestat model", out);
out:
	for (int i = 0; i < ncls; i++)
		free(cls[i].cs);
	free(cls);
	free(text);
	ea_imp_free(&b);
	return rc;
}

int ea_import_idlestat(struct ea_model **out, const char *src,
		       const struct ea_import_opts *opts, struct ea_err *err)
{
	int rc = import_idlestat(out, src, opts, err);

	if (rc)
		ea_import_scrub(err);
	return rc;
}

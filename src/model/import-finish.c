// SPDX-License-Identifier: GPL-2.0-only
/*
 * An imported model finished (ea_imp_finish()): the generic options
 * (--trace, --ncpus, --cpus, --freqs, --capacity, --voltage, --power-unit,
 * --name), the capacity rule for sources that give none, cap states in
 * frequency order, and validation with errors that name the source line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/import-priv.h"
#include "model/model-priv.h"

static int find_cluster(struct ea_imp *b, const char *opt, const char *key)
{
	struct ea_model *m = b->m;
	struct ea_strbuf names = {0};
	int found = -1;

	for (int i = 0; i < m->nclusters; i++)
		if (!strcmp(m->clusters[i].name, key))
			return i;
	for (int i = 0; i < m->nclusters; i++)
		if (ea_import_key_matches(m, i, key)) {
			found = i;
			break;
		}
	if (found >= 0)
		return found;
	for (int i = 0; i < m->nclusters; i++)
		ea_sb_add(&names, "%s%s", i ? ", " : "", m->clusters[i].name);
	ea_err_set(b->err, "%s: no cluster '%s' in %s (its clusters: %s)", opt,
		   key, b->src, names.s ? names.s : "none");
	free(names.s);
	return -1;
}

static void set_cpus(struct ea_cluster *cl, int *cpus, int n, int *alloc)
{
	free(cl->cpus);
	cl->cpus = cpus;
	cl->ncpus = n;
	*alloc = n;
}

struct topo_ctx {
	struct ea_imp *b;
	bool *seen;
	int **cpus;
	int *n;
};

static int topo_cb(void *ctx, const char *cluster, int cpu)
{
	struct topo_ctx *t = ctx;
	struct ea_model *m = t->b->m;
	int ci = -1;
	int *p;

	for (int i = 0; i < m->nclusters && ci < 0; i++)
		if (!strcmp(m->clusters[i].name, cluster))
			ci = i;
	for (int i = 0; i < m->nclusters && ci < 0; i++)
		if (ea_import_key_matches(m, i, cluster))
			ci = i;
	if (ci < 0)
		return ea_err_set(
			t->b->err,
			"%s: the topology header's %s is not a cluster of %s",
			t->b->opts->trace, cluster, t->b->src);
	p = realloc(t->cpus[ci], (size_t)(t->n[ci] + 1) * sizeof(*p));
	if (!p)
		return ea_err_set(t->b->err, "%s: out of memory",
				  t->b->opts->trace);
	t->cpus[ci] = p;
	p[t->n[ci]++] = cpu;
	t->seen[ci] = true;
	return 0;
}

static int apply_trace(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	struct topo_ctx t = {b, NULL, NULL, NULL};
	int rc = -1;

	t.seen = calloc((size_t)m->nclusters, sizeof(*t.seen));
	t.cpus = calloc((size_t)m->nclusters, sizeof(*t.cpus));
	t.n = calloc((size_t)m->nclusters, sizeof(*t.n));
	if (!t.seen || !t.cpus || !t.n) {
		ea_err_set(b->err, "%s: out of memory", b->opts->trace);
		goto out;
	}
	if (ea_idlestat_topology(b->opts->trace, topo_cb, &t, b->err))
		goto out;
	for (int i = 0; i < m->nclusters; i++) {
		if (!t.seen[i]) {
			ea_err_set(b->err,
				   "%s: the topology header has no %s (a "
				   "cluster of %s)",
				   b->opts->trace, m->clusters[i].name, b->src);
			goto out;
		}
		set_cpus(&m->clusters[i], t.cpus[i], t.n[i], &b->cpu_alloc[i]);
		t.cpus[i] = NULL;
	}
	ea_imp_note(b, "CPUs of each cluster from the topology header of %s.",
		    b->opts->trace);
	rc = 0;
out:
	for (int i = 0; t.cpus && i < m->nclusters; i++)
		free(t.cpus[i]);
	free(t.seen);
	free(t.cpus);
	free(t.n);
	return rc;
}

static int apply_ncpus(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	const char *s = b->opts->ncpus;
	int next = 0, i = 0;

	while (*s) {
		char *e;
		long n;
		int *cpus;

		if (*s < '0' || *s > '9')
			return ea_err_set(b->err,
					  "--ncpus: '%s' is not a list of CPU "
					  "counts (e.g. 2,3)",
					  b->opts->ncpus);
		n = strtol(s, &e, 10);
		s = e;
		if (*s == ',')
			s++;
		else if (*s)
			return ea_err_set(b->err,
					  "--ncpus: '%s' is not a list of CPU "
					  "counts (e.g. 2,3)",
					  b->opts->ncpus);
		if (i >= m->nclusters)
			return ea_err_set(
				b->err,
				"--ncpus: %s has %d clusters, '%s' counts more",
				b->src, m->nclusters, b->opts->ncpus);
		if (n < 1 || n > EA_MODEL_MAX_CPUS - next)
			return ea_err_set(
				b->err,
				"--ncpus: %ld CPUs for %s is out of range", n,
				m->clusters[i].name);
		cpus = malloc((size_t)n * sizeof(*cpus));
		if (!cpus)
			return ea_err_set(b->err, "--ncpus: out of memory");
		for (int k = 0; k < n; k++)
			cpus[k] = next++;
		set_cpus(&m->clusters[i], cpus, (int)n, &b->cpu_alloc[i]);
		i++;
	}
	if (i != m->nclusters)
		return ea_err_set(b->err,
				  "--ncpus: %s has %d clusters, '%s' counts %d",
				  b->src, m->nclusters, b->opts->ncpus, i);
	ea_imp_note(b, "CPUs assigned in cluster order from --ncpus %s.",
		    b->opts->ncpus);
	return 0;
}

static int apply_cpus(struct ea_imp *b, const struct ea_import_kv *kv)
{
	struct ea_cluster *cl;
	int ci = find_cluster(b, "--cpus", kv->key), n;
	int *cpus;

	if (ci < 0)
		return -1;
	n = ea_parse_cpulist(kv->val, &cpus);
	if (n < 1) {
		free(cpus);
		return ea_err_set(
			b->err,
			"--cpus %s=%s: not a CPU list (e.g. 0-3,6; ids 0..%d)",
			kv->key, kv->val, EA_MODEL_MAX_CPUS - 1);
	}
	cl = &b->m->clusters[ci];
	set_cpus(cl, cpus, n, &b->cpu_alloc[ci]);
	ea_imp_note(b, "CPUs of %s from --cpus %s.", cl->name, kv->val);
	return 0;
}

static int apply_freqs(struct ea_imp *b, const struct ea_import_kv *kv)
{
	struct ea_cluster *cl;
	const char *s = kv->val;
	int ci = find_cluster(b, "--freqs", kv->key), k = 0;

	if (ci < 0)
		return -1;
	cl = &b->m->clusters[ci];
	while (*s) {
		unsigned long long f;
		char *e;

		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		f = strtoull(s, &e, 10);
		s = e;
		if (errno || f < 1 || f > EA_MODEL_MAX_FREQ_KHZ)
			return ea_err_set(
				b->err,
				"--freqs %s: %llu kHz is out of range (1..%u)",
				kv->key, f, EA_MODEL_MAX_FREQ_KHZ);
		if (k < cl->ncaps)
			cl->caps[k].freq_khz = (uint32_t)f;
		k++;
		if (*s == ',')
			s++;
		else
			break;
	}
	if (*s)
		return ea_err_set(
			b->err,
			"--freqs %s=%s: not a list of frequencies in kHz",
			kv->key, kv->val);
	if (k != cl->ncaps)
		return ea_err_set(
			b->err, "--freqs %s: %d frequencies for %d cap states",
			kv->key, k, cl->ncaps);
	ea_imp_note(b, "Frequencies of %s from --freqs.", cl->name);
	return 0;
}

struct order {
	uint32_t key;
	int idx;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx - y->idx;
}

/* Cap states by ascending frequency (keeping their source locations). */
static int sort_caps(struct ea_imp *b, int ci)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	struct ea_cap_state *caps;
	struct order *o;
	char **locs;

	o = malloc((size_t)cl->ncaps * sizeof(*o));
	caps = malloc((size_t)cl->ncaps * sizeof(*caps));
	locs = malloc((size_t)cl->ncaps * sizeof(*locs));
	if (!o || !caps || !locs) {
		free(o);
		free(caps);
		free(locs);
		return ea_imp_fail(b, NULL, "out of memory");
	}
	for (int k = 0; k < cl->ncaps; k++)
		o[k] = (struct order){cl->caps[k].freq_khz, k};
	qsort(o, (size_t)cl->ncaps, sizeof(*o), cmp_order);
	for (int k = 0; k < cl->ncaps; k++) {
		caps[k] = cl->caps[o[k].idx];
		locs[k] = b->cap_loc[ci][o[k].idx];
	}
	memcpy(cl->caps, caps, (size_t)cl->ncaps * sizeof(*caps));
	memcpy(b->cap_loc[ci], locs, (size_t)cl->ncaps * sizeof(*locs));
	free(o);
	free(caps);
	free(locs);
	return 0;
}

/*
 * Capacities for clusters whose source gives none: proportional to
 * frequency, the fastest OPP of all clusters = 1024; or, with --capacity
 * CLUSTER=CAP, CAP at the cluster's top OPP and proportional below it.
 * Kept strictly ascending (a state that would round to its predecessor's
 * capacity gets one more).
 */
static int derive_caps(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	struct ea_strbuf derived = {0};
	uint32_t fmax = 0;
	bool bumped = false;
	int nderived = 0;

	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncaps; k++)
			if (m->clusters[i].caps[k].freq_khz > fmax)
				fmax = m->clusters[i].caps[k].freq_khz;
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];
		const struct ea_import_kv *kv = NULL;
		double top = 1024, ftop = fmax;

		for (int j = 0; j < b->opts->ncaps_kv; j++)
			if (ea_import_key_matches(m, i, b->opts->caps[j].key))
				kv = &b->opts->caps[j];
		if (!kv && b->cap_given[i])
			continue;
		if (!cl->ncaps)
			continue;
		if (kv) {
			char *e;
			long c = strtol(kv->val, &e, 10);

			if (*e || e == kv->val || c < 1 ||
			    c > EA_MODEL_MAX_CAP) {
				free(derived.s);
				return ea_err_set(b->err,
						  "--capacity %s=%s: not a "
						  "capacity (1..%u)",
						  kv->key, kv->val,
						  EA_MODEL_MAX_CAP);
			}
			top = (double)c;
			ftop = cl->caps[cl->ncaps - 1].freq_khz;
			ea_imp_note(b,
				    "Capacities of %s scaled by frequency from "
				    "--capacity %s=%ld at %u kHz.",
				    cl->name, kv->key, c, (unsigned)ftop);
		} else {
			ea_sb_add(&derived, "%s%s", nderived++ ? ", " : "",
				  cl->name);
		}
		for (int k = 0; k < cl->ncaps; k++) {
			double c =
				floor(top * cl->caps[k].freq_khz / ftop + 0.5);
			uint32_t cap = c < 1	 ? 1
				       : c > 1e6 ? 1000000
						 : (uint32_t)c;

			if (k && cap <= cl->caps[k - 1].cap) {
				cap = cl->caps[k - 1].cap + 1;
				bumped = true;
			}
			cl->caps[k].cap = cap;
		}
		b->cap_given[i] = true;
	}
	if (nderived)
		ea_imp_note(
			b,
			"The source gives no capacities: those of %s are "
			"derived from frequency, cap = round(1024 x freq_khz / "
			"%u), %u kHz being the fastest OPP of all clusters. "
			"This ignores that a big core does more work per MHz "
			"than a little one: set the real capacity of each "
			"cluster's top OPP with --capacity CLUSTER=CAP (e.g. "
			"from /sys/devices/system/cpu/cpuN/cpu_capacity) or "
			"edit the file.",
			derived.s ? derived.s : "", (unsigned)fmax,
			(unsigned)fmax);
	if (bumped)
		ea_imp_note(b, "Some OPPs were so close in frequency that "
			       "their capacities were raised by one to keep "
			       "capacities strictly ascending.");
	free(derived.s);
	return 0;
}

/* x * v, rounded to 1e-9 so that 3.5 mA x 3.8 V is 13.3 mW, not 13.2999... */
static void scale(double *x, double v)
{
	double y = *x * v;

	if (fabs(y) < 1e6)
		y = round(y * 1e9) / 1e9;
	*x = y;
}

static int apply_voltage(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	double v = b->opts->voltage;

	if (strcmp(m->power_unit, "mA"))
		return ea_err_set(
			b->err, "--voltage converts mA to mW, and %s gives %s",
			b->src, m->power_unit);
	if (!isfinite(v) || v <= 0 || v > 1000)
		return ea_err_set(b->err, "--voltage: %g V is out of range", v);
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];

		for (int k = 0; k < cl->ncaps; k++) {
			scale(&cl->caps[k].core_power, v);
			scale(&cl->caps[k].cluster_power, v);
		}
		for (int k = 0; k < cl->nidles; k++) {
			scale(&cl->idles[k].core_power, v);
			scale(&cl->idles[k].cluster_power, v);
			scale(&cl->idles[k].core_wakeup, v);
			scale(&cl->idles[k].cluster_wakeup, v);
		}
	}
	strcpy(m->power_unit, "mW");
	ea_imp_note(b,
		    "Currents (mA) converted to power (mW) at --voltage %g V.",
		    v);
	return 0;
}

struct vfail_ctx {
	struct ea_imp *b;
};

/* Map a validation path ("clusters[1].cap_states[2].cap") to a location. */
static int validate_fail(void *ctx, const char *path, const char *msg)
{
	struct ea_imp *b = ((struct vfail_ctx *)ctx)->b;
	const char *loc = b->src, *field = strrchr(path, '.');
	char fbuf[64];
	int ci, k;

	if (sscanf(path, "clusters[%d]", &ci) == 1 && ci >= 0 &&
	    ci < b->m->nclusters) {
		const char *p = strchr(path, '.');

		loc = b->cl_loc[ci];
		if (p && sscanf(p, ".cap_states[%d]", &k) == 1 && k >= 0 &&
		    k < b->m->clusters[ci].ncaps)
			loc = b->cap_loc[ci][k];
		else if (p && sscanf(p, ".idle_states[%d]", &k) == 1 &&
			 k >= 0 && k < b->m->clusters[ci].nidles)
			loc = b->idle_loc[ci][k];
		snprintf(fbuf, sizeof(fbuf), "%s", field ? field + 1 : path);
		fbuf[strcspn(fbuf, "[")] = '\0';
		return ea_err_set(b->err, "%s: cluster '%s': %s: %s", loc,
				  b->m->clusters[ci].name, fbuf, msg);
	}
	return ea_err_set(b->err, "%s: %s%s%s", loc, *path ? path : "",
			  *path ? ": " : "", msg);
}

int ea_imp_finish(struct ea_imp *b, const char *what, struct ea_model **out)
{
	const struct ea_import_opts *o = b->opts;
	struct ea_model *m = b->m;
	struct vfail_ctx vc = {b};
	struct ea_strbuf src = {0};

	*out = NULL;
	if (m->nclusters < 1)
		return ea_imp_fail(b, NULL, "no CPU clusters found in this %s",
				   what);
	if (o->trace && apply_trace(b))
		return -1;
	if (o->ncpus && apply_ncpus(b))
		return -1;
	for (int j = 0; j < o->ncpus_kv; j++)
		if (apply_cpus(b, &o->cpus[j]))
			return -1;
	for (int i = 0; i < m->nclusters; i++)
		if (m->clusters[i].ncpus < 1)
			return ea_imp_fail(
				b, b->cl_loc[i],
				"cluster '%s': which CPUs it has is not known: "
				"pass --cpus %s=LIST (e.g. 0-3), --ncpus "
				"N,N,... or --trace T",
				m->clusters[i].name, m->clusters[i].name);
	for (int j = 0; j < o->nfreqs_kv; j++)
		if (apply_freqs(b, &o->freqs[j]))
			return -1;
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];

		if (cl->ncaps < 1)
			return ea_imp_fail(b, b->cl_loc[i],
					   "cluster '%s': no cap states (OPPs)",
					   cl->name);
		for (int k = 0; k < cl->ncaps; k++)
			if (!cl->caps[k].freq_khz)
				return ea_imp_fail(
					b, b->cap_loc[i][k],
					"cluster '%s': the frequency of cap "
					"state %d is not known: pass --freqs "
					"%s=KHZ,KHZ,... (%d values, ascending)",
					cl->name, k, cl->name, cl->ncaps);
		if (sort_caps(b, i))
			return -1;
	}
	if (derive_caps(b))
		return -1;
	if (o->voltage && apply_voltage(b))
		return -1;
	if (o->power_unit) {
		if (!*o->power_unit ||
		    strlen(o->power_unit) >= sizeof(m->power_unit))
			return ea_err_set(b->err,
					  "--power-unit: '%s' must be 1 to %zu "
					  "characters",
					  o->power_unit,
					  sizeof(m->power_unit) - 1);
		strcpy(m->power_unit, o->power_unit);
		ea_imp_note(b, "power_unit set by --power-unit.");
	}
	if (o->name) {
		if (!*o->name || strlen(o->name) >= sizeof(m->name))
			return ea_err_set(
				b->err,
				"--name: '%s' must be 1 to %d characters",
				o->name, EA_NAME_LEN - 1);
		strcpy(m->name, o->name);
	}
	if (b->notes.oom)
		return ea_imp_fail(b, NULL, "out of memory");
	ea_sb_add(&src, "%s", b->notes.s ? b->notes.s : "");
	if (src.oom)
		return ea_imp_fail(b, NULL, "out of memory");
	free(m->source);
	m->source = src.s ? src.s : strdup("");
	if (!m->source)
		return ea_imp_fail(b, NULL, "out of memory");
	if (ea_model_validate(m, validate_fail, &vc))
		return -1;
	if (ea_model_finish(m, b->err))
		return -1;
	*out = m;
	b->m = NULL; /* the caller's now; the locations stay b's to free */
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The features of the fit (include/eatrace/fit.h): a state consumer that
 * applies the accountant's rules (src/energy/account.c) to add up, per
 * coefficient and time segment, what the accountant multiplies that
 * coefficient by. Each rule here is the accountant's, step for step:
 *
 *  - a busy CPU: its cap state (the exact frequency, else the state at or
 *    above it; no frequency yet: the assumed OPP) -> busy CPU-ns;
 *  - an idle CPU: its idle state (below 0: 0; beyond the model's: the
 *    deepest) -> idle CPU-ns;
 *  - a cluster with a busy present CPU: the cap state of its fastest busy
 *    CPU -> cluster-busy ns; all present CPUs idle: the shallowest of
 *    their states -> cluster-idle ns; no present CPU: nothing;
 *  - a CPU leaving idle for busy, at an instant inside the window: one
 *    wakeup of the state it left; and one cluster wakeup of the cluster's
 *    shallowest state when every other present CPU was idle; a CPU
 *    brought online busy: that cluster wakeup only (of the deepest state
 *    when no other CPU was present);
 *  - offline CPU-ns per cluster; suspended CPU-ns per cluster (the
 *    accountant shares suspend_power equally among the trace's CPUs).
 *
 * Unknown time is priced by the same rules (it is busy or idle in some
 * state), as the accountant prices it. tests/unit/test-fit.c checks that
 * features x prices give the accountant's energies exactly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/fit.h"

int ea_features_init(struct ea_features *f, const struct ea_model *m,
		     const struct ea_coefs *cs, uint32_t assumed_khz,
		     const uint64_t *bounds, size_t nbounds, struct ea_err *err)
{
	memset(f, 0, sizeof(*f));
	if (nbounds < 2)
		return ea_err_set(err, "no measurement window");
	if (nbounds - 1 > EA_FIT_MAX_SEGMENTS)
		return ea_err_set(err,
				  "more than %d measurement windows in one "
				  "trace: merge them (--window MS)",
				  EA_FIT_MAX_SEGMENTS);
	f->model = m;
	f->coefs = cs;
	f->assumed_khz = assumed_khz;
	f->nseg = nbounds - 1;
	f->nfeat = cs->n + m->nclusters;
	f->ncpus = m->ncpus;
	f->bounds = malloc(nbounds * sizeof(*f->bounds));
	f->v = calloc(f->nseg * (size_t)f->nfeat, sizeof(*f->v));
	f->cpus = calloc(m->ncpus ? (size_t)m->ncpus : 1, sizeof(*f->cpus));
	f->cl_last = calloc((size_t)m->nclusters + 1, sizeof(*f->cl_last));
	if (!f->bounds || !f->v || !f->cpus || !f->cl_last) {
		ea_features_free(f);
		return ea_err_set(err,
				  "out of memory (%zu measurement windows)",
				  nbounds - 1);
	}
	memcpy(f->bounds, bounds, nbounds * sizeof(*f->bounds));
	return 0;
}

void ea_features_free(struct ea_features *f)
{
	free(f->bounds);
	free(f->v);
	free(f->cpus);
	free(f->cl_last);
	memset(f, 0, sizeof(*f));
}

/* ---- adding to segments ---- */

/* The segment holding t: bounds[s] <= t < bounds[s + 1]; nseg if none. */
static size_t segment_of(const struct ea_features *f, uint64_t t)
{
	size_t lo = 0, hi = f->nseg;

	if (t < f->bounds[0] || t >= f->bounds[f->nseg])
		return f->nseg;
	while (hi - lo > 1) { /* bounds[lo] <= t < bounds[hi] */
		size_t mid = lo + (hi - lo) / 2;

		if (f->bounds[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Feature idx grows by the part of [t0, t1) in each segment. */
static void add_span(struct ea_features *f, int idx, uint64_t t0, uint64_t t1)
{
	size_t s;

	if (t0 < f->bounds[0])
		t0 = f->bounds[0];
	if (t1 > f->bounds[f->nseg])
		t1 = f->bounds[f->nseg];
	if (t0 >= t1)
		return;
	for (s = segment_of(f, t0); s < f->nseg && f->bounds[s] < t1; s++) {
		uint64_t a = t0 > f->bounds[s] ? t0 : f->bounds[s];
		uint64_t b = t1 < f->bounds[s + 1] ? t1 : f->bounds[s + 1];

		f->v[s * (size_t)f->nfeat + idx] += b - a;
	}
}

static void add_at(struct ea_features *f, int idx, uint64_t t)
{
	size_t s = segment_of(f, t);

	if (s < f->nseg)
		f->v[s * (size_t)f->nfeat + idx]++;
}

/* ---- the accountant's rules ---- */

static int index_of(const struct ea_features *f, int ci, enum ea_coef_kind kind,
		    int state)
{
	return ea_coef_index(f->coefs, f->model, ci, kind, state);
}

/* The cap state charged for a busy CPU at freq (account.c cap_index(),
 * busy_cap(): the exact state, else the nearest at or above). */
static int cap_of(const struct ea_features *f, const struct ea_cluster *cl,
		  uint32_t freq)
{
	if (!freq)
		return f->assumed_khz
			       ? ea_model_cap_index_nearest(cl, f->assumed_khz)
			       : cl->ncaps - 1;
	return ea_model_cap_index_nearest(cl, freq);
}

static int idle_of(const struct ea_cluster *cl, int k)
{
	if (k < 0)
		k = 0;
	if (k >= cl->nidles)
		k = cl->nidles - 1;
	return k;
}

static bool present(const struct ea_features *f, int cpu)
{
	return cpu < f->st_known && f->cpus[cpu].st.mode <= EA_CPU_IDLE;
}

static void core(struct ea_features *f, int cpu, int ci,
		 const struct ea_cpu_state *st, uint64_t t0, uint64_t t1)
{
	const struct ea_cluster *cl = &f->model->clusters[ci];

	if (!ea_clip_to(f->clip_start, f->clip_end, &t0, &t1))
		return;
	switch (st->mode) {
	case EA_CPU_SUSPENDED:
		add_span(f, f->coefs->n + ci, t0, t1);
		break;
	case EA_CPU_OFFLINE:
		add_span(f, index_of(f, ci, EA_CK_OFFLINE, 0), t0, t1);
		break;
	case EA_CPU_BUSY:
		add_span(f,
			 index_of(f, ci, EA_CK_CORE_BUSY,
				  cap_of(f, cl, st->freq_khz)),
			 t0, t1);
		break;
	default:
		add_span(f,
			 index_of(f, ci, EA_CK_CORE_IDLE,
				  idle_of(cl, st->idle_state)),
			 t0, t1);
		break;
	}
}

/* The cluster over [cl_last, now): its CPUs' states are constant there. */
static void cluster(struct ea_features *f, int ci, uint64_t now)
{
	const struct ea_cluster *cl = &f->model->clusters[ci];
	uint64_t t0 = f->cl_last[ci], t1 = now;
	int nbusy = 0, npresent = 0, cap = -1, idle = -1;

	f->cl_last[ci] = now;
	if (!ea_clip_to(f->clip_start, f->clip_end, &t0, &t1))
		return;
	for (int i = 0; i < cl->ncpus; i++) {
		const struct ea_cpu_state *st;
		int k;

		if (!present(f, cl->cpus[i]))
			continue;
		st = &f->cpus[cl->cpus[i]].st;
		npresent++;
		if (st->mode == EA_CPU_BUSY) {
			k = cap_of(f, cl, st->freq_khz);
			if (k > cap)
				cap = k;
			nbusy++;
		} else {
			k = st->idle_state < 0 ? 0 : st->idle_state;
			if (idle < 0 || k < idle)
				idle = k;
		}
	}
	if (!npresent)
		return;
	if (nbusy)
		add_span(f, index_of(f, ci, EA_CK_CLUSTER_BUSY, cap), t0, t1);
	else
		add_span(f,
			 index_of(f, ci, EA_CK_CLUSTER_IDLE,
				  idle >= cl->nidles ? cl->nidles - 1 : idle),
			 t0, t1);
}

/* account.c cluster_all_idle(), on the states before this change. */
static bool all_idle(const struct ea_features *f, const struct ea_cluster *cl,
		     int *state)
{
	int k = -1;

	for (int i = 0; i < cl->ncpus; i++) {
		const struct ea_cpu_state *st;

		if (!present(f, cl->cpus[i]))
			continue;
		st = &f->cpus[cl->cpus[i]].st;
		if (st->mode != EA_CPU_IDLE)
			return false;
		if (k < 0 || st->idle_state < k)
			k = st->idle_state < 0 ? 0 : st->idle_state;
	}
	*state = k;	/* -1: no CPU present */
	return true;
}

static void wakeups(struct ea_features *f, int ci, uint64_t now,
		    const struct ea_cpu_state *old,
		    const struct ea_cpu_state *new)
{
	const struct ea_cluster *cl = &f->model->clusters[ci];
	int kc;
	bool online = old->mode == EA_CPU_OFFLINE && new &&
		      new->mode == EA_CPU_BUSY;

	if (!new || now < f->clip_start || now >= f->clip_end)
		return;
	if (!(old->mode == EA_CPU_IDLE && new->mode == EA_CPU_BUSY) && !online)
		return;
	if (!online)
		add_at(f,
		       index_of(f, ci, EA_CK_CORE_WAKEUP,
				idle_of(cl, old->idle_state)),
		       now);
	if (all_idle(f, cl, &kc))
		add_at(f,
		       index_of(f, ci, EA_CK_CLUSTER_WAKEUP,
				kc < 0 ? cl->nidles - 1 : idle_of(cl, kc)),
		       now);
}

/* account.c know_states(): the CPUs the trace has so far. */
static void know_states(struct ea_features *f, const struct ea_state *s, int n)
{
	if (!f->st_known)
		ea_state_clip_bounds(s, &f->clip_start, &f->clip_end);
	for (int i = f->st_known; i < n && i < f->ncpus; i++)
		f->cpus[i].st = *ea_state_cpu(s, i);
	f->st_known = n;
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct ea_features *f = ctx;
	const struct ea_model *m = f->model;
	int ci;

	if (f->error[0])
		return;
	if (cpu >= m->ncpus || m->cpu_cluster[cpu] < 0) {
		snprintf(f->error, sizeof(f->error),
			 "the trace has CPU %d, which model '%s' does not "
			 "describe",
			 cpu, m->name);
		return;
	}
	if (!f->st_known || f->st_known < f->ncpus) {
		int ntrace = ea_state_ncpus(s);

		if (ntrace > f->st_known)
			know_states(f, s, ntrace);
	}
	ci = m->cpu_cluster[cpu];
	if (!f->cl_last[ci])
		f->cl_last[ci] = ea_state_first_ts(s);
	cluster(f, ci, now);
	core(f, cpu, ci, old, since, now);
	wakeups(f, ci, now, old, new);
	if (new)
		f->cpus[cpu].st = *new;
}

const struct ea_state_ops ea_features_ops = {
	.cpu_change = on_change,
};

int ea_features_done(struct ea_features *f, const struct ea_state *s,
		     struct ea_err *err)
{
	(void)s;
	if (f->error[0])
		return ea_err_set(err, "%s", f->error);
	f->n_known = f->st_known < f->ncpus ? f->st_known : f->ncpus;
	if (f->n_known < 1)
		f->n_known = 1;
	return 0;
}

double ea_features_suspend_share(const struct ea_features *f, size_t seg,
				 int cluster)
{
	return (double)ea_features_at(f, seg)[f->coefs->n + cluster] / 1e9 /
	       f->n_known;
}

ea_energy_t ea_features_energy(const struct ea_features *f, size_t seg, int ci,
			       const struct ea_model *m)
{
	const uint64_t *v = ea_features_at(f, seg);
	const struct ea_coefs *cs = f->coefs;
	ea_energy_t e = 0;

	/* the accountant's quantised prices (src/energy/price.c) */
	for (int i = cs->base[ci]; i < cs->base[ci + 1]; i++) {
		const struct ea_coef *c = &cs->c[i];
		ea_energy_t q =
			llround(ea_coef_get(m, c) * (double)EA_POWER_QUANTUM);

		if (ea_coef_is_wakeup(c->kind))
			q *= EA_POWER_QUANTUM;
		e += q * (ea_energy_t)v[i];
	}
	return e;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model consistency checks for `eatrace model check`: what a loadable model
 * can still get wrong. The loader already refuses what cannot be priced at
 * all; these checks work on any struct ea_model (an importer's too) and so
 * repeat the structural ones rather than trust them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/model.h"

struct checker {
	const struct ea_model *m;
	ea_finding_fn fn;
	void *ctx;
	int errors;
};

static void finding(struct checker *c, enum ea_severity sev,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void finding(struct checker *c, enum ea_severity sev,
		    const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sev == EA_SEV_ERROR)
		c->errors++;
	if (c->fn)
		c->fn(c->ctx, sev, msg);
}

#define E EA_SEV_ERROR
#define W EA_SEV_WARNING

/* The kernel EM's cost of a cap state, from its core power. */
static double opp_cost(const struct ea_cluster *cl, int i)
{
	double fmax = cl->caps[cl->ncaps - 1].freq_khz;

	return cl->caps[i].core_power * fmax /
	       (cl->caps[i].freq_khz ? cl->caps[i].freq_khz : 1);
}

int ea_cluster_inefficient(const struct ea_cluster *cl, bool shared,
			   bool *ineff)
{
	double fmax, best = INFINITY;
	int n = 0;

	if (cl->ncaps < 1)
		return 0;
	fmax = cl->caps[cl->ncaps - 1].freq_khz;
	for (int i = cl->ncaps - 1; i >= 0; i--) {
		const struct ea_cap_state *cs = &cl->caps[i];
		double power = cs->core_power, cost;

		if (shared && cl->ncpus > 0)
			power += cs->cluster_power / cl->ncpus;
		cost = power * fmax / (cs->freq_khz ? cs->freq_khz : 1);
		ineff[i] = cost >= best;
		if (ineff[i])
			n++;
		else
			best = cost;
	}
	return n;
}

/* CPU ids: each in exactly one cluster, contiguous from 0. */
static void check_cpus(struct checker *c)
{
	const struct ea_model *m = c->m;
	int maxcpu = -1, *owner;

	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncpus; k++) {
			int cpu = m->clusters[i].cpus[k];

			if (cpu < 0 || cpu >= EA_MODEL_MAX_CPUS)
				finding(c, E, "cluster '%s': CPU id %d is out of range (0..%d)",
					m->clusters[i].name, cpu,
					EA_MODEL_MAX_CPUS - 1);
			else if (cpu > maxcpu)
				maxcpu = cpu;
		}
	if (maxcpu < 0) {
		finding(c, E, "the model has no CPUs");
		return;
	}
	owner = malloc((size_t)(maxcpu + 1) * sizeof(*owner));
	if (!owner) {
		finding(c, E, "out of memory");
		return;
	}
	for (int cpu = 0; cpu <= maxcpu; cpu++)
		owner[cpu] = -1;
	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncpus; k++) {
			int cpu = m->clusters[i].cpus[k];

			if (cpu < 0 || cpu > maxcpu)
				continue;
			if (owner[cpu] >= 0)
				finding(c, E, "CPU %d is in cluster '%s' and again in cluster '%s'",
					cpu, m->clusters[owner[cpu]].name,
					m->clusters[i].name);
			else
				owner[cpu] = i;
		}
	/* report gaps as ranges: one line for "CPUs 4-99" */
	for (int cpu = 0; cpu <= maxcpu; cpu++) {
		int end = cpu;

		if (owner[cpu] >= 0)
			continue;
		while (end + 1 <= maxcpu && owner[end + 1] < 0)
			end++;
		if (end == cpu)
			finding(c, E, "CPU %d is in no cluster: CPU ids must run from 0 to %d without gaps",
				cpu, maxcpu);
		else
			finding(c, E, "CPUs %d-%d are in no cluster: CPU ids must run from 0 to %d without gaps",
				cpu, end, maxcpu);
		cpu = end;
	}
	free(owner);
}

static const char *num(double v, char *buf)
{
	return ea_model_fmt_num(v, buf, 32);
}

static bool bad_power(double x)
{
	return !isfinite(x) || x < 0;
}

static void check_cap_states(struct checker *c, const struct ea_cluster *cl)
{
	char a[32], b[32];
	bool *ineff;

	if (cl->ncaps < 1) {
		finding(c, E, "cluster '%s' has no cap states", cl->name);
		return;
	}
	for (int i = 0; i < cl->ncaps; i++) {
		const struct ea_cap_state *cs = &cl->caps[i], *prev = cs - 1;

		if (i && cs->cap <= prev->cap)
			finding(c, E, "cluster '%s': capacities not strictly ascending: %u at %u kHz after %u at %u kHz",
				cl->name, cs->cap, cs->freq_khz, prev->cap,
				prev->freq_khz);
		if (i && cs->freq_khz <= prev->freq_khz)
			finding(c, E, "cluster '%s': frequencies not strictly ascending: %u kHz after %u kHz",
				cl->name, cs->freq_khz, prev->freq_khz);
		if (bad_power(cs->core_power) || bad_power(cs->cluster_power)) {
			finding(c, E, "cluster '%s': %u kHz: powers must be finite and not negative (core %s, cluster %s)",
				cl->name, cs->freq_khz, num(cs->core_power, a),
				num(cs->cluster_power, b));
			continue;
		}
		if (cs->core_power == 0 && cs->cluster_power == 0)
			finding(c, E, "cluster '%s': %u kHz: core_power and cluster_power are both 0: running would cost nothing",
				cl->name, cs->freq_khz);
		else if (cs->core_power == 0)
			finding(c, W, "cluster '%s': %u kHz: core_power is 0: a busy CPU costs only its cluster's power",
				cl->name, cs->freq_khz);
		if (i && cs->core_power < prev->core_power)
			finding(c, W, "cluster '%s': core_power falls from %s at %u kHz to %s at %u kHz",
				cl->name, num(prev->core_power, a),
				prev->freq_khz, num(cs->core_power, b),
				cs->freq_khz);
		if (i && cs->cluster_power < prev->cluster_power)
			finding(c, W, "cluster '%s': cluster_power falls from %s at %u kHz to %s at %u kHz",
				cl->name, num(prev->cluster_power, a),
				prev->freq_khz, num(cs->cluster_power, b),
				cs->freq_khz);
	}
	ineff = calloc((size_t)cl->ncaps, sizeof(*ineff));
	if (!ineff)
		return;
	ea_cluster_inefficient(cl, false, ineff);
	for (int i = 0; i < cl->ncaps; i++) {
		int j;

		if (!ineff[i])
			continue;
		/* name the first higher state that costs no more */
		for (j = i + 1; j < cl->ncaps - 1; j++)
			if (opp_cost(cl, j) <= opp_cost(cl, i))
				break;
		finding(c, W, "cluster '%s': %u kHz is an inefficient OPP: %u kHz costs no more per unit of work (core_power x max_freq / freq: %.1f vs %.1f)",
			cl->name, cl->caps[i].freq_khz, cl->caps[j].freq_khz,
			opp_cost(cl, j), opp_cost(cl, i));
	}
	free(ineff);
}

static void check_idle_states(struct checker *c, const struct ea_cluster *cl)
{
	char a[32], b[32];

	if (cl->idle_implicit || cl->nidles == 0) {
		finding(c, W, "cluster '%s' has no idle states: idle CPUs are in one implicit state 'idle' that draws and costs nothing",
			cl->name);
		if (cl->nidles == 0)
			return;
	}
	for (int k = 0; k < cl->nidles; k++) {
		const struct ea_idle_state *is = &cl->idles[k], *sh = is - 1;

		if (bad_power(is->core_power) || bad_power(is->cluster_power) ||
		    bad_power(is->core_wakeup) || bad_power(is->cluster_wakeup)) {
			finding(c, E, "cluster '%s': idle state %d '%s': powers and wakeup energies must be finite and not negative",
				cl->name, k, is->name);
			continue;
		}
		if (!k)
			continue;
		if (is->core_power > sh->core_power)
			finding(c, E, "cluster '%s': idle state %d '%s' draws more core power (%s) than shallower state %d '%s' (%s)",
				cl->name, k, is->name, num(is->core_power, a),
				k - 1, sh->name, num(sh->core_power, b));
		if (is->cluster_power > sh->cluster_power)
			finding(c, E, "cluster '%s': idle state %d '%s' draws more cluster power (%s) than shallower state %d '%s' (%s)",
				cl->name, k, is->name, num(is->cluster_power, a),
				k - 1, sh->name, num(sh->cluster_power, b));
		if (is->target_residency_us < sh->target_residency_us)
			finding(c, W, "cluster '%s': idle state %d '%s' has a shorter target residency (%u us) than shallower state %d '%s' (%u us)",
				cl->name, k, is->name, is->target_residency_us,
				k - 1, sh->name, sh->target_residency_us);
	}
}

/* Busy power must not be below what the same CPU or cluster draws idle. */
static void check_busy_vs_idle(struct checker *c, const struct ea_cluster *cl)
{
	int core_max = -1, cluster_max = -1;
	char a[32], b[32];

	for (int k = 0; k < cl->nidles; k++) {
		if (core_max < 0 ||
		    cl->idles[k].core_power > cl->idles[core_max].core_power)
			core_max = k;
		if (cluster_max < 0 ||
		    cl->idles[k].cluster_power > cl->idles[cluster_max].cluster_power)
			cluster_max = k;
	}
	if (core_max < 0)
		return;
	for (int i = 0; i < cl->ncaps; i++) {
		const struct ea_cap_state *cs = &cl->caps[i];
		const struct ea_idle_state *ic = &cl->idles[core_max];
		const struct ea_idle_state *iz = &cl->idles[cluster_max];

		if (bad_power(cs->core_power) || bad_power(cs->cluster_power))
			continue;	/* reported already */
		if (cs->core_power < ic->core_power)
			finding(c, E, "cluster '%s': busy core power at %u kHz (%s) is below idle state %d '%s' core power (%s)",
				cl->name, cs->freq_khz, num(cs->core_power, a),
				core_max, ic->name, num(ic->core_power, b));
		/*
		 * Only a warning for the cluster: the published EAS tables
		 * (Juno, HiKey) have idle cluster power above the lowest OPPs'
		 * busy cluster power.
		 */
		if (cs->cluster_power < iz->cluster_power)
			finding(c, W, "cluster '%s': busy cluster power at %u kHz (%s) is below idle state %d '%s' cluster power (%s)",
				cl->name, cs->freq_khz, num(cs->cluster_power, a),
				cluster_max, iz->name, num(iz->cluster_power, b));
	}
}

int ea_model_check_cb(const struct ea_model *m, ea_finding_fn fn, void *ctx)
{
	struct checker c = { m, fn, ctx, 0 };

	if (m->nclusters < 1) {
		finding(&c, E, "the model has no clusters");
		return c.errors;
	}
	check_cpus(&c);
	for (int i = 0; i < m->nclusters; i++) {
		const struct ea_cluster *cl = &m->clusters[i];

		for (int j = 0; j < i; j++)
			if (!strcmp(m->clusters[j].name, cl->name))
				finding(&c, E, "two clusters are named '%s'",
					cl->name);
		if (cl->ncpus < 1)
			finding(&c, E, "cluster '%s' has no CPUs", cl->name);
		check_cap_states(&c, cl);
		check_idle_states(&c, cl);
		check_busy_vs_idle(&c, cl);
	}
	return c.errors;
}

struct print_ctx {
	FILE *out;
	const char *who;
};

static void print_finding(void *ctx, enum ea_severity sev, const char *msg)
{
	struct print_ctx *p = ctx;

	fprintf(p->out, "%s: %s: %s\n", p->who,
		sev == EA_SEV_ERROR ? "error" : "warning", msg);
}

int ea_model_check(const struct ea_model *m, FILE *out)
{
	struct print_ctx p = { out, m->path ? m->path : m->name };

	return ea_model_check_cb(m, print_finding, &p);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wattson's rows as eatrace clusters (wattson.h): one cluster per cpufreq
 * policy, active -> core_power, static -> cluster_power (busy, and idle
 * while a CPU is in Wattson's idle0: Wattson pays static while any CPU of
 * the policy is outside its deepest state), idle0/idle1 -> idle states at
 * the median OPP, the deep-idle exit offset -> wakeup energy of cpuidle
 * state 1; a policy only cpu_2d.csv has reduced at one dependency
 * frequency (Wattson's default vote or --dep-freq).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/wattson.h"

struct opp {
	uint32_t freq;
	double stat, active, idle0, idle1;
	int file, line;
};

static void to_opp(const struct wrow *r, struct opp *o)
{
	*o = (struct opp){r->freq,  r->stat, r->active, r->idle0,
			  r->idle1, r->file, r->line};
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
		len += (size_t)snprintf(buf + len, n - len, "%s%d",
					len ? "," : "", c);
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
				return ea_imp_fail(&w->b, w->src,
						   "--dep-freq %s=%s: not "
						   "POLICY=[DEP_POLICY:]FREQ",
						   kv->key, kv->val);
		}
		want_df = strtoll(colon ? colon + 1 : kv->val, &e, 10);
		if (*e || e == (colon ? colon + 1 : kv->val) || want_df <= 0)
			return ea_imp_fail(&w->b, w->src,
					   "--dep-freq %s=%s: not "
					   "POLICY=[DEP_POLICY:]FREQ",
					   kv->key, kv->val);
	}
	for (int i = 0; i < n; i++) {
		bool seen = false;

		if (r[i].dep_freq < ref->dep_freq ||
		    (r[i].dep_freq == ref->dep_freq &&
		     (r[i].file < ref->file ||
		      (r[i].file == ref->file && r[i].line < ref->line))))
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
			if (r[i].dep_policy == want_dp &&
			    r[i].dep_freq == (uint64_t)want_df)
				hit = &r[i];
		if (!hit)
			return ea_imp_fail(
				&w->b, w->src,
				"--dep-freq %s=%s: no cpu_2d.csv row of policy "
				"%d depends on policy %lld at %lld",
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
			if (r[k].dep_policy == ref->dep_policy &&
			    r[k].dep_freq == ref->dep_freq)
				pick = &r[k];
		if (!pick) {
			/* the nearest dep_freq of the same dependency, the
			 * lower one on a tie (rows are by dep_freq) */
			uint64_t best = UINT64_MAX;

			for (int q = i; q < j; q++) {
				uint64_t d =
					r[q].dep_freq > ref->dep_freq
						? r[q].dep_freq - ref->dep_freq
						: ref->dep_freq - r[q].dep_freq;

				if (r[q].dep_policy == ref->dep_policy &&
				    d < best) {
					best = d;
					pick = &r[q];
				}
			}
		}
		if (!pick)
			pick = &r[i];
		if (pick->dep_policy != ref->dep_policy ||
		    pick->dep_freq != ref->dep_freq)
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
		dl += (size_t)snprintf(
			deptext + dl, sizeof(deptext) - dl, "%s%s%d",
			k ? (k + 1 == ndep ? " or " : ", ") : "",
			deps[k] == 255 ? "the DSU (dep_policy " : "policy ",
			deps[k]);
	for (int k = 0; k < ndep; k++)
		if (deps[k] == 255 && dl + 2 < sizeof(deptext))
			dl += (size_t)snprintf(deptext + dl,
					       sizeof(deptext) - dl, ")");
	cpus_text(w, pol, cpus, sizeof(cpus));
	if (kv)
		ea_imp_note(&w->b,
			    "policy%d (CPUs %s) is only in cpu_2d.csv: its "
			    "power depends on the frequency of %s%s. Reduced "
			    "at --dep-freq %s=%s (%s%d at %llu): exact while "
			    "that is the dependency Wattson votes for (at the "
			    "top OPP, active power spans %g..%g mW over the "
			    "dependency's frequencies).",
			    pol, cpus, deptext,
			    strstr(deptext, "DSU")
				    ? "; the DSU's frequency comes from "
				      "devfreq, which eatrace does not read"
				    : "",
			    kv->key, kv->val,
			    ref->dep_policy == 255 ? "dep_policy " : "policy ",
			    ref->dep_policy, (unsigned long long)ref->dep_freq,
			    lo, hi);
	else if (ref->dep_policy == 255)
		ea_imp_note(&w->b,
			    "policy%d (CPUs %s) is only in cpu_2d.csv: its "
			    "power depends on the frequency of %s%s. Reduced "
			    "at the lowest DSU frequency of its rows (%llu): "
			    "exact while the DSU runs there, an underestimate "
			    "when it runs faster (Wattson reads the DSU's "
			    "frequency from devfreq events; at the top OPP, "
			    "active power spans %g..%g mW over the DSU's "
			    "frequencies; --dep-freq picks another).",
			    pol, cpus, deptext,
			    "; the DSU's frequency comes from devfreq, which "
			    "eatrace does not read",
			    (unsigned long long)ref->dep_freq, lo, hi);
	else
		ea_imp_note(
			&w->b,
			"policy%d (CPUs %s) is only in cpu_2d.csv: its power "
			"depends on the frequency of %s%s. Reduced to "
			"Wattson's default vote, the lowest dependency "
			"frequency (policy %d at %llu), which Wattson itself "
			"uses while no CPU of the policies it depends on is "
			"active: exact then, an underestimate when they run "
			"faster (at the top OPP, active power spans %g..%g mW "
			"over the dependency's frequencies; --dep-freq picks "
			"another).",
			pol, cpus, deptext,
			strstr(deptext, "DSU")
				? "; the DSU's frequency comes from devfreq, "
				  "which eatrace does not read"
				: "",
			ref->dep_policy, (unsigned long long)ref->dep_freq, lo,
			hi);
	if (nsub)
		ea_imp_note(&w->b,
			    "policy%d: %d OPP%s no row at that dependency "
			    "frequency: the nearest dependency frequency of "
			    "the same policy there is used instead.",
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
	double los = INFINITY, his = -INFINITY;

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
		los = fmin(los, o[k].stat);
		his = fmax(his, o[k].stat);
	}
	if (w->have_idle_map) {
		nstates = 0;
		for (int k = 0; k < EA_MODEL_MAX_IDLE_STATES; k++)
			if (w->idle_map[k] != -2)
				nstates = k + 1;
	}
	for (int k = 0; k < nstates; k++) {
		int wk = !w->have_idle_map	? k
			 : w->idle_map[k] == -2 ? 1
						: w->idle_map[k];
		double core = wk ? o[r].idle1 : o[r].idle0, cw = 0, clw = 0;
		/*
		 * Wattson's _policy_masks: a CPU is on unless in the deepest
		 * state (idle1), and the policy pays its static, at its
		 * current OPP, while a CPU is on. A cluster whose CPUs are
		 * all idle, the shallowest in a state priced as idle0, pays
		 * it: at the median OPP, as idle0's core power.
		 */
		double cluster = wk ? 0 : o[r].stat;

		if (k == 1 && off > 0) {
			cw = mws(off, fmax(0, o[r].active - core));
			clw = mws(off, o[r].stat);
		}
		state_name(sname, sizeof(sname), k, wk);
		if (ea_imp_idle(b, ci, sname, core, cluster, cw, clw, 0,
				at(w, o[r].file, o[r].line)))
			return -1;
	}
	cpus_text(w, pol, cpus, sizeof(cpus));
	if (hi1 > 0)
		snprintf(sname, sizeof(sname), ", idle1 %g..%g mW", lo1, hi1);
	else
		snprintf(sname, sizeof(sname), ", idle1 0 at every OPP");
	ea_imp_note(b,
		    "policy%d (CPUs %s): idle powers at %u kHz (over the OPPs "
		    "Wattson's idle0 spans %g..%g mW%s, static %g..%g mW); "
		    "deep-idle exit offset %lld ns%s%s.",
		    pol, cpus, o[r].freq, lo0, hi0, sname, los, his,
		    (long long)off,
		    differ ? " (the largest of its CPUs': they differ)" : "",
		    nmissing ? " (some CPUs have none in device_infos.sql: 0)"
			     : "");
	return 0;
}

int ea_wattson_build(struct wctx *w)
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
		rc = ea_imp_fail(&w->b, w->infos,
				 "no CPU-to-policy map for device '%s' in "
				 "_cpu_to_policy_map (a device this copy of "
				 "Wattson does not know?)",
				 w->dev);
	/* rows naming a policy the device does not have */
	for (int k = 0; k < w->nrows && !rc; k++) {
		if (!has[w->rows[k].policy])
			rc = FAIL(w, w->rows[k].file, w->rows[k].line,
				  "policy %d is not a cpufreq policy of '%s' "
				  "in %s",
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
				ea_imp_note(&w->b,
					    "policy%d: cpu_1d.csv has it; its "
					    "cpu_2d.csv rows are not used.",
					    pol);
			rc = build_cluster(w, pol, o, n1);
		} else if (n2) {
			int no = 0;

			rc = reduce_2d(w, pol, &w->rows[i], n2, o, &no);
			if (!rc)
				rc = build_cluster(w, pol, o, no);
		} else {
			char cpus[200];

			cpus_text(w, pol, cpus, sizeof(cpus));
			rc = ea_imp_fail(&w->b, w->src,
					 "device '%s': policy %d (CPUs %s) has "
					 "no curve in cpu_1d.csv or cpu_2d.csv",
					 w->dev, pol, cpus);
		}
		i = j;
	}
	free(o);
	free(has);
	for (int k = 0; !rc && k < w->o->ndep_freqs_kv; k++)
		if (!w->dep_used[k])
			rc = ea_imp_fail(
				&w->b, w->src,
				"--dep-freq %s=%s: '%s' is not a policy of "
				"'%s' that only cpu_2d.csv has",
				w->o->dep_freqs[k].key, w->o->dep_freqs[k].val,
				w->o->dep_freqs[k].key, w->dev);
	if (rc)
		return rc;
	if (any_ic)
		ea_imp_note(
			&w->b,
			"Not imported: cpu_2d.csv's interconnect column, which "
			"Wattson adds to its DSU/SCU estimate (keyed on policy "
			"0's OPP and dependency, paid whenever not suspended): "
			"eatrace prices CPUs and clusters only.");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frequency governors of the replay. `recorded` follows the trace's own
 * cpu_frequency timeline (sim-freq.c does that); the others pick an OPP per
 * frequency domain:
 *  - schedutil (mainline kernel/sched/cpufreq_schedutil.c, shared policy):
 *    the domain's busiest CPU's util (capped at its capacity) with 25%
 *    headroom (map_util_perf(): util + util / 4, capped at the capacity),
 *    get_next_freq(): freq = max_freq x that / capacity, then the lowest
 *    OPP at or above freq that the energy model does not mark inefficient
 *    (cpufreq_driver_resolve_freq(), CPUFREQ_RELATION_LE since 5.16: an
 *    energy model registered with cpufreq marks the OPPs whose cost,
 *    power x max_freq / freq, is not below some higher OPP's, and
 *    schedutil skips them; feec's energy model, rp_em_efficient(), is the
 *    same one; `schedutil:all_opps` uses every OPP, as without such an
 *    energy model). A change of frequency waits
 *    until rate_limit_us have passed since the domain's last change
 *    (sugov_should_update_freq(); last_freq_update_time moves only when the
 *    frequency does). Default rate_limit_us 1000: mainline's
 *    cpufreq_policy_transition_delay_us() for a driver that gives no
 *    transition latency (the models give none);
 *  - fixed:CLUSTER=KHZ,...: every cluster named by the model, each at one
 *    of its OPPs, throughout (the RFC's setup: "disable frequency scaling
 *    and set frequencies to eliminate the big.LITTLE performance
 *    difference", A15 600 MHz and A7 1 GHz on TC2);
 *  - performance: the highest OPP; powersave: the lowest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/replay.h"
#include "replay/governor.h"

#define RP_SUGOV_RATE_LIMIT_US 1000

static const char *const names[] = { "recorded", "schedutil", "performance",
				     "powersave", "fixed" };

int rp_gov_parse(const char *name)
{
	struct rp_gov_spec g;
	int kind;

	if (rp_gov_spec_parse(&g, name, NULL, NULL, 0))
		return -1;
	kind = g.kind;
	rp_gov_spec_free(&g);
	return kind;
}

bool ea_replay_governor_valid(const char *name)
{
	return rp_gov_parse(name) >= 0;
}

void rp_gov_spec_default(struct rp_gov_spec *g, enum rp_gov kind)
{
	*g = (struct rp_gov_spec){ .kind = kind,
				   .rate_limit_us = RP_SUGOV_RATE_LIMIT_US };
}

void rp_gov_spec_free(struct rp_gov_spec *g)
{
	free(g->fixed_k);
	g->fixed_k = NULL;
}

#define ERR(...) (err ? snprintf(err, n, __VA_ARGS__) : 0, rp_gov_spec_free(g), -1)

/* "CLUSTER=KHZ,..." into g->fixed_k; without a model, the syntax only. */
static int parse_fixed(struct rp_gov_spec *g, const char *list,
		       const struct ea_model *m, char *err, size_t n)
{
	char buf[512], *tok, *save;

	if (strlen(list) >= sizeof(buf))
		return ERR("--governor fixed: list too long");
	if (!*list)
		return ERR("--governor fixed: give CLUSTER=KHZ,... (e.g. fixed:A15=600000,A7=1000000)");
	if (m) {
		g->fixed_k = malloc((m->nclusters ? m->nclusters : 1) *
				    sizeof(*g->fixed_k));
		if (!g->fixed_k)
			return ERR("out of memory");
		for (int i = 0; i < m->nclusters; i++)
			g->fixed_k[i] = -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long khz;
		int ci = -1, k = -1;

		if (!eq || eq == tok)
			return ERR("--governor fixed: '%s' is not CLUSTER=KHZ", tok);
		*eq = '\0';
		khz = strtoul(eq + 1, &end, 10);
		if (*end || !eq[1] || !khz || khz > EA_MODEL_MAX_FREQ_KHZ)
			return ERR("--governor fixed: '%s' is not a frequency in kHz", eq + 1);
		if (!m)
			continue;
		for (int i = 0; i < m->nclusters; i++)
			if (!strcmp(m->clusters[i].name, tok))
				ci = i;
		if (ci < 0)
			return ERR("--governor fixed: model '%s' has no cluster '%s'",
				   m->name, tok);
		for (int j = 0; j < m->clusters[ci].ncaps; j++)
			if (m->clusters[ci].caps[j].freq_khz == khz)
				k = j;
		if (k < 0)
			return ERR("--governor fixed: %lu kHz is not an OPP of cluster '%s' of model '%s'",
				   khz, tok, m->name);
		if (g->fixed_k[ci] >= 0)
			return ERR("--governor fixed: cluster '%s' given twice", tok);
		g->fixed_k[ci] = k;
	}
	for (int i = 0; m && i < m->nclusters; i++)
		if (g->fixed_k[i] < 0)
			return ERR("--governor fixed: no frequency for cluster '%s' of model '%s'",
				   m->clusters[i].name, m->name);
	return 0;
}

/* "rate_limit_us=N", "all_opps", comma-separated. */
static int parse_schedutil(struct rp_gov_spec *g, const char *list, char *err,
			   size_t n)
{
	char buf[128], *tok, *save;

	if (strlen(list) >= sizeof(buf))
		return ERR("--governor schedutil: options too long");
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "rate_limit_us=", 14)) {
			char *end;
			unsigned long us = strtoul(tok + 14, &end, 10);

			if (*end || !tok[14] || tok[14] == '-' || us > 10000000)
				return ERR("--governor schedutil: rate_limit_us '%s' is not 0..10000000",
					   tok + 14);
			g->rate_limit_us = (uint32_t)us;
		} else if (!strcmp(tok, "all_opps")) {
			g->all_opps = true;
		} else {
			return ERR("--governor schedutil: '%s' is not rate_limit_us=N or all_opps",
				   tok);
		}
	}
	if (!*list)
		return ERR("--governor schedutil: nothing after ':'");
	return 0;
}

int rp_gov_spec_parse(struct rp_gov_spec *g, const char *text,
		      const struct ea_model *m, char *err, size_t n)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	int kind = -1;

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strlen(names[i]) == len && !strncmp(text, names[i], len))
			kind = i;
	rp_gov_spec_default(g, kind < 0 ? RP_GOV_RECORDED : (enum rp_gov)kind);
	if (kind < 0)
		return ERR("--governor: '%s' is not one of recorded, schedutil[:rate_limit_us=N], performance, powersave, fixed:CLUSTER=KHZ,...",
			   text);
	if (kind == RP_GOV_FIXED)
		return colon ? parse_fixed(g, colon + 1, m, err, n) :
			       ERR("--governor fixed: give CLUSTER=KHZ,... (e.g. fixed:A15=600000,A7=1000000)");
	if (!colon)
		return 0;
	if (kind == RP_GOV_SCHEDUTIL)
		return parse_schedutil(g, colon + 1, err, n);
	return ERR("--governor: '%s' takes no '%s'", names[kind], colon + 1);
}

#undef ERR

int ea_replay_governor_check(const char *text, const struct ea_model *m,
			     struct ea_err *err)
{
	struct rp_gov_spec g;
	char msg[200];

	if (rp_gov_spec_parse(&g, text, m, msg, sizeof(msg)))
		return ea_err_set(err, "%s", msg);
	rp_gov_spec_free(&g);
	return 0;
}

int rp_gov_cap_idx(const struct rp_gov_spec *g, int ci,
		   const struct ea_cluster *cl, const struct rp_cl_cache *clc,
		   uint32_t util)
{
	uint32_t cap = cl->caps[cl->ncaps - 1].cap, top = cl->caps[cl->ncaps - 1].freq_khz;
	uint64_t want, khz;
	int k;

	switch (g->kind) {
	case RP_GOV_POWERSAVE:
		return 0;
	case RP_GOV_FIXED:
		return g->fixed_k ? g->fixed_k[ci] : cl->ncaps - 1;
	case RP_GOV_SCHEDUTIL:
		/* effective_cpu_util() caps at the capacity, then
		 * map_util_perf() and the cap again (sugov_effective_cpu_perf) */
		if (util > cap)
			util = cap;
		want = (uint64_t)util + (util >> 2);
		if (want > cap)
			want = cap;
		khz = cap ? (uint64_t)top * want / cap : top;
		for (k = 0; k < cl->ncaps - 1; k++)
			if (cl->caps[k].freq_khz >= khz)
				break;
		/* CPUFREQ_RELATION_LE: the lowest efficient one at or above */
		if (!g->all_opps)
			k = clc ? clc[ci].em_eff[k] : rp_em_efficient(cl, k);
		return k;
	default:
		return cl->ncaps - 1;
	}
}

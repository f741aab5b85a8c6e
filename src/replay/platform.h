/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay's platform arithmetic, the bottom of src/replay: what every
 * policy, governor and the simulator compute from the model alone.
 * Capacities and the fits rule (here, inline), a divider by a fixed
 * capacity, recorded CPUs onto another platform's (cpumap.c), mainline's
 * energy model figures (em.c), the 2014 RFC's (em-rfc.c), and both per
 * cluster, computed once (platform.c). Nothing here knows of workloads,
 * policies, governors or the simulator.
 */
#ifndef EATRACE_REPLAY_PLATFORM_H
#define EATRACE_REPLAY_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/model.h"

/* The cluster of cpu (one the model has). */
static inline const struct ea_cluster *rp_cpu_cluster(const struct ea_model *m,
						      int cpu)
{
	return &m->clusters[m->cpu_cluster[cpu]];
}

/* fits_capacity(): util below 80% of cap (util x 1280 < cap x 1024). */
static inline bool rp_fits(uint32_t util, uint32_t cap)
{
	return (uint64_t)util * 1280 < (uint64_t)cap * 1024;
}

/* platform.c: whether the model's clusters differ in top capacity
 * (asym_cpucapacity). */
bool rp_asymmetric(const struct ea_model *m);

/*
 * Division of a non-negative long by a fixed divisor d >= 1 as a multiply
 * and a shift (Granlund and Montgomery 1994, theorem 4.2 with N = 63):
 * with l = ceil(log2 d) and m = ceil(2^(63 + l) / d), which fits 64 bits,
 * floor(n / d) = floor(n x m / 2^(63 + l)) for every 0 <= n < 2^63. A
 * negative n takes the plain division (C's, towards zero).
 */
struct rp_div {
	uint64_t m;
	unsigned int shift; /* 63 + l */
};

static inline void rp_div_init(struct rp_div *q, uint32_t d)
{
	unsigned int l = 0;

	while (l < 32 && (1ull << l) < d)
		l++;
	q->shift = 63 + l;
	q->m = (uint64_t)((((unsigned __int128)1 << q->shift) + d - 1) / d);
}

static inline long rp_div(long n, const struct rp_div *q, long d)
{
	if (n < 0)
		return n / d;
	return (long)(((unsigned __int128)(uint64_t)n * q->m) >> q->shift);
}

/* cpumap.c: recorded CPU (0..nsrc-1) -> CPU of dst (0..ndst-1), by
 * capacity then id on each side (identity when same); malloc()ed. */
int *rp_cpu_map_new(const struct ea_model *src, int nsrc,
		    const struct ea_model *dst, int ndst, bool same);

/* ---- mainline's scheduling domains (topology.c) ---- */

/*
 * The platform's CPUs as mainline's domains group them: the MC domain of a
 * CPU spans its last-level cache (sd_llc: a cluster, or clusters whose
 * model names the same "llc"), groups of one CPU each; the PKG domain
 * above spans every CPU, its groups the LLCs (none when there is one LLC);
 * SD_ASYM_CPUCAPACITY on the whole platform when the clusters' capacities
 * differ. imbalance_pct 117 at both levels (sd_init()).
 */
struct rp_topo {
	int ncpus;
	int *llc; /* per CPU: its LLC, 0 .. nllc - 1 */
	int nllc;
	int *llc_size; /* per LLC: its CPUs (sd_llc_size) */
	int *llc_first; /* per LLC: its lowest CPU */
	bool asym; /* rp_asymmetric() */
};

#define RP_IMBALANCE_PCT 117

/* topology.c: the topology of m's first ncpus CPUs; NULL: no memory. */
struct rp_topo *rp_topo_new(const struct ea_model *m, int ncpus);
void rp_topo_free(struct rp_topo *t);

/* SIS_UTIL's update_idle_cpu_scan(): how many CPUs select_idle_cpu() may
 * scan in an LLC of llc_size CPUs whose mean cpu_util() is util_mean:
 * (1024 - min(x^2 x 117^2 / (10000 x 1024), 1024)) x llc_size / 1024. */
int rp_sis_util_nr_scan(uint64_t util_mean, int llc_size);

/* cpus_share_cache() */
static inline bool rp_share_cache(const struct rp_topo *t, int a, int b)
{
	return t->llc[a] == t->llc[b];
}

/* ---- mainline's energy model (em.c) ---- */

/* The energy model's power of a CPU of cl at OPP k, micro power_unit: its
 * core power plus an equal share of the cluster's. */
int64_t rp_em_power_u(const struct ea_cluster *cl, int k);
/* The lowest OPP at or above k that the energy model does not mark
 * EM_PERF_STATE_INEFFICIENT: a state is inefficient when some higher one
 * costs no more per unit of capacity (em_compute_costs(): cost = power x
 * max_freq / freq, compared from the top down). */
int rp_em_efficient(const struct ea_cluster *cl, int k);

/*
 * em-opp.c: the OPP em_cpu_energy() prices a busiest-CPU util at (util in
 * 0 .. the top capacity, headroom added): the lowest OPP covering it, or
 * (skip_inefficient) the lowest efficient one at or above that. As a
 * table of rp_em_opp_len() entries indexed by util, 0 (no table) when the
 * top capacity is over RP_EM_OPP_MAX_CAP; rp_em_opp_fill() fills t.
 */
#define RP_EM_OPP_MAX_CAP 4096
size_t rp_em_opp_len(const struct ea_cluster *cl);
void rp_em_opp_fill(const struct ea_cluster *cl, bool skip_inefficient,
		    uint16_t *t);

/* ---- the 2014 RFC's energy figures (em-rfc.c) ---- */

/* The RFC's wakeup energy (x1024 per window) from a model's per-wakeup
 * figure: w x 1024 x 1000 / 47742, rounded. */
long rp_rfc_wakeup_energy(double per_wakeup);
/* The RFC's current state of a CPU at OPP k: set_curr_capacity() stores
 * freq x 1024 / the policy's max frequency, which energy_diff_util()
 * matches against the cap states in the model's units (energy_match_cap(),
 * the lowest state whose cap covers it; the top one if none does). */
int rp_rfc_curr_idx(const struct ea_cluster *cl, int k);

/* energy_match_cap(): the lowest state from `from` on whose capacity
 * covers util (those below `from` being known not to); cl->ncaps: none. */
static inline int rp_rfc_match_cap(const struct ea_cluster *cl, long util,
				   int from)
{
	int i;

	for (i = from; i < cl->ncaps; i++)
		if ((long)cl->caps[i].cap >= util)
			return i;
	return i;
}

/* ---- per cluster, once per run (platform.c) ---- */

/*
 * eas-rfc's figures of a cluster: lround() of the busy powers per OPP, of
 * the deepest idle state's powers, that state's rp_rfc_wakeup_energy();
 * per OPP the reciprocal of its capacity and the RFC's current state at
 * that OPP (rp_rfc_curr_idx()). NULL arrays: from the model, at
 * each use.
 */
struct rp_rfc_pow {
	const long *core, *cluster;
	long idle_core, idle_cluster, wake_core, wake_cluster;
	const struct rp_div *div;
	const int *first;
};

/*
 * What the energy-aware policies derive from the model, per cluster: the
 * same integers they would compute at each decision (the RFC's lround()ed
 * powers, feec's per-CPU share of the cluster power), plus scratch for
 * one decision.
 */
struct rp_cl_cache {
	struct rp_rfc_pow rfc; /* eas-rfc */
	int64_t *em_pow; /* feec: em power per OPP */
	int *em_eff; /* feec: per OPP, the lowest efficient
			OPP at or above it (rp_em_efficient) */
	/* feec: per util, its OPP (em-opp.c): [0] every OPP, [1] the
	 * efficient ones; NULL: none (a top capacity too high) */
	const uint16_t *em_opp[2];
	uint16_t *em_opp_block; /* cc[0]'s: every cluster's tables */
	/* eas-rfc, per decision: util summed over the cluster's CPUs, the
	 * highest (0 at least), and the least loaded CPU (-1: none) */
	long sum, max;
	int probe;
};

/* One per cluster of m (indexed by cluster); NULL: out of memory. */
struct rp_cl_cache *rp_cl_cache_new(const struct ea_model *m);
void rp_cl_cache_free(struct rp_cl_cache *c);

#endif

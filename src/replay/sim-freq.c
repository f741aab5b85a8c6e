// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frequencies in the simulation: the governor (governor.c) sets each
 * frequency domain's OPP from its busiest CPU's util once the CPUs have
 * picked, schedutil's rate limit included; or the recording's
 * cpu_frequency changes apply (`--governor recorded`).
 */
#include "replay/sim.h"

/* The CPUs of cpu's frequency domain: [*n] from the returned pointer. */
static const int *dom_cpus(const struct sim *s, int cpu, int *n)
{
	int d = s->cpus[cpu].dom;

	*n = s->dom_start[d + 1] - s->dom_start[d];
	return &s->dom_cpu[s->dom_start[d]];
}

static void set_freq(struct sim *s, int cpu, int k, uint32_t khz, uint64_t key)
{
	const struct ea_cluster *cl = cl_of(s, cpu);
	const int *cpus;
	struct sim_out *o;
	int n;

	if (s->cpus[cpu].khz == khz)
		return;
	cpus = dom_cpus(s, cpu, &n);
	for (int i = 0; i < n; i++) {
		struct sim_cpu *c = &s->cpus[cpus[i]];

		sim_sync_cpu(s, cpus[i]);
		c->khz = khz;
		c->cap_idx = k;
		c->rate = cl->caps[k].cap;
		/* its finish time moves; nothing sim_pick() reads changed */
		set_bit(s->nt_dirty, s->cpos[cpus[i]]);
	}
	o = sim_emit(s, cpu, EA_EV_FREQ, key, e_task(s, cpu));
	if (o) {
		o->freq.khz = khz;
		o->freq.cpu = cpu;
	}
}

int sim_cap_idx_for_khz(const struct sim *s, const struct ea_cluster *cl,
			uint32_t khz)
{
	if (!khz)
		return s->assumed_khz
			       ? ea_model_cap_index_nearest(cl, s->assumed_khz)
			       : cl->ncaps - 1;
	return ea_model_cap_index_nearest(cl, khz);
}

/*
 * Each domain's OPP from its busiest CPU, domains by their first CPU. Only
 * the governor sets frequencies then, so while no CPU's util has changed
 * since its last run, nothing would change.
 */
void sim_governor(struct sim *s)
{
	if (s->gov == RP_GOV_RECORDED || (!s->util_dirty && !s->gov_pending))
		return;
	s->util_dirty = false;
	s->gov_pending = false;
	for (int d = 0; d < s->ndoms; d++) {
		const int *cpus = &s->dom_cpu[s->dom_start[d]];
		int n = s->dom_start[d + 1] - s->dom_start[d];
		const struct ea_cluster *cl = cl_of(s, cpus[0]);
		uint32_t util = 0;
		int k;

		for (int j = 0; j < n; j++)
			if (s->cpus[cpus[j]].pelt.util_avg > util)
				util = s->cpus[cpus[j]].pelt.util_avg;
		/* the OPP is a function of util: the last one's if it holds */
		if (s->dom_k[d] < 0 || s->dom_util[d] != util) {
			s->dom_k[d] = rp_gov_cap_idx(&s->gspec,
						     s->m->cpu_cluster[cpus[0]],
						     cl, s->clc, util);
			s->dom_util[d] = util;
		}
		k = s->dom_k[d];
		if (s->cpus[cpus[0]].khz == cl->caps[k].freq_khz)
			continue;
		/* schedutil: sugov_should_update_freq()'s rate limit */
		if (s->gov == RP_GOV_SCHEDUTIL &&
		    s->dom_last[d] != UINT64_MAX &&
		    s->now - s->dom_last[d] <
			    (uint64_t)s->gspec.rate_limit_us * 1000) {
			s->gov_pending = true;
			continue;
		}
		s->dom_last[d] = s->now;
		set_freq(s, cpus[0], k, cl->caps[k].freq_khz, KEY_SIM);
	}
}

void sim_recorded_freq(struct sim *s, const struct rp_freq *f)
{
	const struct ea_cluster *cl;

	if (f->cpu >= s->ncpus)
		return;
	cl = cl_of(s, f->cpu);
	set_freq(s, f->cpu, sim_cap_idx_for_khz(s, cl, f->khz), f->khz, f->seq);
}

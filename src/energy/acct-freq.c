// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's frequencies: the model's cap state a CPU's frequency is
 * priced at (memoised per CPU), and the time and energy that rest on a
 * frequency not reported or not in the model.
 */
#include "energy/acct-freq.h"

int ea_acct_assumed_index(const struct ea_acct *a, const struct ea_cluster *cl)
{
	if (!a->cfg.assumed_khz)
		return cl->ncaps - 1;
	return ea_model_cap_index_nearest(cl, a->cfg.assumed_khz);
}

int ea_acct_cap_index(struct ea_acct *a, const struct ea_cluster *cl, int cpu,
		      uint32_t freq, uint64_t len)
{
	int i;

	struct ea_cpu_acct *ca = &a->cpus[cpu];

	if (!freq) {
		ca->assumed_freq_ns += len;
		return ea_acct_assumed_index(a, cl);
	}
	if (ca->exact_freq != freq) {
		ca->exact_freq = freq;
		ca->exact_cap = ea_model_cap_index(cl, freq);
	}
	i = ca->exact_cap;
	if (i < 0) {
		a->cpus[cpu].unmodelled_freq_ns += len;
		i = ea_model_cap_index_nearest(cl, freq);
	}
	return i;
}

/* Nearest cap index of the frequency a busy CPU runs at, memoised per CPU. */
int ea_acct_busy_cap(struct ea_acct *a, const struct ea_cluster *cl, int cpu,
		     uint32_t freq)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];

	if (!freq)
		return ea_acct_assumed_index(a, cl);
	if (ca->near_freq != freq) {
		ca->near_freq = freq;
		ca->near_cap = ea_model_cap_index_nearest(cl, freq);
	}
	return ca->near_cap;
}

/* A busy sharer's share e of its cluster's energy, when its frequency
 * was not reported or is not the model's: energy that rests on it. */
void ea_acct_freq_assumed(struct ea_acct *a, const struct ea_cluster *cl,
			  int cpu, ea_energy_t e)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	uint32_t freq = ca->st.freq_khz;

	if (!freq)
		ca->assumed_freq_energy += e;
	else if (cl->caps[ea_acct_busy_cap(a, cl, cpu, freq)].freq_khz != freq)
		ca->unmodelled_freq_energy += e;
}

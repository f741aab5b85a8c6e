// SPDX-License-Identifier: GPL-2.0-only
/*
 * PELT, following kernel/sched/pelt.c: time in 1024 ns "us" units, sums
 * decayed per 1024 us period by y (y^32 = 0.5) with the kernel's 32-bit
 * inverse table, contributions split into the three segments of
 * accumulate_sum(), util_avg = util_sum / (LOAD_AVG_MAX - 1024 +
 * period_contrib) updated when a period boundary is crossed.
 *
 * Invariance is applied to the contribution (as kernels up to 5.0 did):
 * running time adds contrib x cap, cap being the capacity the CPU had at its
 * current frequency (1024 = the biggest CPU at its highest OPP). Later
 * kernels scale the PELT clock instead; the long-run averages agree.
 */
#include <math.h>

#include "state/pelt.h"

#define LOAD_AVG_PERIOD 32

static uint32_t yn_inv[LOAD_AVG_PERIOD];

/* runnable_avg_yN_inv[], generated as Documentation/scheduler/sched-pelt.c
 * does: ((1 << 32) - 1) * y^n, truncated. */
static void init_table(void)
{
	double y = pow(0.5, 1.0 / LOAD_AVG_PERIOD);

	if (yn_inv[0])
		return;
	for (int i = 0; i < LOAD_AVG_PERIOD; i++)
		yn_inv[i] = (uint32_t)(4294967295.0 * pow(y, i));
}

uint64_t ea_pelt_decay(uint64_t val, uint64_t n)
{
	unsigned int local_n;

	init_table();
	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	local_n = (unsigned int)n;
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return (uint64_t)(((unsigned __int128)val * yn_inv[local_n]) >> 32);
}

static uint32_t accumulate_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1 = (uint32_t)ea_pelt_decay(d1, periods);
	uint32_t c2 = EA_PELT_LOAD_AVG_MAX -
		      (uint32_t)ea_pelt_decay(EA_PELT_LOAD_AVG_MAX, periods) - 1024;

	return c1 + c2 + d3;
}

uint32_t ea_pelt_update_slow(struct ea_pelt *p, uint64_t now_ns, bool running,
			     uint32_t cap)
{
	uint64_t delta, periods;
	uint32_t contrib;

	if (!p->started) {
		p->started = true;
		p->last_ns = now_ns;
		return p->util_avg;
	}
	if (now_ns <= p->last_ns)
		return p->util_avg;
	delta = (now_ns - p->last_ns) >> 10;
	if (!delta)
		return p->util_avg;
	p->last_ns += delta << 10;

	contrib = (uint32_t)delta;
	delta += p->period_contrib;
	periods = delta / 1024;
	if (periods) {
		p->util_sum = ea_pelt_decay(p->util_sum, periods);
		delta %= 1024;
		if (running)
			contrib = accumulate_segments(periods,
						      1024 - p->period_contrib,
						      (uint32_t)delta);
	}
	p->period_contrib = (uint32_t)delta;
	if (running)
		p->util_sum += (uint64_t)contrib * cap;
	if (periods)
		p->util_avg = (uint32_t)(p->util_sum /
			(EA_PELT_LOAD_AVG_MAX - 1024 + p->period_contrib));
	return p->util_avg;
}

static void refresh_avg(struct ea_pelt *p)
{
	p->util_avg = (uint32_t)(p->util_sum /
				 (EA_PELT_LOAD_AVG_MAX - 1024 + p->period_contrib));
}

/* As detach_entity_load_avg(): subtract the task's sum, never below zero. */
void ea_pelt_detach(struct ea_pelt *cpu, const struct ea_pelt *task)
{
	cpu->util_sum = cpu->util_sum > task->util_sum ?
		cpu->util_sum - task->util_sum : 0;
	refresh_avg(cpu);
}

void ea_pelt_attach(struct ea_pelt *cpu, const struct ea_pelt *task)
{
	cpu->util_sum += task->util_sum;
	refresh_avg(cpu);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPUs entering and leaving idle in the simulation, and the idle state each
 * enters (idle.c: the recorded state, menu, the oracle's); the recorded
 * idle timeline's changes while a CPU stays idle.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

static int recorded_idle_state(struct sim *s, int cpu, bool *found)
{
	const struct rp_cpu_timeline *tl;
	struct sim_cpu *c = &s->cpus[cpu];

	*found = false;
	if (!s->same_platform || cpu >= s->w->ncpus)
		return 0;
	tl = &s->w->cpus[cpu];
	while (c->rec_idle + 1 < tl->nidles &&
	       tl->idles[c->rec_idle + 1].since <= s->now)
		c->rec_idle++;
	if (!tl->nidles)
		return 0;
	*found = true;
	return tl->idles[c->rec_idle].state;
}

static int pick_idle_state(struct sim *s, int cpu)
{
	const struct ea_cluster *cl = cl_of(s, cpu);
	struct sim_cpu *c = &s->cpus[cpu];
	bool found;
	int k;

	if (s->idle == RP_IDLE_RECORDED) {
		k = recorded_idle_state(s, cpu, &found);
		if (found)
			return k;
		/* no recorded timeline for this CPU: predict */
	}
	if (s->idle == RP_IDLE_ORACLE)
		return c->idle_period < c->nidle_lens
			       ? rp_idle_state_for(cl,
						   c->idle_lens[c->idle_period])
			       : 0;
	return rp_menu_state(cl, c->hist, c->nhist);
}

void sim_go_idle(struct sim *s, int cpu, uint64_t key)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_out *o;
	int k;

	if (c->e_idle)
		return;
	sim_emit_switch(s, cpu, -1, key);
	c->e_fresh = false;
	touch(s, cpu);
	k = pick_idle_state(s, cpu);
	o = sim_emit(s, cpu, EA_EV_IDLE, key, -1);
	if (o) {
		o->idle.state = k;
		o->idle.cpu = cpu;
	}
	c->e_idle = true;
	c->e_state = (int16_t)k;
	c->idle_since = s->now;
}

int sim_push_len(struct sim *s, struct sim_cpu *c, uint64_t len)
{
	if (c->nidle_lens == c->idle_lens_cap) {
		size_t n = c->idle_lens_cap ? c->idle_lens_cap * 2 : 64;
		uint64_t *p = realloc(c->idle_lens, n * sizeof(*p));

		if (!p) {
			sim_fail(s, "out of memory");
			return -1;
		}
		c->idle_lens = p;
		c->idle_lens_cap = n;
	}
	c->idle_lens[c->nidle_lens++] = len;
	return 0;
}

void sim_leave_idle(struct sim *s, int cpu, uint64_t key)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t len = s->now - c->idle_since;
	struct sim_out *o;

	if (!c->e_idle)
		return;
	o = sim_emit(s, cpu, EA_EV_IDLE, key, -1);
	if (o) {
		o->idle.state = EA_IDLE_EXIT;
		o->idle.cpu = cpu;
	}
	c->e_idle = false;
	touch(s, cpu);
	if (c->nhist == RP_MENU_HIST)
		memmove(c->hist, c->hist + 1,
			(RP_MENU_HIST - 1) * sizeof(c->hist[0]));
	else
		c->nhist++;
	c->hist[c->nhist - 1] = len;
	if (s->oracle_pass1)
		sim_push_len(s, c, len);
	c->idle_period++;
}

/* A recorded idle CPU changed state while idle (nested cpu_idle enter). */
void sim_recorded_idle_change(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	const struct rp_cpu_timeline *tl = &s->w->cpus[cpu];
	struct sim_out *o;
	bool found;
	int k;

	if (!c->e_idle || c->idle_since == s->now)
		return;
	k = recorded_idle_state(s, cpu, &found);
	if (!found || k == c->e_state || tl->idles[c->rec_idle].since != s->now)
		return;
	o = sim_emit(s, cpu, EA_EV_IDLE, tl->idles[c->rec_idle].seq, -1);
	if (o) {
		o->idle.state = k;
		o->idle.cpu = cpu;
	}
	c->e_state = (int16_t)k;
}

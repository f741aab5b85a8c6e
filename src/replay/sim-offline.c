// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording's offline CPUs and suspension in the simulation (same
 * platform only; docs/replay.md "Offline CPUs and suspension"): an
 * offline CPU's tasks move to online ones, no placement keeps it, and the
 * simulated trace carries the hotplug and suspend events.
 */
#include <stdlib.h>

#include "replay/sim.h"

/* Whether an online i is a better home than best for task (-1: any):
 * its --pin allows it, then fewer tasks, lower util (ties: the first
 * in sim.corder, the biggest CPU). */
static bool better_home(const struct sim *s, int task, int i, int best)
{
	const struct ea_pin *u = task >= 0 ? s->tasks[task].upin : NULL;
	bool ok_i = !u || rp_pin_allows(u, i), ok_b;

	if (best < 0)
		return true;
	ok_b = !u || rp_pin_allows(u, best);
	if (ok_i != ok_b)
		return ok_i;
	if (nr_running(s, i) != nr_running(s, best))
		return nr_running(s, i) < nr_running(s, best);
	return s->cpus[i].pelt.util_avg < s->cpus[best].pelt.util_avg;
}

/* An online CPU for task instead of the offline cpu (cpu if none is). */
int sim_online_cpu(const struct sim *s, int task, int cpu)
{
	int best = -1;

	for (int p = 0; p < s->ncpus; p++) { /* biggest first: sim.corder */
		int i = s->corder[p];

		if (!is_off(s, i) && better_home(s, task, i, best))
			best = i;
	}
	return best >= 0 ? best : cpu;
}

/* An offline CPU's tasks, waiting and running, move to online CPUs. */
void sim_evacuate(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	for (int k = c->nrq; k-- > 0;) {
		int task = c->rq[k];

		sim_leave(s, task, cpu, false);
		sim_rq_take(s, cpu, k);
		sim_enqueue(s, task, sim_online_cpu(s, task, cpu));
	}
	if (c->curr >= 0) {
		int dst = sim_online_cpu(s, c->curr, cpu);

		if (dst != cpu) {
			sim_migrate_running(s, cpu, dst);
		} else {
			/* none online (suspended): it waits, runnable */
			sim_sync_cpu(s, cpu);
			sim_eevdf_update_curr(s, cpu);
			if (sim_rq_push(s, cpu, c->curr))
				return;
			c->curr = -1;
			c->slice_end = UINT64_MAX;
			sim_set_pelt_b(s, c);
			touch(s, cpu);
		}
	}
}

/* A hotplug step of cpu for the output trace, recorded on on_cpu: the
 * state stage's rule (docs/inference.md) takes it down with a step on
 * itself then one on another CPU, up with the reverse. */
static void emit_hotplug(struct sim *s, int on_cpu, int cpu, bool enter,
			 int target, int step, uint64_t key)
{
	struct sim_out *o =
		sim_emit(s, on_cpu, EA_EV_HOTPLUG, key, e_task(s, on_cpu));

	if (o) {
		o->hotplug.cpu = cpu;
		o->hotplug.enter = enter;
		o->hotplug.target = target;
		o->hotplug.step = step;
	}
}

void sim_off_start(struct sim *s, const struct rp_off *o)
{
	int cpu = o->cpu, other = o->cpu ? 0 : 1;
	struct sim_out *ev;

	if (o->end > s->off_until[cpu])
		s->off_until[cpu] = o->end;
	s->off_end[cpu] = o;
	sim_evacuate(s, cpu);
	touch(s, cpu);
	if (o->suspended) {
		if (cpu == 0 && (ev = sim_emit(s, 0, EA_EV_SUSPEND, o->seq,
					       e_task(s, 0)))) {
			ev->suspend.begin = 1;
			ev->suspend.val = 3;
		}
	} else if (other < s->ncpus) {
		emit_hotplug(s, cpu, cpu, true, 0, 1, o->seq);
		emit_hotplug(s, other, cpu, false, -1, 1, o->seq);
	}
}

void sim_off_end(struct sim *s, int cpu)
{
	const struct rp_off *o = s->off_end[cpu];
	int other = cpu ? 0 : 1;
	struct sim_out *ev;

	s->off_end[cpu] = NULL;
	touch(s, cpu);
	if (o->suspended) {
		if (cpu == 0 && (ev = sim_emit(s, 0, EA_EV_SUSPEND, o->end_seq,
					       e_task(s, 0)))) {
			ev->suspend.begin = 0;
			ev->suspend.val = 3;
		}
	} else if (other < s->ncpus) {
		emit_hotplug(s, other, cpu, true, 1, 0, o->end_seq);
		emit_hotplug(s, cpu, cpu, true, 1, 1, o->end_seq);
	}
}

static int cmp_off(const void *a, const void *b)
{
	const struct rp_off *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->cpu - y->cpu;
}

/* The recording's offline stretches, sorted, on the same platform (the
 * recorded CPUs are the replayed ones); elsewhere none. */
int sim_init_offs(struct sim *s)
{
	const struct ea_workload *w = s->w;
	size_t n = 0;

	if (!s->same_platform || !w->noffs)
		return 0;
	s->offs = malloc(w->noffs * sizeof(*s->offs));
	s->off_until = calloc(s->ncpus, sizeof(*s->off_until));
	s->off_end = calloc(s->ncpus, sizeof(*s->off_end));
	if (!s->offs || !s->off_until || !s->off_end) {
		sim_fail(s, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->noffs; i++)
		if (w->offs[i].cpu < s->ncpus)
			s->offs[n++] = w->offs[i];
	qsort(s->offs, n, sizeof(*s->offs), cmp_off);
	s->noffs = n;
	return 0;
}

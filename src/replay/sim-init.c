// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's setup: its state for one workload, model and policy
 * (sim_new(), sim_init()), back at the trace's start for another run
 * (sim_rewind()), freed (sim_free(), sim_delete()); frequency domains, and
 * the order in which CPUs are visited (order_cpus()).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

/* sched_prio_to_weight[]: CFS load weight per nice level, -20 .. 19. */
static const uint32_t nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,	 1991,	1586,  1277,
	1024,  820,   655,   526,   423,   335,	  272,	 215,	172,   137,
	110,   87,    70,    56,    45,	   36,	  29,	 23,	18,    15,
};

static void reset(struct sim *s)
{
	const struct ea_workload *w = s->w;

	sim_ahead_end(s); /* the tournament is s's again */
	s->now = s->first_ts = w->counts.first_ts;
	s->last_ts = w->counts.last_ts;
	s->win0 = w->counts.win_start;
	/* past the trace's end too when the window reaches it: the runs go
	 * on until their work is done (sim.c) */
	s->win1 = w->counts.win_past_end ? UINT64_MAX : w->counts.win_end;
	s->next_tick = s->first_ts + TICK_NS;
	s->t_rec = 0;
	s->ai = s->bi = s->fi = s->oi = 0;
	for (int i = 0; s->off_until && i < s->ncpus; i++) {
		s->off_until[i] = 0;
		s->off_end[i] = NULL;
	}
	s->nmoves = 0;
	s->nout = s->bucket0 = 0;
	s->order = 0;
	s->nlat = 0;
	sim_lats_clear(&s->lat);
	sim_lats_clear(&s->floor);
	s->floor_wait_ns = 0;
	s->end_ns = 0;
	s->stalled = 0;
	s->wait_ns = s->late = s->overutil_ns = s->migrations = s->events = 0;
	s->placements = 0;
	s->overutilised = s->over_sticky = false;
	s->started = false;
	for (size_t i = 0; i < s->ntasks; i++) {
		struct sim_task *t = &s->tasks[i];

		memset(t, 0, sizeof(*t));
		t->w = &w->tasks[i];
		t->cpu = t->pelt_cpu = -1;
		t->until = UINT64_MAX;
		t->rt = t->w->prio < 100;
		t->weight = nice_weight[t->w->prio < 100   ? 20
					: t->w->prio > 139 ? 39
							   : t->w->prio - 100];
		/* staying on one CPU means nothing on another platform */
		t->pin = t->w->pin_auto && !s->same_platform
				 ? -1
				 : map_cpu(s, t->w->pin);
		/* --pin: CPUs of this platform; one of them: a pin */
		if (t->w->upin && ea_pin_first_cpu(t->w->upin) < s->ncpus) {
			t->upin = t->w->upin;
			t->pin = ea_pin_first_cpu(t->upin);
			for (int j = t->pin + 1; j < s->ncpus; j++)
				if (rp_pin_allows(t->upin, j))
					t->pin = -1;
		}
		t->wake_last_ms = s->first_ts / 1000000;
		t->load_cpu = -1;
		t->recent_cpu = -1;
		t->off_ns = 0;
		t->kthread = rp_kthread_cpu(t->w->comm) >= 0;
	}
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		const struct ea_cluster *cl;

		c->cluster = s->m->cpu_cluster[i];
		cl = &s->m->clusters[c->cluster];
		c->curr = -1;
		c->nrq = 0;
		c->nrq_rt = 0;
		c->vsum = 0;
		c->vw = 0;
		c->slice_end = UINT64_MAX;
		c->in_busy0 = false;
		c->wake_at = 0;
		s->nin_busy0 = 0;
		memset(&c->pelt, 0, sizeof(c->pelt));
		c->e_fresh = true;
		c->e_idle = false;
		c->e_pid = 0;
		c->e_task = -1;
		c->e_state = 0;
		c->kmax = 0;
		c->kmax_bucket = s->nbuckets;
		c->rec_idle = 0;
		c->nhist = 0;
		c->idle_period = 0;
		c->task_busy_ns = 0;
		c->work = 0;
		/* recorded: unknown until the trace says; else set at once */
		c->khz = 0;
		c->cap_idx = sim_cap_idx_for_khz(s, cl, 0);
		c->cap_orig = cl->caps[cl->ncaps - 1].cap;
		/* util x 1280 >= cap x 1024 <=> util >= cap x 1024 / 1280,
		 * rounded up */
		c->over_util =
			(uint32_t)(((uint64_t)c->cap_orig * 1024 + 1279) /
				   1280);
		c->fin_rate = 0; /* no finish time yet */
		memset(&c->lload, 0, sizeof(c->lload));
		memset(&c->lrunnable, 0, sizeof(c->lrunnable));
		c->lb = 0;
		s->env_load[i] = s->env_runnable[i] = 0;
		c->lw = 0;
		c->lnr = 0;
		c->exec_start = s->now;
		c->v0 = 0;
		c->idle_flips = c->idle_last_wakee = 0;
		c->lb_failed = 0;
		c->busy_lb_next = 0;
		c->idle_flip_ts = 0;
		c->rate = cl->caps[c->cap_idx].cap;
		c->sync_t = s->now;
		c->curr_step = 0;
		touch(s, i);
	}
	memset(s->due, 0, s->nw * sizeof(*s->due));
	s->nstep = 0;
	s->pelt_next = UINT64_MAX;
	s->load_next = s->load_read_t = 0;
	s->over_stale = true;
	for (int i = 0; i < s->ncpus; i++) {
		ea_pelt_update(&s->cpus[i].pelt, s->now, false, 0);
		sim_set_pelt_b(s, &s->cpus[i]);
	}
	for (int d = 0; d < s->ndoms; d++) {
		s->dom_k[d] = -1; /* no OPP chosen yet */
		s->dom_last[d] = UINT64_MAX;
	}
	s->util_dirty = true;
	s->gov_pending = false;
	/* SIS_UTIL: nothing scanned until the first periodic balance */
	for (int l = 0; s->topo && l < s->topo->nllc; l++)
		s->nr_idle_scan[l] = 0;
	sim_arrivals_rewind(s);
}

/* Frequency domains: CPUs of one cluster that is a frequency domain, or
 * each CPU on its own. */
static int init_domains(struct sim *s)
{
	int n = 0;

	s->dom_start = calloc(s->ncpus + 1, sizeof(*s->dom_start));
	s->dom_cpu = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_cpu));
	s->dom_k = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_k));
	s->dom_util = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_util));
	s->dom_last = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->dom_last));
	if (!s->dom_start || !s->dom_cpu || !s->dom_k || !s->dom_util ||
	    !s->dom_last)
		return -1;
	for (int i = 0; i < s->ncpus; i++) {
		int cl = s->m->cpu_cluster[i];

		s->cpus[i].dom = -1;
		for (int j = 0; j < i; j++)
			if (s->m->clusters[cl].freq_domain &&
			    s->m->cpu_cluster[j] == cl) {
				s->cpus[i].dom = s->cpus[j].dom;
				break;
			}
		if (s->cpus[i].dom < 0)
			s->cpus[i].dom = s->ndoms++;
	}
	for (int d = 0; d < s->ndoms; d++) {
		s->dom_start[d] = n;
		for (int i = 0; i < s->ncpus; i++)
			if (s->cpus[i].dom == d)
				s->dom_cpu[n++] = i;
	}
	s->dom_start[s->ndoms] = n;
	return 0;
}

/*
 * The order in which the simulator visits CPUs wherever the first visited
 * wins (which CPU picks, pulls or balances first, ties among sources): the
 * biggest top capacity first, then by id. A renumbering that keeps each
 * cluster's CPUs in order (tc2 and its A7-first copy) leaves it the same
 * sequence of CPUs, so it changes no result; on a platform numbered
 * big-first, such as tc2, it is the ids' order.
 */
static int order_cpus(struct sim *s)
{
	s->corder = malloc((s->ncpus ? s->ncpus : 1) * sizeof(*s->corder));
	s->cpos = malloc((s->ncpus ? s->ncpus : 1) * sizeof(*s->cpos));
	if (!s->corder || !s->cpos)
		return -1;
	for (int i = 0; i < s->ncpus; i++) {
		uint32_t cap = s->cpus[i].cap_orig;
		int p = i;

		/* insertion: ncpus is small, and this runs once */
		while (p > 0 && s->cpus[s->corder[p - 1]].cap_orig < cap) {
			s->corder[p] = s->corder[p - 1];
			p--;
		}
		s->corder[p] = i;
	}
	for (int p = 0; p < s->ncpus; p++)
		s->cpos[s->corder[p]] = p;
	return 0;
}

int sim_init(struct sim *s, const struct ea_workload *w,
	     const struct ea_model *m, const struct rp_policy *p, enum rp_gov g,
	     enum rp_idle_sel idle, bool same_platform, uint32_t assumed_khz)
{
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->w = w;
	s->m = m;
	s->policy = p;
	s->batch = SIM_BATCH;
	s->gov = g;
	rp_gov_spec_default(&s->gspec, g);
	s->idle = idle;
	s->same_platform = same_platform;
	s->keep_gaps = p->follow_segments && same_platform;
	s->assumed_khz = assumed_khz;
	s->asymmetric = rp_asymmetric(m);
	s->rec_idle_tl = idle == RP_IDLE_RECORDED && same_platform;
	s->cap_max = 1;
	s->ncpus = same_platform && w->counts.ncpus > 0 &&
				   w->counts.ncpus < m->ncpus
			   ? w->counts.ncpus
			   : m->ncpus;
	for (int i = 0; i < s->ncpus; i++)
		if (m->cpu_cluster[i] < 0) {
			snprintf(s->error, sizeof(s->error),
				 "model '%s' has no CPU %d", m->name, i);
			return -1;
		}
	s->ntasks = w->ntasks;
	s->nsrc = w->counts.ncpus > w->ncpus ? w->counts.ncpus : w->ncpus;
	s->cpu_map = rp_cpu_map_new(w->cfg.model, s->nsrc, m, s->ncpus,
				    same_platform);
	if (!s->cpu_map) {
		sim_fail(s, "out of memory");
		return -1;
	}
	if (s->nsrc < 1)
		s->nsrc = 1;
	s->cpus = calloc(s->ncpus, sizeof(*s->cpus));
	s->tasks = calloc(s->ntasks ? s->ntasks : 1, sizeof(*s->tasks));
	s->env_util = calloc(s->ncpus, sizeof(*s->env_util));
	s->env_ue = calloc(s->ncpus, sizeof(*s->env_ue));
	s->env_cap = calloc(s->ncpus, sizeof(*s->env_cap));
	s->env_nr = calloc(s->ncpus, sizeof(*s->env_nr));
	s->env_load = calloc(s->ncpus, sizeof(*s->env_load));
	s->env_runnable = calloc(s->ncpus, sizeof(*s->env_runnable));
	s->env_idle_state = calloc(s->ncpus, sizeof(*s->env_idle_state));
	s->env_idle_stamp = calloc(s->ncpus, sizeof(*s->env_idle_stamp));
	s->nr_idle_scan = calloc(s->ncpus, sizeof(*s->nr_idle_scan));
	s->topo = rp_topo_new(m, s->ncpus);
	s->done = calloc(s->ncpus, sizeof(*s->done));
	s->nt = calloc(s->ncpus, sizeof(*s->nt));
	s->nw = s->ncpus / 64 + 1;
	s->nt_dirty = calloc(s->nw, sizeof(*s->nt_dirty));
	s->pk_dirty = calloc(s->nw, sizeof(*s->pk_dirty));
	s->due = calloc(s->nw, sizeof(*s->due));
	s->comms = calloc(s->ntasks ? s->ntasks : 1, sizeof(*s->comms));
	s->swapper = calloc(s->ncpus, sizeof(*s->swapper));
	s->clc = rp_cl_cache_new(m);
	if (!s->cpus || !s->tasks || !s->env_util || !s->env_ue ||
	    !s->env_cap || !s->env_nr || !s->done || !s->nt || !s->nt_dirty ||
	    !s->pk_dirty || !s->due || !s->clc || !s->comms || !s->swapper ||
	    !s->env_load || !s->env_runnable || !s->env_idle_state ||
	    !s->env_idle_stamp || !s->nr_idle_scan || !s->topo ||
	    init_domains(s)) {
		sim_fail(s, "out of memory");
		return -1;
	}
	for (int i = 0; i < s->ncpus; i++) {
		const struct ea_cluster *cl = &m->clusters[m->cpu_cluster[i]];

		sim_swapper_comm(i, s->swapper[i]);
		s->cpus[i].cap_orig = cl->caps[cl->ncaps - 1].cap;
		if (cl->caps[cl->ncaps - 1].cap > s->cap_max)
			s->cap_max = cl->caps[cl->ncaps - 1].cap;
	}
	if (order_cpus(s)) {
		sim_fail(s, "out of memory");
		return -1;
	}
	/* EEVDF's base slice: sysctl_sched_base_slice, 0.70 ms scaled by
	 * 1 + ilog2(min(CPUs, 8)) (SCHED_TUNABLESCALING_LOG) */
	s->base_slice = 700000;
	for (int nc = s->ncpus < 8 ? s->ncpus : 8; nc > 1; nc >>= 1)
		s->base_slice += 700000;
	for (size_t i = 0; i < s->ntasks; i++)
		memcpy(s->comms[i], w->tasks[i].comm,
		       strnlen(w->tasks[i].comm, EA_COMM_LEN - 1));
	s->names = (struct sim_names){.tasks = w->tasks,
				      .comms = (const void *)s->comms,
				      .swapper = (const void *)s->swapper,
				      .ncpus = s->ncpus,
				      .no_comms = s->no_comms};
	if (sim_init_offs(s))
		return -1;
	if (sim_arrivals_in_order(w, s->keep_gaps, &n)) {
		if (sim_arrivals_alloc(s))
			return -1;
	} else {
		if (sim_arrivals_sort(s))
			return -1;
		n = s->narr;
	}
	/* a latency per activation served, at most one per arrival */
	if (sim_lats_init(&s->lat, n) || sim_lats_init(&s->floor, n)) {
		sim_fail(s, "out of memory");
		return -1;
	}
	reset(s);
	return 0;
}

int sim_sort_arrivals(struct sim *s)
{
	sim_ahead_end(s); /* the tournament is s's again, to be freed */
	sim_arrivals_free(s);
	if (!s->arr && sim_arrivals_sort(s))
		return -1;
	reset(s);
	return 0;
}

int sim_rewind(struct sim *s)
{
	reset(s);
	return 0;
}

void sim_free(struct sim *s)
{
	sim_ahead_end(s); /* the tournament is s's again, to be freed */
	for (int i = 0; s->cpus && i < s->ncpus; i++) {
		free(s->cpus[i].rq);
		free(s->cpus[i].idle_lens);
	}
	free(s->cpus);
	free(s->tasks);
	free(s->env_util);
	free(s->cpu_map);
	free(s->env_ue);
	free(s->env_cap);
	free(s->env_nr);
	free(s->env_load);
	free(s->env_runnable);
	free(s->env_idle_state);
	free(s->env_idle_stamp);
	free(s->nr_idle_scan);
	rp_topo_free(s->topo);
	free(s->done);
	free(s->nt);
	free(s->nt_dirty);
	free(s->pk_dirty);
	free(s->due);
	free(s->corder);
	free(s->cpos);
	free(s->comms);
	free(s->swapper);
	rp_cl_cache_free(s->clc);
	free(s->arr);
	sim_arrivals_free(s);
	free(s->dom_start);
	free(s->dom_cpu);
	free(s->dom_k);
	free(s->dom_util);
	free(s->dom_last);
	free(s->moves);
	free(s->offs);
	free(s->off_until);
	free(s->off_end);
	sim_apart_end(s); /* s->out is the simulator's again */
	free(s->out);
	sim_lats_free(&s->lat);
	sim_lats_free(&s->floor);
	memset(s, 0, sizeof(*s));
}

struct sim *sim_new(const struct sim_config *cfg, char *err, size_t n)
{
	struct sim *s = malloc(sizeof(*s));

	if (!s) {
		snprintf(err, n, "out of memory");
		return NULL;
	}
	if (sim_init(s, cfg->w, cfg->m, cfg->policy, cfg->gov->kind, cfg->idle,
		     cfg->same_platform, cfg->assumed_khz)) {
		snprintf(err, n, "%s", s->error);
		sim_delete(s);
		return NULL;
	}
	s->work = cfg->work;
	s->gspec = *cfg->gov;
	if (cfg->no_latencies) {
		sim_lats_free(&s->lat);
		sim_lats_free(&s->floor);
		s->no_lat = true;
	}
	return s;
}

void sim_delete(struct sim *s)
{
	if (!s)
		return;
	sim_free(s);
	free(s);
}

int sim_ncpus(const struct sim *s)
{
	return s->ncpus;
}

void sim_set_sink(struct sim *s,
		  int (*sink)(void *ctx, const struct ea_event *ev,
			      const char *comm),
		  void *ctx)
{
	s->sink = sink;
	s->sink_ctx = ctx;
}

void sim_sink_no_comms(struct sim *s)
{
	s->no_comms = true;
	s->names.no_comms = true;
}

const char *sim_error(const struct sim *s)
{
	return s->error;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workload extraction (docs/replay.md "Workload"): a state consumer that
 * cuts every task's recorded life into activations.
 *
 *  - An activation opens at the task's wakeup (sched_waking/wakeup/new), or
 *    at its switch-in when none was recorded, or at the trace start for a
 *    task already running then; it closes when the task blocks or dies.
 *  - Its work is the CPU time it received, x the capacity the CPU had at its
 *    frequency (the source model's, or --source-capacity): ns x cap, exact.
 *  - It may run from its release, except when it was switched in from the
 *    idle task: then the CPU was not busy with other tasks meanwhile, and the
 *    gap (idle exit latency) is the recording's; it may run from then.
 *  - An activation still open at the end never blocked: it stays runnable to
 *    the end of the replay (CPU-bound tasks are one such activation).
 *
 * Besides, per CPU: the stretches spent busy in the idle task (interrupts,
 * idle entry and exit paths) with their recorded times, the recorded
 * frequencies and idle states, for the `recorded` governor and idle choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/workload.h"


static size_t slot_of(int32_t pid, size_t n)
{
	return ((uint32_t)pid * 2654435761u) & (n - 1);
}

static void oom(struct ea_workload *w)
{
	snprintf(w->error, sizeof(w->error), "out of memory");
}

#define GROW(w, arr, n, cap) GROW_BY(w, arr, n, cap, 2)
#define GROW_BY(w, arr, n, cap, by)                                            \
	({                                                                     \
		bool ok_ = true;                                               \
		if ((n) == (cap)) {                                            \
			size_t c_ = (cap) ? (cap) * (by) : 64;                 \
			void *p_ = realloc((arr), c_ * sizeof(*(arr)));        \
			if (!p_) {                                             \
				oom(w);                                        \
				ok_ = false;                                   \
			} else {                                               \
				(arr) = p_;                                    \
				(cap) = c_;                                    \
			}                                                      \
		}                                                              \
		ok_;                                                           \
	})

/* The task of pid in the hash, NULL: none yet (none is created). */
static struct rp_task *task_hashed(struct ea_workload *w, int32_t pid)
{
	if (!w->nslots)
		return NULL;
	for (size_t j = slot_of(pid, w->nslots); w->slots[j];
	     j = (j + 1) & (w->nslots - 1))
		if (w->tasks[w->slots[j] - 1].pid == pid) {
			rp_pid_memo_put(&w->memo, pid, w->slots[j] - 1);
			return &w->tasks[w->slots[j] - 1];
		}
	return NULL;
}

/* The task of pid, NULL: none yet (none is created). */
static inline struct rp_task *task_find(struct ea_workload *w, int32_t pid)
{
	int64_t i = rp_pid_memo_get(&w->memo, pid);

	return i >= 0 ? &w->tasks[i] : task_hashed(w, pid);
}

/* task_get() past the memo: found in the hash, or made. */
static struct rp_task *task_make(struct ea_workload *w, int32_t pid,
				 const char *comm)
{
	struct rp_task *t = task_hashed(w, pid);
	size_t j;

	if (t) {
		if (comm && comm[0])
			memcpy(t->comm, comm, EA_COMM_LEN);
		return t;
	}
	if ((w->ntasks + 1) * 2 > w->nslots) {
		size_t n = w->nslots ? w->nslots * 2 : 256;
		int32_t *s = calloc(n, sizeof(*s));

		if (!s) {
			oom(w);
			return NULL;
		}
		for (size_t i = 0; i < w->ntasks; i++) {
			for (j = slot_of(w->tasks[i].pid, n); s[j]; j = (j + 1) & (n - 1))
				;
			s[j] = (int32_t)i + 1;
		}
		free(w->slots);
		w->slots = s;
		w->nslots = n;
	}
	if (!GROW(w, w->tasks, w->ntasks, w->task_cap))
		return NULL;
	t = &w->tasks[w->ntasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->pin = -1;
	t->only_cpu = -2;
	t->last_run_cpu = -1;
	t->ran_cpu = -1;
	t->prio = -1;	/* none seen yet: 120 at the end */
	t->segs_kept = !w->cfg.no_segments;
	if (comm)
		memcpy(t->comm, comm, EA_COMM_LEN);
	for (j = slot_of(pid, w->nslots); w->slots[j]; j = (j + 1) & (w->nslots - 1))
		;
	w->slots[j] = (int32_t)++w->ntasks;
	rp_pid_memo_put(&w->memo, pid, w->ntasks - 1);
	return t;
}

/* The task of pid, made if new; its comm set from comm unless empty. */
static inline struct rp_task *task_get(struct ea_workload *w, int32_t pid,
				       const char *comm)
{
	int64_t i = rp_pid_memo_get(&w->memo, pid);
	struct rp_task *t;

	if (i < 0)
		return task_make(w, pid, comm);
	t = &w->tasks[i];
	if (comm && comm[0])
		memcpy(t->comm, comm, EA_COMM_LEN);
	return t;
}

const struct rp_xseg *rp_xseg_find(const struct rp_task *t, size_t key)
{
	size_t lo = 0, hi = t->nxsegs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->xsegs[mid].act < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nxsegs && t->xsegs[lo].act == key ? &t->xsegs[lo] : NULL;
}

/*
 * The segments of t's last activation are all there will be (the next
 * one opens, or the recording ended): one whose figures are the
 * activation's own becomes RP_ACT_SEG1 and leaves segs[] (its start is
 * not kept: it must be its eligible time where a start cut may read it,
 * in the first early_ns); the others are indexed in xsegs[]. 0, or -1
 * out of memory.
 */
static int segs_close(struct ea_workload *w, struct rp_task *t)
{
	struct rp_act *a;
	const struct rp_seg *g;

	if (!t->open_nseg)
		return 0;
	a = &t->last;
	g = &t->segs[t->open_seg0];
	if (t->open_nseg == 1 && g->work == a->work && !g->stretch &&
	    g->cpu == a->cpu && g->seq_in == a->seq_in &&
	    (g->start == a->eligible ||
	     a->release >= w->first_ts + w->cfg.early_ns)) {
		a->flags |= RP_ACT_SEG1 | (g->from_idle ? RP_ACT_SEG1_IDLE : 0);
		t->nsegs = t->open_seg0; /* it was the last */
	} else {
		if (!GROW(w, t->xsegs, t->nxsegs, t->xseg_cap))
			return -1;
		t->xsegs[t->nxsegs++] = (struct rp_xseg){
			(uint32_t)(t->nacts - 1), t->open_seg0, t->open_nseg};
	}
	t->open_nseg = 0;
	return 0;
}

/* t's last activation into its store (act-store.c): nothing changes it
 * now but its waker's sync and task. 0, or -1 out of memory. */
static int act_store(struct ea_workload *w, struct rp_task *t)
{
	if (!t->staged)
		return 0;
	if (rp_store_push(t, t->nacts - 1, &t->last, &t->last_wk)) {
		oom(w);
		return -1;
	}
	t->staged = false;
	return 0;
}

static struct rp_act *act_open(struct ea_workload *w, struct rp_task *t,
			       uint64_t release, uint32_t flags)
{
	struct rp_act *a;

	if (segs_close(w, t) || act_store(w, t))
		return NULL;
	t->last_wk = (struct rp_waker){-1, -1, RP_WAKER_NONE, 0};
	t->staged = true;
	t->nacts++;
	a = &t->last;
	memset(a, 0, sizeof(*a));
	a->release = a->eligible = release;
	a->cpu = -1;
	a->flags = flags;
	t->open = true;
	t->lost_at_open = w->lost;
	return a;
}

/*
 * Count a's share of the workload's figures into c: once it has closed (a
 * block, an exit, or the end), nothing changes its flags nor its release.
 */
static void count_act(struct ea_workload_counts *c, const struct rp_act *a,
		      uint64_t first_ts)
{
	c->activations++;
	if (a->flags & RP_ACT_START || a->release == first_ts)
		c->at_start++;
	if (a->flags & RP_ACT_OPEN)
		c->open++;
	if (!(a->flags & RP_ACT_RAN))
		c->never_ran++;
	if (a->flags & RP_ACT_SPLIT)
		c->split++;
	if (a->flags & RP_ACT_LOST)
		c->lost_span++;
}

static struct rp_act *open_act(struct rp_task *t)
{
	return t->open ? &t->last : NULL;
}

static uint32_t source_capacity(const struct ea_workload *w, int cpu,
				uint32_t khz)
{
	const struct ea_model *m = w->cfg.model;
	const struct ea_cluster *cl;
	int k;

	if (w->cfg.source_capacity)
		return w->cfg.source_capacity;
	cl = m ? ea_model_cpu_cluster(m, cpu) : NULL;
	if (!cl)
		return 1024;
	if (!khz)	/* unknown: the accountant's assumed OPP */
		k = w->cfg.assumed_khz ?
			ea_model_cap_index_nearest(cl, w->cfg.assumed_khz) :
			cl->ncaps - 1;
	else
		k = ea_model_cap_index_nearest(cl, khz);
	return k < 0 ? 1024 : cl->caps[k].cap;
}

static int grow_cpus(struct ea_workload *w, int cpu)
{
	struct rp_cpu_timeline *p;
	int n = cpu + 1;

	if (cpu < w->ncpus)
		return 0;
	p = realloc(w->cpus, n * sizeof(*p));
	if (!p) {
		oom(w);
		return -1;
	}
	memset(p + w->ncpus, 0, (n - w->ncpus) * sizeof(*p));
	w->cpus = p;
	w->ncpus = n;
	return 0;
}

/* a has had its first run: lost events since its wakeup hide when. */
static void first_run(const struct ea_workload *w, const struct rp_task *t,
		      struct rp_act *a)
{
	a->flags |= RP_ACT_RAN;
	if (w->lost != t->lost_at_open)
		a->flags |= RP_ACT_LOST;
}

/* The activation's segment on cpu: its last one, or a new one. */
static struct rp_seg *seg_on(struct ea_workload *w, struct rp_task *t,
			     struct rp_act *a, int cpu, uint64_t start,
			     uint64_t seq, bool from_idle)
{
	/* a is the task's open activation, its last */
	struct rp_seg *g;

	if (t->open_nseg &&
	    t->segs[t->open_seg0 + t->open_nseg - 1].cpu == cpu)
		return &t->segs[t->open_seg0 + t->open_nseg - 1];
	if (!GROW(w, t->segs, t->nsegs, t->seg_cap))
		return NULL;
	if (!t->open_nseg)
		t->open_seg0 = (uint32_t)t->nsegs;
	t->open_nseg++;
	g = &t->segs[t->nsegs++];
	g->work = 0;
	g->stretch = 0;
	g->start = start;
	g->seq_in = seq;
	g->cpu = cpu;
	g->from_idle = from_idle;
	return g;
}

static void note_run(struct rp_task *t, struct rp_act *a, int cpu)
{
	if (t->only_cpu == -2)
		t->only_cpu = cpu;
	else if (t->only_cpu != cpu)
		t->only_cpu = -1;
	if (a->cpu >= 0 && a->cpu != cpu)
		a->flags |= RP_ACT_SPLIT;
	t->last_run_cpu = cpu;
}

/* Time [since, now) of a task on cpu that overlaps its run elsewhere. */
static bool overlap_stretch(struct ea_workload *w, struct rp_cpu_timeline *tl,
			    int cpu, uint64_t since, uint64_t now, uint64_t seq)
{
	struct rp_idle_busy *b;

	if (!GROW(w, w->busy0, w->nbusy0, w->busy0_cap))
		return false;
	b = &w->busy0[w->nbusy0++];
	memset(b, 0, sizeof(*b));
	b->start = since;
	b->end = now;
	b->seq_start = tl->busy0_seq;
	b->seq_end = seq;
	b->cpu = cpu;
	b->to_idle = true;	/* idle after it unless a task runs there */
	b->overlap = true;
	return true;
}

/* A run of t (its open activation a, segment g) that began in the first
 * cfg.early_ns: kept for the ensemble's start cuts (workload-perturb.c). */
static bool early_run(struct ea_workload *w, const struct rp_task *t,
		      const struct rp_seg *g, int cpu, uint64_t since,
		      uint64_t now, uint32_t cap, bool overlap)
{
	if (!GROW(w, w->early, w->nearly, w->early_cap))
		return false;
	w->early[w->nearly++] = (struct rp_early_run){
		.since = since, .now = now, .task = (uint32_t)(t - w->tasks),
		.act = (uint32_t)(t->nacts - 1),
		.seg = g ? (uint32_t)(g - t->segs) : UINT32_MAX,
		.cap = cap, .cpu = cpu, .overlap = overlap,
	};
	return true;
}

/* The state's calls, given first_ts: made inline in both ea_workload_ops
 * and rp_wl_change(), rp_wl_event() (the default path pays no call). */
static inline __attribute__((always_inline)) void
wl_change(struct ea_workload *w, uint64_t first_ts, int cpu, uint64_t since,
	  uint64_t now, const struct ea_cpu_state *old,
	  const struct ea_cpu_state *new)
{
	uint64_t seq = w->seq + 1;	/* the event being applied */
	struct rp_cpu_timeline *tl;

	w->first_ts = first_ts;
	if (w->error[0] || grow_cpus(w, cpu))
		return;
	tl = &w->cpus[cpu];
	if (old->mode == EA_CPU_IDLE)
		tl->left_idle = true;
	if (!tl->seen) {
		tl->seen = true;
		tl->init_idle = old->mode == EA_CPU_IDLE;
		tl->init_state = old->idle_state;
	}
	if (old->mode == EA_CPU_OFFLINE || old->mode == EA_CPU_SUSPENDED) {
		/* no task runs there: the replay keeps work off it */
		struct rp_off *o;

		if (now > since) {
			if (!GROW(w, w->offs, w->noffs, w->off_cap))
				return;
			o = &w->offs[w->noffs++];
			o->start = since;
			o->end = now;
			o->seq = tl->busy0_seq;
			o->end_seq = seq;
			o->cpu = cpu;
			o->suspended = old->mode == EA_CPU_SUSPENDED;
		}
	} else if (old->mode == EA_CPU_BUSY && old->pid > 0) {
		struct rp_task *t = task_get(w, old->pid, NULL);
		struct rp_act *a;

		if (!t)
			return;
		a = open_act(t);
		if (!a) {	/* running since before anything told: trace start */
			a = act_open(w, t, since, RP_ACT_INFERRED |
				     (since == first_ts ? RP_ACT_START : 0));
			if (!a)
				return;
		}
		if (!(a->flags & RP_ACT_RAN)) {
			first_run(w, t, a);
			a->cpu = cpu;
			if (since < a->release) {
				/*
				 * The state dates its run before the wakeup
				 * that opened it (a CPU first seen switching
				 * it out: it ran from the trace start): the
				 * wakeup found it running. Its activation
				 * began with that run; when it was woken is
				 * not known.
				 */
				a->release = since;
				a->flags |= RP_ACT_INFERRED |
					    (since == first_ts ?
					     RP_ACT_START : 0);
			}
			a->eligible = since;
		}
		note_run(t, a, cpu);
		{
			uint32_t cap = source_capacity(w, cpu, old->freq_khz);
			uint64_t work = (now - since) * cap;
			struct rp_seg *g = NULL;
			bool overlap = false;

			if (!w->cfg.no_segments) {
				g = seg_on(w, t, a, cpu, since, seq, false);
				if (!g)
					return;
				g->work += work;
			}
			a->work += work;
			a->ran_ns += now - since;
			/*
			 * The state has it here since before its run on
			 * another CPU ended (a CPU first seen running it,
			 * backdated to the trace start; a resync): no replay
			 * runs a task on two CPUs at once. `recorded` replays
			 * this time as a stretch at its recorded time.
			 */
			if (t->ran_cpu >= 0 && t->ran_cpu != cpu &&
			    since < t->ran_until) {
				if (!overlap_stretch(w, tl, cpu, since, now, seq))
					return;
				if (g)
					g->stretch += work;
				overlap = true;
			}
			if (w->cfg.early_ns &&
			    since < first_ts + w->cfg.early_ns &&
			    !early_run(w, t, g, cpu, since, now, cap, overlap))
				return;
		}
		if (now >= t->ran_until) {
			t->ran_until = now;
			t->ran_cpu = cpu;
		}
	} else if (old->mode == EA_CPU_BUSY) {
		struct rp_idle_busy *b;

		if (!GROW(w, w->busy0, w->nbusy0, w->busy0_cap))
			return;
		b = &w->busy0[w->nbusy0++];
		b->start = since;
		b->end = now;
		b->seq_start = tl->busy0_seq;
		b->seq_end = seq;
		b->cpu = cpu;
		b->to_idle = new && new->mode == EA_CPU_IDLE;
		b->from_task = tl->busy0_from_task;
		b->overlap = false;
	} else {
		struct rp_idle *i;

		if (!GROW(w, tl->idles, tl->nidles, tl->cap))
			return;
		i = &tl->idles[tl->nidles++];
		i->since = since;
		i->until = now;
		i->seq = tl->busy0_seq;
		i->state = old->idle_state;
	}
	if (!new)
		return;
	/* busy0_seq: when the next stretch (whatever it is) began */
	tl->busy0_seq = seq;
	tl->busy0_from_task = old->mode == EA_CPU_BUSY && old->pid > 0;
	/* an offline or suspended CPU has no frequency: no change to it */
	if (new->freq_khz != old->freq_khz && new->mode <= EA_CPU_IDLE) {
		struct rp_freq *f;

		if (!GROW(w, w->freqs, w->nfreqs, w->freq_cap))
			return;
		f = &w->freqs[w->nfreqs++];
		f->ts = now;
		f->seq = seq;
		f->cpu = cpu;
		f->khz = new->freq_khz;
	}
}

/*
 * When the activation a, switched in by ev, may run from (>= its release).
 * Switched in from the idle task: from then (the idle exit is the
 * recording's latency). Switched in after other tasks of a busy stretch
 * that began after its release, the CPU idle (as the state has it) at some
 * time between: from that stretch's first switch-in of a task, as if it
 * were switched in then; the CPU, idle, did not run it before. (A wakeup
 * by an interrupt handled in idle, as on x86, where cpu_idle's exit comes
 * after the handler; the state's idle between a resynchronised task's
 * first sign and the record that revealed the switch.)
 */
static uint64_t eligible_of(const struct rp_cpu_timeline *tl,
			    const struct rp_act *a, const struct ea_event *ev)
{
	if (ev->sw.prev_pid == 0)
		return ev->ts;
	if (tl->after_idle > a->release && tl->after_idle <= ev->ts)
		return tl->after_idle;
	return a->release;
}

/*
 * The waker of t's activation just opened by ev (struct rp_waker): a task
 * in task context, else an interrupt (or the idle task), on the CPU that
 * recorded ev; a task waker's wakeup is its candidate for sync.
 */
static void note_waker(struct ea_workload *w, struct rp_task *t,
		       const struct ea_event *ev)
{
	struct rp_waker *k = &t->last_wk;
	struct rp_task *waker;

	k->cpu = (int16_t)ev->cpu;
	if (ev->cur_pid > 0 && ev->cur_pid != ev->wake.pid &&
	    (!(ev->flags & EA_EVF_IRQ) || ev->type == EA_EV_WAKEUP_NEW)) {
		k->kind = RP_WAKER_TASK;
		k->task = ev->cur_pid;
	} else {
		k->kind = ev->cpu == t->last_run_cpu ? RP_WAKER_IRQ_PREV
						    : RP_WAKER_IRQ;
	}
	if (k->kind != RP_WAKER_TASK || ev->type == EA_EV_WAKEUP_NEW)
		return;
	waker = task_find(w, ev->cur_pid);
	if (waker) {
		waker->sync_wakee = (uint32_t)(t - w->tasks) + 1;
		waker->sync_act = (uint32_t)(t->nacts - 1);
		waker->sync_ts = ev->ts;
		waker->sync_cpu = ev->cpu;
	}
}

/* Activation k of t: its waker's wakeup was sync. */
static void set_sync(struct rp_task *t, size_t k)
{
	if (t->staged && k == t->nacts - 1)
		t->last_wk.sync = 1;
	else
		rp_store_set_sync(t, k);
}

/* The waker switching out (ev): its last wakeup was sync if it blocked
 * there soon after (RP_SYNC_NS), running nothing else meanwhile. */
static void note_sync(struct ea_workload *w, const struct ea_event *ev)
{
	struct rp_task *waker = task_find(w, ev->sw.prev_pid);

	if (!waker || !waker->sync_wakee)
		return;
	if (ev->sw.prev_state != EA_PREV_RUNNABLE &&
	    ev->cpu == waker->sync_cpu && ev->ts >= waker->sync_ts &&
	    ev->ts - waker->sync_ts <= RP_SYNC_NS)
		set_sync(&w->tasks[waker->sync_wakee - 1], waker->sync_act);
	waker->sync_wakee = 0;
}

/* A prio an event showed for t (kernel prio, 0..139). */
static void note_prio(struct rp_task *t, int32_t prio)
{
	if (prio >= 0 && prio < 140 && (t->prio < 0 || prio < t->prio))
		t->prio = prio;
}

static inline void wl_skip(struct ea_workload *w, uint64_t first_ts,
			   uint64_t n)
{
	w->first_ts = first_ts;
	w->seq += n;
	if (w->seq > RP_SEQ_MAX && !w->error[0])
		snprintf(w->error, sizeof(w->error), "more than 2^48 events");
}

void rp_wl_skip(struct ea_workload *w, uint64_t first_ts, uint64_t n)
{
	wl_skip(w, first_ts, n);
}

static inline __attribute__((always_inline)) void
wl_event(struct ea_workload *w, uint64_t first_ts, const struct ea_event *ev)
{
	struct rp_task *t;
	struct rp_act *a;

	wl_skip(w, first_ts, 1);
	if (w->error[0])
		return;
	switch (ev->type) {
	case EA_EV_LOST: /* the trace's own (the state keeps synthetic ones) */
		w->lost++;
		return;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		if (ev->wake.pid <= 0)
			return;
		t = task_get(w, ev->wake.pid, ev->wake.comm);
		if (t)
			note_prio(t, ev->wake.prio);
		if (t && !t->open &&
		    act_open(w, t, ev->ts, ev->type == EA_EV_WAKEUP_NEW ?
			     RP_ACT_FORK : 0))
			note_waker(w, t, ev);
		return;
	case EA_EV_SWITCH:
		if (grow_cpus(w, ev->cpu))
			return;
		if (ev->sw.next_pid > 0 && w->cpus[ev->cpu].left_idle) {
			w->cpus[ev->cpu].left_idle = false;
			w->cpus[ev->cpu].after_idle = ev->ts;
		}
		if (ev->sw.prev_pid > 0)
			note_sync(w, ev);
		if (ev->sw.prev_pid > 0 && ev->sw.prev_state != EA_PREV_RUNNABLE) {
			t = task_get(w, ev->sw.prev_pid, ev->sw.prev_comm);
			if (t)
				note_prio(t, ev->sw.prev_prio);
			a = t ? open_act(t) : NULL;
			if (a) {
				a->end = ev->ts;
				a->seq_out = w->seq;
				if (ev->sw.prev_state == EA_PREV_DEAD)
					a->flags |= RP_ACT_EXIT;
				t->open = false;
				count_act(&w->closed, a, first_ts);
			}
		}
		if (ev->sw.next_pid <= 0)
			return;
		t = task_get(w, ev->sw.next_pid, ev->sw.next_comm);
		if (!t)
			return;
		note_prio(t, ev->sw.next_prio);
		a = open_act(t);
		if (!a)
			a = act_open(w, t, ev->ts, RP_ACT_INFERRED);
		if (!a)
			return;
		if (!(a->flags & RP_ACT_RAN)) {
			first_run(w, t, a);
			/* seq_in's word first, then cpu's 2 bytes of it: the
			 * other way round the word's read waits for the
			 * 2-byte store */
			a->seq_in = w->seq;
			a->cpu = ev->cpu;
			a->eligible = eligible_of(&w->cpus[ev->cpu], a, ev);
		}
		note_run(t, a, ev->cpu);
		if (!w->cfg.no_segments)
			seg_on(w, t, a, ev->cpu, ev->ts, w->seq, ev->sw.prev_pid == 0);
		return;
	default:
		return;
	}
}

void rp_wl_change(struct ea_workload *w, uint64_t first_ts, int cpu,
		  uint64_t since, uint64_t now, const struct ea_cpu_state *old,
		  const struct ea_cpu_state *new)
{
	wl_change(w, first_ts, cpu, since, now, old, new);
}

void rp_wl_event(struct ea_workload *w, uint64_t first_ts,
		 const struct ea_event *ev)
{
	wl_event(w, first_ts, ev);
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	wl_change(ctx, ea_state_first_ts(s), cpu, since, now, old, new);
}

static void on_event(void *ctx, const struct ea_state *s,
		     const struct ea_event *ev)
{
	wl_event(ctx, ea_state_first_ts(s), ev);
}

const struct ea_state_ops ea_workload_ops = {
	.cpu_change = on_change,
	.event = on_event,
};

int ea_workload_new(struct ea_workload **wp, const struct ea_workload_config *cfg)
{
	struct ea_workload *w = calloc(1, sizeof(*w));

	*wp = w;
	if (!w)
		return -1;
	w->cfg = *cfg;
	return 0;
}

void ea_workload_free(struct ea_workload *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->ntasks; i++) {
		free(w->tasks[i].act0);
		free(w->tasks[i].segs0);
		if (w->tasks[i].view)
			continue; /* the rest is its base's */
		rp_store_free(&w->tasks[i]);
		free(w->tasks[i].xsegs);
		free(w->tasks[i].segs);
	}
	for (int i = 0; i < w->ncpus; i++)
		free(w->cpus[i].idles);
	free(w->tasks);
	free(w->slots);
	free(w->busy0);
	free(w->freqs);
	free(w->offs);
	free(w->cpus);
	free(w->early);
	free(w->arr_order);
	free(w);
}

static int cmp_busy0(const void *a, const void *b)
{
	const struct rp_idle_busy *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->seq_start != y->seq_start)
		return x->seq_start < y->seq_start ? -1 : 1;
	return x->cpu - y->cpu;
}

/*
 * rp_arrivals_in_order() for the arrival rules g whose ok[g] is true on
 * entry, in one pass (each activation read once): ok[g] false once rule
 * g finds one out of order, n[g] the arrivals counted until then.
 */
static void arrivals_in_order(const struct ea_workload *w, bool ok[2],
			      size_t n[2])
{
	n[0] = n[1] = 0;
	for (size_t i = 0; i < w->ntasks && (ok[0] || ok[1]); i++) {
		const struct rp_task *t = &w->tasks[i];
		uint64_t pt[2] = {0, 0}, pseq[2] = {0, 0};
		bool first[2] = {true, true};

		for (size_t k = 0; k < t->nacts && (ok[0] || ok[1]); k++) {
			const struct rp_act a_ = rp_task_act(t, k), *a = &a_;

			if (!(a->flags & RP_ACT_RAN))
				continue;
			for (int g = 0; g < 2; g++) {
				uint64_t at = rp_arrival_time(g, a);

				if (!ok[g] || at > w->counts.last_ts)
					continue;
				if (!first[g] &&
				    (at < pt[g] ||
				     (at == pt[g] && a->seq_in <= pseq[g]))) {
					ok[g] = false;
					continue;
				}
				first[g] = false;
				pt[g] = at;
				pseq[g] = a->seq_in;
				n[g]++;
			}
		}
	}
}

bool rp_arrivals_in_order(const struct ea_workload *w, bool keep_gaps,
			  size_t *n)
{
	bool ok[2] = {!keep_gaps, keep_gaps};
	size_t nn[2];

	arrivals_in_order(w, ok, nn);
	*n = nn[keep_gaps];
	return ok[keep_gaps];
}

int ea_workload_done(struct ea_workload *w, const struct ea_state *s,
		     struct ea_err *err)
{
	struct ea_workload_counts *c = &w->counts;

	if (w->error[0])
		return ea_err_set(err, "replay: %s", w->error);
	*c = w->closed;	/* the activations closed, counted as they did */
	c->first_ts = ea_state_first_ts(s);
	c->last_ts = ea_state_last_ts(s);
	c->ncpus = ea_state_ncpus(s);
	ea_state_clip_bounds(s, &c->win_start, &c->win_end);
	c->win_past_end = c->win_end >= c->last_ts;
	if (c->win_start < c->first_ts)
		c->win_start = c->first_ts;
	if (c->win_end > c->last_ts)
		c->win_end = c->last_ts;
	if (c->win_start > c->win_end)
		c->win_start = c->win_end;
	if (grow_cpus(w, c->ncpus - 1))
		return ea_err_set(err, "out of memory");
	for (size_t i = 0; i < w->ntasks; i++) {
		struct rp_task *t = &w->tasks[i];

		if (t->open) {
			t->last.flags |= RP_ACT_OPEN;
			count_act(c, &t->last, c->first_ts);
		}
		t->open = false;
		if (segs_close(w, t) || act_store(w, t))
			return ea_err_set(err, "out of memory");
		if (t->prio < 0)
			t->prio = 120;
		if (t->prio < 100)
			c->rt_tasks++;
		rp_pin_resolve(&w->cfg, t);	/* pin.c */
		for (size_t k = 0; k < t->nacts; k++) {
			struct rp_waker wk = rp_task_waker(t, k);
			struct rp_task *by = wk.kind == RP_WAKER_TASK ?
				task_find(w, wk.task) : NULL;

			if (rp_store_set_waker_task(
				    t, k, by ? (int32_t)(by - w->tasks) : -1))
				return ea_err_set(err, "replay: more than "
						       "2^22 - 1 tasks");
		}
		if (t->pin >= 0 || t->upin)
			c->pinned_tasks++;
	}
	c->tasks = w->ntasks;
	c->idle_busy = w->nbusy0;
	if (w->nbusy0)
		qsort(w->busy0, w->nbusy0, sizeof(*w->busy0), cmp_busy0);
	/* the arrivals' order, checked here once for all the runs (the
	 * threads that replay w then only read it) */
	w->arr_order = calloc(1, sizeof(*w->arr_order));
	if (!w->arr_order)
		return ea_err_set(err, "out of memory");
	/* both rules in one pass */
	w->arr_order->in_order[0] = w->arr_order->in_order[1] = true;
	arrivals_in_order(w, w->arr_order->in_order, w->arr_order->n);
	w->arr_order->known[0] = w->arr_order->known[1] = true;
	return 0;
}

const struct ea_workload_counts *ea_workload_counts(const struct ea_workload *w)
{
	return &w->counts;
}

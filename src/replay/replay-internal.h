/* SPDX-License-Identifier: GPL-2.0-only */
/* The replay stage's private data, shared by its files. */
#ifndef EATRACE_REPLAY_INTERNAL_H
#define EATRACE_REPLAY_INTERNAL_H

#include <stddef.h>

#include "eatrace/replay.h"
#include "replay/platform.h"

/* ---- workload (workload.c) ---- */

enum {
	RP_ACT_START = 1 << 0,	/* running or runnable at trace start */
	RP_ACT_OPEN = 1 << 1,	/* never blocked before the end */
	RP_ACT_RAN = 1 << 2,	/* ran in the recording */
	RP_ACT_INFERRED = 1 << 3,	/* no wakeup recorded: woken at switch-in */
	RP_ACT_SPLIT = 1 << 4,	/* ran on more than one CPU */
	RP_ACT_EXIT = 1 << 5,	/* ended when the task exited */
	RP_ACT_FORK = 1 << 6,	/* opened by sched_wakeup_new: a new task */
	/* never slept: demand under --work auto (docs/replay.md "Work") */
	RP_ACT_DEMAND = RP_ACT_OPEN | RP_ACT_EXIT,
};

/* A stretch of an activation on one CPU (it migrated between them). */
struct rp_seg {
	uint64_t work;		/* ns x capacity */
	uint64_t stretch;	/* ... of it in rp_idle_busy.overlap stretches */
	uint64_t start;		/* ns: recorded switch-in on this CPU */
	uint64_t seq_in;
	int32_t cpu;
	bool from_idle;		/* switched in from the idle task */
};

/* The recorded events a workload counts at most (rp_act's seq_in, seq_out). */
#define RP_SEQ_MAX ((1ull << 48) - 1)

/*
 * 48 bytes: every byte of it is written once and read back per activation
 * (millions of them), so the event positions share their words with the
 * CPU (< EA_MAX_CPUS) and the flags.
 */
struct rp_act {
	uint64_t release;	/* ns: wakeup, recorded or inferred */
	uint64_t eligible;	/* ns: may run from (>= release) */
	uint64_t end;		/* ns: recorded block; 0 while open */
	uint64_t work;		/* ns x capacity (1024 = biggest CPU at top) */
	uint64_t seq_in : 48;	/* recorded event order of its switch-in */
	int64_t cpu : 16;	/* CPU of its first recorded run, -1 */
	uint64_t seq_out : 48;	/* ... and of its block */
	uint64_t flags : 16;	/* RP_ACT_* */
};

_Static_assert(sizeof(struct rp_act) == 48, "struct rp_act: 48 bytes");

/* An activation's segments: segs[seg0 .. seg0 + nseg) of its task. */
struct rp_act_segs {
	uint32_t seg0, nseg;
};

struct rp_task {
	int32_t pid;
	char comm[EA_COMM_LEN];
	int32_t pin;		/* pinned CPU, -1 */
	int32_t only_cpu;	/* the one CPU it ran on; -1 several, -2 none */
	struct rp_act *acts;
	size_t nacts, cap;
	/* acts[k]'s segments at act_segs[k] (apart: most runs read none);
	 * NULL when none are kept (ea_workload_config.no_segments) */
	struct rp_act_segs *act_segs;
	struct rp_seg *segs;
	size_t nsegs, seg_cap;
	int32_t prio;		/* the most urgent prio its events showed (kernel
				   prio: < 100 RT or deadline; 100..139 CFS,
				   nice + 120); 120 if none did */
	bool pin_auto;		/* pinned because it never left one CPU */
	const struct ea_pin *upin;	/* --pin that matched it, NULL */
	bool open;		/* acts[nacts - 1] still open (extraction) */
	int32_t last_run_cpu;	/* extraction: CPU of its latest run */
	int32_t ran_cpu;	/* extraction: CPU of the run ending latest */
	uint64_t ran_until;	/* ... and its end (ns) */
};

/* A stretch of CPU time in the idle task (interrupts, idle entry/exit). */
struct rp_idle_busy {
	uint64_t start, end, seq_start, seq_end;
	int32_t cpu;
	bool to_idle;		/* followed by a cpuidle state (not a task) */
	bool from_task;		/* began when a task switched out */
	bool overlap;		/* a task's time that report has overlap its
				   run on another CPU: only `recorded` on its
				   platform replays it, as report prices it,
				   apart from the task's work (rp_seg.stretch) */
};

struct rp_freq {
	uint64_t ts, seq;
	int32_t cpu;
	uint32_t khz;
};

struct rp_idle {
	uint64_t since, until, seq;
	int16_t state;
};

/* A stretch in which a recorded CPU was offline (CPU hotplug) or the
 * system suspended (docs/inference.md "Suspend and CPU hotplug"). */
struct rp_off {
	uint64_t start, end, seq;	/* seq: of the event starting it */
	uint64_t end_seq;		/* ... and of the one ending it */
	int32_t cpu;
	bool suspended;
};

struct rp_cpu_timeline {
	struct rp_idle *idles;
	size_t nidles, cap;
	uint64_t busy0_seq;	/* extraction: seq of the current stretch's start */
	bool seen;		/* extraction: first change delivered */
	bool busy0_from_task;	/* extraction: the current stretch followed a task */
	bool left_idle;		/* extraction: idle (as the state has it) since
				   the last switch-in of a task */
	uint64_t after_idle;	/* extraction: ns of the first switch-in of a
				   task after the CPU's last idle period */
	bool init_idle;		/* idle at the trace start */
	int16_t init_state;	/* ... in this idle state */
};

struct ea_workload {
	struct ea_workload_config cfg;
	struct rp_task *tasks;	/* order of first appearance */
	size_t ntasks, task_cap;
	int32_t *slots;		/* pid hash: index + 1 */
	size_t nslots;
	struct rp_idle_busy *busy0;	/* sorted by (start, seq_start) */
	size_t nbusy0, busy0_cap;
	struct rp_freq *freqs;	/* time order */
	size_t nfreqs, freq_cap;
	struct rp_off *offs;	/* order of their ends (the state's changes) */
	size_t noffs, off_cap;
	struct rp_cpu_timeline *cpus;
	int ncpus;
	uint64_t seq;		/* events seen */
	struct ea_workload_counts counts;
	/* extraction: the activations closed so far, counted (count_act()) */
	struct ea_workload_counts closed;
	char error[128];
};

uint32_t rp_source_capacity(const struct ea_workload *w, int cpu, uint32_t khz);

/* pin.c: the recorded CPU a per-CPU kthread's name binds it to, -1. */
int rp_kthread_cpu(const char *comm);
/* pin.c: t->pin, t->upin, t->pin_auto from cfg and t's comm, pid, CPUs. */
void rp_pin_resolve(const struct ea_workload_config *cfg, struct rp_task *t);
bool rp_pin_allows(const struct ea_pin *pin, int cpu);

/* cpumap.c: recorded CPU (0..nsrc-1) -> CPU of dst (0..ndst-1), by
 * capacity then id on each side (identity when same); malloc()ed. */
int *rp_cpu_map_new(const struct ea_model *src, int nsrc,
		    const struct ea_model *dst, int ndst, bool same);

/* ---- policies (policy*.c) ---- */

/*
 * What a policy sees at a wakeup: every CPU's state without the waking
 * task. util: simulated PELT util_avg in capacity units (the waking task's
 * blocked contribution removed from its previous CPU); cap_idx: the OPP its
 * frequency domain runs; nr: tasks running or queued; idle: nr == 0.
 */
struct rp_env {
	const struct ea_model *model;
	int ncpus;
	const uint32_t *util;
	const int *cap_idx;
	const int *nr;
	bool overutilised;	/* some CPU above 80% of its capacity */
	bool asymmetric;	/* rp_asymmetric(model) */
	/* rp_cl_cache_new(model), one per cluster; NULL: computed each time */
	struct rp_cl_cache *clc;
	/* feec: the energy model uses every OPP (no
	 * EM_PERF_DOMAIN_SKIP_INEFFICIENCIES); default: inefficient ones
	 * are skipped, as mainline's cpufreq-registered models do */
	bool em_all_opps;
	/* feec: each CPU's util_est (sum over its runnable tasks'), NULL:
	 * none; cpu_util() is max(util, util_est) */
	const uint32_t *util_est;
};

struct rp_wakee {
	uint32_t util;		/* task util_avg, decayed to now */
	uint32_t util_est;	/* task_util_est() at its last dequeue
				   (max(ewma, enqueued)); 0: none */
	uint32_t wakeups;	/* RFC wakeup_avg_sum (1024 per wakeup, decayed) */
	int prev_cpu;		/* last CPU, or the recorded one at first */
	int rec_cpu;		/* the CPU the recording used (mapped) */
	bool fork;		/* a new task's first run (sched_wakeup_new):
				   mainline places it with find_idlest_cpu(),
				   not the wakeup path */
};

/*
 * A policy's load balancing rules (sim.c "Load balancing"). All false is
 * plain mainline CFS: idle and newidle pulls, periodic balance at the
 * tick, misfit migration of running tasks on asymmetric platforms, active
 * balance.
 */
struct rp_balance {
	bool off;		/* none at all: tasks stay where placed */
	bool over_gated;	/* only while overutilised (mainline EAS:
				   find_busiest_group() bails out otherwise) */
	bool sticky_over;	/* overutilised, once set, holds until the
				   next periodic balance finds nothing over
				   (mainline rd->overutilized); policies see
				   that one */
	bool no_misfit;		/* no misfit migration (before 4.20) */
};

struct rp_policy {
	const char *name;
	const char *summary;
	struct rp_balance balance;
	bool follow_segments;	/* move as the recording did (`recorded`) */
	int (*select_cpu)(const struct rp_env *e, const struct rp_wakee *p);
};

extern const struct rp_policy rp_policy_recorded, rp_policy_eas_rfc,
	rp_policy_feec, rp_policy_cfs, rp_policy_pack, rp_policy_spread;
const struct rp_policy *rp_policy_get(const char *name);

/* Helpers shared by policies, inline: each runs per CPU per decision. */
static inline const struct ea_cluster *rp_cluster(const struct rp_env *e,
						  int cpu)
{
	return &e->model->clusters[e->model->cpu_cluster[cpu]];
}

/* Capacity at the top OPP (arch_scale_cpu_capacity). */
static inline uint32_t rp_cap_orig(const struct rp_env *e, int cpu)
{
	const struct ea_cluster *cl = rp_cluster(e, cpu);

	return cl->caps[cl->ncaps - 1].cap;
}

/* Capacity at the current OPP. */
static inline uint32_t rp_cap_curr(const struct rp_env *e, int cpu)
{
	return rp_cluster(e, cpu)->caps[e->cap_idx[cpu]].cap;
}

static inline bool rp_idle(const struct rp_env *e, int cpu)
{
	return e->nr[cpu] == 0;
}

/* task_util_est(): max(util_avg, its util_est) */
static inline uint32_t rp_task_util_est(const struct rp_wakee *p)
{
	return p->util > p->util_est ? p->util : p->util_est;
}

/* policy-eas-rfc.c: the RFC's energy_diff_util(), in its power units per
 * PELT window; LONG_MAX when the cluster cannot take the utilisation. */
long rp_energy_diff_util(const struct rp_env *e, int cpu, long util,
			 long wakeups);
/* select-idle-sibling.c: mainline select_idle_sibling() from prev_cpu, wake_affine() aside: prev
 * if idle (and the task fits it on an asymmetric platform); else, on an
 * asymmetric platform, select_idle_capacity() (the first idle CPU from
 * prev, wrapping, where the task fits, else the idle CPU of highest
 * capacity); else the first idle CPU of prev's cluster; else prev. */
int rp_select_idle_sibling(const struct rp_env *e, const struct rp_wakee *p);
/* policy-feec.c: mainline compute_energy() for a perf domain, with the
 * task on dst_cpu (-1: without it). */
unsigned long long rp_feec_compute_energy(const struct rp_env *e, int cl,
					  uint32_t task_util, int dst_cpu);

/* ---- governors and idle selection (governor.c, idle.c) ---- */

enum rp_gov { RP_GOV_RECORDED, RP_GOV_SCHEDUTIL, RP_GOV_PERFORMANCE,
	      RP_GOV_POWERSAVE, RP_GOV_FIXED };

/* A --governor, parsed: "schedutil[:rate_limit_us=N][,all_opps]",
 * "fixed:A15=KHZ,...". */
struct rp_gov_spec {
	enum rp_gov kind;
	uint32_t rate_limit_us;	/* schedutil: between frequency changes */
	bool all_opps;		/* schedutil: inefficient OPPs too */
	int *fixed_k;		/* fixed: OPP index per cluster (malloc) */
};
enum rp_idle_sel { RP_IDLE_RECORDED, RP_IDLE_MENU, RP_IDLE_ORACLE };

/* The kind of a --governor text, or -1 (syntax only). */
int rp_gov_parse(const char *name);
/* Parse text; with a model, check cluster names and OPPs too. 0, or -1
 * with a one-line message in err (n bytes; NULL: none). */
int rp_gov_spec_parse(struct rp_gov_spec *g, const char *text,
		      const struct ea_model *m, char *err, size_t n);
void rp_gov_spec_default(struct rp_gov_spec *g, enum rp_gov kind);
void rp_gov_spec_free(struct rp_gov_spec *g);
int rp_idle_parse(const char *name);
/* OPP index the governor wants for a domain of cluster ci (cl) whose
 * busiest CPU has util (capacity units); schedutil's rate limit aside.
 * clc: rp_cl_cache_new() of the model (its efficient OPPs), or NULL. */
int rp_gov_cap_idx(const struct rp_gov_spec *g, int ci,
		   const struct ea_cluster *cl, const struct rp_cl_cache *clc,
		   uint32_t util);

#define RP_MENU_HIST 8
/* menu-like prediction from the last idle durations (ns), 0: none. */
uint64_t rp_menu_predict(const uint64_t *hist, int n);
/* Deepest state whose target residency fits idle_ns. */
int rp_idle_state_for(const struct ea_cluster *cl, uint64_t idle_ns);
/* rp_idle_state_for(cl, rp_menu_predict(hist, n)), predicting only when
 * the periods span more than one state. */
int rp_menu_state(const struct ea_cluster *cl, const uint64_t *hist, int n);

#endif

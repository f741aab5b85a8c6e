/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's state and the functions its files (sim*.c, one per
 * mechanism: docs/replay.md "Layout of src/replay") share: only they and
 * the unit tests include it; its driver (replay.c) has simulator.h.
 */
#ifndef EATRACE_REPLAY_SIM_H
#define EATRACE_REPLAY_SIM_H

#include <stdio.h>

#include "replay/governor.h"
#include "replay/idle.h"
#include "replay/policy.h"
#include "replay/simulator.h"
#include "replay/workload.h"
#include "state/pelt.h"

struct sim_arrival {
	uint64_t t, seq;
	uint32_t task, act;
};

/*
 * The tournament of each task's next arrival (sim-arrivals.c): heap by
 * task, lt its nodes, lt_n leaves; nheap: the tasks with one left.
 */
struct sim_tour {
	struct sim_arrival *heap;
	uint32_t *lt;
	size_t nheap, lt_n;
};

struct sim_task {
	uint64_t rem; /* its work left, ns x cap; UINT64_MAX: open
			 (following segments: the segment's) */
	uint64_t until; /* runnable until then, UINT64_MAX: until its
			   work is done (sim-act.c: always) */
	uint64_t floor_ns; /* of acts[cur]'s latency, the part the
			      recording supplies (sim-exit.c) */
	struct ea_pelt pelt;
	const struct rp_task *w;
	size_t next; /* activations released: [0, next) */
	size_t cur; /* the one being served */
	struct rp_act act; /* it, as read (rp_task_act()) at its start */
	/* its segments (rp_task_segs()): nseg at segs_at, or seg1 when
	 * segs_at is NULL */
	uint32_t nseg;
	const struct rp_seg *segs_at;
	struct rp_seg seg1;
	uint32_t seg; /* segment being served (follow_segments) */
	bool rt; /* RT or deadline: never placed by a CFS policy
		    nor balanced; runs before CFS tasks */
	uint32_t weight; /* CFS: its nice level's load weight */
	bool runnable; /* queued or running */
	bool served; /* acts[cur] has had the CPU */
	int cpu; /* CPU queued/running on, else the last, -1 */
	int pelt_cpu; /* CPU whose signal holds its util, -1 */
	int pin; /* -1 */
	const struct ea_pin *upin; /* --pin to several CPUs, NULL */
	uint64_t wait_from; /* queued since */
	uint64_t wake_sum, wake_last_ms; /* RFC wakeup_avg_sum */
	uint32_t ue_ewma; /* util_est (mainline 6.9+), set at sleep */
	/* PELT of its runnable time (sim-load.c): load_avg = this x weight
	 * / 1024; attached to load_cpu's signals, runnable there (lrun) */
	struct ea_pelt lsig;
	uint64_t lread_t; /* its last read skipped (sim-load.c) */
	int load_cpu;
	bool lrun;
	/* EEVDF (sim-eevdf.c), virtual ns: vruntime, deadline, lag saved at
	 * dequeue, the vruntime its slice is protected up to; rel_dl: the
	 * deadline is relative (moved while runnable, PLACE_REL_DEADLINE);
	 * initial: its next enqueue is a new task's (half a slice) */
	int64_t vrt, dl, vlag, vprot;
	bool rel_dl, initial;
	/* record_wakee(): as current, its wakee_flips, last wakee (index +
	 * 1), the time they were last halved */
	uint32_t wakee_flips;
	uint32_t last_wakee;
	uint64_t flip_decay_ts;
	int recent_cpu; /* p->recent_used_cpu, -1 */
	bool kthread; /* a per-CPU kthread by its comm (rp_kthread_cpu()) */
	/* its activations read last (sim_task_act()), by the parity of
	 * their index: index + 1 in ak, 0 none */
	size_t ak[2];
	struct rp_act ac[2];
	/* when it last left a CPU (preempted or blocking): se.exec_start as
	 * task_hot() reads it (sim-balance.c) */
	uint64_t off_ns;
};

/*
 * Activation k of t as rp_task_act() reads it (a jittered view's too),
 * read once: an arrival is read when it enters the heap of arrivals, when
 * it arrives and when it starts, often with its task's next one read
 * between (sim_arr_pop()), hence two kept, by parity.
 */
static inline const struct rp_act *sim_task_act(struct sim_task *t, size_t k)
{
	size_t j = k & 1;

	if (t->ak[j] != k + 1) {
		t->ac[j] = rp_task_act(t->w, k);
		t->ak[j] = k + 1;
	}
	return &t->ac[j];
}

/* A task moving to its next recorded segment's CPU. */
struct sim_move {
	uint64_t t;
	int task;
};

struct sim_cpu {
	/*
	 * Its PELT signal, its task's work left, PELT signal and its busy
	 * time are advanced lazily (sim-pelt.c "Lazy time"): they are as of
	 * sync_t, and curr and rate have not changed since.
	 */
	struct ea_pelt pelt;
	uint64_t slice_end;
	uint64_t task_busy_ns; /* in the window (w->counts.win_*) */
	uint64_t work; /* done in the window: ns x capacity */
	int curr; /* task index, -1 */
	uint32_t rate; /* capacity at cap_idx: its work rate */
	uint32_t over_util; /* util from which it is overutilised */
	int nrq;
	uint64_t sync_t;
	uint64_t pelt_b; /* when its or its task's signal next
			    crosses a period (no sooner) */
	uint64_t curr_step; /* the step curr began running at */
	/* ... and then often. */
	bool in_busy0; /* in a recorded idle-task stretch */
	uint64_t wake_at; /* leaving idle: runs nothing before (sim-exit.c) */
	/* What the emitted stream says. */
	bool e_fresh, e_idle;
	int16_t e_state;
	int32_t e_pid;
	int e_task; /* task index of e_pid, -1 */
	uint64_t kmax; /* emission key floor within the bucket */
	uint64_t kmax_bucket; /* ... if this one (sim.nbuckets), else 0 */
	int *rq; /* waiting tasks: RT first (FIFO), then CFS in the order
		    they were queued (EEVDF picks among them) */
	int rq_cap;
	int nrq_rt; /* of them RT (sim_rq_push(), sim_rq_take()) */
	/* its cfs_rq's load_avg (weights of runnable CFS tasks) and
	 * runnable_avg (1024 per runnable CFS task) signals, their sums of
	 * runnable tasks now (sim-load.c) */
	struct ea_pelt lload, lrunnable;
	uint64_t lb; /* when either next crosses a period (sim-load.c) */
	uint64_t lw;
	uint32_t lnr;
	/* EEVDF: when curr's vruntime was last advanced; V when last known
	 * (where an empty queue places its first task); the sums of its CFS
	 * entities' vruntime x weight and of their weights, kept as they
	 * join and leave (sim-eevdf.c) */
	uint64_t exec_start;
	int64_t v0;
	__int128 vsum;
	uint64_t vw;
	/* record_wakee() of its idle task, current for an interrupt in idle */
	uint32_t idle_flips, idle_last_wakee;
	/* its periodic balance: sd->nr_balance_failed, and when it next
	 * balances while busy (balance_interval x busy_factor) */
	uint32_t lb_failed;
	uint64_t busy_lb_next;
	uint64_t idle_flip_ts;
	/* next_time(): its task's finish time, from rem at fin_now and rate */
	uint32_t fin_rate;
	uint64_t fin_t, fin_rem, fin_now;
	int cluster;
	int dom; /* frequency domain (index in sim.doms) */
	uint32_t cap_orig; /* capacity at the top OPP */
	uint64_t busy0_end, busy0_seq_end;
	bool busy0_to_idle;
	int cap_idx; /* OPP index of its domain; see khz */
	uint32_t khz; /* 0: unknown (recorded governor only) */
	uint64_t idle_since;
	/* Idle selection. */
	size_t rec_idle; /* cursor in the recorded idle timeline */
	uint64_t hist[RP_MENU_HIST];
	int nhist;
	uint64_t *idle_lens; /* oracle: lengths of its idle periods */
	size_t nidle_lens, idle_lens_cap, idle_period;
};

#ifndef SIM_BATCH
#define SIM_BATCH 256 /* events handed to the sink at a time */
#endif
/* ... when the sink runs on a thread of its own (sim-apart.c): each of
 * its 8 buffers grows to 512 events, the last instant's past the batch
 * included (most instants have a few) */
#ifndef SIM_APART_BATCH
#define SIM_APART_BATCH 448
#endif
/* arrivals per chunk when merged ahead (sim-ahead.c): 80 bytes each, 8
 * chunks (1.3 MB), some 15 ms of simulation ahead on the bench's trace,
 * against the thread's wake-ups on a loaded machine */
#ifndef SIM_AHEAD_CHUNK
#define SIM_AHEAD_CHUNK 2048
#endif

/*
 * An emitted event as the simulator records it (sim-emit.c): what changes
 * during the run, and task indices for what does not (pids, prios, comms),
 * from which sim_build_event() (sim-build.c) makes the ea_event and its
 * comm when it is delivered, on the sink's thread when it has one.
 */
enum sim_mark { SIM_MARK_START = 1, SIM_MARK_END }; /* a marker's text */

struct sim_out {
	uint64_t ts;
	uint64_t key; /* ordered by (key, order) within an instant */
	uint32_t order;
	uint8_t type; /* enum ea_event_type */
	int32_t cpu;
	int32_t cur_pid;
	int32_t task; /* the task whose comm it carries (-1: none) */
	union {
		struct { /* prev: cur_pid and task */
			int32_t next_pid, next_task;
			uint8_t prev_state;
		} sw;
		struct {
			int32_t task, target_cpu; /* the wakee */
		} wake;
		struct {
			uint32_t khz;
			int32_t cpu;
		} freq;
		struct {
			int32_t state, cpu;
		} idle;
		struct {
			int32_t cpu, target, step;
			uint8_t enter;
		} hotplug;
		struct {
			int32_t val;
			uint8_t begin;
		} suspend;
		struct {
			uint8_t text; /* enum sim_mark */
		} marker;
	};
};

/* What sim_build_event() reads, fixed for the run (sim_init()). */
struct sim_names {
	const struct rp_task *tasks; /* the workload's: pid, prio, comm */
	const char (*comms)[EA_COMM_LEN]; /* each task's, as emitted */
	const char (*swapper)[EA_COMM_LEN]; /* each CPU's idle task's */
	int ncpus;
	bool no_comms; /* the sink reads no comm */
};

struct sim {
	const struct ea_workload *w;
	const struct ea_model *m;
	const struct rp_policy *policy;
	enum rp_gov gov;
	/* the governor's parameters (sim_init: gov's defaults; the driver
	 * may replace it before sim_run; fixed_k not owned) */
	struct rp_gov_spec gspec;
	uint64_t *dom_last; /* schedutil: last frequency change, or
			       UINT64_MAX: none yet */
	bool gov_pending; /* a change waits for the rate limit */
	enum rp_idle_sel idle;
	enum ea_replay_work work; /* set after sim_init(); 0: auto */
	bool same_platform;
	/* `recorded` on its platform: activations may run from their
	 * recorded eligibility, the recording's gaps kept (sim-exit.c);
	 * others from their wakeup */
	bool keep_gaps;
	bool oracle_pass1; /* measuring idle lengths for `oracle` */
	bool asymmetric; /* rp_asymmetric(m), for the policies */
	bool rec_idle_tl; /* idle states follow the recorded timeline */
	uint32_t assumed_khz;
	int ncpus;
	int *cpu_map, nsrc; /* recorded CPU -> CPU (cpumap.c) */
	struct sim_cpu *cpus;
	struct sim_task *tasks;
	size_t ntasks;
	/*
	 * Arrivals in (t, seq, task) order: a tournament of each task's next
	 * one when every task's own arrivals are in that order (tour:
	 * sim-arrivals.c), else all of them sorted (arr, narr, ai). While
	 * the tournament is played ahead on a thread of its own (ahead:
	 * sim-ahead.c), that thread holds it, and arr, narr and ai are the
	 * arrivals it handed over.
	 */
	struct sim_tour tour;
	struct sim_arrival *arr;
	size_t narr, ai;
	struct sim_ahead *ahead;
	/* frequency domains in order of their first CPU: the CPUs of d are
	 * dom_cpu[dom_start[d] .. dom_start[d + 1]), ascending */
	int ndoms;
	int *dom_start, *dom_cpu;
	bool util_dirty; /* some CPU's util_avg may have changed since
			    the governor last ran */
	int *dom_k; /* governor: the OPP it chose last, -1 */
	uint32_t *dom_util; /* ... for this util */
	size_t bi, fi; /* cursors: idle-task stretches, frequencies */
	/* The recording's offline and suspended stretches (same platform
	 * only), by (start, seq), and the cursor; per CPU, offline until
	 * off_until, its end still to tell the output trace (off_end). */
	struct rp_off *offs;
	size_t noffs, oi;
	uint64_t *off_until;
	const struct rp_off **off_end;
	struct sim_move *moves;
	size_t nmoves, moves_cap;
	uint64_t now, first_ts, last_ts, next_tick;
	uint64_t win0, win1; /* the metrics' window (counts.win_*) */
	uint32_t cap_max; /* the biggest CPU's top capacity */
	uint64_t t_rec; /* the next arrival, move, idle-task stretch
			   or recorded frequency: no sooner */
	uint64_t nstep; /* steps advanced */
	uint64_t pelt_next; /* no later than any CPU's pelt_b */
	/* the CPUs' load signals: no later than any CPU's lb; the last
	 * instant they were read (sim_load_cpus()) */
	uint64_t load_next, load_read_t;
	bool over_stale; /* some CPU's util_avg may have changed since
			    advance() set overutilised */
	bool started;
	int nin_busy0; /* CPUs in a recorded idle-task stretch */
	int *done, ndone; /* CPUs whose task's work ran out (advance) */
	/* CPUs in the order they are visited where the first wins: the
	 * biggest first, then by id (sim-init.c order_cpus()); cpos: its
	 * inverse */
	int *corder, *cpos;
	/* sets of CPUs, as bits of their positions in corder: [nw] words */
	int nw; /* ncpus / 64 + 1 */
	uint64_t *nt; /* next_time(): each CPU's, unless nt_dirty */
	uint64_t *nt_dirty;
	uint64_t *pk_dirty; /* touched since pick() last looked */
	uint64_t *due; /* nt <= now: their time has come */
	/* policy view, refreshed at each wakeup */
	uint32_t *env_util;
	uint32_t *env_ue; /* each CPU's util_est: its runnable tasks' */
	int *env_cap, *env_nr;
	uint32_t *env_load, *env_runnable;
	int *env_idle_state;
	uint64_t *env_idle_stamp;
	struct rp_topo *topo; /* mainline's domains (topology.c) */
	int *nr_idle_scan; /* per LLC, SIS_UTIL (sim-balance.c) */
	uint64_t base_slice; /* EEVDF: 0.70 ms x (1 + ilog2(min(ncpus, 8))) */
	struct rp_cl_cache *clc; /* the model, as the policies use it */
	char (*comms)[EA_COMM_LEN]; /* each task's, as emitted */
	char (*swapper)[EA_COMM_LEN]; /* each CPU's idle task's */
	struct sim_names names; /* the three above, for sim_build_event() */
	/* output: events of past instants, ordered, before bucket0; then
	 * those at time `now`, ordered when the next instant comes */
	struct sim_out *out;
	size_t nout, out_cap, bucket0;
	uint64_t nbuckets; /* closed */
	size_t batch; /* events handed to the sink at a time */
	struct sim_apart *apart; /* the sink on a thread (sim-apart.c) */
	uint32_t order;
	int (*sink)(void *ctx, const struct ea_event *ev, const char *comm);
	bool no_comms; /* the sink reads no comm: sim_out.comm not kept */
	void *sink_ctx;
	int sink_err;
	/* metrics */
	/* the latencies and, of each, the recording's part (lats.c) */
	struct sim_lats lat, floor;
	bool no_lat; /* none kept (all NULL): nlat counts them */
	size_t nlat;
	uint64_t floor_wait_ns; /* of wait_ns, the recording's gaps */
	uint64_t end_ns; /* the run's end: its last task done, at least
			    the trace's end */
	int stalled; /* steps past the trace's end with nothing running */
	uint64_t wait_ns, late, overutil_ns, migrations, events;
	uint64_t placements; /* place() calls: CPUs chosen for activations */
	bool overutilised;
	bool over_sticky; /* overutilised since the last periodic balance
			     that found nothing over (rp_balance) */
	char error[128];
};

#define TICK_NS 4000000ull /* HZ=250, the recorded VMs' */
#define KEY_SIM UINT64_MAX /* events with no recorded cause: last */

/* ---- small helpers of every mechanism ---- */

static inline void sim_fail(struct sim *s, const char *msg)
{
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error), "%s", msg);
}

static inline const struct ea_cluster *cl_of(const struct sim *s, int cpu)
{
	return &s->m->clusters[s->cpus[cpu].cluster];
}

/* ea_pelt_update(): whether util_avg may have changed (a new period). */
static inline bool pelt_update(struct ea_pelt *p, uint64_t now, bool running,
			       uint32_t cap)
{
	if (ea_pelt_update_within(p, now, running, cap))
		return false;
	ea_pelt_update_slow(p, now, running, cap);
	return true;
}

/*
 * Whether CFS tasks share a CPU in round robin slices (sim_rr_slice())
 * rather than by EEVDF: under `recorded`, which follows the recording's
 * placement segment by segment; its shorter turns hand segments over
 * closer to the recording's times (docs/replay.md "Self-consistency").
 */
static inline bool sim_round_robin(const struct sim *s)
{
	return s->policy->follow_segments;
}

static inline uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* How much of [t0, t1) lies in the metrics' window. */
static inline uint64_t in_win(const struct sim *s, uint64_t t0, uint64_t t1)
{
	if (t0 < s->win0)
		t0 = s->win0;
	if (t1 > s->win1)
		t1 = s->win1;
	return t1 > t0 ? t1 - t0 : 0;
}

static inline int map_cpu(const struct sim *s, int cpu)
{
	return cpu < 0 ? -1 : cpu < s->nsrc ? s->cpu_map[cpu] : cpu % s->ncpus;
}

static inline int nr_running(const struct sim *s, int cpu)
{
	return (s->cpus[cpu].curr >= 0) + s->cpus[cpu].nrq;
}

static inline void set_bit(uint64_t *set, int cpu)
{
	set[cpu >> 6] |= 1ull << (cpu & 63);
}

/* The lowest CPU in the set of word w (m, not 0). */
static inline int first_of(int w, uint64_t m)
{
	return w * 64 + __builtin_ctzll(m);
}

/* What next_time() and sim_pick() know of cpu may have changed: look again. */
static inline void touch(struct sim *s, int cpu)
{
	set_bit(s->nt_dirty, s->cpos[cpu]);
	set_bit(s->pk_dirty, s->cpos[cpu]);
}

/* cpu's emission key floor in the current bucket. */
static inline uint64_t *kmax(struct sim *s, struct sim_cpu *c)
{
	if (c->kmax_bucket != s->nbuckets) {
		c->kmax_bucket = s->nbuckets;
		c->kmax = 0;
	}
	return &c->kmax;
}

static inline const struct rp_act *cur_act(const struct sim *s,
					   const struct sim_task *t)
{
	return &t->act;
}

/* How many segments t's current activation has: none if the workload
 * kept none. */
static inline uint32_t cur_nseg(const struct sim_task *t)
{
	return t->nseg;
}

/* Segment g of t's current activation (g < cur_nseg(t)). */
static inline const struct rp_seg *cur_seg(const struct sim_task *t, uint32_t g)
{
	return t->segs_at ? &t->segs_at[g] : &t->seg1;
}

/* Index of the task the CPU's emitted stream says is running, -1. */
static inline int e_task(const struct sim *s, int cpu)
{
	return s->cpus[cpu].e_pid > 0 ? s->cpus[cpu].e_task : -1;
}

static inline uint32_t task_util(struct sim *s, struct sim_task *t)
{
	pelt_update(&t->pelt, s->now, false, 0);
	return t->pelt.util_avg;
}

/* Overutilised as the policy sees it (rp_balance.sticky_over). */
static inline bool over_seen(const struct sim *s)
{
	return s->policy->balance.sticky_over ? s->over_sticky
					      : s->overutilised;
}

/* Whether cpu is offline now (the recording's, on the same platform). */
static inline bool is_off(const struct sim *s, int cpu)
{
	return s->off_until && s->now < s->off_until[cpu];
}

/* ---- between the simulator's files ---- */

/* sim-arrivals.c: arrivals in (time, recorded order, task) order */
struct sim_arrival sim_arr_pop(struct sim *s);
/* The next arrival of tournament tr (not empty), which s does not hold,
 * read from the workload without s's tasks: for sim-ahead.c's thread. */
struct sim_arrival sim_tour_pop_apart(const struct sim *s, struct sim_tour *tr);
bool sim_arrivals_in_order(const struct ea_workload *w, bool keep_gaps,
			   size_t *n);
int sim_arrivals_sort(struct sim *s);
int sim_arrivals_alloc(struct sim *s);
void sim_arrivals_free(struct sim *s);
void sim_arrivals_rewind(struct sim *s);

/* sim-build.c: an emitted event's ea_event and comm from its record */
const char *sim_build_event(const struct sim_names *nm, const struct sim_out *o,
			    struct ea_event *ev);
void sim_swapper_comm(int cpu, char *out);

/* sim-emit.c: the simulated events, ordered, to the sink */
struct sim_out *sim_emit(struct sim *s, int cpu, uint8_t type, uint64_t key,
			 int cur_task);
void sim_close_bucket(struct sim *s);
void sim_flush(struct sim *s);
void sim_emit_switch(struct sim *s, int cpu, int next, uint64_t key);

/* sim-ahead.c: the arrivals merged ahead on a thread of its own */
/* sim_ahead_start(): simulator.h */
/* The next arrival (sim_arr_peek()'s), its activation in its task's cache. */
struct sim_arrival sim_ahead_pop(struct sim *s);
/* The thread stopped, the tournament s's again (nothing if none). */
void sim_ahead_end(struct sim *s);

/* sim-apart.c: the sink on a thread of its own, beside the simulator */
/* sim_apart_start(): simulator.h */
/* The batch s->out[0, nout) handed over (nout is left for the caller to
 * clear); s->out becomes a free buffer. */
void sim_apart_hand(struct sim *s);
/* Every batch handed delivered, the thread ended (nothing if none). */
void sim_apart_end(struct sim *s);

/* sim-pelt.c: lazy time: PELT, work left, busy time; util_est */
bool sim_run_cpu(struct sim *s, struct sim_cpu *c, uint64_t t, bool is_live);
void sim_advance(struct sim *s, uint64_t t);
void sim_util_est_sleep(struct sim *s, struct sim_task *t, int cpu);

/* sim-load.c: PELT load_avg and runnable_avg of tasks and CPUs */
void sim_load_join(struct sim *s, int task, int cpu);
void sim_load_leave(struct sim *s, int task, int cpu);
uint32_t sim_load_cpu(struct sim *s, int cpu);
void sim_load_cpus(struct sim *s);
uint32_t sim_load_task(struct sim *s, int task);
void sim_load_new_task(struct sim *s, int task);

/* sim-eevdf.c: EEVDF among a CPU's CFS tasks */
bool sim_eevdf_update_curr(struct sim *s, int cpu);
void sim_eevdf_place(struct sim *s, int task, int cpu, bool wakeup);
void sim_eevdf_leave(struct sim *s, int task, int cpu, bool sleep);
bool sim_eevdf_preempt(struct sim *s, int cpu, int task);
int sim_eevdf_pick(struct sim *s, int cpu);
void sim_eevdf_set_next(struct sim *s, int cpu, bool renew);

/* sim-idle.c: idle entry and exit, idle states */
void sim_go_idle(struct sim *s, int cpu, uint64_t key);
int sim_push_len(struct sim *s, struct sim_cpu *c, uint64_t len);
void sim_leave_idle(struct sim *s, int cpu, uint64_t key);
void sim_recorded_idle_change(struct sim *s, int cpu);

/* sim-freq.c: the governor, recorded frequencies */
int sim_cap_idx_for_khz(const struct sim *s, const struct ea_cluster *cl,
			uint32_t khz);
void sim_governor(struct sim *s);
void sim_recorded_freq(struct sim *s, const struct rp_freq *f);

/* sim-rq.c: run queues, slices, preemption */
int sim_rq_push(struct sim *s, int cpu, int task);
void sim_rq_last_first(struct sim *s, int cpu);
int sim_rq_take(struct sim *s, int cpu, int at);
void sim_enqueue(struct sim *s, int task, int cpu);
void sim_leave(struct sim *s, int task, int cpu, bool sleep);
void sim_migrate_running(struct sim *s, int src, int dst);
void sim_run_next(struct sim *s, int cpu);
uint64_t sim_rr_slice(const struct sim *s, int cpu);

/* sim-exit.c: idle exit: when a task placed on an idle CPU may run */
void sim_exit_wake(struct sim *s, int task, int cpu);

/* When activation a arrives: under keep_gaps at its recorded eligibility
 * (the recording's gap from its wakeup kept, sim-exit.c), else at its
 * wakeup. Inline: read for every activation of every run. */
static inline uint64_t sim_arrival_time(bool keep_gaps, const struct rp_act *a)
{
	return rp_arrival_time(keep_gaps, a);
}

/* sim-act.c: activations: start, end, segments, latency */
void sim_record_latency(struct sim *s, const struct sim_task *t);
void sim_start_act(struct sim *s, struct sim_task *t, size_t k);
void sim_do_move(struct sim *s, size_t i);
void sim_complete(struct sim *s, int cpu);

/* sim-offline.c: offline CPUs and suspension */
int sim_online_cpu(const struct sim *s, int task, int cpu);
void sim_evacuate(struct sim *s, int cpu);
void sim_off_start(struct sim *s, const struct rp_off *o);
void sim_off_end(struct sim *s, int cpu);
int sim_init_offs(struct sim *s);

/* sim-balance.c: load balancing */
void sim_balance_tick(struct sim *s);
bool sim_pull(struct sim *s, int cpu, bool tick);

/* sim-busy0.c: idle-task stretches */
void sim_busy0_end(struct sim *s, int cpu);
void sim_busy0_start(struct sim *s, const struct rp_idle_busy *b);

/* sim-wake.c: wakeup placement through the policy */
void sim_arrive(struct sim *s, const struct sim_arrival *ar);

/* sim-pick.c: what each CPU runs next */
void sim_pick(struct sim *s, int cpu, bool tick);

/*
 * ---- sim-pelt.c's and sim-arrivals.c's, inline: every step runs them ----
 */

/* The first instant at which an update of p would not be within its
 * period (ea_pelt_update_within() false): its period's end, which updates
 * within the period keep. */
static inline uint64_t pelt_boundary(const struct ea_pelt *p)
{
	if (!p->started)
		return 0;
	return p->last_ns + ((uint64_t)(1024 - p->period_contrib) << 10);
}

/* When cpu's or its task's signal next crosses a period, no sooner. */
static inline void sim_set_pelt_b(struct sim *s, struct sim_cpu *c)
{
	uint64_t b = pelt_boundary(&c->pelt);

	if (c->curr >= 0)
		b = umin(b, pelt_boundary(&s->tasks[c->curr].pelt));
	c->pelt_b = b;
	if (b < s->pelt_next)
		s->pelt_next = b;
}

/* Whether cpu's task has been through a step since it began running. */
static inline bool live(const struct sim *s, const struct sim_cpu *c)
{
	return c->curr_step < s->nstep;
}

/*
 * Bring cpu up to date: all within a period, sim_advance() saw to that. Not
 * done yet if sync_t is now: a task may have become live since.
 */
static inline void sim_sync_cpu(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (sim_run_cpu(s, c, s->now, live(s, c)))
		s->util_dirty = true;
}

/* The next arrival due, NULL when there is none. */
static inline const struct sim_arrival *sim_arr_peek(const struct sim *s)
{
	if (s->tour.heap)
		return s->tour.nheap ? &s->tour.heap[s->tour.lt[0]] : NULL;
	return s->ai < s->narr ? &s->arr[s->ai] : NULL;
}

/* ---- sim_new()'s parts, and the unit tests' ---- */

/* A simulator in *s (sim_free() it, even after a failure). 0, or -1 with
 * s->error. */
int sim_init(struct sim *s, const struct ea_workload *w,
	     const struct ea_model *m, const struct rp_policy *p, enum rp_gov g,
	     enum rp_idle_sel idle, bool same_platform, uint32_t assumed_khz);
/* For tests: one step of sim_run() (the next instant something is due);
 * false once none is left before the end, or on error. sim_run() then
 * finishes the run. */
bool sim_step(struct sim *s);
/* util_est_update() at a sleep: the task's new util_est from its last
 * (ewma), its util at dequeue and its CPU's top capacity (sim-pelt.c). */
uint32_t rp_util_est_update(uint32_t ewma, uint32_t dequeued, uint32_t cap);
/* For tests: take the arrivals from one sorted array, as when some task's
 * are out of order, instead of the heap; resets. 0 or -1 (memory). */
int sim_sort_arrivals(struct sim *s);
/* Keep the oracle's idle lengths, reset everything else for a new run. */
int sim_rewind(struct sim *s);
void sim_free(struct sim *s);

#endif

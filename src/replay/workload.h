/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload a replay serves (workload.c): each task's activations cut
 * from the recording, their per-CPU segments, and the recorded per-CPU
 * timelines (idle-task stretches, frequencies, idle states, offline
 * stretches); which tasks stay on given CPUs (pin.c). Read by the
 * simulator; knows nothing of policies or the simulator.
 */
#ifndef EATRACE_REPLAY_WORKLOAD_H
#define EATRACE_REPLAY_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/replay.h"
#include "replay/pid-memo.h"

enum {
	RP_ACT_START = 1 << 0, /* running or runnable at trace start */
	RP_ACT_OPEN = 1 << 1, /* never blocked before the end */
	RP_ACT_RAN = 1 << 2, /* ran in the recording */
	RP_ACT_INFERRED = 1 << 3, /* no wakeup recorded: woken at switch-in */
	RP_ACT_SPLIT = 1 << 4, /* ran on more than one CPU */
	RP_ACT_EXIT = 1 << 5, /* ended when the task exited */
	RP_ACT_FORK = 1 << 6, /* opened by sched_wakeup_new: a new task */
	/* events were lost between its wakeup and its first run: its
	 * latency is not known (no sample; docs/replay.md "Output") */
	RP_ACT_LOST = 1 << 7,
	/* one segment, not kept apart: rp_task_segs() makes it from the
	 * activation's own figures (work, seq_in, cpu; the start, read
	 * only for a later segment, is its eligible time) */
	RP_ACT_SEG1 = 1 << 8,
	RP_ACT_SEG1_IDLE = 1 << 9, /* ... switched in from the idle task */
	/* never slept: demand under --work auto (docs/replay.md "Work") */
	RP_ACT_DEMAND = RP_ACT_OPEN | RP_ACT_EXIT,
};

/* A stretch of an activation on one CPU (it migrated between them). */
struct rp_seg {
	uint64_t work; /* ns x capacity */
	uint64_t stretch; /* ... of it in rp_idle_busy.overlap stretches */
	uint64_t start; /* ns: recorded switch-in on this CPU */
	uint64_t seq_in;
	int32_t cpu;
	bool from_idle; /* switched in from the idle task */
};

/* The recorded events a workload counts at most (rp_act's seq_in, seq_out). */
#define RP_SEQ_MAX ((1ull << 48) - 1)

/*
 * 56 bytes: every byte of it is written once and read back per activation
 * (millions of them), so the event positions share their words with the
 * CPU (< EA_MAX_CPUS) and the flags.
 */
struct rp_act {
	uint64_t release; /* ns: wakeup, recorded or inferred */
	uint64_t eligible; /* ns: may run from (>= release): its
			      recorded switch-in from idle, else release */
	uint64_t end; /* ns: recorded block; 0 while open */
	uint64_t work; /* ns x capacity (1024 = biggest CPU at top) */
	uint64_t ran_ns; /* the CPU time that work is (its runs, ns) */
	uint64_t seq_in : 48; /* recorded event order of its switch-in */
	int64_t cpu : 16; /* CPU of its first recorded run, -1 */
	uint64_t seq_out : 48; /* ... and of its block */
	uint64_t flags : 16; /* RP_ACT_* */
};

_Static_assert(sizeof(struct rp_act) == 56, "struct rp_act: 56 bytes");

/*
 * Who woke an activation (docs/replay.md "The waker"), from the record
 * that opened it: try_to_wake_up() writes sched_waking on the CPU it runs
 * on, the waker's; its common_pid is the task running there (the waker,
 * or the one an interrupt interrupted), its common_flags the context. A
 * sched_wakeup without a sched_waking before it: that record's CPU and
 * task; sched_wakeup_new: the forking parent's.
 */
enum {
	RP_WAKER_NONE, /* no wakeup record (a switch-in, the trace start) */
	RP_WAKER_TASK, /* a task (task context): task, cpu */
	RP_WAKER_IRQ, /* interrupt context, or the idle task: cpu */
	RP_WAKER_IRQ_PREV, /* ... on the CPU the task last ran on */
};

struct rp_waker {
	int32_t task; /* RP_WAKER_TASK: the waker's task index (its pid
			 while extracting), -1 unknown */
	int16_t cpu; /* the recorded CPU the wakeup ran on, -1 */
	uint8_t kind; /* RP_WAKER_* */
	/* WF_SYNC as approximated: the waker blocked on that CPU within
	 * RP_SYNC_NS, running nothing else meanwhile */
	uint8_t sync;
};

#define RP_SYNC_NS 50000ull

/*
 * An activation and its waker as a task stores them (act-store.c): 28
 * bytes instead of 64, its times and event positions as offsets from
 * its block's base (rp_pbase: every RP_PBLOCK activations), its work as
 * its CPU time x one capacity, durations below 2^26 ns (67 ms). One whose
 * figures do not fit (wide: a long run, a sparse task's block) is kept
 * whole in rp_task.wides, found by its index. Read through
 * rp_task_act() and rp_task_waker().
 */
struct __attribute__((packed, aligned(4))) rp_pact {
	uint64_t rel : 34; /* release - base release */
	uint64_t end : 26; /* 0: open, else end - eligible + 1 */
	uint64_t wk_kind : 2, wk_sync : 1;
	uint64_t wide : 1; /* in rp_task.wides, the rest unused */
	uint64_t seq_in : 28; /* 0: none, else seq_in - base seq + 1 */
	uint64_t ran : 26; /* ran_ns */
	uint64_t cpu : 10; /* cpu + 1 */
	uint64_t elig : 20; /* eligible - release */
	uint64_t seq_out : 16; /* 0: none, else seq_out - seq_in + 1 */
	uint64_t cap : 11; /* work / ran_ns (0 when it never ran) */
	uint64_t flags : 10;
	uint64_t : 7;
	uint32_t wk_task : 22; /* waker's task + 1 (its pid + 1 while
				  extracting) */
	uint32_t wk_cpu : 10; /* waker's cpu + 1 */
};

_Static_assert(sizeof(struct rp_pact) == 28, "struct rp_pact: 28 bytes");

#define RP_PBLOCK 64 /* activations per rp_pbase */

struct rp_pbase {
	uint64_t release, seq; /* its first activation's release, seq_in */
};

/* An activation kept whole (rp_pact.wide): index k in its task. */
struct rp_pwide {
	size_t k;
	struct rp_act a;
	struct rp_waker wk;
};

/* Activation act's segments: segs[seg0 .. seg0 + nseg) of its task (an
 * activation with more than one, or one not RP_ACT_SEG1). */
struct rp_xseg {
	uint32_t act, seg0, nseg;
};

struct rp_task {
	int32_t pid;
	char comm[EA_COMM_LEN];
	int32_t pin; /* pinned CPU, -1 */
	int32_t only_cpu; /* the one CPU it ran on; -1 several, -2 none */
	/*
	 * Activation k (and its waker) at packs[k + k0], its block's base
	 * at bases[(k + k0) / RP_PBLOCK], those not packed in wides (by
	 * k + k0): act-store.c. k0 is 0 but in a view. While extracting,
	 * the last one (staged) is in last and last_wk until the next
	 * opens (or the end), then stored.
	 */
	struct rp_pact *packs;
	struct rp_pbase *bases;
	struct rp_pwide *wides;
	size_t nwides, wide_cap;
	size_t k0;
	size_t nacts, cap; /* cap: of packs */
	bool staged;
	struct rp_act last;
	struct rp_waker last_wk;
	/*
	 * Segments, none when ea_workload_config.no_segments (segs_kept
	 * false): an activation that ran on one CPU, its segment's figures
	 * its own, has RP_ACT_SEG1 and no segment kept; the others' are in
	 * segs[], found through xsegs[] (in activation order; key: index
	 * in acts + xseg_off). Read through rp_task_segs().
	 */
	bool segs_kept;
	struct rp_xseg *xsegs;
	size_t nxsegs, xseg_cap, xseg_off;
	uint32_t open_seg0, open_nseg; /* extraction: the open activation's */
	struct rp_seg *segs;
	size_t nsegs, seg_cap;
	int32_t prio; /* the most urgent prio its events showed (kernel
			 prio: < 100 RT or deadline; 100..139 CFS,
			 nice + 120); 120 if none did */
	bool pin_auto; /* pinned because it never left one CPU */
	const struct ea_pin *upin; /* --pin that matched it, NULL */
	bool open; /* acts[nacts - 1] still open (extraction) */
	uint64_t lost_at_open; /* extraction: lost-event records seen
				  when it opened (RP_ACT_LOST) */
	int32_t last_run_cpu; /* extraction: CPU of its latest run */
	int32_t ran_cpu; /* extraction: CPU of the run ending latest */
	uint64_t ran_until; /* ... and its end (ns) */
	/* extraction: the last wakeup it made (a task waker), a candidate
	 * for sync until it next switches out: the wakee's index + 1 (0:
	 * none), its activation, the time and CPU */
	uint32_t sync_wakee;
	uint32_t sync_act;
	uint64_t sync_ts;
	int32_t sync_cpu;
	/*
	 * An ensemble member's task read as a view of its recording's
	 * (workload-perturb.c): packs, bases, wides, xsegs and segs are
	 * the base task's arrays (read from its first activation the
	 * member keeps on, k0), not owned; activation 0 is *act0 when that
	 * one was cut
	 * (its segments segs0[0, nsegs0)); every activation is released
	 * up to jit_ns later, drawn from (jit_seed, jit_n0 + k). Read
	 * activations through rp_task_act(), segments through
	 * rp_task_segs().
	 */
	bool view;
	struct rp_act *act0;
	struct rp_seg *segs0;
	uint32_t nsegs0;
	uint64_t jit_ns, jit_seed, jit_n0, jit_last_ts;
};

/* A stretch of CPU time in the idle task (interrupts, idle entry/exit). */
struct rp_idle_busy {
	uint64_t start, end, seq_start, seq_end;
	int32_t cpu;
	bool to_idle; /* followed by a cpuidle state (not a task) */
	bool from_task; /* began when a task switched out */
	bool overlap; /* a task's time that report has overlap its
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
	uint64_t start, end, seq; /* seq: of the event starting it */
	uint64_t end_seq; /* ... and of the one ending it */
	int32_t cpu;
	bool suspended;
};

struct rp_cpu_timeline {
	struct rp_idle *idles;
	size_t nidles, cap;
	uint64_t busy0_seq; /* extraction: seq of the current stretch's start */
	bool seen; /* extraction: first change delivered */
	bool busy0_from_task; /* extraction: the current stretch followed a task
			       */
	bool left_idle; /* extraction: idle (as the state has it) since
			   the last switch-in of a task */
	uint64_t after_idle; /* extraction: ns of the first switch-in of a
				task after the CPU's last idle period */
	bool init_idle; /* idle at the trace start */
	int16_t init_state; /* ... in this idle state */
};

/* A task's run that began in the trace's first cfg.early_ns: an ensemble
 * member cut there (workload-perturb.c) keeps the part after its cut. */
struct rp_early_run {
	uint64_t since, now; /* ns */
	uint32_t task, act; /* tasks[task].acts[act] */
	uint32_t seg; /* its segment, UINT32_MAX: none kept */
	uint32_t cap; /* work per ns */
	int32_t cpu;
	bool overlap; /* also an overlap stretch (rp_seg.stretch) */
};

struct ea_workload {
	struct ea_workload_config cfg;
	struct rp_task *tasks; /* order of first appearance */
	size_t ntasks, task_cap;
	int32_t *slots; /* pid hash: index + 1 */
	size_t nslots;
	struct rp_pid_memo memo; /* extraction: the hash's last answers */
	struct rp_idle_busy *busy0; /* sorted by (start, seq_start) */
	size_t nbusy0, busy0_cap;
	struct rp_freq *freqs; /* time order */
	size_t nfreqs, freq_cap;
	struct rp_off *offs; /* order of their ends (the state's changes) */
	size_t noffs, off_cap;
	struct rp_cpu_timeline *cpus;
	int ncpus;
	uint64_t seq; /* events seen */
	uint64_t first_ts; /* extraction: the state's first instant */
	uint64_t lost; /* lost-event records seen (the trace's) */
	struct ea_workload_counts counts;
	/* extraction: the activations closed so far, counted (count_act()) */
	struct ea_workload_counts closed;
	/* cfg.early_ns: the runs that began in it, in the order seen */
	struct rp_early_run *early;
	size_t nearly, early_cap;
	/* the arrivals' order check (sim_arrivals_in_order()), per keep_gaps,
	 * once for all the runs of a workload: made at ea_workload_done()
	 * before any run, or left to the one thread that replays an ensemble
	 * member's copy (rp_workload_perturb()); NULL: checked at each run */
	struct rp_arr_order *arr_order;
	char error[128];
};

struct rp_arr_order {
	bool known[2], in_order[2];
	size_t n[2];
};

/* When activation a arrives in a replay (sim_arrival_time()): under
 * keep_gaps at its recorded eligibility, else at its wakeup. */
static inline uint64_t rp_arrival_time(bool keep_gaps, const struct rp_act *a)
{
	return keep_gaps ? a->eligible : a->release;
}

/*
 * workload.c: ea_workload_ops' calls, with the state's first_ts
 * (ea_state_first_ts()) given: a state change (rp_wl_change()) and an
 * event (rp_wl_event()); rp_wl_skip(): n events of which the workload
 * keeps nothing (event() of a type rp_wl_event() ignores: their count
 * alone), for workload-apart.c.
 */
void rp_wl_change(struct ea_workload *w, uint64_t first_ts, int cpu,
		  uint64_t since, uint64_t now, const struct ea_cpu_state *old,
		  const struct ea_cpu_state *new);
void rp_wl_event(struct ea_workload *w, uint64_t first_ts,
		 const struct ea_event *ev);
void rp_wl_skip(struct ea_workload *w, uint64_t first_ts, uint64_t n);

/*
 * workload.c: whether each task's own arrivals (activations that ran, by
 * rp_arrival_time(), up to the trace's end) come in (t, seq) order,
 * strictly: then merging the tasks' sequences yields the order of sorting
 * them all (sim-arrivals.c). *n: how many arrivals.
 */
bool rp_arrivals_in_order(const struct ea_workload *w, bool keep_gaps,
			  size_t *n);

/*
 * The jitter drawn for draw n of an ensemble member seeded seed: uniform
 * in [0, jit_ns] from splitmix64's (n + 1)-th output (a counter: the
 * member's draws need no state, so a view computes them when read).
 */
static inline uint64_t rp_jitter_draw(uint64_t seed, uint64_t n,
				      uint64_t jit_ns)
{
	uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	/* the modulo's bias is below jit_ns / 2^64: nothing at these scales */
	return jit_ns == UINT64_MAX ? z : z % (jit_ns + 1);
}

/* a released (and eligible) d later, never past its end (last_ts if
 * open). */
static inline void rp_jitter_apply(struct rp_act *a, uint64_t d,
				   uint64_t last_ts)
{
	uint64_t end = a->end ? a->end : last_ts;

	if (end <= a->eligible)
		return;
	if (d > end - a->eligible)
		d = end - a->eligible;
	a->release += d;
	a->eligible += d;
}

/* act-store.c: t's activation kept whole at index K (k + k0). */
const struct rp_pwide *rp_wide_find(const struct rp_task *t, size_t K);

/* Activation k of t as stored (a view's: not cut, not jittered). */
static inline struct rp_act rp_task_stored(const struct rp_task *t, size_t k)
{
	size_t K = k + t->k0;
	const struct rp_pact *p = &t->packs[K];
	const struct rp_pbase *b;
	struct rp_act a;

	if (__builtin_expect(p->wide, 0))
		return rp_wide_find(t, K)->a;
	b = &t->bases[K / RP_PBLOCK];
	a.release = b->release + p->rel;
	a.eligible = a.release + p->elig;
	a.end = p->end ? a.eligible + p->end - 1 : 0;
	a.ran_ns = p->ran;
	a.work = (uint64_t)p->ran * p->cap;
	a.seq_in = p->seq_in ? b->seq + p->seq_in - 1 : 0;
	a.seq_out = p->seq_out ? a.seq_in + p->seq_out - 1 : 0;
	a.cpu = (int64_t)p->cpu - 1;
	a.flags = p->flags;
	return a;
}

/* The waker of activation k of t. */
static inline struct rp_waker rp_task_waker(const struct rp_task *t, size_t k)
{
	size_t K = k + t->k0;
	const struct rp_pact *p = &t->packs[K];

	if (__builtin_expect(p->wide, 0))
		return rp_wide_find(t, K)->wk;
	return (struct rp_waker){(int32_t)p->wk_task - 1,
				 (int16_t)((int)p->wk_cpu - 1),
				 (uint8_t)p->wk_kind, (uint8_t)p->wk_sync};
}

/*
 * act-store.c: a (and its waker wk) stored as t's activation k, the one
 * after the last stored (t not a view); 0, or -1 out of memory.
 * rp_store_reserve(): room for n activations in all, at once.
 */
int rp_store_push(struct rp_task *t, size_t k, const struct rp_act *a,
		  const struct rp_waker *wk);
int rp_store_reserve(struct rp_task *t, size_t n);
/* Stored activation k's waker: sync set (rp_waker.sync). */
void rp_store_set_sync(struct rp_task *t, size_t k);
/* ... its task set to task (-1 or an index); 0, or -1 when it does not
 * fit (2^22 - 1 tasks or more). */
int rp_store_set_waker_task(struct rp_task *t, size_t k, int32_t task);
/* Frees what t's store owns (not a view's). */
void rp_store_free(struct rp_task *t);

/* Activation k of t, as the replay sees it (a view's: cut, jittered). */
static inline struct rp_act rp_task_act(const struct rp_task *t, size_t k)
{
	struct rp_act a = !k && t->act0 ? *t->act0 : rp_task_stored(t, k);

	if (t->jit_ns)
		rp_jitter_apply(
			&a,
			rp_jitter_draw(t->jit_seed, t->jit_n0 + k, t->jit_ns),
			t->jit_last_ts);
	return a;
}

/* workload.c: t's entry for activation key (index + xseg_off), NULL. */
const struct rp_xseg *rp_xseg_find(const struct rp_task *t, size_t key);

/*
 * The segments of activation k of t: *nseg of them (0: none kept, or it
 * never ran) at the pointer returned, *one when it is RP_ACT_SEG1 (made
 * from its figures as recorded, not jittered).
 */
static inline const struct rp_seg *rp_task_segs(const struct rp_task *t,
						size_t k, uint32_t *nseg,
						struct rp_seg *one)
{
	struct rp_act a;
	const struct rp_xseg *x;

	*nseg = 0;
	if (!t->segs_kept)
		return NULL;
	if (!k && t->act0) {
		*nseg = t->nsegs0;
		return t->segs0;
	}
	a = rp_task_stored(t, k);
	if (a.flags & RP_ACT_SEG1) {
		*one = (struct rp_seg){
			.work = a.work,
			.start = a.eligible,
			.seq_in = a.seq_in,
			.cpu = (int32_t)a.cpu,
			.from_idle = a.flags & RP_ACT_SEG1_IDLE,
		};
		*nseg = 1;
		return one;
	}
	x = t->nxsegs ? rp_xseg_find(t, k + t->xseg_off) : NULL;
	if (!x)
		return NULL;
	*nseg = x->nseg;
	return t->segs + x->seg0;
}

/* How many segments activation k of t has. */
static inline uint32_t rp_task_nseg(const struct rp_task *t, size_t k)
{
	struct rp_seg one;
	uint32_t n;

	rp_task_segs(t, k, &n, &one);
	return n;
}

/* pin.c: the recorded CPU a per-CPU kthread's name binds it to, -1. */
int rp_kthread_cpu(const char *comm);
/* pin.c: t->pin, t->upin, t->pin_auto from cfg and t's comm, pid, CPUs. */
void rp_pin_resolve(const struct ea_workload_config *cfg, struct rp_task *t);
bool rp_pin_allows(const struct ea_pin *pin, int cpu);

/*
 * workload-perturb.c: an ensemble member's workload, a copy of base
 * (its own arrays: ea_workload_free() frees it) in which the replay
 * starts cut_ns after the trace (at most base->cfg.early_ns: the
 * activations that ended by then are gone, those still going keep the
 * work they had left and are there from the start) and every activation
 * is released up to jitter_ns later than recorded (a draw per
 * activation from seed; never past its recorded end). NULL: out of
 * memory.
 */
struct ea_workload *rp_workload_perturb(const struct ea_workload *base,
					uint64_t cut_ns, uint64_t jitter_ns,
					uint64_t seed);
/* ... copy: every task copied, none a view (rp_task.view): the same
 * activations and segments, read through rp_task_act() (the tests). */
struct ea_workload *rp_workload_perturb_as(const struct ea_workload *base,
					   uint64_t cut_ns, uint64_t jitter_ns,
					   uint64_t seed, bool copy);

#endif

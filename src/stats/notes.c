// SPDX-License-Identifier: GPL-2.0-only
/* What was inferred or looked wrong, in words, and task ordering. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "eatrace/input.h"
#include "eatrace/stats.h"

#define NOTE(kind, ...)                                  \
	do {                                             \
		snprintf(msg, sizeof(msg), __VA_ARGS__); \
		fn(arg, kind, msg);                      \
	} while (0)

/* CPUs listed in one note at most; the others are counted. */
#define NOTE_MAX_CPUS 8

/*
 * Append "CPU i X s, ..." to msg (len used of n) for each CPU whose figure
 * at off in struct ea_cpu_stats is not 0 (and, no_cpuidle, that reports
 * no cpu_idle), NOTE_MAX_CPUS at most, then ", N more".
 */
static int cpu_list(char *msg, size_t n, int len, const struct ea_stats *st,
		    size_t off, bool no_cpuidle)
{
	int listed = 0, more = 0;

	for (int i = 0; i < st->ncpus; i++) {
		uint64_t ns =
			*(const uint64_t *)((const char *)&st->cpus[i] + off);

		if (!ns || (no_cpuidle && st->cpus[i].has_cpuidle))
			continue;
		if (listed++ >= NOTE_MAX_CPUS) {
			more++;
			continue;
		}
		if (len < (int)n)
			len += snprintf(msg + len, n - len, "%sCPU %d %.6f s",
					listed > 1 ? ", " : "", i, ns / 1e9);
	}
	if (more && len < (int)n)
		len += snprintf(msg + len, n - len, ", %d more", more);
	return len;
}

/* Per CPU and in all, of the st->cpus[] figure at off: CPUs, ns. */
static int cpus_with(const struct ea_stats *st, size_t off, uint64_t *all)
{
	int n = 0;

	*all = 0;
	for (int i = 0; i < st->ncpus; i++) {
		uint64_t ns =
			*(const uint64_t *)((const char *)&st->cpus[i] + off);

		n += ns != 0;
		*all += ns;
	}
	return n;
}

#define OFF(field) offsetof(struct ea_cpu_stats, field)

void ea_stats_foreach_note(
	const struct ea_stats *st, const struct ea_input_info *info,
	void (*fn)(void *arg, const char *kind, const char *msg), void *arg)
{
	ea_stats_foreach_note_but(st, info, 0, fn, arg);
}

void ea_stats_foreach_note_but(const struct ea_stats *st,
			       const struct ea_input_info *info, unsigned skip,
			       void (*fn)(void *arg, const char *kind,
					  const char *msg),
			       void *arg)
{
	const struct ea_state_counts *c = &st->counts;
	char msg[EA_NOTE_LEN];
	int no_freq = 0, n, len;
	uint64_t all, all_idle = 0;

	for (int i = 0; i < st->ncpus; i++) {
		const struct ea_cpu_stats *cs = &st->cpus[i];

		if (cs->nfreqs && cs->freqs[0].freq_khz == 0)
			no_freq++;
		all_idle += cs->unknown_idle_ns;
	}
	/* one note per cause, the CPUs it concerns listed in it */
	n = 0;
	all = 0;
	for (int i = 0; i < st->ncpus; i++)
		if (!st->cpus[i].has_cpuidle && st->cpus[i].idle_ns &&
		    st->cpus[i].inferred_swapper_ns) {
			n++;
			all += st->cpus[i].inferred_swapper_ns;
		}
	if (n && !(skip & EA_NOTE_NO_CPUIDLE)) {
		len = snprintf(msg, sizeof(msg),
			       "no cpu_idle events on %d CPU(s): idle is the "
			       "time they ran pid 0 (%.6f s), in the assumed "
			       "idle state (--idle-state): ",
			       n, all / 1e9);
		cpu_list(msg, sizeof(msg), len, st, OFF(inferred_swapper_ns),
			 true);
		fn(arg, "inference", msg);
	}
	n = cpus_with(st, OFF(unknown_ns), &all);
	if (n && !(skip & EA_NOTE_UNKNOWN)) {
		len = snprintf(
			msg, sizeof(msg),
			"%.6f s of unknown time on %d CPU(s) (state not shown "
			"by the trace; %.6f s of it priced idle in state %d, "
			"the rest busy as last known or [unknown]): ",
			all / 1e9, n, all_idle / 1e9, st->unknown_idle_state);
		cpu_list(msg, sizeof(msg), len, st, OFF(unknown_ns), false);
		fn(arg, "inference", msg);
	}
	if (no_freq && !(skip & EA_NOTE_NO_FREQ))
		NOTE("inference",
		     "%d CPU(s) ran for a while with no cpu_frequency event: "
		     "frequency unknown (report assumes an OPP)",
		     no_freq);
	if (c->resyncs)
		NOTE("warning",
		     "%llu contradiction(s) resynchronised: a CPU ran a task "
		     "it was never seen switching to (%llu placed at the "
		     "task's wakeup, %llu of them after a later record of the "
		     "previous task there; the rest at its first sign); %llu "
		     "proven the task's (the idle task recorded its wakeup "
		     "there): busy, the rest unknown until its record",
		     (unsigned long long)c->resyncs,
		     (unsigned long long)c->resync_from_wakeup,
		     (unsigned long long)c->resync_after_prev,
		     (unsigned long long)c->resync_proven);
	if (c->prev_from_waking || c->prev_from_scanner)
		NOTE("inference",
		     "%llu switch(es) without their prev task (compact_sched) "
		     "recovered where a switch-in was lost: %llu named the "
		     "task woken onto the CPU (the derived prev, the idle "
		     "task, slept), %llu the task a record showed running",
		     (unsigned long long)(c->prev_from_waking +
					  c->prev_from_scanner),
		     (unsigned long long)c->prev_from_waking,
		     (unsigned long long)c->prev_from_scanner);
	if (c->records_overruled)
		NOTE("inference",
		     "%llu record(s) named another current task than a resync "
		     "placed or a reader derived (compact_sched): ignored",
		     (unsigned long long)c->records_overruled);
	if (c->wakeups_inferred)
		NOTE("inference",
		     "%llu switch-in(s) with no recorded wakeup: the wakeup is "
		     "taken at the switch-in",
		     (unsigned long long)c->wakeups_inferred);
	if (c->lost_markers)
		NOTE("warning",
		     "events lost %llu time(s) (%llu events counted): state "
		     "unknown until the next event fixes it",
		     (unsigned long long)c->lost_markers,
		     (unsigned long long)c->lost_events);
	if (c->start_guessed > c->absent_offline)
		NOTE("warning",
		     "%llu CPU(s) have no record at all: unknown time "
		     "throughout, priced idle",
		     (unsigned long long)(c->start_guessed -
					  c->absent_offline));
	if (c->absent_offline)
		NOTE("inference",
		     "%llu CPU(s) have no record at all: offline throughout "
		     "(--absent-offline)",
		     (unsigned long long)c->absent_offline);
	if (c->suspends || c->suspend_unmatched)
		NOTE("inference",
		     "the system was suspended %llu time(s) (machine_suspend): "
		     "every CPU priced at the model's suspend_power "
		     "meanwhile%s",
		     (unsigned long long)c->suspends,
		     c->suspend_unmatched
			     ? "; unmatched machine_suspend begin/end ignored"
			     : "");
	if (c->cpus_offlined)
		NOTE("inference",
		     "CPU hotplug: %llu time(s) a CPU was taken offline, %llu "
		     "brought back (cpuhp events): offline time priced at the "
		     "cluster's offline_power",
		     (unsigned long long)c->cpus_offlined,
		     (unsigned long long)c->cpus_onlined);
	if (c->tasks_left)
		NOTE("warning",
		     "%llu task(s) shown gone from a CPU whose switch-out was "
		     "lost (a switch-in elsewhere or a wakeup for another "
		     "CPU): unknown time from their last record there",
		     (unsigned long long)c->tasks_left);
	if (c->idle_exit_unmatched)
		NOTE("warning",
		     "%llu cpu_idle exit(s) while not idle (ignored)",
		     (unsigned long long)c->idle_exit_unmatched);
	if (c->idle_enter_nested)
		NOTE("warning",
		     "%llu cpu_idle enter(s) while already idle (state "
		     "updated)",
		     (unsigned long long)c->idle_enter_nested);
	if (info && info->topo_ncpus) {
		len = snprintf(
			msg, sizeof(msg),
			"the trace states a topology (idlestat header):");

		for (int k = 1;
		     k <= info->topo_nclusters && len < (int)sizeof(msg); k++) {
			len += snprintf(msg + len, sizeof(msg) - len,
					"%s cluster %d = CPUs",
					k > 1 ? ";" : "", k);
			for (int i = 0;
			     i < info->topo_ncpus && len < (int)sizeof(msg);
			     i++)
				if (info->topo_cluster[i] == k)
					len += snprintf(msg + len,
							sizeof(msg) - len,
							" %d", i);
		}
		fn(arg, "inference", msg);
	}
	if (info && info->reordered)
		NOTE("warning",
		     "%llu event(s) were out of timestamp order in the file "
		     "and were sorted",
		     (unsigned long long)info->reordered);
	if (info && info->cut_last_line)
		NOTE("warning",
		     "the last line (%llu) is an event cut short, as in a "
		     "capture copied while being written: ignored",
		     (unsigned long long)info->cut_last_line);
	if (!c->by_type[EA_EV_SWITCH])
		NOTE("inference", "no sched_switch events: busy means not in a "
				  "cpuidle state, tasks are unknown");
	if (st->pelt.samples)
		NOTE("check",
		     "reconstructed PELT util vs the kernel's "
		     "(sched_load_cfs_rq, %llu samples): mean |error| %.1f, "
		     "max %.0f; after 100 ms warm-up: mean %.1f, max %.0f",
		     (unsigned long long)st->pelt.samples,
		     st->pelt.sum_abs_err / st->pelt.samples,
		     st->pelt.max_abs_err,
		     st->pelt.samples_warm
			     ? st->pelt.sum_abs_err_warm / st->pelt.samples_warm
			     : 0,
		     st->pelt.max_abs_err_warm);
}

static int by_runtime(const void *a, const void *b)
{
	const struct ea_task *x = *(struct ea_task *const *)a;
	const struct ea_task *y = *(struct ea_task *const *)b;

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

struct ea_task **ea_stats_tasks_sorted(const struct ea_stats *st, size_t *n)
{
	size_t nt = st->state ? ea_state_ntasks(st->state) : 0, kept = 0;
	struct ea_task **v = malloc((nt ? nt : 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < nt; i++) {
		struct ea_task *t = ea_state_task_at(st->state, i);

		if (ea_filter_task(st->filter, t->pid, t->comm))
			v[kept++] = t;
	}
	qsort(v, kept, sizeof(*v), by_runtime);
	*n = kept;
	return v;
}

bool ea_stats_cpu_shown(const struct ea_stats *st, int cpu)
{
	return ea_filter_cpu(st->filter, cpu);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a library call reads (src/output/api.h): the file, or a trace kept
 * in memory; and the options of eatrace/trace.h checked as the CLI checks
 * its own, into the state and accountant configurations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/filter.h"
#include "output/api.h"

/* 100 GHz, the most a trace may say a CPU runs at (src/input/input.c) */
#define MAX_ASSUME_KHZ 100000000u

int ea_api_run(const struct ea_api_src *s, struct ea_run *run,
	       struct ea_state_config *cfg, const struct ea_consumer *cons,
	       int n, struct ea_err *err)
{
	struct ea_evstore_cursor cur;
	struct ea_event_source src;

	if (!s->store)
		return ea_run(run, s->path, cfg, cons, n, err);
	ea_evstore_source(s->store, &cur, &src);
	return ea_run_source(run, s->path, &src, cfg, cons, n, err);
}

/* "0,2-3" into a CPU mask (eatrace/filter.h); 0, or -1 with err. */
static int parse_cpus(const char *list, bool **mask, int *n, struct ea_err *err)
{
	int rc = ea_cpu_list_parse(list, mask, n);

	if (rc == -2)
		return ea_err_set(err, "out of memory");
	if (rc)
		return ea_err_set(err, "cpus: '%s' is not a list of CPUs (as 0,2-3)",
				  list);
	return 0;
}

int ea_api_opts(const struct ea_trace_opts *o, struct ea_state_config *scfg,
		struct ea_acct_config *acfg, bool **cpu_only,
		struct ea_err *err)
{
	static const struct ea_trace_opts none;

	*cpu_only = NULL;
	if (!o)
		o = &none;
	/* ea_parse_common()'s checks, in its order */
	if (o->idle_state < 0 || o->idle_state > 63)
		return ea_err_set(
			err,
			"--idle-state: '%d' is not an idle state index (0-63)",
			o->idle_state);
	if (o->unknown_idle_state < 0 || o->unknown_idle_state > 63)
		return ea_err_set(err,
				  "--unknown-idle-state: '%d' is not an idle "
				  "state index (0-63)",
				  o->unknown_idle_state);
	if (o->start_absolute != o->end_absolute && o->has_end && o->start_ns)
		return ea_err_set(err, "--start and --end must both be "
				       "relative or both absolute (@)");
	scfg->win_start = o->start_ns;
	scfg->win_end = o->has_end ? o->end_ns : 0;
	scfg->win_relative = !(o->start_absolute || o->end_absolute);
	if (o->has_end && o->end_ns <= o->start_ns)
		return ea_err_set(err, "--end must be after --start");
	scfg->swapper_idle_state = o->idle_state;
	scfg->unknown_idle_state = o->unknown_idle_state;
	scfg->absent_offline = o->absent_offline;
	/* cmd-report.c's */
	if (o->assume_khz > MAX_ASSUME_KHZ)
		return ea_err_set(err,
				  "--assume-opp: '%lu' is not a frequency in "
				  "kHz (1 to %u)",
				  o->assume_khz, MAX_ASSUME_KHZ);
	acfg->assumed_khz = (uint32_t)o->assume_khz;
	acfg->zero_wakeups = o->no_wakeups;
	acfg->interval_ns = o->interval_ns;
	if (o->cpus && parse_cpus(o->cpus, cpu_only, &acfg->ncpu_only, err))
		return -1;
	acfg->cpu_only = *cpu_only;
	return 0;
}

int ea_api_check_window(const struct ea_state_config *scfg,
			const struct ea_state *s, const char *path,
			struct ea_err *err)
{
	uint64_t first = ea_state_first_ts(s), last = ea_state_last_ts(s), ws,
		 we;

	if (!scfg->win_start && !scfg->win_end)
		return 0;
	ea_state_window(s, &ws, &we);
	if (we > ws)
		return 0;
	return ea_err_set(
		err,
		"%s: the window (--start/--end) is outside the trace, which "
		"spans %.6f s (@%.6f .. @%.6f): nothing to analyse",
		path, (last - first) / 1e9, first / 1e9, last / 1e9);
}

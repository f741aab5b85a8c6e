/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the library's calls share (src/output/api*.c): the trace a call
 * reads, a file or one kept in memory (eatrace/trace.h), and the options
 * of eatrace/trace.h turned into the configurations the CLI's option
 * parser makes, with its messages.
 */
#ifndef EATRACE_OUTPUT_API_H
#define EATRACE_OUTPUT_API_H

#include "eatrace/eatrace.h"
#include "eatrace/evstore.h"

struct ea_api_src {
	const char *path; /* names the trace in results and errors */
	const struct ea_evstore *store; /* NULL: read path */
};

/* The store behind a handle of eatrace/trace.h. */
const struct ea_evstore *ea_trace_store(const struct ea_trace *t);

/* ea_run() on the file, or ea_run_source() on the store. */
int ea_api_run(const struct ea_api_src *s, struct ea_run *run,
	       struct ea_state_config *cfg, const struct ea_consumer *cons,
	       int n, struct ea_err *err);

/*
 * o (NULL: the defaults) into the state and accountant configurations:
 * window, idle states, absent CPUs, assumed OPP, wakeups, interval, CPU
 * filter (*cpu_only, malloc()ed, NULL for all: free it after the run).
 * 0, or -1 with err as the CLI words the option's mistake.
 */
int ea_api_opts(const struct ea_trace_opts *o, struct ea_state_config *scfg,
		struct ea_acct_config *acfg, bool **cpu_only,
		struct ea_err *err);

/* After the run: the window given does not overlap the trace (the CLI's
 * message). 0 or -1 with err. */
int ea_api_check_window(const struct ea_state_config *scfg,
			const struct ea_state *s, const char *path,
			struct ea_err *err);

/* The calls on either kind of trace; the conventions of ea_report_json(). */
int ea_api_report(const struct ea_api_src *s, const char *model,
		  const struct ea_trace_opts *o, char **json, char **err);
int ea_api_stats(const struct ea_api_src *s, const char *model,
		 const struct ea_trace_opts *o, char **json, char **err);
int ea_api_replay(const struct ea_api_src *s,
		  const struct ea_replay_request *rq, char **json, char **err);

/* The library's calls print no progress line: ea_progress_enabled off
 * from begin to end, then the caller's setting again. */
int ea_api_quiet_begin(void);
void ea_api_quiet_end(int was);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a trace through the pipeline: input -> state -> consumers.
 * Consumers (stats collector, energy accountant) are chained state ops.
 */
#ifndef EATRACE_PIPELINE_H
#define EATRACE_PIPELINE_H

#include "eatrace/input.h"
#include "eatrace/state.h"

struct ea_consumer {
	const struct ea_state_ops *ops;
	void *ctx;
};

#define EA_MAX_CONSUMERS 4

struct ea_run {
	struct ea_input_info info;	/* copy, valid after ea_run() */
	struct ea_state *state;		/* finished state; free with ea_run_free */
	char format[64];
	bool info_borrowed;		/* info's rails, procs are the source's */
};

/*
 * Read the whole trace at path into a new state with cfg, delivering every
 * change to each consumer in order. cfg->ncpus (if not set) comes from the
 * trace header. Returns 0, or -1 with err "PATH:POSITION: cause".
 */
int ea_run(struct ea_run *run, const char *path, struct ea_state_config *cfg,
	   const struct ea_consumer *consumers, int nconsumers,
	   struct ea_err *err);
/*
 * The same with the events of src (eatrace/input.h) instead of a file
 * opened here; path names the trace in errors. Error positions are
 * src->where()'s.
 */
int ea_run_source(struct ea_run *run, const char *path, const struct ea_event_source *src,
		  struct ea_state_config *cfg, const struct ea_consumer *consumers,
		  int nconsumers, struct ea_err *err);
void ea_run_free(struct ea_run *run);

#endif

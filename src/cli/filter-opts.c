// SPDX-License-Identifier: GPL-2.0-only
/* --cpus and --task of stats, report and dump (filter-opts.h). */
#include <stdio.h>

#include "cli/filter-opts.h"
#include "cli/msg.h"

int ea_cli_filter_opt(struct ea_filter *f, int opt, const char *arg)
{
	struct ea_err err;

	if (opt != EA_OPT_CPUS && opt != EA_OPT_TASK)
		return 1;
	if ((opt == EA_OPT_CPUS ? ea_filter_add_cpus
				: ea_filter_add_task)(f, arg, &err)) {
		ea_msg("%s", err.msg);
		return -1;
	}
	return 0;
}

void ea_cli_filter_warn(const struct ea_filter *f, const char *path, bool quiet,
			bool (*has_cpu)(const void *ctx, int cpu),
			const void *ctx)
{
	if (quiet)
		return;
	for (int c = 0; f->cpus && c < f->ncpus; c++)
		if (f->cpus[c] && !has_cpu(ctx, c))
			ea_msg("warning: %s: --cpus: CPU %d is not in the "
			       "trace: nothing of it to show",
			       path, c);
	for (int i = 0; i < f->ntasks; i++) {
		const struct ea_task_sel *s = &f->tasks[i];

		if (s->matched)
			continue;
		if (s->comm)
			ea_msg("warning: %s: --task %s: no task of that name "
			       "in the trace",
			       path, s->comm);
		else
			ea_msg("warning: %s: --task %d: no such task in the "
			       "trace",
			       path, s->pid);
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/* The filter in force, as stats' and report's JSON say it (filter-out.h). */
#include "output/filter-out.h"

void ea_filter_cpus_json(struct ea_json *j, const char *key, const bool *mask,
			 int n)
{
	ea_json_arr(j, key);
	for (int i = 0; i < n; i++)
		if (mask[i])
			ea_json_int(j, NULL, i);
	ea_json_arr_end(j);
}

void ea_filter_tasks_json(struct ea_json *j, const char *key,
			  const struct ea_filter *f)
{
	ea_json_arr(j, key);
	for (int i = 0; i < f->ntasks; i++) {
		ea_json_obj(j, NULL);
		if (f->tasks[i].comm)
			ea_json_str(j, "comm", f->tasks[i].comm);
		else
			ea_json_int(j, "pid", f->tasks[i].pid);
		ea_json_bool(j, "matched", f->tasks[i].matched);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How the JSON of stats and report says a filter is in force (--cpus,
 * --task; docs/json.md "cpu_filter", "task_filter"): src/output/filter-out.c.
 */
#ifndef EATRACE_OUTPUT_FILTER_OUT_H
#define EATRACE_OUTPUT_FILTER_OUT_H

#include "eatrace/filter.h"
#include "eatrace/output.h"

/* key: [0, 2, 3], the CPUs of the mask. */
void ea_filter_cpus_json(struct ea_json *j, const char *key, const bool *mask,
			 int n);
/* key: [{"pid": 1234, "matched": true}, {"comm": "kworker*", "matched":
 * false}], the task selectors in the order given. */
void ea_filter_tasks_json(struct ea_json *j, const char *key,
			  const struct ea_filter *f);

#endif

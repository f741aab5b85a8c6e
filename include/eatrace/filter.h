/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which CPUs and tasks `stats`, `report` and `dump` show (--cpus LIST,
 * --task PID|COMM), as trace-cmd report --cpu and perf sched --pid/--comm
 * select theirs (src/util/filter.c, below every layer: the accountant,
 * the stats collector, the renderers and dump use it).
 *
 * A CPU list is "0-1,4": CPUs and ranges, ascending within a range. A task
 * is selected by its PID (an argument of digits) or by its name: COMM is an
 * fnmatch(3) pattern ("kworker*", "rt-app-[0-9]") that also matches its
 * own text literally ("[idle]"). A task is selected when any --task
 * selects it; with none, every task is.
 */
#ifndef EATRACE_FILTER_H
#define EATRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"

struct ea_task_sel {
	int32_t pid; /* the PID, when comm is NULL */
	char *comm; /* a pattern for the task's name, or NULL */
	bool matched; /* it selected a task (ea_filter_task_hit()) */
};

struct ea_filter {
	bool *cpus; /* cpus[c] for c < ncpus; NULL: every CPU */
	int ncpus;
	struct ea_task_sel *tasks; /* NULL: every task */
	int ntasks;
};

/*
 * "0-1,4" into a new mask of *n (the highest CPU + 1) flags: 0; -1 when
 * list is not such a list, -2 out of memory (nothing allocated then).
 */
int ea_cpu_list_parse(const char *list, bool **mask, int *n);
/* The CPUs of a mask as "0-1,4" in buf (n bytes; "..." when cut short). */
const char *ea_cpu_list_fmt(char *buf, size_t n, const bool *mask, int nmask);

/* --cpus LIST (the union with those given before) and --task PID|COMM:
 * 0, or -1 with err ("--cpus: ..."). */
int ea_filter_add_cpus(struct ea_filter *f, const char *list,
		       struct ea_err *err);
int ea_filter_add_task(struct ea_filter *f, const char *arg,
		       struct ea_err *err);
void ea_filter_free(struct ea_filter *f);

/* Whether the filter selects CPU cpu; task pid, named comm (NULL: ""). */
bool ea_filter_cpu(const struct ea_filter *f, int cpu);
bool ea_filter_task(const struct ea_filter *f, int32_t pid, const char *comm);
/* ea_filter_task(), marking every selector that matches as matched. */
bool ea_filter_task_hit(struct ea_filter *f, int32_t pid, const char *comm);
/* The task selectors as "1234, kworker* (none)" in buf (n bytes), "(none)"
 * after those that selected no task. */
const char *ea_filter_tasks_fmt(char *buf, size_t n, const struct ea_filter *f);
/* "CPUs 0-1; tasks 1234, kworker*" (either part, or "" for no filter):
 * a CPU mask (NULL: every CPU) and the task selectors of tasks (or NULL). */
const char *ea_filter_describe(char *buf, size_t n, const bool *cpus, int ncpus,
			       const struct ea_filter *tasks);

#endif

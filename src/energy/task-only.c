// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's task filter (eatrace/energy.h cfg.task_only): whether a
 * piece of energy charged to a task counts, by the task's pid and its name
 * at the time of the charge.
 */
#include <string.h>

#include "energy/task-only.h"

/* The name a payer goes by: its name in the state stage now, or the
 * pseudo-task's (as ea_acct_done() names them in the report). */
static const char *payer_name(const struct ea_acct *a, int32_t pid)
{
	const struct ea_task *t;

	switch (pid) {
	case 0:
		return "[idle]";
	case -1:
		return "[unknown]";
	case EA_PID_SUSPENDED:
		return "[suspended]";
	case EA_PID_OFFLINE:
		return "[offline]";
	}
	t = a->cur_state ? ea_state_task(a->cur_state, pid) : NULL;
	return t ? t->comm : "";
}

bool ea_acct_task_selected(struct ea_acct *a, int cpu, int32_t pid)
{
	struct ea_cpu_acct *ca = &a->cpus[cpu];
	const char *name;

	if (pid < -1 && pid != EA_PID_SUSPENDED && pid != EA_PID_OFFLINE)
		pid = -1; /* as charge_task() */
	name = payer_name(a, pid);
	if (ca->sel_known && ca->sel_pid == pid &&
	    !strncmp(ca->sel_comm, name, EA_COMM_LEN))
		return ca->sel_yes;
	ca->sel_known = true;
	ca->sel_pid = pid;
	strncpy(ca->sel_comm, name, EA_COMM_LEN - 1);
	ca->sel_comm[EA_COMM_LEN - 1] = '\0';
	ca->sel_yes = ea_filter_task_hit(a->cfg.task_only, pid, name);
	return ca->sel_yes;
}

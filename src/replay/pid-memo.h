/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A direct-mapped memo in front of the workload's pid hash (workload.c
 * task_get(), task_find()): per entry, the last pid whose low bits name it
 * and its task's index. The extraction looks a task up 8 times per
 * activation (the wakee at its wakeup, the tasks switched out and in, the
 * waker, the task whose CPU time is counted): on a hit one load and a
 * compare, no walk of the hash and its tasks. A pid seen again after
 * another took its entry misses, is found in the hash and takes it back.
 * Tasks keep their index for the workload's life, so an entry never goes
 * stale; a pid <= 0 never hits (no task has one, and the zeroed entries
 * say "empty" with index + 1 == 0).
 */
#ifndef EATRACE_REPLAY_PID_MEMO_H
#define EATRACE_REPLAY_PID_MEMO_H

#include <stddef.h>
#include <stdint.h>

#define RP_PID_MEMO 256 /* entries, a power of 2 (2 KiB) */

struct rp_pid_memo {
	struct {
		int32_t pid;
		uint32_t idx1; /* its task's index + 1; 0: empty */
	} e[RP_PID_MEMO];
};

/* The index of pid's task as memoised, or -1 (not there). */
static inline int64_t rp_pid_memo_get(const struct rp_pid_memo *m, int32_t pid)
{
	const __typeof__(m->e[0]) *e = &m->e[(uint32_t)pid & (RP_PID_MEMO - 1)];

	return e->pid == pid && e->idx1 ? (int64_t)e->idx1 - 1 : -1;
}

/* pid's task is at index idx (< 2^32 - 1): its entry says so now. */
static inline void rp_pid_memo_put(struct rp_pid_memo *m, int32_t pid,
				   size_t idx)
{
	m->e[(uint32_t)pid & (RP_PID_MEMO - 1)].pid = pid;
	m->e[(uint32_t)pid & (RP_PID_MEMO - 1)].idx1 = (uint32_t)idx + 1;
}

#endif

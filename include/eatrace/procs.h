/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Processes: which thread (pid) belongs to which process (tgid), and the
 * processes' names, from a Perfetto trace's process_tree packets
 * (docs/perfetto.md). The report groups its tasks by process with it.
 */
#ifndef EATRACE_PROCS_H
#define EATRACE_PROCS_H

#include <stddef.h>
#include <stdint.h>

#define EA_PROC_NAME_LEN 64

struct ea_procs {
	struct ea_thread_of {
		int32_t tid, tgid;
		uint32_t seq; /* arrival: the last of an id wins */
	} * threads; /* by tid (ea_procs_finish) */
	size_t nthreads, capthreads;
	struct ea_proc_name {
		int32_t pid;
		uint32_t seq;
		char name[EA_PROC_NAME_LEN]; /* cmdline[0], or "" */
	} * procs; /* by pid */
	size_t nprocs, capprocs;
};

/* 0, or -1 out of memory. A later entry for the same id replaces it. */
int ea_procs_add_thread(struct ea_procs *p, int32_t tid, int32_t tgid);
int ea_procs_add_proc(struct ea_procs *p, int32_t pid, const char *name,
		      size_t len);
/* Sorts both tables (the last entry of an id wins). */
void ea_procs_finish(struct ea_procs *p);
void ea_procs_free(struct ea_procs *p);
/* The process of thread tid: its tgid, tid itself when it is a process,
 * -1 when the tree does not know it. */
int32_t ea_procs_tgid(const struct ea_procs *p, int32_t tid);
/* A process's name, NULL when unknown. */
const char *ea_procs_name(const struct ea_procs *p, int32_t pid);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A pool of worker processes: each job runs in its own forked child, which
 * writes its result to a pipe; the parent collects results as children
 * finish. A job that crashes costs its own result only.
 */
#ifndef EATRACE_POOL_H
#define EATRACE_POOL_H

#include <stddef.h>
#include <stdio.h>

/* In the child: write job i's result to out (flushed by the pool). */
typedef void (*ea_pool_job_fn)(size_t i, FILE *out, void *ctx);
/* In the parent, in completion order: job i wrote buf[len] (the pool
 * frees buf after the call) and exited with wait status wstatus. */
typedef void (*ea_pool_done_fn)(size_t i, const char *buf, size_t len,
				int wstatus, void *ctx);

/* Run jobs 0..njobs-1 on at most nworkers children at a time (nworkers <
 * 1: the online CPU count). Returns 0, or -1 (errno) if fork, pipe or poll
 * failed; jobs already finished have been reported. */
int ea_pool_run(size_t njobs, int nworkers, ea_pool_job_fn job,
		ea_pool_done_fn done, void *ctx);

/* The online CPU count, at least 1. */
int ea_pool_ncpus(void);

#endif

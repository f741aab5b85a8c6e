/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A pool of worker processes: up to N forked workers, each running the jobs
 * the parent hands it one after the other and sending each result back
 * whole over a pipe; the parent collects results as jobs finish. A job
 * that crashes its worker costs its own result only: the worker is
 * replaced for the jobs left. A worker's stdout is /dev/null (only the pipe
 * carries results), and a worker whose job left it more open descriptors
 * than it started with is replaced after sending that job's result.
 */
#ifndef EATRACE_POOL_H
#define EATRACE_POOL_H

#include <stddef.h>
#include <stdio.h>

/* In a worker: write job i's result to out (flushed by the pool). State a
 * job leaves behind is seen by the next jobs of the same worker. */
typedef void (*ea_pool_job_fn)(size_t i, FILE *out, void *ctx);
/* In the parent, in completion order: job i wrote buf[len] (NUL after it;
 * the pool frees buf after the call); wstatus 0, or when its worker died
 * or quit during it the worker's wait status (exit 127 for a worker that
 * exited 0 in the middle of a job), with no result (len 0). */
typedef void (*ea_pool_done_fn)(size_t i, const char *buf, size_t len,
				int wstatus, void *ctx);

/* Run jobs 0..njobs-1 on at most nworkers children at a time (nworkers <
 * 1: the online CPU count). Returns 0 once every job has been reported, or
 * -1 (errno) if poll failed or fork/pipe failed with no worker left to
 * run the jobs (a failed spawn beside live workers only costs speed), or
 * -1 with errno EINTR after ea_pool_stop(); jobs already finished have
 * been reported. */
int ea_pool_run(size_t njobs, int nworkers, ea_pool_job_fn job,
		ea_pool_done_fn done, void *ctx);

/* Called in a job (or code it runs) that recovered from a crash by a
 * longjmp (the trace.dat reader's guard): the job's result is still sent,
 * then the worker exits and a fresh one takes the jobs left. Harmless
 * outside a pool. */
void ea_pool_taint(void);

/* Async-signal-safe (for a SIGINT/SIGTERM handler): the running (or next)
 * ea_pool_run() reports the results its workers have sent, kills them
 * without reporting their jobs, and returns -1 with errno EINTR. For the
 * rest of the process: a stopped program ends. */
void ea_pool_stop(void);

/* The online CPU count, at least 1. */
int ea_pool_ncpus(void);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace diff -j N`: the runs priced by up to N child processes at once
 * (issue 19; one core of two sat idle while six recordings were priced
 * one after the other).
 *
 * Each child prices one trace with ea_diff_add_run(), as the sequential
 * path does, and writes the figures it produced (struct ea_diff_run, its
 * P- and C-state arrays, its tasks) or its error down a pipe, as raw bytes:
 * the parent gets the very same doubles. The parent collects the runs in
 * command-line order, so the sides, their order and the first error
 * reported are those of the sequential path. Processes rather than
 * threads: the pipeline keeps per-process state (the trace.dat open guard
 * uses signal handlers and the alarm).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eatrace/diff.h"

struct job {
	pid_t pid;
	int fd;
};

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static int put(struct buf *b, const void *v, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->n + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, v, n);
	b->n += n;
	return 0;
}

static int nclusters(const struct ea_model *m)
{
	return m->nclusters < EA_DIFF_MAX_CLUSTERS ? m->nclusters :
	       EA_DIFF_MAX_CLUSTERS;
}

/* The child: price trace, write the outcome to fd. */
static void child(const struct ea_diff_side *side, const char *trace,
		  enum ea_norm norm, int fd)
{
	struct ea_diff_side one = { .name = side->name, .model = side->model,
				     .state_cfg = side->state_cfg,
				     .acct_cfg = side->acct_cfg };
	const struct ea_model *m = side->model;
	struct buf b = { 0 };
	struct ea_err err;
	int32_t ok;
	size_t off = 0;

	ok = ea_diff_add_run(&one, trace, norm, &err) ? -1 : 0;
	if (put(&b, &ok, sizeof(ok)))
		_exit(3);
	if (ok) {
		if (put(&b, err.msg, sizeof(err.msg)))
			_exit(3);
	} else {
		const struct ea_diff_run *r = &one.runs[0];

		if (put(&b, r, sizeof(*r)))
			_exit(3);
		for (int c = 0; c < nclusters(m); c++)
			if (put(&b, r->pstate_s[c], (m->clusters[c].ncaps + 1) * sizeof(double)) ||
			    put(&b, r->cstate_s[c], (m->clusters[c].nidles + 1) * sizeof(double)))
				_exit(3);
		if (put(&b, r->tasks, r->ntasks * sizeof(*r->tasks)))
			_exit(3);
	}
	while (off < b.n) {
		ssize_t w = write(fd, b.p + off, b.n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3);
		off += (size_t)w;
	}
	_exit(0);
}

static int start(struct job *j, const struct ea_diff_side *side,
		 const char *trace, enum ea_norm norm)
{
	int p[2];

	if (pipe(p))
		return -1;
	fflush(stdout);
	fflush(stderr);
	j->pid = fork();
	if (j->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (j->pid == 0) {
		close(p[0]);
		child(side, trace, norm, p[1]);
	}
	close(p[1]);
	j->fd = p[0];
	return 0;
}

/* Read all of j's pipe and reap it: 0, or -1 (no outcome). */
static int collect(struct job *j, struct buf *b)
{
	unsigned char tmp[65536];
	int status, rc = 0;

	b->n = 0;
	for (;;) {
		ssize_t n = read(j->fd, tmp, sizeof(tmp));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = -1;
		if (n <= 0)
			break;
		if (put(b, tmp, (size_t)n))
			rc = -1;
	}
	close(j->fd);
	while (waitpid(j->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	j->pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		rc = -1;
	return rc;
}

/* Fill r (path set by the caller) from a child's bytes. */
static int decode(struct ea_diff_run *r, const struct ea_model *m,
		  const struct buf *b, struct ea_err *err)
{
	const unsigned char *p = b->p, *end = b->p + b->n;
	char *path = r->path;
	int32_t ok;

	if (end - p < (long)sizeof(ok))
		return ea_err_set(err, "%s: pricing process died", path);
	memcpy(&ok, p, sizeof(ok));
	p += sizeof(ok);
	if (ok) {
		char msg[sizeof(err->msg)];

		if (end - p < (long)sizeof(msg))
			return ea_err_set(err, "%s: pricing process died", path);
		memcpy(msg, p, sizeof(msg));
		msg[sizeof(msg) - 1] = '\0';
		return ea_err_set(err, "%s", msg);
	}
	if (end - p < (long)sizeof(*r))
		return ea_err_set(err, "%s: pricing process died", path);
	memcpy(r, p, sizeof(*r));
	p += sizeof(*r);
	r->path = path;
	for (int c = 0; c < EA_DIFF_MAX_CLUSTERS; c++)
		r->pstate_s[c] = r->cstate_s[c] = NULL;
	r->tasks = NULL;
	r->task_cap = 0;
	for (int c = 0; c < nclusters(m); c++) {
		size_t np = (m->clusters[c].ncaps + 1) * sizeof(double);
		size_t nc = (m->clusters[c].nidles + 1) * sizeof(double);

		r->pstate_s[c] = malloc(np);
		r->cstate_s[c] = malloc(nc);
		if (!r->pstate_s[c] || !r->cstate_s[c] ||
		    (size_t)(end - p) < np + nc)
			return ea_err_set(err, "%s: out of memory or pricing process died", path);
		memcpy(r->pstate_s[c], p, np);
		memcpy(r->cstate_s[c], p + np, nc);
		p += np + nc;
	}
	if ((size_t)(end - p) != r->ntasks * sizeof(*r->tasks))
		return ea_err_set(err, "%s: pricing process died", path);
	if (r->ntasks) {
		r->tasks = malloc(r->ntasks * sizeof(*r->tasks));
		if (!r->tasks)
			return ea_err_set(err, "out of memory");
		memcpy(r->tasks, p, r->ntasks * sizeof(*r->tasks));
		r->task_cap = r->ntasks;
	}
	return 0;
}

/*
 * jobs 0: the CPU count, unless the traces are small: starting a process
 * costs more than pricing a few hundred KB (6 traces of 220 KB: 0.2 s
 * one after the other, 0.45 s in two processes on a loaded 2-vCPU VM;
 * 6 of 30 to 250 MB: 18.5 s against 8.9 s).
 */
#define AUTO_MIN_BYTES (16ull << 20)

static int auto_jobs(char *const *base, int nbase, char *const *news,
		     int nnew)
{
	unsigned long long total = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct stat st;
	int i;

	for (i = 0; i < nbase + nnew; i++)
		if (!stat(i < nbase ? base[i] : news[i - nbase], &st))
			total += (unsigned long long)st.st_size;
	if (total < AUTO_MIN_BYTES || cpus < 2)
		return 1;
	return cpus > 64 ? 64 : (int)cpus;
}

int ea_diff_price(struct ea_diff *d, char *const *base, int nbase,
		  char *const *news, int nnew, enum ea_norm norm, int jobs,
		  struct ea_err *err)
{
	int n = nbase + nnew, next = 0, i, rc = 0;
	struct buf b = { 0 };
	struct job *j;

	if (jobs <= 0)
		jobs = auto_jobs(base, nbase, news, nnew);
	if (jobs <= 1 || n <= 1) {
		for (i = 0; i < n; i++)
			if (ea_diff_add_run(&d->side[i < nbase ? 0 : 1],
					    i < nbase ? base[i] : news[i - nbase],
					    norm, err))
				return -1;
		return 0;
	}
	j = calloc(n, sizeof(*j));
	if (!j)
		return ea_err_set(err, "out of memory");
	for (i = 0; i < n && !rc; i++) {
		struct ea_diff_side *side = &d->side[i < nbase ? 0 : 1];
		const char *trace = i < nbase ? base[i] : news[i - nbase];
		struct ea_diff_run *runs;

		/* keep up to jobs children running, i's among them */
		while (next < n && next < i + jobs) {
			if (start(&j[next], &d->side[next < nbase ? 0 : 1],
				  next < nbase ? base[next] : news[next - nbase], norm)) {
				rc = ea_err_set(err, "cannot start a pricing process: %s",
						strerror(errno));
				break;
			}
			next++;
		}
		if (rc)
			break;
		runs = realloc(side->runs, (side->n + 1) * sizeof(*runs));
		if (!runs) {
			rc = ea_err_set(err, "out of memory");
			break;
		}
		side->runs = runs;
		memset(&runs[side->n], 0, sizeof(*runs));
		if (!(runs[side->n].path = strdup(trace))) {
			rc = ea_err_set(err, "out of memory");
			break;
		}
		side->n++;
		if (collect(&j[i], &b)) {
			rc = ea_err_set(err, "%s: pricing process died", trace);
			break;
		}
		rc = decode(&runs[side->n - 1], side->model, &b, err);
	}
	/* after an error: the children still running are not needed */
	for (i = 0; i < next; i++)
		if (j[i].pid > 0) {
			kill(j[i].pid, SIGKILL);
			close(j[i].fd);
			while (waitpid(j[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	free(j);
	free(b.p);
	return rc ? -1 : 0;
}

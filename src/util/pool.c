// SPDX-License-Identifier: GPL-2.0-only
/* Worker processes, one fork per job (include/eatrace/pool.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eatrace/pool.h"

struct worker {
	pid_t pid;
	int fd;
	size_t job;
	char *buf;
	size_t len, cap;
};

int ea_pool_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

static int spawn(struct worker *w, size_t i, ea_pool_job_fn job, void *ctx)
{
	int p[2];
	FILE *out;

	if (pipe(p))
		return -1;
	/* nothing buffered in the parent may be written twice: a child that
	 * exit()s (a library calling exit) would flush its copy too */
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!w->pid) {
		close(p[0]);
		out = fdopen(p[1], "w");
		if (!out)
			_exit(127);
		job(i, out, ctx);
		_exit(fclose(out) ? 127 : 0);
	}
	close(p[1]);
	w->fd = p[0];
	w->job = i;
	w->buf = NULL;
	w->len = w->cap = 0;
	return 0;
}

/* Read what is there; 1 at end of file, 0 more to come, -1 error. */
static int drain(struct worker *w)
{
	ssize_t n;

	if (w->cap - w->len < 4096) {
		size_t cap = w->cap ? w->cap * 2 : 8192;
		char *b = realloc(w->buf, cap);

		if (!b)
			return -1;
		w->buf = b;
		w->cap = cap;
	}
	n = read(w->fd, w->buf + w->len, w->cap - w->len - 1);
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	w->len += (size_t)n;
	w->buf[w->len] = 0;
	return n == 0;
}

int ea_pool_run(size_t njobs, int nworkers, ea_pool_job_fn job,
		ea_pool_done_fn done, void *ctx)
{
	struct worker *w;
	struct pollfd *pfd;
	size_t next = 0, nrun = 0;
	int rc = 0, status;

	if (nworkers < 1)
		nworkers = ea_pool_ncpus();
	if ((size_t)nworkers > njobs)
		nworkers = njobs ? (int)njobs : 1;
	w = calloc((size_t)nworkers, sizeof(*w));
	pfd = calloc((size_t)nworkers, sizeof(*pfd));
	if (!w || !pfd) {
		free(w);
		free(pfd);
		errno = ENOMEM;
		return -1;
	}
	while ((next < njobs && !rc) || nrun) {
		while (!rc && next < njobs && nrun < (size_t)nworkers) {
			if (spawn(&w[nrun], next, job, ctx))
				rc = -1;
			else {
				nrun++;
				next++;
			}
		}
		if (!nrun)
			break;
		for (size_t k = 0; k < nrun; k++)
			pfd[k] = (struct pollfd){ .fd = w[k].fd, .events = POLLIN };
		if (poll(pfd, (nfds_t)nrun, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		for (size_t k = nrun; k-- > 0;) {
			int d;

			if (!pfd[k].revents)
				continue;
			d = drain(&w[k]);
			if (!d)
				continue;
			close(w[k].fd);
			while (waitpid(w[k].pid, &status, 0) < 0 && errno == EINTR)
				;
			if (d < 0)	/* lost the result: report it as a failure */
				status = 127 << 8;
			done(w[k].job, w[k].buf ? w[k].buf : "", w[k].len, status, ctx);
			free(w[k].buf);
			w[k] = w[--nrun];
		}
	}
	free(w);
	free(pfd);
	return rc;
}

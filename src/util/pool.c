// SPDX-License-Identifier: GPL-2.0-only
/*
 * Worker processes (include/eatrace/pool.h): up to N forked workers, each
 * running the jobs the parent hands it one at a time. Parent to worker, a
 * job number (a size_t) on the worker's command pipe, EOF when there are
 * no more; worker to parent, one frame per job on its result pipe: the job
 * number, the result's length (two size_t), the result. Only whole frames
 * count: a worker that dies costs the job it was running (reported with
 * its wait status, and no result) and is replaced while jobs remain.
 * Forking once per worker instead of once per job spares every job the
 * fork's page-table copy and the fresh heap's page faults.
 *
 * A worker's stdout is /dev/null (results travel over the pipe only: a
 * library printing to stdout cannot reach what the parent writes there),
 * and it takes SIGINT, SIGTERM and SIGHUP by default, whatever the
 * parent's handlers. A worker ends after a job that tainted it
 * (ea_pool_taint()) or left it with more open descriptors than it started
 * with (a library that leaked one on a bad input would otherwise run the
 * worker out of them): a fresh one takes the jobs left. ea_pool_stop()
 * (from a signal handler) ends a run early: results already sent are
 * reported, the workers are killed, their jobs reported no more.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eatrace/pool.h"

/* Set in a worker by a job that left the process unsound (ea_pool_taint) */
static volatile sig_atomic_t tainted;
/* Set by ea_pool_stop(): the run ends as soon as the parent sees it */
static volatile sig_atomic_t stop_requested;

void ea_pool_taint(void)
{
	tainted = 1;
}

void ea_pool_stop(void)
{
	stop_requested = 1;
}

/* How often the parent looks for a stop request while no worker speaks */
#define STOP_POLL_MS 200

struct worker {
	pid_t pid;
	int cmd;		/* write end of its command pipe; -1: closed */
	int res;		/* read end of its result pipe */
	bool busy;		/* running job */
	size_t job;
	char *buf;		/* frames read, not yet whole */
	size_t len, cap;
};

int ea_pool_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* 1 with the job number, 0 at end of file, -1 error. */
static int read_job(int fd, size_t *job)
{
	char *p = (char *)job;
	size_t got = 0;

	while (got < sizeof(*job)) {
		ssize_t k = read(fd, p + got, sizeof(*job) - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k == 0 && got == 0 ? 0 : -1;
		got += (size_t)k;
	}
	return 1;
}

/* The process's open descriptors (/proc/self/fd), -1 if unknown. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* A worker's start: stdout to /dev/null, the stop signals by default. */
static void worker_setup(void)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		_exit(127);	/* the parent reports the job failed */
	close(null);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

/* The worker's life: jobs until the command pipe closes. */
static void worker_main(int cmd, int res, ea_pool_job_fn job, void *ctx)
{
	size_t i, hdr[2];
	int r, nfds;

	worker_setup();
	nfds = count_fds();
	while ((r = read_job(cmd, &i)) > 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		if (!out)
			_exit(127);
		job(i, out, ctx);
		if (fclose(out))
			_exit(127);
		hdr[0] = i;
		hdr[1] = len;
		/* a descriptor leaked by the job (libtracecmd abandons its
		 * handle on some corrupt files): a fresh worker goes on */
		if (nfds >= 0 && count_fds() > nfds)
			tainted = 1;
		/* unsound after this job: no job more (the parent's next job
		 * number meets EPIPE and goes to a fresh worker), then its
		 * result, then out without touching the heap again */
		if (tainted)
			close(cmd);
		if (write_all(res, hdr, sizeof(hdr)) || write_all(res, buf, len))
			_exit(127);
		if (tainted)
			_exit(0);
		free(buf);
	}
	_exit(r < 0 ? 127 : 0);
}

static int spawn(struct worker *w, struct worker *all, size_t nall, ea_pool_job_fn job,
		 void *ctx)
{
	int c[2], r[2];

	if (pipe(c))
		return -1;
	if (pipe(r)) {
		close(c[0]);
		close(c[1]);
		return -1;
	}
	/* nothing buffered in the parent may be written twice: a child that
	 * exit()s (a library calling exit) would flush its copy too */
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		close(c[0]);
		close(c[1]);
		close(r[0]);
		close(r[1]);
		return -1;
	}
	if (!w->pid) {
		/* the other workers' pipes: a command pipe held open here
		 * would never tell its worker to stop */
		for (size_t k = 0; k < nall; k++)
			if (&all[k] != w) {
				if (all[k].cmd >= 0)
					close(all[k].cmd);
				close(all[k].res);
			}
		close(c[1]);
		close(r[0]);
		worker_main(c[0], r[1], job, ctx);
	}
	close(c[0]);
	close(r[1]);
	w->cmd = c[1];
	w->res = r[0];
	w->busy = false;
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
	n = read(w->res, w->buf + w->len, w->cap - w->len - 1);
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	w->len += (size_t)n;
	return n == 0;
}

/*
 * A job number down w's command pipe; -1 if w is gone. SIGPIPE is held
 * meanwhile (and a pending one taken back): a worker that died between two
 * jobs must not take the parent with it.
 */
static int send_job(struct worker *w, size_t job)
{
	sigset_t pipe_set, old;
	int rc, e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	rc = write_all(w->cmd, &job, sizeof(job));
	e = errno;
	if (rc && e == EPIPE && !sigismember(&old, SIGPIPE)) {
		struct timespec now = { 0, 0 };

		sigtimedwait(&pipe_set, NULL, &now);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return rc;
}

/* Hand w its next job, or tell it there is none. */
static void assign(struct worker *w, size_t *next, size_t njobs)
{
	if (!stop_requested && *next < njobs && w->cmd >= 0 && !send_job(w, *next)) {
		w->busy = true;
		w->job = (*next)++;
		return;
	}
	if (w->cmd >= 0) {
		close(w->cmd);
		w->cmd = -1;
	}
}

/* Report the whole frames in w's buffer; -1 if one is not w's job. */
static int frames(struct worker *w, size_t *next, size_t njobs, ea_pool_done_fn done,
		  void *ctx)
{
	size_t hdr[2], used = 0;

	while (w->len - used >= sizeof(hdr)) {
		memcpy(hdr, w->buf + used, sizeof(hdr));
		if (hdr[1] > w->len - used - sizeof(hdr))
			break;
		if (!w->busy || hdr[0] != w->job)
			return -1;
		/* a NUL after the result, for callers reading it as text */
		char save = w->buf[used + sizeof(hdr) + hdr[1]];

		w->buf[used + sizeof(hdr) + hdr[1]] = 0;
		w->busy = false;
		done(hdr[0], w->buf + used + sizeof(hdr), hdr[1], 0, ctx);
		w->buf[used + sizeof(hdr) + hdr[1]] = save;
		used += sizeof(hdr) + hdr[1];
		assign(w, next, njobs);
	}
	memmove(w->buf, w->buf + used, w->len - used);
	w->len -= used;
	return 0;
}

/* w is gone (end of its result pipe): reap it, report its job if it was
 * running one (and done is not NULL). */
static void reap(struct worker *w, int failed, ea_pool_done_fn done, void *ctx)
{
	int status;

	if (w->cmd >= 0)
		close(w->cmd);
	close(w->res);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (w->busy && done) {
		/* it stopped in the middle of a job: whatever its exit
		 * status says, the job has no result */
		if (failed || (WIFEXITED(status) && !WEXITSTATUS(status)))
			status = 127 << 8;
		done(w->job, "", 0, status, ctx);
	}
	free(w->buf);
}

/*
 * A stop: the results the workers sent before are reported (what their
 * pipes hold now), then every worker is killed and reaped, its job not
 * reported.
 */
static void stop_all(struct worker *w, size_t nrun, size_t *next, size_t njobs,
		     ea_pool_done_fn done, void *ctx)
{
	for (size_t k = 0; k < nrun; k++) {
		struct pollfd p = { .fd = w[k].res, .events = POLLIN };

		while (poll(&p, 1, 0) > 0 && !drain(&w[k]))
			;
		frames(&w[k], next, njobs, done, ctx);
		kill(w[k].pid, SIGKILL);
		reap(&w[k], 1, NULL, ctx);
	}
}

int ea_pool_run(size_t njobs, int nworkers, ea_pool_job_fn job,
		ea_pool_done_fn done, void *ctx)
{
	struct worker *w;
	struct pollfd *pfd;
	size_t next = 0, nrun = 0;
	int rc = 0;

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
	while (next < njobs || nrun) {
		if (stop_requested) {
			stop_all(w, nrun, &next, njobs, done, ctx);
			nrun = 0;
			errno = EINTR;
			rc = -1;
			break;
		}
		/* workers for the jobs nobody runs yet; a failed fork or pipe
		 * is fatal only with no worker left to run them (the others
		 * take the jobs, a spawn is tried again after the next event) */
		while (nrun < (size_t)nworkers && next < njobs) {
			if (spawn(&w[nrun], w, nrun, job, ctx)) {
				if (!nrun)
					rc = -1;
				break;
			}
			assign(&w[nrun++], &next, njobs);
		}
		if (!nrun)
			break;
		for (size_t k = 0; k < nrun; k++)
			pfd[k] = (struct pollfd){ .fd = w[k].res, .events = POLLIN };
		if (poll(pfd, (nfds_t)nrun, STOP_POLL_MS) < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		for (size_t k = nrun; !stop_requested && k-- > 0;) {
			int d, bad;

			if (!pfd[k].revents)
				continue;
			d = drain(&w[k]);
			bad = d < 0 || frames(&w[k], &next, njobs, done, ctx);
			if (!d && !bad)
				continue;
			if (bad)
				kill(w[k].pid, SIGKILL);
			reap(&w[k], bad, done, ctx);
			w[k] = w[--nrun];
		}
	}
	/* a failed poll: the workers still running finish nothing more;
	 * reap them */
	for (size_t k = 0; k < nrun; k++) {
		kill(w[k].pid, SIGKILL);
		reap(&w[k], 1, done, ctx);
	}
	free(w);
	free(pfd);
	return rc;
}

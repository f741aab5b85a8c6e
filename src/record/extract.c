// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing a session's buffer as trace.dat.
 *
 * libtracecmd 3.1 declares no output API in its public header (the
 * tracecmd_output_* functions are private), and 'trace-cmd extract -B'
 * resets the *top-level* tracing when it is done (tracing_on 0, every event
 * disabled, filters and the buffer cleared: seen with strace on 3.1.6), so
 * neither is used. Instead, as 'trace-cmd record' does internally:
 *
 *  1. each CPU's ring buffer of our instance is read raw (trace_pipe_raw,
 *     non-blocking, sub-buffer by sub-buffer) into a file;
 *  2. 'trace-cmd restore -c' writes a trace.dat header: this system's event
 *     formats and kallsyms. Like 'trace-cmd record -e sched -e power', only
 *     the formats of the systems recorded (and ftrace's, for the markers)
 *     and the kallsyms entries of trace_marker writes are kept, by running
 *     it in a private mount namespace with reduced copies bind-mounted over
 *     events/ and /proc/kallsyms (nothing outside changes; when that is not
 *     possible the full header is written);
 *  3. 'trace-cmd restore -i HEADER -o OUT CPUFILES...' joins them.
 *
 * 'trace-cmd restore' only reads tracefs; it works where 'trace-cmd
 * record' is refused. Everything goes to a temporary directory beside the
 * output (.eatrace-rec-PID-XXXXXX; one a killed run left is removed by the
 * next run writing there), the result handed to the output layer.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "eatrace/output.h"
#include "eatrace/record.h"

#ifndef EA_TRACE_CMD
#define EA_TRACE_CMD "trace-cmd"
#endif

static const char *trace_cmd(void)
{
	const char *tc = getenv("EATRACE_TRACE_CMD");

	return tc && *tc ? tc : EA_TRACE_CMD;
}

static int copy_file(const char *src, const char *dst)
{
	char buf[8192];
	int in, out, rc = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
	if (n < 0)
		rc = -1;
	close(in);
	if (close(out))
		rc = -1;
	return rc;
}

/* ---- 1. raw per-CPU data, drained while recording ---- */

struct ea_rawdump {
	struct ea_session *s;
	int ncpus;
	char *dir;			/* .eatrace-rec-PID-XXXXXX */
	char **files;			/* dir/cpuN */
	int *fds;
	struct tracefs_cpu **tc;	/* NULL: a CPU without a buffer */
	int *tcfd;			/* its trace_pipe_raw */
	void *buf;
	int bufsize;
	uint64_t bytes;
	uint64_t last_max;		/* most bytes one CPU gave at the last drain */
};

#define RAW_PREFIX ".eatrace-rec-"

/* rm -r of a temporary directory (one level of files, events/ tree). */
static void remove_tree(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);

	if (d) {
		while ((de = readdir(d))) {
			char p[PATH_MAX + 256];
			struct stat st;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
			if (!lstat(p, &st) && S_ISDIR(st.st_mode))
				remove_tree(p);
			else
				unlink(p);
		}
		closedir(d);
	}
	rmdir(path);
}

/*
 * Remove what a killed run left in dir: temporary directories
 * .eatrace-rec-PID-XXXXXX and output temporaries .eatrace-PID-XXXXXX
 * (src/output/outfile.c) whose PID no longer runs.
 */
static void remove_stale(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[PATH_MAX + 256], *end;
		long pid;

		const char *rest;
		bool raw;

		raw = !strncmp(de->d_name, RAW_PREFIX, strlen(RAW_PREFIX));
		if (raw)
			rest = de->d_name + strlen(RAW_PREFIX);
		else if (!strncmp(de->d_name, ".eatrace-", 9))
			rest = de->d_name + 9;
		else
			continue;
		if (!isdigit((unsigned char)*rest))
			continue;
		pid = strtol(rest, &end, 10);
		if (*end != '-' || strlen(end) != 7 || pid <= 0 || pid == getpid() ||
		    !ea_pid_gone((pid_t)pid))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (raw)
			remove_tree(p);
		else if (unlink(p))
			continue;
		fprintf(stderr, "eatrace: record: removed %s, left by a killed run (pid %ld)\n",
			p, pid);
	}
	closedir(d);
}

/*
 * trace_pipe_raw opened by us, close-on-exec, so that no command we start
 * inherits it (libtracefs's own tracefs_cpu_open() does not set it).
 */
static struct tracefs_cpu *cpu_open(struct ea_rawdump *d, int c)
{
	char file[64], *path;
	struct tracefs_cpu *tc;
	int fd;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", c);
	path = tracefs_instance_get_file(d->s->inst, file);
	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return NULL;
	tc = tracefs_cpu_alloc_fd(fd, getpagesize(), true);
	if (!tc) {
		close(fd);
		return NULL;
	}
	d->tcfd[c] = fd;
	return tc;
}

int ea_raw_open(struct ea_rawdump **dp, struct ea_session *s, int ncpus,
		const char *dir, struct ea_err *err)
{
	struct ea_rawdump *d = calloc(1, sizeof(*d));

	*dp = NULL;
	if (!d)
		return ea_err_set(err, "out of memory");
	d->s = s;
	d->ncpus = ncpus;
	if (!dir) {
		dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = "/tmp";
	}
	remove_stale(dir);
	if (asprintf(&d->dir, "%s/" RAW_PREFIX "%d-XXXXXX", dir, (int)getpid()) < 0) {
		free(d);
		return ea_err_set(err, "out of memory");
	}
	if (!mkdtemp(d->dir)) {
		ea_err_set(err, "%s: cannot write: %s", dir, strerror(errno));
		free(d->dir);
		free(d);
		return -1;
	}
	*dp = d;
	d->files = calloc((size_t)ncpus, sizeof(*d->files));
	d->fds = calloc((size_t)ncpus, sizeof(*d->fds));
	d->tcfd = calloc((size_t)ncpus, sizeof(*d->tcfd));
	d->tc = calloc((size_t)ncpus, sizeof(*d->tc));
	if (!d->files || !d->fds || !d->tc || !d->tcfd)
		return ea_err_set(err, "out of memory");
	for (int c = 0; c < ncpus; c++)
		d->fds[c] = d->tcfd[c] = -1;
	for (int c = 0; c < ncpus; c++) {
		if (asprintf(&d->files[c], "%s/cpu%d", d->dir, c) < 0) {
			d->files[c] = NULL;
			return ea_err_set(err, "out of memory");
		}
		d->fds[c] = open(d->files[c], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (d->fds[c] < 0)
			return ea_err_set(err, "%s: %s", d->files[c], strerror(errno));
		d->tc[c] = cpu_open(d, c);
		if (d->tc[c] && tracefs_cpu_read_size(d->tc[c]) > d->bufsize)
			d->bufsize = tracefs_cpu_read_size(d->tc[c]);
	}
	d->buf = malloc(d->bufsize > 0 ? (size_t)d->bufsize : 4096);
	if (!d->buf)
		return ea_err_set(err, "out of memory");
	return 0;
}

/*
 * Move what the ring buffers hold to the files: non-blocking reads of a
 * sub-buffer each; the page being written is read partially.
 */
int ea_raw_drain(struct ea_rawdump *d, struct ea_err *err)
{
	d->last_max = 0;
	for (int c = 0; c < d->ncpus; c++) {
		uint64_t got = 0;
		int n;

		if (!d->tc[c])
			continue;
		while ((n = tracefs_cpu_read(d->tc[c], d->buf, true)) > 0) {
			if (write(d->fds[c], d->buf, (size_t)n) != n)
				return ea_err_set(err, "%s: %s", d->files[c],
						  strerror(errno ? errno : ENOSPC));
			d->bytes += (uint64_t)n;
			got += (uint64_t)n;
		}
		if (got > d->last_max)
			d->last_max = got;
	}
	return 0;
}

uint64_t ea_raw_last_max(const struct ea_rawdump *d)
{
	return d ? d->last_max : 0;
}

uint64_t ea_raw_bytes(const struct ea_rawdump *d)
{
	return d ? d->bytes : 0;
}

/* ---- 2. the reduced header sources ---- */

static int copy_system(const char *tracing, const char *dir, const char *sys)
{
	char src[600], dst[600];
	struct dirent *de;
	DIR *d;

	snprintf(src, sizeof(src), "%s/events/%s", tracing, sys);
	d = opendir(src);
	if (!d)
		return 0;	/* this kernel has no such system */
	snprintf(dst, sizeof(dst), "%s/events/%s", dir, sys);
	if (mkdir(dst, 0755)) {
		closedir(d);
		return -1;
	}
	while ((de = readdir(d))) {
		char f[900], t[900];

		if (de->d_name[0] == '.')
			continue;
		snprintf(f, sizeof(f), "%s/%s/format", src, de->d_name);
		if (access(f, R_OK))
			continue;
		snprintf(t, sizeof(t), "%s/%s", dst, de->d_name);
		if (mkdir(t, 0755))
			break;
		snprintf(t, sizeof(t), "%s/%s/format", dst, de->d_name);
		if (copy_file(f, t))
			break;
		snprintf(f, sizeof(f), "%s/%s/id", src, de->d_name);
		snprintf(t, sizeof(t), "%s/%s/id", dst, de->d_name);
		copy_file(f, t);	/* optional */
	}
	closedir(d);
	return de ? -1 : 0;
}

/* kallsyms entries of trace_marker writes and the symbol after each. */
static int reduce_kallsyms(const char *dst)
{
	static const char *const want[] = { "tracing_mark_write",
					    "tracing_mark_raw_write" };
	unsigned long long addr[2] = { 0 }, next[2] = { 0 };
	char nextline[2][512] = { "", "" }, line[2][512] = { "", "" };
	char buf[512];
	FILE *in, *out;

	in = fopen("/proc/kallsyms", "re");
	if (!in)
		return -1;
	while (fgets(buf, sizeof(buf), in)) {
		char type, name[256];
		unsigned long long a;

		if (sscanf(buf, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		for (int i = 0; i < 2; i++)
			if (!strcmp(name, want[i])) {
				addr[i] = a;
				snprintf(line[i], sizeof(line[i]), "%s", buf);
			}
	}
	rewind(in);
	while (fgets(buf, sizeof(buf), in)) {
		unsigned long long a;

		if (sscanf(buf, "%llx", &a) != 1)
			continue;
		for (int i = 0; i < 2; i++)
			if (addr[i] && a > addr[i] && (!next[i] || a < next[i])) {
				next[i] = a;
				snprintf(nextline[i], sizeof(nextline[i]), "%s", buf);
			}
	}
	fclose(in);
	out = fopen(dst, "we");
	if (!out)
		return -1;
	for (int i = 0; i < 2; i++)
		fprintf(out, "%s%s", line[i], nextline[i]);
	return fclose(out);
}

static bool make_reduced(const char *tracing, const char *dir)
{
	static const char *const systems[] = { "sched", "power", "ftrace" };
	char p[600], q[600];

	snprintf(p, sizeof(p), "%s/events", dir);
	if (mkdir(p, 0755))
		return false;
	for (int i = 0; i < 2; i++) {
		const char *h = i ? "header_event" : "header_page";

		snprintf(p, sizeof(p), "%s/events/%s", tracing, h);
		snprintf(q, sizeof(q), "%s/events/%s", dir, h);
		if (copy_file(p, q))
			return false;
	}
	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		if (copy_system(tracing, dir, systems[i]))
			return false;
	snprintf(p, sizeof(p), "%s/kallsyms", dir);
	return !reduce_kallsyms(p);
}

/* ---- running trace-cmd ---- */

/* The last non-empty line of text (trace-cmd's error), in place. */
static const char *last_line(char *text)
{
	char *end = text + strlen(text), *p;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	p = strrchr(text, '\n');
	return p ? p + 1 : text;
}

/*
 * Run trace-cmd with argv (argv[0] is replaced by the binary), in its own
 * process group, output collected. reduce: the directory holding reduced
 * events/ and kallsyms to bind-mount in a private mount namespace (NULL:
 * none). Returns 0, or -1 with err.
 */
static int run(char **argv, const char *tracing, const char *reduce,
	       const char *what, struct ea_err *err)
{
	const char *tc = trace_cmd();
	char log[4096];
	size_t loglen = 0;
	int pfd[2], status = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return ea_err_set(err, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return ea_err_set(err, "fork: %s", strerror(errno));
	}
	if (!pid) {
		ea_signals_default();
		setpgid(0, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		if (reduce && !unshare(CLONE_NEWNS) &&
		    !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
			char src[600], dst[600];

			snprintf(src, sizeof(src), "%s/events", reduce);
			snprintf(dst, sizeof(dst), "%s/events", tracing);
			mount(src, dst, NULL, MS_BIND, NULL);
			snprintf(src, sizeof(src), "%s/kallsyms", reduce);
			mount(src, "/proc/kallsyms", NULL, MS_BIND, NULL);
		}
		argv[0] = (char *)tc;
		execvp(tc, argv);
		dprintf(2, "cannot run %s: %s\n", tc, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char buf[512];
		ssize_t n = read(pfd[0], buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if ((size_t)n >= sizeof(log))
			n = sizeof(log) - 1;
		if (loglen + (size_t)n >= sizeof(log)) {	/* keep the tail */
			size_t drop = loglen + (size_t)n - sizeof(log) + 1;

			memmove(log, log + drop, loglen - drop);
			loglen -= drop;
		}
		memcpy(log + loglen, buf, (size_t)n);
		loglen += (size_t)n;
	}
	close(pfd[0]);
	log[loglen] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return ea_err_set(err, "waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return ea_err_set(err, "%s (trace-cmd writes trace.dat: install it, "
				  "or set EATRACE_TRACE_CMD)", last_line(log));
	return ea_err_set(err, "'%s %s' failed: %s", tc, what,
			  *last_line(log) ? last_line(log) : "no message");
}

void ea_raw_free(struct ea_rawdump *d)
{
	if (!d)
		return;
	for (int c = 0; c < d->ncpus; c++) {
		if (d->tc && d->tc[c])
			tracefs_cpu_free_fd(d->tc[c]);
		if (d->tcfd && d->tcfd[c] >= 0)
			close(d->tcfd[c]);
		if (d->fds && d->fds[c] >= 0)
			close(d->fds[c]);
		if (d->files)
			free(d->files[c]);
	}
	free(d->tc);
	free(d->tcfd);
	free(d->fds);
	free(d->files);
	free(d->buf);
	remove_tree(d->dir);
	free(d->dir);
	free(d);
}

int ea_raw_finish(struct ea_rawdump *d, struct ea_out *o, uint64_t *bytes,
		  struct ea_err *err)
{
	struct stat st;
	struct ea_session *s = d->s;
	char *tmp = NULL, *head = NULL;
	char **argv = NULL;
	int rc = -1;
	bool reduced;

	if (ea_raw_drain(d, err))
		return -1;
	for (int c = 0; c < d->ncpus; c++) {
		int e = close(d->fds[c]) ? errno : 0;

		d->fds[c] = -1;
		if (e)
			return ea_err_set(err, "%s: %s", d->files[c], strerror(e));
	}
	argv = calloc((size_t)d->ncpus + 7, sizeof(*argv));
	if (!argv || asprintf(&tmp, "%s/out.dat", d->dir) < 0 ||
	    asprintf(&head, "%s/head.dat", d->dir) < 0) {
		ea_err_set(err, "out of memory");
		goto out;
	}
	reduced = make_reduced(s->tracing_dir, d->dir);
	argv[1] = "restore";
	argv[2] = "-c";
	argv[3] = "-o";
	argv[4] = head;
	if (run(argv, s->tracing_dir, reduced ? d->dir : NULL, "restore -c", err))
		goto out;
	argv[2] = "-i";
	argv[3] = head;
	argv[4] = "-o";
	argv[5] = tmp;
	for (int c = 0; c < d->ncpus; c++)
		argv[6 + c] = d->files[c];
	if (run(argv, s->tracing_dir, NULL, "restore", err))
		goto out;
	if (!stat(tmp, &st))
		*bytes = (uint64_t)st.st_size;
	if (ea_out_adopt(o, tmp, err))
		goto out;
	rc = 0;
out:
	free(argv);
	free(tmp);
	free(head);
	return rc;
}

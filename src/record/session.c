// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracing sessions: our own tracefs instance, its events, and reliable
 * cleanup (see include/eatrace/record.h).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "eatrace/record.h"

/* What eatrace reads, in the order it is enabled. */
static const char *const wanted[][2] = {
	{ "sched", "sched_switch" },
	{ "sched", "sched_wakeup" },
	{ "sched", "sched_waking" },
	{ "sched", "sched_wakeup_new" },
	{ "sched", "sched_migrate_task" },
	{ "power", "cpu_frequency" },
	{ "power", "cpu_idle" },
};

#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))

/* ---- signals ---- */

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static void on_chld(int sig)
{
	(void)sig;	/* only to interrupt sleeps */
}

void ea_signals_install(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;	/* no SA_RESTART: sleeps end early */
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaction(stops[i], &sa, NULL);
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, NULL);
}

void ea_signals_default(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
}

int ea_signal_pending(void)
{
	return stop_sig;
}

uint64_t ea_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ea_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	if (!stop_sig)
		nanosleep(&ts, NULL);	/* EINTR: a signal, return early */
}

/* ---- the registry of open sessions, closed at exit ---- */

#define MAX_SESSIONS 4
static struct ea_session *open_sessions[MAX_SESSIONS];

void ea_session_close_all(void)
{
	for (int i = 0; i < MAX_SESSIONS; i++)
		if (open_sessions[i])
			ea_session_close(open_sessions[i]);
}

static int enlist(struct ea_session *s)
{
	static bool hooked;

	if (!hooked) {
		if (atexit(ea_session_close_all))
			return -1;
		hooked = true;
	}
	for (int i = 0; i < MAX_SESSIONS; i++)
		if (!open_sessions[i]) {
			open_sessions[i] = s;
			return 0;
		}
	return -1;
}

static void delist(struct ea_session *s)
{
	for (int i = 0; i < MAX_SESSIONS; i++)
		if (open_sessions[i] == s)
			open_sessions[i] = NULL;
}

/* ---- tracefs ---- */

static int need_root(const char *what, struct ea_err *err)
{
	return ea_err_set(err, "%s: permission denied: tracing needs root "
			  "(tracefs instances and events are root-only)", what);
}

static int read_only(const char *what, struct ea_err *err)
{
	return ea_err_set(err, "%s: tracefs is mounted read-only; recording needs "
			  "it writable (mount -o remount,rw %s)", what, what);
}

bool ea_pid_gone(int pid)
{
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

int ea_instance_remove(struct tracefs_instance *inst)
{
	tracefs_instance_file_write(inst, "tracing_on", "0");
	tracefs_event_disable(inst, NULL, NULL);
	if (!tracefs_instance_destroy(inst))
		return 0;
	/* another run (sweeping the same killed run's instance) was first */
	return errno == ENOENT ? 1 : -1;
}

/*
 * Stop and remove the instances a killed eatrace left: eatrace-record-PID
 * and eatrace-top-PID (also with a -N suffix) whose PID is gone.
 */
static void remove_stale(const char *tracing_dir)
{
	static const char *const prefixes[] = { "eatrace-record-", "eatrace-top-" };
	char p[512];
	struct dirent *de;
	DIR *d;

	snprintf(p, sizeof(p), "%s/instances", tracing_dir);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct tracefs_instance *inst;
		const char *rest = NULL;
		char *end;
		long pid;
		int r;

		for (size_t i = 0; i < 2 && !rest; i++)
			if (!strncmp(de->d_name, prefixes[i], strlen(prefixes[i])))
				rest = de->d_name + strlen(prefixes[i]);
		if (!rest)
			continue;
		pid = strtol(rest, &end, 10);
		if ((*end && *end != '-') || pid <= 0 || pid == getpid() ||
		    !ea_pid_gone((int)pid))
			continue;
		inst = tracefs_instance_alloc(tracing_dir, de->d_name);
		if (!inst)
			continue;
		r = ea_instance_remove(inst);
		if (r < 0)
			fprintf(stderr, "eatrace: %s/%s: left by a killed run (pid %ld) and "
				"cannot be removed: %s (try: rmdir %s/%s)\n", p, de->d_name,
				pid, strerror(errno), p, de->d_name);
		else if (!r)	/* 1: another run removed it, and said so */
			fprintf(stderr, "eatrace: removed the tracing instance %s/%s, "
				"left by a killed run (pid %ld)\n", p, de->d_name, pid);
		tracefs_instance_free(inst);
	}
	closedir(d);
}

/* 1: a tracefs is at dir, 0: not, -1: cannot tell (permission). */
static int is_tracefs(const char *dir)
{
	char p[300];
	struct stat st;

	snprintf(p, sizeof(p), "%s/instances", dir);
	if (!stat(p, &st))
		return 1;
	return errno == EACCES || errno == EPERM ? -1 : 0;
}

static int find_tracefs(struct ea_session *s, struct ea_err *err)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	int r;

	for (size_t i = 0; i < 2; i++) {
		r = is_tracefs(dirs[i]);
		if (r < 0)
			return need_root(dirs[i], err);
		if (r > 0) {
			snprintf(s->tracing_dir, sizeof(s->tracing_dir), "%s", dirs[i]);
			return 0;
		}
	}
	/* Not mounted: mount it, as trace-cmd does. */
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL)) {
		snprintf(s->mounted, sizeof(s->mounted), "%s", dirs[0]);
		snprintf(s->tracing_dir, sizeof(s->tracing_dir), "%s", dirs[0]);
		return 0;
	}
	if (errno == EPERM || errno == EACCES)
		return need_root("mounting tracefs", err);
	if (!mount("nodev", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    is_tracefs(dirs[1]) > 0) {
		snprintf(s->mounted, sizeof(s->mounted), "/sys/kernel/debug");
		snprintf(s->tracing_dir, sizeof(s->tracing_dir), "%s", dirs[1]);
		return 0;
	}
	return ea_err_set(err, "tracefs is not available: mounting it on %s failed (%s); "
			  "is the kernel built with CONFIG_FTRACE?", dirs[0],
			  strerror(errno));
}

static int write_file(struct ea_session *s, const char *file, const char *val,
		      struct ea_err *err)
{
	if (tracefs_instance_file_write(s->inst, file, val) < 0)
		return ea_err_set(err, "%s/instances/%s/%s: cannot write '%s': %s",
				  s->tracing_dir, s->name, file, val,
				  strerror(errno ? errno : EIO));
	return 0;
}

int ea_session_open(struct ea_session *s, const char *prefix,
		    const struct ea_session_opts *o, struct ea_err *err)
{
	char buf[32];
	char p[512];
	size_t kb = o && o->buffer_kb ? o->buffer_kb : EA_REC_BUFFER_KB;

	memset(s, 0, sizeof(*s));
	if (find_tracefs(s, err))
		return -1;
	if (tracefs_set_tracing_dir(s->tracing_dir))
		return ea_err_set(err, "%s: libtracefs refused it as tracing directory",
				  s->tracing_dir);
	snprintf(p, sizeof(p), "%s/instances", s->tracing_dir);
	if (access(p, W_OK))
		return errno == EROFS ? read_only(s->tracing_dir, err) : need_root(p, err);
	remove_stale(s->tracing_dir);
	for (int i = 0; i < 100; i++) {
		if (i)
			snprintf(s->name, sizeof(s->name), "%s-%d-%d", prefix,
				 (int)getpid(), i);
		else
			snprintf(s->name, sizeof(s->name), "%s-%d", prefix,
				 (int)getpid());
		if (!tracefs_instance_exists(s->name))
			break;
	}
	if (tracefs_instance_exists(s->name))
		return ea_err_set(err, "%s/%s: instance exists", p, s->name);
	if (enlist(s))
		return ea_err_set(err, "too many tracing sessions");
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		int e = errno;

		delist(s);
		if (e == EROFS)
			return read_only(s->tracing_dir, err);
		if (e == EACCES || e == EPERM)
			return need_root(p, err);
		return ea_err_set(err, "%s/%s: cannot create the tracing instance: %s",
				  p, s->name, strerror(e ? e : EIO));
	}
	/* A new instance traces at once: off until ea_session_start(). */
	if (write_file(s, "tracing_on", "0", err))
		goto fail;
	snprintf(buf, sizeof(buf), "%zu", kb);
	if (write_file(s, "buffer_size_kb", buf, err))
		goto fail;
	if (o && o->clock && write_file(s, "trace_clock", o->clock, err))
		goto fail;
	for (size_t i = 0; i < NWANTED; i++) {
		if (!tracefs_event_file_exists(s->inst, wanted[i][0], wanted[i][1],
					       "enable"))
			continue;	/* this kernel lacks it */
		if (tracefs_event_enable(s->inst, wanted[i][0], wanted[i][1])) {
			ea_err_set(err, "%s/%s: cannot enable %s/%s: %s", p, s->name,
				   wanted[i][0], wanted[i][1], strerror(errno ? errno : EIO));
			goto fail;
		}
		s->events[s->nevents++] = wanted[i][1];
	}
	if (!s->nevents) {
		ea_err_set(err, "%s: this kernel has none of the sched and power events eatrace reads",
			   s->tracing_dir);
		goto fail;
	}
	if (write_file(s, "trace", "", err))	/* empty the buffer */
		goto fail;
	return 0;
fail:
	ea_session_close(s);
	return -1;
}

int ea_session_start(struct ea_session *s, struct ea_err *err)
{
	if (write_file(s, "tracing_on", "1", err))
		return -1;
	s->on = true;
	return 0;
}

void ea_session_stop(struct ea_session *s)
{
	if (s->inst && s->on) {
		tracefs_instance_file_write(s->inst, "tracing_on", "0");
		s->on = false;
	}
}

int ea_session_mark(struct ea_session *s, const char *line)
{
	char buf[EA_REC_MARKER_MAX + 2];
	int n = snprintf(buf, sizeof(buf), "%.*s\n", EA_REC_MARKER_MAX, line);

	if (!s->inst)
		return -1;
	return tracefs_instance_file_append(s->inst, "trace_marker", buf) == n ? 0 : -1;
}

uint64_t ea_session_overrun(struct ea_session *s, int cpu)
{
	char file[64];
	char *text, *p;
	uint64_t n = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = s->inst ? tracefs_instance_file_read(s->inst, file, NULL) : NULL;
	if (!text)
		return 0;
	p = strstr(text, "overrun:");
	if (p)
		n = strtoull(p + 8, NULL, 10);
	free(text);
	return n;
}

bool ea_session_exists(const struct ea_session *s)
{
	return s->inst && s->name[0] && tracefs_instance_exists(s->name);
}

void ea_session_close(struct ea_session *s)
{
	int saved = errno;

	delist(s);
	if (!s->inst)
		return;
	if (ea_session_exists(s)) {
		if (ea_instance_remove(s->inst) < 0)
			fprintf(stderr, "eatrace: %s/instances/%s: could not remove the instance: %s\n",
				s->tracing_dir, s->name, strerror(errno));
	}
	tracefs_instance_free(s->inst);
	s->inst = NULL;
	s->on = false;
	errno = saved;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Live tracing through libtracefs, for 'eatrace record' and 'eatrace top'
 * (docs/record.md).
 *
 * A session is one tracefs instance of our own, named PREFIX-PID, with only
 * the events eatrace reads enabled (those this kernel has). The top-level
 * buffer and other instances are never touched. Every open session is
 * registered; ea_session_close_all() (also run by atexit) stops and removes
 * them, so the instance and its events go away on normal exit, on error and
 * after SIGINT/SIGTERM (whose handlers only set a flag the main loops poll).
 *
 * System facts the trace lacks (CPU count, cpuidle state names, cpufreq
 * frequencies) are read from sysfs (struct ea_sysinfo) and written into the
 * trace as trace_marker lines "eatrace: key=value", which trace-cmd shows
 * as print events and eatrace's readers return as EA_EV_MARKER events.
 */
#ifndef EATRACE_RECORD_H
#define EATRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/event.h"

struct ea_json;
struct tracefs_instance;

#define EA_REC_BUFFER_KB 4096	/* default per-CPU ring buffer size */
#define EA_REC_MAX_EVENTS 8
#define EA_REC_MARKER_MAX 63	/* longest marker line kept (ea_event) */

struct ea_session {
	struct tracefs_instance *inst;
	char name[64];			/* instance name, PREFIX-PID */
	char tracing_dir[256];		/* where tracefs is mounted */
	char mounted[256];		/* a mount point we made, "" if none */
	const char *events[EA_REC_MAX_EVENTS];	/* "system/event" enabled */
	int nevents;
	bool on;			/* tracing_on was set by us */
};

struct ea_session_opts {
	size_t buffer_kb;		/* per CPU; 0: EA_REC_BUFFER_KB */
	const char *clock;		/* trace_clock, NULL: the default */
};

/*
 * Create and configure a session (tracing still off). Mounts tracefs when
 * it is not mounted (/sys/kernel/tracing, else debugfs's tracing/).
 * Instances named PREFIX-PID (eatrace-record, eatrace-top) whose PID no
 * longer runs (a killed run's) are stopped and removed first, with a line
 * on stderr. Returns 0, or -1 with err one line ("needs root ..." when not
 * root, "read-only" for a read-only tracefs).
 */
int ea_session_open(struct ea_session *s, const char *prefix,
		    const struct ea_session_opts *o, struct ea_err *err);
int ea_session_start(struct ea_session *s, struct ea_err *err);
void ea_session_stop(struct ea_session *s);
/* Write one trace_marker line (no newline needed). 0 or -1 (errno). */
int ea_session_mark(struct ea_session *s, const char *line);
/* Events overwritten on cpu since the session started (ring full). */
uint64_t ea_session_overrun(struct ea_session *s, int cpu);
/* Stop, disable the events, remove the instance; idempotent. */
void ea_session_close(struct ea_session *s);
void ea_session_close_all(void);
/*
 * Stop an instance, disable its events and remove it: 0; 1 when it was
 * gone already (ENOENT: another run removed it first, as two runs starting
 * at once both sweep a killed run's instance); or -1 with errno (the
 * instance is left).
 */
int ea_instance_remove(struct tracefs_instance *inst);
/* Whether the instance still exists (an external tool may remove it). */
bool ea_session_exists(const struct ea_session *s);
/* Whether no process pid runs any more (a killed run's leftovers). */
bool ea_pid_gone(int pid);

/*
 * SIGINT, SIGTERM and SIGHUP set a flag (no SA_RESTART, so sleeps return
 * early); SIGCHLD only interrupts sleeps; SIGPIPE is ignored.
 */
void ea_signals_install(void);
/* The stopping signal received so far, 0 if none. */
int ea_signal_pending(void);
/* Restore the default dispositions (in a forked child before exec). */
void ea_signals_default(void);

/* Sleep up to ns, returning early on any handled signal. */
void ea_sleep_ns(uint64_t ns);
uint64_t ea_mono_ns(void);

/* ---- what the trace lacks: read from sysfs ---- */

#define EA_SYS_NAME_LEN 32

struct ea_sys_cpu {
	int nidle;
	char (*idle)[EA_SYS_NAME_LEN];	/* cpuidle state names, by index */
	int policy;			/* cpufreq policy number, -1 none */
	int nfreqs;
	uint32_t *freqs_khz;		/* scaling_available_frequencies */
};

struct ea_sysinfo {
	int ncpus;			/* possible CPUs: highest id + 1 */
	int nonline;
	char cpuidle_driver[EA_SYS_NAME_LEN];	/* "" when none */
	char cpufreq_driver[EA_SYS_NAME_LEN];	/* "" when none */
	char kernel[64];		/* uname release */
	struct ea_sys_cpu *cpus;	/* ncpus entries */
};

/* root: "/" normally, or a directory holding a fake sys/ tree (tests). */
int ea_sysinfo_read(struct ea_sysinfo *si, const char *root,
		    struct ea_err *err);
void ea_sysinfo_free(struct ea_sysinfo *si);
/*
 * The marker lines describing si, each "eatrace: key=value" and at most
 * EA_REC_MARKER_MAX characters (long lists are split, see docs/record.md).
 * emit returns 0 to go on. Returns 0, or the first nonzero emit result.
 */
int ea_sysinfo_markers(const struct ea_sysinfo *si,
		       int (*emit)(void *ctx, const char *line), void *ctx);
/* Members "ncpus", "cpuidle_driver", ..., "cpus": [...] into an object. */
void ea_sysinfo_json(const struct ea_sysinfo *si, struct ea_json *j);

/* ---- live events from a session's buffers ---- */

struct ea_live;

int ea_live_open(struct ea_live **l, struct ea_session *s, struct ea_err *err);
/*
 * Consume every event now in the buffers, calling cb for each decoded one
 * (per CPU in order; not merged across CPUs). Events eatrace does not use
 * are skipped; a gap in a CPU's data becomes an EA_EV_LOST event. Returns
 * the number of events passed to cb, or -1 with err.
 */
long ea_live_read(struct ea_live *l,
		  void (*cb)(void *ctx, const struct ea_event *ev), void *ctx,
		  struct ea_err *err);
void ea_live_close(struct ea_live *l);

/* ---- writing trace.dat ---- */

/*
 * A session's per-CPU ring buffers (CPUs 0..ncpus-1) copied raw to files
 * in a directory .eatrace-rec-PID-XXXXXX in dir (NULL: $TMPDIR or /tmp),
 * drained while the recording runs so that the ring buffer need not hold
 * all of it; then joined to a header of this system's event formats by
 * 'trace-cmd restore' (see src/record/extract.c for why not 'trace-cmd
 * extract') and handed to an output file. Such directories left in dir by
 * a killed run (PID gone) are removed by ea_raw_open().
 */
struct ea_rawdump;
struct ea_out;

int ea_raw_open(struct ea_rawdump **d, struct ea_session *s, int ncpus,
		const char *dir, struct ea_err *err);
/* Copy what the buffers hold now. 0 or -1 + err. */
int ea_raw_drain(struct ea_rawdump *d, struct ea_err *err);
uint64_t ea_raw_bytes(const struct ea_rawdump *d);
/* The most bytes one CPU's buffer gave at the last drain. */
uint64_t ea_raw_last_max(const struct ea_rawdump *d);
/*
 * Tracing stopped: last drain, the trace.dat written into o (not yet
 * committed), its size in *bytes. 0 or -1 + err.
 */
int ea_raw_finish(struct ea_rawdump *d, struct ea_out *o, uint64_t *bytes,
		  struct ea_err *err);
/* Close and remove the temporaries (after finish or instead of it). */
void ea_raw_free(struct ea_rawdump *d);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace record: trace what eatrace needs into a trace.dat, through our
 * own tracefs instance (docs/record.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "eatrace/input.h"
#include "eatrace/output.h"
#include "eatrace/record.h"

static const char usage_text[] =
	"usage: eatrace record -o OUT.dat [OPTIONS] [-- COMMAND [ARG...]]\n"
	"\n"
	"Record the sched and power events eatrace reads (those this kernel\n"
	"has) in a tracefs instance of its own, while COMMAND runs, for a\n"
	"duration, or until Ctrl-C (SIGINT) or SIGTERM; then write OUT.dat\n"
	"(trace.dat, read by eatrace and trace-cmd) and OUT.dat.json (what the\n"
	"trace lacks: CPU count, cpuidle state names, cpufreq frequencies; the\n"
	"same facts are also in the trace as 'eatrace: key=value' markers).\n"
	"Other tracing (the top-level buffer, other instances) is not touched;\n"
	"the instance is removed on exit, error and signals.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE   the trace.dat to write (required; a file is\n"
	"                      replaced only when the recording succeeds)\n"
	"  -d, --duration S    stop after S seconds (COMMAND, if still running,\n"
	"                      gets SIGTERM, then SIGKILL 2 s later)\n"
	"  -b, --buffer-kb N   per-CPU ring buffer in KB (default 4096), emptied\n"
	"                      into temporary files every 0.1 s; if it still\n"
	"                      fills, the oldest events are overwritten (a\n"
	"                      warning says so)\n"
	"  -q, --quiet         no summary on stderr\n"
	"  -h, --help          this text\n"
	"\n"
	"Needs root. Writing trace.dat uses 'trace-cmd restore' (found in PATH,\n"
	"or $EATRACE_TRACE_CMD). OUT.dat may be a FIFO or /dev/fd/N (written in\n"
	"place, no sidecar then). An instance or temporary directory a killed\n"
	"run left behind is removed by the next run (with a line on stderr).\n"
	"Exit status: 0 ok; 1 COMMAND failed (exited nonzero or was killed by\n"
	"a signal eatrace did not send): the trace is kept; 2 usage or tracing\n"
	"error (nothing written).\n";

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'd' },
	{ "buffer-kb", required_argument, NULL, 'b' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct rec {
	const char *out;
	uint64_t duration_ns;
	size_t buffer_kb;
	bool quiet;
	char **cmd;
	int ncmd;
	/* results */
	pid_t child;
	int status;		/* wait status when the command ended */
	bool child_done;
	const char *stopped_by;
	uint64_t t0, t1;
	struct ea_rawdump *raw;		/* drained while waiting */
	struct ea_err *err;
	bool failed;			/* draining failed: err says why */
};

static int emit_marker(void *ctx, const char *line)
{
	return ea_session_mark(ctx, line);
}

/* fork + exec; an exec failure comes back through a close-on-exec pipe. */
static int spawn(struct rec *r, struct ea_err *err)
{
	int pfd[2], e = 0;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC))
		return ea_err_set(err, "pipe: %s", strerror(errno));
	r->child = fork();
	if (r->child < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return ea_err_set(err, "fork: %s", strerror(errno));
	}
	if (!r->child) {
		pid_t parent = getppid();

		ea_signals_default();
		close(pfd[0]);
		/* killed with us: no command left running after a SIGKILL */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(127);
		execvp(r->cmd[0], r->cmd);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	do
		n = read(pfd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == sizeof(e)) {
		while (waitpid(r->child, NULL, 0) < 0 && errno == EINTR)
			;
		r->child = 0;
		return ea_err_set(err, "cannot run '%s': %s", r->cmd[0], strerror(e));
	}
	return 0;
}

/* Stop the command: sig, then SIGKILL if it is still there after 2 s. */
static void end_child(struct rec *r, int sig)
{
	uint64_t deadline = ea_mono_ns() + 2000000000ull;
	bool killed = false;

	if (r->child <= 0 || r->child_done)
		return;
	kill(r->child, sig);
	for (;;) {
		pid_t p = waitpid(r->child, &r->status, WNOHANG);

		if (p == r->child || (p < 0 && errno != EINTR))
			break;
		if (!killed && ea_mono_ns() >= deadline) {
			kill(r->child, SIGKILL);
			killed = true;
		}
		{
			struct timespec ts = { 0, 20000000 };

			nanosleep(&ts, NULL);
		}
	}
	r->child_done = true;
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	}
	return "signal";
}

static void wait_loop(struct rec *r)
{
	for (;;) {
		uint64_t now, chunk = 100000000ull;
		int sig = ea_signal_pending();

		if (ea_raw_drain(r->raw, r->err)) {
			r->failed = true;
			r->stopped_by = "error";
			end_child(r, SIGTERM);
			break;
		}
		/* a buffer a quarter full since the last drain: drain sooner */
		if (ea_raw_last_max(r->raw) * 4 >
		    (uint64_t)(r->buffer_kb ? r->buffer_kb : EA_REC_BUFFER_KB) * 1024)
			chunk = 10000000ull;
		if (sig) {
			r->stopped_by = sig_name(sig);
			end_child(r, sig);
			break;
		}
		if (r->child > 0) {
			pid_t p = waitpid(r->child, &r->status, WNOHANG);

			if (p == r->child) {
				r->child_done = true;
				r->stopped_by = "command";
				break;
			}
		}
		now = ea_mono_ns();
		if (r->duration_ns) {
			if (now - r->t0 >= r->duration_ns) {
				r->stopped_by = "duration";
				end_child(r, SIGTERM);
				break;
			}
			if (r->t0 + r->duration_ns - now < chunk)
				chunk = r->t0 + r->duration_ns - now;
		}
		ea_sleep_ns(chunk);
	}
}

/* Events eatrace reads from the trace just written (for the summary), or
 * -1 when it cannot be read back. */
static long long count_events(const char *path)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	long long n = 0;
	int rc;

	if (ea_input_open(&in, path, &err))
		return -1;
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		n++;
	ea_input_close(in);
	return rc < 0 ? -1 : n;
}

static int write_sidecar(const struct rec *r, const struct ea_session *s,
			 const struct ea_sysinfo *si, const uint64_t *overrun,
			 struct ea_out *o, struct ea_err *err)
{
	struct ea_json j;

	ea_json_begin(&j, o->f);
	ea_json_obj(&j, NULL);
	ea_json_int(&j, "eatrace_record", 1);
	ea_json_str(&j, "trace", r->out);
	ea_json_str(&j, "instance", s->name);
	ea_json_str(&j, "tracing_dir", s->tracing_dir);
	ea_json_uint(&j, "buffer_kb", r->buffer_kb ? r->buffer_kb : EA_REC_BUFFER_KB);
	ea_json_arr(&j, "events");
	for (int i = 0; i < s->nevents; i++)
		ea_json_str(&j, NULL, s->events[i]);
	ea_json_arr_end(&j);
	ea_json_arr(&j, "command");
	for (int i = 0; i < r->ncmd; i++)
		ea_json_str(&j, NULL, r->cmd[i]);
	ea_json_arr_end(&j);
	ea_json_int(&j, "command_pid", r->ncmd ? r->child : -1);
	if (r->child_done && WIFEXITED(r->status))
		ea_json_int(&j, "command_exit", WEXITSTATUS(r->status));
	else if (r->child_done && WIFSIGNALED(r->status))
		ea_json_int(&j, "command_exit", 128 + WTERMSIG(r->status));
	else
		ea_json_raw(&j, "command_exit", "null");
	ea_json_str(&j, "stopped_by", r->stopped_by);
	ea_json_ns_as_s(&j, "duration_s", r->t1 - r->t0);
	ea_json_arr(&j, "overrun");
	for (int i = 0; i < si->ncpus; i++)
		ea_json_uint(&j, NULL, overrun[i]);
	ea_json_arr_end(&j);
	ea_json_obj(&j, "system");
	ea_sysinfo_json(si, &j);
	ea_json_obj_end(&j);
	ea_json_obj_end(&j);
	ea_json_end(&j);
	return ea_out_commit(o, err);
}

/* The command ended by itself with a nonzero status or a signal. */
static bool command_failed(const struct rec *r)
{
	if (!r->child_done || strcmp(r->stopped_by, "command"))
		return false;
	return WIFSIGNALED(r->status) ||
	       (WIFEXITED(r->status) && WEXITSTATUS(r->status));
}

static int parse(struct rec *r, int argc, char **argv, bool *help)
{
	char *end;
	double v;
	int c;

	optind = 1;
	opterr = 0;
	*help = false;
	while ((c = getopt_long(argc, argv, "+o:d:b:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->out = optarg;
			break;
		case 'd':
			v = strtod(optarg, &end);
			if (*end || !(v > 0) || v > 1e7)
				return ea_die("--duration: '%s' is not a duration in seconds", optarg);
			r->duration_ns = (uint64_t)(v * 1e9 + 0.5);
			break;
		case 'b': {
			unsigned long kb = strtoul(optarg, &end, 10);

			if (*end || kb < 4 || kb > (1ul << 22))
				return ea_die("--buffer-kb: '%s' is not a size in KB (4 to 4194304)", optarg);
			r->buffer_kb = kb;
			break;
		}
		case 'q':
			r->quiet = true;
			break;
		case 'h':
			*help = true;
			return 0;
		default:
			if (optopt && optopt < 256)
				return ea_die("record: unknown option or missing value '-%c' (see --help)", optopt);
			return ea_die("record: unknown or incomplete option '%s' (see --help)",
				      argv[optind - 1]);
		}
	}
	r->cmd = argv + optind;
	r->ncmd = argc - optind;
	if (!r->out)
		return ea_die("record: give the trace to write with -o OUT.dat");
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct rec r = { 0 };
	struct ea_session_opts so = { 0 };
	struct ea_session s;
	struct ea_sysinfo si;
	struct ea_out tout = { 0 }, jout = { 0 };
	char dirbuf[4096], pending[4096] = "", *jpath = NULL;
	struct ea_err err;
	uint64_t *overrun = NULL, lost = 0, bytes = 0;
	char line[EA_REC_MARKER_MAX + 1];
	bool help;
	int rc = EXIT_ERROR;

	if (parse(&r, argc, argv, &help))
		return EXIT_ERROR;
	if (help) {
		fputs(usage_text, stdout);
		return 0;
	}
	/* EATRACE_SYSFS_ROOT: a fake sys/ tree, for tests of the markers */
	if (ea_sysinfo_read(&si, getenv("EATRACE_SYSFS_ROOT"), &err))
		return ea_die("%s", err.msg);
	ea_signals_install();
	so.buffer_kb = r.buffer_kb;
	if (ea_session_open(&s, "eatrace-record", &so, &err)) {
		ea_sysinfo_free(&si);
		return ea_die("record: %s", err.msg);
	}
	/*
	 * Fail before tracing when an output cannot be written. The sidecar
	 * goes beside a trace written to a file; not beside a device, FIFO or
	 * /dev/fd/N (the trace's markers hold the same facts).
	 */
	if (ea_out_open(&tout, r.out, &err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	if (ea_out_dir_of(&tout, dirbuf, sizeof(dirbuf))) {
		if (asprintf(&jpath, "%s.json", r.out) < 0) {
			jpath = NULL;
			ea_die("out of memory");
			goto out;
		}
		if (ea_out_open(&jout, jpath, &err)) {
			ea_die("record: %s", err.msg);
			goto out;
		}
	}
	if (ea_raw_open(&r.raw, &s, si.ncpus, ea_out_dir_of(&tout, dirbuf, sizeof(dirbuf)),
			&err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	r.err = &err;
	if (ea_session_start(&s, &err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	if (ea_sysinfo_markers(&si, emit_marker, &s)) {
		ea_die("record: %s/instances/%s/trace_marker: cannot write: %s",
		       s.tracing_dir, s.name, strerror(errno));
		goto out;
	}
	r.t0 = ea_mono_ns();
	if (r.ncmd && spawn(&r, &err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	wait_loop(&r);
	r.t1 = ea_mono_ns();
	/* again at the end, in case the ring buffer overwrote the first ones */
	ea_sysinfo_markers(&si, emit_marker, &s);
	snprintf(line, sizeof(line), "eatrace: end=%s", r.stopped_by);
	ea_session_mark(&s, line);
	ea_session_stop(&s);
	if (r.failed) {
		ea_die("record: %s", err.msg);
		goto out;
	}

	overrun = calloc(si.ncpus, sizeof(*overrun));
	if (!overrun) {
		ea_die("out of memory");
		goto out;
	}
	for (int i = 0; i < si.ncpus; i++)
		lost += overrun[i] = ea_session_overrun(&s, i);
	if (lost)
		fprintf(stderr, "eatrace: record: warning: %llu events were lost "
			"(a ring buffer filled between reads; the trace marks where); "
			"use a larger --buffer-kb\n", (unsigned long long)lost);
	if (ea_raw_finish(r.raw, &tout, &bytes, &err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	/* the trace is renamed into place at the end of the run: the summary
	 * counts what its temporary holds (nothing to read back when written
	 * in place, to a FIFO or a device); ea_out_commit() forgets the name */
	if (ea_out_pending_path(&tout))
		snprintf(pending, sizeof(pending), "%s", ea_out_pending_path(&tout));
	if (ea_out_commit(&tout, &err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	if (jpath && write_sidecar(&r, &s, &si, overrun, &jout, &err)) {
		ea_die("record: %s", err.msg);
		goto out;
	}
	if (!r.quiet) {
		long long nev = *pending ? count_events(pending) : -1;

		fprintf(stderr, "eatrace: record: %s: %.3f s, %lld KB, ",
			r.out, (double)(r.t1 - r.t0) / 1e9, (long long)(bytes / 1024));
		if (nev >= 0)
			fprintf(stderr, "%lld events, ", nev);
		fprintf(stderr, "%llu lost to overruns, stopped by %s",
			(unsigned long long)lost, r.stopped_by);
		if (r.child_done && WIFEXITED(r.status) && WEXITSTATUS(r.status))
			fprintf(stderr, " (command exit status %d)", WEXITSTATUS(r.status));
		else if (r.child_done && WIFSIGNALED(r.status))
			fprintf(stderr, " (command killed by signal %d)", WTERMSIG(r.status));
		fputc('\n', stderr);
	}
	rc = command_failed(&r) ? EXIT_GATE : 0;
	if (rc)
		ea_msg("record: the command failed; %s is kept, exit status 1",
			r.out);
out:
	if (rc && r.child > 0 && !r.child_done)
		end_child(&r, SIGTERM);
	if (rc == EXIT_ERROR) {
		ea_out_abort(&tout);
		ea_out_abort(&jout);
	}
	free(jpath);
	ea_raw_free(r.raw);
	ea_session_close(&s);
	ea_sysinfo_free(&si);
	free(overrun);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace dump TRACE: the normalised event stream, one event per line, in a
 * stable format. Used to check that every reader yields the same events for
 * the same recording, and to see what eatrace makes of a file.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/filter-opts.h"
#include "cli/options.h"
#include "eatrace/escape.h"
#include "eatrace/input.h"

static const char usage_text[] =
	"usage: eatrace dump [OPTIONS] TRACE\n\n"
	"Print the events eatrace uses, normalised, one per line:\n"
	"  TS_NS CPU CUR_PID EVENT key=value...\n"
	"Timestamps are nanoseconds; prev_state is R (runnable), S (blocked)\n"
	"or X (exited), decoded from the trace's own format. TRACE: trace.dat,\n"
	"ftrace text, systrace or Perfetto (gzip or zstd too), '-' for standard\n"
	"input.\n"
	"\n"
	"options:\n"
	"      --cpus LIST    only events recorded on these CPUs (as 0-1,4) or\n"
	"                     about them (cpu_id=, cpu=, target_cpu=,\n"
	"                     orig_cpu=, dest_cpu=)\n"
	"      --task PID|COMM  only events about these tasks: switches in and\n"
	"                     out, wakeups, migrations, sched_load_se (by PID,\n"
	"                     or name: an fnmatch pattern, 'kworker*');\n"
	"                     repeatable; with --cpus, events both select\n"
	"  -q, --quiet        no warning for a CPU or task the trace lacks\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0 ok, 2 usage or input error.\n";

static const char prev_state_letter[] = { 'R', 'S', 'X' };

/* Names from the trace are shown with control bytes and invalid UTF-8
 * escaped (\x1b), never raw (include/eatrace/escape.h). */
void ea_event_print(FILE *f, const struct ea_event *ev)
{
	char c1[4 * EA_COMM_LEN + 1], c2[4 * EA_COMM_LEN + 1];

	fprintf(f, "%" PRIu64 " %d %d %s", ev->ts, ev->cpu, ev->cur_pid,
		ea_event_type_name(ev->type));
	switch (ev->type) {
	case EA_EV_SWITCH:
		fprintf(f, " prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%c next_comm=%s next_pid=%d next_prio=%d",
			ea_esc_term_buf(c1, sizeof(c1), ev->sw.prev_comm),
			ev->sw.prev_pid, ev->sw.prev_prio,
			prev_state_letter[ev->sw.prev_state % 3],
			ea_esc_term_buf(c2, sizeof(c2), ev->sw.next_comm),
			ev->sw.next_pid, ev->sw.next_prio);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		fprintf(f, " comm=%s pid=%d prio=%d target_cpu=%d",
			ea_esc_term_buf(c1, sizeof(c1), ev->wake.comm),
			ev->wake.pid, ev->wake.prio, ev->wake.target_cpu);
		break;
	case EA_EV_MIGRATE:
		fprintf(f, " comm=%s pid=%d orig_cpu=%d dest_cpu=%d",
			ea_esc_term_buf(c1, sizeof(c1), ev->migrate.comm),
			ev->migrate.pid, ev->migrate.orig_cpu,
			ev->migrate.dest_cpu);
		break;
	case EA_EV_FREQ:
		fprintf(f, " state=%u cpu_id=%d", ev->freq.freq_khz, ev->freq.cpu);
		break;
	case EA_EV_IDLE:
		fprintf(f, " state=%d cpu_id=%d", ev->idle.state, ev->idle.cpu);
		break;
	case EA_EV_LOST:
		fprintf(f, " count=%" PRIu64, ev->lost.count);
		break;
	case EA_EV_UTIL_CFS:
	case EA_EV_UTIL_SE:
		fprintf(f, " cpu=%d pid=%d util=%u", ev->util.cpu, ev->util.pid,
			ev->util.util);
		break;
	case EA_EV_MARKER:
		fputs(" text=", f);
		ea_esc_term(f, ev->marker.text);
		break;
	case EA_EV_SUSPEND:
		fprintf(f, " action=machine_suspend val=%d %s", ev->suspend.val,
			ev->suspend.begin ? "begin" : "end");
		break;
	case EA_EV_HOTPLUG:
		fprintf(f, " %s cpu=%d target=%d step=%d",
			ev->hotplug.enter ? "enter" : "exit", ev->hotplug.cpu,
			ev->hotplug.target, ev->hotplug.step);
		break;
	}
	fputc('\n', f);
}

/* What --cpus and --task keep of the events (dump_keep()). */
struct dump_sel {
	struct ea_filter f;
	bool *seen;	/* f.cpus[c] with an event about c: seen[c] */
	/* pids a --task COMM selected so far, ascending: sched_load_se has
	 * no name */
	int32_t *pids;
	size_t npids, cap;
};

static bool seen_pid(const struct dump_sel *d, int32_t pid, size_t *at)
{
	size_t lo = 0, hi = d->npids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < d->npids && d->pids[lo] == pid;
}

/* Whether the task is selected; one selected by name is remembered. */
static bool task_kept(struct dump_sel *d, int32_t pid, const char *comm)
{
	size_t at;

	if (!ea_filter_task_hit(&d->f, pid, comm))
		return false;
	if (seen_pid(d, pid, &at))
		return true;
	if (d->npids == d->cap) {
		size_t n = d->cap ? 2 * d->cap : 64;
		int32_t *p = realloc(d->pids, n * sizeof(*p));

		if (!p)
			return true;	/* then only remembered less */
		d->pids = p;
		d->cap = n;
	}
	memmove(d->pids + at + 1, d->pids + at, (d->npids - at) * sizeof(*d->pids));
	d->pids[at] = pid;
	d->npids++;
	return true;
}

static bool about_cpu(struct dump_sel *d, int cpu)
{
	if (!ea_filter_cpu(&d->f, cpu))
		return false;
	if (d->f.cpus)
		d->seen[cpu] = true;
	return true;
}

/* An event is about its own CPU and the CPUs its fields name. */
static bool cpu_kept(struct dump_sel *d, const struct ea_event *ev)
{
	bool keep = about_cpu(d, ev->cpu);

	switch (ev->type) {
	case EA_EV_FREQ:
		keep |= about_cpu(d, ev->freq.cpu);
		break;
	case EA_EV_IDLE:
		keep |= about_cpu(d, ev->idle.cpu);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		keep |= about_cpu(d, ev->wake.target_cpu);
		break;
	case EA_EV_MIGRATE:
		keep |= about_cpu(d, ev->migrate.orig_cpu);
		keep |= about_cpu(d, ev->migrate.dest_cpu);
		break;
	case EA_EV_UTIL_CFS:
	case EA_EV_UTIL_SE:
		keep |= about_cpu(d, ev->util.cpu);
		break;
	case EA_EV_HOTPLUG:
		keep |= about_cpu(d, ev->hotplug.cpu);
		break;
	}
	return keep;
}

/* Events about a task: switches in and out, wakeups, migrations, its
 * sched_load_se; the others are about no task. */
static bool dump_keep(struct dump_sel *d, const struct ea_event *ev)
{
	bool cpu = cpu_kept(d, ev);

	if (!d->f.ntasks)
		return cpu;
	switch (ev->type) {
	case EA_EV_SWITCH: {
		/* both sides: each selector that matches is marked */
		bool prev = task_kept(d, ev->sw.prev_pid, ev->sw.prev_comm);
		bool next = task_kept(d, ev->sw.next_pid, ev->sw.next_comm);

		return (prev || next) && cpu;
	}
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return task_kept(d, ev->wake.pid, ev->wake.comm) && cpu;
	case EA_EV_MIGRATE:
		return task_kept(d, ev->migrate.pid, ev->migrate.comm) && cpu;
	case EA_EV_UTIL_SE: {
		size_t at;

		return (seen_pid(d, ev->util.pid, &at) ||
			ea_filter_task(&d->f, ev->util.pid, NULL)) && cpu;
	}
	default:
		return false;
	}
}

static bool dump_has_cpu(const void *ctx, int cpu)
{
	return ((const struct dump_sel *)ctx)->seen[cpu];
}

static int dump(struct dump_sel *d, const char *path, bool quiet)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int rc;

	if (d->f.cpus && !(d->seen = calloc((size_t)d->f.ncpus, sizeof(bool))))
		return ea_die("out of memory");
	if (ea_input_open(&in, path, &err))
		return ea_die("%s", err.msg);
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		if (dump_keep(d, &ev))
			ea_event_print(stdout, &ev);
	ea_input_close(in);
	if (rc < 0)
		return ea_die("%s", err.msg);
	ea_cli_filter_warn(&d->f, ea_trace_label(path), quiet, dump_has_cpu, d);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option lo[] = {
		EA_FILTER_LONG_OPTS,
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dump_sel d = { 0 };
	bool help = false, quiet = false;
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (!rc && (c = getopt_long(argc, argv, ":qh", lo, NULL)) != -1) {
		if (c == 'h')
			help = true;
		else if (c == 'q')
			quiet = true;
		else if (c == ':')
			rc = ea_die("dump: option %s needs a value", argv[optind - 1]);
		else if (c == '?')
			rc = ea_die("dump: unknown option '%s' (see 'eatrace dump --help')",
				    argv[optind - 1]);
		else if (ea_cli_filter_opt(&d.f, c, optarg))
			rc = EXIT_ERROR;
	}
	if (!rc && help)
		fputs(usage_text, stdout);
	else if (!rc && argc - optind != 1)
		rc = ea_die("dump: expected one TRACE (see 'eatrace dump --help')");
	else if (!rc)
		rc = dump(&d, argv[optind], quiet);
	ea_filter_free(&d.f);
	free(d.seen);
	free(d.pids);
	return rc;
}

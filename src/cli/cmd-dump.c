// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace dump TRACE: the normalised event stream, one event per line, in a
 * stable format. Used to check that every reader yields the same events for
 * the same recording, and to see what eatrace makes of a file.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "eatrace/escape.h"
#include "eatrace/input.h"

static const char usage_text[] =
	"usage: eatrace dump TRACE\n\n"
	"Print the events eatrace uses, normalised, one per line:\n"
	"  TS_NS CPU CUR_PID EVENT key=value...\n"
	"Timestamps are nanoseconds; prev_state is R (runnable), S (blocked)\n"
	"or X (exited), decoded from the trace's own format. TRACE: trace.dat,\n"
	"ftrace text, systrace or Perfetto (gzip or zstd too), '-' for standard\n"
	"input. Exit status: 0 ok, 2 usage or input error.\n";

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

int cmd_dump(int argc, char **argv)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return 0;
		}
	/* one line, as every command says it ('-' is standard input) */
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return ea_die("dump: unknown option '%s': dump takes one TRACE and no options (see 'eatrace dump --help')",
				      argv[i]);
	if (argc != 2)
		return ea_die("dump: expected one TRACE (see 'eatrace dump --help')");
	if (ea_input_open(&in, argv[1], &err))
		return ea_die("%s", err.msg);
	while ((rc = ea_input_next(in, &ev, &err)) > 0)
		ea_event_print(stdout, &ev);
	ea_input_close(in);
	if (rc < 0)
		return ea_die("%s", err.msg);
	return 0;
}

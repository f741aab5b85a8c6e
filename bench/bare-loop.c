// SPDX-License-Identifier: GPL-2.0-only
/*
 * The baseline eatrace is measured against: the cheapest complete pass
 * over a trace.dat that libtracecmd allows. Open the file, pick the buffer
 * holding the data (the top level, or the first instance with records, as
 * `trace-cmd extract -B` leaves it), read every record in timestamp order
 * with tracecmd_read_next_data(), read one field (common_pid, offset
 * resolved once) and free the record.
 *
 *   bare-loop TRACE.dat
 *
 * Prints "records: N" and "checksum: X" (so the loop cannot be optimised
 * away); peak RSS and time are measured from outside by bench/run.sh.
 * With BARE_STATUS=1 in the environment it also prints its memory lines
 * of /proc/self/status before closing the file (what part of the peak
 * RSS is file pages libtracecmd maps, what part is heap).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

/* Exported by libtracecmd 3.1, declared only in trace-cmd-private.h. */
struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle,
					   int *rec_cpu);
struct tep_record *tracecmd_peek_next_data(struct tracecmd_input *handle,
					   int *rec_cpu);

int main(int argc, char **argv)
{
	struct tracecmd_input *top, *h;
	struct tep_format_field *pid_field = NULL;
	struct tep_event **events;
	struct tep_record *rec;
	struct tep_handle *tep;
	unsigned long long n = 0, sum = 0, v;
	int cpu, i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE.dat\n", argv[0]);
		return 2;
	}
	tep_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	top = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS |
				     TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!top) {
		fprintf(stderr, "%s: cannot open\n", argv[1]);
		return 1;
	}
	h = top;
	if (!tracecmd_peek_next_data(top, &cpu)) {
		for (i = 0; i < tracecmd_buffer_instances(top); i++) {
			struct tracecmd_input *ih =
				tracecmd_buffer_instance_handle(top, i);

			if (ih && tracecmd_peek_next_data(ih, &cpu)) {
				h = ih;
				break;
			}
			if (ih)
				tracecmd_close(ih);
		}
	}
	tep = tracecmd_get_tep(h);
	events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	if (events && events[0])
		pid_field = tep_find_common_field(events[0], "common_pid");
	if (!pid_field) {
		fprintf(stderr, "%s: no common_pid field\n", argv[1]);
		return 1;
	}
	while ((rec = tracecmd_read_next_data(h, &cpu))) {
		if (!tep_read_number_field(pid_field, rec->data, &v))
			sum += v;
		n++;
		tracecmd_free_record(rec);
	}
	printf("records: %llu\nchecksum: %llu\n", n, sum);
	if (getenv("BARE_STATUS")) {
		FILE *f = fopen("/proc/self/status", "r");
		char line[256];

		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "Vm", 2) || !strncmp(line, "Rss", 3))
				fputs(line, stdout);
		if (f)
			fclose(f);
	}
	if (h != top)
		tracecmd_close(h);
	tracecmd_close(top);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace text: /sys/kernel/tracing/trace (flags of 4 or 5 characters or
 * none), `trace-cmd report` in its plugin, -R and -N forms (with or without
 * the "version = " and "cpus=N" header), and idlestat's hand-written
 * experiment files. Recognised by content: an event line or a
 * "# tracer:" header in the first bytes. The work is in text-events.c,
 * shared with the systrace reader; here read a block at a time, on a
 * thread of its own from two jobs (ea_text_use_blocks()).
 */
#include "input/reader.h"
#include "input/text-events.h"

static int text_probe(const unsigned char *head, size_t n)
{
	struct ea_text_probe p;

	ea_text_probe(head, n, &p);
	return !p.html && !p.tgid && (p.events || p.ftrace_header);
}

/* The stream a block at a time (text-events.h), on a thread of its own
 * from two jobs. */
static int text_open(void **priv, const char *path,
		     struct ea_input_info *info, struct ea_err *err)
{
	if (ea_text_open(priv, path, info, err))
		return -1;
	ea_text_use_blocks(*priv, info);
	return 0;
}

const struct ea_reader_ops ea_reader_text = {
	.name = "text",
	.probe = text_probe,
	.open = text_open,
	.next = ea_text_next,
	.where = ea_text_where,
	.close = ea_text_close,
	.first_event = ea_text_first_event,
	.checked = ea_text_checked,
	.next_block = ea_text_next_block,
	.block_at = ea_text_block_at,
	.threads = ea_text_threads,
	.reads_compressed = true,
};

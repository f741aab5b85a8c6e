// SPDX-License-Identifier: GPL-2.0-only
/*
 * Android systrace: text with a TGID column ("comm-pid ( tgid) [cpu] ...",
 * tgid "(-----)" when unknown) and the HTML that systrace/catapult writes,
 * whose ftrace text sits in <script class="trace-data"
 * type="application/text"> blocks (other such blocks hold JSON and are
 * skipped). HTML is streamed line by line like any text trace; the line
 * parser and the stream are shared with the ftrace-text reader
 * (text-line.c, text-events.c).
 */
#include "input/reader.h"
#include "input/text-events.h"

static int systrace_probe(const unsigned char *head, size_t n)
{
	struct ea_text_probe p;

	ea_text_probe(head, n, &p);
	return p.html || (p.tgid && (p.events || p.ftrace_header));
}

const struct ea_reader_ops ea_reader_systrace = {
	.name = "systrace",
	.probe = systrace_probe,
	.open = ea_text_open,
	.next = ea_text_next,
	.where = ea_text_where,
	.close = ea_text_close,
	.reads_compressed = true,
};

// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the first bytes of a text file look like (struct ea_text_probe):
 * HTML (systrace), event lines, an ftrace, trace-cmd report or idlestat
 * header, a TGID column. The text and systrace readers' probes, and
 * text-events.c's choice of layout, ask it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <string.h>

#include "input/text-events.h"
#include "input/text-lex.h"
#include "input/text-line.h"

static bool starts_nocase(const unsigned char *p, const unsigned char *e,
			  const char *lit)
{
	for (; *lit; lit++, p++) {
		unsigned char c;

		if (p >= e)
			return false;
		c = *p;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (c != (unsigned char)*lit)
			return false;
	}
	return true;
}

/* One line of idlestat's topology header: "clusterA:", "\t\tcpuN". */
static void topo_line(struct ea_text_probe *p, const char *l, size_t len)
{
	size_t i = 0;
	int32_t c;

	if (len > 8 && !memcmp(l, "cluster", 7) && l[len - 1] == ':') {
		p->idlestat = true;
		if (p->topo_nclusters < 255)
			p->topo_nclusters++;
		return;
	}
	if (!p->topo_nclusters || !len || (l[0] != '\t' && l[0] != ' '))
		return;
	while (i < len && (l[i] == '\t' || l[i] == ' '))
		i++;
	if (len - i > 3 && !memcmp(l + i, "cpu", 3) &&
	    num_i32(l + i + 3, l + len, &c) && c >= 0 && c < EA_TOPO_MAX_CPUS) {
		p->topo[c] = (uint8_t)p->topo_nclusters;
		if (c + 1 > p->topo_ncpus)
			p->topo_ncpus = c + 1;
	}
}

void ea_text_probe(const unsigned char *head, size_t n, struct ea_text_probe *p)
{
	const unsigned char *s = head, *e = head + n, *nul;
	bool before_events = true, whole = n < 4096;
	struct ea_tl r;

	memset(p, 0, sizeof(*p));
	p->ncpus = -1;
	/* Only what precedes a NUL byte counts: binary data is not text. */
	nul = memchr(head, 0, n);
	if (nul) {
		e = nul;
		whole = false;
	}
	if (e - s >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		s += 3;
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (starts_nocase(s, e, "<!doctype html") ||
	    starts_nocase(s, e, "<html")) {
		p->html = true;
		return;
	}
	while (s < e) {
		const unsigned char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *l = (const char *)s;
		size_t len;
		enum ea_tl_kind k;

		/* A cut last line only counts when the whole file is here. */
		if (!nl && !whole)
			break;
		len = nl ? (size_t)(nl - s) : (size_t)(e - s);
		s = nl ? nl + 1 : e;
		if (len >= 9 && !memcmp(l, "# tracer:", 9))
			p->ftrace_header = true;
		if (l[0] == '#' && memmem(l, len, "TGID", 4))
			p->tgid = true;
		if (before_events && len > 5 && !memcmp(l, "cpus=", 5)) {
			int32_t c;

			if (num_i32(l + 5, l + len, &c) && c > 0)
				p->ncpus = c;
			p->report = true;
		}
		if (len >= 10 && !memcmp(l, "version = ", 10))
			p->report = true;
		/* idlestat's topology header, also commented out ("# ") */
		if (before_events && len > 2 && l[0] == '#') {
			const char *h = l[1] == ' ' ? l + 2 : l + 1;

			topo_line(p, h, len - (size_t)(h - l));
		} else if (before_events) {
			topo_line(p, l, len);
		}
		k = ea_tl_parse(l, len, &r);
		if (k == EA_TL_EVENT || k == EA_TL_OTHER || k == EA_TL_LOST) {
			p->events = true;
			before_events = false;
			if (r.tgid)
				p->tgid = true;
		}
	}
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reference of the first-event tests (test-first-event.c,
 * test-first-event-zstd.c): each CPU's first event, and whether a
 * lost-events marker came before it, as one sequential ea_input_next()
 * pass meets them. Include after <cmocka.h>.
 */
#ifndef EATRACE_TESTS_FIRST_EVENTS_H
#define EATRACE_TESTS_FIRST_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "eatrace/input.h"

#define NCPU 64

struct firsts {
	bool found[NCPU], lost[NCPU];
	struct ea_event ev[NCPU];
	uint64_t n;
};

/* The reference: one sequential pass. */
static inline void sequential(const char *path, struct firsts *f)
{
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err err;
	int rc;

	memset(f, 0, sizeof(*f));
	if (ea_input_open(&in, path, &err))
		fail_msg("%s", err.msg);
	while ((rc = ea_input_next(in, &ev, &err)) > 0) {
		f->n++;
		if (ev.cpu >= NCPU || f->found[ev.cpu])
			continue;
		if (ev.type == EA_EV_LOST) {
			f->lost[ev.cpu] = true;
			continue;
		}
		f->found[ev.cpu] = true;
		f->ev[ev.cpu] = ev;
	}
	assert_int_equal(rc, 0);
	ea_input_close(in);
}

#endif

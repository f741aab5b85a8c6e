// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accountant's time windows (--interval): energy charged to the windows
 * an interval or an instant falls in, the array grown as the trace goes on
 * and bounded (EA_MAX_WINDOWS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy/windows.h"

/* --interval must not make memory grow without bound with the time span. */
static void too_many_windows(struct ea_acct *a)
{
	snprintf(a->error, sizeof(a->error),
		 "--interval %.3f ms makes more than %d windows over this "
		 "trace: use a longer one",
		 (double)a->cfg.interval_ns / 1e6, EA_MAX_WINDOWS);
}

/* Grow a->windows to n (> a->nwindows) zeroed windows. false, with
 * a->error set, when memory runs out. */
bool ea_acct_grow_windows(struct ea_acct *a, size_t n)
{
	struct ea_energy *p = realloc(a->windows, n * sizeof(*p));

	if (!p) {
		snprintf(a->error, sizeof(a->error), "out of memory");
		return false;
	}
	memset(p + a->nwindows, 0, (n - a->nwindows) * sizeof(*p));
	a->windows = p;
	a->nwindows = n;
	return true;
}

void ea_acct_charge_windows_slow(struct ea_acct *a, enum part part,
				 int64_t power, uint64_t t0, uint64_t t1)
{
	uint64_t w = a->cfg.interval_ns;

	if ((t1 - 1 - a->win_start) / w >= EA_MAX_WINDOWS) {
		too_many_windows(a);
		return;
	}
	while (t0 < t1) {
		size_t b = (t0 - a->win_start) / w;
		uint64_t bend = a->win_start + (b + 1) * w;
		uint64_t e = bend < t1 ? bend : t1;

		if (b >= a->nwindows) {
			size_t n = b + 1 > a->nwindows * 2 ? b + 1
							   : a->nwindows * 2;

			if (!ea_acct_grow_windows(a, n))
				return;
		}
		add(&a->windows[b], part,
		    (ea_energy_t)power * (ea_energy_t)(e - t0));
		t0 = e;
	}
}

void ea_acct_charge_window_at_slow(struct ea_acct *a, enum part part,
				   ea_energy_t v, uint64_t t)
{
	uint64_t w = a->cfg.interval_ns;
	size_t b;

	b = (t - a->win_start) / w;
	if (b >= EA_MAX_WINDOWS) {
		too_many_windows(a);
		return;
	}
	if (b >= a->nwindows && !ea_acct_grow_windows(a, b + 1))
		return;
	add(&a->windows[b], part, v);
}

/*
 * With cfg.cpu_only: energy e of [t0, t1) (t0 < t1) that is the selected
 * CPUs' share of a cluster's or the system's, spread over the windows in
 * proportion to time, the remainder to the last: the windows still add
 * up to the total exactly.
 */
void ea_acct_charge_windows_share(struct ea_acct *a, enum part part,
				  ea_energy_t e, uint64_t t0, uint64_t t1)
{
	uint64_t w = a->cfg.interval_ns, len = t1 - t0;
	ea_energy_t left = e, per = e / len, rem = e % len;

	if (!w || !e)
		return;
	while (t0 < t1) {
		size_t b = (t0 - a->win_start) / w;
		uint64_t bend = a->win_start + (b + 1) * w;
		uint64_t end = bend < t1 ? bend : t1;
		ea_energy_t part_e =
			end == t1 ? left
				  : per * (end - t0) + rem * (end - t0) / len;

		ea_acct_charge_window_at_slow(a, part, part_e, t0);
		left -= part_e;
		t0 = end;
	}
}

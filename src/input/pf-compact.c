// SPDX-License-Identifier: GPL-2.0-only
/*
 * A bundle's compact_sched (docs/perfetto.md): sched_switch and
 * sched_waking as parallel packed arrays (delta-coded timestamps, comms as
 * indexes into an intern table), into switch and waking events
 * (pf-events.h). A switch's prev task is not in the arrays: it is the
 * next task of the CPU's previous switch, which reader-perfetto.c knows;
 * nor is a waking's waker, the task the CPU then runs. Both events are
 * flagged EA_EVF_DERIVED: where a switch-in was lost (a switch out of the
 * idle task missing) the derivation names the idle task, and the state
 * stage recovers the task that ran (docs/inference.md).
 */
#include <string.h>

#include "input/pf-events.h"

/* CompactSched fields */
enum {
	CS_SW_TS = 1,
	CS_SW_PREV_STATE = 2,
	CS_SW_NEXT_PID = 3,
	CS_SW_NEXT_PRIO = 4,
	CS_INTERN = 5,
	CS_SW_NEXT_COMM = 6,
	CS_WK_TS = 7,
	CS_WK_PID = 8,
	CS_WK_TARGET = 9,
	CS_WK_PRIO = 10,
	CS_WK_COMM = 11,
};

/* One packed array of the message. */
struct packed {
	struct pb_buf b;
};

int pf_compact(struct pf_index *ix, struct pf_intern *in, struct pf_evbuf *sw,
	       struct pf_evbuf *wk, const struct pf_bundle *bd, struct pb_buf b,
	       const char *path, struct ea_err *err)
{
	struct packed a[CS_WK_COMM + 1];
	struct pb_field f = {0};
	uint64_t ts, v;
	size_t n, i;
	int rc;

	memset(a, 0, sizeof(a));
	in->n = 0;
	while ((rc = pb_next(&b, &f)) == PB_OK) {
		if (f.num == CS_INTERN && f.wire == PB_LEN) {
			if (in->n == in->cap) {
				size_t nc = in->cap ? in->cap * 2 : 64;
				char(*q)[EA_COMM_LEN] =
					realloc(in->comm, nc * sizeof(*q));

				if (!q)
					return ea_err_set(
						err, "%s: out of memory", path);
				in->comm = q;
				in->cap = nc;
			}
			memset(in->comm[in->n], 0, EA_COMM_LEN);
			pb_str(&f.sub, in->comm[in->n++], EA_COMM_LEN);
		} else if (f.num <= CS_WK_COMM && f.wire == PB_LEN) {
			if (a[f.num].b.p)
				return pf_bundle_err(
					path, bd, err,
					"compact_sched array split in pieces "
					"(not supported)");
			a[f.num].b = f.sub;
		}
	}
	if (rc == PB_ERR)
		return pf_bundle_err(path, bd, err,
				     "malformed compact_sched (protobuf field "
				     "cut or invalid)");
	/* switches: as many as timestamps (at most one per byte), and every
	 * array as long */
	n = (size_t)(a[CS_SW_TS].b.end - a[CS_SW_TS].b.p);
	if (pf_grow_ev(ix, bd, sw, n, path, err))
		return -1;
	for (i = 0, ts = 0; a[CS_SW_TS].b.p < a[CS_SW_TS].b.end; i++) {
		struct ea_event *e = &sw->ev[i];
		uint64_t st, pid, prio, ci;

		if (pb_packed_next(&a[CS_SW_TS].b, &v) != PB_OK ||
		    pb_packed_next(&a[CS_SW_PREV_STATE].b, &st) != PB_OK ||
		    pb_packed_next(&a[CS_SW_NEXT_PID].b, &pid) != PB_OK ||
		    pb_packed_next(&a[CS_SW_NEXT_PRIO].b, &prio) != PB_OK ||
		    pb_packed_next(&a[CS_SW_NEXT_COMM].b, &ci) != PB_OK)
			return pf_bundle_err(
				path, bd, err,
				"compact_sched switch arrays of different "
				"lengths (or malformed)");
		ts += v;
		if (ci >= in->n)
			return pf_bundle_err(path, bd, err,
					     "compact_sched switch comm index "
					     "beyond the intern table");
		e->ts = ts;
		e->cpu = bd->cpu;
		e->type = EA_EV_SWITCH;
		e->flags = EA_EVF_DERIVED;
		e->sw.prev_state = pf_prev_state(st);
		e->sw.next_pid = pb_i32(pid);
		e->sw.next_prio = pb_i32(prio);
		memcpy(e->sw.next_comm, in->comm[ci], EA_COMM_LEN);
	}
	if (a[CS_SW_PREV_STATE].b.p != a[CS_SW_PREV_STATE].b.end ||
	    a[CS_SW_NEXT_PID].b.p != a[CS_SW_NEXT_PID].b.end ||
	    a[CS_SW_NEXT_PRIO].b.p != a[CS_SW_NEXT_PRIO].b.end ||
	    a[CS_SW_NEXT_COMM].b.p != a[CS_SW_NEXT_COMM].b.end)
		return pf_bundle_err(path, bd, err,
				     "compact_sched switch arrays of different "
				     "lengths (or malformed)");
	sw->n = i;
	/* wakings */
	n = (size_t)(a[CS_WK_TS].b.end - a[CS_WK_TS].b.p);
	if (pf_grow_ev(ix, bd, wk, n, path, err))
		return -1;
	for (i = 0, ts = 0; a[CS_WK_TS].b.p < a[CS_WK_TS].b.end; i++) {
		struct ea_event *e = &wk->ev[i];
		uint64_t pid, tgt, prio, ci;

		if (pb_packed_next(&a[CS_WK_TS].b, &v) != PB_OK ||
		    pb_packed_next(&a[CS_WK_PID].b, &pid) != PB_OK ||
		    pb_packed_next(&a[CS_WK_TARGET].b, &tgt) != PB_OK ||
		    pb_packed_next(&a[CS_WK_PRIO].b, &prio) != PB_OK ||
		    pb_packed_next(&a[CS_WK_COMM].b, &ci) != PB_OK)
			return pf_bundle_err(
				path, bd, err,
				"compact_sched waking arrays of different "
				"lengths (or malformed)");
		ts += v;
		if (ci >= in->n)
			return pf_bundle_err(path, bd, err,
					     "compact_sched waking comm index "
					     "beyond the intern table");
		e->ts = ts;
		e->cpu = bd->cpu;
		e->type = EA_EV_WAKING;
		e->flags = EA_EVF_DERIVED;
		e->wake.pid = pb_i32(pid);
		e->wake.target_cpu = pb_i32(tgt);
		e->wake.prio = pb_i32(prio);
		memcpy(e->wake.comm, in->comm[ci], EA_COMM_LEN);
	}
	if (a[CS_WK_PID].b.p != a[CS_WK_PID].b.end ||
	    a[CS_WK_TARGET].b.p != a[CS_WK_TARGET].b.end ||
	    a[CS_WK_PRIO].b.p != a[CS_WK_PRIO].b.end ||
	    a[CS_WK_COMM].b.p != a[CS_WK_COMM].b.end)
		return pf_bundle_err(path, bd, err,
				     "compact_sched waking arrays of different "
				     "lengths (or malformed)");
	wk->n = i;
	return 0;
}

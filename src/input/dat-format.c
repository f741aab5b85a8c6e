// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events the trace.dat reader uses and their formats (dat-format.h):
 * everything format-dependent is resolved once at open, from the file's
 * event formats as libtraceevent parsed them -- the ids of the events
 * eatrace uses, the offset, size and signedness of each field, whether
 * an event has the usual layout the decoder reads with plain loads
 * (fixed_layout()), and how this kernel encodes sched_switch prev_state
 * (dat-prev-state.c).
 */
#include <string.h>

#include <event-parse.h>

#include "input/dat-format.h"

/*
 * Field names: a leading '$' marks a string field, '?' an optional one
 * (absent in some kernels; read as -1).
 */
struct spec {
	const char *system, *name;
	uint8_t type; /* enum ea_event_type */
	bool core; /* unusable format is an error, not a skip */
	const char *fields[MAX_FIELDS];
};

#define WAKE_FIELDS                                    \
	{                                              \
		"$comm", "pid", "?prio", "?target_cpu" \
	}

static const struct spec specs[] = {
	{"sched",
	 "sched_switch",
	 EA_EV_SWITCH,
	 true,
	 {"$prev_comm", "prev_pid", "prev_prio", "prev_state", "$next_comm",
	  "next_pid", "next_prio"}},
	{"sched", "sched_wakeup", EA_EV_WAKEUP, true, WAKE_FIELDS},
	{"sched", "sched_waking", EA_EV_WAKING, true, WAKE_FIELDS},
	{"sched", "sched_wakeup_new", EA_EV_WAKEUP_NEW, true, WAKE_FIELDS},
	{"sched",
	 "sched_migrate_task",
	 EA_EV_MIGRATE,
	 true,
	 {"$comm", "pid", "orig_cpu", "dest_cpu"}},
	{"power", "cpu_frequency", EA_EV_FREQ, true, {"state", "cpu_id"}},
	{"power", "cpu_idle", EA_EV_IDLE, true, {"state", "cpu_id"}},
	{"sched",
	 "sched_load_cfs_rq",
	 EA_EV_UTIL_CFS,
	 false,
	 {"cpu", "util", "$path"}},
	{"sched",
	 "sched_load_se",
	 EA_EV_UTIL_SE,
	 false,
	 {"cpu", "util", "pid"}},
	{"ftrace", "print", EA_EV_MARKER, false, {"$buf"}},
	/* action is a const char * to a tracepoint string: its text comes
	 * from the file's printk formats (dat-read.c, decode_suspend()) */
	{"power",
	 "suspend_resume",
	 EA_EV_SUSPEND,
	 false,
	 {"action", "val", "start"}},
	{"cpuhp",
	 "cpuhp_enter",
	 EA_EV_HOTPLUG,
	 false,
	 {"cpu", "target", "idx"}},
	{"cpuhp",
	 "cpuhp_multi_enter",
	 EA_EV_HOTPLUG,
	 false,
	 {"cpu", "target", "idx"}},
	{"cpuhp", "cpuhp_exit", EA_EV_HOTPLUG, false, {"cpu", "state", "idx"}},
};

_Static_assert(sizeof(specs) / sizeof(specs[0]) == NSPECS,
	       "NSPECS (dat-format.h) counts the table");

static bool fld_is(const struct fld *f, int kind, int size)
{
	return f->kind == kind &&
	       (kind == FLD_ARRAY ? f->size >= size : f->size == size);
}

static bool fixed_layout(const struct dat_fmt *r, const struct desc *d)
{
	const struct fld *f = d->f;

	if (!r->native || !r->fixed_common)
		return false;
	switch (d->type) {
	case EA_EV_SWITCH:
		return fld_is(&f[SW_PREV_PID], FLD_NUM, 4) &&
		       fld_is(&f[SW_NEXT_PID], FLD_NUM, 4) &&
		       fld_is(&f[SW_PREV_PRIO], FLD_NUM, 4) &&
		       fld_is(&f[SW_NEXT_PRIO], FLD_NUM, 4) &&
		       (fld_is(&f[SW_PREV_STATE], FLD_NUM, 4) ||
			fld_is(&f[SW_PREV_STATE], FLD_NUM, 8)) &&
		       fld_is(&f[SW_PREV_COMM], FLD_ARRAY, EA_COMM_LEN) &&
		       fld_is(&f[SW_NEXT_COMM], FLD_ARRAY, EA_COMM_LEN);
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		return fld_is(&f[WK_PID], FLD_NUM, 4) &&
		       fld_is(&f[WK_PRIO], FLD_NUM, 4) &&
		       fld_is(&f[WK_TARGET], FLD_NUM, 4) &&
		       fld_is(&f[WK_COMM], FLD_ARRAY, EA_COMM_LEN);
	default:
		return false;
	}
}

static int resolve_field(const struct tep_format_field *tf, bool want_str,
			 struct fld *f)
{
	f->off = tf->offset;
	f->size = tf->size;
	f->sign = tf->flags & TEP_FIELD_IS_SIGNED;
	if (tf->offset < 0 || tf->size < 0 || tf->offset > 0xffff ||
	    tf->size > 0xffff)
		return -1;
	if (tf->flags & TEP_FIELD_IS_DYNAMIC) {
		f->kind = tf->flags & TEP_FIELD_IS_RELATIVE ? FLD_REL : FLD_DYN;
		if (f->size != 4)
			return -1;
		return want_str ? 0 : -1;
	}
	if (want_str) {
		if (tf->size == 0)
			f->kind = FLD_REST;
		else if (tf->flags & TEP_FIELD_IS_ARRAY)
			f->kind = FLD_ARRAY;
		else
			return -1;
		return 0;
	}
	if (tf->flags & TEP_FIELD_IS_ARRAY)
		return -1;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -1;
	f->kind = FLD_NUM;
	return 0;
}

static int resolve_common(struct dat_fmt *r, const char *path,
			  struct tep_event *ev, struct ea_err *err)
{
	struct tep_format_field *t = tep_find_common_field(ev, "common_type");
	struct tep_format_field *p = tep_find_common_field(ev, "common_pid");

	if (!t || !p || resolve_field(t, false, &r->f_type) ||
	    resolve_field(p, false, &r->f_pid))
		return ea_err_set(err,
				  "%s: event %s has no usable "
				  "common_type/common_pid fields",
				  path, ev->name);
	r->common_min = t->offset + t->size;
	if (p->offset + p->size > r->common_min)
		r->common_min = p->offset + p->size;
	return 0;
}

int ea_dat_resolve_formats(struct dat_fmt *r, const char *path,
			   struct ea_input_info *info, struct ea_err *err)
{
	bool have_common = false;
	size_t i;
	int k, end;

	for (i = 0; i < NSPECS; i++) {
		const struct spec *s = &specs[i];
		struct tep_event *ev;
		struct desc *d;
		bool ok = true;

		ev = tep_find_event_by_name(r->tep, s->system, s->name);
		if (!ev)
			continue;
		d = &r->desc[r->ndesc];
		memset(d, 0, sizeof(*d));
		d->id = ev->id;
		d->type = s->type;
		d->name = s->name;
		for (k = 0; k < MAX_FIELDS && s->fields[k]; k++) {
			const char *name = s->fields[k];
			bool want_str = false, optional = false;
			struct tep_format_field *tf;

			for (;; name++) {
				if (*name == '$')
					want_str = true;
				else if (*name == '?')
					optional = true;
				else
					break;
			}
			tf = tep_find_field(ev, name);
			if (!tf && optional)
				continue; /* FLD_NONE */
			if (!tf || resolve_field(tf, want_str, &d->f[k])) {
				if (s->core)
					return ea_err_set(err,
							  "%s: %s format has "
							  "no usable field %s",
							  path, s->name, name);
				ok = false;
				break;
			}
			/* a size-0 text field only needs its start */
			end = d->f[k].off +
			      (d->f[k].kind == FLD_REST ? 0 : d->f[k].size);
			if (end > d->min_size)
				d->min_size = end;
		}
		if (!ok)
			continue;
		if (!have_common) {
			if (resolve_common(r, path, ev, err))
				return -1;
			have_common = true;
		}
		if (d->min_size < r->common_min)
			d->min_size = r->common_min;
		if (s->type == EA_EV_SWITCH)
			ea_dat_prev_state_from_event(ev, &r->ps);
		info->may_have[s->type] = true;
		r->ndesc++;
	}
	/* the first desc of an id wins, as find_desc()'s scan had it */
	for (k = r->ndesc - 1; k >= 0; k--)
		if (r->desc[k].id >= 0 && r->desc[k].id < DESC_IDS)
			r->desc_of[r->desc[k].id] = (uint8_t)(k + 1);
	r->native =
		tep_is_file_bigendian(r->tep) == tep_is_local_bigendian(r->tep);
	r->fixed_common =
		fld_is(&r->f_type, FLD_NUM, 2) && fld_is(&r->f_pid, FLD_NUM, 4);
	for (k = 0; k < r->ndesc; k++)
		r->desc[k].fixed = fixed_layout(r, &r->desc[k]);
	return 0;
}

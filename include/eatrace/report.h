/* SPDX-License-Identifier: GPL-2.0-only */
/* `eatrace report` renderers: the accountant's figures for people and programs. */
#ifndef EATRACE_REPORT_H
#define EATRACE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "eatrace/energy.h"
#include "eatrace/input.h"
#include "eatrace/stats.h"
#include "eatrace/unit.h"

struct ea_report {
	const char *path;
	const struct ea_input_info *info;
	const struct ea_acct *acct;
	const struct ea_stats *stats;	/* for notes */
	bool per_task;			/* text: list tasks */
	size_t top;			/* text: tasks listed; 0: 15, SIZE_MAX: all */
	/* measured energy per power rail (eatrace/rails.h), NULL: none */
	const struct ea_rail_cmp *rails;
	size_t nrails;
	/* the unit energies are shown in (--unit); NULL: the model's
	 * power_unit x s */
	const struct ea_energy_unit *unit;
};

void ea_report_render_text(FILE *f, const struct ea_report *r);
void ea_report_render_json(FILE *f, const struct ea_report *r);
void ea_report_render_csv(FILE *f, const struct ea_report *r);

/* An energy breakdown as a JSON object: total, busy, idle, wakeup and the
 * six core/cluster parts, exact decimals in u (src/output/energy-json.c). */
struct ea_json;
void ea_json_energy(struct ea_json *j, const char *key, const struct ea_energy *e,
		    const struct ea_energy_unit *u);

/*
 * Every note of the report (src/output/report-common.c), in the order the
 * text, JSON and HTML show them, one per cause, each with the CPUs it
 * concerns and the energy and share of the total that rest on it: the
 * model's failing 'eatrace model check', how much of the energy rests on
 * inference (ea_report_inference_msg()), the trace's notes
 * (ea_stats_foreach_note_but(), without the causes told here), the
 * accountant's (below) and whether the trace's topology agrees with the
 * model's clusters.
 */
void ea_report_foreach_note(const struct ea_report *r,
			    void (*fn)(void *arg, const char *kind, const char *msg),
			    void *arg);
/* The accountant's alone: CPUs without cpu_idle (the idle state they are
 * priced in), busy time at an assumed or unmodelled frequency, idle time
 * in states the model lacks. */
void ea_report_foreach_energy_note(const struct ea_report *r,
				   void (*fn)(void *arg, const char *kind, const char *msg),
				   void *arg);
/* "N% of this energy rests on inference: T s of unknown time (CPU ...),
 * priced as ...: E UNIT" into msg (n bytes); NULL when there is no
 * unknown time. */
const char *ea_report_inference_msg(const struct ea_report *r, char *msg, size_t n);
/* r's unit: r->unit, or the model's power_unit x s in *tmp. */
const struct ea_energy_unit *ea_report_unit(const struct ea_report *r,
					    struct ea_energy_unit *tmp);

/* The power rails beside the estimate (src/output/report-rails.c): text
 * section, and the JSON "rails" array; nothing when r->nrails is 0. */
void ea_report_rails_text(FILE *f, const struct ea_report *r);
void ea_report_rails_json(struct ea_json *j, const struct ea_report *r);
/* ... and its CSV rows ("rail", "rail_estimate"; docs/json.md). */
void ea_report_rails_csv(FILE *f, const struct ea_report *r);

/* Tasks grouped by process, when r->info has a process tree
 * (src/output/report-procs.c): text (the first top), the JSON
 * "processes" array; nothing without one. A task's process: its tgid, or
 * itself when the tree does not know it (in_tree false). */
void ea_report_procs_text(FILE *f, const struct ea_report *r, size_t top);
void ea_report_procs_json(struct ea_json *j, const struct ea_report *r);
int32_t ea_report_task_tgid(const struct ea_report *r, int32_t pid, bool *in_tree);

#endif

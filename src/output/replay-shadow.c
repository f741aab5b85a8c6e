// SPDX-License-Identifier: GPL-2.0-only
/*
 * `replay --shadow`: the agreement report, text or JSON, and the decisions
 * of --emit-decisions, CSV or JSON (src/replay/shadow.c computes both).
 */
#include <math.h>
#include <stdlib.h>

#include "eatrace/output.h"
#include "eatrace/replay.h"

static const char *const kind_key[] = {"stayed_on_prev", "moved",
				       "overutilised"};
static const char *const kind_text[] = {"stayed on prev", "moved",
					"overutilised"};

static double pct(uint64_t a, uint64_t n)
{
	return n ? 100.0 * (double)a / (double)n : 0.0;
}

void ea_shadow_render(FILE *f, bool json, const char *trace,
		      const struct ea_model *m, const char *policy,
		      const struct ea_shadow_result *r)
{
	uint64_t n = r->n[0] + r->n[1] + r->n[2];
	uint64_t a = r->agree[0] + r->agree[1] + r->agree[2];

	if (json) {
		struct ea_json j;

		ea_json_begin(&j, f);
		ea_json_obj(&j, NULL);
		ea_json_int(&j, "eatrace_shadow", 1);
		ea_json_str(&j, "trace", trace);
		ea_json_str(&j, "model", m->name);
		ea_json_str(&j, "policy", policy);
		ea_json_uint(&j, "decisions", n);
		ea_json_uint(&j, "agree", a);
		ea_json_obj(&j, "kinds");
		for (int k = 0; k < 3; k++) {
			ea_json_obj(&j, kind_key[k]);
			ea_json_uint(&j, "decisions", r->n[k]);
			ea_json_uint(&j, "agree", r->agree[k]);
			ea_json_obj_end(&j);
		}
		ea_json_obj_end(&j);
		ea_json_uint(&j, "kernel_util_decisions", r->kernel_util);
		ea_json_obj(&j, "skipped");
		ea_json_uint(&j, "rt", r->skipped_rt);
		ea_json_uint(&j, "running", r->skipped_running);
		ea_json_uint(&j, "no_prev", r->skipped_no_prev);
		ea_json_uint(&j, "no_target", r->skipped_no_target);
		ea_json_obj_end(&j);
		ea_json_obj_end(&j);
		ea_json_end(&j);
		return;
	}
	fprintf(f,
		"%s: shadow %s on %s: %llu wakeup decisions, %llu agree with "
		"the kernel (%.1f%%)\n",
		trace, policy, m->name, (unsigned long long)n,
		(unsigned long long)a, pct(a, n));
	fprintf(f, "\n%-16s %10s %10s %8s\n", "kind", "decisions", "agree",
		"agree%");
	for (int k = 0; k < 3; k++)
		fprintf(f, "%-16s %10llu %10llu %8.1f\n", kind_text[k],
			(unsigned long long)r->n[k],
			(unsigned long long)r->agree[k],
			pct(r->agree[k], r->n[k]));
	fprintf(f,
		"\nutilisation: reconstructed PELT; the kernel's "
		"(sched_load_*) in %llu decisions\n",
		(unsigned long long)r->kernel_util);
	fprintf(f,
		"skipped wakeups: %llu RT/DL, %llu of a running task, %llu "
		"without a previous CPU, %llu without a target CPU\n",
		(unsigned long long)r->skipped_rt,
		(unsigned long long)r->skipped_running,
		(unsigned long long)r->skipped_no_prev,
		(unsigned long long)r->skipped_no_target);
}

/* ---- --emit-decisions ---- */

struct rows {
	struct ea_shadow_sink sink; /* first: freed through it */
	FILE *f;
	bool json;
	struct ea_json j;
};

static void rows_begin(void *ctx, int ncpus)
{
	struct rows *r = ctx;

	if (r->json) {
		ea_json_begin(&r->j, r->f);
		ea_json_arr(&r->j, NULL);
		return;
	}
	fputs("time_s,pid,comm,prev_cpu,recorded_cpu,policy_cpu,agree,kind",
	      r->f);
	for (int c = 0; c < ncpus; c++)
		fprintf(r->f, ",energy_cpu%d", c);
	fputc('\n', r->f);
}

static void row_json(struct ea_json *j, const struct ea_shadow_decision *d)
{
	ea_json_obj(j, NULL);
	ea_json_ns_as_s(j, "time_s", d->ts);
	ea_json_int(j, "pid", d->pid);
	ea_json_str(j, "comm", d->comm);
	ea_json_int(j, "prev_cpu", d->prev_cpu);
	ea_json_int(j, "recorded_cpu", d->recorded_cpu);
	ea_json_int(j, "policy_cpu", d->policy_cpu);
	ea_json_bool(j, "agree", d->policy_cpu == d->recorded_cpu);
	ea_json_str(j, "kind", kind_key[d->kind]);
	ea_json_arr(j, "energy");
	for (int c = 0; c < d->ncpus; c++) {
		if (!isnan(d->energy[c]))
			ea_json_num(j, NULL, d->energy[c]);
		else
			ea_json_raw(j, NULL, "null");
	}
	ea_json_arr_end(j);
	ea_json_obj_end(j);
}

static void rows_decision(void *ctx, const struct ea_shadow_decision *d)
{
	struct rows *r = ctx;
	FILE *f = r->f;

	if (r->json) {
		row_json(&r->j, d);
		return;
	}
	fprintf(f, "%llu.%09llu,%d,", (unsigned long long)(d->ts / 1000000000),
		(unsigned long long)(d->ts % 1000000000), d->pid);
	/* comms have no commas or quotes in the kernel's; keep CSV simple */
	for (const char *c = d->comm; *c; c++)
		fputc(*c == ',' || *c == '"' ? '_' : *c, f);
	fprintf(f, ",%d,%d,%d,%d,%s", d->prev_cpu, d->recorded_cpu,
		d->policy_cpu, d->policy_cpu == d->recorded_cpu,
		kind_key[d->kind]);
	for (int c = 0; c < d->ncpus; c++) {
		if (!isnan(d->energy[c]))
			fprintf(f, ",%.6f", d->energy[c]);
		else
			fputc(',', f);
	}
	fputc('\n', f);
}

static void rows_end(void *ctx)
{
	struct rows *r = ctx;

	if (r->json) {
		ea_json_arr_end(&r->j);
		ea_json_end(&r->j);
	}
}

struct ea_shadow_sink *ea_shadow_rows_new(FILE *f, bool json)
{
	struct rows *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->f = f;
	r->json = json;
	r->sink =
		(struct ea_shadow_sink){rows_begin, rows_decision, rows_end, r};
	return &r->sink;
}

void ea_shadow_rows_free(struct ea_shadow_sink *rows)
{
	free(rows);
}

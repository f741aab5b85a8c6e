// SPDX-License-Identifier: GPL-2.0-only
/* `replay --shadow`: the agreement report, text or JSON. */
#include "eatrace/output.h"
#include "eatrace/replay.h"

static const char *const kind_key[] = { "stayed_on_prev", "moved", "overutilised" };
static const char *const kind_text[] = { "stayed on prev", "moved", "overutilised" };

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
	fprintf(f, "%s: shadow %s on %s: %llu wakeup decisions, %llu agree with the kernel (%.1f%%)\n",
		trace, policy, m->name, (unsigned long long)n,
		(unsigned long long)a, pct(a, n));
	fprintf(f, "\n%-16s %10s %10s %8s\n", "kind", "decisions", "agree", "agree%");
	for (int k = 0; k < 3; k++)
		fprintf(f, "%-16s %10llu %10llu %8.1f\n", kind_text[k],
			(unsigned long long)r->n[k], (unsigned long long)r->agree[k],
			pct(r->agree[k], r->n[k]));
	fprintf(f, "\nutilisation: reconstructed PELT; the kernel's (sched_load_*) in %llu decisions\n",
		(unsigned long long)r->kernel_util);
	fprintf(f, "skipped wakeups: %llu RT/DL, %llu of a running task, %llu without a previous CPU, %llu without a target CPU\n",
		(unsigned long long)r->skipped_rt, (unsigned long long)r->skipped_running,
		(unsigned long long)r->skipped_no_prev,
		(unsigned long long)r->skipped_no_target);
}

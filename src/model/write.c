// SPDX-License-Identifier: GPL-2.0-only
/*
 * Serialise a model to the native JSON format: what importers and
 * `eatrace model convert` write. One cap or idle state per line, so that a
 * written table diffs and reads like the hand-written bundled ones.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/model.h"

const char *ea_model_fmt_num(double v, char *buf, size_t n)
{
	if (isnan(v)) {
		snprintf(buf, n, "nan");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, n, v < 0 ? "-inf" : "inf");
		return buf;
	}
	if (v == 0) {		/* also -0.0: JSON has no use for the sign */
		snprintf(buf, n, "0");
		return buf;
	}
	/* integers as integers: 7920, not the shorter 7.92e+03 */
	if (v == nearbyint(v) && fabs(v) < 1e15) {
		snprintf(buf, n, "%.0f", v);
		return buf;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* Names and text as every JSON writer of eatrace escapes them
 * (eatrace/escape.h): valid UTF-8 as is, controls as \u00XX, each byte
 * that is not UTF-8 as \ufffd, so that the file is valid JSON and UTF-8. */
static void put_string(FILE *f, const char *s)
{
	ea_esc_json(f, s);
}

static void put_num(FILE *f, double v)
{
	char buf[40];

	fputs(ea_model_fmt_num(v, buf, sizeof(buf)), f);
}

static void put_cluster(FILE *f, const struct ea_cluster *cl, bool last)
{
	fputs("    {\n      \"name\": ", f);
	put_string(f, cl->name);
	fputs(",\n      \"cpus\": [", f);
	for (int i = 0; i < cl->ncpus; i++)
		fprintf(f, "%s%d", i ? ", " : "", cl->cpus[i]);
	fprintf(f, "],\n      \"freq_domain\": %s,\n", cl->freq_domain ? "true" : "false");
	if (cl->offline_power) {
		fputs("      \"offline_power\": ", f);
		put_num(f, cl->offline_power);
		fputs(",\n", f);
	}
	fputs("      \"cap_states\": [\n", f);
	for (int i = 0; i < cl->ncaps; i++) {
		const struct ea_cap_state *cs = &cl->caps[i];

		fprintf(f, "        { \"freq_khz\": %u, \"cap\": %u, \"core_power\": ",
			cs->freq_khz, cs->cap);
		put_num(f, cs->core_power);
		fputs(", \"cluster_power\": ", f);
		put_num(f, cs->cluster_power);
		fprintf(f, " }%s\n", i + 1 < cl->ncaps ? "," : "");
	}
	fputs("      ]", f);
	/* the implicit idle state is the absence of idle_states: keep it so */
	if (!cl->idle_implicit && cl->nidles > 0) {
		fputs(",\n      \"idle_states\": [\n", f);
		for (int i = 0; i < cl->nidles; i++) {
			const struct ea_idle_state *is = &cl->idles[i];

			fputs("        { \"name\": ", f);
			put_string(f, is->name);
			fputs(", \"core_power\": ", f);
			put_num(f, is->core_power);
			fputs(", \"cluster_power\": ", f);
			put_num(f, is->cluster_power);
			fputs(", \"core_wakeup\": ", f);
			put_num(f, is->core_wakeup);
			fputs(", \"cluster_wakeup\": ", f);
			put_num(f, is->cluster_wakeup);
			fprintf(f, ", \"target_residency_us\": %u",
				is->target_residency_us);
			if (is->has_exit_latency)
				fprintf(f, ", \"exit_latency_us\": %u",
					is->exit_latency_us);
			fprintf(f, " }%s\n", i + 1 < cl->nidles ? "," : "");
		}
		fputs("      ]", f);
	}
	fprintf(f, "\n    }%s\n", last ? "" : ",");
}

int ea_model_write_json(const struct ea_model *m, FILE *f)
{
	fprintf(f, "{\n  \"eatrace_model\": %d,\n  \"name\": ", EA_MODEL_VERSION);
	put_string(f, m->name);
	fputs(",\n  \"source\": ", f);
	put_string(f, m->source ? m->source : "");
	fputs(",\n  \"power_unit\": ", f);
	put_string(f, m->power_unit);
	if (m->suspend_power) {
		fputs(",\n  \"suspend_power\": ", f);
		put_num(f, m->suspend_power);
	}
	fputs(",\n  \"clusters\": [\n", f);
	for (int i = 0; i < m->nclusters; i++)
		put_cluster(f, &m->clusters[i], i + 1 == m->nclusters);
	fputs("  ]\n}\n", f);
	if (fflush(f) || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

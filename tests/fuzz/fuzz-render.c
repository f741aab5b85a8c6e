// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the renderers, not the readers. A text trace goes through
 * the pipeline as 'eatrace report --html --perfetto' runs it (statistics,
 * accountant and timeline on a two-cluster model with hostile names), then
 * through the HTML report, the Perfetto writers (Chrome trace-event JSON
 * and protobuf) and the CSV and JSON renderers, into /dev/null. The last byte picks the
 * options (a seed ends in a comment line without a newline to choose
 * it). Corpus: tests/fuzz/corpus/render/ (small traces with extreme
 * timestamps, durations and names).
 */
#include "eatrace/html.h"
#include "eatrace/perfetto.h"
#include "pipeline.h"

/* Names that need escaping in every format (docs/robustness.md). */
static const char render_model_json[] =
	"{ \"eatrace_model\": 1, \"name\": \"r</script>\\\"'&\", \"power_unit\": \"mW\",\n"
	"  \"clusters\": [\n"
	"    { \"name\": \"x\\\" onload=\\\"alert(1)\", \"cpus\": [0, 1],\n"
	"      \"cap_states\": [\n"
	"        { \"freq_khz\": 500000, \"cap\": 200, \"core_power\": 50, \"cluster_power\": 10 },\n"
	"        { \"freq_khz\": 1000000, \"cap\": 400, \"core_power\": 110, \"cluster_power\": 20 } ],\n"
	"      \"idle_states\": [\n"
	"        { \"name\": \"=cmd|' /C calc'!A0\", \"core_power\": 5, \"cluster_power\": 8 },\n"
	"        { \"name\": \"b\\u00fc\\u00df\", \"core_power\": 0, \"cluster_power\": 2 } ] },\n"
	"    { \"name\": \"</script><b>\", \"cpus\": [2, 3],\n"
	"      \"cap_states\": [\n"
	"        { \"freq_khz\": 800000, \"cap\": 1024, \"core_power\": 400, \"cluster_power\": 40 } ] } ] }\n";

static struct ea_model *render_model(void)
{
	static struct ea_model *m;
	struct ea_err err;

	if (!m && ea_model_load_buffer(&m, render_model_json,
				       sizeof(render_model_json) - 1,
				       "fuzz-render-model.json", &err)) {
		fprintf(stderr, "render model: %s\n", err.msg);
		abort();
	}
	return m;
}

static void render(const char *path, unsigned variant)
{
	struct ea_state_config cfg = { .ncpus = -1 };
	struct ea_acct_config acfg = { 0 };
	struct ea_timeline tl = { 0 };
	struct ea_perfetto *pf;
	struct ea_consumer cons[3];
	struct ea_report rep;
	struct ea_stats st;
	struct ea_acct acct;
	struct ea_run run;
	struct ea_err err;
	FILE *out = fuzz_devnull();

	if (variant & 1)
		acfg.assumed_khz = 700000;
	acfg.zero_wakeups = variant & 8;
	if (ea_acct_init(&acct, render_model(), &acfg, &err))
		abort();
	ea_stats_init(&st);
	ea_acct_state_config(&acct, &cfg);
	cfg.ncpus = -1;
	/* As cmd-report.c: 400 buckets for --html, 20000 with --perfetto
	 * (a fixed --interval width is left out, see fuzz_pipeline()). */
	if (ea_timeline_init(&tl, &acct, 0, variant & 2 ? 20000 : 400,
			     variant & 4))
		abort();
	/* as cmd-report.c: the buckets on a thread of their own (variants
	 * with and without it: both paths see every input) */
	if (variant & 32)
		(void)ea_timeline_use_thread(&tl);
	cons[0] = (struct ea_consumer){ &ea_stats_ops, &st };
	cons[1] = (struct ea_consumer){ &ea_acct_ops, &acct };
	cons[2] = (struct ea_consumer){ &ea_timeline_ops, &tl };
	if (ea_run(&run, path, &cfg, cons, 3, &err) == 0) {
		if (!ea_acct_done(&acct, run.state, &err) &&
		    !ea_stats_done(&st, run.state) &&
		    !ea_timeline_done(&tl, run.state, &err)) {
			rep = (struct ea_report){ .path = path, .info = &run.info,
						  .acct = &acct, .stats = &st,
						  .per_task = (variant & 16) != 0 };
			ea_report_render_html(out, &rep, &tl);
			if (ea_perfetto_begin(&pf, out))
				abort();
			ea_perfetto_process(pf, "run \"1\"", &tl, run.state,
					    tl.start);
			ea_perfetto_end(pf);
			/* and Perfetto's protobuf (.pftrace) */
			if (ea_perfetto_begin_as(&pf, out, EA_PERFETTO_PROTOBUF))
				abort();
			ea_perfetto_process(pf, "run \"1\"", &tl, run.state,
					    tl.start);
			if (ea_perfetto_end(pf))
				abort();
			ea_report_render_csv(out, &rep);
			ea_stats_render_csv(out, &st, &run.info);
			ea_report_render_json(out, &rep);
		}
		ea_run_free(&run);
	} else if (!memchr(err.msg, '\0', sizeof(err.msg)) ||
		   strchr(err.msg, '\n')) {
		abort();	/* errors are one line */
	}
	ea_timeline_free(&tl);
	ea_stats_free(&st);
	ea_acct_free(&acct);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/*
	 * Text traces only: a trace.dat is the dat target's, and its reader
	 * forks a rehearsal child per open, which under libFuzzer gave a
	 * false timeout here (the input runs in 0.05 s on its own).
	 */
	if (size >= 10 && !memcmp(data, "\027\010Dtracing", 10))
		return -1;
	render(fuzz_memfile(data, size), size > 0 ? data[size - 1] : 0);
	return 0;
}

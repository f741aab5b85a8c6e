// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace diff --format junit`: one test case, failed when the gate
 * fails, skipped when it is inconclusive (unless --inconclusive pass|fail
 * decides), an error when a trace or model could not be read, so CI
 * dashboards show the energy gate like any other test.
 * Structure: tests/fixtures/diff/junit.xsd (JUnit as Jenkins reads it).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/diff.h"
#include "eatrace/escape.h"
#include "eatrace/model-verdict.h"

/* XML text: names escaped by ea_esc_html(), the layout's \n and \t kept. */
static void xml_text(FILE *f, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n\t");
		char *piece = strndup(s, n);

		if (piece)
			ea_esc_html(f, piece);
		free(piece);
		s += n;
		if (*s)
			fputc(*s++, f);
	}
}

void ea_diff_render_junit(FILE *f, const struct ea_diff *d)
{
	char msg[640], name[256];
	bool skipped = !d->fail && d->verdict == EA_VERDICT_INCONCLUSIVE &&
		       d->inconclusive_as == EA_VERDICT_INCONCLUSIVE;

	ea_diff_verdict_line(d, msg, sizeof(msg));
	if (d->models_mode)
		snprintf(name, sizeof(name), "energy (%s against %s, paired, normalised by %s)",
			 d->side[1].model->name, d->side[0].model->name,
			 ea_norm_name(d->norm));
	else
		snprintf(name, sizeof(name), "energy (%s, normalised by %s)",
			 d->side[1].model->name, ea_norm_name(d->norm));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites tests=\"1\" failures=\"%d\" errors=\"0\">\n", d->fail);
	fprintf(f, "  <testsuite name=\"eatrace diff\" tests=\"1\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
		d->fail, skipped);
	fputs("    <testcase classname=\"eatrace.energy\" name=\"", f);
	xml_text(f, name);
	fputs("\">\n", f);
	if (d->fail || skipped) {
		/* inconclusive: a skipped case (neither passed nor failed),
		 * or a failure of its own type with --inconclusive fail */
		fprintf(f, "      <%s type=\"%s\" message=\"", skipped ? "skipped" : "failure",
			d->verdict == EA_VERDICT_INCONCLUSIVE ? "energy-inconclusive" : "energy-increase");
		xml_text(f, msg);
		fputs("\">", f);
		xml_text(f, msg);
		fprintf(f, "</%s>\n", skipped ? "skipped" : "failure");
	}
	fputs("      <system-out>", f);
	xml_text(f, msg);
	/* a model failing 'eatrace model check' (src/output/model-verdict.c) */
	for (int s = 0; s < 2; s++)
		if ((!s || d->side[1].model != d->side[0].model) &&
		    ea_model_verdict_msg(d->side[s].model, msg, sizeof(msg))) {
			xml_text(f, "\nwarning: ");
			xml_text(f, msg);
		}
	/* the unit of the values below, as the text names it */
	snprintf(msg, sizeof(msg), "\nnormalised by %s: values in ", ea_norm_name(d->norm));
	xml_text(f, msg);
	xml_text(f, ea_diff_value_unit(d, name, sizeof(name)));
	for (int s = 0; !d->models_mode && s < 2; s++)
		for (int i = 0; i < d->side[s].n; i++) {
			char line[512];

			snprintf(line, sizeof(line), "\n%s %s: %.9g", d->side[s].name,
				 d->side[s].runs[i].path, d->side[s].runs[i].value);
			xml_text(f, line);
		}
	/* --models: one line per trace, its two values and their ratio */
	for (int i = 0; d->models_mode && i < d->side[0].n; i++) {
		char line[4400], change[96];
		const char *why;
		double r;

		if (ea_diff_pair_ratio(d, i, &r, &why))
			snprintf(change, sizeof(change), "n/a (%s: left out)", why);
		else
			snprintf(change, sizeof(change), "%+.2f%%", 100 * (r - 1));
		snprintf(line, sizeof(line), "\npair %s: base %.9g, new %.9g, change %s",
			 d->side[0].runs[i].path, d->side[0].runs[i].value,
			 d->side[1].runs[i].value, change);
		xml_text(f, line);
	}
	fputs("</system-out>\n    </testcase>\n  </testsuite>\n</testsuites>\n", f);
}

void ea_diff_render_junit_error(FILE *f, const char *msg)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fputs("<testsuites tests=\"1\" failures=\"0\" errors=\"1\">\n", f);
	fputs("  <testsuite name=\"eatrace diff\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n", f);
	fputs("    <testcase classname=\"eatrace.energy\" name=\"energy\">\n", f);
	fputs("      <error type=\"input\" message=\"", f);
	xml_text(f, msg);
	fputs("\">", f);
	xml_text(f, msg);
	fputs("</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n", f);
}

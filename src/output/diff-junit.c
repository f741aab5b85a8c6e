// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace diff --format junit`: one test case, failed when the gate
 * fails, so CI dashboards show the energy gate like any other test.
 * Structure: tests/fixtures/diff/junit.xsd (JUnit as Jenkins reads it).
 */
#include <stdlib.h>
#include <string.h>

#include "eatrace/diff.h"
#include "eatrace/escape.h"

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
	char msg[256], name[192];

	if (d->stats)
		snprintf(msg, sizeof(msg), "energy %+.2f%% (%.0f%% CI %+.2f%% .. %+.2f%%), threshold +%.2f%%",
			 d->change_pct, 100 * d->confidence, d->ci_low_pct,
			 d->ci_high_pct, d->max_increase_pct);
	else
		snprintf(msg, sizeof(msg), "energy %+.2f%%, threshold +%.2f%% (no confidence interval: one run on a side)",
			 d->change_pct, d->max_increase_pct);
	snprintf(name, sizeof(name), "energy (%s, normalised by %s)",
		 d->side[1].model->name, ea_norm_name(d->norm));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites tests=\"1\" failures=\"%d\" errors=\"0\">\n", d->fail);
	fprintf(f, "  <testsuite name=\"eatrace diff\" tests=\"1\" failures=\"%d\" errors=\"0\" skipped=\"0\">\n",
		d->fail);
	fputs("    <testcase classname=\"eatrace.energy\" name=\"", f);
	xml_text(f, name);
	fputs("\">\n", f);
	if (d->fail) {
		fputs("      <failure type=\"energy-increase\" message=\"", f);
		xml_text(f, msg);
		fputs("\">", f);
		xml_text(f, msg);
		fputs("</failure>\n", f);
	}
	fputs("      <system-out>", f);
	xml_text(f, msg);
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < d->side[s].n; i++) {
			char line[512];

			snprintf(line, sizeof(line), "\n%s %s: %.9g", d->side[s].name,
				 d->side[s].runs[i].path, d->side[s].runs[i].value);
			xml_text(f, line);
		}
	fputs("</system-out>\n    </testcase>\n  </testsuite>\n</testsuites>\n", f);
}

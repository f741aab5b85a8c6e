// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idlestat-style topology header of a text trace ("# clusterA:",
 * "#  core0", "#   cpu1"): which CPUs each cluster has (--trace).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/input.h"
#include "model/import-priv.h"

int ea_idlestat_topology(const char *trace,
			 int (*fn)(void *ctx, const char *cluster, int cpu),
			 void *ctx, struct ea_err *err)
{
	char line[512], cluster[EA_NAME_LEN] = "";
	bool in_topo = false, any = false;
	int lineno = 0;
	FILE *f;

	if (ea_input_check(trace, err))
		return -1;
	f = fopen(trace, "r");
	if (!f)
		return ea_err_set(err, "%s: %s", trace, strerror(errno));
	while (fgets(line, sizeof(line), f) && lineno < 10000) {
		char tok[128], extra[8];
		char *p = line;
		int cpu, n;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#') {
			if (*p == '\n' || *p == '\r' || !*p)
				continue;
			break; /* the first event line: the header is over */
		}
		p++;
		n = sscanf(p, "%127s %7s", tok, extra);
		if (n < 1) {
			if (in_topo)
				break;
			continue;
		}
		if (n == 1 && !strncmp(tok, "cluster", 7) &&
		    tok[strlen(tok) - 1] == ':' && strlen(tok) > 8 &&
		    strlen(tok) < sizeof(cluster)) {
			snprintf(cluster, sizeof(cluster), "%.*s",
				 (int)strlen(tok) - 1, tok);
			in_topo = true;
			continue;
		}
		if (!in_topo)
			continue;
		if (n == 1 && !strncmp(tok, "core", 4) &&
		    strspn(tok + 4, "0123456789") == strlen(tok + 4) && tok[4])
			continue;
		if (n == 1 && !strncmp(tok, "cpu", 3) && tok[3] &&
		    strspn(tok + 3, "0123456789") == strlen(tok + 3)) {
			if (strlen(tok + 3) > 4 ||
			    (cpu = atoi(tok + 3)) >= EA_MODEL_MAX_CPUS) {
				fclose(f);
				return ea_err_set(
					err, "%s:%d: %s: CPU id out of range",
					trace, lineno, tok);
			}
			if (fn(ctx, cluster, cpu)) {
				fclose(f);
				return -1;
			}
			any = true;
			continue;
		}
		break; /* a comment after the topology block */
	}
	fclose(f);
	if (!any)
		return ea_err_set(
			err,
			"%s: no idlestat topology header ('# clusterA:' then "
			"'#  core0', '#   cpu1' lines) before the first event",
			trace);
	return 0;
}

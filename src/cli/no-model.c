// SPDX-License-Identifier: GPL-2.0-only
/* The "no model" error, with every bundled model found on the search path. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/msg.h"
#include "eatrace/model.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ea_die_no_model(const char *cmd, const char *alt)
{
	char *dirs[64], *names[256], list[1024] = "";
	int ndirs = ea_model_search_dirs(dirs, 64), n = 0;
	size_t len = 0;

	for (int i = 0; i < ndirs; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		while (d && n < 256 && (de = readdir(d))) {
			size_t l = strlen(de->d_name);

			if (l > 5 && !strcmp(de->d_name + l - 5, ".json") &&
			    de->d_name[0] != '.' && (names[n] = strndup(de->d_name, l - 5)))
				n++;
		}
		if (d)
			closedir(d);
		free(dirs[i]);
	}
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (int i = 0; i < n; i++) {
		if ((!i || strcmp(names[i], names[i - 1])) && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						len ? ", " : "", names[i]);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	if (n)
		return ea_die("%s: no model: give -m MODEL%s (bundled: %s; see 'eatrace model list')",
			      cmd, alt ? alt : "", list);
	return ea_die("%s: no model: give -m MODEL%s (a model file; none bundled found: see 'eatrace model list')",
		      cmd, alt ? alt : "");
}

// SPDX-License-Identifier: GPL-2.0-only
/* No output of a run may be one of its inputs, checked before reading
 * (src/cli/not-input.h). */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/msg.h"
#include "cli/not-input.h"

/* Whether path names the regular file st (symlinks followed). */
static bool same_file(const char *path, const struct stat *st)
{
	struct stat in;

	return path && strcmp(path, "-") && !stat(path, &in) &&
	       in.st_dev == st->st_dev && in.st_ino == st->st_ino;
}

int ea_cli_refuse_inputs_as_outputs(const char *const *outputs, int nout,
				    char *const *traces, int ntraces,
				    const struct ea_model *const *models,
				    int nmodels)
{
	for (int o = 0; o < nout; o++) {
		struct stat st;
		bool input = false;

		/* a new file, a device, a FIFO: not an input (inputs are
		 * regular files: src/input/file-check.c) */
		if (!outputs[o] || !strcmp(outputs[o], "-") ||
		    stat(outputs[o], &st) || !S_ISREG(st.st_mode))
			continue;
		for (int i = 0; i < ntraces && !input; i++)
			input = same_file(traces[i], &st);
		for (int i = 0; i < nmodels && !input; i++)
			input = models[i] && same_file(models[i]->path, &st);
		if (input)
			return ea_die("%s: is an input of this run; refusing "
				      "to overwrite it",
				      outputs[o]);
	}
	return 0;
}

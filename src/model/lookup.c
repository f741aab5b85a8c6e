// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lookups in a loaded model (cap state by frequency, cluster by CPU), and
 * finding a bundled model by name along the model search path.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eatrace/model.h"
#include "util/self-dir.h"

#define SEARCH_MAX 64

void ea_model_free(struct ea_model *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nclusters; i++) {
		free(m->clusters[i].cpus);
		free(m->clusters[i].caps);
		free(m->clusters[i].idles);
	}
	free(m->clusters);
	free(m->cpu_cluster);
	free(m->source);
	free(m->path);
	free(m);
}

int ea_model_cap_index(const struct ea_cluster *cl, uint32_t freq_khz)
{
	int lo = 0, hi = cl->ncaps - 1;

	/* states are strictly ascending in frequency */
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (cl->caps[mid].freq_khz == freq_khz)
			return mid;
		if (cl->caps[mid].freq_khz < freq_khz)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int ea_model_cap_index_nearest(const struct ea_cluster *cl, uint32_t freq_khz)
{
	if (cl->ncaps < 1)
		return -1;
	for (int i = 0; i < cl->ncaps; i++)
		if (cl->caps[i].freq_khz >= freq_khz)
			return i;
	return cl->ncaps - 1;
}

const struct ea_cluster *ea_model_cpu_cluster(const struct ea_model *m,
					      int cpu)
{
	if (cpu < 0 || cpu >= m->ncpus || m->cpu_cluster[cpu] < 0)
		return NULL;
	return &m->clusters[m->cpu_cluster[cpu]];
}

bool ea_model_is_name(const char *arg)
{
	size_t n = strlen(arg);

	return n && !strchr(arg, '/') &&
	       !(n >= 5 && !strcmp(arg + n - 5, ".json"));
}

static int add_dir(char **dirs, int n, int max, const char *a, const char *b)
{
	size_t len;
	char *d;

	if (n >= max || !*a)
		return n;
	len = strlen(a) + strlen(b) + 1;
	d = malloc(len);
	if (!d)
		return n;
	snprintf(d, len, "%s%s", a, b);
	/* the same directory twice would only lengthen error messages */
	for (int i = 0; i < n; i++)
		if (!strcmp(dirs[i], d)) {
			free(d);
			return n;
		}
	dirs[n] = d;
	return n + 1;
}

int ea_model_search_dirs(char **dirs, int max)
{
	const char *env = getenv("EATRACE_MODEL_PATH");
	char exe[PATH_MAX], lib[PATH_MAX];
	int n = 0;

	if (env) {
		const char *p = env;

		while (*p) {
			size_t len = strcspn(p, ":");
			char d[PATH_MAX];

			if (len && len < sizeof(d)) {
				memcpy(d, p, len);
				d[len] = '\0';
				n = add_dir(dirs, n, max, d, "");
			}
			p += len;
			if (*p == ':')
				p++;
		}
	}
	n = add_dir(dirs, n, max, "./models", "");
	ea_self_exe_dir(exe, sizeof(exe));
	if (exe[0]) {
		n = add_dir(dirs, n, max, exe, "/models");
		n = add_dir(dirs, n, max, exe, "/../share/eatrace/models");
		n = add_dir(dirs, n, max, exe, "/../models");
	}
	/* libeatrace.so.0 loaded by another program (Python): beside it, as
	 * installed (PREFIX/lib -> PREFIX/share/eatrace), or in a build tree
	 * (build/ -> the clone's models/) */
	ea_self_lib_dir(lib, sizeof(lib));
	if (lib[0] && strcmp(lib, exe)) {
		n = add_dir(dirs, n, max, lib, "/../share/eatrace/models");
		n = add_dir(dirs, n, max, lib, "/../models");
	}
	return n;
}

int ea_model_find(const char *name, char *path, size_t n, struct ea_err *err)
{
	char *dirs[SEARCH_MAX];
	char looked[EA_ERR_MAX] = "";
	int ndirs, rc = -1;

	ndirs = ea_model_search_dirs(dirs, SEARCH_MAX);
	for (int i = 0; i < ndirs; i++) {
		if (rc && snprintf(path, n, "%s/%s.json", dirs[i], name) < (int)n &&
		    access(path, R_OK) == 0)
			rc = 0;
		if (i)
			strncat(looked, ", ", sizeof(looked) - strlen(looked) - 1);
		strncat(looked, dirs[i], sizeof(looked) - strlen(looked) - 1);
	}
	for (int i = 0; i < ndirs; i++)
		free(dirs[i]);
	if (rc)
		ea_err_set(err, "model '%s' not found: no %s.json in %s (set EATRACE_MODEL_PATH, or give a path)",
			   name, name, looked);
	return rc;
}

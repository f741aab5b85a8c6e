// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import the kernel's energy model as debugfs shows it
 * (/sys/kernel/debug/energy_model, kernel/power/energy_model.c), copied
 * as a directory tree (cp -r, or adb pull). Layouts:
 *
 *	5.0 - 5.8:  pdN/cpus, pdN/cs:FREQ/{frequency,power,cost}
 *	5.9 - 5.15: cpuN/cpus, cpuN/ps:FREQ/{frequency,power,cost}
 *	5.16 on:    + cpuN/flags, ps:FREQ/inefficient
 *	6.9 on:     + ps:FREQ/performance (the OPP's capacity)
 *
 * SRC is the energy_model directory or one performance domain's directory.
 * Domains without a cpus file (GPUs, other devices) are skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/import-priv.h"
#include "model/import.h"

#define EM_MICROWATTS 0x1UL	/* EM_PERF_DOMAIN_MICROWATTS */
#define SMALL_FILE 4096

struct ps {
	unsigned long long freq, power, perf;
	bool have_perf;
	char *dir;		/* for messages */
};

struct pd {
	char *name, *dir;
	int *cpus, ncpus;
	bool have_flags;
	unsigned long flags;
	struct ps *ps;
	int nps;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		return NULL;
	return s;
}

/*
 * Trailing white space off; other control characters (and NULs) to '?', so
 * that the text can be quoted in a one-line message.
 */
static void sanitize(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
		     s[n - 1] == '\t'))
		s[--n] = '\0';
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = '?';
}

/* Read a small file holding one unsigned number (decimal or 0x hex). */
static int read_num(const char *dir, const char *entry, bool hex_ok,
		    unsigned long long *v, bool *missing, struct ea_err *err)
{
	char *path = join(dir, entry), *buf, *e;
	size_t len;
	int rc = -1;

	if (!path)
		return ea_err_set(err, "%s/%s: out of memory", dir, entry);
	if (missing) {
		struct stat st;

		*missing = stat(path, &st) && errno == ENOENT;
		if (*missing) {
			free(path);
			return 0;
		}
	}
	if (ea_read_sysfile(path, SMALL_FILE, &buf, &len, err))
		goto out;
	sanitize(buf);
	e = buf;
	while (*e == ' ' || *e == '\t')
		e++;
	if (*e < '0' || *e > '9' ||
	    (!hex_ok && (e[1] == 'x' || e[1] == 'X'))) {
		ea_err_set(err, "%s: '%.20s' is not a number", path, buf);
		goto free_buf;
	}
	errno = 0;
	*v = strtoull(e, &e, hex_ok ? 0 : 10);
	if (errno == ERANGE) {
		ea_err_set(err, "%s: number too large", path);
		goto free_buf;
	}
	while (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r')
		e++;
	if (*e) {
		ea_err_set(err, "%s: '%.20s' is not a number", path, buf);
		goto free_buf;
	}
	rc = 0;
free_buf:
	free(buf);
out:
	free(path);
	return rc;
}

static int is_state_dir(const char *name)
{
	return (!strncmp(name, "ps:", 3) || !strncmp(name, "cs:", 3)) &&
	       name[3] >= '0' && name[3] <= '9';
}

static int read_state(struct pd *pd, const char *name, struct ea_err *err)
{
	struct ps *s, *ns;
	unsigned long long dirfreq;
	bool missing;
	char *e;

	if (pd->nps >= EA_MODEL_MAX_CAP_STATES)
		return ea_err_set(err, "%s: more than %d performance states",
				  pd->dir, EA_MODEL_MAX_CAP_STATES);
	ns = realloc(pd->ps, (size_t)(pd->nps + 1) * sizeof(*ns));
	if (!ns)
		return ea_err_set(err, "%s: out of memory", pd->dir);
	pd->ps = ns;
	s = &pd->ps[pd->nps];
	memset(s, 0, sizeof(*s));
	s->dir = join(pd->dir, name);
	if (!s->dir)
		return ea_err_set(err, "%s: out of memory", pd->dir);
	pd->nps++;
	if (read_num(s->dir, "frequency", false, &s->freq, NULL, err) ||
	    read_num(s->dir, "power", false, &s->power, NULL, err) ||
	    read_num(s->dir, "performance", false, &s->perf, &missing, err))
		return -1;
	s->have_perf = !missing;
	errno = 0;
	dirfreq = strtoull(name + 3, &e, 10);
	if (*e || errno || dirfreq != s->freq)
		return ea_err_set(err, "%s/frequency: %llu differs from the directory's name",
				  s->dir, s->freq);
	if (s->freq < 1 || s->freq > EA_MODEL_MAX_FREQ_KHZ)
		return ea_err_set(err, "%s/frequency: %llu kHz is out of range (1..%u)",
				  s->dir, s->freq, EA_MODEL_MAX_FREQ_KHZ);
	if (s->power > (unsigned long long)EA_MODEL_MAX_POWER)
		return ea_err_set(err, "%s/power: %llu is absurd (the limit is 1e9)",
				  s->dir, s->power);
	if (s->have_perf && (s->perf < 1 || s->perf > EA_MODEL_MAX_CAP))
		return ea_err_set(err, "%s/performance: %llu is out of range (1..%u)",
				  s->dir, s->perf, EA_MODEL_MAX_CAP);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of a directory's entries that pass keep(). */
static int list_dir(const char *dir, int (*keep)(const char *),
		    char ***names, int *n, struct ea_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return ea_err_set(err, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		char **nn;

		if (de->d_name[0] == '.' || (keep && !keep(de->d_name)))
			continue;
		if (*n >= 65536) {
			closedir(d);
			return ea_err_set(err, "%s: too many entries", dir);
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			nn = realloc(*names, (size_t)cap * sizeof(*nn));
			if (!nn) {
				closedir(d);
				return ea_err_set(err, "%s: out of memory", dir);
			}
			*names = nn;
		}
		(*names)[*n] = strdup(de->d_name);
		if (!(*names)[*n]) {
			closedir(d);
			return ea_err_set(err, "%s: out of memory", dir);
		}
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, (size_t)*n, sizeof(**names), cmp_name);
	return 0;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool has_states(const char *dir)
{
	char **names;
	int n;
	bool yes;

	if (list_dir(dir, is_state_dir, &names, &n, NULL))
		return false;
	yes = n > 0;
	free_names(names, n);
	return yes;
}

static void free_pd(struct pd *pd)
{
	for (int k = 0; k < pd->nps; k++)
		free(pd->ps[k].dir);
	free(pd->ps);
	free(pd->cpus);
	free(pd->name);
	free(pd->dir);
}

/* Returns 1 when the domain is not a CPU one (no cpus file). */
static int read_pd(struct pd *pd, const char *dir, const char *name,
		   struct ea_err *err)
{
	char **names = NULL, *path, *buf;
	unsigned long long flags;
	bool missing;
	size_t len;
	int n, rc = -1;
	struct stat st;

	memset(pd, 0, sizeof(*pd));
	pd->dir = strdup(dir);
	pd->name = strdup(name);
	if (!pd->dir || !pd->name)
		return ea_err_set(err, "%s: out of memory", dir);
	path = join(dir, "cpus");
	if (!path)
		return ea_err_set(err, "%s: out of memory", dir);
	if (stat(path, &st) && errno == ENOENT) {
		free(path);
		return 1;
	}
	if (ea_read_sysfile(path, SMALL_FILE, &buf, &len, err)) {
		free(path);
		return -1;
	}
	sanitize(buf);
	pd->ncpus = ea_parse_cpulist(buf, &pd->cpus);
	if (pd->ncpus < 1) {
		ea_err_set(err, "%s: '%.40s' is not a CPU list (such as 0-3,6)",
			   path, buf);
		free(buf);
		free(path);
		return -1;
	}
	free(buf);
	free(path);
	if (read_num(dir, "flags", true, &flags, &missing, err))
		return -1;
	pd->have_flags = !missing;
	pd->flags = (unsigned long)flags;
	if (list_dir(dir, is_state_dir, &names, &n, err))
		return -1;
	if (!n) {
		ea_err_set(err, "%s: no ps:FREQ (or cs:FREQ) directories: not an energy_model performance domain",
			   dir);
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (read_state(pd, names[i], err))
			goto out;
	for (int i = 1; i < pd->nps; i++)
		if (pd->ps[i].have_perf != pd->ps[0].have_perf) {
			ea_err_set(err, "%s/performance: missing here but present in %s",
				   pd->ps[i].have_perf ? pd->ps[0].dir : pd->ps[i].dir,
				   pd->ps[i].have_perf ? pd->ps[i].dir : pd->ps[0].dir);
			goto out;
		}
	rc = 0;
out:
	free_names(names, n);
	return rc;
}

static int cmp_pd(const void *a, const void *b)
{
	const struct pd *x = a, *y = b;
	int cx = x->cpus[0], cy = y->cpus[0];

	for (int i = 1; i < x->ncpus; i++)
		if (x->cpus[i] < cx)
			cx = x->cpus[i];
	for (int i = 1; i < y->ncpus; i++)
		if (y->cpus[i] < cy)
			cy = y->cpus[i];
	return cx - cy;
}

static const char *unit_of(const struct pd *pd)
{
	if (!pd->have_flags)
		return "mW";
	return pd->flags & EM_MICROWATTS ? "uW" : "bogo";
}

static int import_debugfs(struct ea_model **out, const char *src,
			  const struct ea_import_opts *opts, struct ea_err *err)
{
	struct ea_strbuf skipped = { 0 };
	struct pd *pds = NULL;
	struct ea_imp b;
	char **names = NULL;
	int n = 0, npd = 0, rc = -1;
	bool perf = false;

	*out = NULL;
	if (!is_dir(src))
		return ea_err_set(err, "%s: not a directory (an energy_model debugfs tree is one)",
				  src);
	if (ea_imp_init(&b, src, opts, err))
		return -1;
	if (has_states(src)) {
		const char *base = strrchr(src, '/');

		names = malloc(sizeof(*names));
		if (!names || !(names[0] = strdup(base && base[1] ? base + 1 : src))) {
			ea_err_set(err, "%s: out of memory", src);
			goto out;
		}
		n = 1;
	} else if (list_dir(src, NULL, &names, &n, err)) {
		goto out;
	}
	pds = calloc((size_t)(n ? n : 1), sizeof(*pds));
	if (!pds) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		char *dir = n == 1 && has_states(src) ? strdup(src) :
			    join(src, names[i]);
		int r;

		if (!dir) {
			ea_err_set(err, "%s: out of memory", src);
			goto out;
		}
		if (!is_dir(dir) || (!has_states(dir))) {
			free(dir);
			continue;
		}
		r = read_pd(&pds[npd], dir, names[i], err);
		free(dir);
		if (r < 0) {
			npd++;
			goto out;
		}
		if (r > 0) {
			ea_sb_add(&skipped, "%s%s", skipped.len ? ", " : "",
				  names[i]);
			free_pd(&pds[npd]);
			continue;
		}
		npd++;
	}
	if (!npd) {
		ea_err_set(err, "%s: no CPU performance domains (directories with a cpus file and ps:FREQ or cs:FREQ subdirectories)",
			   src);
		goto out;
	}
	qsort(pds, (size_t)npd, sizeof(*pds), cmp_pd);
	for (int i = 1; i < npd; i++)
		if (strcmp(unit_of(&pds[i]), unit_of(&pds[0]))) {
			ea_err_set(err, "%s/flags: power in %s, but %s's is in %s: one model needs one unit",
				   pds[i].dir, unit_of(&pds[i]), pds[0].name,
				   unit_of(&pds[0]));
			goto out;
		}
	strcpy(b.m->power_unit, unit_of(&pds[0]));
	for (int i = 0; i < npd; i++) {
		struct pd *pd = &pds[i];
		int ci = ea_imp_cluster(&b, pd->name, pd->dir);

		if (ci < 0)
			goto out;
		for (int k = 0; k < pd->ncpus; k++) {
			char *loc = join(pd->dir, "cpus");

			if (!loc || ea_imp_cpu(&b, ci, pd->cpus[k], loc)) {
				free(loc);
				if (!loc)
					ea_err_set(err, "%s: out of memory", src);
				goto out;
			}
			free(loc);
		}
		for (int k = 0; k < pd->nps; k++) {
			struct ps *s = &pd->ps[k];

			if (s->have_perf)
				perf = true;
			if (ea_imp_cap(&b, ci, (uint32_t)s->freq,
				       s->have_perf ? (uint32_t)s->perf : 0,
				       (double)s->power, 0, s->dir))
				goto out;
		}
	}
	snprintf(b.m->name, sizeof(b.m->name), "energy model (debugfs)");
	ea_imp_note(&b, "Imported from the kernel energy model debugfs tree %s: one cluster per performance domain (its CPUs share a frequency), core_power = the OPP's power, cluster_power 0 (the kernel model has no cluster power), no idle states (the kernel model has none: an implicit zero-power idle state).",
		    src);
	if (pds[0].have_flags)
		ea_imp_note(&b, "power_unit '%s' from the domains' flags (EM_PERF_DOMAIN_MICROWATTS %s).",
			    b.m->power_unit,
			    pds[0].flags & EM_MICROWATTS ? "set" : "clear: an abstract scale");
	else
		ea_imp_note(&b, "power_unit 'mW': the tree has no flags files (a kernel before 5.16), whose energy model was in milliwatts or, on some platforms, an abstract scale; pass --power-unit if it is not mW.");
	if (perf)
		ea_imp_note(&b, "Capacities from each OPP's performance file.");
	if (skipped.len)
		ea_imp_note(&b, "Skipped non-CPU performance domains: %s.", skipped.s);
	if (skipped.oom) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	rc = ea_imp_finish(&b, "energy_model tree", out);
out:
	for (int i = 0; i < npd; i++)
		free_pd(&pds[i]);
	free(pds);
	free_names(names, n);
	free(skipped.s);
	ea_imp_free(&b);
	return rc;
}

int ea_import_debugfs(struct ea_model **out, const char *src,
		      const struct ea_import_opts *opts, struct ea_err *err)
{
	int rc = import_debugfs(out, src, opts, err);

	if (rc)
		ea_import_scrub(err);
	return rc;
}

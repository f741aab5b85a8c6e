// SPDX-License-Identifier: GPL-2.0-only
/*
 * A model in memory checked and completed, whoever built it (the loader or
 * an importer): ea_model_validate() refuses what the format does not allow,
 * naming the member by its JSON path; ea_model_derive() fills the derived
 * fields; ea_model_finish() does both for a model built in memory.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/model.h"
#include "model/model-priv.h"

struct vctx {
	ea_model_fail_fn fail;
	void *ctx;
};

static int vfail(struct vctx *v, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int vfail(struct vctx *v, const char *path, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return v->fail(v->ctx, path, msg);
}

static int check_power(struct vctx *v, const char *base, const char *key,
		       double x)
{
	char path[EA_JSON_PATH_LEN], num[32];

	if (isfinite(x) && x >= 0 && x <= EA_MODEL_MAX_POWER)
		return 0;
	ea_json_path_key(path, base, key);
	ea_model_fmt_num(x, num, sizeof(num));
	if (!isfinite(x))
		return vfail(v, path, "%s is not a finite number", num);
	if (x < 0)
		return vfail(v, path, "%s is negative", num);
	return vfail(v, path,
		     "%s is beyond the sanity limit 1e9 (a unit mistake?)",
		     num);
}

/* Names are printed inside one-line messages and tables. */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/*
 * A name must load back as written: the file is UTF-8, each byte that is
 * not is written as U+FFFD (3 bytes; eatrace/escape.h), so its length and
 * its uniqueness count in that form.
 */
static int check_text(struct vctx *v, const char *path, const char *what,
		      const char *s, size_t size)
{
	size_t n = ea_utf8_fixed_len(s);

	if (n >= size)
		return vfail(v, path,
			     "%s too long as written (%zu bytes, each byte "
			     "that is not UTF-8 as U+FFFD; at most %zu)",
			     what, n, size - 1);
	return 0;
}

/* For a duplicate name message: why two different names are the same. */
static const char *as_written(const char *a, const char *b)
{
	return strcmp(a, b) ? ", once each byte that is not UTF-8 is U+FFFD"
			    : "";
}

static int validate_cluster(struct vctx *v, const struct ea_model *m, int ci,
			    int *owner)
{
	const struct ea_cluster *cl = &m->clusters[ci];
	char cpath[EA_JSON_PATH_LEN], path[EA_JSON_PATH_LEN],
		epath[EA_JSON_PATH_LEN];

	ea_json_path_idx(cpath, "clusters", ci);
	ea_json_path_key(path, cpath, "name");
	if (!cl->name[0])
		return vfail(v, path, "empty cluster name");
	if (has_control(cl->name))
		return vfail(v, path, "control character in cluster name");
	if (check_text(v, path, "cluster name", cl->name, sizeof(cl->name)))
		return -1;
	for (int j = 0; j < ci; j++)
		if (ea_utf8_fixed_eq(m->clusters[j].name, cl->name))
			return vfail(v, path,
				     "duplicate cluster name '%s' (also "
				     "clusters[%d]%s)",
				     cl->name, j,
				     as_written(m->clusters[j].name, cl->name));

	ea_json_path_key(path, cpath, "cpus");
	if (cl->ncpus < 1)
		return vfail(v, path, "a cluster needs at least one CPU");
	for (int k = 0; k < cl->ncpus; k++) {
		int cpu = cl->cpus[k];

		ea_json_path_idx(epath, path, k);
		if (cpu < 0 || cpu >= EA_MODEL_MAX_CPUS)
			return vfail(v, epath,
				     "CPU id %d is out of range (0..%d)", cpu,
				     EA_MODEL_MAX_CPUS - 1);
		if (owner[cpu] == ci)
			return vfail(v, epath,
				     "CPU %d is listed twice in this cluster",
				     cpu);
		if (owner[cpu] >= 0)
			return vfail(
				v, epath,
				"CPU %d is also in cluster '%s' "
				"(clusters[%d]): a CPU belongs to one cluster",
				cpu, m->clusters[owner[cpu]].name, owner[cpu]);
		owner[cpu] = ci;
	}

	if (check_power(v, cpath, "offline_power", cl->offline_power))
		return -1;
	ea_json_path_key(path, cpath, "cap_states");
	if (cl->ncaps < 1)
		return vfail(v, path, "a cluster needs at least one cap state");
	if (cl->ncaps > EA_MODEL_MAX_CAP_STATES)
		return vfail(v, path, "more than %d cap states",
			     EA_MODEL_MAX_CAP_STATES);
	for (int k = 0; k < cl->ncaps; k++) {
		const struct ea_cap_state *cs = &cl->caps[k];
		char fpath[EA_JSON_PATH_LEN];

		ea_json_path_idx(epath, path, k);
		ea_json_path_key(fpath, epath, "freq_khz");
		if (cs->freq_khz < 1 || cs->freq_khz > EA_MODEL_MAX_FREQ_KHZ)
			return vfail(v, fpath, "%u is out of range (1..%u kHz)",
				     cs->freq_khz, EA_MODEL_MAX_FREQ_KHZ);
		if (k && cs->freq_khz <= cl->caps[k - 1].freq_khz)
			return vfail(v, fpath,
				     "frequencies must be strictly ascending: "
				     "%u kHz after %u kHz",
				     cs->freq_khz, cl->caps[k - 1].freq_khz);
		ea_json_path_key(fpath, epath, "cap");
		if (cs->cap < 1 || cs->cap > EA_MODEL_MAX_CAP)
			return vfail(v, fpath, "%u is out of range (1..%u)",
				     cs->cap, EA_MODEL_MAX_CAP);
		if (k && cs->cap <= cl->caps[k - 1].cap)
			return vfail(v, fpath,
				     "capacities must be strictly ascending: "
				     "%u after %u",
				     cs->cap, cl->caps[k - 1].cap);
		if (check_power(v, epath, "core_power", cs->core_power) ||
		    check_power(v, epath, "cluster_power", cs->cluster_power))
			return -1;
	}

	ea_json_path_key(path, cpath, "idle_states");
	if (cl->nidles > EA_MODEL_MAX_IDLE_STATES)
		return vfail(v, path, "more than %d idle states",
			     EA_MODEL_MAX_IDLE_STATES);
	for (int k = 0; k < cl->nidles; k++) {
		const struct ea_idle_state *is = &cl->idles[k];
		char npath[EA_JSON_PATH_LEN];

		ea_json_path_idx(epath, path, k);
		ea_json_path_key(npath, epath, "name");
		if (!is->name[0])
			return vfail(v, npath, "empty idle state name");
		if (has_control(is->name))
			return vfail(v, npath,
				     "control character in idle state name");
		if (check_text(v, npath, "idle state name", is->name,
			       sizeof(is->name)))
			return -1;
		for (int j = 0; j < k; j++)
			if (ea_utf8_fixed_eq(cl->idles[j].name, is->name))
				return vfail(v, npath,
					     "duplicate idle state name '%s' "
					     "(also idle_states[%d]%s)",
					     is->name, j,
					     as_written(cl->idles[j].name,
							is->name));
		if (check_power(v, epath, "core_power", is->core_power) ||
		    check_power(v, epath, "cluster_power", is->cluster_power) ||
		    check_power(v, epath, "core_wakeup", is->core_wakeup) ||
		    check_power(v, epath, "cluster_wakeup", is->cluster_wakeup))
			return -1;
		ea_json_path_key(npath, epath, "target_residency_us");
		if (is->target_residency_us > EA_MODEL_MAX_RESIDENCY_US)
			return vfail(v, npath, "%u is out of range (0..%u us)",
				     is->target_residency_us,
				     EA_MODEL_MAX_RESIDENCY_US);
		ea_json_path_key(npath, epath, "exit_latency_us");
		if (is->exit_latency_us > EA_MODEL_MAX_RESIDENCY_US)
			return vfail(v, npath, "%u is out of range (0..%u us)",
				     is->exit_latency_us,
				     EA_MODEL_MAX_RESIDENCY_US);
	}
	return 0;
}

int ea_model_validate(const struct ea_model *m, ea_model_fail_fn fail,
		      void *ctx)
{
	struct vctx v = {fail, ctx};
	int *owner, rc = 0;

	if (!m->name[0])
		return vfail(&v, "name", "empty model name");
	if (has_control(m->name))
		return vfail(&v, "name", "control character in model name");
	if (check_text(&v, "name", "model name", m->name, sizeof(m->name)))
		return -1;
	if (!m->power_unit[0])
		return vfail(
			&v, "power_unit",
			"empty power unit (say \"mW\", \"uW\" or \"bogo\")");
	if (has_control(m->power_unit))
		return vfail(&v, "power_unit",
			     "control character in power unit");
	if (check_text(&v, "power_unit", "power unit", m->power_unit,
		       sizeof(m->power_unit)))
		return -1;
	if (m->nclusters < 1)
		return vfail(&v, "clusters",
			     "a model needs at least one cluster");
	if (check_power(&v, "", "suspend_power", m->suspend_power))
		return -1;
	owner = malloc(EA_MODEL_MAX_CPUS * sizeof(*owner));
	if (!owner)
		return vfail(&v, "", "out of memory");
	for (int i = 0; i < EA_MODEL_MAX_CPUS; i++)
		owner[i] = -1;
	for (int i = 0; i < m->nclusters && !rc; i++)
		rc = validate_cluster(&v, m, i, owner);
	free(owner);
	return rc;
}

static int64_t micro(double x)
{
	return llround(x * (double)EA_MICRO);
}

int ea_model_derive(struct ea_model *m)
{
	int maxcpu = -1;

	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];

		if (cl->nidles == 0) {
			free(cl->idles);
			cl->idles = calloc(1, sizeof(*cl->idles));
			if (!cl->idles)
				return -1;
			strcpy(cl->idles[0].name, "idle");
			cl->nidles = 1;
			cl->idle_implicit = true;
		}
		for (int k = 0; k < cl->ncaps; k++) {
			struct ea_cap_state *cs = &cl->caps[k];

			cs->core_power_u = micro(cs->core_power);
			cs->cluster_power_u = micro(cs->cluster_power);
		}
		for (int k = 0; k < cl->nidles; k++) {
			struct ea_idle_state *is = &cl->idles[k];

			is->core_power_u = micro(is->core_power);
			is->cluster_power_u = micro(is->cluster_power);
			is->core_wakeup_u = micro(is->core_wakeup);
			is->cluster_wakeup_u = micro(is->cluster_wakeup);
		}
		for (int k = 0; k < cl->ncpus; k++)
			if (cl->cpus[k] > maxcpu)
				maxcpu = cl->cpus[k];
	}
	free(m->cpu_cluster);
	m->ncpus = maxcpu + 1;
	m->cpu_cluster = malloc((size_t)(m->ncpus ? m->ncpus : 1) *
				sizeof(*m->cpu_cluster));
	if (!m->cpu_cluster)
		return -1;
	for (int c = 0; c < m->ncpus; c++)
		m->cpu_cluster[c] = -1;
	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncpus; k++)
			m->cpu_cluster[m->clusters[i].cpus[k]] = i;
	return 0;
}

struct finish_ctx {
	const struct ea_model *m;
	struct ea_err *err;
};

static int finish_fail(void *ctx, const char *path, const char *msg)
{
	struct finish_ctx *f = ctx;
	const char *who = f->m->path	  ? f->m->path
			  : f->m->name[0] ? f->m->name
					  : "model";

	if (!*path)
		return ea_err_set(f->err, "%s: %s", who, msg);
	return ea_err_set(f->err, "%s: %s: %s", who, path, msg);
}

int ea_model_finish(struct ea_model *m, struct ea_err *err)
{
	struct finish_ctx f = {m, err};

	if (ea_model_validate(m, finish_fail, &f))
		return -1;
	if (ea_model_derive(m))
		return finish_fail(&f, "", "out of memory");
	return 0;
}

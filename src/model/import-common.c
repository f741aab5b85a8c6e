// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every model importer shares: the model builder that remembers where
 * each part came from, the generic options (--cpus, --ncpus, --trace,
 * --freqs, --capacity, --voltage, --power-unit, --name), the capacity rule
 * for sources that give none, validation with errors that name the source
 * line, the importer table and format detection.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eatrace/escape.h"
#include "eatrace/input.h"
#include "model/import.h"
#include "model/model-priv.h"

const struct ea_importer ea_importers[] = {
	{ "idlestat", "idlestat energy-model file (clusters N, P-states, C-states, wakeup)",
	  ea_import_idlestat },
	{ "debugfs", "kernel /sys/kernel/debug/energy_model tree (ps:FREQ or cs:FREQ)",
	  ea_import_debugfs },
	{ "dt", "Android sched-energy-costs device-tree binding (dts text or dtb)",
	  ea_import_dt },
	{ "power-profile", "Android power_profile.xml (mA)", ea_import_power_profile },
	{ "lisa", "LISA plat_info.yml nrg-model (libyaml)", ea_import_lisa },
	{ "wattson", "Perfetto Wattson CPU curves (cpu_1d.csv, cpu_2d.csv; mW)",
	  ea_import_wattson },
	{ "json", "eatrace native model JSON", ea_import_json },
	{ NULL, NULL, NULL },
};

const struct ea_importer *ea_importer_find(const char *name)
{
	if (!strcmp(name, "power_profile") || !strcmp(name, "xml"))
		name = "power-profile";
	else if (!strcmp(name, "dtb") || !strcmp(name, "dts"))
		name = "dt";
	else if (!strcmp(name, "plat_info") || !strcmp(name, "yaml"))
		name = "lisa";
	else if (!strcmp(name, "native"))
		name = "json";
	for (const struct ea_importer *im = ea_importers; im->name; im++)
		if (!strcmp(im->name, name))
			return im;
	return NULL;
}

/* ---- strings ---- */

static void sb_vadd(struct ea_strbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void sb_vadd(struct ea_strbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (b->oom)
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 256) + (size_t)n;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	b->len += (size_t)n;
}

void ea_sb_add(struct ea_strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vadd(b, fmt, ap);
	va_end(ap);
}

/* ---- numbers and files ---- */

void ea_import_scrub(struct ea_err *err)
{
	if (!err)
		return;
	for (char *p = err->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

double ea_rfc_wakeup(double w)
{
	return w * 47742.0 / (1024.0 * 1000.0);
}

int ea_parse_num(const char *s, size_t n, double *v)
{
	char buf[64], *end;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strchr("0123456789+-.", buf[0]))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789+-.eE", buf[i]))
			return -1;
	errno = 0;
	*v = strtod(buf, &end);
	if (end != buf + n || !isfinite(*v))
		return -1;
	return 0;
}

int ea_parse_cpulist(const char *s, int **cpus)
{
	int *v = NULL, n = 0, cap = 0;

	*cpus = NULL;
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != '\n') {
		long a, b;
		char *e;

		if (*s < '0' || *s > '9')
			goto bad;
		a = strtol(s, &e, 10);
		b = a;
		s = e;
		if (*s == '-') {
			s++;
			if (*s < '0' || *s > '9')
				goto bad;
			b = strtol(s, &e, 10);
			s = e;
		}
		if (a > b || b >= EA_MODEL_MAX_CPUS)
			goto bad;
		for (long c = a; c <= b; c++) {
			if (n >= EA_MODEL_MAX_CPUS)
				goto bad;
			if (n == cap) {
				int *nv;

				cap = cap ? cap * 2 : 16;
				nv = realloc(v, (size_t)cap * sizeof(*v));
				if (!nv)
					goto bad;
				v = nv;
			}
			v[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n' && *s != ' ' && *s != '\t')
			goto bad;
		while (*s == ' ' || *s == '\t')
			s++;
	}
	*cpus = v;
	return n;
bad:
	free(v);
	return -1;
}

static int read_file(const char *path, size_t max, bool sys, char **buf,
		     size_t *len, struct ea_err *err)
{
	size_t n = 0, cap = 4096;
	char *b;
	FILE *f;
	int fd;

	*buf = NULL;
	*len = 0;
	/* Not a pipe, terminal, device or trace_pipe: reading one could block
	 * for ever (a dts can name any path in /include/). */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	if (ea_input_check_fd(fd, path, sys, err)) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, 0);
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	}
	b = malloc(cap);
	if (!b) {
		fclose(f);
		return ea_err_set(err, "%s: out of memory", path);
	}
	for (;;) {
		size_t got;

		if (n + 1 >= cap) {
			char *nb;

			if (cap > max) {
				free(b);
				fclose(f);
				return ea_err_set(err, "%s: larger than %zu bytes: not a model source",
						  path, max);
			}
			cap *= 2;
			nb = realloc(b, cap);
			if (!nb) {
				free(b);
				fclose(f);
				return ea_err_set(err, "%s: out of memory", path);
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		free(b);
		fclose(f);
		return ea_err_set(err, "%s: %s", path,
				  e == EISDIR ? "is a directory" : strerror(e ? e : EIO));
	}
	fclose(f);
	if (n > max) {
		free(b);
		return ea_err_set(err, "%s: larger than %zu bytes: not a model source",
				  path, max);
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int ea_read_file(const char *path, size_t max, char **buf, size_t *len,
		 struct ea_err *err)
{
	return read_file(path, max, false, buf, len, err);
}

int ea_read_sysfile(const char *path, size_t max, char **buf, size_t *len,
		    struct ea_err *err)
{
	return read_file(path, max, true, buf, len, err);
}

/* ---- the builder ---- */

int ea_imp_init(struct ea_imp *b, const char *src,
		const struct ea_import_opts *opts, struct ea_err *err)
{
	static const struct ea_import_opts none;

	memset(b, 0, sizeof(*b));
	b->src = src;
	b->opts = opts ? opts : &none;
	b->err = err;
	b->m = calloc(1, sizeof(*b->m));
	if (!b->m)
		return ea_err_set(err, "%s: out of memory", src);
	strcpy(b->m->power_unit, "bogo");
	snprintf(b->m->name, sizeof(b->m->name), "imported");
	return 0;
}

void ea_imp_free(struct ea_imp *b)
{
	/* location arrays are zeroed as they grow: free every slot */
	for (int i = 0; i < b->cl_alloc; i++) {
		for (int k = 0; b->cap_loc[i] && k < b->cap_alloc[i]; k++)
			free(b->cap_loc[i][k]);
		for (int k = 0; b->idle_loc[i] && k < b->idle_alloc[i]; k++)
			free(b->idle_loc[i][k]);
	}
	for (int i = 0; i < b->cl_alloc; i++) {
		free(b->cl_loc[i]);
		free(b->cap_loc[i]);
		free(b->idle_loc[i]);
	}
	free(b->cl_loc);
	free(b->cap_loc);
	free(b->idle_loc);
	free(b->cap_alloc);
	free(b->idle_alloc);
	free(b->cpu_alloc);
	free(b->cap_given);
	free(b->notes.s);
	ea_model_free(b->m);
	memset(b, 0, sizeof(*b));
}

int ea_imp_fail(struct ea_imp *b, const char *loc, const char *fmt, ...)
{
	char msg[EA_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ea_err_set(b->err, "%s: %s", loc ? loc : b->src, msg);
}

void ea_imp_note(struct ea_imp *b, const char *fmt, ...)
{
	va_list ap;

	if (b->notes.len)
		ea_sb_add(&b->notes, " ");
	va_start(ap, fmt);
	sb_vadd(&b->notes, fmt, ap);
	va_end(ap);
}

static void *grow(void *p, int *alloc, int need, size_t size)
{
	int n;
	void *np;

	if (need <= *alloc)
		return p;
	n = *alloc ? *alloc * 2 : 8;
	while (n < need)
		n *= 2;
	np = realloc(p, (size_t)n * size);
	if (!np)
		return NULL;
	memset((char *)np + (size_t)*alloc * size, 0,
	       (size_t)(n - *alloc) * size);
	*alloc = n;
	return np;
}

int ea_imp_cluster(struct ea_imp *b, const char *name, const char *loc)
{
	struct ea_model *m = b->m;
	int i = m->nclusters, alloc;
	struct ea_cluster *cl;

	if (i >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(b, loc, "more than %d clusters", EA_MODEL_MAX_CPUS);
	if (strlen(name) >= EA_NAME_LEN)
		return ea_imp_fail(b, loc, "cluster name '%.40s...' is longer than %d characters",
				   name, EA_NAME_LEN - 1);
	if (i >= b->cl_alloc) {
		void *p;

		alloc = b->cl_alloc;
		p = grow(m->clusters, &alloc, i + 1, sizeof(*m->clusters));
		if (!p)
			goto oom;
		m->clusters = p;
#define GROW_PARALLEL(field)                                                   \
	do {                                                                   \
		int a_ = b->cl_alloc;                                          \
		void *q_ = grow(b->field, &a_, i + 1, sizeof(*b->field));      \
		if (!q_)                                                       \
			goto oom;                                              \
		b->field = q_;                                                 \
	} while (0)
		GROW_PARALLEL(cl_loc);
		GROW_PARALLEL(cap_loc);
		GROW_PARALLEL(idle_loc);
		GROW_PARALLEL(cap_alloc);
		GROW_PARALLEL(idle_alloc);
		GROW_PARALLEL(cpu_alloc);
		GROW_PARALLEL(cap_given);
#undef GROW_PARALLEL
		b->cl_alloc = alloc;
	}
	cl = &m->clusters[i];
	memset(cl, 0, sizeof(*cl));
	strcpy(cl->name, name);
	cl->freq_domain = true;
	b->cl_loc[i] = strdup(loc ? loc : b->src);
	if (!b->cl_loc[i])
		goto oom;
	b->cap_given[i] = true;
	m->nclusters++;
	return i;
oom:
	return ea_imp_fail(b, loc, "out of memory");
}

int ea_imp_cpu(struct ea_imp *b, int ci, int cpu, const char *loc)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	int *p;

	if (cpu < 0 || cpu >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(b, loc, "CPU id %d is out of range (0..%d)", cpu,
				   EA_MODEL_MAX_CPUS - 1);
	if (cl->ncpus >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(b, loc, "more than %d CPUs", EA_MODEL_MAX_CPUS);
	p = grow(cl->cpus, &b->cpu_alloc[ci], cl->ncpus + 1, sizeof(*p));
	if (!p)
		return ea_imp_fail(b, loc, "out of memory");
	cl->cpus = p;
	cl->cpus[cl->ncpus++] = cpu;
	return 0;
}

int ea_imp_cap(struct ea_imp *b, int ci, uint32_t freq_khz, uint32_t cap,
	       double core_power, double cluster_power, const char *loc)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	int alloc = b->cap_alloc[ci];
	struct ea_cap_state *p;
	char **lp;

	if (cl->ncaps >= EA_MODEL_MAX_CAP_STATES)
		return ea_imp_fail(b, loc, "cluster '%s': more than %d cap states",
				   cl->name, EA_MODEL_MAX_CAP_STATES);
	p = grow(cl->caps, &alloc, cl->ncaps + 1, sizeof(*p));
	if (!p)
		return ea_imp_fail(b, loc, "out of memory");
	cl->caps = p;
	alloc = b->cap_alloc[ci];
	lp = grow(b->cap_loc[ci], &alloc, cl->ncaps + 1, sizeof(*lp));
	if (!lp)
		return ea_imp_fail(b, loc, "out of memory");
	b->cap_loc[ci] = lp;
	b->cap_alloc[ci] = alloc;
	lp[cl->ncaps] = strdup(loc ? loc : b->src);
	if (!lp[cl->ncaps])
		return ea_imp_fail(b, loc, "out of memory");
	p = &cl->caps[cl->ncaps++];
	memset(p, 0, sizeof(*p));
	p->freq_khz = freq_khz;
	p->cap = cap;
	p->core_power = core_power;
	p->cluster_power = cluster_power;
	if (!cap)
		b->cap_given[ci] = false;
	return 0;
}

int ea_imp_idle(struct ea_imp *b, int ci, const char *name, double core_power,
		double cluster_power, double core_wakeup,
		double cluster_wakeup, uint32_t residency_us, const char *loc)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	int alloc = b->idle_alloc[ci];
	struct ea_idle_state *p;
	char **lp;

	if (cl->nidles >= EA_MODEL_MAX_IDLE_STATES)
		return ea_imp_fail(b, loc, "cluster '%s': more than %d idle states",
				   cl->name, EA_MODEL_MAX_IDLE_STATES);
	if (strlen(name) >= EA_NAME_LEN)
		return ea_imp_fail(b, loc, "idle state name '%.40s...' is longer than %d characters",
				   name, EA_NAME_LEN - 1);
	p = grow(cl->idles, &alloc, cl->nidles + 1, sizeof(*p));
	if (!p)
		return ea_imp_fail(b, loc, "out of memory");
	cl->idles = p;
	alloc = b->idle_alloc[ci];
	lp = grow(b->idle_loc[ci], &alloc, cl->nidles + 1, sizeof(*lp));
	if (!lp)
		return ea_imp_fail(b, loc, "out of memory");
	b->idle_loc[ci] = lp;
	b->idle_alloc[ci] = alloc;
	lp[cl->nidles] = strdup(loc ? loc : b->src);
	if (!lp[cl->nidles])
		return ea_imp_fail(b, loc, "out of memory");
	p = &cl->idles[cl->nidles++];
	memset(p, 0, sizeof(*p));
	strcpy(p->name, name);
	p->core_power = core_power;
	p->cluster_power = cluster_power;
	p->core_wakeup = core_wakeup;
	p->cluster_wakeup = cluster_wakeup;
	p->target_residency_us = residency_us;
	return 0;
}

/* ---- generic options ---- */

bool ea_import_key_matches(const struct ea_model *m, int ci, const char *key)
{
	const char *name = m->clusters[ci].name;
	char *e;
	long idx;

	if (!strcmp(name, key))
		return true;
	if (!strncmp(name, "cluster", 7) && !strcmp(name + 7, key))
		return true;
	if (*key >= '0' && *key <= '9') {
		idx = strtol(key, &e, 10);
		if (!*e && idx == ci)
			return true;
	}
	return false;
}

static int find_cluster(struct ea_imp *b, const char *opt, const char *key)
{
	struct ea_model *m = b->m;
	struct ea_strbuf names = { 0 };
	int found = -1;

	for (int i = 0; i < m->nclusters; i++)
		if (!strcmp(m->clusters[i].name, key))
			return i;
	for (int i = 0; i < m->nclusters; i++)
		if (ea_import_key_matches(m, i, key)) {
			found = i;
			break;
		}
	if (found >= 0)
		return found;
	for (int i = 0; i < m->nclusters; i++)
		ea_sb_add(&names, "%s%s", i ? ", " : "", m->clusters[i].name);
	ea_err_set(b->err, "%s: no cluster '%s' in %s (its clusters: %s)", opt,
		   key, b->src, names.s ? names.s : "none");
	free(names.s);
	return -1;
}

static void set_cpus(struct ea_cluster *cl, int *cpus, int n, int *alloc)
{
	free(cl->cpus);
	cl->cpus = cpus;
	cl->ncpus = n;
	*alloc = n;
}

struct topo_ctx {
	struct ea_imp *b;
	bool *seen;
	int **cpus;
	int *n;
};

static int topo_cb(void *ctx, const char *cluster, int cpu)
{
	struct topo_ctx *t = ctx;
	struct ea_model *m = t->b->m;
	int ci = -1;
	int *p;

	for (int i = 0; i < m->nclusters && ci < 0; i++)
		if (!strcmp(m->clusters[i].name, cluster))
			ci = i;
	for (int i = 0; i < m->nclusters && ci < 0; i++)
		if (ea_import_key_matches(m, i, cluster))
			ci = i;
	if (ci < 0)
		return ea_err_set(t->b->err, "%s: the topology header's %s is not a cluster of %s",
				  t->b->opts->trace, cluster, t->b->src);
	p = realloc(t->cpus[ci], (size_t)(t->n[ci] + 1) * sizeof(*p));
	if (!p)
		return ea_err_set(t->b->err, "%s: out of memory", t->b->opts->trace);
	t->cpus[ci] = p;
	p[t->n[ci]++] = cpu;
	t->seen[ci] = true;
	return 0;
}

static int apply_trace(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	struct topo_ctx t = { b, NULL, NULL, NULL };
	int rc = -1;

	t.seen = calloc((size_t)m->nclusters, sizeof(*t.seen));
	t.cpus = calloc((size_t)m->nclusters, sizeof(*t.cpus));
	t.n = calloc((size_t)m->nclusters, sizeof(*t.n));
	if (!t.seen || !t.cpus || !t.n) {
		ea_err_set(b->err, "%s: out of memory", b->opts->trace);
		goto out;
	}
	if (ea_idlestat_topology(b->opts->trace, topo_cb, &t, b->err))
		goto out;
	for (int i = 0; i < m->nclusters; i++) {
		if (!t.seen[i]) {
			ea_err_set(b->err, "%s: the topology header has no %s (a cluster of %s)",
				   b->opts->trace, m->clusters[i].name, b->src);
			goto out;
		}
		set_cpus(&m->clusters[i], t.cpus[i], t.n[i], &b->cpu_alloc[i]);
		t.cpus[i] = NULL;
	}
	ea_imp_note(b, "CPUs of each cluster from the topology header of %s.",
		    b->opts->trace);
	rc = 0;
out:
	for (int i = 0; t.cpus && i < m->nclusters; i++)
		free(t.cpus[i]);
	free(t.seen);
	free(t.cpus);
	free(t.n);
	return rc;
}

static int apply_ncpus(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	const char *s = b->opts->ncpus;
	int next = 0, i = 0;

	while (*s) {
		char *e;
		long n;
		int *cpus;

		if (*s < '0' || *s > '9')
			return ea_err_set(b->err, "--ncpus: '%s' is not a list of CPU counts (e.g. 2,3)",
					  b->opts->ncpus);
		n = strtol(s, &e, 10);
		s = e;
		if (*s == ',')
			s++;
		else if (*s)
			return ea_err_set(b->err, "--ncpus: '%s' is not a list of CPU counts (e.g. 2,3)",
					  b->opts->ncpus);
		if (i >= m->nclusters)
			return ea_err_set(b->err, "--ncpus: %s has %d clusters, '%s' counts more",
					  b->src, m->nclusters, b->opts->ncpus);
		if (n < 1 || n > EA_MODEL_MAX_CPUS - next)
			return ea_err_set(b->err, "--ncpus: %ld CPUs for %s is out of range",
					  n, m->clusters[i].name);
		cpus = malloc((size_t)n * sizeof(*cpus));
		if (!cpus)
			return ea_err_set(b->err, "--ncpus: out of memory");
		for (int k = 0; k < n; k++)
			cpus[k] = next++;
		set_cpus(&m->clusters[i], cpus, (int)n, &b->cpu_alloc[i]);
		i++;
	}
	if (i != m->nclusters)
		return ea_err_set(b->err, "--ncpus: %s has %d clusters, '%s' counts %d",
				  b->src, m->nclusters, b->opts->ncpus, i);
	ea_imp_note(b, "CPUs assigned in cluster order from --ncpus %s.",
		    b->opts->ncpus);
	return 0;
}

static int apply_cpus(struct ea_imp *b, const struct ea_import_kv *kv)
{
	struct ea_cluster *cl;
	int ci = find_cluster(b, "--cpus", kv->key), n;
	int *cpus;

	if (ci < 0)
		return -1;
	n = ea_parse_cpulist(kv->val, &cpus);
	if (n < 1) {
		free(cpus);
		return ea_err_set(b->err, "--cpus %s=%s: not a CPU list (e.g. 0-3,6; ids 0..%d)",
				  kv->key, kv->val, EA_MODEL_MAX_CPUS - 1);
	}
	cl = &b->m->clusters[ci];
	set_cpus(cl, cpus, n, &b->cpu_alloc[ci]);
	ea_imp_note(b, "CPUs of %s from --cpus %s.", cl->name, kv->val);
	return 0;
}

static int apply_freqs(struct ea_imp *b, const struct ea_import_kv *kv)
{
	struct ea_cluster *cl;
	const char *s = kv->val;
	int ci = find_cluster(b, "--freqs", kv->key), k = 0;

	if (ci < 0)
		return -1;
	cl = &b->m->clusters[ci];
	while (*s) {
		unsigned long long f;
		char *e;

		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		f = strtoull(s, &e, 10);
		s = e;
		if (errno || f < 1 || f > EA_MODEL_MAX_FREQ_KHZ)
			return ea_err_set(b->err, "--freqs %s: %llu kHz is out of range (1..%u)",
					  kv->key, f, EA_MODEL_MAX_FREQ_KHZ);
		if (k < cl->ncaps)
			cl->caps[k].freq_khz = (uint32_t)f;
		k++;
		if (*s == ',')
			s++;
		else
			break;
	}
	if (*s)
		return ea_err_set(b->err, "--freqs %s=%s: not a list of frequencies in kHz",
				  kv->key, kv->val);
	if (k != cl->ncaps)
		return ea_err_set(b->err, "--freqs %s: %d frequencies for %d cap states",
				  kv->key, k, cl->ncaps);
	ea_imp_note(b, "Frequencies of %s from --freqs.", cl->name);
	return 0;
}

struct order {
	uint32_t key;
	int idx;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx - y->idx;
}

/* Cap states by ascending frequency (keeping their source locations). */
static int sort_caps(struct ea_imp *b, int ci)
{
	struct ea_cluster *cl = &b->m->clusters[ci];
	struct ea_cap_state *caps;
	struct order *o;
	char **locs;

	o = malloc((size_t)cl->ncaps * sizeof(*o));
	caps = malloc((size_t)cl->ncaps * sizeof(*caps));
	locs = malloc((size_t)cl->ncaps * sizeof(*locs));
	if (!o || !caps || !locs) {
		free(o);
		free(caps);
		free(locs);
		return ea_imp_fail(b, NULL, "out of memory");
	}
	for (int k = 0; k < cl->ncaps; k++)
		o[k] = (struct order){ cl->caps[k].freq_khz, k };
	qsort(o, (size_t)cl->ncaps, sizeof(*o), cmp_order);
	for (int k = 0; k < cl->ncaps; k++) {
		caps[k] = cl->caps[o[k].idx];
		locs[k] = b->cap_loc[ci][o[k].idx];
	}
	memcpy(cl->caps, caps, (size_t)cl->ncaps * sizeof(*caps));
	memcpy(b->cap_loc[ci], locs, (size_t)cl->ncaps * sizeof(*locs));
	free(o);
	free(caps);
	free(locs);
	return 0;
}

/*
 * Capacities for clusters whose source gives none: proportional to
 * frequency, the fastest OPP of all clusters = 1024; or, with --capacity
 * CLUSTER=CAP, CAP at the cluster's top OPP and proportional below it.
 * Kept strictly ascending (a state that would round to its predecessor's
 * capacity gets one more).
 */
static int derive_caps(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	struct ea_strbuf derived = { 0 };
	uint32_t fmax = 0;
	bool bumped = false;
	int nderived = 0;

	for (int i = 0; i < m->nclusters; i++)
		for (int k = 0; k < m->clusters[i].ncaps; k++)
			if (m->clusters[i].caps[k].freq_khz > fmax)
				fmax = m->clusters[i].caps[k].freq_khz;
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];
		const struct ea_import_kv *kv = NULL;
		double top = 1024, ftop = fmax;

		for (int j = 0; j < b->opts->ncaps_kv; j++)
			if (ea_import_key_matches(m, i, b->opts->caps[j].key))
				kv = &b->opts->caps[j];
		if (!kv && b->cap_given[i])
			continue;
		if (!cl->ncaps)
			continue;
		if (kv) {
			char *e;
			long c = strtol(kv->val, &e, 10);

			if (*e || e == kv->val || c < 1 || c > EA_MODEL_MAX_CAP) {
				free(derived.s);
				return ea_err_set(b->err, "--capacity %s=%s: not a capacity (1..%u)",
						  kv->key, kv->val, EA_MODEL_MAX_CAP);
			}
			top = (double)c;
			ftop = cl->caps[cl->ncaps - 1].freq_khz;
			ea_imp_note(b, "Capacities of %s scaled by frequency from --capacity %s=%ld at %u kHz.",
				    cl->name, kv->key, c, (unsigned)ftop);
		} else {
			ea_sb_add(&derived, "%s%s", nderived++ ? ", " : "", cl->name);
		}
		for (int k = 0; k < cl->ncaps; k++) {
			double c = floor(top * cl->caps[k].freq_khz / ftop + 0.5);
			uint32_t cap = c < 1 ? 1 : c > 1e6 ? 1000000 : (uint32_t)c;

			if (k && cap <= cl->caps[k - 1].cap) {
				cap = cl->caps[k - 1].cap + 1;
				bumped = true;
			}
			cl->caps[k].cap = cap;
		}
		b->cap_given[i] = true;
	}
	if (nderived)
		ea_imp_note(b, "The source gives no capacities: those of %s are derived from frequency, cap = round(1024 x freq_khz / %u), %u kHz being the fastest OPP of all clusters. This ignores that a big core does more work per MHz than a little one: set the real capacity of each cluster's top OPP with --capacity CLUSTER=CAP (e.g. from /sys/devices/system/cpu/cpuN/cpu_capacity) or edit the file.",
			    derived.s ? derived.s : "", (unsigned)fmax, (unsigned)fmax);
	if (bumped)
		ea_imp_note(b, "Some OPPs were so close in frequency that their capacities were raised by one to keep capacities strictly ascending.");
	free(derived.s);
	return 0;
}

/* x * v, rounded to 1e-9 so that 3.5 mA x 3.8 V is 13.3 mW, not 13.2999... */
static void scale(double *x, double v)
{
	double y = *x * v;

	if (fabs(y) < 1e6)
		y = round(y * 1e9) / 1e9;
	*x = y;
}

static int apply_voltage(struct ea_imp *b)
{
	struct ea_model *m = b->m;
	double v = b->opts->voltage;

	if (strcmp(m->power_unit, "mA"))
		return ea_err_set(b->err, "--voltage converts mA to mW, and %s gives %s",
				  b->src, m->power_unit);
	if (!isfinite(v) || v <= 0 || v > 1000)
		return ea_err_set(b->err, "--voltage: %g V is out of range", v);
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];

		for (int k = 0; k < cl->ncaps; k++) {
			scale(&cl->caps[k].core_power, v);
			scale(&cl->caps[k].cluster_power, v);
		}
		for (int k = 0; k < cl->nidles; k++) {
			scale(&cl->idles[k].core_power, v);
			scale(&cl->idles[k].cluster_power, v);
			scale(&cl->idles[k].core_wakeup, v);
			scale(&cl->idles[k].cluster_wakeup, v);
		}
	}
	strcpy(m->power_unit, "mW");
	ea_imp_note(b, "Currents (mA) converted to power (mW) at --voltage %g V.", v);
	return 0;
}

struct vfail_ctx {
	struct ea_imp *b;
};

/* Map a validation path ("clusters[1].cap_states[2].cap") to a location. */
static int validate_fail(void *ctx, const char *path, const char *msg)
{
	struct ea_imp *b = ((struct vfail_ctx *)ctx)->b;
	const char *loc = b->src, *field = strrchr(path, '.');
	char fbuf[64];
	int ci, k;

	if (sscanf(path, "clusters[%d]", &ci) == 1 && ci >= 0 &&
	    ci < b->m->nclusters) {
		const char *p = strchr(path, '.');

		loc = b->cl_loc[ci];
		if (p && sscanf(p, ".cap_states[%d]", &k) == 1 && k >= 0 &&
		    k < b->m->clusters[ci].ncaps)
			loc = b->cap_loc[ci][k];
		else if (p && sscanf(p, ".idle_states[%d]", &k) == 1 &&
			 k >= 0 && k < b->m->clusters[ci].nidles)
			loc = b->idle_loc[ci][k];
		snprintf(fbuf, sizeof(fbuf), "%s", field ? field + 1 : path);
		fbuf[strcspn(fbuf, "[")] = '\0';
		return ea_err_set(b->err, "%s: cluster '%s': %s: %s", loc,
				  b->m->clusters[ci].name, fbuf, msg);
	}
	return ea_err_set(b->err, "%s: %s%s%s", loc, *path ? path : "",
			  *path ? ": " : "", msg);
}

int ea_imp_finish(struct ea_imp *b, const char *what, struct ea_model **out)
{
	const struct ea_import_opts *o = b->opts;
	struct ea_model *m = b->m;
	struct vfail_ctx vc = { b };
	struct ea_strbuf src = { 0 };

	*out = NULL;
	if (m->nclusters < 1)
		return ea_imp_fail(b, NULL, "no CPU clusters found in this %s", what);
	if (o->trace && apply_trace(b))
		return -1;
	if (o->ncpus && apply_ncpus(b))
		return -1;
	for (int j = 0; j < o->ncpus_kv; j++)
		if (apply_cpus(b, &o->cpus[j]))
			return -1;
	for (int i = 0; i < m->nclusters; i++)
		if (m->clusters[i].ncpus < 1)
			return ea_imp_fail(b, b->cl_loc[i], "cluster '%s': which CPUs it has is not known: pass --cpus %s=LIST (e.g. 0-3), --ncpus N,N,... or --trace T",
					   m->clusters[i].name, m->clusters[i].name);
	for (int j = 0; j < o->nfreqs_kv; j++)
		if (apply_freqs(b, &o->freqs[j]))
			return -1;
	for (int i = 0; i < m->nclusters; i++) {
		struct ea_cluster *cl = &m->clusters[i];

		if (cl->ncaps < 1)
			return ea_imp_fail(b, b->cl_loc[i], "cluster '%s': no cap states (OPPs)",
					   cl->name);
		for (int k = 0; k < cl->ncaps; k++)
			if (!cl->caps[k].freq_khz)
				return ea_imp_fail(b, b->cap_loc[i][k], "cluster '%s': the frequency of cap state %d is not known: pass --freqs %s=KHZ,KHZ,... (%d values, ascending)",
						   cl->name, k, cl->name, cl->ncaps);
		if (sort_caps(b, i))
			return -1;
	}
	if (derive_caps(b))
		return -1;
	if (o->voltage && apply_voltage(b))
		return -1;
	if (o->power_unit) {
		if (!*o->power_unit || strlen(o->power_unit) >= sizeof(m->power_unit))
			return ea_err_set(b->err, "--power-unit: '%s' must be 1 to %zu characters",
					  o->power_unit, sizeof(m->power_unit) - 1);
		strcpy(m->power_unit, o->power_unit);
		ea_imp_note(b, "power_unit set by --power-unit.");
	}
	if (o->name) {
		if (!*o->name || strlen(o->name) >= sizeof(m->name))
			return ea_err_set(b->err, "--name: '%s' must be 1 to %d characters",
					  o->name, EA_NAME_LEN - 1);
		strcpy(m->name, o->name);
	}
	if (b->notes.oom)
		return ea_imp_fail(b, NULL, "out of memory");
	ea_sb_add(&src, "%s", b->notes.s ? b->notes.s : "");
	if (src.oom)
		return ea_imp_fail(b, NULL, "out of memory");
	free(m->source);
	m->source = src.s ? src.s : strdup("");
	if (!m->source)
		return ea_imp_fail(b, NULL, "out of memory");
	if (ea_model_validate(m, validate_fail, &vc))
		return -1;
	if (ea_model_finish(m, b->err))
		return -1;
	*out = m;
	b->m = NULL;	/* the caller's now; the locations stay b's to free */
	return 0;
}

/* ---- comparison ---- */

#define DIFF(cond, ...)                                                        \
	do {                                                                   \
		if (cond) {                                                    \
			snprintf(why, n, __VA_ARGS__);                         \
			return false;                                          \
		}                                                              \
	} while (0)

/* b's text is a's as written to JSON and read back (eatrace/escape.h) */
static bool differ(const char *a, const char *b)
{
	return !ea_utf8_fixed_eq(a ? a : "", b ? b : "");
}

bool ea_model_equal(const struct ea_model *a, const struct ea_model *b,
		    char *why, size_t n)
{
	char dummy[8];

	if (!why) {
		why = dummy;
		n = sizeof(dummy);
	}
	DIFF(differ(a->name, b->name), "name '%s' vs '%s'", a->name, b->name);
	DIFF(differ(a->source, b->source), "source differs");
	DIFF(differ(a->power_unit, b->power_unit), "power_unit '%s' vs '%s'",
	     a->power_unit, b->power_unit);
	DIFF(a->nclusters != b->nclusters, "%d vs %d clusters", a->nclusters,
	     b->nclusters);
	DIFF(a->ncpus != b->ncpus, "ncpus %d vs %d", a->ncpus, b->ncpus);
	for (int c = 0; c < a->ncpus; c++)
		DIFF(a->cpu_cluster[c] != b->cpu_cluster[c],
		     "CPU %d in cluster %d vs %d", c, a->cpu_cluster[c],
		     b->cpu_cluster[c]);
	for (int i = 0; i < a->nclusters; i++) {
		const struct ea_cluster *x = &a->clusters[i], *y = &b->clusters[i];

		DIFF(differ(x->name, y->name), "clusters[%d].name '%s' vs '%s'",
		     i, x->name, y->name);
		DIFF(x->ncpus != y->ncpus, "clusters[%d]: %d vs %d CPUs", i,
		     x->ncpus, y->ncpus);
		for (int k = 0; k < x->ncpus; k++)
			DIFF(x->cpus[k] != y->cpus[k], "clusters[%d].cpus[%d]: %d vs %d",
			     i, k, x->cpus[k], y->cpus[k]);
		DIFF(x->freq_domain != y->freq_domain, "clusters[%d].freq_domain", i);
		DIFF(x->idle_implicit != y->idle_implicit, "clusters[%d]: implicit idle state", i);
		DIFF(x->ncaps != y->ncaps, "clusters[%d]: %d vs %d cap states", i,
		     x->ncaps, y->ncaps);
		DIFF(x->nidles != y->nidles, "clusters[%d]: %d vs %d idle states",
		     i, x->nidles, y->nidles);
		for (int k = 0; k < x->ncaps; k++) {
			const struct ea_cap_state *p = &x->caps[k], *q = &y->caps[k];

			DIFF(p->freq_khz != q->freq_khz || p->cap != q->cap ||
			     p->core_power != q->core_power ||
			     p->cluster_power != q->cluster_power ||
			     p->core_power_u != q->core_power_u ||
			     p->cluster_power_u != q->cluster_power_u,
			     "clusters[%d].cap_states[%d] differ", i, k);
		}
		for (int k = 0; k < x->nidles; k++) {
			const struct ea_idle_state *p = &x->idles[k], *q = &y->idles[k];

			DIFF(differ(p->name, q->name) ||
			     p->core_power != q->core_power ||
			     p->cluster_power != q->cluster_power ||
			     p->core_wakeup != q->core_wakeup ||
			     p->cluster_wakeup != q->cluster_wakeup ||
			     p->target_residency_us != q->target_residency_us ||
			     p->core_power_u != q->core_power_u ||
			     p->cluster_power_u != q->cluster_power_u ||
			     p->core_wakeup_u != q->core_wakeup_u ||
			     p->cluster_wakeup_u != q->cluster_wakeup_u,
			     "clusters[%d].idle_states[%d] differ", i, k);
		}
	}
	return true;
}

#undef DIFF

/* ---- native JSON ---- */

int ea_import_json(struct ea_model **out, const char *src,
		   const struct ea_import_opts *opts, struct ea_err *err)
{
	if (opts && (opts->name || opts->power_unit || opts->voltage ||
		     opts->trace || opts->ncpus || opts->ncpus_kv ||
		     opts->ncaps_kv || opts->nfreqs_kv))
		return ea_err_set(err, "%s: is a native model: --name, --power-unit, --voltage, --trace, --ncpus, --cpus, --capacity and --freqs apply to imported formats only (edit the file instead)",
				  src);
	if (ea_model_load(out, src, err)) {
		ea_import_scrub(err);
		return -1;
	}
	return 0;
}

/* ---- idlestat topology header ---- */

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
			break;	/* the first event line: the header is over */
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
				return ea_err_set(err, "%s:%d: %s: CPU id out of range",
						  trace, lineno, tok);
			}
			if (fn(ctx, cluster, cpu)) {
				fclose(f);
				return -1;
			}
			any = true;
			continue;
		}
		break;	/* a comment after the topology block */
	}
	fclose(f);
	if (!any)
		return ea_err_set(err, "%s: no idlestat topology header ('# clusterA:' then '#  core0', '#   cpu1' lines) before the first event",
				  trace);
	return 0;
}

/* ---- format detection ---- */

static bool has_line_prefix(const char *buf, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, prefix, n))
			return true;
	}
	return false;
}

/* First character after white space and C/C++ comments. */
static char first_significant(const char *s)
{
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
		       *s == '\f')
			s++;
		if (s[0] == '/' && s[1] == '*') {
			s = strstr(s + 2, "*/");
			if (!s)
				return '\0';
			s += 2;
		} else if (s[0] == '/' && s[1] == '/') {
			s = strchr(s, '\n');
			if (!s)
				return '\0';
		} else {
			return *s;
		}
	}
}

static const struct ea_importer *detect(const char *src, struct ea_err *err);

const struct ea_importer *ea_importer_detect(const char *src,
					     struct ea_err *err)
{
	const struct ea_importer *im = detect(src, err);

	if (!im)
		ea_import_scrub(err);
	return im;
}

static const struct ea_importer *detect(const char *src, struct ea_err *err)
{
	unsigned char head[65536];
	char *text = (char *)head;
	struct stat st;
	size_t n;
	FILE *f;

	if (stat(src, &st)) {
		char found[4096];
		int e = errno;

		if (e == ENOENT && ea_model_is_name(src) &&
		    !ea_model_find(src, found, sizeof(found), NULL))
			return ea_importer_find("json");	/* a bundled model */
		ea_err_set(err, "%s: %s", src, strerror(e));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		char p[4096];

		for (int i = 0; i < 2; i++) {
			snprintf(p, sizeof(p), "%s/cpu_%dd.csv", src, i + 1);
			if (!access(p, F_OK))
				return ea_importer_find("wattson");
		}
		return ea_importer_find("debugfs");
	}
	if (ea_input_check(src, err))
		return NULL;
	f = fopen(src, "rb");
	if (!f) {
		ea_err_set(err, "%s: %s", src, strerror(errno));
		return NULL;
	}
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	if (n >= 4 && head[0] == 0xd0 && head[1] == 0x0d && head[2] == 0xfe &&
	    head[3] == 0xed)
		return ea_importer_find("dt");
	if (memchr(head, '\0', n)) {
		ea_err_set(err, "%s: a binary file that is not a dtb: cannot tell its format (pass --from)",
			   src);
		return NULL;
	}
	switch (first_significant(text)) {
	case '{':
		return ea_importer_find("json");
	case '<':
		return ea_importer_find("power-profile");
	}
	if (strstr(text, "/dts-v1/") || strstr(text, "sched-energy-costs") ||
	    strstr(text, "busy-cost-data"))
		return ea_importer_find("dt");
	if (has_line_prefix(text, "platform-info:") ||
	    has_line_prefix(text, "nrg-model:"))
		return ea_importer_find("lisa");
	if (!strncmp(text + (n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0),
		     "device,policy,freq_khz", 22))
		return ea_importer_find("wattson");
	if (has_line_prefix(text, "clusters ") || has_line_prefix(text, "clusterA:") ||
	    has_line_prefix(text, "P-states:"))
		return ea_importer_find("idlestat");
	ea_err_set(err, "%s: cannot tell its format (not a native model, idlestat model, dts/dtb, power_profile.xml, LISA plat_info.yml, Wattson curve or energy_model directory): pass --from",
		   src);
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * ea_trace_intervals() (eatrace/trace.h): every CPU's state over time, as
 * the state stage reconstructs it for `report`, one row per stretch of
 * constant state, with the model's power of the CPU in it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/api.h"

struct iv_ctx {
	const struct ea_model *m; /* NULL: no power */
	uint32_t assumed_khz;
	const bool *cpu_only;
	int ncpu_only;
	struct ea_interval *v;
	size_t n, cap;
	struct ea_interval *pend; /* per CPU: the stretch not yet closed */
	bool *has_pend;
	int npend;
	bool oom;
};

/* The CPU's own power in state st (eatrace/trace.h struct ea_interval). */
static double power_of(const struct iv_ctx *c, const struct ea_state *s,
		       int cpu, const struct ea_cpu_state *st)
{
	const struct ea_cluster *cl =
		c->m ? ea_model_cpu_cluster(c->m, cpu) : NULL;
	int k;

	if (!cl)
		return NAN;
	switch (st->mode) {
	case EA_CPU_BUSY:
		if (st->freq_khz)
			k = ea_model_cap_index_nearest(cl, st->freq_khz);
		else if (c->assumed_khz)
			k = ea_model_cap_index_nearest(cl, c->assumed_khz);
		else
			k = cl->ncaps - 1;
		return k < 0 ? NAN : cl->caps[k].core_power;
	case EA_CPU_IDLE:
		if (cl->nidles < 1)
			return NAN;
		k = st->idle_state < 0 ? 0 : st->idle_state;
		return cl->idles[k < cl->nidles ? k : cl->nidles - 1]
			.core_power;
	case EA_CPU_OFFLINE:
		return cl->offline_power;
	default: /* suspended: the system's power, shared by the CPUs */
		return c->m->suspend_power /
		       (ea_state_ncpus(s) > 0 ? ea_state_ncpus(s) : 1);
	}
}

static void push(struct iv_ctx *c, const struct ea_interval *iv)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		struct ea_interval *p = realloc(c->v, cap * sizeof(*p));

		if (!p) {
			c->oom = true;
			return;
		}
		c->v = p;
		c->cap = cap;
	}
	c->v[c->n++] = *iv;
}

/* Alike but for their times: one stretch. */
static bool alike(const struct ea_interval *a, const struct ea_interval *b)
{
	return a->pid == b->pid && a->freq_khz == b->freq_khz &&
	       a->idle_state == b->idle_state && a->state == b->state &&
	       (a->power == b->power || (isnan(a->power) && isnan(b->power))) &&
	       !strcmp(a->comm, b->comm);
}

static bool grow_pend(struct iv_ctx *c, int cpu)
{
	int n = c->npend ? c->npend : 8;
	struct ea_interval *p;
	bool *h;

	while (n <= cpu)
		n *= 2;
	p = realloc(c->pend, (size_t)n * sizeof(*p));
	if (p)
		c->pend = p;
	h = p ? realloc(c->has_pend, (size_t)n * sizeof(*h)) : NULL;
	if (!h)
		return false;
	memset(h + c->npend, 0, (size_t)(n - c->npend) * sizeof(*h));
	c->has_pend = h;
	c->npend = n;
	return true;
}

static void on_change(void *ctx, const struct ea_state *s, int cpu,
		      uint64_t since, uint64_t now,
		      const struct ea_cpu_state *old,
		      const struct ea_cpu_state *new)
{
	struct iv_ctx *c = ctx;
	struct ea_interval iv = {.cpu = cpu, .idle_state = -1};
	uint64_t t0 = since, t1 = now;

	if (c->oom ||
	    (c->cpu_only && (cpu >= c->ncpu_only || !c->cpu_only[cpu])))
		return;
	if (!ea_state_clip(s, &t0, &t1))
		return;
	iv.start_ns = t0;
	iv.end_ns = t1;
	iv.pid = old->mode == EA_CPU_BUSY ? old->pid : 0;
	iv.freq_khz = old->freq_khz;
	switch (old->mode) {
	case EA_CPU_BUSY:
		iv.state = EA_IV_BUSY;
		break;
	case EA_CPU_IDLE:
		iv.state = EA_IV_IDLE;
		iv.idle_state = old->idle_state < 0 ? 0 : old->idle_state;
		break;
	case EA_CPU_SUSPENDED:
		iv.state = EA_IV_SUSPENDED;
		break;
	default:
		iv.state = EA_IV_OFFLINE;
		break;
	}
	if ((old->inferred & EA_INF_UNKNOWN) && old->mode <= EA_CPU_IDLE)
		iv.state = EA_IV_UNKNOWN;
	if (iv.pid > 0) {
		const struct ea_task *t = ea_state_task(s, iv.pid);

		/* NUL-padded (the rest of iv is zero): numpy's S16 */
		if (t)
			snprintf(iv.comm, sizeof(iv.comm), "%.*s",
				 EA_COMM_LEN - 1, t->comm);
	}
	iv.power = power_of(c, s, cpu, old);
	if (cpu >= c->npend && !grow_pend(c, cpu)) {
		c->oom = true;
		return;
	}
	if (c->has_pend[cpu]) {
		struct ea_interval *p = &c->pend[cpu];

		if (p->end_ns == iv.start_ns && alike(p, &iv)) {
			p->end_ns = iv.end_ns;
			return;
		}
		push(c, p);
	}
	c->pend[cpu] = iv;
	c->has_pend[cpu] = true;
}

static const struct ea_state_ops iv_ops = {.cpu_change = on_change};

static int by_start(const void *a, const void *b)
{
	const struct ea_interval *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int intervals(const struct ea_api_src *s, const char *model,
		     const struct ea_trace_opts *o, struct ea_interval **out,
		     size_t *n, struct ea_err *e)
{
	struct ea_state_config cfg = {.ncpus = -1};
	struct ea_acct_config acfg = {0};
	struct iv_ctx c = {0};
	struct ea_model *m = NULL;
	struct ea_consumer cons;
	struct ea_acct acct;
	struct ea_run run;
	bool *cpu_only = NULL, have_acct = false;
	int rc = -1;

	if (ea_api_opts(o, &cfg, &acfg, &cpu_only, e))
		return -1;
	if (model) {
		struct ea_acct_config none = {0};

		/* its frequency domains and capacities, as report's state */
		if (ea_model_load(&m, model, e) ||
		    ea_acct_init(&acct, m, &none, e))
			goto out;
		have_acct = true;
		ea_acct_state_config(&acct, &cfg);
	}
	cfg.ncpus = -1;
	cfg.no_util = true; /* tasks (their comms) kept */
	c.m = m;
	c.assumed_khz = acfg.assumed_khz;
	c.cpu_only = cpu_only;
	c.ncpu_only = acfg.ncpu_only;
	cons = (struct ea_consumer){&iv_ops, &c};
	if (ea_api_run(s, &run, &cfg, &cons, 1, e))
		goto out;
	rc = ea_api_check_window(&cfg, run.state, s->path, e);
	ea_run_free(&run);
	if (rc)
		goto out;
	for (int cpu = 0; cpu < c.npend; cpu++)
		if (c.has_pend[cpu])
			push(&c, &c.pend[cpu]);
	if (c.oom) {
		rc = ea_err_set(e, "%s: out of memory (%zu intervals)", s->path,
				c.n);
		goto out;
	}
	qsort(c.v, c.n, sizeof(*c.v), by_start);
	*out = c.v;
	*n = c.n;
	c.v = NULL;
out:
	free(c.v);
	free(c.pend);
	free(c.has_pend);
	free(cpu_only);
	if (have_acct)
		ea_acct_free(&acct);
	ea_model_free(m);
	return rc;
}

int ea_trace_intervals(const struct ea_trace *t, const char *model,
		       const struct ea_trace_opts *o, struct ea_interval **out,
		       size_t *n, char **err)
{
	struct ea_api_src s = {ea_trace_path(t), ea_trace_store(t)};
	struct ea_err e;
	int was = ea_api_quiet_begin(), rc;

	*out = NULL;
	*n = 0;
	rc = intervals(&s, model, o, out, n, &e);
	ea_api_quiet_end(was);
	if (rc && err)
		*err = strdup(e.msg);
	return rc;
}

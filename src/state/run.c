// SPDX-License-Identifier: GPL-2.0-only
/* The pipeline driver: see include/eatrace/pipeline.h. */
#include <stdio.h>
#include <string.h>

#include "eatrace/pipeline.h"
#include "eatrace/progress.h"
#include "state/state-internal.h"

struct fanout {
	int n;
	struct ea_state_ops ops;
	/* The consumers' cpu_change() */
	struct {
		void (*change)(void *ctx, const struct ea_state *s, int cpu,
			       uint64_t since, uint64_t now,
			       const struct ea_cpu_state *old,
			       const struct ea_cpu_state *new);
		void *ctx;
	} ch[EA_MAX_CONSUMERS];
	/* The consumers with an event(), and the types each wants. */
	struct {
		void (*event)(void *ctx, const struct ea_state *s,
			      const struct ea_event *ev);
		void *ctx;
		uint32_t types;
	} ev[EA_MAX_CONSUMERS];
	int nev;
};

static void fan_change(void *ctx, const struct ea_state *s, int cpu,
		       uint64_t since, uint64_t now,
		       const struct ea_cpu_state *old,
		       const struct ea_cpu_state *new)
{
	const struct fanout *f = ctx;

	for (int i = 0; i < f->n; i++)
		f->ch[i].change(f->ch[i].ctx, s, cpu, since, now, old, new);
}

/* The usual two consumers (statistics and accountant) without a loop */
static void fan_change_two(void *ctx, const struct ea_state *s, int cpu,
			   uint64_t since, uint64_t now,
			   const struct ea_cpu_state *old,
			   const struct ea_cpu_state *new)
{
	const struct fanout *f = ctx;

	f->ch[0].change(f->ch[0].ctx, s, cpu, since, now, old, new);
	f->ch[1].change(f->ch[1].ctx, s, cpu, since, now, old, new);
}

static bool wants(const struct ea_state_ops *ops, unsigned int type)
{
	return ops->event && (!ops->event_types || ops->event_types >> type & 1);
}

static void fan_event(void *ctx, const struct ea_state *s,
		      const struct ea_event *ev)
{
	const struct fanout *f = ctx;

	for (int i = 0; i < f->nev; i++)
		if (f->ev[i].types >> ev->type & 1)
			f->ev[i].event(f->ev[i].ctx, s, ev);
}

/* One consumer has event(): the state only calls for the types it wants. */
static void fan_event_one(void *ctx, const struct ea_state *s,
			  const struct ea_event *ev)
{
	const struct fanout *f = ctx;

	f->ev[0].event(f->ev[0].ctx, s, ev);
}

/* The consumers' ops as one: event() only for the types one of them wants. */
static void fan_init(struct fanout *f, const struct ea_consumer *c, int n)
{
	f->n = n;
	f->nev = 0;
	f->ops = (struct ea_state_ops){
		.cpu_change = n == 2 ? fan_change_two : fan_change
	};
	for (int i = 0; i < n; i++) {
		uint32_t types = 0;

		f->ch[i].change = c[i].ops->cpu_change;
		f->ch[i].ctx = c[i].ctx;
		if (!c[i].ops->event)
			continue;
		for (unsigned int t = 0; t < EA_EV_NR; t++)
			if (wants(c[i].ops, t))
				types |= 1u << t;
		f->ev[f->nev].event = c[i].ops->event;
		f->ev[f->nev].ctx = c[i].ctx;
		f->ev[f->nev++].types = types;
		f->ops.event_types |= types;
	}
	if (f->nev)
		f->ops.event = f->nev == 1 ? fan_event_one : fan_event;
}

/* cfg.first_event through the input (an error counts as no event: the
 * main pass meets it and says so). */
static int first_event_cb(void *ctx, int cpu, struct ea_event *ev,
			  bool *lost_before)
{
	struct ea_err e;

	return ea_input_first_event(ctx, cpu, ev, lost_before, &e);
}

int ea_run(struct ea_run *run, const char *path, struct ea_state_config *cfg,
	   const struct ea_consumer *consumers, int nconsumers,
	   struct ea_err *err)
{
	struct ea_state_config scfg;
	struct fanout fan;
	struct ea_input *in;
	struct ea_event ev;
	struct ea_err e2;
	int rc;

	memset(run, 0, sizeof(*run));
	if (nconsumers > EA_MAX_CONSUMERS)
		return ea_err_set(err, "%s: too many consumers", path);
	fan_init(&fan, consumers, nconsumers);
	if (ea_input_open(&in, path, err))
		return -1;
	if (cfg->ncpus <= 0)
		cfg->ncpus = ea_input_info(in)->ncpus;
	if (!cfg->first_event) {
		cfg->first_event = first_event_cb;
		cfg->first_ctx = in;
	}
	scfg = *cfg;
	if (cfg->util_if_kernel_util &&
	    !ea_input_info(in)->may_have[EA_EV_UTIL_CFS])
		scfg.no_util = true;
	/* A single consumer needs no fan-out: the state calls it directly
	 * (it filters event() by the same types). */
	if (nconsumers == 1 ?
	    ea_state_new(&run->state, &scfg, consumers[0].ops, consumers[0].ctx) :
	    ea_state_new(&run->state, &scfg, &fan.ops, &fan)) {
		ea_input_close(in);
		return ea_err_set(err, "%s: out of memory", path);
	}
	state_input_sorted(run->state);	/* ea_input refuses time going back */
	ea_progress_start(path);
	while ((rc = ea_input_next(in, &ev, err)) > 0) {
		ea_progress_poll();
		if (ea_state_feed(run->state, &ev, &e2)) {
			char where[64] = "";

			ea_input_where(in, where, sizeof(where));
			ea_err_set(err, "%s:%s: %s", path, where, e2.msg);
			rc = -1;
			break;
		}
	}
	ea_progress_end();
	run->info = *ea_input_info(in);
	ea_input_take_owned(in, &run->info);
	snprintf(run->format, sizeof(run->format), "%s",
		 run->info.format ? run->info.format : "?");
	run->info.format = run->format;
	/* The input stays open: the start may still read ahead. */
	if (rc == 0 && ea_state_finish(run->state, &e2)) {
		ea_err_set(err, "%s: %s", path, e2.msg);
		rc = -1;
	}
	ea_input_close(in);
	if (cfg->first_ctx == in) {
		cfg->first_event = NULL;
		cfg->first_ctx = NULL;
	}
	if (rc < 0) {
		ea_input_info_free_owned(&run->info);
		ea_state_free(run->state);
		run->state = NULL;
		return -1;
	}
	return 0;
}

void ea_run_free(struct ea_run *run)
{
	ea_input_info_free_owned(&run->info);
	ea_state_free(run->state);
	run->state = NULL;
}

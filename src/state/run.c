// SPDX-License-Identifier: GPL-2.0-only
/* The pipeline driver: see include/eatrace/pipeline.h. */
#include <stdio.h>
#include <string.h>

#include "eatrace/pipeline.h"
#include "eatrace/progress.h"
#include "input/input-block.h"
#include "state/handoff.h"
#include "state/state-internal.h"

struct fanout {
	int n;
	struct ea_state_ops ops;
	/* The consumers' cpu_change() */
	struct state_change ch[EA_MAX_CONSUMERS];
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
		f->ch[i].task_switch = c[i].ops->task_switch;
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

/* An open input as an event source */
static int input_next(void *ctx, struct ea_event *ev, struct ea_err *err)
{
	return ea_input_next(ctx, ev, err);
}

static void input_where(void *ctx, char *buf, size_t n)
{
	ea_input_where(ctx, buf, n);
}

/* cfg.first_event through the input (an error counts as no event: the
 * main pass meets it and says so). */
static int first_event_cb(void *ctx, int cpu, struct ea_event *ev,
			  bool *lost_before)
{
	struct ea_err e;

	return ea_input_first_event(ctx, cpu, ev, lost_before, &e);
}

static const struct ea_input_info *input_info(void *ctx)
{
	return ea_input_info(ctx);
}

static void input_take_owned(void *ctx, struct ea_input_info *dst)
{
	ea_input_take_owned(ctx, dst);
}

static int run_source(struct ea_run *run, const char *path,
		      const struct ea_event_source *src, struct ea_input *blk,
		      struct ea_state_config *cfg,
		      const struct ea_consumer *consumers, int nconsumers,
		      struct ea_err *err);

int ea_run(struct ea_run *run, const char *path, struct ea_state_config *cfg,
	   const struct ea_consumer *consumers, int nconsumers,
	   struct ea_err *err)
{
	struct ea_event_source src = {
		input_next, input_where, first_event_cb, input_info, input_take_owned, NULL,
	};
	struct ea_input *in;
	int rc;

	memset(run, 0, sizeof(*run));
	if (nconsumers > EA_MAX_CONSUMERS)
		return ea_err_set(err, "%s: too many consumers", path);
	if (ea_input_open(&in, path, err))
		return -1;
	src.ctx = in;
	rc = run_source(run, path, &src, in, cfg, consumers, nconsumers, err);
	ea_input_close(in);
	return rc;
}

int ea_run_source(struct ea_run *run, const char *path, const struct ea_event_source *src,
		  struct ea_state_config *cfg, const struct ea_consumer *consumers,
		  int nconsumers, struct ea_err *err)
{
	return run_source(run, path, src, NULL, cfg, consumers, nconsumers,
			  err);
}

/* A state error at the event the source last gave: named where it is. */
static int state_error(const char *path, const struct ea_event_source *src,
		       const struct ea_err *e2, struct ea_err *err)
{
	char where[64] = "";

	src->where(src->ctx, where, sizeof(where));
	return ea_err_set(err, "%s:%s: %s", path, where, e2->msg);
}

/*
 * The events of an open input fed a block at a time (input-block.h): the
 * same events in the same order as src->next() gives, without a copy or a
 * call into the input per event when its reader decodes on a thread of
 * its own. 0 at the end, -1 with err.
 */
static int feed_blocks(struct ea_state *st, const char *path,
		       const struct ea_event_source *src, struct ea_input *in,
		       struct ea_err *err)
{
	const struct ea_event *evs;
	struct ea_err e2;
	size_t n, i;
	int rc;

	while ((rc = ea_input_next_block(in, &evs, &n, err)) > 0) {
		ea_progress_poll_n((unsigned)n);
		if ((state_fed_derived(st) ?
			     state_feed_block_derived(st, evs, n, &i, &e2) :
			     state_feed_block(st, evs, n, &i, &e2))) {
			ea_input_block_at(in, i);
			return state_error(path, src, &e2, err);
		}
	}
	return rc;
}

/* The events of src, fed to the state stage (a block at a time from blk
 * when not NULL): 0 at the end, -1 with err. */
static int feed_all(struct ea_state *st, const char *path,
		    const struct ea_event_source *src, struct ea_input *blk,
		    struct ea_err *err)
{
	struct ea_event ev;
	struct ea_err e2;
	int rc;

	if (blk)
		return feed_blocks(st, path, src, blk, err);
	while ((rc = src->next(src->ctx, &ev, err)) > 0) {
		ea_progress_poll();
		if (ea_state_feed(st, &ev, &e2))
			return state_error(path, src, &e2, err);
	}
	return rc;
}

/* The look-ahead's thread (feed_split()) */
struct la_job {
	struct ea_state *st;
	const char *path;
	const struct ea_event_source *src;
	struct ea_input *blk;
	struct handoff h;
};

static void *la_main(void *arg)
{
	struct la_job *j = arg;
	struct ea_err err, e2;
	int rc = feed_all(j->st, j->path, j->src, j->blk, &err);

	if (rc == 0 && state_finish_feed(j->st, &e2)) {
		ea_err_set(&err, "%s: %s", j->path, e2.msg);
		rc = -1;
	}
	handoff_end(&j->h, rc < 0 ? -1 : 1, &err);
	return NULL;
}

/*
 * feed_all() and ea_state_finish() with the input and the look-ahead on
 * a thread of their own, the CPU and task machines and the consumers on
 * this one (state/handoff.h): the same events applied in the same order.
 * 0, -1 with err, or 1: no thread (nothing done).
 */
static int feed_split(struct ea_state *st, const char *path,
		      const struct ea_event_source *src, struct ea_input *blk,
		      struct ea_err *err)
{
	struct la_job j;
	int rc;

	memset(&j, 0, sizeof(j));
	j.st = st;
	j.path = path;
	j.src = src;
	j.blk = blk;
	state_handoff(st, &j.h);
	if (handoff_start(&j.h, la_main, &j)) {
		state_handoff(st, NULL);
		return 1;
	}
	rc = state_apply_handed(st, &j.h, err);
	handoff_stop(&j.h);
	state_handoff(st, NULL);
	if (rc == 0)
		state_finish_apply(st);
	return rc;
}

/*
 * Whether the state stage runs on two threads (feed_split()): on a file,
 * when -j or EATRACE_JOBS asks for a job more than its reader's threads
 * (input-block.h): 2 for systrace, 3 for an uncompressed trace.dat (its
 * pages decoded on a thread of their own from 2), a Perfetto trace
 * neither gzip'd nor with compressed_packets (its bundles) or ftrace text
 * (its lines), 4 for a compressed trace.dat. Not by
 * default: on a quiet 2-vCPU VM the three threads of an uncompressed
 * trace.dat cost more wall time than they saved (rec.dat, medians of 7:
 * report 0.20 s split, 0.19 s on one thread, 0.13 s with the decoding
 * thread alone; bench/README.md, split6).
 */
static bool split_state(const struct ea_input *blk)
{
	return blk && ea_input_jobs_explicit() &&
	       ea_input_jobs() > ea_input_threads(blk);
}

/* ea_run_source(); blk: src's input, read a block at a time, or NULL. */
static int run_source(struct ea_run *run, const char *path,
		      const struct ea_event_source *src, struct ea_input *blk,
		      struct ea_state_config *cfg,
		      const struct ea_consumer *consumers, int nconsumers,
		      struct ea_err *err)
{
	struct ea_state_config scfg;
	struct fanout fan;
	struct ea_err e2;
	bool finished = false;
	int rc = 1;

	memset(run, 0, sizeof(*run));
	if (nconsumers > EA_MAX_CONSUMERS)
		return ea_err_set(err, "%s: too many consumers", path);
	fan_init(&fan, consumers, nconsumers);
	if (cfg->ncpus <= 0)
		cfg->ncpus = src->info(src->ctx)->ncpus;
	if (!cfg->first_event) {
		cfg->first_event = src->first_event;
		cfg->first_ctx = src->ctx;
	}
	scfg = *cfg;
	if (cfg->util_if_kernel_util &&
	    !src->info(src->ctx)->may_have[EA_EV_UTIL_CFS])
		scfg.no_util = true;
	/* A single consumer needs no fan-out: the state calls it directly
	 * (it filters event() by the same types). */
	if (nconsumers == 1 ?
	    ea_state_new(&run->state, &scfg, consumers[0].ops, consumers[0].ctx) :
	    ea_state_new(&run->state, &scfg, &fan.ops, &fan)) {
		if (cfg->first_ctx == src->ctx) {
			cfg->first_event = NULL;
			cfg->first_ctx = NULL;
		}
		return ea_err_set(err, "%s: out of memory", path);
	}
	state_input_sorted(run->state);	/* sources refuse time going back */
	if (nconsumers == 2)	/* fan_change_two()'s calls made by the state */
		state_two_changes(run->state, fan.ch);
	ea_progress_start(path);
	if (split_state(blk)) {
		rc = feed_split(run->state, path, src, blk, err);
		finished = rc == 0;
	}
	if (rc > 0)
		rc = feed_all(run->state, path, src, blk, err);
	ea_progress_end();
	run->info = *src->info(src->ctx);
	if (src->take_owned)
		src->take_owned(src->ctx, &run->info);
	else
		run->info_borrowed = true;
	snprintf(run->format, sizeof(run->format), "%s",
		 run->info.format ? run->info.format : "?");
	run->info.format = run->format;
	/* The source stays open: the start may still read ahead. */
	if (rc == 0 && !finished && ea_state_finish(run->state, &e2)) {
		ea_err_set(err, "%s: %s", path, e2.msg);
		rc = -1;
	}
	if (cfg->first_ctx == src->ctx) {
		cfg->first_event = NULL;
		cfg->first_ctx = NULL;
	}
	if (rc < 0) {
		ea_run_free(run);
		return -1;
	}
	return 0;
}

void ea_run_free(struct ea_run *run)
{
	if (!run->info_borrowed)
		ea_input_info_free_owned(&run->info);
	ea_state_free(run->state);
	run->state = NULL;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's output (docs/replay.md "Simulator"): the timeline as
 * ea_events (sched_switch, sched_wakeup, cpu_idle, cpu_frequency, markers),
 * each with the comm it carries. Events of one instant are ordered by the
 * recorded event that caused them (each activation, stretch and frequency
 * change carries its recorded position), keeping each CPU's own order: with
 * the `recorded` choices this reproduces the recording's order, which
 * matters to cluster wakeups (whether a CPU leaves idle before or after its
 * sibling enters it at the same nanosecond). They reach the sink (the
 * accountant's state stage) in batches of instants. The simulator keeps a
 * compact record of each (struct sim_out); the ea_event and its comm are
 * made from it on delivery (sim-build.c), on the sink's thread when it
 * has one (sim-apart.c).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

/*
 * A record for an event on cpu of type at the current instant, caused by
 * the recorded event key, carrying cur_task's comm; the caller fills its
 * type's fields (struct sim_out). NULL when nothing is emitted.
 */
struct sim_out *sim_emit(struct sim *s, int cpu, uint8_t type, uint64_t key,
			 int cur_task)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_out *o;

	if (s->oracle_pass1)
		return NULL;
	if (s->nout == s->out_cap) {
		size_t n = s->out_cap ? s->out_cap * 2 : 256;
		struct sim_out *p = realloc(s->out, n * sizeof(*p));

		if (!p) {
			sim_fail(s, "out of memory");
			return NULL;
		}
		s->out = p;
		s->out_cap = n;
	}
	if (key < *kmax(s, c))
		key = c->kmax;
	c->kmax = key;
	o = &s->out[s->nout++];
	o->key = key;
	o->order = s->order++;
	o->ts = s->now;
	o->type = type;
	o->cpu = cpu;
	o->cur_pid = c->e_pid;
	o->task = cur_task;
	return o;
}

static int cmp_out(const void *a, const void *b)
{
	const struct sim_out *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Order the instant's events by (key, order): a few, mostly in order
 * already. */
static void sort_out(struct sim_out *out, size_t n)
{
	struct sim_out tmp;

	if (n > 16) {
		qsort(out, n, sizeof(*out), cmp_out);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		if (cmp_out(&out[i - 1], &out[i]) <= 0)
			continue;
		tmp = out[i];
		while (j > 0 && cmp_out(&out[j - 1], &tmp) > 0) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = tmp;
	}
}

/* Hand the ordered events over to the sink. */
static void deliver(struct sim *s)
{
	struct ea_event ev;

	if (s->apart) {
		if (s->nout)
			sim_apart_hand(s);
		s->nout = s->bucket0 = 0;
		return;
	}
	for (size_t i = 0; i < s->nout && !s->error[0]; i++) {
		const char *comm = sim_build_event(&s->names, &s->out[i], &ev);

		if (s->sink(s->sink_ctx, &ev, comm))
			sim_fail(s, "cannot write the simulated events");
		s->events++;
	}
	s->nout = s->bucket0 = 0;
}

/*
 * Close the instant's bucket: order its events, start the next. They go
 * to the sink in batches of some instants: the simulator's data stays
 * in cache over many steps, then the sink's over many events.
 */
void sim_close_bucket(struct sim *s)
{
	sort_out(s->out + s->bucket0, s->nout - s->bucket0);
	s->bucket0 = s->nout;
	s->order = 0;
	s->nbuckets++; /* every CPU's kmax is 0 again */
	if (s->nout >= s->batch)
		deliver(s);
}

void sim_flush(struct sim *s)
{
	sim_close_bucket(s);
	deliver(s);
}

void sim_emit_switch(struct sim *s, int cpu, int next, uint64_t key)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int prev = e_task(s, cpu);
	int32_t next_pid = next >= 0 ? s->tasks[next].w->pid : 0;
	struct sim_out *o;

	if (c->e_pid == next_pid)
		return;
	if (c->e_fresh) {
		/* The state infers the CPU ran next_pid from the trace start.
		 */
		c->e_fresh = false;
		c->e_pid = next_pid;
		c->e_task = next;
		if (next_pid > 0) {
			o = sim_emit(s, cpu, EA_EV_MARKER, key, next);
			if (o)
				o->marker.text = SIM_MARK_START;
		}
		return;
	}
	/* prev: the record's cur_pid and task (sim-build.c) */
	o = sim_emit(s, cpu, EA_EV_SWITCH, key, prev);
	if (o) {
		o->sw.next_pid = next_pid;
		o->sw.next_task = next;
		o->sw.prev_state = prev >= 0 && !s->tasks[prev].runnable
					   ? EA_PREV_BLOCKED
					   : EA_PREV_RUNNABLE;
	}
	c->e_pid = next_pid;
	c->e_task = next;
}

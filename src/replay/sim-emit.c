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
 * accountant's state stage) in batches of instants.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

/*
 * The comm an emitted event carries: the task's, as snprintf("%s") would
 * copy it (at most EA_COMM_LEN - 1 bytes, zero-padded), or "<idle>".
 */
static const char *comm_of(const struct sim *s, int32_t pid, int task)
{
	static const char idle[EA_COMM_LEN] = "<idle>";

	if (pid <= 0 || task < 0)
		return idle;
	return s->comms[task];
}

struct ea_event *sim_emit(struct sim *s, int cpu, uint8_t type, uint64_t key,
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
	memset(&o->ev, 0, sizeof(o->ev));
	o->key = key;
	o->order = s->order++;
	o->ev.ts = s->now;
	o->ev.cpu = cpu;
	o->ev.cur_pid = c->e_pid;
	o->ev.type = type;
	if (!s->no_comms)
		memcpy(o->comm, comm_of(s, c->e_pid, cur_task),
		       sizeof(o->comm));
	return &o->ev;
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
	static const char none[EA_COMM_LEN];

	if (s->apart) {
		if (s->nout)
			sim_apart_hand(s);
		s->nout = s->bucket0 = 0;
		return;
	}
	for (size_t i = 0; i < s->nout && !s->error[0]; i++) {
		if (s->sink(s->sink_ctx, &s->out[i].ev,
			    s->no_comms ? none : s->out[i].comm))
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

/* The idle task's comm on cpu: "swapper/CPU". */
void sim_swapper_comm(int cpu, char *out)
{
	char buf[32] = "swapper/";
	char digits[12];
	size_t n = 0, len = 8;

	if (cpu < 0) {
		snprintf(buf, sizeof(buf), "swapper/%d", cpu);
	} else {
		do {
			digits[n++] = (char)('0' + cpu % 10);
			cpu /= 10;
		} while (cpu);
		while (n)
			buf[len++] = digits[--n];
	}
	memcpy(out, buf, EA_COMM_LEN - 1);
	out[EA_COMM_LEN - 1] = '\0';
}

/* A task's comm, or the idle task's (made once per CPU: sim_init()). */
static void task_comm(const struct sim *s, int task, int cpu, char *out)
{
	if (task >= 0)
		memcpy(out, s->tasks[task].w->comm, EA_COMM_LEN);
	else if (cpu >= 0 && cpu < s->ncpus)
		memcpy(out, s->swapper[cpu], EA_COMM_LEN);
	else
		sim_swapper_comm(cpu, out);
}

void sim_emit_switch(struct sim *s, int cpu, int next, uint64_t key)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int prev = e_task(s, cpu);
	int32_t next_pid = next >= 0 ? s->tasks[next].w->pid : 0;
	struct ea_event *ev;

	if (c->e_pid == next_pid)
		return;
	if (c->e_fresh) {
		/* The state infers the CPU ran next_pid from the trace start.
		 */
		c->e_fresh = false;
		c->e_pid = next_pid;
		c->e_task = next;
		if (next_pid > 0) {
			ev = sim_emit(s, cpu, EA_EV_MARKER, key, next);
			if (ev)
				snprintf(ev->marker.text,
					 sizeof(ev->marker.text),
					 "eatrace: replay");
		}
		return;
	}
	ev = sim_emit(s, cpu, EA_EV_SWITCH, key, prev);
	if (ev) {
		ev->sw.prev_pid = c->e_pid;
		ev->sw.next_pid = next_pid;
		ev->sw.prev_prio = prev >= 0 ? s->tasks[prev].w->prio : 120;
		ev->sw.next_prio = next >= 0 ? s->tasks[next].w->prio : 120;
		ev->sw.prev_state = prev >= 0 && !s->tasks[prev].runnable
					    ? EA_PREV_BLOCKED
					    : EA_PREV_RUNNABLE;
		task_comm(s, prev, cpu, ev->sw.prev_comm);
		task_comm(s, next, cpu, ev->sw.next_comm);
	}
	c->e_pid = next_pid;
	c->e_task = next;
}

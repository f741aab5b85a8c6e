// SPDX-License-Identifier: GPL-2.0-only
/*
 * A report's notes, shared by its renderers in the order they show them:
 * one note per cause, each with the CPUs it concerns and the energy (and
 * share of the total, in the report's unit) that rests on it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "eatrace/model-verdict.h"
#include "eatrace/output.h"
#include "eatrace/report.h"

const struct ea_energy_unit *ea_report_unit(const struct ea_report *r,
					    struct ea_energy_unit *tmp)
{
	return ea_energy_unit_or(r->unit, r->acct->model->power_unit, tmp);
}

/* CPUs listed in one note at most; the others are counted. */
#define NOTE_MAX_CPUS 8

typedef void note_fn(void *arg, const char *kind, const char *msg);

/* Per selected CPU of the trace, its figures at the given offsets in
 * struct ea_cpu_acct (ns and energy). */
struct cause {
	size_t ns_off, e_off;
	bool no_cpuidle; /* only CPUs reporting no cpu_idle */
};

static uint64_t ns_of(const struct ea_cpu_acct *c, const struct cause *k)
{
	return *(const uint64_t *)((const char *)c + k->ns_off);
}

static bool concerned(const struct ea_report *r, int i, const struct cause *k)
{
	const struct ea_acct *a = r->acct;

	if (!ea_acct_cpu_selected(a, i) || !ns_of(&a->cpus[i], k))
		return false;
	return !k->no_cpuidle || (r->stats && i < r->stats->ncpus &&
				  !r->stats->cpus[i].has_cpuidle);
}

/* The CPUs concerned, their time and energy in all. */
static int sum(const struct ea_report *r, const struct cause *k, uint64_t *ns,
	       ea_energy_t *e)
{
	const struct ea_acct *a = r->acct;
	int n = 0;

	*ns = 0;
	*e = 0;
	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		if (!concerned(r, i, k))
			continue;
		n++;
		*ns += ns_of(&a->cpus[i], k);
		*e += *(const ea_energy_t *)((const char *)&a->cpus[i] +
					     k->e_off);
	}
	return n;
}

/* Append "CPU i X s, ..." (NOTE_MAX_CPUS, then ", N more"). */
static int cpu_list(char *msg, size_t n, int len, const struct ea_report *r,
		    const struct cause *k)
{
	const struct ea_acct *a = r->acct;
	int listed = 0, more = 0;
	char b[32];

	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		if (!concerned(r, i, k))
			continue;
		if (listed++ >= NOTE_MAX_CPUS) {
			more++;
			continue;
		}
		if (len < (int)n)
			len += snprintf(msg + len, n - len, "%sCPU %d %s s",
					listed > 1 ? ", " : "", i,
					ea_fmt_s(b, ns_of(&a->cpus[i], k)));
	}
	if (more && len < (int)n)
		len += snprintf(msg + len, n - len, ", %d more", more);
	return len;
}

/* Append ": E UNIT, P% of the total" (UNIT: the report's energy unit). */
static void share(char *msg, size_t n, int len, const struct ea_report *r,
		  ea_energy_t e)
{
	const struct ea_acct *a = r->acct;
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	double total = ea_energy_to_double(ea_energy_total(&a->total));
	double x = ea_energy_to_double(e);

	if (len < (int)n)
		snprintf(msg + len, n - len, ": %.6f %s, %.2f%% of the total",
			 ea_eu_energy(u, e), u->energy,
			 total > 0 ? 100 * x / total : 0);
}

/* The state a CPU without cpu_idle is priced in: where its idle time is. */
static int priced_state(const struct ea_acct *a, int i)
{
	const struct ea_cluster *cl =
		&a->model->clusters[a->model->cpu_cluster[i]];
	int k = 0;

	for (int j = 1; j < cl->nidles; j++)
		if (a->cpus[i].cstates[j].ns > a->cpus[i].cstates[k].ns)
			k = j;
	return k;
}

static void no_cpuidle_note(const struct ea_report *r, note_fn *fn, void *arg)
{
	static const struct cause k = {offsetof(struct ea_cpu_acct, idle_ns), 0,
				       true};
	const struct ea_acct *a = r->acct;
	const struct ea_model *m = a->model;
	char msg[EA_NOTE_LEN], b[32], state[96] = "";
	int n = 0, len, st = -1, same = 1;
	const char *name = NULL;
	uint64_t ns = 0;
	ea_energy_t e = 0;

	for (int i = 0; i < a->trace_ncpus && i < a->ncpus; i++) {
		const struct ea_cluster *cl;
		int s;

		if (!concerned(r, i, &k) || m->cpu_cluster[i] < 0)
			continue;
		cl = &m->clusters[m->cpu_cluster[i]];
		s = priced_state(a, i);
		if (n && (s != st || strcmp(name, cl->idles[s].name)))
			same = 0;
		st = s;
		name = cl->idles[s].name;
		n++;
		ns += a->cpus[i].idle_ns;
		e += ea_energy_idle(&a->cpus[i].e);
	}
	if (!n)
		return;
	if (same)
		snprintf(state, sizeof(state), "idle state %d '%s'", st, name);
	else
		snprintf(state, sizeof(state),
			 "each cluster's idle state --idle-state gives");
	len = snprintf(msg, sizeof(msg),
		       "no cpu_idle events on %d CPU(s): their idle time (%s s "
		       "running pid 0: ",
		       n, ea_fmt_s(b, ns));
	len = cpu_list(msg, sizeof(msg), len, r, &k);
	if (len < (int)sizeof(msg))
		len += snprintf(
			msg + len, sizeof(msg) - len,
			") is priced in %s (--idle-state N for another)",
			state);
	share(msg, sizeof(msg), len, r, e);
	fn(arg, "inference", msg);
}

const char *ea_report_inference_msg(const struct ea_report *r, char *msg,
				    size_t n)
{
	static const struct cause k = {
		offsetof(struct ea_cpu_acct, unknown_ns),
		offsetof(struct ea_cpu_acct, unknown_energy), false};
	const struct ea_acct *a = r->acct;
	ea_energy_t tot = ea_energy_total(&a->total);
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	char b[32];
	int len;

	if (!a->unknown_ns)
		return NULL;
	len = snprintf(
		msg, n,
		"%.1f%% of this energy rests on inference: %s s of unknown "
		"time (",
		tot > 0 ? 100.0 * ea_energy_to_double(a->unknown_energy) /
				  ea_energy_to_double(tot)
			: 0.0,
		ea_fmt_s(b, a->unknown_ns));
	len = cpu_list(msg, n, len, r, &k);
	if (len < (int)n)
		len += snprintf(
			msg + len, n - len,
			"), priced as the last state known, idle in state %d "
			"(--unknown-idle-state) where the state is not",
			a->unknown_idle_state);
	if (len < (int)n) /* the share leads */
		snprintf(msg + len, n - len, ": %.6f %s",
			 ea_eu_energy(u, a->unknown_energy), u->energy);
	return msg;
}

/* A per-CPU cause with its time and energy: "HEAD: T s ... TAIL: E, P%". */
static void cause_note(const struct ea_report *r, const struct cause *k,
		       const char *kind, const char *head, const char *tail,
		       note_fn *fn, void *arg)
{
	char msg[EA_NOTE_LEN], b[32];
	uint64_t ns;
	ea_energy_t e;
	int n = sum(r, k, &ns, &e), len;

	if (!n)
		return;
	len = snprintf(msg, sizeof(msg), "%s on %d CPU(s), %s s (", head, n,
		       ea_fmt_s(b, ns));
	len = cpu_list(msg, sizeof(msg), len, r, k);
	if (len < (int)sizeof(msg))
		len += snprintf(msg + len, sizeof(msg) - len, "), %s", tail);
	share(msg, sizeof(msg), len, r, e);
	fn(arg, kind, msg);
}

void ea_report_foreach_energy_note(const struct ea_report *r, note_fn *fn,
				   void *arg)
{
	static const struct cause assumed = {
		offsetof(struct ea_cpu_acct, assumed_freq_ns),
		offsetof(struct ea_cpu_acct, assumed_freq_energy), false};
	static const struct cause unmodelled = {
		offsetof(struct ea_cpu_acct, unmodelled_freq_ns),
		offsetof(struct ea_cpu_acct, unmodelled_freq_energy), false};
	static const struct cause clamped = {
		offsetof(struct ea_cpu_acct, idle_clamped_ns),
		offsetof(struct ea_cpu_acct, idle_clamped_energy), false};

	no_cpuidle_note(r, fn, arg);
	cause_note(
		r, &assumed, "inference",
		"busy with no frequency reported (no cpu_frequency event yet)",
		"priced at the assumed OPP (--assume-opp KHZ; default the "
		"cluster's highest)",
		fn, arg);
	cause_note(r, &unmodelled, "warning",
		   "busy at frequencies the model lacks",
		   "priced at the next higher OPP (eatrace model check MODEL "
		   "--trace TRACE lists them)",
		   fn, arg);
	cause_note(r, &clamped, "warning",
		   "idle in states deeper than the model has",
		   "priced as its deepest", fn, arg);
}

void ea_report_foreach_note(const struct ea_report *r, note_fn *fn, void *arg)
{
	const struct ea_model *m = r->acct->model;
	char msg[EA_NOTE_LEN];

	ea_model_verdict_notes(&m, 1, fn, arg);
	if (ea_report_inference_msg(r, msg, sizeof(msg)))
		fn(arg, "inference", msg);
	if (r->stats)
		ea_stats_foreach_note_but(r->stats, r->info,
					  EA_NOTE_NO_CPUIDLE | EA_NOTE_UNKNOWN |
						  EA_NOTE_NO_FREQ,
					  fn, arg);
	ea_report_foreach_energy_note(r, fn, arg);
	if (r->info) {
		int agree = ea_topology_check(m, r->info, msg, sizeof(msg));

		if (agree >= 0)
			fn(arg, agree ? "check" : "warning", msg);
	}
}

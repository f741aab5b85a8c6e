// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chrome trace-event JSON (include/eatrace/perfetto.h, docs/html.md).
 *
 * { "displayTimeUnit": "ms", "traceEvents": [ ... ] } with, per process
 * (one priced timeline):
 *  - "M" metadata: process_name, process_sort_index, and thread_name
 *    "CPU n" for tid n + 1 (tid 0 is avoided: some viewers treat it as
 *    the process itself);
 *  - "X" complete events (ts, dur in us) for each stretch a task ran on a
 *    CPU, on that CPU's thread;
 *  - "C" counters, one series each, at the process level: "power CPU n",
 *    "power <cluster>" (mean power per timeline bucket, power_unit),
 *    "OPP CPU n" (kHz while busy), "idle state CPU n" (index while idle,
 *    -1 busy). A counter is written only when its value changes.
 * Timestamps are microseconds from the common origin, printed with ns
 * resolution.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "eatrace/perfetto.h"

struct ea_perfetto {
	FILE *f;
	int pid;
	bool first;
};

int ea_perfetto_begin(struct ea_perfetto **pp, FILE *f)
{
	struct ea_perfetto *p = calloc(1, sizeof(*p));

	*pp = p;
	if (!p)
		return -1;
	p->f = f;
	p->first = true;
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"eatrace\"},\n"
	      "\"traceEvents\":[\n", f);
	return 0;
}

void ea_perfetto_end(struct ea_perfetto *p)
{
	if (!p)
		return;
	fputs("\n]}\n", p->f);
	free(p);
}

static void sep(struct ea_perfetto *p)
{
	if (!p->first)
		fputs(",\n", p->f);
	p->first = false;
}

static void jstr(FILE *f, const char *s)
{
	ea_esc_json(f, s);
}

/* Microseconds with ns resolution: "1234.567". */
static const char *us(char *buf, uint64_t ns, uint64_t t0)
{
	uint64_t d = ns > t0 ? ns - t0 : 0;

	snprintf(buf, 32, "%" PRIu64 ".%03u", d / 1000, (unsigned)(d % 1000));
	return buf;
}

static void meta(struct ea_perfetto *p, const char *what, int tid,
		 const char *key, const char *sval, long long ival)
{
	sep(p);
	fprintf(p->f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"%s\":",
		p->pid, tid, what, key);
	if (sval)
		jstr(p->f, sval);
	else
		fprintf(p->f, "%lld", ival);
	fputs("}}", p->f);
}

static void counter(struct ea_perfetto *p, const char *name, uint64_t ts,
		    uint64_t t0, const char *val)
{
	char b[32];

	sep(p);
	fprintf(p->f, "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"name\":", p->pid);
	jstr(p->f, name);
	fprintf(p->f, ",\"ts\":%s,\"args\":{\"value\":%s}}", us(b, ts, t0), val);
}

static const char *comm_of(const struct ea_state *s, int32_t pid, char *buf)
{
	const struct ea_task *t;

	if (pid == 0)
		return "[idle task]";
	if (pid < 0)
		return "[unknown]";
	t = s ? ea_state_task(s, pid) : NULL;
	if (t && t->comm[0])
		return t->comm;
	snprintf(buf, 32, "pid %d", pid);
	return buf;
}

static void power_counters(struct ea_perfetto *p, const struct ea_timeline *t,
			   int col, const char *name, uint64_t t0)
{
	char val[40], last[40] = "";

	for (size_t b = 0; b < t->nbuckets; b++) {
		uint64_t a, e;
		double w;

		ea_timeline_bucket(t, b, &a, &e);
		if (e <= a)
			continue;
		w = ea_energy_to_double(ea_timeline_at(t, b, col)) / ((double)(e - a) / 1e9);
		ea_fmt_num(val, w);
		if (!strcmp(val, last))
			continue;
		counter(p, name, a, t0, val);
		snprintf(last, sizeof(last), "%s", val);
	}
	/* Close the last step at the end so its length is visible. */
	if (t->nbuckets)
		counter(p, name, t->end, t0, "0");
}

void ea_perfetto_process(struct ea_perfetto *p, const char *name,
			 const struct ea_timeline *t, const struct ea_state *s,
			 uint64_t t0)
{
	const struct ea_model *m = t->acct->model;
	int ncpus = t->acct->trace_ncpus < t->ncpus ? t->acct->trace_ncpus : t->ncpus;
	char n[EA_NAME_LEN + 32], b1[32], b2[32], cb[32];

	p->pid++;
	meta(p, "process_name", 0, "name", name, 0);
	meta(p, "process_sort_index", 0, "sort_index", NULL, p->pid);
	for (int c = 0; c < ncpus; c++) {
		snprintf(n, sizeof(n), "CPU %d", c);
		meta(p, "thread_name", c + 1, "name", n, 0);
		meta(p, "thread_sort_index", c + 1, "sort_index", NULL, c);
	}
	for (int i = 0; i < m->nclusters; i++) {
		snprintf(n, sizeof(n), "power %s (%s)", m->clusters[i].name, m->power_unit);
		power_counters(p, t, t->ncpus + i, n, t0);
	}
	for (int c = 0; c < ncpus; c++) {
		snprintf(n, sizeof(n), "power CPU %d (%s)", c, m->power_unit);
		power_counters(p, t, c, n, t0);
	}
	/* Per CPU: OPP and idle-state counters, task slices. The changes are
	 * in time order per CPU. */
	for (int c = 0; c < ncpus; c++) {
		long long last_f = -2, last_i = -3;
		char fn[48], in[48], val[32];

		snprintf(fn, sizeof(fn), "OPP CPU %d (kHz)", c);
		snprintf(in, sizeof(in), "idle state CPU %d", c);
		for (size_t k = 0; k < t->nch; k++) {
			const struct ea_tl_change *ch = &t->ch[k];
			long long fv = ch->mode == EA_CPU_BUSY ? (long long)ch->freq_khz : 0;
			long long iv = ch->mode == EA_CPU_IDLE ? ch->idle_state : -1;

			if (ch->cpu != c || ch->t1 <= ch->t0)
				continue;
			if (fv != last_f) {
				snprintf(val, sizeof(val), "%lld", fv);
				counter(p, fn, ch->t0, t0, val);
				last_f = fv;
			}
			if (iv != last_i) {
				snprintf(val, sizeof(val), "%lld", iv);
				counter(p, in, ch->t0, t0, val);
				last_i = iv;
			}
			if (ch->mode != EA_CPU_BUSY)
				continue;
			sep(p);
			fprintf(p->f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":", p->pid, c + 1);
			jstr(p->f, comm_of(s, ch->pid, cb));
			fprintf(p->f, ",\"cat\":\"task\",\"ts\":%s,\"dur\":%s,\"args\":{\"pid\":%d,\"freq_khz\":%u}}",
				us(b1, ch->t0, t0), us(b2, ch->t1, ch->t0), ch->pid, ch->freq_khz);
		}
	}
}

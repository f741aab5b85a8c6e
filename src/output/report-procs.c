// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace report`: tasks grouped by process, when the trace says which
 * thread belongs to which (a Perfetto trace's process_tree; eatrace/procs.h,
 * docs/perfetto.md).
 */
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"
#include "eatrace/procs.h"
#include "eatrace/report.h"

struct proc_row {
	int32_t tgid;
	bool in_tree; /* the process_tree knows the thread(s) */
	const char *name;
	bool tree_name; /* name from the tree (else a thread's comm) */
	struct ea_energy e;
	uint64_t runtime_ns, wakeups;
	size_t threads;
};

struct pair {
	int32_t tgid;
	bool in_tree;
	size_t task;
};

static int by_tgid(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->in_tree != y->in_tree)
		return x->in_tree ? -1 : 1;
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

static int by_energy(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;
	ea_energy_t ex = ea_energy_total(&x->e), ey = ea_energy_total(&y->e);

	if (ex != ey)
		return ex > ey ? -1 : 1;
	if (x->in_tree != y->in_tree)
		return x->in_tree ? -1 : 1;
	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

int32_t ea_report_task_tgid(const struct ea_report *r, int32_t pid,
			    bool *in_tree)
{
	int32_t t = pid > 0 ? ea_procs_tgid(r->info->procs, pid) : -1;

	*in_tree = t >= 0;
	return t >= 0 ? t : pid;
}

/* The processes, by energy; NULL (and *n 0) without a process tree. */
static struct proc_row *rows(const struct ea_report *r, size_t *n)
{
	const struct ea_acct *a = r->acct;
	const struct ea_procs *p = r->info ? r->info->procs : NULL;
	struct proc_row *out;
	struct pair *pr;
	size_t k = 0;

	*n = 0;
	if (!p || !a->ntasks)
		return NULL;
	pr = malloc(a->ntasks * sizeof(*pr));
	out = calloc(a->ntasks, sizeof(*out));
	if (!pr || !out) {
		free(pr);
		free(out);
		return NULL;
	}
	for (size_t i = 0; i < a->ntasks; i++) {
		pr[i].tgid =
			ea_report_task_tgid(r, a->tasks[i].pid, &pr[i].in_tree);
		pr[i].task = i;
	}
	qsort(pr, a->ntasks, sizeof(*pr), by_tgid);
	for (size_t i = 0; i < a->ntasks; i++) {
		const struct ea_task_acct *t = &a->tasks[pr[i].task];
		struct proc_row *w;

		if (!k || out[k - 1].tgid != pr[i].tgid ||
		    out[k - 1].in_tree != pr[i].in_tree) {
			const char *name =
				pr[i].in_tree ? ea_procs_name(p, pr[i].tgid)
					      : NULL;

			out[k].tgid = pr[i].tgid;
			out[k].in_tree = pr[i].in_tree;
			out[k].tree_name = name && *name;
			out[k].name = out[k].tree_name ? name : NULL;
			k++;
		}
		w = &out[k - 1];
		/* no name in the tree: the main thread's comm, else the first's
		 */
		if (!w->tree_name && (!w->name || t->pid == w->tgid))
			w->name = t->comm;
		ea_energy_add(&w->e, &t->e);
		w->runtime_ns += t->runtime_ns;
		w->wakeups += t->wakeups;
		w->threads++;
	}
	free(pr);
	qsort(out, k, sizeof(*out), by_energy);
	*n = k;
	return out;
}

void ea_report_procs_text(FILE *f, const struct ea_report *r, size_t top)
{
	ea_energy_t total = ea_energy_total(&r->acct->total);
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);
	char b1[32], t2[4 * EA_PROC_NAME_LEN + 1];
	size_t n;
	struct proc_row *p = rows(r, &n);

	if (!p)
		return;
	fprintf(f, "\n%-8s %-24s %7s %14s %7s %12s %7s\n", "TGID", "PROCESS",
		"threads", "energy", "share", "runtime_s", "wakeups");
	for (size_t i = 0; i < n && i < top; i++)
		fprintf(f, "%-8d %-24s %7zu %14.6f %6.1f%% %12s %7llu%s\n",
			p[i].tgid, ea_esc_term_buf(t2, sizeof(t2), p[i].name),
			p[i].threads,
			ea_eu_energy(u, ea_energy_total(&p[i].e)),
			total ? 100.0 * (double)ea_energy_total(&p[i].e) /
					(double)total
			      : 0,
			ea_fmt_s(b1, p[i].runtime_ns),
			(unsigned long long)p[i].wakeups,
			p[i].in_tree ? "" : "  (not in the process tree)");
	if (n > top)
		fprintf(f, "(%zu more processes)\n", n - top);
	free(p);
}

void ea_report_procs_json(struct ea_json *j, const struct ea_report *r)
{
	size_t n;
	struct proc_row *p = rows(r, &n);
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_report_unit(r, &ut);

	if (!p)
		return;
	ea_json_arr(j, "processes");
	for (size_t i = 0; i < n; i++) {
		ea_json_obj(j, NULL);
		ea_json_int(j, "tgid", p[i].tgid);
		ea_json_str(j, "name", p[i].name);
		ea_json_bool(j, "in_process_tree", p[i].in_tree);
		ea_json_uint(j, "threads", p[i].threads);
		ea_json_energy(j, "energy", &p[i].e, u);
		ea_json_ns_as_s(j, "runtime_s", p[i].runtime_ns);
		ea_json_uint(j, "wakeups", p[i].wakeups);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
	free(p);
}

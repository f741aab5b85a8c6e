// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists and task selectors (eatrace/filter.h): parsed, matched, shown. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/event.h"
#include "eatrace/filter.h"

#define MAX_PATTERN 256 /* a task name is at most 15 bytes (TASK_COMM_LEN) */

int ea_cpu_list_parse(const char *list, bool **mask, int *n)
{
	const char *p;
	int hi = -1;

	*mask = NULL;
	*n = 0;
	/* twice: the highest CPU, then the mask */
	for (int pass = 0; pass < 2; pass++) {
		for (p = list; *p;) {
			char *end;
			long a, b;

			if (*p < '0' || *p > '9')
				goto bad;
			a = strtol(p, &end, 10);
			if (a >= EA_MAX_CPUS)
				goto bad;
			b = a;
			if (*end == '-') {
				p = end + 1;
				if (*p < '0' || *p > '9')
					goto bad;
				b = strtol(p, &end, 10);
				if (b < a || b >= EA_MAX_CPUS)
					goto bad;
			}
			for (long c = a; c <= b; c++) {
				if (pass)
					(*mask)[c] = true;
				else if (c > hi)
					hi = (int)c;
			}
			p = end;
			if (*p == ',' && p[1])
				p++;
			else if (*p)
				goto bad;
		}
		if (hi < 0)
			goto bad;
		if (!pass && !(*mask = calloc((size_t)hi + 1, sizeof(bool))))
			return -2;
	}
	*n = hi + 1;
	return 0;
bad:
	free(*mask);
	*mask = NULL;
	return -1;
}

const char *ea_cpu_list_fmt(char *buf, size_t n, const bool *mask, int nmask)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int c = 0; c < nmask; c++) {
		int e = c;
		int w;

		if (!mask[c])
			continue;
		while (e + 1 < nmask && mask[e + 1])
			e++;
		w = e == c ? snprintf(buf + len, n - len, "%s%d",
				      len ? "," : "", c)
			   : snprintf(buf + len, n - len, "%s%d-%d",
				      len ? "," : "", c, e);
		if (w < 0 || (size_t)w >= n - len) {
			if (n >= 4)
				strcpy(buf + n - 4, "...");
			return buf;
		}
		len += (size_t)w;
		c = e;
	}
	return buf;
}

int ea_filter_add_cpus(struct ea_filter *f, const char *list,
		       struct ea_err *err)
{
	bool *mask;
	int n, rc = ea_cpu_list_parse(list, &mask, &n);

	if (rc == -2)
		return ea_err_set(err, "out of memory");
	if (rc)
		return ea_err_set(err,
				  "--cpus: '%s' is not a list of CPUs (as "
				  "0-1,4; at most %d)",
				  list, EA_MAX_CPUS - 1);
	if (f->cpus && f->ncpus > n) { /* the union with the earlier lists */
		for (int c = 0; c < n; c++)
			f->cpus[c] |= mask[c];
		free(mask);
		return 0;
	}
	for (int c = 0; f->cpus && c < f->ncpus; c++)
		mask[c] |= f->cpus[c];
	free(f->cpus);
	f->cpus = mask;
	f->ncpus = n;
	return 0;
}

int ea_filter_add_task(struct ea_filter *f, const char *arg, struct ea_err *err)
{
	struct ea_task_sel *t, sel = {0};
	size_t len = strlen(arg);

	if (!len)
		return ea_err_set(
			err,
			"--task: an empty name (give a PID or a command name)");
	if (strspn(arg, "0123456789") == len) {
		char *end;
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || v > INT32_MAX)
			return ea_err_set(err,
					  "--task: '%s' is not a PID (0 to %d)",
					  arg, INT32_MAX);
		sel.pid = (int32_t)v;
	} else {
		if (len >= MAX_PATTERN)
			return ea_err_set(
				err,
				"--task: '%.40s...' is longer than a command "
				"name pattern may be (%d bytes)",
				arg, MAX_PATTERN - 1);
		sel.comm = strdup(arg);
		if (!sel.comm)
			return ea_err_set(err, "out of memory");
	}
	t = realloc(f->tasks, (size_t)(f->ntasks + 1) * sizeof(*t));
	if (!t) {
		free(sel.comm);
		return ea_err_set(err, "out of memory");
	}
	f->tasks = t;
	f->tasks[f->ntasks++] = sel;
	return 0;
}

void ea_filter_free(struct ea_filter *f)
{
	for (int i = 0; i < f->ntasks; i++)
		free(f->tasks[i].comm);
	free(f->tasks);
	free(f->cpus);
	memset(f, 0, sizeof(*f));
}

bool ea_filter_cpu(const struct ea_filter *f, int cpu)
{
	return !f || !f->cpus || (cpu >= 0 && cpu < f->ncpus && f->cpus[cpu]);
}

static bool sel_matches(const struct ea_task_sel *s, int32_t pid,
			const char *comm)
{
	if (!s->comm)
		return s->pid == pid;
	return !strcmp(s->comm, comm) || !fnmatch(s->comm, comm, 0);
}

bool ea_filter_task(const struct ea_filter *f, int32_t pid, const char *comm)
{
	if (!f || !f->tasks)
		return true;
	for (int i = 0; i < f->ntasks; i++)
		if (sel_matches(&f->tasks[i], pid, comm ? comm : ""))
			return true;
	return false;
}

bool ea_filter_task_hit(struct ea_filter *f, int32_t pid, const char *comm)
{
	bool any = false;

	if (!f || !f->tasks)
		return true;
	for (int i = 0; i < f->ntasks; i++)
		if (sel_matches(&f->tasks[i], pid, comm ? comm : "")) {
			f->tasks[i].matched = true;
			any = true;
		}
	return any;
}

const char *ea_filter_tasks_fmt(char *buf, size_t n, const struct ea_filter *f)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; f && i < f->ntasks; i++) {
		const struct ea_task_sel *s = &f->tasks[i];
		const char *none = s->matched ? "" : " (none)";
		int w = s->comm ? snprintf(buf + len, n - len, "%s%s%s",
					   len ? ", " : "", s->comm, none)
				: snprintf(buf + len, n - len, "%s%d%s",
					   len ? ", " : "", s->pid, none);

		if (w < 0 || (size_t)w >= n - len) {
			if (n >= 4)
				strcpy(buf + n - 4, "...");
			return buf;
		}
		len += (size_t)w;
	}
	return buf;
}

const char *ea_filter_describe(char *buf, size_t n, const bool *cpus, int ncpus,
			       const struct ea_filter *tasks)
{
	size_t len;

	buf[0] = '\0';
	if (cpus && n > 6) {
		int nsel = 0;

		for (int c = 0; c < ncpus; c++)
			nsel += cpus[c];
		strcpy(buf, nsel == 1 ? "CPU " : "CPUs ");
		ea_cpu_list_fmt(buf + strlen(buf), n - strlen(buf), cpus,
				ncpus);
	}
	len = strlen(buf);
	if (tasks && tasks->ntasks && n - len > 10) {
		strcpy(buf + len, len ? "; tasks " : "tasks ");
		len = strlen(buf);
		ea_filter_tasks_fmt(buf + len, n - len, tasks);
	}
	return buf;
}

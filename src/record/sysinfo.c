// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a later analysis needs and a trace does not hold, read from sysfs:
 * CPU count, cpuidle state names, cpufreq frequencies; written into the
 * trace as "eatrace: key=value" marker lines (docs/record.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "eatrace/output.h"
#include "eatrace/record.h"

#define CPU_DIR "sys/devices/system/cpu"

/* First line of root/rel, trailing newline removed. 0 or -1. */
static int read_line(const char *root, const char *rel, char *buf, size_t n)
{
	char path[512];
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return 0;
}

/* Highest CPU id in a list like "0-3,8-11" and how many ids; -1 if bad. */
static int parse_cpulist(const char *s, int *count)
{
	int max = -1, n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a >= EA_MAX_CPUS)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= EA_MAX_CPUS)
				return -1;
			s = end;
		}
		n += (int)(b - a + 1);
		if (b > max)
			max = (int)b;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	if (count)
		*count = n;
	return max;
}

static int read_cpu(struct ea_sysinfo *si, const char *root, int cpu)
{
	struct ea_sys_cpu *c = &si->cpus[cpu];
	char rel[256], buf[4096], link[512], path[512];
	ssize_t n;

	c->policy = -1;
	for (int k = 0; k < 64; k++) {
		char (*p)[EA_SYS_NAME_LEN];

		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpuidle/state%d/name", cpu, k);
		if (read_line(root, rel, buf, sizeof(buf)))
			break;
		p = realloc(c->idle, (k + 1) * sizeof(*c->idle));
		if (!p)
			return -1;
		c->idle = p;
		snprintf(c->idle[k], EA_SYS_NAME_LEN, "%.*s", EA_SYS_NAME_LEN - 1, buf);
		c->nidle = k + 1;
	}
	snprintf(path, sizeof(path), "%s/" CPU_DIR "/cpu%d/cpufreq", root, cpu);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		const char *b;

		link[n] = '\0';
		b = strrchr(link, '/');
		b = b ? b + 1 : link;
		if (!strncmp(b, "policy", 6))
			c->policy = atoi(b + 6);
	} else if (!access(path, F_OK)) {
		c->policy = cpu;	/* a directory, not a link: own policy */
	}
	if (c->policy < 0)
		return 0;
	snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/cpufreq/scaling_available_frequencies", cpu);
	if (read_line(root, rel, buf, sizeof(buf)))
		return 0;
	for (char *s = buf, *end; *s; s = end) {
		unsigned long v = strtoul(s, &end, 10);
		uint32_t *f;

		if (end == s)
			break;
		f = realloc(c->freqs_khz, (c->nfreqs + 1) * sizeof(*f));
		if (!f)
			return -1;
		c->freqs_khz = f;
		c->freqs_khz[c->nfreqs++] = (uint32_t)v;
		while (*end == ' ')
			end++;
	}
	return 0;
}

int ea_sysinfo_read(struct ea_sysinfo *si, const char *root,
		    struct ea_err *err)
{
	struct utsname u;
	char buf[4096];
	int max, n = 0;

	memset(si, 0, sizeof(*si));
	if (!root)
		root = "";
	if (!read_line(root, CPU_DIR "/possible", buf, sizeof(buf)) &&
	    (max = parse_cpulist(buf, NULL)) >= 0)
		si->ncpus = max + 1;
	else
		si->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (si->ncpus <= 0 || si->ncpus > EA_MAX_CPUS)
		return ea_err_set(err, "/%s/possible: cannot tell how many CPUs there are",
				  CPU_DIR);
	if (!read_line(root, CPU_DIR "/online", buf, sizeof(buf)) &&
	    parse_cpulist(buf, &n) >= 0)
		si->nonline = n;
	else
		si->nonline = si->ncpus;
	read_line(root, CPU_DIR "/cpuidle/current_driver", si->cpuidle_driver,
		  sizeof(si->cpuidle_driver));
	read_line(root, CPU_DIR "/cpu0/cpufreq/scaling_driver", si->cpufreq_driver,
		  sizeof(si->cpufreq_driver));
	if (!uname(&u))
		snprintf(si->kernel, sizeof(si->kernel), "%.*s",
			 (int)sizeof(si->kernel) - 1, u.release);
	si->cpus = calloc(si->ncpus, sizeof(*si->cpus));
	if (!si->cpus)
		return ea_err_set(err, "out of memory");
	for (int i = 0; i < si->ncpus; i++)
		if (read_cpu(si, root, i)) {
			ea_sysinfo_free(si);
			return ea_err_set(err, "out of memory");
		}
	return 0;
}

void ea_sysinfo_free(struct ea_sysinfo *si)
{
	for (int i = 0; si->cpus && i < si->ncpus; i++) {
		free(si->cpus[i].idle);
		free(si->cpus[i].freqs_khz);
	}
	free(si->cpus);
	memset(si, 0, sizeof(*si));
}

/* ---- markers ---- */

struct emitter {
	int (*emit)(void *ctx, const char *line);
	void *ctx;
	int rc;
};

static void say(struct emitter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct emitter *e, const char *fmt, ...)
{
	char line[EA_REC_MARKER_MAX + 1];
	va_list ap;

	if (e->rc)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);	/* cut to the longest kept */
	va_end(ap);
	e->rc = e->emit(e->ctx, line);
}

/* The CPUs of policy p as a list "0-3,6". */
static void policy_cpus(const struct ea_sysinfo *si, int p, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < si->ncpus; i++) {
		int j = i;

		if (si->cpus[i].policy != p)
			continue;
		while (j + 1 < si->ncpus && si->cpus[j + 1].policy == p)
			j++;
		if (len < n)
			len += snprintf(buf + len, n - len, "%s%d", len ? "," : "", i);
		if (j > i && len < n)
			len += snprintf(buf + len, n - len, "-%d", j);
		i = j;
	}
}

int ea_sysinfo_markers(const struct ea_sysinfo *si,
		       int (*emit)(void *ctx, const char *line), void *ctx)
{
	struct emitter e = { emit, ctx, 0 };
	char list[256];

	say(&e, "eatrace: meta=1");
	say(&e, "eatrace: ncpus=%d", si->ncpus);
	say(&e, "eatrace: online=%d", si->nonline);
	if (si->kernel[0])
		say(&e, "eatrace: kernel=%s", si->kernel);
	if (si->cpuidle_driver[0])
		say(&e, "eatrace: cpuidle_driver=%s", si->cpuidle_driver);
	for (int i = 0; i < si->ncpus; i++)
		for (int k = 0; k < si->cpus[i].nidle; k++)
			say(&e, "eatrace: cpu%d.idle%d=%s", i, k, si->cpus[i].idle[k]);
	if (si->cpufreq_driver[0])
		say(&e, "eatrace: cpufreq_driver=%s", si->cpufreq_driver);
	for (int i = 0; i < si->ncpus; i++) {
		const struct ea_sys_cpu *c = &si->cpus[i];
		char line[EA_REC_MARKER_MAX + 1];
		bool first = true;
		int len = 0;

		/* one policy's lines, at its first CPU */
		if (c->policy < 0)
			continue;
		for (int j = 0; j < i; j++)
			if (si->cpus[j].policy == c->policy)
				goto next;
		policy_cpus(si, c->policy, list, sizeof(list));
		say(&e, "eatrace: policy%d.cpus=%s", c->policy, list);
		/* frequencies, continued on "+=" lines when they do not fit */
		for (int k = 0; k < c->nfreqs; k++) {
			char num[16];
			int nl = snprintf(num, sizeof(num), "%u", c->freqs_khz[k]);

			if (len && len + 1 + nl > EA_REC_MARKER_MAX) {
				say(&e, "%s", line);
				len = 0;
				first = false;
			}
			if (!len)
				len = snprintf(line, sizeof(line), "eatrace: policy%d.freqs_khz%s=%s",
					       c->policy, first ? "" : "+", num);
			else
				len += snprintf(line + len, sizeof(line) - len, ",%s", num);
		}
		if (len)
			say(&e, "%s", line);
next:;
	}
	return e.rc;
}

/* ---- JSON ---- */

void ea_sysinfo_json(const struct ea_sysinfo *si, struct ea_json *j)
{
	ea_json_int(j, "ncpus", si->ncpus);
	ea_json_int(j, "online", si->nonline);
	ea_json_str(j, "kernel", si->kernel);
	ea_json_str(j, "cpuidle_driver", si->cpuidle_driver);
	ea_json_str(j, "cpufreq_driver", si->cpufreq_driver);
	ea_json_arr(j, "cpus");
	for (int i = 0; i < si->ncpus; i++) {
		const struct ea_sys_cpu *c = &si->cpus[i];

		ea_json_obj(j, NULL);
		ea_json_int(j, "cpu", i);
		ea_json_arr(j, "idle_states");
		for (int k = 0; k < c->nidle; k++)
			ea_json_str(j, NULL, c->idle[k]);
		ea_json_arr_end(j);
		ea_json_int(j, "cpufreq_policy", c->policy);
		ea_json_arr(j, "freqs_khz");
		for (int k = 0; k < c->nfreqs; k++)
			ea_json_uint(j, NULL, c->freqs_khz[k]);
		ea_json_arr_end(j);
		ea_json_obj_end(j);
	}
	ea_json_arr_end(j);
}

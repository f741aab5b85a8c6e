// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which tasks the replay keeps on given CPUs, from evidence only:
 *  - per-CPU kernel threads, by name: ksoftirqd/N, migration/N, cpuhp/N,
 *    rcuc/N, watchdog/N, idle_inject/N, kworker/N:M (not kworker/uN:M, the
 *    unbound pool): bound to recorded CPU N (mapped to the replayed
 *    platform like any recorded CPU);
 *  - --pin PID=CPULIST or COMM=CPULIST (fnmatch(3) on the comm): CPUs of
 *    the platform replayed on; the first pin that matches applies;
 *  - --auto-pin (opt-in): a task never seen off one CPU over 10+
 *    activations, on the recorded platform only. A task the recorded
 *    scheduler never moved is not a pinned task, hence not by default.
 * `eatrace record` saves no affinity masks (src/record), so none are read.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "replay/workload.h"

#define PIN_MIN_ACTS 10

int rp_kthread_cpu(const char *comm)
{
	static const char *const prefixes[] = { "ksoftirqd/", "kworker/",
						"migration/", "cpuhp/",
						"rcuc/", "watchdog/",
						"idle_inject/" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		const char *p = comm + n;
		char *end;
		long cpu;

		if (strncmp(comm, prefixes[i], n) || *p < '0' || *p > '9')
			continue;
		cpu = strtol(p, &end, 10);
		if (i == 1 ? *end == ':' : *end == '\0')
			return cpu < EA_MAX_CPUS ? (int)cpu : -1;
	}
	return -1;
}

int ea_cpulist_parse(const char *text, uint64_t *mask, int max_cpus)
{
	const char *p = text;
	int n = 0;

	memset(mask, 0, EA_PIN_WORDS * sizeof(*mask));
	if (max_cpus > EA_MAX_CPUS)
		max_cpus = EA_MAX_CPUS;
	while (*p) {
		char *end;
		long a, b;

		if (*p < '0' || *p > '9')
			return -1;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			b = strtol(end + 1, &end, 10);
		}
		if (b < a || b >= max_cpus)
			return -1;
		for (long c = a; c <= b; c++) {
			if (!(mask[c >> 6] & (1ull << (c & 63))))
				n++;
			mask[c >> 6] |= 1ull << (c & 63);
		}
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	return n ? n : -1;
}

int ea_pin_first_cpu(const struct ea_pin *pin)
{
	for (int w = 0; w < EA_PIN_WORDS; w++)
		if (pin->cpus[w])
			return w * 64 + __builtin_ctzll(pin->cpus[w]);
	return -1;
}

bool rp_pin_allows(const struct ea_pin *pin, int cpu)
{
	return cpu >= 0 && cpu < EA_MAX_CPUS &&
	       (pin->cpus[cpu >> 6] >> (cpu & 63) & 1);
}

void rp_pin_resolve(const struct ea_workload_config *cfg, struct rp_task *t)
{
	t->pin = -1;
	t->upin = NULL;
	t->pin_auto = false;
	for (int p = 0; p < cfg->npins; p++) {
		const struct ea_pin *pin = &cfg->pins[p];

		if (pin->pattern ? !fnmatch(pin->pattern, t->comm, 0) :
				   pin->pid == t->pid) {
			t->upin = pin;
			return;
		}
	}
	t->pin = rp_kthread_cpu(t->comm);
	if (t->pin < 0 && cfg->auto_pin && t->only_cpu >= 0 &&
	    t->nacts >= PIN_MIN_ACTS) {
		t->pin = t->only_cpu;
		t->pin_auto = true;
	}
}

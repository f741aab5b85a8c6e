// SPDX-License-Identifier: GPL-2.0-only
/* What the JSON and protobuf --perfetto writers share
 * (src/output/perfetto-priv.h). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/perfetto-priv.h"

const char *ea_pf_comm_of(const struct ea_state *s, int32_t pid, char *buf)
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

uint32_t ea_pf_assumed_khz(const struct ea_acct *a, int c)
{
	const struct ea_model *m = a->model;
	const struct ea_cluster *cl;
	int k;

	if (c >= m->ncpus || m->cpu_cluster[c] < 0)
		return 0;
	cl = &m->clusters[m->cpu_cluster[c]];
	if (!cl->ncaps)
		return 0;
	k = a->cfg.assumed_khz
		    ? ea_model_cap_index_nearest(cl, a->cfg.assumed_khz)
		    : cl->ncaps - 1;
	return cl->caps[k < 0 ? cl->ncaps - 1 : k].freq_khz;
}

bool ea_pf_power_at(const struct ea_timeline *t, int col, size_t b, size_t step,
		    bool wake, uint64_t *at, double *value)
{
	ea_energy_t w_e = 0, all = 0;
	size_t end = b + step < t->nbuckets ? b + step : t->nbuckets;
	uint64_t a, e, a2;

	/* from the start of bucket b to the end of the last one summed */
	ea_timeline_bucket(t, b, &a, &e);
	if (end > b + 1)
		ea_timeline_bucket(t, end - 1, &a2, &e);
	for (size_t k = b; k < end; k++) {
		w_e += ea_timeline_wakeup_at(t, k, col);
		all += ea_timeline_at(t, k, col);
	}
	if (e <= a)
		return false;
	*at = a;
	if (wake)
		*value = ea_energy_to_double(w_e);
	else
		*value = ea_energy_to_double(all - w_e) /
			 ((double)(e - a) / 1e9);
	return true;
}

void ea_pf_power_iter_init(struct ea_pf_power_iter *it,
			   const struct ea_timeline *t, int col, bool wake,
			   size_t step)
{
	*it = (struct ea_pf_power_iter){
		.t = t, .col = col, .wake = wake, .step = step};
}

bool ea_pf_power_next(struct ea_pf_power_iter *it, uint64_t *at, double *w)
{
	while (it->b < it->t->nbuckets) {
		size_t b = it->b;

		it->b += it->step;
		if (!ea_pf_power_at(it->t, it->col, b, it->step, it->wake, at,
				    w))
			continue;
		if (ea_pf_counter_repeats(it->any, *w == it->last, it->wake,
					  *w))
			continue;
		it->last = *w;
		it->any = true;
		return true;
	}
	return false;
}

/* The counters column col gives at a step of step buckets: power on each
 * change, wakeup energy on each change or nonzero step (as the writers
 * do), each closed by a 0 at the end. */
static long long counters_of(const struct ea_timeline *t, int col, size_t step)
{
	long long n = 0;

	for (int wake = 0; wake < 2; wake++) {
		struct ea_pf_power_iter it;
		uint64_t a;
		double w;

		ea_pf_power_iter_init(&it, t, col, wake, step);
		while (ea_pf_power_next(&it, &a, &w))
			n++;
		n += t->nbuckets > 0;
	}
	return n;
}

size_t ea_pf_power_step(const struct ea_perfetto *p,
			const struct ea_timeline *t, int ncpus,
			long long bytes_per_counter)
{
	long long pos = p->cap ? ea_pf_tell(p) : -1;
	long long budget;
	size_t step = 1;

	if (pos < 0)
		return 1;
	budget = (p->cap - pos) / 2;
	if (budget < p->cap / 10)
		budget = p->cap / 10;
	/* at most two counters a bucket and two closing ones per column
	 * (counters_of()): when even that many fit, step 1 does */
	if ((unsigned __int128)(t->nbuckets + 1) * 2 *
		    (unsigned)(ncpus + t->acct->model->nclusters) *
		    (unsigned long long)bytes_per_counter <=
	    (unsigned __int128)budget)
		return 1;
	/* the counters do not shrink in proportion to the step (activity
	 * comes in bursts): count them, doubling the step until they fit */
	for (; step < t->nbuckets; step *= 2) {
		long long need = 0;

		for (int c = 0; c < ncpus; c++)
			need += counters_of(t, c, step);
		for (int i = 0; i < t->acct->model->nclusters; i++)
			need += counters_of(t, t->ncpus + i, step);
		if (need * bytes_per_counter <= budget)
			break;
	}
	return step;
}

long long ea_pf_tell(const struct ea_perfetto *p)
{
	long pos = ftell(p->f);

	return pos < 0 ? -1 : (long long)pos + (long long)p->held;
}

bool ea_pf_check_cap_now(struct ea_perfetto *p, uint64_t at)
{
	long long pos;

	pos = ea_pf_tell(p);
	if (pos >= 0 && pos >= p->cap) {
		p->full = true;
		p->full_at = at;
		return true;
	}
	return false;
}

void ea_pf_pid_map_free(struct ea_pf_pid_map *m)
{
	free(m->pid);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

bool ea_pf_pid_map_grow(struct ea_pf_pid_map *m)
{
	struct ea_pf_pid_map g;

	g = (struct ea_pf_pid_map){.cap = m->cap ? m->cap * 2 : 64, .n = m->n};
	g.pid = calloc(g.cap, sizeof(*g.pid));
	g.val = calloc(g.cap, sizeof(*g.val));
	if (!g.pid || !g.val) {
		free(g.pid);
		free(g.val);
		return false;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->val[i]) {
			size_t k = ea_pf_pid_slot(&g, m->pid[i]);

			g.pid[k] = m->pid[i];
			g.val[k] = m->val[i];
		}
	ea_pf_pid_map_free(m);
	*m = g;
	return true;
}

#define WRITEBACK_BYTES (4u << 20)

void ea_pf_gave(struct ea_perfetto *p, size_t n)
{
	struct stat st;
	long end;
	int fd;

	p->unflushed += n;
	if (p->unflushed < WRITEBACK_BYTES || p->no_writeback)
		return;
	p->unflushed = 0;
	fd = fileno(p->f);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		p->no_writeback = true;
		return;
	}
	/* a hint: where it fails, fsync() does all the work as before */
	if (!fflush(p->f) && (end = ftell(p->f)) > p->wb_at) {
		(void)sync_file_range(fd, p->wb_at, end - p->wb_at,
				      SYNC_FILE_RANGE_WRITE);
		p->wb_at = end;
	}
}

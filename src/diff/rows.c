// SPDX-License-Identifier: GPL-2.0-only
/* `eatrace diff`: pair the two models' clusters, P-states and C-states
 * for the attribution rows (src/diff/rows.h). */
#include <stdlib.h>
#include <string.h>

#include "diff/rows.h"

int ea_diff_nclusters(const struct ea_diff *d)
{
	int a = d->side[0].model->nclusters, b = d->side[1].model->nclusters;
	int n = a > b ? a : b;

	return n < EA_DIFF_MAX_CLUSTERS ? n : EA_DIFF_MAX_CLUSTERS;
}

const struct ea_cluster *ea_diff_side_cluster(const struct ea_diff *d, int s,
					      int c)
{
	const struct ea_model *m = d->side[s].model;

	return c >= 0 && c < m->nclusters && c < EA_DIFF_MAX_CLUSTERS
		       ? &m->clusters[c]
		       : NULL;
}

const char *ea_diff_cluster_name(const struct ea_diff *d, int c,
				 const char **other)
{
	const struct ea_cluster *b = ea_diff_side_cluster(d, 0, c);
	const struct ea_cluster *n = ea_diff_side_cluster(d, 1, c);

	*other = b && n && strcmp(b->name, n->name) ? n->name : NULL;
	return b ? b->name : n ? n->name : "";
}

unsigned ea_diff_row_freq(const struct ea_diff *d, int c,
			  const struct ea_diff_row *r)
{
	int s = r->k[0] >= 0 ? 0 : 1;

	return ea_diff_side_cluster(d, s, c)->caps[r->k[s]].freq_khz;
}

const char *ea_diff_row_cstate(const struct ea_diff *d, int c,
			       const struct ea_diff_row *r)
{
	int s = r->k[0] >= 0 ? 0 : 1;

	return ea_diff_side_cluster(d, s, c)->idles[r->k[s]].name;
}

/* Match each base state with the first unmatched new state that eq()
 * says is the same, then append the new side's unmatched ones. */
static int pair_rows(const struct ea_diff *d, int c, int nb, int nn,
		     int (*eq)(const struct ea_cluster *, int,
			       const struct ea_cluster *, int),
		     struct ea_diff_row **out, int *one_sided)
{
	const struct ea_cluster *b = ea_diff_side_cluster(d, 0, c);
	const struct ea_cluster *n = ea_diff_side_cluster(d, 1, c);
	struct ea_diff_row *v = malloc(((size_t)nb + nn + 1) * sizeof(*v));
	char *used = calloc((size_t)nn + 1, 1);
	int cnt = 0;

	*out = NULL;
	*one_sided = 0;
	if (!v || !used) {
		free(v);
		free(used);
		return -1;
	}
	for (int i = 0; i < nb; i++) {
		int j;

		for (j = 0; j < nn && (used[j] || !eq(b, i, n, j)); j++)
			;
		v[cnt].k[0] = i;
		v[cnt].k[1] = j < nn ? j : -1;
		if (j < nn)
			used[j] = 1;
		else
			*one_sided = 1;
		cnt++;
	}
	for (int j = 0; j < nn; j++)
		if (!used[j]) {
			v[cnt].k[0] = -1;
			v[cnt++].k[1] = j;
			*one_sided = 1;
		}
	free(used);
	*out = v;
	return cnt;
}

static int same_freq(const struct ea_cluster *b, int i,
		     const struct ea_cluster *n, int j)
{
	return b->caps[i].freq_khz == n->caps[j].freq_khz;
}

static int same_name(const struct ea_cluster *b, int i,
		     const struct ea_cluster *n, int j)
{
	return !strcmp(b->idles[i].name, n->idles[j].name);
}

int ea_diff_pstate_rows(const struct ea_diff *d, int c,
			struct ea_diff_row **out)
{
	const struct ea_cluster *b = ea_diff_side_cluster(d, 0, c);
	const struct ea_cluster *n = ea_diff_side_cluster(d, 1, c);
	int one_sided, cnt;

	cnt = pair_rows(d, c, b ? b->ncaps : 0, n ? n->ncaps : 0, same_freq,
			out, &one_sided);
	/* Frequencies of both tables in one ascending list (stable: a
	 * model's own order is kept among equal frequencies). */
	for (int i = 1; one_sided && i < cnt; i++) {
		struct ea_diff_row r = (*out)[i];
		unsigned f = ea_diff_row_freq(d, c, &r);
		int j;

		for (j = i; j > 0 && ea_diff_row_freq(d, c, &(*out)[j - 1]) > f;
		     j--)
			(*out)[j] = (*out)[j - 1];
		(*out)[j] = r;
	}
	return cnt;
}

int ea_diff_cstate_rows(const struct ea_diff *d, int c,
			struct ea_diff_row **out)
{
	const struct ea_cluster *b = ea_diff_side_cluster(d, 0, c);
	const struct ea_cluster *n = ea_diff_side_cluster(d, 1, c);
	int one_sided;

	return pair_rows(d, c, b ? b->nidles : 0, n ? n->nidles : 0, same_name,
			 out, &one_sided);
}

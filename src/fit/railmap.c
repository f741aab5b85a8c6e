// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which model clusters a measured rail feeds (docs/model-fit.md): the
 * --rail RAIL=CLUSTER[+CLUSTER...] options first, names compared without
 * regard to case; a rail no option names feeds the clusters its name
 * says, by the rule `eatrace report` applies to power rails
 * (docs/perfetto.md: a cluster's name, or "CPU" + it, as a whole token of
 * the rail's name, else a CPUCL<k> token).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "eatrace/fit.h"
#include "eatrace/rails.h"

/* Mark the clusters of "A53+A57" in feeds; -1 with err for an unknown one. */
static int map_clusters(const struct ea_model *m,
			const struct ea_fit_railmap *map, bool *feeds,
			struct ea_err *err)
{
	const char *p = map->clusters;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, "+");
		int found = -1;

		for (int i = 0; i < m->nclusters && found < 0; i++)
			if (strlen(m->clusters[i].name) == len &&
			    !strncasecmp(m->clusters[i].name, p, len))
				found = i;
		if (found < 0)
			return ea_err_set(
				err,
				"--rail %s=%s: model %s has no cluster '%.*s'",
				map->rail, map->clusters, m->name, (int)len, p);
		if (!feeds[found])
			n++;
		feeds[found] = true;
		p += len;
		if (*p == '+')
			p++;
	}
	return n;
}

int ea_fit_rail_feeds(const struct ea_model *m,
		      const struct ea_fit_railmap *maps, int nmaps,
		      const char *name, const char *subsys, bool *feeds,
		      const char **mapped_by, struct ea_err *err)
{
	int n = 0;
	bool named = false;

	memset(feeds, 0, (size_t)m->nclusters * sizeof(*feeds));
	for (int k = 0; k < nmaps; k++) {
		int r;

		if (strcasecmp(maps[k].rail, name))
			continue;
		named = true;
		r = map_clusters(m, &maps[k], feeds, err);
		if (r < 0)
			return -1;
		n += r;
	}
	if (named) {
		*mapped_by = "option";
		return n;
	}
	n = ea_rail_feeds_by_name(m, name, subsys ? subsys : "", feeds);
	*mapped_by = n ? "name" : "none";
	return n;
}

/* Whether every '+'-separated name of list is a cluster of m. */
static bool all_clusters(const struct ea_model *m, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, "+");
		bool found = false;

		for (int i = 0; i < m->nclusters && !found; i++)
			found = strlen(m->clusters[i].name) == len &&
				!strncasecmp(m->clusters[i].name, p, len);
		if (!found)
			return false;
		p += len;
		if (*p == '+')
			p++;
	}
	return p != list;
}

int ea_fit_railmap_orient(const struct ea_model *m, struct ea_fit_railmap *map,
			  struct ea_err *err)
{
	const char *t;

	if (all_clusters(m, map->clusters))
		return 0;
	if (!strchr(map->clusters, '+') && all_clusters(m, map->rail)) {
		/* report's order, CLUSTER=RAIL */
		t = map->rail;
		map->rail = map->clusters;
		map->clusters = t;
		return 0;
	}
	return ea_err_set(err,
			  "--rail %s=%s: model %s has no cluster '%s' "
			  "(clusters go after '=': RAIL=CLUSTER[+CLUSTER...])",
			  map->rail, map->clusters, m->name, map->clusters);
}

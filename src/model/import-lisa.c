// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import the energy model LISA keeps in a platform's plat_info.yml
 * (platform-info: conf: nrg-model:, a pickled lisa.energy_model.EnergyModel),
 * read with libyaml. The document API keeps aliases as references to one
 * node (nothing is expanded), and only the few paths below are walked.
 *
 *	nrg-model:
 *	    cpu_nodes:		one node per CPU
 *	    - cpu: N  (or cpus: [N])
 *	      active_states:	!!omap of FREQ: ActiveState [capacity, power]
 *	      idle_states:	!!omap of NAME: power
 *	      parent:		the cluster node (legacy cluster/core form:
 *				active_states and idle_states give the
 *				cluster's power) or the root (no cluster power)
 *	    freq_domains:	[[CPU, ...], ...] (else conf: freq-domains:)
 *
 * One cluster per frequency domain; its CPUs must carry the same states.
 * Nesting deeper than LISA_MAX_DEPTH is refused by a first pass of
 * libyaml's event parser, before the document is built: libyaml's time
 * grows with the square of the depth (100 000 nested '[', 200 KB, took
 * 24 s), a plat_info's is about 12.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "model/import-priv.h"
#include "model/import.h"

/* plat_info files are kilobytes; libyaml keeps ~100 bytes per node */
#define LISA_MAX_FILE (1u << 20)
#define LISA_MAX_PAIRS 4096	/* entries of one omap */
#define LISA_MAX_DEPTH 64	/* nested sequences and mappings */

struct lisa {
	struct ea_imp b;
	yaml_document_t doc;
	yaml_node_t *cpu[EA_MODEL_MAX_CPUS];	/* CPU id -> its cpu_nodes entry */
	int ncpus;			/* CPUs of the domains so far */
	char loc[4096];
};

/* "SRC:LINE" of a node, in l->loc. */
static const char *at(struct lisa *l, const yaml_node_t *n)
{
	snprintf(l->loc, sizeof(l->loc), "%s:%zu", l->b.src,
		 n ? (size_t)n->start_mark.line + 1 : (size_t)1);
	return l->loc;
}

static yaml_node_t *nd(struct lisa *l, int id)
{
	return yaml_document_get_node(&l->doc, id);
}

static bool is_null(const yaml_node_t *n)
{
	const char *s;

	if (!n)
		return true;
	if (n->type != YAML_SCALAR_NODE)
		return false;
	s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "null") || !strcmp(s, "~") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

static yaml_node_t *get(struct lisa *l, const yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = nd(l, p->key);

		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key))
			return nd(l, p->value);
	}
	return NULL;
}

static int num(struct lisa *l, const yaml_node_t *n, const char *what, double *v)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return ea_imp_fail(&l->b, at(l, n), "%s: not a number", what);
	if (ea_parse_num((const char *)n->data.scalar.value,
			 n->data.scalar.length, v))
		return ea_imp_fail(&l->b, at(l, n), "%s: '%.40s' is not a number",
				   what, (const char *)n->data.scalar.value);
	return 0;
}

static int cpu_id(struct lisa *l, const yaml_node_t *n, int *cpu)
{
	double v;

	if (num(l, n, "CPU id", &v))
		return -1;
	if (v != floor(v) || v < 0 || v >= EA_MODEL_MAX_CPUS)
		return ea_imp_fail(&l->b, at(l, n), "CPU id '%.40s' is not in 0..%d",
				   (const char *)n->data.scalar.value,
				   EA_MODEL_MAX_CPUS - 1);
	*cpu = (int)v;
	return 0;
}

/*
 * The (key, value) pairs of an !!omap (a sequence of one-pair mappings) or
 * of a plain mapping, in order. Returns the count (0 for null), or -1.
 */
struct pair {
	yaml_node_t *k, *v;
};

static int pairs(struct lisa *l, const yaml_node_t *n, const char *what,
		 struct pair **out)
{
	struct pair *v = NULL;
	int cnt = 0;

	*out = NULL;
	if (is_null(n))
		return 0;
	if ((n->type == YAML_MAPPING_NODE &&
	     n->data.mapping.pairs.top - n->data.mapping.pairs.start > LISA_MAX_PAIRS) ||
	    (n->type == YAML_SEQUENCE_NODE &&
	     n->data.sequence.items.top - n->data.sequence.items.start > LISA_MAX_PAIRS))
		return ea_imp_fail(&l->b, at(l, n), "%s: more than %d entries", what,
				   LISA_MAX_PAIRS);
	if (n->type == YAML_MAPPING_NODE) {
		size_t np = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);

		v = calloc(np ? np : 1, sizeof(*v));
		if (!v)
			return ea_imp_fail(&l->b, at(l, n), "out of memory");
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++) {
			v[cnt].k = nd(l, p->key);
			v[cnt++].v = nd(l, p->value);
		}
	} else if (n->type == YAML_SEQUENCE_NODE) {
		size_t ni = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);

		v = calloc(ni ? ni : 1, sizeof(*v));
		if (!v)
			return ea_imp_fail(&l->b, at(l, n), "out of memory");
		for (yaml_node_item_t *i = n->data.sequence.items.start;
		     i < n->data.sequence.items.top; i++) {
			yaml_node_t *m = nd(l, *i);

			if (!m || m->type != YAML_MAPPING_NODE ||
			    m->data.mapping.pairs.top - m->data.mapping.pairs.start != 1) {
				free(v);
				return ea_imp_fail(&l->b, at(l, m ? m : n),
						   "%s: an !!omap entry must be one KEY: VALUE pair",
						   what);
			}
			v[cnt].k = nd(l, m->data.mapping.pairs.start->key);
			v[cnt++].v = nd(l, m->data.mapping.pairs.start->value);
		}
	} else {
		return ea_imp_fail(&l->b, at(l, n), "%s: not a mapping or !!omap", what);
	}
	for (int i = 0; i < cnt; i++)
		if (!v[i].k || v[i].k->type != YAML_SCALAR_NODE || !v[i].v) {
			free(v);
			return ea_imp_fail(&l->b, at(l, n), "%s: keys must be plain values",
					   what);
		}
	*out = v;
	return cnt;
}

/* An ActiveState: [capacity, power] (object/new) or {capacity:, power:}. */
static int active_state(struct lisa *l, const yaml_node_t *n, double *cap,
			double *power)
{
	if (n->type == YAML_SEQUENCE_NODE &&
	    n->data.sequence.items.top - n->data.sequence.items.start == 2)
		return num(l, nd(l, n->data.sequence.items.start[0]), "capacity", cap) ||
		       num(l, nd(l, n->data.sequence.items.start[1]), "power", power) ? -1 : 0;
	if (n->type == YAML_MAPPING_NODE)
		return num(l, get(l, n, "capacity"), "capacity", cap) ||
		       num(l, get(l, n, "power"), "power", power) ? -1 : 0;
	return ea_imp_fail(&l->b, at(l, n), "an active state must be [capacity, power]");
}

static int freq_of(struct lisa *l, const yaml_node_t *k, uint32_t *khz)
{
	double f;

	if (num(l, k, "frequency", &f))
		return -1;
	if (f != floor(f) || f < 1 || f > UINT32_MAX)
		return ea_imp_fail(&l->b, at(l, k), "frequency '%.40s' is not a whole number of kHz",
				   (const char *)k->data.scalar.value);
	*khz = (uint32_t)f;
	return 0;
}

/* Do two CPU nodes carry the same states (same text, same order)? */
static bool same_scalar(const yaml_node_t *a, const yaml_node_t *b)
{
	return a && b && a->type == YAML_SCALAR_NODE && b->type == YAML_SCALAR_NODE &&
	       !strcmp((const char *)a->data.scalar.value,
		       (const char *)b->data.scalar.value);
}

static bool same_states(struct lisa *l, const yaml_node_t *a, const yaml_node_t *b)
{
	static const char *const keys[] = { "active_states", "idle_states" };

	for (int k = 0; k < 2; k++) {
		struct pair *pa, *pb;
		int na = pairs(l, get(l, a, keys[k]), keys[k], &pa);
		int nb = pairs(l, get(l, b, keys[k]), keys[k], &pb);
		bool same = na >= 0 && na == nb;

		for (int i = 0; same && i < na; i++) {
			same = same_scalar(pa[i].k, pb[i].k);
			if (same && k == 0) {
				double c1, p1, c2, p2;

				same = !active_state(l, pa[i].v, &c1, &p1) &&
				       !active_state(l, pb[i].v, &c2, &p2) &&
				       c1 == c2 && p1 == p2;
			} else if (same) {
				same = same_scalar(pa[i].v, pb[i].v);
			}
		}
		free(pa);
		free(pb);
		if (!same)
			return false;
	}
	return true;
}

/* l->cpu[]: each CPU's first entry in cpu_nodes (cpu: N, or cpus: [N]). */
static void index_cpus(struct lisa *l, const yaml_node_t *nodes)
{
	for (yaml_node_item_t *i = nodes->data.sequence.items.start;
	     i < nodes->data.sequence.items.top; i++) {
		yaml_node_t *n = nd(l, *i), *c = get(l, n, "cpu");
		int id;

		if (is_null(c)) {
			yaml_node_t *cs = get(l, n, "cpus");

			if (!cs || cs->type != YAML_SEQUENCE_NODE ||
			    cs->data.sequence.items.top - cs->data.sequence.items.start != 1)
				continue;
			c = nd(l, cs->data.sequence.items.start[0]);
		}
		if (!cpu_id(l, c, &id) && !l->cpu[id])
			l->cpu[id] = n;
	}
}

/* Cluster power at freq from the parent's active states (0 without). */
static int cluster_busy(struct lisa *l, const yaml_node_t *parent_states,
			uint32_t khz, const yaml_node_t *where, double *power)
{
	struct pair *p;
	int n = pairs(l, parent_states, "cluster active_states", &p);

	*power = 0;
	if (n <= 0)
		return n;
	for (int i = 0; i < n; i++) {
		uint32_t f;
		double cap;

		if (freq_of(l, p[i].k, &f))
			goto fail;
		if (f == khz) {
			int rc = active_state(l, p[i].v, &cap, power);

			free(p);
			return rc;
		}
	}
	ea_imp_fail(&l->b, at(l, where), "frequency %u kHz has no cluster active state",
		    khz);
fail:
	free(p);
	return -1;
}

static int domain(struct lisa *l, const yaml_node_t *fd, int index,
		  bool *cluster_power)
{
	yaml_node_t *ref = NULL, *parent, *pact, *pidle;
	struct pair *act = NULL, *idle = NULL;
	int ci, nact, nidle, rc = -1;
	char name[32];

	if (fd->type != YAML_SEQUENCE_NODE ||
	    fd->data.sequence.items.top == fd->data.sequence.items.start)
		return ea_imp_fail(&l->b, at(l, fd), "a frequency domain must be a list of CPUs");
	snprintf(name, sizeof(name), "cluster%d", index);
	ci = ea_imp_cluster(&l->b, name, at(l, fd));
	if (ci < 0)
		return -1;
	for (yaml_node_item_t *i = fd->data.sequence.items.start;
	     i < fd->data.sequence.items.top; i++) {
		yaml_node_t *c = nd(l, *i), *n;
		int cpu;

		if (cpu_id(l, c, &cpu) || ea_imp_cpu(&l->b, ci, cpu, at(l, c)))
			return -1;
		if (++l->ncpus > EA_MODEL_MAX_CPUS)
			return ea_imp_fail(&l->b, at(l, c), "more than %d CPUs in freq_domains",
					   EA_MODEL_MAX_CPUS);
		n = l->cpu[cpu];
		if (!n)
			return ea_imp_fail(&l->b, at(l, c), "CPU %d has no entry in nrg-model cpu_nodes",
					   cpu);
		if (!ref)
			ref = n;
		else if (!same_states(l, ref, n))
			return ea_imp_fail(&l->b, at(l, n), "CPU %d: its states differ from those of the first CPU of its frequency domain (line %zu)",
					   cpu, (size_t)ref->start_mark.line + 1);
	}
	parent = get(l, ref, "parent");
	pact = get(l, parent, "active_states");
	pidle = get(l, parent, "idle_states");
	if (!is_null(pact))
		*cluster_power = true;
	nact = pairs(l, get(l, ref, "active_states"), "active_states", &act);
	if (nact < 0)
		goto out;
	if (nact == 0) {
		ea_imp_fail(&l->b, at(l, ref), "CPU node without active_states");
		goto out;
	}
	for (int k = 0; k < nact; k++) {
		double cap, power, cpower;
		uint32_t khz;

		if (freq_of(l, act[k].k, &khz) ||
		    active_state(l, act[k].v, &cap, &power) ||
		    cluster_busy(l, pact, khz, act[k].k, &cpower))
			goto out;
		if (!(cap >= 0.5 && cap <= 1e6)) {
			ea_imp_fail(&l->b, at(l, act[k].v), "capacity %g is not in 1..1000000",
				    cap);
			goto out;
		}
		if (ea_imp_cap(&l->b, ci, khz, (uint32_t)lround(cap), power, cpower,
			       at(l, act[k].k)))
			goto out;
	}
	nidle = pairs(l, get(l, ref, "idle_states"), "idle_states", &idle);
	if (nidle < 0)
		goto out;
	for (int k = 0; k < nidle; k++) {
		const char *s = (const char *)idle[k].k->data.scalar.value;
		double power, cpower = 0;
		struct pair *pi;
		int np = pairs(l, pidle, "cluster idle_states", &pi);

		if (np < 0 || num(l, idle[k].v, "idle power", &power)) {
			free(pi);
			goto out;
		}
		for (int j = 0; j < np; j++)
			if (same_scalar(pi[j].k, idle[k].k) &&
			    num(l, pi[j].v, "cluster idle power", &cpower)) {
				free(pi);
				goto out;
			}
		free(pi);
		if (np > 0)
			*cluster_power = true;
		if (ea_imp_idle(&l->b, ci, s, power, cpower, 0, 0, 0, at(l, idle[k].k)))
			goto out;
	}
	rc = 0;
out:
	free(act);
	free(idle);
	return rc;
}

static int lowest_cpu(struct lisa *l, const yaml_node_t *fd)
{
	int lo = EA_MODEL_MAX_CPUS, c;

	if (fd && fd->type == YAML_SEQUENCE_NODE)
		for (yaml_node_item_t *i = fd->data.sequence.items.start;
		     i < fd->data.sequence.items.top; i++)
			if (!cpu_id(l, nd(l, *i), &c) && c < lo)
				lo = c;
	return lo;
}

static int walk(struct lisa *l, struct ea_model **out)
{
	yaml_node_t *root = yaml_document_get_root_node(&l->doc), *conf, *em,
		    *nodes, *fds, *name;
	yaml_node_t *order[EA_MODEL_MAX_CPUS];
	int lowest[EA_MODEL_MAX_CPUS];
	bool cluster_power = false;
	int nfd = 0;

	if (!root || root->type != YAML_MAPPING_NODE)
		return ea_imp_fail(&l->b, at(l, root), "not a LISA plat_info (a YAML mapping)");
	conf = get(l, root, "platform-info") ? get(l, root, "platform-info") : root;
	conf = get(l, conf, "conf") ? get(l, conf, "conf") : conf;
	em = get(l, conf, "nrg-model");
	if (is_null(em) || em->type != YAML_MAPPING_NODE)
		return ea_imp_fail(&l->b, at(l, em ? em : root),
				   "no nrg-model (LISA energy model) in this plat_info");
	nodes = get(l, em, "cpu_nodes");
	if (!nodes || nodes->type != YAML_SEQUENCE_NODE)
		return ea_imp_fail(&l->b, at(l, nodes ? nodes : em),
				   "nrg-model has no cpu_nodes list");
	fds = get(l, em, "freq_domains");
	if (is_null(fds))
		fds = get(l, conf, "freq-domains");
	if (!fds || fds->type != YAML_SEQUENCE_NODE)
		return ea_imp_fail(&l->b, at(l, fds ? fds : em),
				   "no freq_domains (nor conf freq-domains) list");
	/* clusters in the order of their lowest CPU */
	for (yaml_node_item_t *i = fds->data.sequence.items.start;
	     i < fds->data.sequence.items.top; i++) {
		yaml_node_t *fd = nd(l, *i);
		int j = nfd, lo = lowest_cpu(l, fd);

		if (nfd >= EA_MODEL_MAX_CPUS)
			return ea_imp_fail(&l->b, at(l, fd), "more than %d frequency domains",
					   EA_MODEL_MAX_CPUS);
		while (j > 0 && lowest[j - 1] > lo) {
			order[j] = order[j - 1];
			lowest[j] = lowest[j - 1];
			j--;
		}
		order[j] = fd;
		lowest[j] = lo;
		nfd++;
	}
	name = get(l, conf, "name");
	if (name && name->type == YAML_SCALAR_NODE && !is_null(name))
		snprintf(l->b.m->name, sizeof(l->b.m->name), "%.*s",
			 EA_NAME_LEN - 1, (const char *)name->data.scalar.value);
	index_cpus(l, nodes);
	for (int i = 0; i < nfd; i++)
		if (domain(l, order[i], i, &cluster_power))
			return -1;
	if (cluster_power) {
		ea_imp_note(&l->b, "LISA legacy cluster/core energy model (cluster nodes carry power); power_unit bogo.");
	} else {
		strcpy(l->b.m->power_unit, "mW");
		ea_imp_note(&l->b, "LISA energy model with per-CPU power only (the kernel's energy model, read from debugfs by LISA): cluster_power 0, power_unit mW assumed.");
	}
	ea_imp_note(&l->b, "Capacities rounded to integers; one cluster per frequency domain (clusterN in order of the lowest CPU); idle target residencies 0 (plat_info has none); no wakeup energies.");
	return ea_imp_finish(&l->b, "LISA nrg-model", out);
}

/* The YAML's nesting, event by event: refused past LISA_MAX_DEPTH (and
 * its syntax errors reported) before yaml_parser_load() builds anything. */
static int check_depth(const char *src, const char *buf, size_t len,
		       struct ea_err *err)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, rc = 0;
	bool end = false;

	if (!yaml_parser_initialize(&parser))
		return ea_err_set(err, "%s: out of memory", src);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!rc && !end) {
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = ea_err_set(err, "%s:%zu: YAML: %s%s%s", src,
					(size_t)parser.problem_mark.line + 1,
					parser.problem ? parser.problem : "error",
					parser.context ? " " : "",
					parser.context ? parser.context : "");
			break;
		}
		if (ev.type == YAML_SEQUENCE_START_EVENT ||
		    ev.type == YAML_MAPPING_START_EVENT) {
			if (++depth > LISA_MAX_DEPTH)
				rc = ea_err_set(err, "%s:%zu: YAML nested deeper than %d levels: not a plat_info",
						src, (size_t)ev.start_mark.line + 1,
						LISA_MAX_DEPTH);
		} else if (ev.type == YAML_SEQUENCE_END_EVENT ||
			   ev.type == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return rc;
}

int ea_import_lisa(struct ea_model **out, const char *src,
		   const struct ea_import_opts *opts, struct ea_err *err)
{
	struct lisa *l;
	yaml_parser_t parser;
	size_t len;
	char *buf;
	int rc = -1;

	*out = NULL;
	if (ea_read_file(src, LISA_MAX_FILE, &buf, &len, err))
		goto scrub;
	l = calloc(1, sizeof(*l));
	if (!l || ea_imp_init(&l->b, src, opts, err)) {
		if (l)
			ea_imp_free(&l->b);
		else
			ea_err_set(err, "%s: out of memory", src);
		free(l);
		free(buf);
		goto scrub;
	}
	if (check_depth(src, buf, len, err))
		goto free_imp;
	if (!yaml_parser_initialize(&parser)) {
		ea_err_set(err, "%s: out of memory", src);
		goto free_imp;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &l->doc)) {
		ea_err_set(err, "%s:%zu: YAML: %s%s%s", src,
			   (size_t)parser.problem_mark.line + 1,
			   parser.problem ? parser.problem : "error",
			   parser.context ? " " : "",
			   parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		goto free_imp;
	}
	yaml_parser_delete(&parser);
	rc = walk(l, out);
	yaml_document_delete(&l->doc);
free_imp:
	ea_imp_free(&l->b);
	free(l);
	free(buf);
scrub:
	if (rc)
		ea_import_scrub(err);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import the CPU part of an Android power_profile.xml
 * (frameworks/base/core/res/res/xml/power_profile.xml and device
 * overlays), read the way com.android.internal.os.PowerProfile reads it:
 * <item name="N">value</item> and <array name="N"><value>v</value>...
 * </array> anywhere under <device>; a later definition replaces an
 * earlier one. Three generations of CPU keys are understood:
 *
 *   policy form (Android 14 on): cpu.scaling_step_power.policyN (mA per
 *     step), cpu.scaling_policy_power.policyN (mA while the policy runs),
 *     and frequencies from cpu.scaling_frequency.policyN or --freqs;
 *   cluster form (Android 8.1 on): cpu.clusters.cores, cpu.core_speeds.
 *     clusterN (kHz), cpu.core_power.clusterN (mA), cpu.cluster_power.
 *     clusterN (mA), cpu.active, cpu.idle, cpu.suspend;
 *   old form: cpu.speeds[.clusterN] (kHz) with cpu.active[.clusterN] (mA).
 *
 * The cluster form wins, then the policy form. Values are currents in mA
 * (power_unit "mA", or mW with --voltage). XML read by libxml2 (xml-read.c).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "model/import-priv.h"
#include "model/import.h"

struct def {			/* an <item> or <array>, in document order */
	xmlChar *name;
	bool array;
	int line;
	xmlNode **v;		/* the <item> itself, or the array's <value>s */
	int nv;
};

struct pp {
	const char *file;
	struct def *d;
	int nd;
	struct ea_imp *b;
	char loc[300];
};

static const char *ploc(struct pp *p, int line)
{
	snprintf(p->loc, sizeof(p->loc), "%s:%d", p->file, line);
	return p->loc;
}

static int line_of(const xmlNode *n)
{
	long l = xmlGetLineNo(n);

	return l > 0 && l < INT_MAX ? (int)l : 0;
}

/* ---- the XML, read by libxml2 ---- */

static struct def *new_def(struct pp *p, const xmlNode *el, bool array)
{
	xmlChar *name = xmlGetProp(el, (const xmlChar *)"name");
	struct def *nd;

	if (!name) {
		ea_imp_fail(p->b, ploc(p, line_of(el)), "<%s> without a name attribute",
			    (const char *)el->name);
		return NULL;
	}
	nd = realloc(p->d, (size_t)(p->nd + 1) * sizeof(*nd));
	if (!nd) {
		xmlFree(name);
		ea_imp_fail(p->b, ploc(p, line_of(el)), "out of memory");
		return NULL;
	}
	p->d = nd;
	p->d[p->nd] = (struct def){ .name = name, .array = array, .line = line_of(el) };
	return &p->d[p->nd++];
}

/* <item> or <value> EL holds a value: text only, as PowerProfile reads. */
static int add_value(struct pp *p, struct def *d, xmlNode *el)
{
	xmlNode **nv;

	for (const xmlNode *c = el->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return ea_imp_fail(p->b, ploc(p, line_of(c)), "<%s> inside <%s> (line %d): expected text",
					   (const char *)c->name, (const char *)el->name,
					   line_of(el));
	if (!el->children)
		return 0;
	nv = realloc(d->v, (size_t)(d->nv + 1) * sizeof(*nv));
	if (!nv)
		return ea_imp_fail(p->b, ploc(p, line_of(el)), "out of memory");
	d->v = nv;
	nv[d->nv++] = el;
	return 0;
}

/*
 * Every <item> and <array> under <device>, in document order, as
 * PowerProfile reads them: an array's values are the <value> elements that
 * follow its start tag up to any other element or its end tag.
 */
static int walk(struct pp *p, xmlNode *el, struct def **arr)
{
	for (; el; el = el->next) {
		const char *tag = (const char *)el->name;
		struct def *d;

		if (el->type != XML_ELEMENT_NODE)
			continue;
		if (*arr && strcmp(tag, "value"))
			*arr = NULL;	/* as PowerProfile: any other element ends it */
		if (!strcmp(tag, "array")) {
			if (!(*arr = new_def(p, el, true)) || walk(p, el->children, arr))
				return -1;
			*arr = NULL;
		} else if (!strcmp(tag, "item")) {
			if (!(d = new_def(p, el, false)) || add_value(p, d, el))
				return -1;
		} else if (!strcmp(tag, "value") && *arr) {
			if (add_value(p, *arr, el))
				return -1;
		} else if (walk(p, el->children, arr)) {
			return -1;
		}
	}
	return 0;
}

/* The document, <device> its root, and its definitions (p->d). */
static int parse_xml(struct pp *p, const char *text, size_t len, xmlDoc **doc)
{
	struct def *arr = NULL;
	xmlNode *root;

	*doc = ea_xml_read(p->file, text, len, "power_profile.xml", p->b->err);
	if (!*doc)
		return -1;
	root = xmlDocGetRootElement(*doc);
	if (!root || strcmp((const char *)root->name, "device"))
		return ea_imp_fail(p->b, ploc(p, root ? line_of(root) : 1),
				   "the root element is <%s>, not <device>: not a power_profile.xml",
				   root ? (const char *)root->name : "");
	return walk(p, root->children, &arr);
}

/* ---- lookups ---- */

/* The last definition of NAME, if it is of the kind asked for. */
static struct def *find(struct pp *p, const char *name, bool array)
{
	for (int i = p->nd - 1; i >= 0; i--)
		if (!strcmp((const char *)p->d[i].name, name))
			return p->d[i].array == array ? &p->d[i] : NULL;
	return NULL;
}

/* PREFIX followed by n, or PREFIX alone when n < 0 */
static const char *key(char *buf, const char *prefix, int n)
{
	snprintf(buf, 128, "%s%d", prefix, n);
	if (n < 0)
		buf[strnlen(prefix, 127)] = '\0';
	return buf;
}

static struct def *findf(struct pp *p, bool array, const char *prefix, int n)
{
	char name[128];

	return find(p, key(name, prefix, n), array);
}

enum vkind { NUM, CPUS, KHZ };

/* Value k of d: a number >= 0, a CPU count or a frequency in kHz. */
static int value(struct pp *p, const struct def *d, int k, enum vkind kind,
		 double *v)
{
	const char *t, *name = (const char *)d->name;
	char what[300], txt[48];
	xmlChar *s;
	size_t n;
	int rc = 0, line;

	if (k >= d->nv)
		return ea_imp_fail(p->b, ploc(p, d->line), "%s: empty item", name);
	s = xmlNodeGetContent(d->v[k]);
	line = line_of(d->v[k]);
	for (t = s ? (const char *)s : ""; isspace((unsigned char)*t); t++)
		;
	for (n = strlen(t); n && isspace((unsigned char)t[n - 1]); n--)
		;
	snprintf(txt, sizeof(txt), "%.*s", (int)(n < 40 ? n : 40), t);
	snprintf(what, sizeof(what), "%s[%d]", name, k);
	if (!d->array)
		what[strlen(name)] = '\0';
	if (ea_parse_num(t, n, v))
		rc = ea_imp_fail(p->b, ploc(p, line), "%s: '%s' is not a number", what, txt);
	else if (*v < 0)
		rc = ea_imp_fail(p->b, ploc(p, line), "%s: %s is negative", what, txt);
	else if (kind == CPUS && (*v < 1 || *v > EA_MODEL_MAX_CPUS || *v != (int)*v))
		rc = ea_imp_fail(p->b, ploc(p, line), "%s: %s is not a CPU count", name, txt);
	else if (kind == KHZ && (*v < 1 || *v > EA_MODEL_MAX_FREQ_KHZ))
		rc = ea_imp_fail(p->b, ploc(p, line), "%s[%d]: %s kHz is out of range (1..%u)",
				 name, k, txt, EA_MODEL_MAX_FREQ_KHZ);
	xmlFree(s);
	return rc;
}

static void note_device_items(struct pp *p)
{
	static const struct { const char *key, *what; } keys[] = {
		{ "cpu.active", "while any CPU runs" },
		{ "cpu.idle", "awake with the CPUs idle; in old profiles: suspended" },
		{ "cpu.awake", "old profiles: awake with the CPUs idle" },
		{ "cpu.suspend", "suspended" },
	};
	struct ea_strbuf sb = { 0 };
	double v;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct def *d = find(p, keys[i].key, false);

		if (d && d->nv && !value(p, d, 0, NUM, &v))
			ea_sb_add(&sb, "%s%s = %g mA (%s)", sb.len ? ", " : "",
				  keys[i].key, v, keys[i].what);
	}
	if (sb.len)	/* (a value() error here does not matter) */
		ea_imp_note(p->b, "Device-level currents %s have no place in a per-cluster model and were left out.",
			    sb.s);
	free(sb.s);
}

/* CPUs first..first+n-1 into cluster ci. */
static int add_cpus(struct pp *p, int ci, int first, int n, const char *loc)
{
	for (int k = 0; k < n; k++)
		if (ea_imp_cpu(p->b, ci, first + k, loc))
			return -1;
	return 0;
}

/* Cluster ci's states: kHz from fr (none: --freqs), currents from pw. */
static int add_states(struct pp *p, int ci, const struct def *fr,
		      const struct def *pw, double clp)
{
	double f = 0, cop;

	for (int k = 0; k < pw->nv; k++)
		if ((fr && value(p, fr, k, KHZ, &f)) || value(p, pw, k, NUM, &cop) ||
		    ea_imp_cap(p->b, ci, (uint32_t)(f + 0.5), 0, cop, clp,
			       ploc(p, line_of(pw->v[k]))))
			return -1;
	return 0;
}

/* cluster form and old form: per cluster speeds + per-core currents */
static int import_clusters(struct pp *p, const char *speed_pfx,
			   const char *power_pfx, const char *cluster_pfx,
			   bool single)
{
	struct def *cores = find(p, "cpu.clusters.cores", true);
	struct def *core1 = find(p, "cpu.clusters.cores", false);
	int ncl = cores ? cores->nv : 1, next = 0;
	char k1[128], k2[128];

	if (ncl < 1)
		return ea_imp_fail(p->b, ploc(p, cores->line), "cpu.clusters.cores is empty");
	for (int c = 0; c < ncl; c++) {
		int n = single ? -1 : c, ci;
		struct def *sp = findf(p, true, speed_pfx, n);
		struct def *pw = findf(p, true, power_pfx, n);
		struct def *cl = cluster_pfx ? findf(p, false, cluster_pfx, n) : NULL;
		double clp = 0, cpus = 0;
		char name[32];

		if (!sp)
			return ea_imp_fail(p->b, p->file, "no <array name=\"%s\"> (%d clusters)",
					   key(k1, speed_pfx, n), ncl);
		if (!pw)
			return ea_imp_fail(p->b, ploc(p, sp->line), "%s has no matching <array name=\"%s\">",
					   (const char *)sp->name, key(k2, power_pfx, n));
		if (!sp->nv)
			return ea_imp_fail(p->b, ploc(p, sp->line), "%s is empty", (const char *)sp->name);
		if (pw->nv != sp->nv)
			return ea_imp_fail(p->b, ploc(p, pw->line), "%s has %d values, %s has %d",
					   (const char *)pw->name, pw->nv,
					   (const char *)sp->name, sp->nv);
		if ((cl && value(p, cl, 0, NUM, &clp)) ||
		    (cores && value(p, cores, c, CPUS, &cpus)) ||
		    (!cores && core1 && value(p, core1, 0, CPUS, &cpus)))
			return -1;
		if (next + cpus > EA_MODEL_MAX_CPUS)
			return ea_imp_fail(p->b, ploc(p, cores ? cores->line : core1->line),
					   "cpu.clusters.cores: more than %d CPUs", EA_MODEL_MAX_CPUS);
		snprintf(name, sizeof(name), "cluster%d", c);
		ci = ea_imp_cluster(p->b, name, ploc(p, sp->line));
		if (ci < 0 || add_cpus(p, ci, next, (int)cpus,
				       ploc(p, cores ? cores->line : sp->line)) ||
		    add_states(p, ci, sp, pw, clp))
			return -1;
		next += (int)cpus;
	}
	return 0;
}

/* policy form: one cluster per cpu.scaling_step_power.policyN */
static int import_policies(struct pp *p)
{
	static const char step_pfx[] = "cpu.scaling_step_power.policy";
	struct def *cores = find(p, "cpu.clusters.cores", true);
	bool seen[EA_MODEL_MAX_CPUS] = { false };
	int total = 0, ids[EA_MODEL_MAX_CPUS], nid = 0;
	double c;

	for (int k = 0; cores && k < cores->nv; k++) {
		if (value(p, cores, k, CPUS, &c))
			return -1;
		total += (int)c;
	}
	for (int i = 0; i < p->nd; i++) {
		const char *n = (const char *)p->d[i].name + strlen(step_pfx);
		char *end;
		long id;

		if (strncmp((const char *)p->d[i].name, step_pfx, strlen(step_pfx)) ||
		    !p->d[i].array)
			continue;
		id = strtol(n, &end, 10);
		if (*n < '0' || *n > '9' || *end || id >= EA_MODEL_MAX_CPUS)
			return ea_imp_fail(p->b, ploc(p, p->d[i].line), "%s: expected policyN, N a CPU id",
					   (const char *)p->d[i].name);
		seen[id] = true;
	}
	for (int id = 0; id < EA_MODEL_MAX_CPUS; id++)
		if (seen[id])
			ids[nid++] = id;
	for (int i = 0; i < nid; i++) {
		struct def *step = findf(p, true, step_pfx, ids[i]);
		struct def *pol = findf(p, false, "cpu.scaling_policy_power.policy", ids[i]);
		struct def *freq = findf(p, true, "cpu.scaling_frequency.policy", ids[i]);
		int last = i + 1 < nid ? ids[i + 1] : total, ci;
		double pp = 0;
		char name[32];

		snprintf(name, sizeof(name), "policy%d", ids[i]);
		if (!step->nv)
			return ea_imp_fail(p->b, ploc(p, step->line), "%s is empty", (const char *)step->name);
		if (freq && freq->nv != step->nv)
			return ea_imp_fail(p->b, ploc(p, freq->line), "%s has %d values, %s has %d",
					   (const char *)freq->name, freq->nv,
					   (const char *)step->name, step->nv);
		if (pol && value(p, pol, 0, NUM, &pp))
			return -1;
		ci = ea_imp_cluster(p->b, name, ploc(p, step->line));
		if (ci < 0 || (last > ids[i] &&
			       add_cpus(p, ci, ids[i], last - ids[i], ploc(p, step->line))) ||
		    add_states(p, ci, freq, step, pp))
			return -1;
	}
	ea_imp_note(p->b, "Policy form: one cluster per cpufreq policy, policyN's CPUs from N up to the next policy's first CPU (the last one's end from cpu.clusters.cores); core_power = cpu.scaling_step_power.policyN[i], cluster_power = cpu.scaling_policy_power.policyN; frequencies from cpu.scaling_frequency.policyN or --freqs (the steps are scaling_available_frequencies in ascending order).");
	return 0;
}

/* Which generation of keys the profile has, and its import. */
static int import_cpus(struct pp *p)
{
	static const struct {
		const char *probe, *speed, *power, *cluster, *note;
	} forms[] = {
		{ "cpu.core_speeds.cluster0", "cpu.core_speeds.cluster",
		  "cpu.core_power.cluster", "cpu.cluster_power.cluster",
		  "Cluster form: core_power = cpu.core_power.clusterN[i], the current one running core adds at speed cpu.core_speeds.clusterN[i]; cluster_power = cpu.cluster_power.clusterN at every speed (0 when absent); CPUs numbered in cluster order from cpu.clusters.cores." },
		{ "cpu.speeds.cluster0", "cpu.speeds.cluster", "cpu.active.cluster", NULL,
		  "Old cluster form: core_power = cpu.active.clusterN[i] at speed cpu.speeds.clusterN[i], cluster_power 0 (the old profile has none)." },
		{ "cpu.speeds", "cpu.speeds", "cpu.active", NULL,
		  "Old single-cluster form: core_power = cpu.active[i] at speed cpu.speeds[i], cluster_power 0." },
	};

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		for (int i = 0; f == 1 && i < p->nd; i++)	/* policies after clusters */
			if (!strncmp((const char *)p->d[i].name, "cpu.scaling_step_power.policy", 29) &&
			    p->d[i].array)
				return import_policies(p);
		if (!find(p, forms[f].probe, true))
			continue;
		if (import_clusters(p, forms[f].speed, forms[f].power, forms[f].cluster, f == 2))
			return -1;
		ea_imp_note(p->b, "%s", forms[f].note);
		return 0;
	}
	return ea_imp_fail(p->b, NULL, "no CPU tables (cpu.core_speeds.cluster0, cpu.scaling_step_power.policyN or cpu.speeds): not a power_profile.xml with CPU data");
}

int ea_import_power_profile(struct ea_model **out, const char *src,
			    const struct ea_import_opts *opts,
			    struct ea_err *err)
{
	struct ea_imp b;
	struct pp p = { .file = src, .b = &b };
	xmlDoc *doc = NULL;
	char *text = NULL;
	size_t len;
	int rc = -1;

	*out = NULL;
	if (ea_imp_init(&b, src, opts, err))
		goto scrub;
	if (ea_read_file(src, EA_MODEL_MAX_FILE, &text, &len, err))
		goto out;
	if (strlen(text) != len) {
		ea_err_set(err, "%s: NUL byte: power_profile.xml is a text file", src);
		goto out;
	}
	if (parse_xml(&p, text, len, &doc))
		goto out;
	strcpy(b.m->power_unit, "mA");
	snprintf(b.m->name, sizeof(b.m->name), "Android power profile");
	ea_imp_note(&b, "Imported from the Android power profile %s: values are currents in mA at the battery (power_unit 'mA'; --voltage V converts to mW).",
		    src);
	if (import_cpus(&p))
		goto out;
	note_device_items(&p);
	ea_imp_note(&b, "No idle states: the profile has no per-cluster idle currents (an implicit zero-power idle state).");
	rc = ea_imp_finish(&b, "power profile", out);
out:
	for (int i = 0; i < p.nd; i++) {
		xmlFree(p.d[i].name);
		free(p.d[i].v);
	}
	free(p.d);
	xmlFreeDoc(doc);
	free(text);
	ea_imp_free(&b);
scrub:
	if (rc)
		ea_import_scrub(err);
	return rc;
}

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
 * The cluster form wins when several are present, then the policy form.
 * Values are currents in mA: power_unit "mA", or mW with --voltage.
 * The XML is read by libxml2 (parser limits in parse_xml()).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "model/import.h"

struct pval {
	char *text;
	int line;
};

struct pent {
	char *name;
	bool array;
	int line;
	struct pval *v;
	int nv;
};

struct pp {
	const char *file;
	const char *text;
	size_t len;
	struct pent *e;
	int ne;
	struct ea_imp *b;
	char loc[300];
};

static const char *ploc(struct pp *p, int line)
{
	snprintf(p->loc, sizeof(p->loc), "%s:%d", p->file, line);
	return p->loc;
}

static void free_entries(struct pp *p)
{
	for (int i = 0; i < p->ne; i++) {
		for (int k = 0; k < p->e[i].nv; k++)
			free(p->e[i].v[k].text);
		free(p->e[i].v);
		free(p->e[i].name);
	}
	free(p->e);
}

/* ---- the XML, read by libxml2 ---- */

static struct pent *new_entry(struct pp *p, const char *name, bool array,
			      int line)
{
	struct pent *ne, *e;

	ne = realloc(p->e, (size_t)(p->ne + 1) * sizeof(*ne));
	if (!ne)
		return NULL;
	p->e = ne;
	e = &p->e[p->ne];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (!e->name)
		return NULL;
	e->array = array;
	e->line = line;
	p->ne++;
	return e;
}

static int line_of(const xmlNode *n)
{
	long l = xmlGetLineNo(n);

	return l > 0 && l < INT_MAX ? (int)l : 0;
}

/*
 * The text of <item> or <value>, trimmed; libxml2 has decoded the
 * predefined entities and character references. An element inside is an
 * error (PowerProfile reads text only).
 */
static int add_value(struct pp *p, struct pent *e, const xmlNode *el)
{
	struct ea_strbuf sb = { 0 };
	struct pval *nv;
	const char *s;
	size_t n;

	for (const xmlNode *c = el->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			ea_sb_add(&sb, "%s", c->content ? (const char *)c->content : "");
		} else if (c->type == XML_ELEMENT_NODE) {
			free(sb.s);
			return ea_imp_fail(p->b, ploc(p, line_of(c)), "<%s> inside <%s> (line %d): expected text",
					   (const char *)c->name, (const char *)el->name,
					   line_of(el));
		}
	}
	if (sb.oom || e->nv >= 100000) {
		free(sb.s);
		return ea_imp_fail(p->b, ploc(p, line_of(el)), sb.oom ? "out of memory" :
				   "%s: too many values", e->name);
	}
	nv = realloc(e->v, (size_t)(e->nv + 1) * sizeof(*nv));
	if (!nv) {
		free(sb.s);
		return ea_imp_fail(p->b, ploc(p, line_of(el)), "out of memory");
	}
	e->v = nv;
	s = sb.s ? sb.s : "";
	n = strlen(s);
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	nv[e->nv].text = strndup(s, n);
	nv[e->nv].line = line_of(el);
	free(sb.s);
	if (!nv[e->nv].text)
		return ea_imp_fail(p->b, ploc(p, line_of(el)), "out of memory");
	e->nv++;
	return 0;
}

static int name_attr(struct pp *p, const xmlNode *el, char *buf, size_t size)
{
	xmlChar *v = xmlGetProp(el, (const xmlChar *)"name");
	int rc = 0;

	if (!v)
		return ea_imp_fail(p->b, ploc(p, line_of(el)), "<%s> without a name attribute",
				   (const char *)el->name);
	if (strlen((const char *)v) >= size)
		rc = ea_imp_fail(p->b, ploc(p, line_of(el)), "name attribute too long");
	else
		strcpy(buf, (const char *)v);
	xmlFree(v);
	return rc;
}

/*
 * Every <item> and <array> under <device>, in document order, as
 * PowerProfile reads them: an array's values are the <value> elements that
 * follow its start tag up to any other element or its end tag.
 */
static int walk(struct pp *p, const xmlNode *el, struct pent **arr)
{
	char name[256];

	for (; el; el = el->next) {
		const char *tag = (const char *)el->name;

		if (el->type != XML_ELEMENT_NODE)
			continue;
		if (*arr && strcmp(tag, "value"))
			*arr = NULL;	/* as PowerProfile: any other element ends it */
		if (!strcmp(tag, "array")) {
			if (name_attr(p, el, name, sizeof(name)))
				return -1;
			*arr = new_entry(p, name, true, line_of(el));
			if (!*arr)
				return ea_imp_fail(p->b, ploc(p, line_of(el)), "out of memory");
			if (walk(p, el->children, arr))
				return -1;
			*arr = NULL;
		} else if (!strcmp(tag, "item")) {
			struct pent *e;

			if (name_attr(p, el, name, sizeof(name)))
				return -1;
			e = new_entry(p, name, false, line_of(el));
			if (!e)
				return ea_imp_fail(p->b, ploc(p, line_of(el)), "out of memory");
			if (el->children && add_value(p, e, el))
				return -1;
		} else if (!strcmp(tag, "value") && *arr) {
			if (el->children && add_value(p, *arr, el))
				return -1;
		} else if (walk(p, el->children, arr)) {
			return -1;
		}
	}
	return 0;
}

static int open_comment_line(const char *text);

/*
 * The first error libxml2 reports. "--" inside a comment is let through
 * (parsed in recovery mode), as the reader before libxml2 did: profiles
 * have it (our fixtures: "--voltage").
 */
struct xerr {
	bool set;
	int code, line, int2;
	char str1[64], str2[64], msg[200];
};

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_err_t;
#else
typedef xmlErrorPtr xml_err_t;
#endif

static void on_xml_error(void *ctx, xml_err_t e)
{
	struct xerr *x = ctx;
	size_t n;

	if (x->set || e->level == XML_ERR_WARNING ||
	    e->code == XML_ERR_HYPHEN_IN_COMMENT)
		return;
	x->set = true;
	x->code = e->code;
	x->line = e->line;
	x->int2 = e->int2;
	snprintf(x->str1, sizeof(x->str1), "%s", e->str1 ? e->str1 : "?");
	snprintf(x->str2, sizeof(x->str2), "%s", e->str2 ? e->str2 : "?");
	snprintf(x->msg, sizeof(x->msg), "%s", e->message ? e->message : "error");
	n = strlen(x->msg);
	while (n && (x->msg[n - 1] == '\n' || x->msg[n - 1] == ' '))
		x->msg[--n] = '\0';
}

/* A DOCTYPE: refused before any of its declarations is read. */
static void on_doctype(void *ctxp, const xmlChar *name, const xmlChar *eid,
		       const xmlChar *sid)
{
	xmlParserCtxtPtr ctx = ctxp;
	struct xerr *x = ctx->_private;

	if (!x->set) {
		x->set = true;
		x->code = -1;
		x->line = ctx->input ? ctx->input->line : 0;
		snprintf(x->msg, sizeof(x->msg), "a DOCTYPE (DTD) is not accepted in power_profile.xml");
	}
	xmlStopParser(ctx);
}

/* The error as one line, in this file's words where they exist. */
static int xml_fail(struct pp *p, const struct xerr *x)
{
	switch (x->code) {
	case XML_ERR_TAG_NOT_FINISHED:
		return ea_imp_fail(p->b, ploc(p, x->int2 > 0 ? x->int2 : x->line),
				   "unterminated <%s>", x->str1);
	case XML_ERR_TAG_NAME_MISMATCH:
		return ea_imp_fail(p->b, ploc(p, x->line), "</%s> closes <%s> (line %d): expected </%s>",
				   x->str2, x->str1, x->int2, x->str1);
	case -1:
		return ea_imp_fail(p->b, ploc(p, x->line), "%s", x->msg);
	case XML_ERR_COMMENT_NOT_FINISHED:
		return ea_imp_fail(p->b, ploc(p, open_comment_line(p->text)),
				   "unterminated comment");
	default:
		return ea_imp_fail(p->b, ploc(p, x->line), "XML: %s", x->msg);
	}
}

/* Where the last "<!--" without "-->" after it starts (for messages). */
static int open_comment_line(const char *text)
{
	const char *c = NULL, *q = text;
	int line = 1;

	while ((q = strstr(q, "<!--"))) {
		const char *e = strstr(q + 4, "-->");

		if (!e) {
			c = q;
			break;
		}
		q = e + 3;
	}
	for (const char *s = text; c && s < c; s++)
		line += *s == '\n';
	return line;
}

/*
 * Parser limits for hostile files: no network, no DTD loaded, no entity
 * substituted (a document with a DOCTYPE is refused as the parser meets
 * it, before its declarations), and
 * libxml2's default depth (256) and text-node size limits (no
 * XML_PARSE_HUGE); the input is already capped at EA_MODEL_MAX_FILE.
 */
static int parse_xml(struct pp *p)
{
	const int opts = XML_PARSE_NONET | XML_PARSE_NOERROR |
			 XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES |
			 XML_PARSE_NOCDATA | XML_PARSE_RECOVER;
	struct xerr x = { 0 };
	xmlParserCtxtPtr ctx;
	struct pent *arr = NULL;
	xmlNode *root;
	xmlDoc *doc;
	int rc = -1;

	if (p->len > INT_MAX)
		return ea_imp_fail(p->b, p->file, "too large");
	ctx = xmlNewParserCtxt();
	if (!ctx)
		return ea_imp_fail(p->b, p->file, "out of memory");
	ctx->_private = &x;
	ctx->sax->internalSubset = on_doctype;
	xmlSetStructuredErrorFunc(&x, on_xml_error);
	doc = xmlCtxtReadMemory(ctx, p->text, (int)p->len, p->file, NULL, opts);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (x.set || !doc) {
		if (!x.set)
			snprintf(x.msg, sizeof(x.msg), "not well-formed");
		xml_fail(p, &x);
		goto out;
	}
	if (doc->intSubset || doc->extSubset) {	/* on_doctype() stops first */
		ea_imp_fail(p->b, p->file, "a DOCTYPE (DTD) is not accepted in power_profile.xml");
		goto out;
	}
	root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "device")) {
		ea_imp_fail(p->b, ploc(p, root ? line_of(root) : 1),
			    "the root element is <%s>, not <device>: not a power_profile.xml",
			    root ? (const char *)root->name : "");
		goto out;
	}
	rc = walk(p, root->children, &arr);
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctx);
	return rc;
}

/* ---- lookups ---- */

static struct pent *find(struct pp *p, const char *name, bool array)
{
	for (int i = p->ne - 1; i >= 0; i--)
		if (!strcmp(p->e[i].name, name))
			return p->e[i].array == array ? &p->e[i] : NULL;
	return NULL;
}

/* PREFIX followed by n, or PREFIX alone when n < 0 */
static void keyname(char *name, size_t size, const char *prefix, int n)
{
	if (n < 0)
		snprintf(name, size, "%s", prefix);
	else
		snprintf(name, size, "%s%d", prefix, n);
}

static struct pent *findf(struct pp *p, bool array, const char *prefix, int n)
{
	char name[128];

	keyname(name, sizeof(name), prefix, n);
	return find(p, name, array);
}

static int value(struct pp *p, const struct pent *e, int k, double *v)
{
	const struct pval *pv = &e->v[k];

	char what[160];

	if (e->array)
		snprintf(what, sizeof(what), "%s[%d]", e->name, k);
	else
		snprintf(what, sizeof(what), "%s", e->name);
	if (ea_parse_num(pv->text, strlen(pv->text), v))
		return ea_imp_fail(p->b, ploc(p, pv->line), "%s: '%.40s' is not a number",
				   what, pv->text);
	if (*v < 0)
		return ea_imp_fail(p->b, ploc(p, pv->line), "%s: %s is negative",
				   what, pv->text);
	return 0;
}

static int item_value(struct pp *p, const struct pent *e, double *v)
{
	if (!e->nv)
		return ea_imp_fail(p->b, ploc(p, e->line), "%s: empty item", e->name);
	return value(p, e, 0, v);
}

static int count_value(struct pp *p, const struct pent *e, int k, int *n)
{
	double v;

	if (value(p, e, k, &v))
		return -1;
	if (v < 1 || v > EA_MODEL_MAX_CPUS || v != (int)v)
		return ea_imp_fail(p->b, ploc(p, e->v[k].line), "%s: %s is not a CPU count",
				   e->name, e->v[k].text);
	*n = (int)v;
	return 0;
}

static int freq_value(struct pp *p, const struct pent *e, int k, uint32_t *f)
{
	double v;

	if (value(p, e, k, &v))
		return -1;
	if (v < 1 || v > EA_MODEL_MAX_FREQ_KHZ)
		return ea_imp_fail(p->b, ploc(p, e->v[k].line), "%s[%d]: %s kHz is out of range (1..%u)",
				   e->name, k, e->v[k].text, EA_MODEL_MAX_FREQ_KHZ);
	*f = (uint32_t)(v + 0.5);
	return 0;
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
		struct pent *e = find(p, keys[i].key, false);

		if (e && e->nv &&
		    !ea_parse_num(e->v[0].text, strlen(e->v[0].text), &v))
			ea_sb_add(&sb, "%s%s = %g mA (%s)", sb.len ? ", " : "",
				  keys[i].key, v, keys[i].what);
	}
	if (sb.len)
		ea_imp_note(p->b, "Device-level currents %s have no place in a per-cluster model and were left out.",
			    sb.s);
	free(sb.s);
}

/* CPU counts per cluster from cpu.clusters.cores; 0 = not given. */
static int cluster_cores(struct pp *p, int ncl, int *cores, int *total)
{
	struct pent *a = find(p, "cpu.clusters.cores", true);
	struct pent *it = find(p, "cpu.clusters.cores", false);

	*total = 0;
	memset(cores, 0, (size_t)ncl * sizeof(*cores));
	if (a) {
		if (a->nv != ncl)
			return ea_imp_fail(p->b, ploc(p, a->line), "cpu.clusters.cores has %d values for %d clusters",
					   a->nv, ncl);
		for (int k = 0; k < ncl; k++) {
			if (count_value(p, a, k, &cores[k]))
				return -1;
			*total += cores[k];
		}
	} else if (it && ncl == 1) {
		if (!it->nv)
			return ea_imp_fail(p->b, ploc(p, it->line), "cpu.clusters.cores: empty item");
		if (count_value(p, it, 0, &cores[0]))
			return -1;
		*total = cores[0];
	}
	if (*total > EA_MODEL_MAX_CPUS)
		return ea_imp_fail(p->b, ploc(p, a ? a->line : it->line), "cpu.clusters.cores: more than %d CPUs",
				   EA_MODEL_MAX_CPUS);
	return 0;
}

static int add_cpus(struct pp *p, int ci, int first, int n, const char *loc)
{
	for (int k = 0; k < n; k++)
		if (ea_imp_cpu(p->b, ci, first + k, loc))
			return -1;
	return 0;
}

/* cluster form and old form: per cluster speeds + per-core currents */
static int import_clusters(struct pp *p, const char *speed_pfx,
			   const char *power_pfx, const char *cluster_pfx,
			   bool single)
{
	struct pent *cores_a = find(p, "cpu.clusters.cores", true);
	int ncl = cores_a ? cores_a->nv : 1, total, next = 0;
	int *cores;

	if (ncl < 1)
		return ea_imp_fail(p->b, ploc(p, cores_a->line), "cpu.clusters.cores is empty");
	cores = calloc((size_t)ncl, sizeof(*cores));
	if (!cores)
		return ea_imp_fail(p->b, NULL, "out of memory");
	if (cluster_cores(p, ncl, cores, &total))
		goto fail;
	for (int c = 0; c < ncl; c++) {
		struct pent *sp, *pw, *cl = NULL;
		double clp = 0;
		char name[32];
		int ci;

		sp = findf(p, true, speed_pfx, single ? -1 : c);
		pw = findf(p, true, power_pfx, single ? -1 : c);
		if (cluster_pfx)
			cl = findf(p, false, cluster_pfx, single ? -1 : c);
		snprintf(name, sizeof(name), "cluster%d", c);
		if (!sp) {
			char key[64];

			keyname(key, sizeof(key), speed_pfx, single ? -1 : c);
			ea_imp_fail(p->b, p->file, "no <array name=\"%s\"> (%d clusters)", key, ncl);
			goto fail;
		}
		if (!pw) {
			char key[64];

			keyname(key, sizeof(key), power_pfx, single ? -1 : c);
			ea_imp_fail(p->b, ploc(p, sp->line), "%s has no matching <array name=\"%s\">",
				    sp->name, key);
			goto fail;
		}
		if (!sp->nv) {
			ea_imp_fail(p->b, ploc(p, sp->line), "%s is empty", sp->name);
			goto fail;
		}
		if (pw->nv != sp->nv) {
			ea_imp_fail(p->b, ploc(p, pw->line), "%s has %d values, %s has %d",
				    pw->name, pw->nv, sp->name, sp->nv);
			goto fail;
		}
		if (cl && item_value(p, cl, &clp))
			goto fail;
		ci = ea_imp_cluster(p->b, name, ploc(p, sp->line));
		if (ci < 0)
			goto fail;
		if (cores[c]) {
			if (add_cpus(p, ci, next, cores[c], ploc(p, cores_a ? cores_a->line : sp->line)))
				goto fail;
			next += cores[c];
		}
		for (int k = 0; k < sp->nv; k++) {
			uint32_t f;
			double cop;

			if (freq_value(p, sp, k, &f) || value(p, pw, k, &cop) ||
			    ea_imp_cap(p->b, ci, f, 0, cop, clp, ploc(p, pw->v[k].line)))
				goto fail;
		}
	}
	free(cores);
	return 0;
fail:
	free(cores);
	return -1;
}

struct policy {
	int id;
	struct pent *step, *pol, *freq;
};

static int cmp_policy(const void *a, const void *b)
{
	return ((const struct policy *)a)->id - ((const struct policy *)b)->id;
}

static int import_policies(struct pp *p)
{
	static const char step_pfx[] = "cpu.scaling_step_power.policy";
	struct policy *pol = NULL;
	int npol = 0, total = 0, rc = -1;
	struct pent *cores_a = find(p, "cpu.clusters.cores", true);

	for (int i = 0; i < p->ne; i++) {
		struct pent *e = &p->e[i];
		const char *n = e->name + strlen(step_pfx);
		struct policy *np;
		char *end;
		long id;
		bool dup = false;

		if (strncmp(e->name, step_pfx, strlen(step_pfx)) || !e->array)
			continue;
		id = strtol(n, &end, 10);
		if (*n < '0' || *n > '9' || *end || id >= EA_MODEL_MAX_CPUS) {
			ea_imp_fail(p->b, ploc(p, e->line), "%s: expected policyN, N a CPU id",
				    e->name);
			goto out;
		}
		for (int k = 0; k < npol; k++)
			if (pol[k].id == id)
				dup = true;
		if (dup)
			continue;
		np = realloc(pol, (size_t)(npol + 1) * sizeof(*np));
		if (!np) {
			ea_imp_fail(p->b, NULL, "out of memory");
			goto out;
		}
		pol = np;
		pol[npol].id = (int)id;
		pol[npol].step = findf(p, true, "cpu.scaling_step_power.policy", (int)id);
		pol[npol].pol = findf(p, false, "cpu.scaling_policy_power.policy", (int)id);
		pol[npol].freq = findf(p, true, "cpu.scaling_frequency.policy", (int)id);
		npol++;
	}
	qsort(pol, (size_t)npol, sizeof(*pol), cmp_policy);
	if (cores_a) {
		for (int k = 0; k < cores_a->nv; k++) {
			int c;

			if (count_value(p, cores_a, k, &c))
				goto out;
			total += c;
		}
	}
	for (int i = 0; i < npol; i++) {
		struct policy *q = &pol[i];
		int last = i + 1 < npol ? pol[i + 1].id : total;
		double pp = 0;
		char name[32];
		int ci;

		snprintf(name, sizeof(name), "policy%d", q->id);
		if (!q->step->nv) {
			ea_imp_fail(p->b, ploc(p, q->step->line), "%s is empty", q->step->name);
			goto out;
		}
		if (q->freq && q->freq->nv != q->step->nv) {
			ea_imp_fail(p->b, ploc(p, q->freq->line), "%s has %d values, %s has %d",
				    q->freq->name, q->freq->nv, q->step->name,
				    q->step->nv);
			goto out;
		}
		if (q->pol && item_value(p, q->pol, &pp))
			goto out;
		ci = ea_imp_cluster(p->b, name, ploc(p, q->step->line));
		if (ci < 0)
			goto out;
		if (last > q->id && add_cpus(p, ci, q->id, last - q->id, ploc(p, q->step->line)))
			goto out;
		for (int k = 0; k < q->step->nv; k++) {
			uint32_t f = 0;
			double cop;

			if ((q->freq && freq_value(p, q->freq, k, &f)) ||
			    value(p, q->step, k, &cop) ||
			    ea_imp_cap(p->b, ci, f, 0, cop, pp, ploc(p, q->step->v[k].line)))
				goto out;
		}
	}
	ea_imp_note(p->b, "Policy form: one cluster per cpufreq policy, policyN's CPUs from N up to the next policy's first CPU (the last one's end from cpu.clusters.cores); core_power = cpu.scaling_step_power.policyN[i], cluster_power = cpu.scaling_policy_power.policyN; frequencies from cpu.scaling_frequency.policyN or --freqs (the steps are scaling_available_frequencies in ascending order).");
	rc = 0;
out:
	free(pol);
	return rc;
}

static int import_power_profile(struct ea_model **out, const char *src,
				const struct ea_import_opts *opts,
				struct ea_err *err)
{
	struct pp p = { 0 };
	struct ea_imp b;
	char *text;
	size_t len;
	int rc = -1;
	bool any_policy = false;

	*out = NULL;
	if (ea_read_file(src, EA_MODEL_MAX_FILE, &text, &len, err))
		return -1;
	if (strlen(text) != len) {
		free(text);
		return ea_err_set(err, "%s: NUL byte: power_profile.xml is a text file", src);
	}
	if (ea_imp_init(&b, src, opts, err)) {
		free(text);
		return -1;
	}
	p.file = src;
	p.text = text;
	p.len = len;
	p.b = &b;
	if (parse_xml(&p))
		goto out;
	strcpy(b.m->power_unit, "mA");
	snprintf(b.m->name, sizeof(b.m->name), "Android power profile");
	ea_imp_note(&b, "Imported from the Android power profile %s: values are currents in mA at the battery (power_unit 'mA'; --voltage V converts to mW).",
		    src);
	for (int i = 0; i < p.ne; i++)
		if (!strncmp(p.e[i].name, "cpu.scaling_step_power.policy", 29) &&
		    p.e[i].array)
			any_policy = true;
	if (find(&p, "cpu.core_speeds.cluster0", true)) {
		if (import_clusters(&p, "cpu.core_speeds.cluster",
				    "cpu.core_power.cluster",
				    "cpu.cluster_power.cluster", false))
			goto out;
		ea_imp_note(&b, "Cluster form: core_power = cpu.core_power.clusterN[i], the current one running core adds at speed cpu.core_speeds.clusterN[i]; cluster_power = cpu.cluster_power.clusterN at every speed (0 when absent); CPUs numbered in cluster order from cpu.clusters.cores.");
	} else if (any_policy) {
		if (import_policies(&p))
			goto out;
	} else if (find(&p, "cpu.speeds.cluster0", true)) {
		if (import_clusters(&p, "cpu.speeds.cluster",
				    "cpu.active.cluster", NULL, false))
			goto out;
		ea_imp_note(&b, "Old cluster form: core_power = cpu.active.clusterN[i] at speed cpu.speeds.clusterN[i], cluster_power 0 (the old profile has none).");
	} else if (find(&p, "cpu.speeds", true)) {
		if (import_clusters(&p, "cpu.speeds", "cpu.active", NULL, true))
			goto out;
		ea_imp_note(&b, "Old single-cluster form: core_power = cpu.active[i] at speed cpu.speeds[i], cluster_power 0.");
	} else {
		ea_imp_fail(&b, NULL, "no CPU tables (cpu.core_speeds.cluster0, cpu.scaling_step_power.policyN or cpu.speeds): not a power_profile.xml with CPU data");
		goto out;
	}
	note_device_items(&p);
	ea_imp_note(&b, "No idle states: the profile has no per-cluster idle currents (an implicit zero-power idle state).");
	rc = ea_imp_finish(&b, "power profile", out);
out:
	free_entries(&p);
	free(text);
	ea_imp_free(&b);
	return rc;
}

int ea_import_power_profile(struct ea_model **out, const char *src,
			    const struct ea_import_opts *opts,
			    struct ea_err *err)
{
	int rc = import_power_profile(out, src, opts, err);

	if (rc)
		ea_import_scrub(err);
	return rc;
}

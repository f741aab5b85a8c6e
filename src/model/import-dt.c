// SPDX-License-Identifier: GPL-2.0-only
/*
 * Import the Android/Linaro "sched-energy-costs" device-tree binding
 * (Documentation/devicetree/bindings/scheduler/sched-energy-costs.txt in
 * the Android kernels), from dts source text or a flattened dtb: each CPU
 * node in /cpus has sched-energy-costs = <&CORE_COST &CLUSTER_COST>, cost
 * nodes busy-cost-data = <capacity power ...> and idle-cost-data = <power
 * ...> (docs/model-format.md).
 * dts text goes through cpp and dtc (dt-compile.c); the blob is checked
 * with fdt_check_full() and walked with libfdt. Error locations: "FILE:
 * LINE: /node/path[: property]" for dts (dtc -T), "FILE: /node..." for dtb.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "model/import-priv.h"
#include "model/import.h"

#define MAX_LEVELS 8

struct dt {
	const char *file;	/* SRC */
	struct ea_err *err;
	const void *fdt;
	const struct ea_dt_locs *where;	/* dts: where things were set */
	char loc[700];
};

static const char *loc(struct dt *dt, int node, const char *prop)
{
	char path[256], at[400];

	if (fdt_get_path(dt->fdt, node, path, sizeof(path)))
		snprintf(path, sizeof(path), "?");
	if (!dt->where || !ea_dt_where(dt->where, path, prop, at, sizeof(at)))
		snprintf(at, sizeof(at), "%s", dt->file);
	snprintf(dt->loc, sizeof(dt->loc), "%s: %s%s%s", at, path,
		 prop ? ": " : "", prop ? prop : "");
	return dt->loc;
}

static const char *name(const struct dt *dt, int node)
{
	const char *n = fdt_get_name(dt->fdt, node, NULL);

	return n ? n : "?";
}

/* Property PROP as 32-bit cells: their count (0 if absent), -1 on error. */
static int cells(struct dt *dt, int node, const char *prop, const fdt32_t **v)
{
	int len;

	*v = fdt_getprop(dt->fdt, node, prop, &len);
	if (!*v)
		return 0;
	if (len % 4)
		return ea_err_set(dt->err, "%s: %d bytes: not a list of 32-bit cells",
				  loc(dt, node, prop), len);
	return len / 4;
}

static const char *string(const struct dt *dt, int node, const char *prop)
{
	int len;
	const char *s = fdt_getprop(dt->fdt, node, prop, &len);

	return s && len > 0 && strnlen(s, (size_t)len) + 1 == (size_t)len ? s : NULL;
}

/* ---- the binding ---- */

struct cost {
	uint32_t a[EA_MODEL_MAX_CAP_STATES];	/* capacity or frequency */
	uint32_t b[EA_MODEL_MAX_CAP_STATES];	/* power */
	uint32_t idle[EA_MODEL_MAX_IDLE_STATES];
	int nbusy, nidle;
	bool freq_model;
	char busy_loc[700], idle_loc[700];
};

static int read_cost(struct dt *dt, int n, struct cost *c)
{
	const fdt32_t *v;
	int cnt;

	memset(c, 0, sizeof(*c));
	c->freq_model = fdt_getprop(dt->fdt, n, "freq-energy-model", NULL) != NULL;
	cnt = cells(dt, n, "busy-cost-data", &v);
	snprintf(c->busy_loc, sizeof(c->busy_loc), "%s", loc(dt, n, "busy-cost-data"));
	if (cnt < 0 || !v)
		return !v ? ea_err_set(dt->err, "%s: no busy-cost-data property", loc(dt, n, NULL)) : -1;
	if (cnt == 0)
		return ea_err_set(dt->err, "%s: empty: expected <capacity power> pairs",
				  c->busy_loc);
	if (cnt % 2)
		return ea_err_set(dt->err, "%s: %d cells, an odd number: expected <%s power> pairs",
				  c->busy_loc, cnt, c->freq_model ? "frequency" : "capacity");
	if (cnt / 2 > EA_MODEL_MAX_CAP_STATES)
		return ea_err_set(dt->err, "%s: more than %d states", c->busy_loc,
				  EA_MODEL_MAX_CAP_STATES);
	c->nbusy = cnt / 2;
	for (int i = 0; i < c->nbusy; i++) {
		c->a[i] = fdt32_to_cpu(v[2 * i]);
		c->b[i] = fdt32_to_cpu(v[2 * i + 1]);
	}
	cnt = cells(dt, n, "idle-cost-data", &v);
	if (cnt < 0)
		return -1;
	snprintf(c->idle_loc, sizeof(c->idle_loc), "%s",
		 loc(dt, n, v ? "idle-cost-data" : NULL));
	if (cnt > EA_MODEL_MAX_IDLE_STATES)
		return ea_err_set(dt->err, "%s: more than %d idle states",
				  c->idle_loc, EA_MODEL_MAX_IDLE_STATES);
	c->nidle = cnt;
	for (int i = 0; i < cnt; i++)
		c->idle[i] = fdt32_to_cpu(v[i]);
	return 0;
}

/* The same tables (memset() zeroed the unused parts and the padding). */
static bool same_cost(const struct cost *x, const struct cost *y)
{
	return !memcmp(x, y, offsetof(struct cost, busy_loc));
}

static bool is_cpu_node(const struct dt *dt, int n)
{
	const char *t = string(dt, n, "device_type");

	return t ? !strcmp(t, "cpu") : !strcmp(name(dt, n), "cpu") ||
				      !strncmp(name(dt, n), "cpu@", 4);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The CPU's OPP frequencies in kHz, ascending and distinct, into f (room
 * for EA_MODEL_MAX_CAP_STATES + 1): operating-points = <kHz uV ...> or
 * operating-points-v2 = <&table> with opp-hz in the table's children.
 * Returns the count (0: none), -1 on error.
 */
static int opp_freqs(struct dt *dt, int cpu, uint32_t *f)
{
	const int max = EA_MODEL_MAX_CAP_STATES + 1;
	const fdt32_t *v;
	int n = 0, cnt = cells(dt, cpu, "operating-points", &v), t, o;

	if (cnt < 0)
		return -1;
	if (v) {
		if (cnt % 2)
			return ea_err_set(dt->err, "%s: %d cells: expected <kHz uV> pairs",
					  loc(dt, cpu, "operating-points"), cnt);
		for (int i = 0; i < cnt / 2 && n < max; i++)
			f[n++] = fdt32_to_cpu(v[2 * i]);
	} else if ((cnt = cells(dt, cpu, "operating-points-v2", &v)) < 0) {
		return -1;
	} else if (v) {
		if (cnt < 1)
			return ea_err_set(dt->err, "%s: empty", loc(dt, cpu, "operating-points-v2"));
		t = fdt_node_offset_by_phandle(dt->fdt, fdt32_to_cpu(v[0]));
		if (t < 0)
			return ea_err_set(dt->err, "%s: phandle %u: no such node",
					  loc(dt, cpu, "operating-points-v2"), fdt32_to_cpu(v[0]));
		fdt_for_each_subnode(o, dt->fdt, t) {
			uint64_t x;

			if (!(cnt = cells(dt, o, "opp-hz", &v)))
				continue;
			if (cnt != 1 && cnt != 2)
				return cnt < 0 ? -1 : ea_err_set(dt->err, "%s: expected one 64-bit frequency in Hz",
								 loc(dt, o, "opp-hz"));
			x = fdt32_to_cpu(v[0]);
			if (cnt == 2)
				x = x << 32 | fdt32_to_cpu(v[1]);
			x = (x + 500) / 1000;
			if (x < 1 || x > EA_MODEL_MAX_FREQ_KHZ)
				return ea_err_set(dt->err, "%s: %llu kHz is out of range",
						  loc(dt, o, "opp-hz"), (unsigned long long)x);
			if (n < max)
				f[n++] = (uint32_t)x;
		}
	}
	qsort(f, (size_t)n, sizeof(*f), cmp_u32);
	cnt = 0;
	for (int i = 0; i < n; i++)
		if (!cnt || f[i] != f[cnt - 1])
			f[cnt++] = f[i];
	return cnt;
}

struct idlename {
	char name[EA_NAME_LEN];
	uint32_t residency;
};

/* The names of the CPU's cpu-idle-states; count, or -1 on error. */
static int idle_names(struct dt *dt, int cpu, struct idlename *names, int max)
{
	const fdt32_t *v;
	int cnt = cells(dt, cpu, "cpu-idle-states", &v), n = 0;

	for (int i = 0; i < cnt && n < max; i++, n++) {
		int s = fdt_node_offset_by_phandle(dt->fdt, fdt32_to_cpu(v[i]));
		const fdt32_t *r;
		const char *nm;

		if (s < 0)
			return ea_err_set(dt->err, "%s: phandle %u: no such node",
					  loc(dt, cpu, "cpu-idle-states"), fdt32_to_cpu(v[i]));
		nm = string(dt, s, "idle-state-name");
		snprintf(names[n].name, sizeof(names[n].name), "%s", nm ? nm : name(dt, s));
		names[n].residency = cells(dt, s, "min-residency-us", &r) == 1 ?
				     fdt32_to_cpu(r[0]) : 0;
	}
	return cnt < 0 ? -1 : n;
}

struct dcpu {
	int node;
	int lv[MAX_LEVELS];	/* cost nodes: core, cluster, ... */
	int nlv;
};

/* The idle states of cluster ci from the costs and the first CPU's names. */
static int add_idles(struct dt *dt, struct ea_imp *b, int ci, int cpu,
		     const struct cost *core, const struct cost *cl,
		     bool has_cl, const char *corename, const char *cname)
{
	struct idlename names[EA_MODEL_MAX_IDLE_STATES];
	int nid = core->nidle > cl->nidle ? core->nidle : cl->nidle;
	int nnames = idle_names(dt, cpu, names, EA_MODEL_MAX_IDLE_STATES);

	if (nnames < 0)
		return -1;
	if (nid && core->nidle != cl->nidle && has_cl)
		ea_imp_note(b, "%s has %d idle-cost-data entries and %s %d: the shorter list was extended with its last value (0 if empty).",
			    corename, core->nidle, cname, cl->nidle);
	for (int k = 0; k < nid; k++) {
		double cp = core->nidle ? core->idle[k < core->nidle ? k : core->nidle - 1] : 0;
		double lp = cl->nidle ? cl->idle[k < cl->nidle ? k : cl->nidle - 1] : 0;
		char nm[EA_NAME_LEN];
		uint32_t res = 0;

		if (nnames && nid == nnames + 1) {
			snprintf(nm, sizeof(nm), "%s", k ? names[k - 1].name : "WFI");
			res = k ? names[k - 1].residency : 1;
		} else if (nnames && nid == nnames) {
			snprintf(nm, sizeof(nm), "%s", names[k].name);
			res = names[k].residency;
		} else {
			snprintf(nm, sizeof(nm), "idle%d", k);
		}
		for (int j = 0; j < k; j++)
			if (!strcmp(b->m->clusters[ci].idles[j].name, nm))
				snprintf(nm, sizeof(nm), "idle%d", k);
		if (ea_imp_idle(b, ci, nm, cp, lp, 0, 0, res,
				k < core->nidle ? core->idle_loc : cl->idle_loc))
			return -1;
	}
	if (nid && nnames && nid == nnames)
		ea_imp_note(b, "%s: as many idle-cost-data entries as cpu-idle-states, so entry k was taken for cpuidle state k; on ARM cpuidle state 0 is WFI and the DT states come after it: check the order.",
			    cname);
	else if (nid && nnames != nid - 1)
		ea_imp_note(b, "%s: idle states named idle0..idle%d (cpu-idle-states does not match idle-cost-data); target residencies 0.",
			    cname, nid - 1);
	return 0;
}

/* One cluster: the CPUs of cv[] whose cluster cost node is cv[i]'s. */
static int cluster(struct dt *dt, struct ea_imp *b, struct dcpu *cv, int ncv,
		   int i, int nlevels, bool *done)
{
	struct cost core, cl, other;
	bool has_cl = nlevels >= 2, freqs_opt = false, capnote = false;
	int key = cv[i].lv[has_cl ? 1 : 0], nfreq = 0, ci;
	uint32_t freqs[EA_MODEL_MAX_CAP_STATES + 1];
	char cname[EA_NAME_LEN];

	snprintf(cname, sizeof(cname), "%s", name(dt, key));
	ci = ea_imp_cluster(b, cname, loc(dt, key, NULL));
	memset(&cl, 0, sizeof(cl));
	if (ci < 0 || read_cost(dt, cv[i].lv[0], &core) ||
	    (has_cl && read_cost(dt, key, &cl)))
		return -1;
	for (int k = i; k < ncv; k++) {
		if (done[k] || cv[k].lv[has_cl ? 1 : 0] != key)
			continue;
		if (cv[k].lv[0] != cv[i].lv[0]) {
			if (read_cost(dt, cv[k].lv[0], &other))
				return -1;
			if (!same_cost(&core, &other))
				return ea_err_set(dt->err, "%s: its core costs differ from those of %s, in the same cluster (%s): one cluster has one core table",
						  loc(dt, cv[k].lv[0], NULL),
						  name(dt, cv[i].lv[0]), cname);
		}
		done[k] = true;
		if (ea_imp_cpu(b, ci, k, loc(dt, cv[k].node, NULL)))
			return -1;
	}
	if (has_cl && cl.nbusy != core.nbusy)
		return ea_err_set(dt->err, "%s: %d states, but the core's busy-cost-data (%s) has %d",
				  cl.busy_loc, cl.nbusy, name(dt, cv[i].lv[0]), core.nbusy);
	for (int k = 0; has_cl && k < core.nbusy; k++)
		capnote |= cl.a[k] != core.a[k];
	if (capnote)
		ea_imp_note(b, "%s's busy-cost-data capacities differ from %s's: the core's were used.",
			    cname, name(dt, cv[i].lv[0]));
	for (int j = 0; j < b->opts->nfreqs_kv; j++)
		freqs_opt |= ea_import_key_matches(b->m, ci, b->opts->freqs[j].key);
	if (!core.freq_model && !freqs_opt) {
		nfreq = opp_freqs(dt, cv[i].node, freqs);
		if (nfreq < 0)
			return -1;
		if (nfreq != core.nbusy && nfreq)
			return ea_err_set(dt->err, "%s: the OPP table of %s has %d frequencies for %d busy-cost-data states: pass --freqs %s=KHZ,... (%d values, ascending)",
					  core.busy_loc, name(dt, cv[i].node), nfreq,
					  core.nbusy, cname, core.nbusy);
		if (nfreq != core.nbusy)
			return ea_err_set(dt->err, "%s: the binding gives no frequencies and %s has no operating-points(-v2): pass --freqs %s=KHZ,... (%d values, ascending)",
					  core.busy_loc, name(dt, cv[i].node), cname, core.nbusy);
	}
	for (int k = 0; k < core.nbusy; k++) {
		uint32_t f = core.freq_model ? core.a[k] : nfreq ? freqs[k] : 0;
		uint32_t cap = core.freq_model ? 0 : core.a[k];
		char at[720];

		snprintf(at, sizeof(at), "%s[%d]", core.busy_loc, k);
		if (!core.freq_model && !cap)
			return ea_err_set(dt->err, "%s: capacity 0", at);
		if (ea_imp_cap(b, ci, f, cap, core.b[k], has_cl ? cl.b[k] : 0, at))
			return -1;
	}
	if (add_idles(dt, b, ci, cv[i].node, &core, &cl, has_cl,
		      name(dt, cv[i].lv[0]), cname))
		return -1;
	if (core.freq_model)
		ea_imp_note(b, "%s: freq-energy-model: busy-cost-data pairs are <frequency power>.",
			    cname);
	return 0;
}

/* Each CPU node of /cpus with its sched-energy-costs levels. */
static int cpu_nodes(struct dt *dt, int cpus, struct dcpu *cv)
{
	int n = 0, nlevels = -1, node;
	const fdt32_t *v;

	fdt_for_each_subnode(node, dt->fdt, cpus) {
		int cnt;

		if (!is_cpu_node(dt, node))
			continue;
		if (n == EA_MODEL_MAX_CPUS)
			return ea_err_set(dt->err, "%s: more than %d CPU nodes",
					  loc(dt, cpus, NULL), EA_MODEL_MAX_CPUS);
		cv[n].node = node;
		cnt = cells(dt, node, "sched-energy-costs", &v);
		if (cnt < 0)
			return -1;
		if (v && (cnt < 1 || cnt > MAX_LEVELS))
			return ea_err_set(dt->err, "%s: %d phandles: expected 1 (core) to 8 levels",
					  loc(dt, node, "sched-energy-costs"), cnt);
		for (int k = 0; k < cnt; k++) {
			cv[n].lv[k] = fdt_node_offset_by_phandle(dt->fdt, fdt32_to_cpu(v[k]));
			if (cv[n].lv[k] < 0)
				return ea_err_set(dt->err, "%s: phandle %u: no such node",
						  loc(dt, node, "sched-energy-costs"),
						  fdt32_to_cpu(v[k]));
		}
		cv[n++].nlv = cnt;
	}
	if (!n)
		return ea_err_set(dt->err, "%s: /cpus has no CPU nodes", loc(dt, cpus, NULL));
	for (int i = 0; i < n; i++) {
		if (!cv[i].nlv) {
			for (int k = 0; k < n; k++)
				if (cv[k].nlv)
					return ea_err_set(dt->err, "%s: no sched-energy-costs property (every CPU node needs one)",
							  loc(dt, cv[i].node, NULL));
			return ea_err_set(dt->err, "%s: no CPU node has a sched-energy-costs property: not a sched-energy-costs device tree",
					  dt->file);
		}
		if (nlevels < 0)
			nlevels = cv[i].nlv;
		if (cv[i].nlv != nlevels)
			return ea_err_set(dt->err, "%s: %d sched-energy-costs levels, other CPUs have %d (the binding wants the same highest level for all)",
					  loc(dt, cv[i].node, NULL), cv[i].nlv, nlevels);
	}
	return n;
}

static int build(struct dt *dt, struct ea_imp *b)
{
	bool done[EA_MODEL_MAX_CPUS] = { false };
	int cpus = fdt_path_offset(dt->fdt, "/cpus"), ncv, rc = -1;
	struct dcpu *cv;

	if (cpus < 0)
		return ea_err_set(dt->err, "%s: no /cpus node", dt->file);
	cv = calloc(EA_MODEL_MAX_CPUS, sizeof(*cv));
	if (!cv)
		return ea_err_set(dt->err, "%s: out of memory", dt->file);
	ncv = cpu_nodes(dt, cpus, cv);
	for (int i = 0; i < ncv; i++)
		if (!done[i] && cluster(dt, b, cv, ncv, i, cv[0].nlv, done))
			goto out;
	if (ncv > 0 && cv[0].nlv > 2)
		ea_imp_note(b, "Cost levels above the cluster (e.g. a system-cost node) were ignored: the model has cores and clusters only.");
	rc = ncv > 0 ? 0 : -1;
out:
	free(cv);
	return rc;
}

int ea_import_dtb(struct ea_model **out, const char *src, const void *blob,
		  size_t len, const struct ea_dt_locs *where,
		  const struct ea_import_opts *opts,
		  struct ea_err *err)
{
	struct dt dt = { .file = src, .err = err, .fdt = blob, .where = where };
	const char *model, *base = strrchr(src, '/');
	struct ea_imp b;
	int rc = -1;

	*out = NULL;
	if (ea_dt_check(src, blob, len, err) || ea_imp_init(&b, src, opts, err))
		return -1;
	ea_imp_note(&b, "Imported from the sched-energy-costs device-tree binding in %s (%s).",
		    src, where ? "dts" : "dtb");
	if (build(&dt, &b))
		goto out;
	model = string(&dt, 0, "model");
	snprintf(b.m->name, sizeof(b.m->name), "%s", model ? model : base ? base + 1 : src);
	ea_imp_note(&b, "Logical CPU ids follow the order of the CPU nodes in /cpus, as Linux numbers them when the boot CPU is the first (pass --cpus otherwise). Each CPU's first sched-energy-costs phandle is its core's cost node (busy-cost-data <capacity power> pairs give cap and core_power, idle-cost-data the idle core_power), the second its cluster's (cluster_power and idle cluster_power); CPUs sharing a cluster cost node form one cluster, assumed to be one frequency domain.");
	ea_imp_note(&b, "Frequencies from each cluster's operating-points(-v2) table, matched to the cost states in ascending order. power_unit 'bogo': the binding's costs have no unit (pass --power-unit mW for vendor tables in mW). No wakeup energies: the binding has none.");
	rc = ea_imp_finish(&b, "device tree", out);
out:
	ea_imp_free(&b);
	return rc;
}

int ea_import_dt(struct ea_model **out, const char *src,
		 const struct ea_import_opts *opts, struct ea_err *err)
{
	static const struct ea_import_opts none;
	char *text = NULL, *blob = NULL;
	struct ea_dt_locs *where = NULL;
	size_t len;
	int rc = -1;

	*out = NULL;
	if (!opts)
		opts = &none;
	if (ea_read_file(src, EA_MODEL_MAX_FILE, &text, &len, err))
		goto out;
	if (len >= 4 && fdt_magic(text) == FDT_MAGIC)
		rc = ea_import_dtb(out, src, text, len, NULL, opts, err);
	else if (strlen(text) != len)
		ea_err_set(err, "%s: NUL byte: not dts text", src);
	else if (!ea_dt_compile(src, text, opts, &blob, &len, &where, err))
		rc = ea_import_dtb(out, src, blob, len, where, opts, err);
out:
	free(text);
	free(blob);
	ea_dt_locs_free(where);
	if (rc)
		ea_import_scrub(err);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model importers: idlestat, debugfs (both layouts), dt (dts and dtb),
 * power_profile.xml (cluster and policy forms), format detection, the
 * written JSON loading back equal, and errors on malformed input (one
 * line naming the file and line or entry; never a crash).
 *
 * Fixtures are in tests/fixtures/import/; the idlestat TC2 model and
 * trace are read from ../shared/traces/idlestat (not copied), and those
 * tests are skipped when that directory is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "eatrace/model.h"
#include "model/import-priv.h"
#include "model/import.h"

static char root[2048], shared[4096], tmpdir[4096];

static const char *fx(const char *name)
{
	static char buf[4][4200];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/tests/fixtures/import/%s", root, name);
	return buf[i];
}

static const char *sh(const char *name)
{
	static char buf[4][4200];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/idlestat/%s", shared, name);
	return buf[i];
}

static bool have_shared(void)
{
	struct stat st;

	return !stat(sh("energy_model_TC2"), &st);
}

/* Write text to a temporary file; returns its path. */
static const char *tmpfile_with(const char *name, const char *text, size_t len)
{
	static char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

static const char *tmptext(const char *name, const char *text)
{
	return tmpfile_with(name, text, strlen(text));
}

static char *slurp(const char *path, size_t *len)
{
	char *buf;
	struct ea_err err;

	assert_int_equal(ea_read_file(path, 1 << 24, &buf, len, &err), 0);
	return buf;
}

/* The written JSON loads back (from a file, with ea_model_load) equal. */
static void round_trip(const struct ea_model *m)
{
	struct ea_model *back = NULL;
	struct ea_err err;
	char path[4200], why[200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/round-trip.json", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(ea_model_write_json(m, f), 0);
	fclose(f);
	if (ea_model_load(&back, path, &err))
		fail_msg("written model does not load: %s", err.msg);
	if (!ea_model_equal(m, back, why, sizeof(why)))
		fail_msg("written model loads back different: %s", why);
	ea_model_free(back);
}

static struct ea_model *import_ok(ea_import_fn fn, const char *src,
				  const struct ea_import_opts *o)
{
	struct ea_model *m = NULL;
	struct ea_err err;

	if (fn(&m, src, o, &err))
		fail_msg("import of %s failed: %s", src, err.msg);
	assert_non_null(m);
	round_trip(m);
	return m;
}

/* Import must fail with one line containing want (and no newline). */
static void import_fails(ea_import_fn fn, const char *src,
			 const struct ea_import_opts *o, const char *want)
{
	struct ea_model *m = NULL;
	struct ea_err err = { "" };

	if (!fn(&m, src, o, &err)) {
		ea_model_free(m);
		fail_msg("import of %s succeeded, expected '%s'", src, want);
	}
	assert_null(m);
	if (!strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s'", err.msg, want);
	assert_null(strchr(err.msg, '\n'));
}

static const struct ea_cluster *cluster(const struct ea_model *m,
					const char *name)
{
	for (int i = 0; i < m->nclusters; i++)
		if (!strcmp(m->clusters[i].name, name))
			return &m->clusters[i];
	fail_msg("no cluster %s", name);
	return NULL;
}

static void expect_cpus(const struct ea_cluster *cl, int n, ...)
{
	va_list ap;

	assert_int_equal(cl->ncpus, n);
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(cl->cpus[i], va_arg(ap, int));
	va_end(ap);
}

/* ---- idlestat ---- */

/* The 2014 RFC's TC2 numbers ([RFC PATCH 06/16]), ascending frequency. */
static const uint32_t a15_mhz[] = { 500, 600, 700, 800, 900, 1000, 1100, 1200 };
static const double a15_core[] = { 2021, 2312, 2756, 3125, 3524, 3846, 5177, 6997 };
static const double a15_cluster[] = { 7920, 8165, 8172, 8195, 8265, 8446, 11426, 15200 };
static const uint32_t a7_mhz[] = { 350, 400, 500, 600, 700, 800, 900, 1000 };
static const double a7_core[] = { 187, 275, 334, 407, 447, 549, 761, 1024 };
static const double a7_cluster[] = { 2967, 2792, 2810, 2815, 2919, 2847, 3917, 4905 };

static void test_idlestat_tc2(void **state)
{
	struct ea_import_opts o = { 0 };
	const struct ea_cluster *a, *b;
	struct ea_model *m, *ref;
	struct ea_err err;

	if (!have_shared())
		skip();
	o.trace = sh("Experiments__test01.dat");
	m = import_ok(ea_import_idlestat, sh("energy_model_TC2"), &o);
	assert_string_equal(m->power_unit, "bogo");
	assert_int_equal(m->nclusters, 2);
	a = cluster(m, "clusterA");
	b = cluster(m, "clusterB");
	/* test01.dat's header: clusterA = cpu1, cpu2; clusterB = cpu0, 3, 4 */
	expect_cpus(a, 2, 1, 2);
	expect_cpus(b, 3, 0, 3, 4);
	assert_int_equal(a->ncaps, 8);
	assert_int_equal(b->ncaps, 8);
	for (int k = 0; k < 8; k++) {
		assert_int_equal(a->caps[k].freq_khz, a15_mhz[k] * 1000);
		assert_true(a->caps[k].core_power == a15_core[k]);
		assert_true(a->caps[k].cluster_power == a15_cluster[k]);
		assert_int_equal(b->caps[k].freq_khz, a7_mhz[k] * 1000);
		assert_true(b->caps[k].core_power == a7_core[k]);
		assert_true(b->caps[k].cluster_power == a7_cluster[k]);
		/* derived: round(1024 x f / 1200 MHz) */
		assert_int_equal(a->caps[k].cap,
				 (uint32_t)(1024.0 * a15_mhz[k] / 1200 + 0.5));
		assert_int_equal(b->caps[k].cap,
				 (uint32_t)(1024.0 * a7_mhz[k] / 1200 + 0.5));
	}
	assert_int_equal(a->caps[7].cap, 1024);
	assert_int_equal(a->caps[0].cap, 427);
	assert_int_equal(b->caps[7].cap, 853);
	/* WFI put first, then the file's C1: cluster 25 / 10, core 0 */
	assert_int_equal(a->nidles, 2);
	assert_string_equal(a->idles[0].name, "WFI");
	assert_string_equal(a->idles[1].name, "C1");
	for (int k = 0; k < 2; k++) {
		assert_true(a->idles[k].cluster_power == 25);
		assert_true(a->idles[k].core_power == 0);
		assert_true(b->idles[k].cluster_power == 10);
		assert_true(b->idles[k].core_power == 0);
		/* wakeup 210 5 and 110 0, x 47742 / (1024 x 1000) */
		assert_true(a->idles[k].cluster_wakeup == 9.79083984375);
		assert_true(a->idles[k].core_wakeup == 0.233115234375);
		assert_true(b->idles[k].cluster_wakeup == 5.12853515625);
		assert_true(b->idles[k].core_wakeup == 0);
	}
	assert_non_null(strstr(m->source, "47742"));
	assert_non_null(strstr(m->source, "capacities"));
	assert_non_null(strstr(m->source, "Experiments__test01.dat"));

	/* same powers, CPUs and wakeups as the bundled tc2-idlestat model */
	snprintf(err.msg, sizeof(err.msg), "%s", "");
	{
		char path[4200];

		snprintf(path, sizeof(path), "%s/models/tc2-idlestat.json", root);
		if (ea_model_load(&ref, path, &err))
			fail_msg("%s", err.msg);
	}
	for (int i = 0; i < 2; i++) {
		const struct ea_cluster *x = &m->clusters[i], *y = &ref->clusters[i];

		assert_int_equal(x->ncpus, y->ncpus);
		for (int k = 0; k < x->ncpus; k++)
			assert_int_equal(x->cpus[k], y->cpus[k]);
		assert_int_equal(x->ncaps, y->ncaps);
		for (int k = 0; k < x->ncaps; k++) {
			assert_int_equal(x->caps[k].freq_khz, y->caps[k].freq_khz);
			assert_true(x->caps[k].core_power_u == y->caps[k].core_power_u);
			assert_true(x->caps[k].cluster_power_u == y->caps[k].cluster_power_u);
		}
		assert_int_equal(x->nidles, y->nidles);
		for (int k = 0; k < x->nidles; k++) {
			assert_string_equal(x->idles[k].name, y->idles[k].name);
			assert_true(x->idles[k].cluster_power_u == y->idles[k].cluster_power_u);
			assert_true(x->idles[k].core_wakeup_u == y->idles[k].core_wakeup_u);
			assert_true(x->idles[k].cluster_wakeup_u == y->idles[k].cluster_wakeup_u);
		}
	}
	ea_model_free(ref);
	ea_model_free(m);

	/* without a topology: an error that says how to give one */
	import_fails(ea_import_idlestat, sh("energy_model_TC2"), NULL,
		     "energy_model_TC2:5: cluster 'clusterA': which CPUs it has is not known");
	/* --ncpus numbers CPUs in cluster order; --capacity sets the top */
	memset(&o, 0, sizeof(o));
	o.ncpus = "2,3";
	{
		struct ea_import_kv caps[] = { { "A", "2015" }, { "clusterB", "1024" } };

		o.caps = caps;
		o.ncaps_kv = 2;
		m = import_ok(ea_import_idlestat, sh("energy_model_TC2"), &o);
	}
	expect_cpus(cluster(m, "clusterA"), 2, 0, 1);
	expect_cpus(cluster(m, "clusterB"), 3, 2, 3, 4);
	/* scaled by frequency: the RFC's own TC2 capacities come out */
	assert_int_equal(cluster(m, "clusterA")->caps[0].cap, 840);
	assert_int_equal(cluster(m, "clusterA")->caps[7].cap, 2015);
	assert_int_equal(cluster(m, "clusterB")->caps[0].cap, 358);
	assert_int_equal(cluster(m, "clusterB")->caps[1].cap, 410);
	ea_model_free(m);
}

static void test_idlestat_fixture(void **state)
{
	struct ea_import_kv cpus[] = { { "A", "2-3" }, { "1", "0,1" } };
	struct ea_import_opts o = { .cpus = cpus, .ncpus_kv = 2 };
	const struct ea_cluster *a, *b;
	struct ea_model *m;

	m = import_ok(ea_import_idlestat, fx("idlestat-model"), &o);
	a = cluster(m, "clusterA");
	b = cluster(m, "clusterB");
	expect_cpus(a, 2, 2, 3);
	expect_cpus(b, 2, 0, 1);
	/* rows sorted by frequency */
	assert_int_equal(a->ncaps, 3);
	assert_int_equal(a->caps[0].freq_khz, 600000);
	assert_true(a->caps[0].core_power == 110);
	assert_true(a->caps[0].cluster_power == 400);
	assert_int_equal(a->caps[2].freq_khz, 1800000);
	assert_int_equal(a->caps[2].cap, 1024);
	assert_int_equal(b->caps[1].cap, 455);
	/* WFI listed: no WFI added */
	assert_int_equal(a->nidles, 2);
	assert_string_equal(a->idles[0].name, "WFI");
	assert_string_equal(a->idles[1].name, "C2");
	assert_true(a->idles[0].core_power == 20);
	assert_true(a->idles[1].cluster_power == 5);
	assert_true(a->idles[1].cluster_wakeup == ea_rfc_wakeup(100));
	assert_int_equal(b->nidles, 1);
	assert_null(strstr(m->source, "no WFI"));
	ea_model_free(m);

	/* the same from the topology header of a text trace */
	memset(&o, 0, sizeof(o));
	o.trace = fx("idlestat-topology.txt");
	m = import_ok(ea_import_idlestat, fx("idlestat-model"), &o);
	expect_cpus(cluster(m, "clusterA"), 2, 2, 3);
	expect_cpus(cluster(m, "clusterB"), 2, 0, 1);
	ea_model_free(m);
}

static void test_idlestat_errors(void **state)
{
	struct ea_import_opts o = { .ncpus = "1" };
	char want[600];
	const char *p;

	p = tmptext("bad-num", "clusters 1\nclusterA: 1 cap states 0 C states\nP-states:\n1000 abc 5\n");
	snprintf(want, sizeof(want), "%s:4: cluster power: 'abc' is not a number", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-count", "clusterA: 3 cap states 0 C states\nP-states:\n1000 1 5\n500 1 1\n");
	snprintf(want, sizeof(want), "%s:1: clusterA: declares 3 cap states, lists 2", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-huge", "clusterA:\nP-states:\n99999999999 1 1\n");
	snprintf(want, sizeof(want), "%s:3: frequency 99999999999 MHz is out of range", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-empty", "");
	import_fails(ea_import_idlestat, p, &o, "no 'clusterA:' section");

	p = tmptext("bad-nopstates", "clusterA:\nC-states:\nC1 1 1\n");
	snprintf(want, sizeof(want), "%s:1: clusterA: no P-states", p);
	import_fails(ea_import_idlestat, p, &o, want);

	/* a duplicate frequency: validation names the row */
	p = tmptext("bad-dupfreq", "clusterA:\nP-states:\n500 1 1\n500 2 2\n");
	snprintf(want, sizeof(want), "%s:4: cluster 'clusterA': freq_khz: frequencies must be strictly ascending", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-negative", "clusterA:\nP-states:\n500 1 -1\n");
	snprintf(want, sizeof(want), "%s:3: cluster 'clusterA': core_power: -1 is negative", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-clusters", "clusters 3\nclusterA:\nP-states:\n500 1 1\nclusterB:\nP-states:\n500 1 1\n");
	snprintf(want, sizeof(want), "%s:1: clusters 3, but 2 are described", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-row", "clusterA:\nP-states:\n500 1\n");
	snprintf(want, sizeof(want), "%s:3: expected a P-state", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmptext("bad-junk", "hello world\n");
	snprintf(want, sizeof(want), "%s:1: 'hello': expected 'clusters N'", p);
	import_fails(ea_import_idlestat, p, &o, want);

	p = tmpfile_with("nul", "clusterA:\n\0\n", 12);
	import_fails(ea_import_idlestat, p, &o, "NUL byte");

	import_fails(ea_import_idlestat, "/nonexistent/model", &o,
		     "/nonexistent/model: No such file or directory");

	/* options naming a cluster that does not exist */
	{
		struct ea_import_kv cpus[] = { { "Z", "0" } };
		struct ea_import_opts o2 = { .cpus = cpus, .ncpus_kv = 1 };

		import_fails(ea_import_idlestat, fx("idlestat-model"), &o2,
			     "--cpus: no cluster 'Z'");
		o2.ncpus = "2";
		import_fails(ea_import_idlestat, fx("idlestat-model"), &o2,
			     "--ncpus: ");
	}
	o.ncpus = NULL;
	o.trace = fx("power_profile.xml");
	import_fails(ea_import_idlestat, fx("idlestat-model"), &o,
		     "no idlestat topology header");
}

/* ---- debugfs ---- */

static const uint32_t a53_khz[] = { 450000, 575000, 700000, 775000, 850000 };
static const uint32_t a53_cap[] = { 236, 302, 367, 407, 446 };
static const double a53_mw[] = { 42, 58, 79, 97, 119 };
static const uint32_t a57_khz[] = { 450000, 625000, 800000, 950000, 1100000 };
static const uint32_t a57_cap[] = { 419, 582, 745, 884, 1024 };
static const double a57_mw[] = { 160, 239, 343, 454, 583 };

static void test_debugfs_ps(void **state)
{
	const struct ea_cluster *a53, *a57;
	struct ea_model *m;

	m = import_ok(ea_import_debugfs, fx("debugfs-ps"), NULL);
	assert_string_equal(m->power_unit, "uW");
	assert_int_equal(m->nclusters, 2);	/* gpu skipped */
	a53 = cluster(m, "cpu0");
	a57 = cluster(m, "cpu1");
	expect_cpus(a53, 4, 0, 3, 4, 5);
	expect_cpus(a57, 2, 1, 2);
	for (int k = 0; k < 5; k++) {
		assert_int_equal(a53->caps[k].freq_khz, a53_khz[k]);
		assert_int_equal(a53->caps[k].cap, a53_cap[k]);
		assert_true(a53->caps[k].core_power == a53_mw[k] * 1000);
		assert_true(a53->caps[k].cluster_power == 0);
		assert_int_equal(a57->caps[k].freq_khz, a57_khz[k]);
		assert_int_equal(a57->caps[k].cap, a57_cap[k]);
		assert_true(a57->caps[k].core_power == a57_mw[k] * 1000);
	}
	assert_true(a53->idle_implicit);
	assert_non_null(strstr(m->source, "gpu"));
	ea_model_free(m);

	/* one domain's directory alone */
	m = import_ok(ea_import_debugfs, fx("debugfs-ps/cpu1"), NULL);
	assert_int_equal(m->nclusters, 1);
	expect_cpus(&m->clusters[0], 2, 1, 2);
	ea_model_free(m);
}

static void test_debugfs_cs(void **state)
{
	struct ea_import_kv caps[] = { { "pd0", "446" } };
	struct ea_import_opts o = { .caps = caps, .ncaps_kv = 1 };
	const struct ea_cluster *a53, *a57;
	struct ea_model *m;

	m = import_ok(ea_import_debugfs, fx("debugfs-cs"), &o);
	assert_string_equal(m->power_unit, "mW");
	a53 = cluster(m, "pd0");
	a57 = cluster(m, "pd1");
	expect_cpus(a53, 4, 0, 3, 4, 5);
	for (int k = 0; k < 5; k++) {
		assert_int_equal(a53->caps[k].freq_khz, a53_khz[k]);
		assert_true(a53->caps[k].core_power == a53_mw[k]);
		/* --capacity pd0=446 scaled by frequency: the kernel's values */
		assert_int_equal(a53->caps[k].cap, a53_cap[k]);
		/* derived: the fastest OPP of all is 1024 */
		assert_int_equal(a57->caps[k].cap,
				 (uint32_t)(1024.0 * a57_khz[k] / 1100000 + 0.5));
	}
	assert_non_null(strstr(m->source, "--capacity pd0=446"));
	ea_model_free(m);
}

static void mkdirs(const char *path)
{
	char buf[4200];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[4400];
	FILE *f;

	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_debugfs_errors(void **state)
{
	char tree[4200], ps[4300], want[4600];

	snprintf(tree, sizeof(tree), "%s/em1", tmpdir);
	snprintf(ps, sizeof(ps), "%s/cpu0/ps:1000", tree);
	put(tree, "x", "");
	put(ps, "frequency", "1000\n");
	put(ps, "power", "12\n");
	snprintf(ps, sizeof(ps), "%s/cpu0", tree);
	put(ps, "cpus", "0-1\n");
	/* a good tree first */
	{
		struct ea_model *m = import_ok(ea_import_debugfs, tree, NULL);

		ea_model_free(m);
	}
	put(ps, "cpus", "zero\n");
	snprintf(want, sizeof(want), "%s/cpu0/cpus: 'zero", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);
	put(ps, "cpus", "0-1\n");
	snprintf(ps, sizeof(ps), "%s/cpu0/ps:1000", tree);
	put(ps, "power", "twelve\n");
	snprintf(want, sizeof(want), "%s/cpu0/ps:1000/power: 'twelve", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);
	put(ps, "power", "99999999999999999999999\n");
	snprintf(want, sizeof(want), "%s/cpu0/ps:1000/power: number too large", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);
	put(ps, "power", "9999999999\n");
	snprintf(want, sizeof(want), "%s/cpu0/ps:1000/power: 9999999999 is absurd", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);
	put(ps, "power", "12\n");
	put(ps, "frequency", "1001\n");
	snprintf(want, sizeof(want), "%s/cpu0/ps:1000/frequency: 1001 differs from the directory's name",
		 tree);
	import_fails(ea_import_debugfs, tree, NULL, want);
	put(ps, "frequency", "1000\n");
	snprintf(ps, sizeof(ps), "%s/cpu0/ps:2000", tree);
	put(ps, "frequency", "2000\n");
	snprintf(want, sizeof(want), "%s/cpu0/ps:2000/power: No such file", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);
	put(ps, "power", "5\n");
	put(ps, "performance", "100\n");
	snprintf(want, sizeof(want), "%s/cpu0/ps:1000/performance: missing here", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);

	/* overlapping domains: validation names the domain */
	snprintf(tree, sizeof(tree), "%s/em2", tmpdir);
	snprintf(ps, sizeof(ps), "%s/cpu0/ps:1000", tree);
	put(ps, "frequency", "1000\n");
	put(ps, "power", "1\n");
	snprintf(ps, sizeof(ps), "%s/cpu1/ps:1000", tree);
	put(ps, "frequency", "1000\n");
	put(ps, "power", "1\n");
	snprintf(ps, sizeof(ps), "%s/cpu0", tree);
	put(ps, "cpus", "0-1\n");
	snprintf(ps, sizeof(ps), "%s/cpu1", tree);
	put(ps, "cpus", "1\n");
	snprintf(want, sizeof(want), "%s/cpu1: cluster 'cpu1': cpus: CPU 1 is also in cluster 'cpu0'", tree);
	import_fails(ea_import_debugfs, tree, NULL, want);

	snprintf(tree, sizeof(tree), "%s/em-empty", tmpdir);
	mkdirs(tree);
	import_fails(ea_import_debugfs, tree, NULL, "no CPU performance domains");
	import_fails(ea_import_debugfs, fx("power_profile.xml"), NULL, "not a directory");
}

/* ---- device tree ---- */

static void check_juno(const struct ea_model *m)
{
	static const uint32_t a57_dt_cap[] = { 417, 579, 744, 883, 1024 };
	static const double a57_core[] = { 168, 251, 359, 479, 616 };
	static const double a57_cl[] = { 24, 32, 43, 49, 64 };
	static const uint32_t a53_dt_cap[] = { 235, 302, 368, 406, 447 };
	static const double a53_core[] = { 33, 46, 61, 76, 93 };
	static const double a53_cl[] = { 26, 30, 39, 47, 57 };
	const struct ea_cluster *big = cluster(m, "cluster-cost0");
	const struct ea_cluster *little = cluster(m, "cluster-cost1");

	assert_string_equal(m->name, "Juno sched-energy-costs fixture");
	assert_string_equal(m->power_unit, "bogo");
	/* cpu@0 moved to cluster-cost0 by the &A57_0 override */
	expect_cpus(big, 2, 0, 1);
	expect_cpus(little, 4, 2, 3, 4, 5);
	for (int k = 0; k < 5; k++) {
		assert_int_equal(big->caps[k].freq_khz, a57_khz[k]);
		assert_int_equal(big->caps[k].cap, a57_dt_cap[k]);
		assert_true(big->caps[k].core_power == a57_core[k]);
		assert_true(big->caps[k].cluster_power == a57_cl[k]);
		assert_int_equal(little->caps[k].freq_khz, a53_khz[k]);
		assert_int_equal(little->caps[k].cap, a53_dt_cap[k]);
		assert_true(little->caps[k].core_power == a53_core[k]);
		assert_true(little->caps[k].cluster_power == a53_cl[k]);
	}
	assert_int_equal(big->nidles, 3);
	assert_string_equal(big->idles[0].name, "WFI");
	assert_string_equal(big->idles[1].name, "cpu-sleep-0");
	assert_string_equal(big->idles[2].name, "cluster-sleep-0");
	assert_int_equal(big->idles[1].target_residency_us, 2000);
	assert_int_equal(big->idles[2].target_residency_us, 2500);
	assert_true(big->idles[0].core_power == 15);
	assert_true(big->idles[2].cluster_power == 24);
	assert_true(little->idles[2].cluster_power == 17);
	assert_non_null(strstr(m->source, "capacities differ"));
}

static void test_dt(void **state)
{
	struct ea_model *dts, *dtb;
	char why[200];

	dts = import_ok(ea_import_dt, fx("juno-sched-energy.dts"), NULL);
	dtb = import_ok(ea_import_dt, fx("juno-sched-energy.dtb"), NULL);
	check_juno(dts);
	check_juno(dtb);
	/* the same model, but for the file named in the source */
	free(dtb->source);
	dtb->source = strdup(dts->source);
	if (!ea_model_equal(dts, dtb, why, sizeof(why)))
		fail_msg("dts and dtb differ: %s", why);
	ea_model_free(dts);
	ea_model_free(dtb);
}

static const char dts_head[] =
	"/dts-v1/;\n"
	"#include <dt-bindings/interrupt-controller/arm-gic.h>\n"
	"#define FOO 1\n"
	"/ {\n"
	"\tcpus {\n"
	"\t\t#address-cells = <1>;\n"
	"\t\tcpu@0 { device_type = \"cpu\"; reg = <0>;\n"
	"\t\t\tinterrupts = <GIC_SPI 1 IRQ_TYPE_LEVEL_HIGH>;\n"
	"\t\t\toperating-points = <500000 900000 1000000 1000000>;\n"
	"\t\t\tsched-energy-costs = <&C0>; };\n";

static void test_dt_variants(void **state)
{
	struct ea_import_kv freqs[] = { { "core-cost0", "400000,800000" } };
	char inc[4200];
	const char *dirs[] = { inc };
	/* dts_head's #include <dt-bindings/...>: a stand-in under fixtures */
	struct ea_import_opts o = { .freqs = freqs, .nfreqs_kv = 1,
				    .incdirs = dirs, .nincdirs = 1 };
	struct ea_import_opts I = { .incdirs = dirs, .nincdirs = 1 };
	char text[4096], want[600];
	struct ea_model *m;
	const char *p;

	snprintf(inc, sizeof(inc), "%s", fx("include"));

	/* macros (from cpp) in properties; one level; no idle data */
	snprintf(text, sizeof(text), "%s"
		 "\t\tC0: core-cost0 { busy-cost-data = <(256 * 2) 100 0x400 300>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("one-level.dts", text);
	m = import_ok(ea_import_dt, p, &I);
	assert_int_equal(m->nclusters, 1);
	assert_int_equal(m->clusters[0].caps[0].cap, 512);
	assert_int_equal(m->clusters[0].caps[1].cap, 1024);
	assert_int_equal(m->clusters[0].caps[0].freq_khz, 500000);
	assert_true(m->clusters[0].caps[1].core_power == 300);
	assert_true(m->clusters[0].caps[1].cluster_power == 0);
	assert_true(m->clusters[0].idle_implicit);
	ea_model_free(m);
	/* --freqs instead of the OPP table */
	m = import_ok(ea_import_dt, p, &o);
	assert_int_equal(m->clusters[0].caps[0].freq_khz, 400000);
	ea_model_free(m);

	/* freq-energy-model: <frequency power> pairs, capacities derived */
	snprintf(text, sizeof(text), "%s"
		 "\t\tC0: core-cost0 { freq-energy-model; busy-cost-data = <600000 10 1200000 40>;\n"
		 "\t\t\tidle-cost-data = <3 1>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("freq-model.dts", text);
	m = import_ok(ea_import_dt, p, &I);
	assert_int_equal(m->clusters[0].caps[0].freq_khz, 600000);
	assert_int_equal(m->clusters[0].caps[0].cap, 512);
	assert_int_equal(m->clusters[0].nidles, 2);
	assert_string_equal(m->clusters[0].idles[1].name, "idle1");
	ea_model_free(m);

	/* errors */
	snprintf(text, sizeof(text), "%s"
		 "\t\tC0: core-cost0 { busy-cost-data = <512 100 1024>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("odd.dts", text);
	snprintf(want, sizeof(want), "%s:11: /cpus/core-cost0: busy-cost-data: 3 cells, an odd number", p);
	import_fails(ea_import_dt, p, &I, want);

	snprintf(text, sizeof(text), "%s"
		 "\t\tC0: core-cost0 { busy-cost-data = <512 FOO_POWER 1024 3>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("macro.dts", text);
	/* an undefined macro is left as it is by cpp: dtc's syntax error */
	snprintf(want, sizeof(want), "dtc: Error: %s:11.", p);
	import_fails(ea_import_dt, p, &I, want);

	snprintf(text, sizeof(text), "%s"
		 "\t\tC1: core-cost0 { busy-cost-data = <512 1 1024 3>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("nolabel.dts", text);
	snprintf(want, sizeof(want), "dtc: %s:7.", p);	/* the property: lines 7-10 */
	import_fails(ea_import_dt, p, &I, want);
	import_fails(ea_import_dt, p, &I, "non-existent node or label \"C0\"");

	snprintf(text, sizeof(text), "%s"
		 "\t\tC0: core-cost0 { busy-cost-data = <512 1 1024 3 2048 4>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("noopp.dts", text);
	snprintf(want, sizeof(want), "%s:11: /cpus/core-cost0: busy-cost-data: the OPP table of cpu@0 has 2 frequencies for 3 busy-cost-data states: pass --freqs core-cost0=", p);
	import_fails(ea_import_dt, p, &I, want);

	snprintf(text, sizeof(text), "%s"
		 "\t\tC0: core-cost0 { busy-cost-data = <1024 1 512 3>; };\n"
		 "\t};\n};\n", dts_head);
	p = tmptext("descending.dts", text);
	snprintf(want, sizeof(want), "%s:11: /cpus/core-cost0: busy-cost-data[1]: cluster 'core-cost0': cap: capacities must be strictly ascending", p);
	import_fails(ea_import_dt, p, &I, want);

	snprintf(text, sizeof(text), "%s", dts_head);
	p = tmptext("truncated.dts", text);
	snprintf(want, sizeof(want), "dtc: Error: %s:", p);
	import_fails(ea_import_dt, p, &I, want);
	import_fails(ea_import_dt, p, &I, "syntax error");

	p = tmptext("nocosts.dts", "/dts-v1/;\n/ { cpus { cpu@0 { device_type = \"cpu\"; }; }; };\n");
	import_fails(ea_import_dt, p, &I, "no CPU node has a sched-energy-costs property");

	p = tmptext("nocpus.dts", "/dts-v1/;\n/ { };\n");
	import_fails(ea_import_dt, p, &I, "no /cpus node");

	p = tmptext("include.dts", "/dts-v1/;\n/include/ \"missing.dtsi\"\n");
	snprintf(want, sizeof(want), "%s:2: cannot include: ", p);
	import_fails(ea_import_dt, p, &I, want);

	p = tmptext("comment.dts", "/dts-v1/;\n/* never closed\n");
	snprintf(want, sizeof(want), "cpp: %s:2:1: error: unterminated comment", p);
	import_fails(ea_import_dt, p, &I, want);
}

/*
 * The fixture with #include <dt-bindings/...> and macros in busy-cost-data
 * (macro-costs.dts). Its header says CAP_MAX 1024 and COST(pct, power) =
 * <CAP_MAX * pct / 100, power>: core COST(50, 100) COST(100, 300) is caps
 * 512, 1024 with core_power 100, 300; cluster COST(50, 20) COST(100, 40)
 * gives cluster_power 20, 40; KHZ(500) KHZ(1000) are 500000, 1000000 kHz;
 * idle <IDLE_WFI IDLE_OFF> = <5 0> (core), <(IDLE_WFI * 2) IDLE_OFF> =
 * <10 0> (cluster).
 */
static void test_dt_macros(void **state)
{
	char inc[4200], want[4400];
	const char *dirs[] = { inc };
	struct ea_import_opts o = { .incdirs = dirs, .nincdirs = 1 };
	struct ea_model *m;
	const struct ea_cluster *c;

	snprintf(inc, sizeof(inc), "%s", fx("include"));
	m = import_ok(ea_import_dt, fx("macro-costs.dts"), &o);
	assert_int_equal(m->nclusters, 1);
	c = &m->clusters[0];
	expect_cpus(c, 2, 0, 1);
	assert_int_equal(c->ncaps, 2);
	assert_int_equal(c->caps[0].freq_khz, 500000);
	assert_int_equal(c->caps[1].freq_khz, 1000000);
	assert_int_equal(c->caps[0].cap, 512);
	assert_int_equal(c->caps[1].cap, 1024);
	assert_true(c->caps[0].core_power == 100 && c->caps[1].core_power == 300);
	assert_true(c->caps[0].cluster_power == 20 && c->caps[1].cluster_power == 40);
	assert_int_equal(c->nidles, 2);
	assert_true(c->idles[0].core_power == 5 && c->idles[0].cluster_power == 10);
	assert_true(c->idles[1].core_power == 0 && c->idles[1].cluster_power == 0);
	ea_model_free(m);
	/* without -I: cpp's error, with the file and line of the #include */
	snprintf(want, sizeof(want), "cpp: %s:10:", fx("macro-costs.dts"));
	import_fails(ea_import_dt, fx("macro-costs.dts"), NULL, want);
	import_fails(ea_import_dt, fx("macro-costs.dts"), NULL,
		     "no include path in which to search for dt-bindings/eatrace/energy-costs.h");
}

static void test_dtb_corrupt(void **state)
{
	size_t len;
	char *dtb = slurp(fx("juno-sched-energy.dtb"), &len);
	const char *p;
	struct ea_model *m;
	struct ea_err err;

	/* truncated: errors, never crashes */
	p = tmpfile_with("short.dtb", dtb, 20);
	import_fails(ea_import_dt, p, NULL, "truncated dtb header");
	p = tmpfile_with("short2.dtb", dtb, len / 2);
	import_fails(ea_import_dt, p, NULL, "truncated dtb");
	/* every byte of the structure block flipped in turn */
	for (size_t i = 40; i < len; i += 3) {
		char saved = dtb[i];

		dtb[i] ^= 0x5a;
		p = tmpfile_with("flip.dtb", dtb, len);
		m = NULL;
		if (!ea_import_dt(&m, p, NULL, &err))
			ea_model_free(m);
		else
			assert_null(strchr(err.msg, '\n'));
		dtb[i] = saved;
	}
	free(dtb);
}

/* ---- power_profile.xml ---- */

static void test_power_profile(void **state)
{
	static const uint32_t c0_khz[] = { 300000, 576000, 748800, 998400, 1209600,
					   1324800, 1516800, 1612800, 1708800 };
	static const double c0_ma[] = { 2.09, 4.24, 5.87, 8.36, 11.43, 13.09,
					16.77, 18.63, 21.37 };
	const struct ea_cluster *c0, *c1;
	struct ea_model *m;

	m = import_ok(ea_import_power_profile, fx("power_profile.xml"), NULL);
	assert_string_equal(m->power_unit, "mA");
	c0 = cluster(m, "cluster0");
	c1 = cluster(m, "cluster1");
	expect_cpus(c0, 4, 0, 1, 2, 3);
	expect_cpus(c1, 4, 4, 5, 6, 7);
	assert_int_equal(c0->ncaps, 9);
	for (int k = 0; k < 9; k++) {
		assert_int_equal(c0->caps[k].freq_khz, c0_khz[k]);
		assert_true(c0->caps[k].core_power == c0_ma[k]);
		assert_true(c0->caps[k].cluster_power == 2.41);
		assert_int_equal(c0->caps[k].cap,
				 (uint32_t)(1024.0 * c0_khz[k] / 2457600 + 0.5));
	}
	assert_int_equal(c1->ncaps, 8);
	assert_int_equal(c1->caps[7].freq_khz, 2457600);
	assert_int_equal(c1->caps[7].cap, 1024);
	assert_true(c1->caps[7].core_power == 229.48);
	assert_true(c1->caps[0].cluster_power == 5.72);
	assert_true(c0->idle_implicit);
	assert_non_null(strstr(m->source, "cpu.active = 17.3 mA"));
	assert_non_null(strstr(m->source, "cpu.suspend = 4.02 mA"));
	ea_model_free(m);
}

static void test_power_profile_policy(void **state)
{
	struct ea_import_opts o = { .voltage = 3.8 };
	const struct ea_cluster *p0, *p4, *p7;
	struct ea_model *m;

	m = import_ok(ea_import_power_profile, fx("power_profile-policy.xml"), &o);
	assert_string_equal(m->power_unit, "mW");
	p0 = cluster(m, "policy0");
	p4 = cluster(m, "policy4");
	p7 = cluster(m, "policy7");
	expect_cpus(p0, 4, 0, 1, 2, 3);
	expect_cpus(p4, 3, 4, 5, 6);
	expect_cpus(p7, 1, 7);
	assert_int_equal(p0->caps[0].freq_khz, 500000);
	assert_true(p0->caps[0].core_power == 13.3);	/* 3.5 mA x 3.8 V */
	assert_true(p0->caps[0].cluster_power == 5.7);
	assert_int_equal(p7->caps[2].cap, 1024);
	assert_int_equal(p4->caps[2].cap, 887);
	ea_model_free(m);
}

static void test_power_profile_errors(void **state)
{
	char want[600], text[2048];
	const char *p;

	p = tmptext("len.xml", "<?xml version=\"1.0\"?>\n<device name=\"Android\">\n"
		    "<array name=\"cpu.core_speeds.cluster0\"><value>1000</value><value>2000</value></array>\n"
		    "<array name=\"cpu.core_power.cluster0\">\n<value>1</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:4: cpu.core_power.cluster0 has 1 values, cpu.core_speeds.cluster0 has 2", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("nan.xml", "<device>\n<array name=\"cpu.clusters.cores\"><value>2</value></array>\n"
		    "<array name=\"cpu.core_speeds.cluster0\"><value>1000</value></array>\n"
		    "<array name=\"cpu.core_power.cluster0\">\n<value>1</value>\n<value>x</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:4: cpu.core_power.cluster0 has 2 values", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("nan2.xml", "<device>\n<array name=\"cpu.clusters.cores\"><value>2</value></array>\n"
		    "<array name=\"cpu.core_speeds.cluster0\"><value>1000</value></array>\n"
		    "<array name=\"cpu.core_power.cluster0\">\n<value>nan</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:5: cpu.core_power.cluster0[0]: 'nan' is not a number", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("empty.xml", "<device>\n<array name=\"cpu.core_speeds.cluster0\"></array>\n"
		    "<array name=\"cpu.core_power.cluster0\"/>\n</device>\n");
	snprintf(want, sizeof(want), "%s:2: cpu.core_speeds.cluster0 is empty", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("huge.xml", "<device>\n<array name=\"cpu.clusters.cores\"><value>1</value></array>\n"
		    "<array name=\"cpu.core_speeds.cluster0\"><value>1e300</value></array>\n"
		    "<array name=\"cpu.core_power.cluster0\"><value>1</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:3: cpu.core_speeds.cluster0[0]: 1e300 kHz is out of range", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("nocores.xml", "<device>\n"
		    "<array name=\"cpu.core_speeds.cluster0\"><value>1000</value></array>\n"
		    "<array name=\"cpu.core_power.cluster0\"><value>1</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:2: cluster 'cluster0': which CPUs it has is not known", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("nopower.xml", "<device>\n"
		    "<array name=\"cpu.core_speeds.cluster0\"><value>1000</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:2: cpu.core_speeds.cluster0 has no matching <array name=\"cpu.core_power.cluster0\">", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("policy-nofreq.xml", "<device>\n<array name=\"cpu.clusters.cores\"><value>2</value></array>\n"
		    "<array name=\"cpu.scaling_step_power.policy0\"><value>1</value><value>2</value></array>\n</device>\n");
	snprintf(want, sizeof(want), "%s:3: cluster 'policy0': the frequency of cap state 0 is not known: pass --freqs policy0=", p);
	import_fails(ea_import_power_profile, p, NULL, want);

	p = tmptext("root.xml", "<?xml version=\"1.0\"?>\n<resources>\n</resources>\n");
	import_fails(ea_import_power_profile, p, NULL, "the root element is <resources>, not <device>");
	p = tmptext("nocpu.xml", "<device><item name=\"screen.on\">1</item></device>\n");
	import_fails(ea_import_power_profile, p, NULL, "no CPU tables");
	p = tmptext("unterminated.xml", "<device>\n<item name=\"cpu.active\">1\n");
	import_fails(ea_import_power_profile, p, NULL, "unterminated <item>");
	p = tmptext("comment.xml", "<device>\n<!-- never closed\n");
	snprintf(want, sizeof(want), "%s:2: unterminated comment", p);
	import_fails(ea_import_power_profile, p, NULL, want);
	snprintf(text, sizeof(text), "<device>\n<item name=\"cpu.active\">1</array>\n</device>\n");
	p = tmptext("mismatch.xml", text);
	import_fails(ea_import_power_profile, p, NULL, "expected </item>");

	/* old single-cluster form */
	{
		struct ea_model *m;

		p = tmptext("old.xml", "<device>\n<item name=\"cpu.clusters.cores\">2</item>\n"
			    "<array name=\"cpu.speeds\"><value>500000</value><value>1000000</value></array>\n"
			    "<array name=\"cpu.active\"><value>10</value><value>30</value></array>\n"
			    "</device>\n");
		m = import_ok(ea_import_power_profile, p, NULL);
		expect_cpus(&m->clusters[0], 2, 0, 1);
		assert_true(m->clusters[0].caps[1].core_power == 30);
		assert_int_equal(m->clusters[0].caps[0].cap, 512);
		ea_model_free(m);
	}
}

/* ---- detection, truncation ---- */

static void test_detect(void **state)
{
	static const struct { const char *file, *fmt; } cases[] = {
		{ "idlestat-model", "idlestat" },
		{ "debugfs-ps", "debugfs" },
		{ "debugfs-cs/pd1", "debugfs" },
		{ "juno-sched-energy.dts", "dt" },
		{ "juno-sched-energy.dtb", "dt" },
		{ "power_profile.xml", "power-profile" },
		{ "power_profile-policy.xml", "power-profile" },
		{ "wattson/toy", "wattson" },
		{ "wattson/toy/cpu_1d.csv", "wattson" },
		{ "wattson/toy/cpu_2d.csv", "wattson" },
	};
	const struct ea_importer *im;
	struct ea_err err;
	char path[4200];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		im = ea_importer_detect(fx(cases[i].file), &err);
		if (!im)
			fail_msg("%s: %s", cases[i].file, err.msg);
		assert_string_equal(im->name, cases[i].fmt);
	}
	snprintf(path, sizeof(path), "%s/models/tc2.json", root);
	im = ea_importer_detect(path, &err);
	assert_non_null(im);
	assert_string_equal(im->name, "json");
	if (have_shared()) {
		im = ea_importer_detect(sh("energy_model_TC2"), &err);
		assert_non_null(im);
		assert_string_equal(im->name, "idlestat");
	}
	assert_null(ea_importer_detect("/nonexistent/x", &err));
	assert_non_null(strstr(err.msg, "No such file"));
	assert_null(ea_importer_detect(tmptext("what", "hello\n"), &err));
	assert_non_null(strstr(err.msg, "cannot tell its format"));
	assert_non_null(ea_importer_find("power_profile"));
	assert_non_null(ea_importer_find("dtb"));
	assert_null(ea_importer_find("csv"));
}

/* Every prefix of each text fixture: an error or a model, never a crash. */
static void test_truncations(void **state)
{
	static const struct { const char *file; ea_import_fn fn; } cases[] = {
		{ "idlestat-model", ea_import_idlestat },
		{ "juno-sched-energy.dts", ea_import_dt },
		{ "power_profile.xml", ea_import_power_profile },
		{ "power_profile-policy.xml", ea_import_power_profile },
	};
	struct ea_import_opts o = { .ncpus = "2,2" };
	char cmd[9000];

	/* the dts fixture includes juno-opp.dtsi relative to itself */
	snprintf(cmd, sizeof(cmd), "cp %s %s/", fx("juno-opp.dtsi"), tmpdir);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *text = slurp(fx(cases[i].file), &len);
		char name[64];

		/* a dts prefix is three program runs (cpp, dtc twice): 8 of them */
		size_t step = cases[i].fn == ea_import_dt ? len / 8 + 1 : 5;

		snprintf(name, sizeof(name), "cut-%zu", i);
		for (size_t n = 0; n < len; n += step) {
			const char *p = tmpfile_with(name, text, n);
			struct ea_model *m = NULL;
			struct ea_err err;

			if (!cases[i].fn(&m, p, i == 0 ? &o : NULL, &err))
				ea_model_free(m);
			else
				assert_null(strchr(err.msg, '\n'));
		}
		free(text);
	}
}

static int setup(void **state)
{
	const char *env = getenv("EATRACE_ROOT");
	const char *file = __FILE__;
	const char *suffix = "tests/unit/test-import.c";
	size_t n = strlen(file), s = strlen(suffix);

	if (env) {
		snprintf(root, sizeof(root), "%s", env);
	} else if (n >= s && !strcmp(file + n - s, suffix)) {
		if (n == s)
			snprintf(root, sizeof(root), ".");
		else
			snprintf(root, sizeof(root), "%.*s", (int)(n - s - 1), file);
	} else {
		snprintf(root, sizeof(root), ".");
	}
	env = getenv("SHARED");
	if (env)
		snprintf(shared, sizeof(shared), "%s", env);
	else
		snprintf(shared, sizeof(shared), "%s/../shared/traces", root);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/eatrace-test-import.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idlestat_tc2),
		cmocka_unit_test(test_idlestat_fixture),
		cmocka_unit_test(test_idlestat_errors),
		cmocka_unit_test(test_debugfs_ps),
		cmocka_unit_test(test_debugfs_cs),
		cmocka_unit_test(test_debugfs_errors),
		cmocka_unit_test(test_dt),
		cmocka_unit_test(test_dt_variants),
		cmocka_unit_test(test_dt_macros),
		cmocka_unit_test(test_dtb_corrupt),
		cmocka_unit_test(test_power_profile),
		cmocka_unit_test(test_power_profile_policy),
		cmocka_unit_test(test_power_profile_errors),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_truncations),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

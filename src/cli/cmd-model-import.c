// SPDX-License-Identifier: GPL-2.0-only
/*
 * eatrace model import / convert: turn idlestat model files, kernel
 * debugfs energy_model trees, sched-energy-costs device trees, Android
 * power_profile.xml files, LISA plat_info.yml and Perfetto Wattson curves
 * (and native models, for
 * convert) into the native JSON model format. The importers live in src/model/import-*.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "eatrace/model.h"
#include "eatrace/output.h"
#include "model/import.h"

static const char usage_import[] =
	"usage: eatrace model import [--from FORMAT] SRC [-o OUT.json] [OPTIONS]\n"
	"       eatrace model import --from idlestat SRC --trace TRACE|--ncpus N,N,...|--cpus C=LIST...\n"
	"                            [-o OUT.json] [OPTIONS]\n"
	"       eatrace model convert [--from FORMAT] IN [-o OUT.json] [OPTIONS]\n"
	"\n"
	"Read an energy model in another format and write it as a native eatrace\n"
	"model (JSON, docs/model-format.md). 'convert' also reads native models\n"
	"(a file, or a bundled model's name such as tc2) and rewrites them in the\n"
	"normal layout. The format is detected from the content unless --from\n"
	"says. What the source did not say and had to be assumed is written to\n"
	"the model's \"source\" member; read it.\n"
	"\n"
	"formats:\n"
	"  idlestat       idlestat energy-model file (energy_model_TC2):\n"
	"                 'clusters N', 'clusterA: N cap states M C states',\n"
	"                 'P-states:' rows 'MHz cluster_power core_power',\n"
	"                 'C-states:' rows 'name cluster_power core_power',\n"
	"                 'wakeup CLUSTER CORE'. Clusters are named clusterA, ...\n"
	"                 Wakeups are in the 2014 RFC's scaled units and become\n"
	"                 energy per wakeup, w x 47742 / (1024 x 1000), given to\n"
	"                 every idle state of the cluster. A file without a WFI\n"
	"                 C-state gets one first (cpuidle index 0 on ARM), with\n"
	"                 the numbers of its shallowest state. power_unit bogo,\n"
	"                 target residencies 0. The file has no CPUs: give\n"
	"                 --trace, --ncpus or --cpus. It has no capacities: see\n"
	"                 CAPACITIES (the RFC's real TC2 capacities, A15 840-2015\n"
	"                 and A7 358-1024, differ: edit the file or use\n"
	"                 --capacity).\n"
	"  debugfs        a copy of /sys/kernel/debug/energy_model (cp -r or adb\n"
	"                 pull), or one domain's directory: pdN/ or cpuN/ with a\n"
	"                 cpus file and cs:FREQ/ (5.0-5.8) or ps:FREQ/ (5.9 on)\n"
	"                 directories of frequency, power[, cost, inefficient,\n"
	"                 performance]. One cluster per CPU performance domain,\n"
	"                 core_power = power, cluster_power 0, no idle states.\n"
	"                 Capacities from the performance files (6.9 on), else see\n"
	"                 CAPACITIES. power_unit uW when flags has\n"
	"                 EM_PERF_DOMAIN_MICROWATTS, bogo when flags says an\n"
	"                 abstract scale, mW without flags files (before 5.16).\n"
	"                 Domains without a cpus file (GPUs) are skipped.\n"
	"  dt             the Android sched-energy-costs device-tree binding, as\n"
	"                 dts text or a dtb: per CPU node in /cpus (logical ids in\n"
	"                 node order), sched-energy-costs = <&CORE_COST\n"
	"                 &CLUSTER_COST>; cost nodes hold busy-cost-data =\n"
	"                 <capacity power ...> and idle-cost-data = <power ...>.\n"
	"                 CPUs sharing a cluster cost node form a cluster (one\n"
	"                 frequency domain). Frequencies from the CPU's\n"
	"                 operating-points or operating-points-v2 table (same\n"
	"                 count as busy-cost-data) or --freqs. Idle states named\n"
	"                 from cpu-idle-states (WFI first when the costs have one\n"
	"                 more entry), target residency from min-residency-us.\n"
	"                 power_unit bogo. dts text goes through cpp and dtc, as\n"
	"                 in a kernel build (both must be installed: Debian cpp\n"
	"                 and device-tree-compiler; -I for #include <...>), then\n"
	"                 the blob is read with libfdt. They may read only\n"
	"                 regular files in the source's directory tree and the\n"
	"                 -I directories (any other #include, /include/ or\n"
	"                 /incbin/ is refused), with 10 s and 256 MiB each.\n"
	"  power-profile  Android power_profile.xml: cpu.clusters.cores,\n"
	"                 cpu.core_speeds.clusterN (kHz), cpu.core_power.clusterN\n"
	"                 and cpu.cluster_power.clusterN (mA); or the policy form\n"
	"                 cpu.scaling_step_power.policyN, cpu.scaling_policy_power.\n"
	"                 policyN with cpu.scaling_frequency.policyN or --freqs; or\n"
	"                 the old cpu.speeds[.clusterN] / cpu.active[.clusterN].\n"
	"                 power_unit mA (--voltage V gives mW). cpu.active,\n"
	"                 cpu.idle and cpu.suspend are device-level and left out.\n"
	"                 No idle states. Capacities: see CAPACITIES. Read with\n"
	"                 libxml2: well-formed XML only, no DOCTYPE.\n"
	"  lisa           LISA plat_info.yml (read with libyaml): the nrg-model of\n"
	"                 platform-info: conf:, one cluster per freq_domains entry\n"
	"                 (else conf freq-domains), its CPUs' cpu_nodes giving\n"
	"                 active_states FREQ: [capacity, power] (capacity rounded)\n"
	"                 and idle_states NAME: power; the legacy cluster/core form\n"
	"                 adds the parent cluster node's powers as cluster_power\n"
	"                 (power_unit bogo), else cluster_power 0 and mW (the\n"
	"                 kernel EM as LISA read it). Target residencies 0.\n"
	"  wattson        Perfetto's Wattson CPU curves: a directory holding\n"
	"                 cpu_1d.csv (device,policy,freq_khz,static,active,idle0,\n"
	"                 idle1) and/or cpu_2d.csv (with dep_policy,dep_freq), or\n"
	"                 one of them (the other is read too when beside it), and\n"
	"                 Wattson's device_infos.sql (beside them, in sql/, ../sql/\n"
	"                 or .., or --device-infos) for CPU numbering, deep-idle\n"
	"                 exit offsets and the cpuidle state map. One cluster per\n"
	"                 policy: core_power = active, cluster_power = static,\n"
	"                 idle states idle0/idle1 (at the median OPP: the model has\n"
	"                 one idle power per state), cpuidle state 1's wakeup =\n"
	"                 offset x power. Policies only in cpu_2d.csv are reduced\n"
	"                 to Wattson's default vote (lowest dependency frequency)\n"
	"                 or to --dep-freq.\n"
	"                 power_unit mW. The source text lists what the model\n"
	"                 cannot express (docs/model-format.md).\n"
	"  json           (convert only) a native eatrace model\n"
	"\n"
	"CAPACITIES: a source without capacities gets cap = round(1024 x freq /\n"
	"  Fmax), Fmax being the fastest OPP of all clusters, so the fastest OPP\n"
	"  is 1024. That ignores that a big core does more per MHz than a little\n"
	"  one: give each cluster's real capacity at its top OPP with --capacity\n"
	"  (e.g. from /sys/devices/system/cpu/cpuN/cpu_capacity). Capacities\n"
	"  that would round to the same value are raised by one.\n"
	"\n"
	"options:\n"
	"      --from FORMAT      idlestat, debugfs, dt, power-profile, lisa, wattson\n"
	"                         (or json)\n"
	"  -o, --output FILE      write there, atomically (default stdout)\n"
	"      --name NAME        the model's name\n"
	"      --trace TRACE      CPUs of each cluster from the idlestat topology\n"
	"                         header of a text trace ('# clusterA:' '#  core0'\n"
	"                         '#   cpu1' lines); clusters matched by name\n"
	"      --ncpus N,N,...    CPUs per cluster, numbered in cluster order\n"
	"                         (--ncpus 2,3: first cluster 0-1, second 2-4)\n"
	"      --cpus C=LIST      CPUs of cluster C (e.g. --cpus A=1,2 --cpus\n"
	"                         B=0,3-4); C is a cluster's name, its name\n"
	"                         without 'cluster', or its index; repeatable\n"
	"      --capacity C=CAP   capacity of cluster C at its top OPP, lower ones\n"
	"                         scaled by frequency; repeatable\n"
	"      --freqs C=F,F,...  frequencies (kHz) of cluster C's states,\n"
	"                         ascending; repeatable\n"
	"      --voltage V        convert mA to mW (power-profile)\n"
	"  -I, --include DIR      dts include path for cpp and dtc (dt), and a\n"
	"                         directory they may read; repeatable\n"
	"      --power-unit U     relabel the power unit (no conversion)\n"
	"      --device NAME      wattson: the CSV's device (needed when the files\n"
	"                         hold several; '_' matches ' ', case ignored)\n"
	"      --device-infos F   wattson: Wattson's device_infos.sql\n"
	"      --dep-freq P=[D:]F wattson: reduce 2-D policy P at dependency policy D\n"
	"                         (255: the DSU) frequency F instead of Wattson's\n"
	"                         default vote (its lowest dep_freq); repeatable\n"
	"  -q, --quiet            no note about the model's check findings\n"
	"  -v, --verbose          list the findings\n"
	"  -h, --help             this text\n"
	"\n"
	"After writing, a note on stderr counts the findings of 'eatrace model\n"
	"check' on the new model (inefficient OPPs, power falling with\n"
	"frequency, ...); -v lists them.\n"
	"\n"
	"Exit status: 0 ok, 2 usage or input error (one line on stderr naming\n"
	"the file and line, or directory entry, and the cause).\n";

enum {
	OPT_FROM = 1000, OPT_NAME, OPT_TRACE, OPT_NCPUS, OPT_CPUS, OPT_CAPACITY,
	OPT_FREQS, OPT_VOLTAGE, OPT_POWER_UNIT, OPT_DEVICE, OPT_DEVICE_INFOS,
	OPT_DEP_FREQ,
};

static const struct option long_opts[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "output", required_argument, NULL, 'o' },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "ncpus", required_argument, NULL, OPT_NCPUS },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "freqs", required_argument, NULL, OPT_FREQS },
	{ "voltage", required_argument, NULL, OPT_VOLTAGE },
	{ "power-unit", required_argument, NULL, OPT_POWER_UNIT },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "device-infos", required_argument, NULL, OPT_DEVICE_INFOS },
	{ "dep-freq", required_argument, NULL, OPT_DEP_FREQ },
	{ "include", required_argument, NULL, 'I' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int add_kv(struct ea_import_kv **v, int *n, const char *opt, char *arg)
{
	struct ea_import_kv *nv;
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return ea_die("--%s: '%s' is not CLUSTER=VALUE", opt, arg);
	nv = realloc(*v, (size_t)(*n + 1) * sizeof(*nv));
	if (!nv)
		return ea_die("out of memory");
	*v = nv;
	*eq = '\0';
	nv[*n].key = arg;
	nv[*n].val = eq + 1;
	(*n)++;
	return 0;
}

struct findings {
	const char *who;
	bool verbose;
	int errors, warnings;
};

static void count_finding(void *ctx, enum ea_severity sev, const char *msg)
{
	struct findings *f = ctx;

	if (sev == EA_SEV_ERROR)
		f->errors++;
	else
		f->warnings++;
	if (f->verbose)
		ea_msg("%s: %s: %s", f->who,
			sev == EA_SEV_ERROR ? "error" : "warning", msg);
}

/* Serialise, read back, and insist on the same model before writing. */
static int write_checked(const struct ea_model *m, const char *output)
{
	struct ea_model *back = NULL;
	struct ea_out out;
	struct ea_err err;
	char *buf = NULL, why[200];
	size_t len = 0;
	FILE *mem;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return ea_die("out of memory");
	if (ea_model_write_json(m, mem) || fclose(mem)) {
		free(buf);
		return ea_die("out of memory");
	}
	if (ea_model_load_buffer(&back, buf, len, output ? output : "<output>",
				 &err)) {
		free(buf);
		return ea_die("internal error: the written model does not load back: %s",
			      err.msg);
	}
	if (!ea_model_equal(m, back, why, sizeof(why))) {
		ea_model_free(back);
		free(buf);
		return ea_die("internal error: the written model loads back different (%s)",
			      why);
	}
	ea_model_free(back);
	if (ea_out_open(&out, output, &err)) {
		free(buf);
		return ea_die("%s", err.msg);
	}
	if (fwrite(buf, 1, len, out.f) != len) {
		ea_out_abort(&out);
		free(buf);
		return ea_die("%s: write error", output ? output : "stdout");
	}
	free(buf);
	if (ea_out_commit(&out, &err))
		return ea_die("%s", err.msg);
	return 0;
}

static int run(int argc, char **argv, bool convert)
{
	const char *cmd = convert ? "model convert" : "model import";
	const struct ea_importer *im = NULL;
	struct ea_import_opts o = { 0 };
	struct ea_model *m = NULL;
	const char *output = NULL, *from = NULL;
	struct ea_err err;
	int c, rc = EXIT_ERROR, verbose = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:I:qvh", long_opts, NULL)) != -1) {
		char *e;

		switch (c) {
		case OPT_FROM:
			from = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_NAME:
			o.name = optarg;
			break;
		case OPT_TRACE:
			o.trace = optarg;
			break;
		case OPT_NCPUS:
			o.ncpus = optarg;
			break;
		case OPT_CPUS:
			if (add_kv(&o.cpus, &o.ncpus_kv, "cpus", optarg))
				goto out;
			break;
		case OPT_CAPACITY:
			if (add_kv(&o.caps, &o.ncaps_kv, "capacity", optarg))
				goto out;
			break;
		case OPT_FREQS:
			if (add_kv(&o.freqs, &o.nfreqs_kv, "freqs", optarg))
				goto out;
			break;
		case OPT_VOLTAGE:
			o.voltage = strtod(optarg, &e);
			if (*e || e == optarg || !(o.voltage > 0 && o.voltage <= 1000)) {
				ea_die("--voltage: '%s' is not a voltage (volts, e.g. 3.8)",
				       optarg);
				goto out;
			}
			break;
		case OPT_POWER_UNIT:
			o.power_unit = optarg;
			break;
		case OPT_DEVICE:
			o.device = optarg;
			break;
		case OPT_DEVICE_INFOS:
			o.device_infos = optarg;
			break;
		case OPT_DEP_FREQ:
			if (add_kv(&o.dep_freqs, &o.ndep_freqs_kv, "dep-freq", optarg))
				goto out;
			break;
		case 'I': {
			const char **ni = realloc(o.incdirs, (size_t)(o.nincdirs + 1) * sizeof(*ni));

			if (!ni) {
				ea_die("out of memory");
				goto out;
			}
			o.incdirs = ni;
			o.incdirs[o.nincdirs++] = optarg;
			break;
		}
		case 'q':
			verbose = -1;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			fputs(usage_import, stdout);
			rc = 0;
			goto out;
		default:
			if (optopt && optopt < 256)
				ea_die("%s: unknown option '-%c' (see --help)", cmd, optopt);
			else
				ea_die("%s: unknown or incomplete option '%s' (see --help)",
				       cmd, argv[optind - 1]);
			goto out;
		}
	}
	if (argc - optind != 1) {
		ea_die("%s: expected one %s (see 'eatrace %s --help')", cmd,
		       convert ? "IN" : "SRC", cmd);
		goto out;
	}
	if (from) {
		im = ea_importer_find(from);
		if (!im) {
			ea_die("--from: '%s' is not idlestat, debugfs, dt, power-profile, lisa, wattson%s",
			       from, convert ? " or json" : "");
			goto out;
		}
	} else {
		im = ea_importer_detect(argv[optind], &err);
		if (!im) {
			ea_die("%s", err.msg);
			goto out;
		}
	}
	if ((o.device || o.device_infos || o.ndep_freqs_kv) && strcmp(im->name, "wattson")) {
		ea_die("%s: --device, --device-infos and --dep-freq are for --from wattson only",
		       cmd);
		goto out;
	}
	if (!convert && !strcmp(im->name, "json")) {
		ea_die("%s: already a native eatrace model: use 'eatrace model convert'",
		       argv[optind]);
		goto out;
	}
	if (im->import(&m, argv[optind], &o, &err)) {
		ea_die("%s", err.msg);
		goto out;
	}
	rc = write_checked(m, output);
	if (!rc && verbose >= 0) {
		struct findings f = { output && strcmp(output, "-") ? output : argv[optind],
				      verbose > 0, 0, 0 };

		ea_model_check_cb(m, count_finding, &f);
		if ((f.errors || f.warnings) && !verbose)
			ea_msg("%s: note: 'eatrace model check' finds %d error%s and %d warning%s in the imported model (-v lists them)",
				f.who, f.errors, f.errors == 1 ? "" : "s",
				f.warnings, f.warnings == 1 ? "" : "s");
	}
out:
	ea_model_free(m);
	free(o.cpus);
	free(o.caps);
	free(o.freqs);
	free(o.dep_freqs);
	free(o.incdirs);
	return rc;
}

int cmd_model_import(int argc, char **argv)
{
	return run(argc, argv, false);
}

int cmd_model_convert(int argc, char **argv)
{
	return run(argc, argv, true);
}

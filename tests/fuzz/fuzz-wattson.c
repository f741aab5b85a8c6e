// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the Wattson curve importer (ea_import_wattson). The importer
 * reads a directory (DEV/cpu_1d.csv, DEV/cpu_2d.csv and sql/device_infos.sql
 * beside it), so the target builds a small valid one once; the first input
 * byte picks one of the three files (mod 3) and the rest of the input
 * becomes that file's content; bit 2 of the byte adds --device toy. The
 * tree lives in a fresh directory under $TMPDIR (else /tmp) per input,
 * removed after it (fuzz.h). Corpus:
 * tests/fuzz/corpus/wattson/.
 */
#include <errno.h>
#include <sys/stat.h>

#include "eatrace/model.h"
#include "model/import.h"
#include "fuzz.h"

static char root[PATH_MAX];

static const struct {
	const char *path, *content;
} tree[] = {
	{ "toy/cpu_1d.csv",
	  "device,policy,freq_khz,static,active,idle0,idle1\n"
	  "toy,2,500000,2,100,10,0\n"
	  "toy,2,1000000,4,250,20,0\n" },
	{ "toy/cpu_2d.csv",
	  "device,policy,freq_khz,dep_policy,dep_freq,static,active,idle0,idle1,interconnect\n"
	  "toy,0,300000,2,500000,1,30,3,0,0\n"
	  "toy,0,600000,2,1000000,3,70,6,0,0\n" },
	{ "sql/device_infos.sql",
	  "CREATE PERFETTO TABLE _device_cpu_deep_idle_offsets AS\n"
	  "WITH data(device, cpu, offset_ns) AS (SELECT * FROM (VALUES\n"
	  "  (\"toy\", 0, 0), (\"toy\", 1, 0), (\"toy\", 2, 100000)) AS _values)\n"
	  "SELECT * FROM data;\n"
	  "CREATE PERFETTO TABLE _cpu_to_policy_map AS\n"
	  "WITH data(device, cpu, policy) AS (SELECT * FROM (VALUES\n"
	  "  (\"toy\", 0, 0), (\"toy\", 1, 0), (\"toy\", 2, 2)) AS _values)\n"
	  "SELECT * FROM data;\n"
	  "-- idle state map\n"
	  "CREATE PERFETTO TABLE _idle_state_map AS\n"
	  "WITH data(device, nominal_idle, override_idle) AS (SELECT * FROM (VALUES\n"
	  "  (\"toy\", 4294967295, -1), (\"toy\", 0, 0), (\"toy\", 1, 1), (\"toy\", 2, 1)) AS _values)\n"
	  "SELECT * FROM data;\n" },
};
#define NFILES (sizeof(tree) / sizeof(tree[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ea_import_opts opts = { 0 };
	struct ea_model *m = NULL;
	struct ea_err err;
	char dir[PATH_MAX + 8];
	int rc;

	if (size == 0)
		return 0;
	fuzz_tree_make(root, sizeof(root), "wattson");
	for (size_t i = 0; i < NFILES; i++)
		fuzz_tree_put(root, tree[i].path, tree[i].content, strlen(tree[i].content));
	fuzz_tree_put(root, tree[data[0] % NFILES].path, data + 1, size - 1);
	if (data[0] & 4)
		opts.device = "toy";
	snprintf(dir, sizeof(dir), "%s/toy", root);
	rc = ea_import_wattson(&m, dir, &opts, &err);
	fuzz_tree_remove(root);
	if (rc) {
		if (strchr(err.msg, '\n'))
			abort();
		return 0;
	}
	ea_model_check(m, fuzz_devnull());
	ea_model_write_json(m, fuzz_devnull());
	ea_model_free(m);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the debugfs energy_model importer (ea_import_debugfs). The
 * importer reads a directory tree, so the target builds a fixed two-domain
 * tree once (5.16+ layout: cpuN/{cpus,flags}, ps:FREQ/{frequency,power,
 * cost,performance,inefficient}); the first input byte picks one of its
 * files and the rest of the input becomes that file's content. The tree
 * lives in a fresh directory under $TMPDIR (else /tmp) per input, removed
 * after it. Corpus: tests/fuzz/corpus/debugfs/.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "eatrace/model.h"
#include "model/import.h"
#include "fuzz.h"

static char root[PATH_MAX];

static const struct {
	const char *path, *content;
} tree[] = {
	{ "cpu0/cpus", "0-1\n" },
	{ "cpu0/flags", "0x1\n" },
	{ "cpu0/ps:500000/frequency", "500000\n" },
	{ "cpu0/ps:500000/power", "50000\n" },
	{ "cpu0/ps:500000/cost", "100000\n" },
	{ "cpu0/ps:500000/performance", "200\n" },
	{ "cpu0/ps:500000/inefficient", "0\n" },
	{ "cpu0/ps:1000000/frequency", "1000000\n" },
	{ "cpu0/ps:1000000/power", "110000\n" },
	{ "cpu0/ps:1000000/cost", "110000\n" },
	{ "cpu0/ps:1000000/performance", "400\n" },
	{ "cpu0/ps:1000000/inefficient", "0\n" },
	{ "cpu2/cpus", "2\n" },
	{ "cpu2/flags", "0x1\n" },
	{ "cpu2/ps:800000/frequency", "800000\n" },
	{ "cpu2/ps:800000/power", "400000\n" },
	{ "cpu2/ps:800000/cost", "400000\n" },
	{ "cpu2/ps:800000/performance", "1024\n" },
	{ "cpu2/ps:800000/inefficient", "0\n" },
};
#define NFILES (sizeof(tree) / sizeof(tree[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ea_import_opts opts = { 0 };
	struct ea_model *m = NULL;
	struct ea_err err;
	size_t which;

	if (size == 0)
		return 0;
	fuzz_tree_make(root, sizeof(root), "debugfs");
	for (size_t i = 0; i < NFILES; i++)
		fuzz_tree_put(root, tree[i].path, tree[i].content, strlen(tree[i].content));
	which = data[0] % NFILES;
	fuzz_tree_put(root, tree[which].path, data + 1, size - 1);
	if (ea_import_debugfs(&m, root, &opts, &err)) {
		fuzz_tree_remove(root);
		if (strchr(err.msg, '\n'))
			abort();
		return 0;
	}
	fuzz_tree_remove(root);
	ea_model_check(m, fuzz_devnull());
	ea_model_write_json(m, fuzz_devnull());
	ea_model_free(m);
	return 0;
}

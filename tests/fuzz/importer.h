/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The body shared by the file-based importer fuzz targets (dt, idlestat, lisa,
 * power-profile): the importer on a file holding the input bytes, first
 * with no options, then, when that fails, with --ncpus 2,3 and with
 * --ncpus 4 (sources often do not say which CPUs a cluster has). A model it
 * accepts is also checked and written. Every error must be one line.
 */
#ifndef EATRACE_FUZZ_IMPORTER_H
#define EATRACE_FUZZ_IMPORTER_H

#include "eatrace/model.h"
#include "model/import.h"
#include "fuzz.h"

static inline int fuzz_importer(ea_import_fn import, const uint8_t *data,
				size_t size)
{
	static const char *const ncpus[] = { NULL, "2,3", "4" };
	const char *path = fuzz_memfile(data, size);

	for (size_t i = 0; i < sizeof(ncpus) / sizeof(ncpus[0]); i++) {
		struct ea_import_opts opts = { .ncpus = ncpus[i] };
		struct ea_model *m = NULL;
		struct ea_err err;

		if (import(&m, path, &opts, &err)) {
			if (strchr(err.msg, '\n'))
				abort();
			continue;
		}
		ea_model_check(m, fuzz_devnull());
		ea_model_write_json(m, fuzz_devnull());
		ea_model_free(m);
		break;
	}
	return 0;
}

#endif

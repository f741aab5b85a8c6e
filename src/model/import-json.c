// SPDX-License-Identifier: GPL-2.0-only
/* The native format as an importer: the model loader, without options. */
#include "model/import-priv.h"
#include "model/import.h"

int ea_import_json(struct ea_model **out, const char *src,
		   const struct ea_import_opts *opts, struct ea_err *err)
{
	if (opts && (opts->name || opts->power_unit || opts->voltage ||
		     opts->trace || opts->ncpus || opts->ncpus_kv ||
		     opts->ncaps_kv || opts->nfreqs_kv))
		return ea_err_set(
			err,
			"%s: is a native model: --name, --power-unit, "
			"--voltage, --trace, --ncpus, --cpus, --capacity and "
			"--freqs apply to imported formats only (edit the file "
			"instead)",
			src);
	if (ea_model_load(out, src, err)) {
		ea_import_scrub(err);
		return -1;
	}
	return 0;
}

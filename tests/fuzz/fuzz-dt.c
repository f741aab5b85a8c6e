// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the dt model importer (ea_import_dt) on dtb blobs: the
 * header checks, fdt_check_full() and the libfdt walk of the binding; see
 * importer.h for what it does with each input. Inputs that do not start
 * with the FDT magic are skipped: dts text goes through cpp and dtc (two
 * programs run per input, too slow to fuzz), whose own parsers validate it.
 * Corpus: tests/fuzz/corpus/dt/ (dtbs).
 */
#include "importer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4 || memcmp(data, "\xd0\x0d\xfe\xed", 4))
		return 0;
	return fuzz_importer(ea_import_dt, data, size);
}

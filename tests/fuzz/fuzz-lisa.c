// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the LISA plat_info.yml importer (ea_import_lisa, libyaml);
 * see importer.h for what it does with each input. Corpus:
 * tests/fuzz/corpus/lisa/.
 */
#include "importer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_importer(ea_import_lisa, data, size);
}

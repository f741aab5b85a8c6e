// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the dt model importer (ea_import_dt); see importer.h for
 * what it does with each input. Corpus: tests/fuzz/corpus/dt/.
 */
#include "importer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_importer(ea_import_dt, data, size);
}

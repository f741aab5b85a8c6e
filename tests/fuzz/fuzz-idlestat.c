// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the idlestat model importer (ea_import_idlestat); see importer.h for
 * what it does with each input. Corpus: tests/fuzz/corpus/idlestat/.
 */
#include "importer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_importer(ea_import_idlestat, data, size);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: text traces (ftrace, trace-cmd report, systrace text and
 * HTML) through ea_input_open/ea_input_next and the whole pipeline.
 * Corpus: tests/fuzz/corpus/text/.
 */
#include "pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_memfile(data, size);

	fuzz_reader(path);
	fuzz_pipeline(path, (unsigned)(size > 0 ? data[size - 1] : 0));
	return 0;
}

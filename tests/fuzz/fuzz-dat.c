// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: trace.dat bytes written to a memfd and opened by path
 * through ea_input_open (libtracecmd + libtraceevent behind reader-dat.c),
 * then the whole pipeline. Corpus: tests/fuzz/corpus/dat/.
 */
#include "pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_memfile(data, size);

	fuzz_pipeline(path, (unsigned)size);
	return 0;
}

/*
 * Every open forks (reader-dat.c's rehearsal child): a smaller ASan
 * quarantine keeps the process, and so each fork, small.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16";
}

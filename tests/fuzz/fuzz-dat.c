// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: trace.dat bytes written to a memfd and opened by path
 * through ea_input_open (libtracecmd + libtraceevent behind reader-dat.c),
 * then the whole pipeline. Corpus: tests/fuzz/corpus/dat/.
 *
 * Each input goes through both record readers: the page walker
 * (dat-walk.c, the default for uncompressed files, which bounds-checks
 * every length itself) and libtracecmd's record-by-record path
 * (EATRACE_DAT_READER=libtracecmd).
 */
#include <stdlib.h>

#include "pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_memfile(data, size);

	unsetenv("EATRACE_DAT_READER");
	fuzz_pipeline(path, (unsigned)size);
	setenv("EATRACE_DAT_READER", "libtracecmd", 1);
	fuzz_pipeline(path, (unsigned)size);
	unsetenv("EATRACE_DAT_READER");
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

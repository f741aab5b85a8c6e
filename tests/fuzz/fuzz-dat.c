// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: trace.dat bytes written to a memfd and opened by path
 * through ea_input_open (libtracecmd + libtraceevent behind reader-dat.c),
 * then the whole pipeline. Corpus: tests/fuzz/corpus/dat/.
 *
 * Inputs of even size go through the page walker (dat-walk.c, the default
 * for uncompressed files, which bounds-checks every length itself), odd
 * ones through libtracecmd's record-by-record path
 * (EATRACE_DAT_READER=libtracecmd): both stay covered, at the cost of one
 * pipeline per input (each open forks a rehearsal child, which can spend
 * seconds in libtracecmd on a corrupt header: docs/robustness.md).
 */
#include <stdlib.h>

#include "pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_memfile(data, size);

	if (size & 1)
		setenv("EATRACE_DAT_READER", "libtracecmd", 1);
	else
		unsetenv("EATRACE_DAT_READER");
	fuzz_pipeline(path, (unsigned)size);
	return 0;
}

/*
 * Every open forks (dat-guard.c's rehearsal child): a smaller ASan
 * quarantine keeps the process, and so each fork, small.
 *
 * allocator_may_return_null: libtracecmd mallocs sizes a corrupt header
 * gives it (0xdd0000656e6f6e00 bytes for one input); malloc() returns
 * NULL for those outside ASan, which libtracecmd checks (the CLI says
 * "truncated or corrupt trace.dat headers"), where ASan's default aborts
 * the fuzzer with allocation-size-too-big, a finding in no code of ours.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16:allocator_may_return_null=1";
}

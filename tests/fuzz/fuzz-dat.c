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
 *
 * max_allocation_size_mb: NULL past 2 GiB too. ASan poisons a large
 * block's shadow (an eighth of its size) when it maps it and again when
 * it is freed: 0x2770a7570 bytes (10.6 GB, asked by libtracecmd of one
 * input, in the rehearsal child and again here) cost 1.5 s of page
 * clearing per open, a timeout of -timeout=30 on a loaded machine (the
 * dat target's "stalls", docs/robustness.md), and 1.3 GB of RSS each time;
 * 20 runs of that input took 48 s with a timeout, 0.16 s with the cap.
 * -malloc_limit_mb does not stand in for it: libFuzzer hooks malloc only
 * with leak detection on (-detect_leaks=0 in dat.options).
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16:allocator_may_return_null=1:"
	       "max_allocation_size_mb=2048";
}

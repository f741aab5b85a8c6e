// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: Perfetto traces (protobuf, gzip'd or not, compressed_packets)
 * through ea_input_open/ea_input_next (reader-perfetto.c, pf-event.c,
 * pf-compact.c, pf-index.c, pb-wire.h) and the whole pipeline. Corpus:
 * tests/fuzz/corpus/perfetto/ (the text-format fixtures of
 * tests/fixtures/perfetto encoded, and small converted recordings,
 * per-event, compact_sched, deflated and gzip'd).
 */
#include "pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;

	/*
	 * Mutations into a trace.dat are fuzz-dat's: libtracecmd can take
	 * seconds on them (docs/robustness.md), which starves this target.
	 */
	if (size >= 10 && !memcmp(data, "\x17\x08\x44tracing", 10))
		return 0;
	path = fuzz_memfile(data, size);

	fuzz_reader(path);
	fuzz_pipeline(path, (unsigned)(size > 0 ? data[size - 1] : 0));
	return 0;
}

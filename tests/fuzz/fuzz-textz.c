// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: gzip'd and zstd'd text traces (src/input/text-stream.c)
 * through ea_input_open/ea_input_next and the whole pipeline, including
 * the first-event skim that decompresses the file again.
 *
 * The first byte picks what the rest becomes:
 *   0  the bytes as they are (corpus: compressed files, whole or broken)
 *   1  gzip-compressed, 2  zstd-compressed (valid streams of any text)
 *   3  gzip, 4  zstd, then cut (at the last byte's share of the length)
 *      or with one byte flipped (when the cut would keep it all)
 * Corpus: tests/fuzz/corpus/textz/.
 */
#include <zlib.h>
#include <zstd.h>

#include "pipeline.h"

static size_t gz(const uint8_t *d, size_t n, uint8_t *out, size_t cap)
{
	z_stream z;
	size_t made;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (Bytef *)d;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	made = cap - z.avail_out;
	deflateEnd(&z);
	return made;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned mode = size ? data[0] % 5 : 0;
	unsigned last = size ? data[size - 1] : 0;
	const uint8_t *d = size ? data + 1 : data;
	size_t n = size ? size - 1 : 0, cap, made;
	uint8_t *out;
	const char *path;

	if (mode == 0) {
		path = fuzz_memfile(d, n);
		fuzz_reader(path);
		fuzz_pipeline(path, last);
		return 0;
	}
	cap = ZSTD_compressBound(n) + compressBound((uLong)n) + 64;
	out = malloc(cap);
	if (!out)
		abort();
	if (mode == 1 || mode == 3) {
		made = gz(d, n, out, cap);
	} else {
		made = ZSTD_compress(out, cap, d, n, 3);
		if (ZSTD_isError(made))
			abort();
	}
	if (mode >= 3 && made > 4) {
		size_t cut = 4 + (made - 4) * last / 256;

		if (cut > 4)
			made = cut;
		else
			out[4 + (n + last) % (made - 4)] ^= 0x55;
	}
	path = fuzz_memfile(out, made);
	fuzz_reader(path);
	fuzz_pipeline(path, last);
	free(out);
	return 0;
}

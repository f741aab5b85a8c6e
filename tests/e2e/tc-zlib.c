// SPDX-License-Identifier: GPL-2.0-only
/*
 * LD_PRELOAD helper for the compressed-trace tests: registers zlib with
 * libtracecmd so that `trace-cmd convert --compression zlib` writes zlib
 * trace.dat files (Debian's trace-cmd 3.1.6 is built with zstd only).
 * eatrace registers the same protocol itself (src/input/dat-chunks.c);
 * this is the writer's side, built by tests/e2e/dat-compressed.sh.
 */
#include <stdbool.h>
#include <string.h>
#include <zlib.h>

struct tc_compression_proto {
	int weight;
	const char *name, *version;
	int (*compress)(void *ctx, const void *in, int in_bytes, void *out,
			int out_bytes);
	int (*uncompress)(void *ctx, const void *in, int in_bytes, void *out,
			  int out_bytes);
	unsigned int (*compress_size)(void *ctx, unsigned int bytes);
	bool (*is_supported)(const char *name, const char *version);
	void *(*new_context)(void);
	void (*free_context)(void *ctx);
};

int tracecmd_compress_proto_register(struct tc_compression_proto *proto);

static int zc(void *ctx, const void *in, int n, void *out, int out_n)
{
	uLongf o = (uLongf)out_n;

	(void)ctx;
	return compress2(out, &o, in, (uLong)n, Z_BEST_COMPRESSION) == Z_OK ?
	       (int)o : -1;
}

static int zu(void *ctx, const void *in, int n, void *out, int out_n)
{
	uLongf o = (uLongf)out_n;

	(void)ctx;
	return uncompress(out, &o, in, (uLong)n) == Z_OK ? (int)o : -1;
}

static unsigned int zb(void *ctx, unsigned int n)
{
	(void)ctx;
	return (unsigned int)compressBound(n);
}

static bool zok(const char *name, const char *version)
{
	(void)version;
	return name && !strcmp(name, "zlib");
}

__attribute__((constructor)) static void tc_zlib_register(void)
{
	static struct tc_compression_proto p = {
		10, "zlib", ZLIB_VERSION, zc, zu, zb, zok, NULL, NULL
	};

	tracecmd_compress_proto_register(&p);
}

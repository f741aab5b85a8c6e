/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file read as a byte stream, decompressed on the fly when it is gzip
 * (1f 8b) or zstd (28 b5 2f fd): recognised by its magic bytes, not its
 * name (text-stream.c). No temporary file, bounded memory (the input
 * buffer plus the decompressor's window). Used by the text readers
 * (text-events.c, text-first.c) and by spool.c for the binary formats.
 */
#ifndef EATRACE_INPUT_TEXT_STREAM_H
#define EATRACE_INPUT_TEXT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "eatrace/error.h"

enum ea_zkind { EA_Z_NONE, EA_Z_GZIP, EA_Z_ZSTD };

/* What the first n bytes of a file say it is compressed with. */
enum ea_zkind ea_z_detect(const unsigned char *head, size_t n);
/* "gzip", "zstd", or NULL for EA_Z_NONE. */
const char *ea_z_name(enum ea_zkind k);

struct ea_tstream;

/* Open path (kind found from its magic). NULL with err "PATH: cause". */
struct ea_tstream *ea_ts_open(const char *path, struct ea_err *err);
enum ea_zkind ea_ts_kind(const struct ea_tstream *t);
/*
 * Up to n decompressed bytes: their count, 0 at the end, -1 on error (then
 * ea_ts_error() says why). Gzip: members one after the other, anything
 * after the last member that is not a gzip header ignored (as gzip(1));
 * zstd: frames one after the other (as zstd(1)).
 */
ssize_t ea_ts_read(struct ea_tstream *t, void *buf, size_t n);
/*
 * As ea_ts_read() from decompressed offset off. Plain files: pread();
 * compressed ones decompress forward to off, from the start again when
 * off is behind the stream (cheap for the early offsets it is used for).
 */
ssize_t ea_ts_pread(struct ea_tstream *t, void *buf, size_t n, uint64_t off);
/*
 * The last error, one line without the path: "offset N: corrupt gzip
 * data: unexpected end of file" (N the compressed byte offset where it was
 * found) or an I/O error's strerror().
 */
const char *ea_ts_error(const struct ea_tstream *t);
/* Compressed bytes of the file consumed so far (its offset). */
uint64_t ea_ts_in_offset(const struct ea_tstream *t);
void ea_ts_close(struct ea_tstream *t);

#endif

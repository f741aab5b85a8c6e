// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compressed text traces read as a stream (text-stream.h): zlib's inflate()
 * with gzip headers (16 + MAX_WBITS) or libzstd's ZSTD_decompressStream(),
 * fed from a 64 KiB buffer of the file. Plain files go straight to read().
 * Errors name the compressed offset where they were found: the bytes of
 * the file the decompressor had consumed then (for a file cut short: its
 * end).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* pread */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "input/text-stream.h"

#define IN_SIZE 65536
#define SKIP_SIZE 65536
#define ZSTD_SLICE 4096		/* compressed bytes per ZSTD_decompressStream() */
#define ZSTD_WINDOW_LOG_MAX 27	/* 128 MiB, zstd --long's default */

struct ea_tstream {
	char *path;
	int fd;
	enum ea_zkind kind;
	unsigned char *in;
	size_t in_pos, in_len;
	uint64_t in_total;	/* compressed bytes read from the file */
	uint64_t out_total;	/* decompressed bytes given out */
	bool in_eof, end;
	bool failed;		/* an error: every read fails again */
	bool in_member;		/* gzip: inside a member */
	bool z_ready;
	z_stream z;
	ZSTD_DStream *zs;
	size_t zlast;		/* ZSTD_decompressStream()'s last return */
	char msg[200];
};

enum ea_zkind ea_z_detect(const unsigned char *head, size_t n)
{
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return EA_Z_GZIP;
	if (n >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f &&
	    head[3] == 0xfd)
		return EA_Z_ZSTD;
	return EA_Z_NONE;
}

const char *ea_z_name(enum ea_zkind k)
{
	return k == EA_Z_GZIP ? "gzip" : k == EA_Z_ZSTD ? "zstd" : NULL;
}

static int fail(struct ea_tstream *t, const char *why)
{
	snprintf(t->msg, sizeof(t->msg), "offset %llu: corrupt %s data: %s",
		 (unsigned long long)(t->in_total - (t->in_len - t->in_pos)),
		 ea_z_name(t->kind), why);
	return -1;
}

uint64_t ea_ts_in_offset(const struct ea_tstream *t)
{
	return t->in_total - (t->in_len - t->in_pos);
}

static int io_fail(struct ea_tstream *t)
{
	snprintf(t->msg, sizeof(t->msg), "%s", strerror(errno));
	return -1;
}

/* Decoder state for reading from the start of the file. */
static int dec_start(struct ea_tstream *t)
{
	t->in_pos = t->in_len = 0;
	t->in_total = t->out_total = 0;
	t->in_eof = t->end = t->failed = false;
	t->in_member = true;
	t->zlast = 1;
	if (t->kind == EA_Z_GZIP) {
		if (t->z_ready)
			return inflateReset(&t->z) == Z_OK ? 0 : -1;
		memset(&t->z, 0, sizeof(t->z));
		if (inflateInit2(&t->z, 16 + MAX_WBITS) != Z_OK)
			return -1;
		t->z_ready = true;
	} else if (t->kind == EA_Z_ZSTD) {
		if (!t->zs) {
			t->zs = ZSTD_createDStream();
			if (!t->zs)
				return -1;
			ZSTD_DCtx_setParameter(t->zs, ZSTD_d_windowLogMax,
					       ZSTD_WINDOW_LOG_MAX);
		}
		ZSTD_DCtx_reset(t->zs, ZSTD_reset_session_only);
	}
	return 0;
}

struct ea_tstream *ea_ts_open(const char *path, struct ea_err *err)
{
	struct ea_tstream *t = calloc(1, sizeof(*t));
	unsigned char head[4];
	ssize_t got;

	if (!t) {
		ea_err_set(err, "%s: out of memory", path);
		return NULL;
	}
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		ea_err_set(err, "%s: %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	do
		got = pread(t->fd, head, sizeof(head), 0);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		ea_err_set(err, "%s: %s", path, strerror(errno));
		ea_ts_close(t);
		return NULL;
	}
	t->kind = ea_z_detect(head, (size_t)got);
	if (t->kind != EA_Z_NONE &&
	    (!(t->in = malloc(IN_SIZE)) || dec_start(t))) {
		ea_err_set(err, "%s: out of memory", path);
		ea_ts_close(t);
		return NULL;
	}
	return t;
}

enum ea_zkind ea_ts_kind(const struct ea_tstream *t)
{
	return t->kind;
}

const char *ea_ts_error(const struct ea_tstream *t)
{
	return t->msg;
}

void ea_ts_close(struct ea_tstream *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	if (t->z_ready)
		inflateEnd(&t->z);
	ZSTD_freeDStream(t->zs);
	free(t->in);
	free(t);
}

/* More compressed bytes when all are used: 0, or -1 on a read error. */
static int fill(struct ea_tstream *t)
{
	ssize_t got;

	if (t->in_pos < t->in_len || t->in_eof)
		return 0;
	do
		got = read(t->fd, t->in, IN_SIZE);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return io_fail(t);
	if (got == 0)
		t->in_eof = true;
	t->in_pos = 0;
	t->in_len = (size_t)got;
	t->in_total += (uint64_t)got;
	return 0;
}

static ssize_t gz_read(struct ea_tstream *t, unsigned char *buf, size_t n)
{
	for (;;) {
		size_t avail, made;
		int zrc;

		if (fill(t))
			return -1;
		avail = t->in_len - t->in_pos;
		if (!t->in_member) {
			/* after a member: another one, or trailing bytes */
			if (!avail || t->in[t->in_pos] != 0x1f) {
				t->end = true;
				return 0;
			}
			if (inflateReset(&t->z) != Z_OK)
				return fail(t, "out of memory");
			t->in_member = true;
		}
		t->z.next_in = t->in + t->in_pos;
		t->z.avail_in = (uInt)avail;
		t->z.next_out = buf;
		t->z.avail_out = (uInt)(n > 1u << 30 ? 1u << 30 : n);
		made = t->z.avail_out;
		zrc = inflate(&t->z, Z_NO_FLUSH);
		t->in_pos = t->in_len - t->z.avail_in;
		made -= t->z.avail_out;
		if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR)
			return fail(t, zrc == Z_MEM_ERROR ? "out of memory" :
				       t->z.msg ? t->z.msg : "invalid data");
		if (zrc == Z_STREAM_END)
			t->in_member = false;
		if (made)
			return (ssize_t)made;
		if (t->in_member && t->in_eof && t->in_pos == t->in_len)
			return fail(t, "unexpected end of file");
	}
}

static ssize_t zstd_read(struct ea_tstream *t, unsigned char *buf, size_t n)
{
	for (;;) {
		ZSTD_inBuffer in;
		ZSTD_outBuffer out = { buf, n, 0 };
		size_t rc;

		if (fill(t))
			return -1;
		/*
		 * At most ZSTD_SLICE bytes a call: an error leaves in.pos
		 * where it was, so the offset named is the end of the slice,
		 * found by the time that byte was read.
		 */
		in.src = t->in;
		in.pos = t->in_pos;
		in.size = t->in_len - t->in_pos > ZSTD_SLICE ?
			  t->in_pos + ZSTD_SLICE : t->in_len;
		rc = ZSTD_decompressStream(t->zs, &out, &in);
		t->in_pos = ZSTD_isError(rc) ? in.size : in.pos;
		if (ZSTD_isError(rc))
			return fail(t, ZSTD_getErrorName(rc));
		if (out.pos) {
			t->zlast = rc;
			return (ssize_t)out.pos;
		}
		if (t->in_eof && t->in_pos == t->in_len) {
			/* 0 from the call before: the last frame was whole
			 * (asked again, the decoder wants the next header) */
			if (rc && t->zlast)
				return fail(t, "unexpected end of file");
			t->end = true;
			return 0;
		}
		t->zlast = rc;
	}
}

ssize_t ea_ts_read(struct ea_tstream *t, void *buf, size_t n)
{
	ssize_t got;

	if (!n)
		return 0;
	if (t->failed)
		return -1;
	if (t->kind == EA_Z_NONE) {
		do
			got = read(t->fd, buf, n);
		while (got < 0 && errno == EINTR);
		if (got < 0) {
			t->failed = true;
			return io_fail(t);
		}
	} else {
		if (t->end)
			return 0;
		got = t->kind == EA_Z_GZIP ? gz_read(t, buf, n) :
					     zstd_read(t, buf, n);
		if (got < 0) {
			t->failed = true;
			return -1;
		}
	}
	t->out_total += (uint64_t)got;
	return got;
}

ssize_t ea_ts_pread(struct ea_tstream *t, void *buf, size_t n, uint64_t off)
{
	ssize_t got;

	if (t->kind == EA_Z_NONE) {
		do
			got = pread(t->fd, buf, n, (off_t)off);
		while (got < 0 && errno == EINTR);
		return got < 0 ? io_fail(t) : got;
	}
	if (off < t->out_total) {
		if (lseek(t->fd, 0, SEEK_SET) < 0)
			return io_fail(t);
		if (dec_start(t)) {
			snprintf(t->msg, sizeof(t->msg), "out of memory");
			return -1;
		}
	}
	while (t->out_total < off) {
		uint64_t left = off - t->out_total;

		got = ea_ts_read(t, buf, left < n ? (size_t)left : n);
		if (got <= 0)
			return got;
	}
	return ea_ts_read(t, buf, n);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compressed trace.dat v7 data: finding each CPU's chunks from the file's
 * sections and decompressing them one at a time (see dat-chunks.h).
 *
 * The file header: magic, "7\0", endianness byte, long size byte, u32
 * page size, "algorithm\0version\0", u64 offset of the first options
 * section. A section: u16 id, u16 flags (1: compressed), u32 string id,
 * u64 size, then the data (compressed: u32 compressed size, u32
 * uncompressed size, the compressed bytes). An options section (id 0)
 * holds options <u16 id, u32 size, data> up to DONE (id 0), whose u64 is
 * the next options section's offset (0: none). A BUFFER option (id 3):
 * u64 section offset, name, clock, u32 page size, u32 CPU count, then per
 * CPU <u32 cpu, u64 offset, u64 size>: the offset is that of the CPU's
 * chunk count.
 *
 * Every size read from the file is checked against the file and against
 * what it describes before anything is allocated from it.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "input/dat-chunks.h"
#include "input/dat-walk.h"
#include "input/load-le.h"
#include "util/thread.h"

#define SEC_OPTIONS 0
#define SEC_FL_COMPRESS 1
#define OPT_DONE 0
#define OPT_BUFFER 3
#define MAX_OPT_SECTIONS 64	/* a DONE chain longer than this loops */
#define MAX_OPT_BYTES (64u << 20)	/* one options section */
#define MAX_CHUNK (16u << 20)	/* one chunk, either side */

static const unsigned char magic[10] = "\x17\x08\x44tracing";

/* All n bytes at off, or -1 (short: errno 0). */
static int pread_all(int fd, void *buf, size_t n, unsigned long long off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got,
				  (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

/*
 * Decompress n bytes at in into exactly out_n bytes at out. 0, or -1 with
 * a short reason in why.
 */
static int inflate_block(struct dz *z, const void *in, size_t n, void *out,
			 size_t out_n, const char **why)
{
	if (z->algo == DZ_ZSTD) {
		size_t r = ZSTD_decompressDCtx(z->zctx, out, out_n, in, n);

		if (ZSTD_isError(r)) {
			*why = ZSTD_getErrorName(r);
			return -1;
		}
		if (r != out_n) {
			*why = "fewer bytes than its header says";
			return -1;
		}
		return 0;
	} else {
		uLongf got = out_n;
		int r = uncompress(out, &got, in, n);

		if (r != Z_OK) {
			*why = r == Z_BUF_ERROR ? "more bytes than its header says, or cut short" :
			       r == Z_MEM_ERROR ? "out of memory" : "invalid zlib data";
			return -1;
		}
		if (got != out_n) {
			*why = "fewer bytes than its header says";
			return -1;
		}
		return 0;
	}
}

/* Room for n compressed bytes in z->in. */
static int in_room(struct dz *z, size_t n)
{
	unsigned char *p;

	if (n <= z->in_cap)
		return 0;
	p = realloc(z->in, n);
	if (!p)
		return -1;
	z->in = p;
	z->in_cap = n;
	return 0;
}

/*
 * Load options section at off into *data (malloc'd, *len bytes of
 * options); *next: the offset just past the section. NULL, or the reason
 * it cannot.
 */
static const char *load_options(struct dz *z, unsigned long long off,
				unsigned char **data, size_t *len,
				unsigned long long *next)
{
	unsigned char h[16], c[8];
	unsigned long long size;
	const char *why;
	unsigned char *buf;

	if (off > z->file_size || z->file_size - off < sizeof(h) ||
	    pread_all(z->fd, h, sizeof(h), off))
		return "options section outside the file";
	if (ld2(h) != SEC_OPTIONS)
		return "options offset not at an options section";
	size = ld8(h + 8);
	off += sizeof(h);
	if (!(ld2(h + 2) & SEC_FL_COMPRESS)) {
		if (size > MAX_OPT_BYTES || size > z->file_size - off)
			return "options section larger than the file";
		*next = off + size;
		buf = malloc(size ? size : 1);
		if (!buf)
			return "out of memory";
		if (pread_all(z->fd, buf, size, off)) {
			free(buf);
			return "options section unreadable";
		}
		*data = buf;
		*len = size;
		return NULL;
	}
	if (z->file_size - off < sizeof(c) || pread_all(z->fd, c, sizeof(c), off))
		return "compressed options section outside the file";
	off += sizeof(c);
	if (ld4(c) > z->file_size - off || ld4(c + 4) > MAX_OPT_BYTES)
		return "compressed options section larger than the file";
	*next = off + ld4(c);
	if (in_room(z, ld4(c)) || !(buf = malloc(ld4(c + 4) ? ld4(c + 4) : 1)))
		return "out of memory";
	if (pread_all(z->fd, z->in, ld4(c), off) ||
	    inflate_block(z, z->in, ld4(c), buf, ld4(c + 4), &why)) {
		free(buf);
		return "options section does not decompress";
	}
	*data = buf;
	*len = ld4(c + 4);
	return NULL;
}

/* strlen of the string at p, or -1 when it runs past end. */
static long str_at(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *nul = memchr(p, '\0', end - p);

	return nul ? nul - p : -1;
}

/*
 * A BUFFER option's data: when its name is bufname, each listed CPU's
 * chunk offset into z->cpu[].zoff (only for CPUs in 0..ncpus-1) and 1;
 * 0 for another buffer; -1 when malformed.
 */
static int buffer_option(struct dz *z, const unsigned char *p, size_t n,
			 const char *bufname, unsigned long long *zoff)
{
	const unsigned char *end = p + n;
	uint32_t ncpu, i;
	long l;

	if (n < 8)
		return -1;
	p += 8;
	l = str_at(p, end);
	if (l < 0)
		return -1;
	if (strcmp((const char *)p, bufname))
		return 0;
	p += l + 1;
	l = str_at(p, end);	/* clock */
	if (l < 0)
		return -1;
	p += l + 1;
	if (end - p < 8)
		return -1;
	if (ld4(p) != z->page_size)
		return -1;
	ncpu = ld4(p + 4);
	p += 8;
	if ((uint64_t)ncpu * 20 > (uint64_t)(end - p))
		return -1;
	for (i = 0; i < ncpu; i++, p += 20) {
		uint32_t cpu = ld4(p);

		if (cpu < (uint32_t)z->ncpus && ld8(p + 12))
			zoff[cpu] = ld8(p + 4);
	}
	return 1;
}

/*
 * The sections after the last options section (trace-cmd writes the
 * strings section there, which libtracecmd reads without noticing a cut):
 * each must lie whole inside the file. NULL, or what is cut.
 */
static const char *check_tail(struct dz *z, unsigned long long off)
{
	int n;

	for (n = 0; off < z->file_size && n < MAX_OPT_SECTIONS; n++) {
		unsigned char h[16];

		if (z->file_size - off < sizeof(h) ||
		    pread_all(z->fd, h, sizeof(h), off))
			return "section header cut by the end of the file";
		if (ld8(h + 8) > z->file_size - off - sizeof(h))
			return "section cut by the end of the file";
		off += sizeof(h) + ld8(h + 8);
	}
	return NULL;
}

/*
 * Follow the options sections from the header's; fill zoff. NULL, or the
 * reason, *cut set when the file is cut short.
 */
static const char *find_buffer(struct dz *z, unsigned long long off,
			       const char *bufname, unsigned long long *zoff,
			       bool *cut)
{
	const char *found = "no BUFFER option for the buffer read";
	int sections;

	*cut = false;
	for (sections = 0; off && sections < MAX_OPT_SECTIONS; sections++) {
		unsigned char *data = NULL;
		size_t len = 0, pos = 0;
		unsigned long long end = 0;
		const char *why = load_options(z, off, &data, &len, &end);

		if (why)
			return why;
		off = 0;
		while (pos + 6 <= len) {
			uint16_t id = ld2(data + pos);
			uint32_t sz = ld4(data + pos + 2);

			pos += 6;
			if (sz > len - pos) {
				free(data);
				return "option larger than its section";
			}
			if (id == OPT_DONE) {
				off = sz >= 8 ? ld8(data + pos) : 0;
				break;
			}
			if (id == OPT_BUFFER) {
				int r = buffer_option(z, data + pos, sz, bufname, zoff);

				if (r < 0) {
					free(data);
					return "malformed BUFFER option";
				}
				if (r > 0)
					found = NULL;
			}
			pos += sz;
		}
		free(data);
		if (!off && !found) {
			why = check_tail(z, end);
			*cut = why != NULL;
			return why;
		}
	}
	return found;
}

int dz_open(struct dz *z, int fd, const char *bufname, int ncpus,
	    const unsigned long long *start, char *why, size_t n)
{
	unsigned char head[128], *p, *end;
	unsigned long long *zoff = NULL;
	const char *err = NULL;
	bool cut = false;
	struct stat st;
	ssize_t got;
	int c;

	memset(z, 0, sizeof(*z));
	z->fd = fd;
	z->ncpus = ncpus;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = "not a regular file";
		goto out;
	}
	z->file_size = (unsigned long long)st.st_size;
	got = pread(fd, head, sizeof(head), 0);
	if (got < (ssize_t)sizeof(magic) + 2 || memcmp(head, magic, sizeof(magic)) ||
	    strcmp((char *)head + sizeof(magic), "7")) {
		err = "not a trace.dat v7 file";
		goto out;
	}
	p = head + sizeof(magic) + 2;
	end = head + got;
	if (end - p < 6 || p[0] != 0) {
		err = "not a little-endian file";
		goto out;
	}
	z->page_size = ld4(p + 2);
	p += 6;
	if (str_at(p, end) < 0) {
		err = "compression header unreadable";
		goto out;
	}
	if (!strcmp((char *)p, "zstd")) {
		z->algo = DZ_ZSTD;
	} else if (!strcmp((char *)p, "zlib")) {
		z->algo = DZ_ZLIB;
	} else {
		err = "compression algorithm not zstd or zlib";
		goto out;
	}
	p += strlen((char *)p) + 1;
	if (str_at(p, end) < 0) {
		err = "compression header unreadable";
		goto out;
	}
	p += strlen((char *)p) + 1;
	if (end - p < 8) {
		err = "compression header unreadable";
		goto out;
	}
	if (z->algo == DZ_ZSTD && !(z->zctx = ZSTD_createDCtx())) {
		err = "out of memory";
		goto out;
	}
	z->cpu = calloc(ncpus, sizeof(*z->cpu));
	zoff = calloc(ncpus, sizeof(*zoff));
	if (!z->cpu || !zoff) {
		err = "out of memory";
		goto out;
	}
	err = find_buffer(z, ld8(p), bufname, zoff, &cut);
	if (err)
		goto out;
	for (c = 0; c < ncpus; c++) {
		struct dz_cpu *cp = &z->cpu[c];
		unsigned char h[12];

		cp->voff = start[c];
		if (!zoff[c])
			continue;
		if (zoff[c] > z->file_size || z->file_size - zoff[c] < 4 ||
		    pread_all(fd, h, 4, zoff[c])) {
			err = "CPU data outside the file";
			goto out;
		}
		cp->nchunks = ld4(h);
		cp->zoff = zoff[c] + 4;
	}
out:
	free(zoff);
	if (err) {
		snprintf(why, n, "%s", err);
		dz_close(z);
		return cut ? -2 : -1;
	}
	return 0;
}

void dz_close(struct dz *z)
{
	int c, k;

	if (z->threaded) {
		pthread_mutex_lock(&z->mu);
		z->stop = true;
		pthread_cond_broadcast(&z->space);
		pthread_mutex_unlock(&z->mu);
		pthread_join(z->th, NULL);
		pthread_cond_destroy(&z->space);
		pthread_cond_destroy(&z->ready);
		pthread_mutex_destroy(&z->mu);
		z->threaded = false;
	}
	if (z->ring) {
		for (c = 0; c < z->ncpus; c++)
			for (k = 0; k < DZ_RING; k++)
				free(z->ring[c].slot[k].buf);
		free(z->ring);
		z->ring = NULL;
	}
	if (z->zctx)
		ZSTD_freeDCtx(z->zctx);
	free(z->cpu);
	free(z->in);
	z->zctx = NULL;
	z->cpu = NULL;
	z->in = NULL;
	z->in_cap = 0;
}

static int chunk_err(const struct dz_cpu *cp, const char *what,
		     unsigned long long off, char *err, size_t n)
{
	snprintf(err, n,
		 "corrupt trace.dat: compressed chunk %u of %u at offset %llu: %s",
		 cp->next + 1, cp->nchunks, off, what);
	return -1;
}

/*
 * Decompress CPU c's next chunk into *buf (*cap bytes, grown as needed):
 * 1 with its virtual offset and length, 0 when the CPU has no chunk left,
 * -1 with err. Uses z->in and z->zctx: one caller at a time.
 */
static int next_chunk(struct dz *z, int c, unsigned char **buf, size_t *cap,
		      unsigned long long *voff, uint32_t *len, char *err,
		      size_t n)
{
	struct dz_cpu *cp = &z->cpu[c];
	unsigned long long off = cp->zoff;
	size_t want;
	const char *why;
	bool last;

	if (cp->next >= cp->nchunks)
		return 0;
	if (!cp->have_hdr) {
		unsigned char h[8];

		if (off > z->file_size || z->file_size - off < 8 ||
		    pread_all(z->fd, h, 8, off))
			return chunk_err(cp, "header cut by the end of the file", off, err, n);
		cp->zsize = ld4(h);
		cp->usize = ld4(h + 4);
		cp->have_hdr = 1;
	}
	if (!cp->usize || cp->usize % z->page_size || cp->usize > MAX_CHUNK ||
	    cp->zsize > MAX_CHUNK)
		return chunk_err(cp, "size in its header not whole pages or too large",
				 off, err, n);
	if (cp->zsize > z->file_size - off - 8)
		return chunk_err(cp, "data cut by the end of the file", off, err, n);
	/* the next chunk's header comes in the same read */
	last = cp->next + 1 >= cp->nchunks ||
	       z->file_size - off - 8 - cp->zsize < 8;
	want = cp->zsize + (last ? 0 : 8);
	if (in_room(z, want)) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (pread_all(z->fd, z->in, want, off + 8))
		return chunk_err(cp, errno ? strerror(errno) :
				 "data cut by the end of the file", off, err, n);
	if (*cap < cp->usize) {
		unsigned char *b = realloc(*buf, cp->usize);

		if (!b) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		*buf = b;
		*cap = cp->usize;
	}
	if (inflate_block(z, z->in, cp->zsize, *buf, cp->usize, &why))
		return chunk_err(cp, why, off, err, n);
	*voff = cp->voff;
	*len = cp->usize;
	cp->voff += cp->usize;
	cp->zoff = off + 8 + cp->zsize;
	cp->next++;
	cp->have_hdr = !last;
	if (!last) {
		cp->zsize = ld4(z->in + want - 8);
		cp->usize = ld4(z->in + want - 4);
	}
	return 1;
}

static int ended_early(struct dw *w, int c, uint32_t nchunks)
{
	snprintf(w->err, sizeof(w->err),
		 "corrupt trace.dat: CPU data ends after %u compressed chunks, %llu bytes before its end",
		 nchunks, w->cpu[c].end - w->cpu[c].next_page);
	return -1;
}

static int not_next(struct dw *w, int c, unsigned long long voff)
{
	snprintf(w->err, sizeof(w->err),
		 "corrupt trace.dat: compressed chunk at %llu of the CPU's data where page %llu was due",
		 voff, w->cpu[c].next_page);
	return -1;
}

/*
 * The helper thread (dz_start()): it decompresses every CPU's chunks
 * ahead of the walker into a ring of DZ_RING slots per CPU, the CPU with
 * the fewest ready first; dz_fill() hands the walker the oldest ready
 * slot's buffer and takes the walker's old one in exchange. Only where
 * the decompression runs changes: the walker, its merge and the decoding
 * stay on the calling thread, in the same order.
 */
static void *worker(void *arg)
{
	struct dz *z = arg;

	pthread_mutex_lock(&z->mu);
	for (;;) {
		struct dz_ring *rg = NULL;
		struct dz_slot *sl;
		int c, best = -1, rc;

		if (z->stop)
			break;
		for (c = 0; c < z->ncpus; c++) {
			struct dz_ring *r = &z->ring[c];

			if (!r->finished && r->count < DZ_RING &&
			    (best < 0 || r->count < z->ring[best].count))
				best = c;
		}
		if (best < 0) {
			pthread_cond_wait(&z->space, &z->mu);
			continue;
		}
		c = best;
		rg = &z->ring[c];
		sl = &rg->slot[(rg->head + rg->count) % DZ_RING];
		pthread_mutex_unlock(&z->mu);
		rc = next_chunk(z, c, &sl->buf, &sl->cap, &sl->voff, &sl->len,
				sl->err, sizeof(sl->err));
		pthread_mutex_lock(&z->mu);
		sl->failed = rc < 0;
		if (rc != 0)
			rg->count++;
		if (rc <= 0)
			rg->finished = true;
		pthread_cond_broadcast(&z->ready);
	}
	pthread_mutex_unlock(&z->mu);
	return NULL;
}

int dz_fill(void *priv, struct dw *w, int c)
{
	struct dz *z = priv;
	struct dw_cpu *wc = &w->cpu[c];
	struct dz_ring *rg;
	struct dz_slot *sl;
	unsigned char *b;
	size_t cap;
	int rc;

	if (!z->threaded) {
		unsigned long long voff;
		uint32_t len;

		if (z->cpu[c].voff != wc->next_page &&
		    z->cpu[c].next < z->cpu[c].nchunks)
			return not_next(w, c, z->cpu[c].voff);
		rc = next_chunk(z, c, &wc->buf, &wc->buf_cap, &voff, &len,
				w->err, sizeof(w->err));
		if (rc < 0)
			return -1;
		if (rc == 0)
			return ended_early(w, c, z->cpu[c].nchunks);
		wc->buf_off = voff;
		wc->buf_len = len;
		return 0;
	}
	rg = &z->ring[c];
	pthread_mutex_lock(&z->mu);
	while (!rg->count && !rg->finished)
		pthread_cond_wait(&z->ready, &z->mu);
	if (!rg->count) {
		pthread_mutex_unlock(&z->mu);
		return ended_early(w, c, z->cpu[c].nchunks);
	}
	sl = &rg->slot[rg->head];
	if (sl->failed) {
		snprintf(w->err, sizeof(w->err), "%s", sl->err);
		pthread_mutex_unlock(&z->mu);
		return -1;
	}
	if (sl->voff != wc->next_page) {
		pthread_mutex_unlock(&z->mu);
		return not_next(w, c, sl->voff);
	}
	/* swap: the walker is done with its old buffer */
	b = wc->buf;
	cap = wc->buf_cap;
	wc->buf = sl->buf;
	wc->buf_cap = sl->cap;
	wc->buf_off = sl->voff;
	wc->buf_len = sl->len;
	sl->buf = b;
	sl->cap = cap;
	rg->head = (rg->head + 1) % DZ_RING;
	rg->count--;
	pthread_cond_signal(&z->space);
	pthread_mutex_unlock(&z->mu);
	return 0;
}

int dz_start(struct dz *z)
{
	int rc;

	z->ring = calloc(z->ncpus, sizeof(*z->ring));
	if (!z->ring)
		return -1;
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->ready, NULL);
	pthread_cond_init(&z->space, NULL);
	/* no signal for it: the open guard's alarm must reach the caller */
	rc = ea_thread_start(&z->th, worker, z, NULL);
	if (rc) {
		pthread_cond_destroy(&z->space);
		pthread_cond_destroy(&z->ready);
		pthread_mutex_destroy(&z->mu);
		free(z->ring);
		z->ring = NULL;
		return -1;
	}
	z->threaded = true;
	return 0;
}

/* ------------------------------------------------------------------ */
/* zlib for libtracecmd                                                 */
/* ------------------------------------------------------------------ */

/*
 * libtracecmd 3.1's compression plugin interface, exported by the library
 * but declared only in trace-cmd-private.h (not shipped by Debian).
 */
struct tc_compression_proto {
	int weight;
	const char *name;
	const char *version;
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
bool tracecmd_compress_is_supported(const char *name, const char *version);

static int zl_compress(void *ctx, const void *in, int in_bytes, void *out,
		       int out_bytes)
{
	uLongf n = (uLongf)out_bytes;

	(void)ctx;
	if (in_bytes < 0 || out_bytes < 0 ||
	    compress2(out, &n, in, (uLong)in_bytes, Z_BEST_COMPRESSION) != Z_OK)
		return -1;
	return (int)n;
}

static int zl_uncompress(void *ctx, const void *in, int in_bytes, void *out,
			 int out_bytes)
{
	uLongf n = (uLongf)out_bytes;

	(void)ctx;
	if (in_bytes < 0 || out_bytes < 0 ||
	    uncompress(out, &n, in, (uLong)in_bytes) != Z_OK)
		return -1;
	return (int)n;
}

static unsigned int zl_bound(void *ctx, unsigned int bytes)
{
	(void)ctx;
	return (unsigned int)compressBound(bytes);
}

static bool zl_supported(const char *name, const char *version)
{
	(void)version;
	return name && !strcmp(name, "zlib");
}

void dz_register_zlib(void)
{
	static struct tc_compression_proto proto = {
		.weight = 10,
		.name = "zlib",
		.version = ZLIB_VERSION,
		.compress = zl_compress,
		.uncompress = zl_uncompress,
		.compress_size = zl_bound,
		.is_supported = zl_supported,
	};
	static bool done;

	if (done)
		return;
	done = true;
	if (!tracecmd_compress_is_supported("zlib", NULL))
		tracecmd_compress_proto_register(&proto);
}

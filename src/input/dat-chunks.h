/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compressed trace.dat v7 data, read without libtracecmd's record path
 * (trace-cmd.dat.v7(5), "COMPRESSION FORMAT OF THE TRACE DATA"): each
 * CPU's ring-buffer pages are stored as a u32 chunk count followed by
 * chunks of <u32 compressed size, u32 uncompressed size, data>, each chunk
 * a whole number of pages (trace-cmd writes 10 pages a chunk). The file
 * offset of each CPU's chunks is in the BUFFER option of the buffer's
 * options section.
 *
 * dz_open() finds them; dz_fill() decompresses a CPU's next chunk into the
 * page walker's buffer (dat-walk.c), which walks it as it walks the pages
 * of an uncompressed file. One chunk per CPU is in memory at a time.
 * Offsets the walker sees are libtracecmd's: each CPU's decompressed
 * stream starts at the CPU's read cursor (a virtual offset past the end of
 * the file), so record offsets agree with libtracecmd's.
 *
 * zstd and zlib (trace-cmd 3's two algorithms). dz_register_zlib() also
 * teaches libtracecmd zlib: Debian's libtracecmd 3.1.6 is built without it
 * and refuses such files otherwise.
 */
#ifndef EATRACE_INPUT_DAT_CHUNKS_H
#define EATRACE_INPUT_DAT_CHUNKS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dw;

enum dz_algo { DZ_ZSTD = 1, DZ_ZLIB };

struct dz_cpu {
	unsigned long long zoff;	/* file offset of the next chunk */
	unsigned long long voff;	/* its virtual (walker) offset */
	uint32_t nchunks, next;		/* chunk count, next chunk's index */
	uint32_t zsize, usize;		/* next chunk's header, once read */
	int have_hdr;			/* zsize/usize hold the next header */
};

#define DZ_RING 4	/* chunks decompressed ahead per CPU (dz_start()) */

struct dz_slot {
	unsigned char *buf;
	size_t cap;
	unsigned long long voff;
	uint32_t len;
	bool failed;			/* err says why */
	char err[200];
};

struct dz_ring {
	struct dz_slot slot[DZ_RING];
	int head, count;		/* oldest ready slot, ready slots */
	bool finished;			/* no chunk left, or an error */
};

struct dz {
	int fd;
	enum dz_algo algo;
	uint32_t page_size;
	unsigned long long file_size;
	int ncpus;
	struct dz_cpu *cpu;
	unsigned char *in;		/* compressed bytes of one chunk */
	size_t in_cap;
	void *zctx;			/* ZSTD_DCtx */
	/* the helper thread (dz_start()); fields under mu */
	bool threaded, stop;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t ready, space;
	struct dz_ring *ring;		/* per CPU */
};

/*
 * Set up reading buffer `bufname` ("" the top-level buffer) of the v7 file
 * open on fd: ncpus CPUs, CPU c's decompressed data starting at virtual
 * offset start[c] (libtracecmd's read cursor before any read). Returns 0,
 * -1 with why (a short reason: the caller falls back to libtracecmd), or
 * -2 with why when the file is cut short (an error: libtracecmd does not
 * notice a cut in the sections after the data).
 */
int dz_open(struct dz *z, int fd, const char *bufname, int ncpus,
	    const unsigned long long *start, char *why, size_t n);

/*
 * dat-walk.c's fill hook: decompress CPU c's next chunk into w->cpu[c]'s
 * buffer (growing it when needed), which must begin at the walker's next
 * page. 0, or -1 with w->err set.
 */
int dz_fill(void *priv, struct dw *w, int c);

/*
 * Decompress on a helper thread from now on, ahead of dz_fill(): 0, or -1
 * (dz_fill() then decompresses on the calling thread, as without it).
 */
int dz_start(struct dz *z);

void dz_close(struct dz *z);

/* Register zlib with libtracecmd (once; safe to call again). */
void dz_register_zlib(void);

#endif

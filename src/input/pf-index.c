// SPDX-License-Identifier: GPL-2.0-only
/*
 * Perfetto trace: loading, gzip and compressed_packets, the bundle index
 * (pf-index.h). Field numbers from Perfetto's protos (trace.proto,
 * trace_packet.proto, ftrace_event_bundle.proto):
 *   Trace:             1 packet (TracePacket)
 *   TracePacket:       1 ftrace_events (FtraceEventBundle),
 *                      50 compressed_packets (zlib-deflated Trace bytes),
 *                      133 zstd_compressed_packets (zstd frames, the same)
 *   FtraceEventBundle: 1 cpu, 3 lost_events, 9 last_read_event_timestamp,
 *                      10 previous_bundle_end_timestamp
 *   TracePacket:       8 timestamp, 40 power_rails (power_rails.proto),
 *                      7 sys_stats, 34 ftrace_stats
 *   ProcessTree:       1 processes (1 pid, 3 cmdline), 2 threads (1 tid,
 *                      3 tgid), packet field 2
 *   SysStats:          11 cpufreq_khz (repeated, packed or not, per CPU)
 *   FtraceStats:       1 phase (1 start, 2 end), 2 cpu_stats (1 cpu,
 *                      3 overrun, 8 dropped_events)
 *   PowerRails:        1 rail_descriptor (1 index, 2 rail_name,
 *                      3 subsys_name), 2 energy_data (1 index,
 *                      2 timestamp_ms, 3 energy in uWs)
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "eatrace/event.h"
#include "eatrace/input.h"
#include "input/inflate-limit.h"
#include "input/pb-wire.h"
#include "input/pf-index.h"
#include "util/grow.h"

#define PKT_FTRACE 1
#define PKT_COMPRESSED 50
#define PKT_ZSTD 133
#define PKT_TIMESTAMP 8
#define PKT_POWER_RAILS 40
#define PKT_SYS_STATS 7
#define PKT_PROCESS_TREE 2
#define PKT_FTRACE_STATS 34

/* ---- probe ------------------------------------------------------------- */

/* Whether b holds well-formed fields up to its end (a cut last one is ok). */
static bool fields_ok(struct pb_buf b, bool cut_ok)
{
	struct pb_field f = { 0 };
	int rc;

	while ((rc = pb_next(&b, &f)) == PB_OK)
		;
	if (rc == PB_END)
		return true;
	return cut_ok;
}

static int probe_raw(const unsigned char *head, size_t n)
{
	struct pb_buf b = { head, head + n };
	bool binary = false;
	int packets = 0;

	for (size_t i = 0; i < n; i++)
		if (head[i] < 0x09 || (head[i] > 0x0d && head[i] < 0x20) ||
		    head[i] == 0x7f)
			binary = true;
	if (!binary)
		return 0;	/* text: the text readers' */
	while (b.p < b.end) {
		struct pb_buf pkt;
		uint64_t len;

		if (*b.p != 0x0a)	/* field 1, length-delimited */
			return 0;
		b.p++;
		if (pb_varint(&b, &len) != PB_OK)
			return packets > 0;
		pkt.p = b.p;
		if (len > (uint64_t)(b.end - b.p)) {
			pkt.end = b.end;
			/* the head ends inside this packet */
			if (pkt.p == pkt.end)
				return packets > 0;
			if (pkt.end - pkt.p < 8 && packets > 0)
				return 1;
			return fields_ok(pkt, true) && (packets > 0 ||
							pkt.end - pkt.p >= 2);
		}
		pkt.end = b.p + len;
		if (!fields_ok(pkt, false))
			return 0;
		packets++;
		b.p = pkt.end;
	}
	return packets > 0;
}

int pf_probe(const unsigned char *head, size_t n)
{
	unsigned char out[4096];
	z_stream z;
	size_t got;

	if (n < 2)
		return 0;
	if (head[0] != 0x1f || head[1] != 0x8b)
		return probe_raw(head, n);
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)head;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = sizeof(out);
	(void)inflate(&z, Z_SYNC_FLUSH);
	got = sizeof(out) - z.avail_out;
	inflateEnd(&z);
	return got > 0 && probe_raw(out, got);
}

/* ---- loading ----------------------------------------------------------- */

/*
 * The next size of a buffer of cap bytes, full, holding inflated data
 * the budget has room for (left bytes): doubled, but never more than one
 * byte past left, so that a byte too many is seen. 0: no room.
 */
static size_t next_cap(size_t cap, uint64_t left)
{
	uint64_t n = (uint64_t)cap * 2;

	if (cap > left)
		return 0;
	if (n > left + 1)
		n = left + 1;
	return n > SIZE_MAX ? 0 : (size_t)n;
}


static int load_gzip(struct pf_index *ix, int fd, const char *path,
		     struct ea_err *err)
{
	size_t cap = 1 << 20;
	gzFile gz;
	int n, e;

	if (cap > ix->budget)
		cap = (size_t)ix->budget;
	gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return ea_err_set(err, "%s: out of memory", path);
	}
	ix->gzip = true;
	ix->data = malloc(cap);
	for (;;) {
		if (!ix->data) {
			gzclose(gz);
			return ea_err_set(err, "%s: out of memory inflating gzip data", path);
		}
		if (ix->len == cap) {
			size_t ncap = next_cap(cap, ix->budget);
			uint8_t *q;

			if (!ncap) {
				char m[256];

				gzclose(gz);
				ea_inflate_refusal(m, sizeof(m), "gzip data", ix->stored);
				return ea_err_set(err, "%s:offset %zu (inflated): %s", path,
						  ix->len, m);
			}
			q = realloc(ix->data, ncap);
			if (!q) {
				gzclose(gz);
				return ea_err_set(err, "%s:offset %zu (inflated): out of memory",
						  path, ix->len);
			}
			ix->data = q;
			cap = ncap;
		}
		n = gzread(gz, ix->data + ix->len, (unsigned)(cap - ix->len > (1u << 30) ? (1u << 30) : cap - ix->len));
		if (n <= 0)
			break;
		ix->len += (size_t)n;
	}
	if (n < 0 || (gzerror(gz, &e), e != Z_OK && e != Z_STREAM_END)) {
		const char *m = gzerror(gz, &e);
		char why[128];

		snprintf(why, sizeof(why), "%s", m ? m : "error");
		gzclose(gz);
		return ea_err_set(err, "%s:offset %zu (inflated): corrupt gzip data: %s",
				  path, ix->len, why);
	}
	gzclose(gz);
	ix->spent = ix->len;
	return 0;
}

static int load(struct pf_index *ix, const char *path, struct ea_err *err)
{
	unsigned char magic[2];
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || pread(fd, magic, 2, 0) != 2) {
		close(fd);
		return ea_err_set(err, "%s: cannot read the file", path);
	}
	if (!ix->stored)
		ix->stored = (uint64_t)st.st_size;
	ix->budget = ea_inflate_limit(ix->stored);
	if (magic[0] == 0x1f && magic[1] == 0x8b) {
		ix->expanded = true;
		return load_gzip(ix, fd, path, err);
	}
	if (st.st_size <= 0) {
		close(fd);
		return ea_err_set(err, "%s: empty file", path);
	}
	ix->len = (size_t)st.st_size;
	ix->fd = fd;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

int pf_read(struct pf_index *ix, struct pf_chunk *c, uint64_t off,
	    size_t len, size_t want, const char *path, struct ea_err *err)
{
	size_t got = 0;

	if (c->buf && off >= c->boff && off - c->boff <= c->blen &&
	    len <= c->blen - (off - c->boff))
		return 0;
	if (off > ix->len || len > ix->len - off)
		return ea_err_set(err, "%s:offset %" PRIu64 ": beyond the end of the file",
				  path, off);
	if (want < len)
		want = len;
	if (want > ix->len - off)
		want = (size_t)(ix->len - off);
	if (want > c->cap) {
		uint8_t *q = realloc(c->buf, want);

		if (!q)
			return ea_err_set(err, "%s: out of memory", path);
		c->buf = q;
		c->cap = want;
	}
	c->boff = off;
	c->blen = 0;
	while (got < want) {
		ssize_t k = pread(ix->fd, c->buf + got, want - got, (off_t)(off + got));

		if (k <= 0)
			return ea_err_set(err, "%s:offset %" PRIu64 ": %s", path, off + got,
					  k < 0 ? strerror(errno) : "file shrank while read");
		got += (size_t)k;
	}
	c->blen = got;
	return 0;
}

int pf_bundle_bytes(struct pf_index *ix, const struct pf_bundle *b,
		    struct pf_chunk *c, size_t want, const uint8_t **p,
		    const uint8_t **end, const char *path, struct ea_err *err)
{
	if (b->p) {
		*p = b->p;
		*end = b->end;
		return 0;
	}
	if (pf_read(ix, c, b->off, b->len, want, path, err))
		return -1;
	*p = c->buf + (b->off - c->boff);
	*end = *p + b->len;
	return 0;
}

/* ---- index ------------------------------------------------------------- */

struct walk {
	struct pf_index *ix;
	const char *path;
	struct ea_err *err;
	struct pf_chunk ck;	/* the file's bytes being indexed (not gzip'd) */
};

/*
 * "offset N" in the file, or "compressed packet K offset N" inside one;
 * base NULL: at is in the file's chunk.
 */
static int bad(struct walk *w, uint32_t comp, const uint8_t *at,
	       const uint8_t *base, const char *what)
{
	if (!comp && !base)
		return ea_err_set(w->err, "%s:offset %" PRIu64 ": %s", w->path,
				  w->ck.boff + (uint64_t)(at - w->ck.buf), what);
	if (comp)
		return ea_err_set(w->err, "%s:compressed_packets %" PRIu32 " offset %td: %s",
				  w->path, comp, at - base, what);
	return ea_err_set(w->err, "%s:offset %td: %s", w->path, at - base, what);
}

/* Count n more bytes of what the file expands to; over the budget: -1. */
static int spend(struct walk *w, uint64_t n, const char *what, uint32_t comp,
		 const uint8_t *at, const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	char m[256];

	if (n <= ix->budget - ix->spent) {
		ix->spent += n;
		return 0;
	}
	ea_inflate_refusal(m, sizeof(m), what, ix->stored);
	return bad(w, comp, at, base, m);
}

/*
 * Index one bundle: its CPU and, for a CPU's first bundle only (the crop
 * needs no other), its previous_bundle_end_timestamp. Serialisers write
 * fields in number order, cpu (1) first: a later bundle of a known CPU is
 * not scanned past it. reader-perfetto.c checks the rest when it decodes
 * the bundle.
 */
static int index_bundle(struct walk *w, struct pb_buf b, uint32_t comp,
			const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	struct pf_bundle *e;
	struct pb_field f = { 0 };
	bool have_cpu = false;
	uint64_t cpu = 0;
	int rc;

	/* an inflated file's index counts: 1 MB may hold 250 000 bundles */
	if (base || ix->expanded) {
		if (spend(w, sizeof(*e) + sizeof(size_t), "the index of the ftrace bundles",
			  comp, b.p, base))
			return -1;
	}
	if (ea_grow((void **)&ix->b, &ix->capb, ix->nb + 1, sizeof(*ix->b), 16))
		return ea_err_set(w->err, "%s: out of memory", w->path);
	e = &ix->b[ix->nb];
	memset(e, 0, sizeof(*e));
	e->len = (size_t)(b.end - b.p);
	if (base) {
		e->p = b.p;
		e->end = b.end;
	} else {
		e->off = w->ck.boff + (uint64_t)(b.p - w->ck.buf);
	}
	e->packet = ix->npackets;
	while ((rc = pb_next(&b, &f)) == PB_OK) {
		switch (f.num) {
		case 1:
			cpu = f.v;
			have_cpu = true;
			break;
		case 9:
			if (!e->has_prev_end)
				e->prev_end = f.v;
			e->has_prev_end = true;
			break;
		case 10:
			e->prev_end = f.v;
			e->has_prev_end = true;
			break;
		default:
			break;
		}
		if (have_cpu && cpu < EA_MAX_CPUS && (int64_t)cpu <= ix->max_cpu &&
		    ix->seen[cpu])
			break;
	}
	if (rc == PB_ERR)
		return bad(w, comp, b.p, base, "malformed ftrace bundle (protobuf field cut or invalid)");
	if (cpu >= EA_MAX_CPUS) {
		char m[96];

		snprintf(m, sizeof(m), "ftrace bundle for CPU %" PRIu64 " (max %d)",
			 cpu, EA_MAX_CPUS - 1);
		return bad(w, comp, e->p ? e->p : w->ck.buf + (e->off - w->ck.boff),
			   base, m);
	}
	e->cpu = (int32_t)cpu;
	if (e->cpu > ix->max_cpu)
		ix->max_cpu = e->cpu;
	ix->seen[cpu] = true;
	ix->nb++;
	return 0;
}

static int walk_trace(struct walk *w, struct pb_buf t, uint32_t comp,
		      const uint8_t *base);

/*
 * The first size of a compressed packet's buffer: four times its
 * compressed size, within the budget (one byte past it: see next_cap()).
 */
static size_t first_cap(struct pf_index *ix, size_t compressed)
{
	uint64_t left = ix->budget - ix->spent;
	uint64_t n = (uint64_t)compressed * 4 + 4096;

	return (size_t)(n > left + 1 ? left + 1 : n);
}

/*
 * An inflated compressed packet of len bytes at out, counted; walked,
 * then kept if a bundle points into it, else freed at once.
 */
static int walk_inflated(struct walk *w, uint8_t *out, size_t len, uint32_t me,
			 const char *what, const uint8_t *at, const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	size_t nb = ix->nb;
	int rc;

	if (spend(w, len, what, 0, at, base)) {
		free(out);
		return -1;
	}
	rc = walk_trace(w, (struct pb_buf){ out, out + len }, me, out);
	if (ix->nb == nb) {
		free(out);
		return rc;
	}
	ix->bufs[ix->nbufs++] = out;
	return rc;
}

static int inflate_packets(struct walk *w, struct pb_buf c, uint32_t comp,
			   const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	size_t cap = first_cap(ix, (size_t)(c.end - c.p)), len = 0;
	uint32_t me = ++ix->ncompressed;
	uint8_t *out = NULL;
	z_stream z;
	int rc;

	if (comp)
		return bad(w, comp, c.p, base, "compressed_packets inside compressed_packets");
	if (ea_grow((void **)&ix->bufs, &ix->capbufs, ix->nbufs + 1, sizeof(*ix->bufs), 16))
		return ea_err_set(w->err, "%s: out of memory", w->path);
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 32 + MAX_WBITS) != Z_OK)
		return ea_err_set(w->err, "%s: out of memory", w->path);
	z.next_in = (unsigned char *)c.p;
	z.avail_in = (uInt)(c.end - c.p);	/* < 4 GiB: checked by caller */
	do {
		if (len == cap || !out) {
			size_t ncap = out ? next_cap(cap, ix->budget - ix->spent) : cap;
			uint8_t *q = ncap ? realloc(out, ncap) : NULL;

			if (!q) {
				char m[256];

				inflateEnd(&z);
				free(out);
				if (ncap)
					return bad(w, comp, c.p, base, "compressed_packets: out of memory");
				ea_inflate_refusal(m, sizeof(m), "compressed_packets", ix->stored);
				return bad(w, comp, c.p, base, m);
			}
			cap = ncap;
			out = q;
		}
		z.next_out = out + len;
		z.avail_out = (uInt)(cap - len > (1u << 30) ? (1u << 30) : cap - len);
		rc = inflate(&z, Z_NO_FLUSH);
		len = (size_t)(z.next_out - out);
	} while (rc == Z_OK || (rc == Z_BUF_ERROR && z.avail_out == 0));
	inflateEnd(&z);
	if (rc != Z_STREAM_END) {
		char m[128];

		free(out);
		snprintf(m, sizeof(m), "corrupt compressed_packets (zlib: %s)",
			 rc == Z_BUF_ERROR ? "data cut short" :
			 z.msg ? z.msg : "error");
		return bad(w, comp, c.p, base, m);
	}
	return walk_inflated(w, out, len, me, "compressed_packets", c.p, base);
}

static int unzstd_packets(struct walk *w, struct pb_buf c, uint32_t comp,
			  const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	size_t cap = first_cap(ix, (size_t)(c.end - c.p)), rc = 1;
	uint32_t me = ++ix->ncompressed;
	ZSTD_inBuffer in = { c.p, (size_t)(c.end - c.p), 0 };
	ZSTD_outBuffer out = { NULL, 0, 0 };
	ZSTD_DStream *z;

	if (comp)
		return bad(w, comp, c.p, base, "zstd_compressed_packets inside compressed packets");
	if (ea_grow((void **)&ix->bufs, &ix->capbufs, ix->nbufs + 1, sizeof(*ix->bufs), 16))
		return ea_err_set(w->err, "%s: out of memory", w->path);
	z = ZSTD_createDStream();
	if (!z)
		return ea_err_set(w->err, "%s: out of memory", w->path);
	/* until the frame ends (rc 0) and all input is used */
	while (rc != 0 || in.pos < in.size) {
		if (out.pos == out.size) {
			size_t ncap = out.dst ? next_cap(cap, ix->budget - ix->spent) : cap;
			void *q = ncap ? realloc(out.dst, ncap) : NULL;

			if (!q) {
				char m[256];

				ZSTD_freeDStream(z);
				free(out.dst);
				if (ncap)
					return bad(w, comp, c.p, base, "zstd_compressed_packets: out of memory");
				ea_inflate_refusal(m, sizeof(m), "zstd_compressed_packets", ix->stored);
				return bad(w, comp, c.p, base, m);
			}
			cap = ncap;
			out.dst = q;
			out.size = cap;
		}
		rc = ZSTD_decompressStream(z, &out, &in);
		if (ZSTD_isError(rc) ||
		    (rc != 0 && in.pos == in.size && out.pos < out.size)) {
			char m[128];

			snprintf(m, sizeof(m), "corrupt zstd_compressed_packets (zstd: %s)",
				 ZSTD_isError(rc) ? ZSTD_getErrorName(rc) : "data cut short");
			ZSTD_freeDStream(z);
			free(out.dst);
			return bad(w, comp, c.p, base, m);
		}
	}
	ZSTD_freeDStream(z);
	if (!out.dst && !(out.dst = malloc(1)))
		return ea_err_set(w->err, "%s: out of memory", w->path);
	return walk_inflated(w, out.dst, out.pos, me, "zstd_compressed_packets", c.p, base);
}

/*
 * A PowerRails message: descriptors name rails, energy_data samples their
 * counters. A sample's time is its timestamp_ms, else the packet's
 * timestamp (pts, 0: none). Malformed: -1.
 */
static int power_rails(struct walk *w, struct pb_buf b, uint64_t pts,
		       uint32_t comp, const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	struct pb_field f = { 0 }, g = { 0 };
	int rc, rc2;

	if (!ix->rails && !(ix->rails = calloc(1, sizeof(*ix->rails))))
		return ea_err_set(w->err, "%s: out of memory", w->path);
	while ((rc = pb_next(&b, &f)) == PB_OK) {
		struct pb_buf m = f.sub;
		struct pb_buf name = { NULL, NULL }, subsys = { NULL, NULL };
		uint64_t index = 0, ms = 0, uws = 0;
		struct ea_rail *r;

		if ((f.num != 1 && f.num != 2) || f.wire != PB_LEN)
			continue;
		while ((rc2 = pb_next(&m, &g)) == PB_OK) {
			if (g.num == 1 && g.wire == PB_VARINT)
				index = g.v;
			else if (g.num == 2 && f.num == 1 && g.wire == PB_LEN)
				name = g.sub;
			else if (g.num == 2 && g.wire == PB_VARINT)
				ms = g.v;
			else if (g.num == 3 && f.num == 1 && g.wire == PB_LEN)
				subsys = g.sub;
			else if (g.num == 3 && g.wire == PB_VARINT)
				uws = g.v;
		}
		if (rc2 == PB_ERR)
			return bad(w, comp, m.p, base, "malformed power_rails (protobuf field cut or invalid)");
		if (index > UINT32_MAX)
			return bad(w, comp, f.sub.p, base, "power rail index beyond 32 bits");
		r = ea_rails_get(ix->rails, (uint32_t)index);
		if (!r)
			return ea_err_set(w->err, "%s: out of memory", w->path);
		if (f.num == 1) {
			if (name.p)
				pb_str(&name, r->name, sizeof(r->name));
			if (subsys.p)
				pb_str(&subsys, r->subsys, sizeof(r->subsys));
			r->described = true;
			continue;
		}
		if (ms > UINT64_MAX / 1000000)
			return bad(w, comp, f.sub.p, base, "power rail sample time beyond 64-bit ns");
		if (ea_rail_add_sample(r, ms ? ms * 1000000 : pts, uws))
			return ea_err_set(w->err, "%s: out of memory", w->path);
	}
	if (rc == PB_ERR)
		return bad(w, comp, b.p, base, "malformed power_rails (protobuf field cut or invalid)");
	return 0;
}

/* A ProcessTree: threads' tgids, processes' names (cmdline[0]). */
static int process_tree(struct walk *w, struct pb_buf b, uint32_t comp,
			const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	struct pb_field f = { 0 }, g = { 0 };
	int rc, rc2;

	if (!ix->procs && !(ix->procs = calloc(1, sizeof(*ix->procs))))
		return ea_err_set(w->err, "%s: out of memory", w->path);
	while ((rc = pb_next(&b, &f)) == PB_OK) {
		struct pb_buf m = f.sub, name = { NULL, NULL };
		int64_t id = -1, tgid = -1;
		int r = 0;

		if ((f.num != 1 && f.num != 2) || f.wire != PB_LEN)
			continue;
		while ((rc2 = pb_next(&m, &g)) == PB_OK) {
			if (g.num == 1 && g.wire == PB_VARINT)
				id = pb_i32(g.v);
			else if (g.num == 3 && f.num == 2 && g.wire == PB_VARINT)
				tgid = pb_i32(g.v);
			else if (g.num == 3 && f.num == 1 && g.wire == PB_LEN && !name.p)
				name = g.sub;
		}
		if (rc2 == PB_ERR)
			return bad(w, comp, m.p, base, "malformed process_tree (protobuf field cut or invalid)");
		if (id < 0)
			continue;
		if (f.num == 2 && tgid >= 0)
			r = ea_procs_add_thread(ix->procs, (int32_t)id, (int32_t)tgid);
		else if (f.num == 1)
			r = ea_procs_add_proc(ix->procs, (int32_t)id,
					      (const char *)name.p,
					      name.p ? (size_t)(name.end - name.p) : 0);
		if (r)
			return ea_err_set(w->err, "%s: out of memory", w->path);
	}
	if (rc == PB_ERR)
		return bad(w, comp, b.p, base, "malformed process_tree (protobuf field cut or invalid)");
	return 0;
}

/* The first sys_stats' cpufreq_khz: each CPU's frequency when it was taken. */
static int sys_stats(struct walk *w, struct pb_buf b, uint64_t pts,
		     uint32_t comp, const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	struct pb_field f = { 0 };
	size_t cap = 0, n = 0;
	uint32_t *v = NULL;
	int rc;

	if (ix->freq0)
		return 0;
	while ((rc = pb_next(&b, &f)) == PB_OK) {
		struct pb_buf a;
		uint64_t x;

		if (f.num != 11)
			continue;
		if (f.wire == PB_LEN) {
			a = f.sub;
		} else if (f.wire == PB_VARINT) {
			a.p = a.end = NULL;
		} else {
			continue;
		}
		for (;;) {
			if (f.wire == PB_LEN) {
				int r2 = pb_packed_next(&a, &x);

				if (r2 == PB_END)
					break;
				if (r2 != PB_OK) {
					free(v);
					return bad(w, comp, a.p, base, "malformed sys_stats cpufreq_khz");
				}
			} else {
				x = f.v;
			}
			if (n == EA_MAX_CPUS)
				break;
			if (ea_grow((void **)&v, &cap, n + 1, sizeof(*v), 16)) {
				free(v);
				return ea_err_set(w->err, "%s: out of memory", w->path);
			}
			v[n++] = x > UINT32_MAX ? 0 : (uint32_t)x;
			if (f.wire != PB_LEN)
				break;
		}
	}
	if (rc == PB_ERR) {
		free(v);
		return bad(w, comp, b.p, base, "malformed sys_stats (protobuf field cut or invalid)");
	}
	ix->freq0 = v;
	ix->nfreq0 = n;
	ix->freq0_ts = pts;
	return 0;
}

/*
 * FtraceStats: what each CPU lost, overrun + dropped_events, at the end
 * of the trace (phase 2) less at its start (phase 1).
 */
static int ftrace_stats(struct walk *w, struct pb_buf b, uint32_t comp,
			const uint8_t *base)
{
	struct pf_index *ix = w->ix;
	struct pb_field f = { 0 }, g = { 0 };
	uint64_t phase = 0;
	struct pb_buf c = b;
	int rc;

	while ((rc = pb_next(&c, &f)) == PB_OK)
		if (f.num == 1 && f.wire == PB_VARINT)
			phase = f.v;
	if (rc == PB_ERR)
		return bad(w, comp, c.p, base, "malformed ftrace_stats (protobuf field cut or invalid)");
	if (phase != 1 && phase != 2)
		return 0;
	while (pb_next(&b, &f) == PB_OK) {
		struct pb_buf m = f.sub;
		uint64_t cpu = 0, lost = 0;
		int r2;

		if (f.num != 2 || f.wire != PB_LEN)
			continue;
		while ((r2 = pb_next(&m, &g)) == PB_OK) {
			if (g.wire != PB_VARINT)
				continue;
			if (g.num == 1)
				cpu = g.v;
			else if (g.num == 3 || g.num == 8)
				lost += g.v;
		}
		if (r2 == PB_ERR)
			return bad(w, comp, m.p, base, "malformed ftrace_stats cpu_stats");
		if (cpu >= EA_MAX_CPUS)
			continue;
		if (cpu >= ix->nlost) {
			size_t cap = ix->nlost;
			uint64_t *q;

			if (ea_grow((void **)&ix->lost, &cap, cpu + 1, sizeof(*ix->lost), 16))
				return ea_err_set(w->err, "%s: out of memory", w->path);
			q = ix->lost;
			memset(q + ix->nlost, 0, (cap - ix->nlost) * sizeof(*q));
			ix->nlost = cap;
		}
		/* start: subtracted (wrapping back at the end) */
		if (phase == 1)
			ix->lost[cpu] -= lost;
		else
			ix->lost[cpu] += lost;
	}
	if (phase == 2)
		ix->lost_known = true;
	return 0;
}

static int walk_packet(struct walk *w, struct pb_buf p, uint32_t comp,
		       const uint8_t *base)
{
	struct pb_field f = { 0 };
	struct pb_buf rails = { NULL, NULL }, sys = { NULL, NULL };
	struct pb_buf fst = { NULL, NULL }, tree = { NULL, NULL };
	uint64_t pts = 0;
	int rc;

	w->ix->npackets++;
	while ((rc = pb_next(&p, &f)) == PB_OK) {
		if (f.num == PKT_TIMESTAMP && f.wire == PB_VARINT)
			pts = f.v;
		if (f.wire != PB_LEN)
			continue;
		if (f.num == PKT_POWER_RAILS) {
			rails = f.sub;
		} else if (f.num == PKT_SYS_STATS) {
			sys = f.sub;
		} else if (f.num == PKT_FTRACE_STATS) {
			fst = f.sub;
		} else if (f.num == PKT_PROCESS_TREE) {
			tree = f.sub;
		} else if (f.num == PKT_FTRACE) {
			if (index_bundle(w, f.sub, comp, base))
				return -1;
		} else if (f.num == PKT_COMPRESSED) {
			if (f.sub.end - f.sub.p >= (1ll << 32))
				return bad(w, comp, f.sub.p, base, "compressed_packets of 4 GiB or more");
			if (inflate_packets(w, f.sub, comp, base))
				return -1;
		} else if (f.num == PKT_ZSTD) {
			if (unzstd_packets(w, f.sub, comp, base))
				return -1;
		}
	}
	if (rc == PB_ERR)
		return bad(w, comp, p.p, base, "malformed trace packet (protobuf field cut or invalid)");
	if (rails.p && power_rails(w, rails, pts, comp, base))
		return -1;
	if (sys.p && sys_stats(w, sys, pts, comp, base))
		return -1;
	if (fst.p && ftrace_stats(w, fst, comp, base))
		return -1;
	if (tree.p && process_tree(w, tree, comp, base))
		return -1;
	return 0;
}

static int walk_trace(struct walk *w, struct pb_buf t, uint32_t comp,
		      const uint8_t *base)
{
	struct pb_field f = { 0 };
	int rc;

	while ((rc = pb_next(&t, &f)) == PB_OK) {
		if (f.num != 1 || f.wire != PB_LEN)
			return bad(w, comp, t.p, base, "not a Perfetto trace here (expected a TracePacket, field 1)");
		if (walk_packet(w, f.sub, comp, base))
			return -1;
	}
	if (rc == PB_ERR) {
		/* the usual case: a file cut while it was written */
		struct pb_buf c = t;
		uint64_t tag, len;

		if (pb_varint(&c, &tag) == PB_OK && tag == 0x0a &&
		    pb_varint(&c, &len) == PB_OK && len > (uint64_t)(c.end - c.p)) {
			char m[128];

			snprintf(m, sizeof(m), "truncated trace: packet of %" PRIu64 " bytes, %td left in the file",
				 len, c.end - c.p);
			return bad(w, comp, t.p, base, m);
		}
		return bad(w, comp, t.p, base, "malformed trace (protobuf field cut or invalid)");
	}
	return 0;
}

/* The file, packet by packet, through the chunk (walk_trace's rules). */
static int walk_file(struct walk *w)
{
	struct pf_index *ix = w->ix;
	uint64_t off = 0;

	while (off < ix->len) {
		size_t head = ix->len - off < 16 ? (size_t)(ix->len - off) : 16;
		const uint8_t *tag;
		struct pb_buf h;
		uint64_t len;

		if (pf_read(ix, &w->ck, off, head, PF_CHUNK, w->path, w->err))
			return -1;
		tag = w->ck.buf + (off - w->ck.boff);
		h.p = tag;
		h.end = tag + head;
		if (*tag != 0x0a) {
			struct pb_field f = { 0 };

			/* a field that is not a packet, or one cut short */
			if (pb_next(&h, &f) == PB_OK || head == 16)
				return bad(w, 0, tag, NULL, "not a Perfetto trace here (expected a TracePacket, field 1)");
			return bad(w, 0, tag, NULL, "malformed trace (protobuf field cut or invalid)");
		}
		h.p++;
		if (pb_varint(&h, &len) != PB_OK)
			return bad(w, 0, tag, NULL, "malformed trace (protobuf field cut or invalid)");
		off += (uint64_t)(h.p - tag);
		if (len > ix->len - off) {
			char m[128];

			snprintf(m, sizeof(m), "truncated trace: packet of %" PRIu64 " bytes, %" PRIu64 " left in the file",
				 len, (uint64_t)(ix->len - off));
			return bad(w, 0, tag, NULL, m);
		}
		if (pf_read(ix, &w->ck, off, (size_t)len, PF_CHUNK, w->path, w->err))
			return -1;
		h.p = w->ck.buf + (off - w->ck.boff);
		h.end = h.p + len;
		if (walk_packet(w, h, 0, NULL))
			return -1;
		off += len;
	}
	return 0;
}

int pf_index_open(struct pf_index *ix, const char *path, uint64_t stored_bytes,
		  struct ea_err *err)
{
	struct walk w = { ix, path, err, { NULL, 0, 0, 0 } };
	int rc;

	memset(ix, 0, sizeof(*ix));
	ix->fd = -1;
	ix->max_cpu = -1;
	ix->stored = stored_bytes;
	ix->expanded = stored_bytes != 0;
	if (load(ix, path, err))
		return -1;
	if (ix->fd >= 0)
		rc = walk_file(&w);
	else
		rc = walk_trace(&w, (struct pb_buf){ ix->data, ix->data + ix->len },
				0, ix->data);
	free(w.ck.buf);
	if (rc)
		return -1;
	if (ix->rails)
		ea_rails_finish(ix->rails);
	if (ix->procs)
		ea_procs_finish(ix->procs);
	return 0;
}

int pf_spend_decoded(struct pf_index *ix, size_t bytes, const struct pf_bundle *b,
		     const char *path, struct ea_err *err)
{
	uint64_t limit = ix->budget > UINT64_MAX / 4 ? UINT64_MAX : ix->budget * 4;

	ix->decoded += bytes;
	if ((!ix->expanded && !ix->nbufs) || ix->decoded <= limit)
		return 0;
	return ea_err_set(err, "%s:cpu %d packet %" PRIu32 ": ftrace bundles decode to more than %" PRIu64
			  " bytes of events at once, the limit for a file of %" PRIu64
			  " bytes (4 times --max-inflate %u's limit)", path, b->cpu, b->packet,
			  limit, ix->stored, ea_input_max_inflate());
}

void pf_index_free(struct pf_index *ix)
{
	if (ix->fd >= 0)
		close(ix->fd);
	free(ix->data);
	for (size_t i = 0; i < ix->nbufs; i++)
		free(ix->bufs[i]);
	free(ix->bufs);
	free(ix->b);
	ea_rails_free(ix->rails);
	ea_procs_free(ix->procs);
	free(ix->lost);
	free(ix->freq0);
	memset(ix, 0, sizeof(*ix));
}

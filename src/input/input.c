// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reader selection by content, and the checks every reader's output gets:
 * CPU ids in range, timestamps never going backwards, values that are
 * physically possible. Errors name the file and the reader's position.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eatrace/input.h"
#include "eatrace/procs.h"
#include "eatrace/rail-samples.h"
#include "input/event-check.h"
#include "input/input-block.h"
#include "input/reader.h"
#include "input/spool.h"
#include "input/text-stream.h"

/* Probed in order: the first that recognises the file reads it. */
static const struct ea_reader_ops *const readers[] = {
	&ea_reader_dat,
	&ea_reader_perfetto,	/* before text: a binary protobuf */
	&ea_reader_systrace,
	&ea_reader_text,
};

#define PROBE_BYTES 4096

/* What the read ahead of ea_input_first_event() found so far. */
struct first_scan {
	struct ea_input *ahead;	/* second reader of the file, NULL at end */
	bool done;		/* read to the end */
	int n;			/* CPUs below n in first[] */
	struct first_of {
		uint8_t state;	/* 0 none yet, 1 lost seen, 2 found */
		bool lost_before;
		struct ea_event ev;
	} *first;
};

struct ea_input {
	const struct ea_reader_ops *ops;
	void *priv;
	char *path;
	char *tmp;		/* spooled copy of stdin or of a compressed binary
				   trace (spool.c): /proc/self/fd/N, or NULL */
	int tmp_fd;		/* its descriptor (closing removes it), -1 */
	struct ea_input_info info;
	uint64_t last_ts;
	uint64_t nevents;
	/* the reader checks its events itself (ea_reader_ops.checked),
	 * asked once its first event is read */
	bool asked_checked, checked;
	struct ea_event one;	/* ea_input_next_block()'s, one at a time */
	struct first_scan *fs;
};

static int read_head(const char *path, unsigned char *buf, size_t *n,
		     struct ea_err *err)
{
	ssize_t got;
	int fd;

	if (ea_input_check(path, err))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	got = read(fd, buf, PROBE_BYTES);
	close(fd);
	if (got < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	if (got == 0)
		return ea_err_set(err, "%s: empty file", path), 1;
	*n = (size_t)got;
	return 0;
}

/* The first bytes of a gzip or zstd file, decompressed. */
static int read_zhead(const char *path, unsigned char *buf, size_t *n,
		      struct ea_err *err)
{
	struct ea_tstream *ts = ea_ts_open(path, err);
	size_t have = 0;

	if (!ts)
		return -1;
	while (have < PROBE_BYTES) {
		ssize_t got = ea_ts_read(ts, buf + have, PROBE_BYTES - have);

		if (got < 0) {
			ea_err_set(err, strncmp(ea_ts_error(ts), "offset ", 7) ? "%s: %s" : "%s:%s",
				   path, ea_ts_error(ts));
			ea_ts_close(ts);
			return -1;
		}
		if (!got)
			break;
		have += (size_t)got;
	}
	ea_ts_close(ts);
	if (!have)
		return ea_err_set(err, "%s: empty file (%s-compressed)", path,
				  ea_z_name(ea_z_detect(buf, 4))), 1;
	*n = have;
	return 0;
}

#define NREADERS (sizeof(readers) / sizeof(readers[0]))

/*
 * Which reader reads the file at real (named path in messages), by its
 * first bytes (decompressed when gzip or zstd): 0 with *reader its index
 * and *zk the compression; 1 when it is not a trace (empty, no reader
 * recognises it), -1 when it cannot be read; err set for both.
 */
static int detect(const char *real, const char *path, enum ea_zkind *zk,
		  size_t *reader, struct ea_err *err)
{
	unsigned char head[PROBE_BYTES];
	size_t n = 0, i;
	int rc;

	if ((rc = read_head(real, head, &n, err)))
		return rc;
	*zk = ea_z_detect(head, n);
	if (*zk != EA_Z_NONE) {
		unsigned char magic[4];

		memcpy(magic, head, sizeof(magic));
		if ((rc = read_zhead(real, head, &n, err)))
			return rc;
		if (ea_z_detect(head, n) != EA_Z_NONE)
			return ea_err_set(err, "%s: %s data inside %s data: not a trace",
					  path, ea_z_name(ea_z_detect(head, n)),
					  ea_z_name(ea_z_detect(magic, 4))), 1;
	}
	for (i = 0; i < NREADERS; i++)
		if (readers[i]->probe(head, n))
			break;
	if (i == NREADERS)
		return ea_err_set(err, "%s: not a trace.dat, Perfetto trace, ftrace text or systrace file",
				  path), 1;
	*reader = i;
	return 0;
}

int ea_input_probe(const char *path, const char **format, struct ea_err *err)
{
	enum ea_zkind zk;
	size_t i;
	int rc = detect(path, path, &zk, &i, err);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (format)
		*format = readers[i]->name;
	return 1;
}

/* An error from a reader about the spooled copy names the original. */
static void name_original(const char *tmp, const char *path, struct ea_err *err)
{
	char *at, buf[EA_ERR_MAX];

	if (!tmp || !(at = strstr(err->msg, tmp)))
		return;
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - err->msg), err->msg, path,
		 at + strlen(tmp));
	snprintf(err->msg, sizeof(err->msg), "%s", buf);
}

/* A spooled copy: its descriptor closed removes it. */
static void drop_tmp(char **tmp, int *fd)
{
	if (*fd >= 0)
		close(*fd);
	free(*tmp);
	*tmp = NULL;
	*fd = -1;
}

int ea_input_open(struct ea_input **inp, const char *path, struct ea_err *err)
{
	struct ea_input *in;
	char *tmp = NULL;
	int tmp_fd = -1;
	const char *real = path;
	bool gzipped = false;
	uint64_t stored_bytes = 0;
	enum ea_zkind zk;
	size_t i;

	*inp = NULL;
	if (!strcmp(path, "-")) {
		if ((tmp_fd = ea_spool_stdin(&tmp, err)) < 0)
			return -1;
		path = EA_STDIN_NAME;
		real = tmp;
	}
	if (detect(real, path, &zk, &i, err))
		goto fail;
	/*
	 * A compressed text trace is decompressed as it is read (text-events.c);
	 * the binary readers want a file: a decompressed copy (spool.c).
	 */
	if (zk != EA_Z_NONE && !readers[i]->reads_compressed) {
		char *cp = NULL;
		int fd = ea_spool_decompress(real, path, &cp, &stored_bytes, err);

		name_original(tmp, path, err);
		drop_tmp(&tmp, &tmp_fd);
		tmp = cp;
		tmp_fd = fd;
		if (fd < 0)
			return -1;
		real = tmp;
		gzipped = zk == EA_Z_GZIP;
	}
	in = calloc(1, sizeof(*in));
	if (!in || !(in->path = strdup(path))) {
		free(in);
		ea_err_set(err, "%s: out of memory", path);
		goto fail;
	}
	in->tmp = tmp;
	in->tmp_fd = tmp_fd;
	in->ops = readers[i];
	in->info.ncpus = -1;
	in->info.gzip = gzipped;
	in->info.stored_bytes = stored_bytes;
	for (int t = 0; t < EA_EV_NR; t++)
		in->info.may_have[t] = true;
	if (in->ops->open(&in->priv, real, &in->info, err)) {
		name_original(tmp, path, err);
		free(in->path);
		free(in);
		goto fail;
	}
	if (in->info.ncpus > EA_MAX_CPUS) {
		int ncpus = in->info.ncpus;

		ea_input_close(in);
		return ea_err_set(err, "%s: header claims %d CPUs (max %d)",
				  path, ncpus, EA_MAX_CPUS);
	}
	*inp = in;
	return 0;
fail:
	if (tmp) {
		name_original(tmp, path, err);
		drop_tmp(&tmp, &tmp_fd);
	}
	return -1;
}

__attribute__((format(printf, 3, 4)))
static int bad_event(struct ea_input *in, struct ea_err *err, const char *fmt, ...)
{
	char where[64] = "";
	char cause[256];
	va_list ap;

	in->ops->where(in->priv, where, sizeof(where));
	va_start(ap, fmt);
	vsnprintf(cause, sizeof(cause), fmt, ap);
	va_end(ap);
	return ea_err_set(err, "%s:%s: %s", in->path, where, cause);
}

static int check_event(struct ea_input *in, const struct ea_event *ev,
		       struct ea_err *err)
{
	char cause[256];

	if (ea_event_ok(ev, in->info.ncpus, in->last_ts))
		return 0;
	ea_event_cause(ev, in->info.ncpus, in->last_ts, cause, sizeof(cause));
	return bad_event(in, err, "%s", cause);
}

int ea_input_next(struct ea_input *in, struct ea_event *ev, struct ea_err *err)
{
	int rc = in->ops->next(in->priv, ev, err);

	if (rc < 0)
		name_original(in->tmp, in->path, err);
	if (rc <= 0)
		return rc;
	if (!in->asked_checked) {
		in->asked_checked = true;
		in->checked = in->ops->checked && in->ops->checked(in->priv);
	}
	if (!in->checked && check_event(in, ev, err))
		return -1;
	in->last_ts = ev->ts;
	in->nevents++;
	return 1;
}

int ea_input_next_block(struct ea_input *in, const struct ea_event **evs,
			size_t *n, struct ea_err *err)
{
	int rc;

	if (in->ops->next_block &&
	    (rc = in->ops->next_block(in->priv, evs, n, err)) != 2) {
		if (rc < 0)
			name_original(in->tmp, in->path, err);
		if (rc > 0) {
			in->last_ts = (*evs)[*n - 1].ts;
			in->nevents += *n;
		}
		return rc;
	}
	rc = ea_input_next(in, &in->one, err);
	if (rc > 0) {
		*evs = &in->one;
		*n = 1;
	}
	return rc;
}

int ea_input_threads(const struct ea_input *in)
{
	return in->ops->threads ? in->ops->threads(in->priv) : 1;
}

void ea_input_block_at(struct ea_input *in, size_t i)
{
	if (in->ops->block_at)
		in->ops->block_at(in->priv, i);
}

void ea_input_where(const struct ea_input *in, char *buf, size_t n)
{
	in->ops->where(in->priv, buf, n);
}

const char *ea_input_path(const struct ea_input *in)
{
	return in->path;
}

const struct ea_input_info *ea_input_info(const struct ea_input *in)
{
	return &in->info;
}

void ea_input_take_owned(struct ea_input *in, struct ea_input_info *dst)
{
	dst->rails = in->info.rails;
	in->info.rails = NULL;
	dst->procs = in->info.procs;
	in->info.procs = NULL;
}

void ea_input_info_free_owned(struct ea_input_info *info)
{
	ea_rails_free(info->rails);
	info->rails = NULL;
	ea_procs_free(info->procs);
	info->procs = NULL;
}

static int first_grow(struct first_scan *fs, int cpu)
{
	int n = fs->n ? fs->n : 8;
	struct first_of *p;

	while (n <= cpu)
		n *= 2;
	p = realloc(fs->first, n * sizeof(*p));
	if (!p)
		return -1;
	memset(p + fs->n, 0, (n - fs->n) * sizeof(*p));
	fs->first = p;
	fs->n = n;
	return 0;
}

/*
 * Read ahead until CPU cpu's first event is known or the trace ends, with
 * a second reader of the file the first one reads: the spooled copy of
 * stdin or the decompressed copy of a compressed binary trace when there
 * is one (in->path is then "<stdin>", or the compressed file, which
 * would be decompressed again).
 */
static int first_read_ahead(struct ea_input *in, int cpu, struct ea_err *err)
{
	struct first_scan *fs = in->fs;
	struct ea_event ev;
	int rc;

	if (!fs->ahead && !fs->done &&
	    ea_input_open(&fs->ahead, in->tmp ? in->tmp : in->path, err)) {
		name_original(in->tmp, in->path, err);
		return -1;
	}
	while (!fs->done && (cpu >= fs->n || fs->first[cpu].state != 2)) {
		struct first_of *f;

		rc = ea_input_next(fs->ahead, &ev, err);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			fs->done = true;
			break;
		}
		if (ev.cpu >= fs->n && first_grow(fs, ev.cpu))
			return ea_err_set(err, "%s: out of memory", in->path);
		f = &fs->first[ev.cpu];
		if (f->state == 2)
			continue;
		if (ev.type == EA_EV_LOST) {
			f->state = 1;
			f->lost_before = true;
			continue;
		}
		f->state = 2;
		f->ev = ev;
	}
	if (fs->done && fs->ahead) {
		ea_input_close(fs->ahead);
		fs->ahead = NULL;
	}
	return 0;
}

int ea_input_first_event(struct ea_input *in, int cpu, struct ea_event *ev,
			 bool *lost_before, struct ea_err *err)
{
	struct first_scan *fs;

	*lost_before = false;
	if (cpu < 0 || cpu >= EA_MAX_CPUS)
		return 0;
	if (in->ops->first_event) {
		int rc = in->ops->first_event(in->priv, cpu, ev, lost_before, err);

		if (rc != 2)
			return rc;
		*lost_before = false;
	}
	if (!in->fs && !(in->fs = calloc(1, sizeof(*in->fs))))
		return ea_err_set(err, "%s: out of memory", in->path);
	fs = in->fs;
	if (first_read_ahead(in, cpu, err))
		return -1;
	if (cpu >= fs->n || fs->first[cpu].state != 2)
		return 0;
	*ev = fs->first[cpu].ev;
	*lost_before = fs->first[cpu].lost_before;
	return 1;
}

void ea_input_close(struct ea_input *in)
{
	if (!in)
		return;
	if (in->fs) {
		ea_input_close(in->fs->ahead);
		free(in->fs->first);
		free(in->fs);
	}
	in->ops->close(in->priv);
	ea_input_info_free_owned(&in->info);
	if (in->tmp)
		drop_tmp(&in->tmp, &in->tmp_fd);
	free(in->path);
	free(in);
}
